"""``arena games`` and ``arena simulate`` through the real entry points."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from arena.cli import main
from arena.core.registry import all_games


def test_games_lists_every_registered_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [g["name"] for g in listed] == list(all_games())
    for g in listed:
        assert g["seats"] in (2, 6) and g["title"] and g["summary"]


@pytest.mark.parametrize("name", list(all_games()))
def test_simulate_plays_a_whole_match(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Easy bots (G-8): the command plays a whole match at any level, and a hard Lockmaker
    match (the default level) costs half a minute of CPU in its hardest-lock search."""
    command = ["simulate", name, "--seed", "3", "--level", "easy", "--json"]
    assert main(command) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == name and out["seed"] == 3
    assert out["winner"] is None or 0 <= out["winner"] < len(out["scores"])
    assert out["events"] > 0
    assert set(out["levels"]) == {"easy"}
    # The same seed gives the same match.
    assert main(command) == 0
    assert json.loads(capsys.readouterr().out) == out


def test_unknown_game_is_a_clear_error_not_a_traceback() -> None:
    proc = subprocess.run([sys.executable, "-m", "arena", "simulate", "chess"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "unknown game 'chess'" in proc.stderr
    assert "Traceback" not in proc.stderr
