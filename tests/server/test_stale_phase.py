"""Stale submissions refused (G-2), in process.

A submission or confirmation names the phase it was made for. When that phase closed before it
arrived it is refused with 409, naming the phase in the game's words and saying nothing was
applied, and the log does not change: a page that was offline across a Locked Out! deadline
must not have its round-1 plan (or an empty "pass") recorded in round 2. A client that names no
phase is applied to the phase open now, and the answer names that phase.

The bots' side: every bot submission names its phase, and a bot move decided for a phase that
has closed is dropped, never applied to the next one.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.exceptions import StarletteDeprecationWarning

from arena.core import driver
from arena.core.clock import ManualClock
from arena.core.driver import BotMove, BotTracker, bot_apply, simulate
from arena.core.game import BotLevel
from arena.core.match import Match, MatchSettings
from arena.core.registry import all_games, get_game
from arena.server.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

NAMES = ["Ann", "Bob", "Cleo"]
EASY: BotLevel = "easy"


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("ARENA_BOT_WORKERS", "0")  # no worker processes for a test of humans
    with TestClient(create_app(f"sqlite:///{tmp_path / 'stale.db'}")) as c:
        yield c


def _lockedout(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/matches", json={
        "game": "lockedout", "seed": 5, "seats": [{"name": n, "bot": False} for n in NAMES],
        "config": {"round_seconds": 3600, "vote_seconds": 3600}})
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


def _post(client: TestClient, m: dict[str, Any], what: str, seat: int,
          body: dict[str, Any]) -> Any:
    return client.post(f"/api/matches/{m['id']}/{what}",
                       params={"token": m["tokens"]["seats"][seat]}, json=body)


def _host_events(client: TestClient, m: dict[str, Any]) -> list[dict[str, Any]]:
    r = client.get(f"/api/matches/{m['id']}/events", params={"token": m["tokens"]["host"]})
    events: list[dict[str, Any]] = r.json()["events"]
    return events


def _close_round_1(client: TestClient, m: dict[str, Any]) -> None:
    """Every seat passes as final: G-4 closes round 1 early and round 2 opens."""
    for seat in range(len(NAMES)):
        r = _post(client, m, "submit", seat, {"text": "pass", "final": True, "phase": 1})
        assert r.status_code == 200, r.text
    view = client.get(f"/api/matches/{m['id']}/view",
                      params={"token": m["tokens"]["seats"][0]}).json()
    assert view["phase"]["no"] == 2 and view["phase"]["name"] == "round 2"


def test_g2_a_plan_for_a_closed_round_is_refused_naming_the_round_and_nothing_is_logged(
        client: TestClient) -> None:
    m = _lockedout(client)
    _close_round_1(client, m)
    before = _host_events(client, m)
    plan = "Solo, Safe A, Left 1 Right 2"
    r = _post(client, m, "submit", 0, {"text": plan, "phase": 1})
    assert r.status_code == 409, r.text
    body = r.json()
    assert body["ok"] is False and body["rule"] == "G-2" and body["stale"] is True
    assert body["error"].startswith("G-2: round 1 closed at ")
    assert body["error"].endswith("before this was sent; nothing was applied")
    assert (body["phase"], body["phase_title"], body["current_phase"]) == (1, "round 1", 2)
    # A confirmation for the closed round likewise (a double-clicked "final").
    r = _post(client, m, "confirm", 0, {"phase": 1})
    assert r.status_code == 409 and "round 1 closed" in r.json()["error"], r.text
    assert _host_events(client, m) == before  # nothing was applied, not even to round 2


def test_g2_without_a_phase_number_the_open_phase_takes_it_and_the_answer_names_it(
        client: TestClient) -> None:
    m = _lockedout(client)
    r = _post(client, m, "submit", 0, {"text": "pass"})
    assert r.status_code == 200, r.text
    assert (r.json()["phase"], r.json()["phase_title"]) == (1, "round 1")
    _close_round_1(client, m)
    r = _post(client, m, "submit", 0, {"text": "pass"})
    assert r.status_code == 200, r.text
    assert (r.json()["phase"], r.json()["phase_title"]) == (2, "round 2")
    r = client.post(f"/api/matches/{m['id']}/confirm",
                    params={"token": m["tokens"]["seats"][0]})  # no body at all
    assert r.status_code == 200, r.text
    assert (r.json()["phase"], r.json()["phase_title"]) == (2, "round 2")
    # Named and open: applied, and named back.
    r = _post(client, m, "submit", 1, {"text": "pass", "phase": 2})
    assert r.status_code == 200 and r.json()["phase"] == 2, r.text


def test_g2_a_phase_that_never_was_stays_a_plain_refusal(client: TestClient) -> None:
    m = _lockedout(client)
    r = _post(client, m, "submit", 0, {"text": "pass", "phase": 7})
    assert r.status_code == 422 and "there is no phase 7" in r.json()["error"], r.text
    r = _post(client, m, "submit", 0, {"text": "pass", "phase": "1"})
    assert r.status_code == 400 and "'phase'" in r.json()["error"], r.text


def test_the_openapi_document_describes_the_phase_and_the_409(client: TestClient) -> None:
    spec = client.get("/api/openapi.json").json()
    for path in ("/api/matches/{match_id}/submit", "/api/matches/{match_id}/confirm"):
        op = spec["paths"][path]["post"]
        assert "409" in op["responses"]
        schema = op["requestBody"]["content"]["application/json"]["schema"]
        assert schema["properties"]["phase"]["type"] == "integer"


# ------------------------------------------------------------------ bots


@pytest.mark.parametrize("name", sorted(all_games()))
def test_bots_always_name_the_phase_they_answer(name: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Every bot submission of a whole match names the phase open when it is made (G-2).
    The driver names it whatever the bot's level: ``easy`` bots (G-8) play the match without
    Lockmaker's hardest-lock search (half a minute of CPU a match)."""
    seen: list[tuple[int | None, int]] = []
    real = Match.submit

    def spy(self: Match, seat: int, text: str, **kw: Any) -> Any:
        if kw.get("bot"):
            seen.append((kw.get("phase"), self.phase_no))
        return real(self, seat, text, **kw)

    monkeypatch.setattr(Match, "submit", spy)
    game = get_game(name)
    config = game.make_config({"max_rounds": 2}) if name == "lockedout" else None
    match = simulate(game, 3, config, levels=dict.fromkeys(range(game.seats), EASY))
    assert match.finished and seen
    assert all(sent is not None for sent, _ in seen), f"{name}: a bot sent no phase number"
    assert all(sent == now for sent, now in seen)


def test_a_bot_move_decided_for_a_closed_phase_is_dropped_not_applied_to_the_next() -> None:
    """The bot thought on round 1's state; round 1's deadline passed meanwhile (nothing has
    resolved it yet). Its move resolves the deadline, is refused as late and is dropped: round
    2 has nothing from it, and its seat thinks again there."""
    game = get_game("lockedout")
    clock = ManualClock(1000.0)
    config = game.make_config({"names": NAMES, "round_seconds": 60})
    match = Match(game, config, 5, clock, MatchSettings(bot_pace="instant"))
    assert match.phase_no == 1
    moves = driver.bot_think(game, match.seed, match.state, match.phase_no, [0])
    assert moves[0].text is not None
    clock.set(1000.0 + 61)  # past round 1's deadline, not yet advanced
    tracker = BotTracker()
    done = bot_apply(match, moves, tracker)
    assert done == []
    assert match.phase_no == 2 and match.standing(0) is None
    assert not [e for e in match.log if e.kind == "submit"]
    # A move stamped with an old phase number is dropped before it is even offered.
    assert bot_apply(match, [BotMove(1, 0, "pass")], tracker) == []
    assert match.standing(0) is None
