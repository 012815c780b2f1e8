"""G-7: every stored match log replays unchanged. The logs of ``tests/fixtures/logs/`` were
recorded by ``tests/fixtures/make_logs.py`` with the code of their commit (one per game, a
Locked Out! vote with its tie, its fallbacks down to the draw, and host's ends); each is
rebuilt from its inputs, as a server rebuilds a stored match, and must give the same log
byte for byte: every entry's version, kind, data, readers and time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.core.clock import ManualClock
from arena.core.match import INPUT_KINDS, Event, Match, MatchSettings
from arena.core.registry import get_game

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "logs"
FILES = sorted(LOGS.glob("*.json"))


def _line(entry: dict[str, Any]) -> str:
    return json.dumps(entry, sort_keys=True)


def test_there_is_a_stored_log_for_every_game() -> None:
    games = {json.loads(p.read_text(encoding="utf-8"))["game"] for p in FILES}
    assert games == {"lockmaker", "boxes", "paint", "feather", "lockedout"}
    assert all(p.stat().st_size < 200_000 for p in FILES)


def _rebuilt(path: Path) -> tuple[dict[str, Any], Match]:
    """The stored file, and its match rebuilt from the log's inputs as a server would."""
    stored = json.loads(path.read_text(encoding="utf-8"))
    game = get_game(stored["game"])
    log = [Event.from_json(e) for e in stored["log"]]
    inputs = [e for e in log if e.kind in INPUT_KINDS]
    match = Match.replay(game, game.config_from_record(stored["config"]), stored["seed"],
                         MatchSettings.from_json(stored["settings"]), stored["start"], inputs,
                         ManualClock(log[-1].t), until=log[-1].t, names=stored["names"])
    return stored, match


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_stored_log_replays_byte_equal(path: Path) -> None:
    stored, match = _rebuilt(path)
    assert match.finished
    rebuilt = [_line(e.to_json()) for e in match.log]
    expected = [_line(e) for e in stored["log"]]
    for n, (old, new) in enumerate(zip(expected, rebuilt, strict=False), 1):
        assert new == old, f"{path.name}: entry {n} differs"
    assert len(rebuilt) == len(expected)


OLDER = Path(__file__).resolve().parents[1] / "fixtures" / "logs_words"
OLDER_FILES = sorted(OLDER.glob("*.json"))


def _skeleton(entry: dict[str, Any]) -> str:
    """What a server needs of a stored entry to resume a match on it: its place, kind,
    readers and time, and an input's whole data. An output's data is what the code of the
    day says about the same step: the logs recorded when events still carried sentences
    (``logs_words``) replay with the same skeleton, their outputs now carrying facts."""
    kept = {k: entry[k] for k in ("version", "kind", "to", "t")}
    if entry["kind"] in INPUT_KINDS:
        kept["data"] = entry["data"]
    return json.dumps(kept, sort_keys=True)


@pytest.mark.parametrize("path", OLDER_FILES, ids=[p.stem for p in OLDER_FILES])
def test_a_log_stored_before_events_were_facts_resumes_in_step(path: Path) -> None:
    stored, match = _rebuilt(path)
    assert match.finished
    rebuilt = [_skeleton(e.to_json()) for e in match.log]
    expected = [_skeleton(e) for e in stored["log"]]
    assert rebuilt == expected, f"{path.name}: the replay is out of step with its log"
