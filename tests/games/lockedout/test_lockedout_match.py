"""The whole game through the engine: six bots finish, replay is exact, views and SVG show a
seat its own knowledge (deduction included), the CLI tools work."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from arena.cli import main
from arena.core.clock import ManualClock
from arena.core.driver import simulate
from arena.core.errors import RuleError
from arena.core.match import HOST, SPECTATOR, Match, MatchSettings
from arena.games.lockedout import GAME


def test_six_bots_finish_fast_and_replay_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fast as in: on the simulated clock, never reading the wall clock nor sleeping (how
    many milliseconds the bots' search takes is the bench's business, not a test's)."""
    def wall(*_: object) -> float:
        raise AssertionError("the simulation read the wall clock or slept")

    with monkeypatch.context() as patch:
        for name in ("time", "monotonic", "sleep"):
            patch.setattr(time, name, wall)
        match = simulate(GAME, 11)
    result = match.result
    assert result is not None and result.detail["opened_safes"] >= 8
    assert result.detail["escaped"], "bots should get someone out"
    replay = Match.replay(GAME, match.config, match.seed, match.settings, match.created_at,
                          match.inputs(), ManualClock(match.clock.now()))
    assert replay.snapshot() == match.snapshot()


def test_bot_bargains_always_agree() -> None:
    match = simulate(GAME, 3)
    resolved = [e for e in match.log if e.kind == "bargain_resolved"]
    assert resolved and all(e.data["agreed"] for e in resolved)


def test_view_holds_own_lights_and_deduction_only() -> None:
    clock = ManualClock(0.0)
    match = Match(GAME, GAME.make_config({"helper": True}), 5, clock,
                  MatchSettings(early_close=True))
    match.submit(0, "Solo, Safe A, Left 1 Right 1\nDual, Safe B, Left 2 with Bob", final=True)
    match.submit(1, "Dual, Safe B, Right 2 with Alice", final=True)
    clock.set(86400.0)
    match.advance()
    assert match.phase_no == 2
    mine = match.view(0)["state"]["you"]
    assert mine["deduction"]["mappings"]
    assert set(mine["deduction"]["safes"]) == set("ABCDEFGHIJKLMNOP")
    for g in mine["deduction"]["suggestions"]:
        assert 0 < g["p_open"] <= 1
        assert mine["deduction"]["safes"][g["safe"]]["status"] == "closed"
        assert g["guess"] in mine["deduction"]["safes"][g["safe"]]["possible"]
    notes = [x["note"] for x in mine["lights"]]
    for viewer in (2, SPECTATOR):
        shown = json.dumps(match.view(viewer)) + json.dumps([e.to_json()
                                                             for e in match.events_for(viewer)])
        assert not any(n in shown for n in notes)
    assert "mapping" in match.view(HOST)["state"]
    assert "mapping" not in match.view(0)["state"]
    svg = match.view(0)["svg"]
    assert svg.startswith("<svg") and 'data-safe="P"' in svg


def test_bad_input_names_the_rule_and_changes_nothing() -> None:
    match = Match(GAME, GAME.default_config(), 5, ManualClock(0.0))
    before = match.snapshot()
    with pytest.raises(RuleError, match="LO-10"):
        match.submit(0, "Solo Safe A")
    assert match.snapshot() == before


def test_config_names_are_used_and_checked() -> None:
    config = GAME.make_config({"names": ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]})
    state = GAME.initial_state(config, __import__("random").Random(1))
    assert GAME.validate(state, 0, "Dual, Safe A, Left 1 with fay", None).to_json() == [  # type: ignore[arg-type]
        {"kind": "dual", "safe": "A", "side": "left", "value": 1, "partner": 5}]
    bad = GAME.make_config({"names": ["Ann", "ann", "Cat", "Dan", "Eve", "Fay"]})
    with pytest.raises(RuleError, match="LO-10"):
        GAME.initial_state(bad, __import__("random").Random(1))


def test_cli_light_golden(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lockedout", "light", "--lock", "2,3", "--guess", "3,4", "--mapping", "RGB",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"conditions": [1, 2, 3], "colour": "white"}
    assert main(["lockedout", "light", "--lock", "2,3", "--guess", "4,2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"conditions": [2]}
    assert main(["lockedout", "light", "--lock", "2,3", "--guess", "4,3", "--mapping", "GRB",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["colour"] == "green"
    assert main(["lockedout", "light", "--lock", "2,3", "--guess", "7,3"]) == 2
    assert "LO-1" in capsys.readouterr().err


def test_cli_deduce(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    obs = {"lights": [{"safe": "C", "left": 4, "right": 3, "colour": "red"},
                      {"safe": "C", "left": 4, "right": None, "colour": "black"}],
           "opened": [{"safe": "A", "left": 2, "right": 3}, {"safe": "B"}]}
    f = tmp_path / "obs.json"
    f.write_text(json.dumps(obs))
    assert main(["lockedout", "deduce", str(f), "--json", "--guess", "C:2,1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["safes"]["A"]["possible"] == [[2, 3]]
    assert [2, 3] not in out["safes"]["C"]["possible"]
    assert out["safes"]["C"]["possible"] and len(out["mappings"]) < 6
    assert out["guesses"][0]["safe"] == "C"
    f.write_text('{"lights": [{"safe": "Z", "left": 1, "right": 1, "colour": "red"}]}')
    assert main(["lockedout", "deduce", str(f)]) == 2
    assert "LO-1" in capsys.readouterr().err


def test_lo11_a_restart_mid_round_loses_nothing() -> None:
    """Rebuild from the log mid-way through a 24-hour round, as a restarted server does."""
    from arena.core.driver import BotTracker, bot_moves

    clock = ManualClock(0.0)
    match = Match(GAME, GAME.default_config(), 8, clock, MatchSettings(early_close=False))
    tracker = BotTracker()
    for hours in (30, 60, 80):  # two deadlines pass, then stop mid-round
        bot_moves(match, range(6), tracker)
        clock.set(hours * 3600.0)
        match.advance()
    assert match.phase_no == 4 and not match.finished
    restarted = Match.replay(GAME, match.config, match.seed, match.settings, match.created_at,
                             match.inputs(), ManualClock(clock.now()))
    assert restarted.snapshot() == match.snapshot()
    assert restarted.view(2) == match.view(2)


def test_names_from_a_command_line_setting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "lockedout", "--seed", "2", "--json",
                 "--set", "names=Ann,Ben,Cat,Dan,Eve,Fay"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "lockedout" and len(out["scores"]) == 6
    assert main(["simulate", "lockedout", "--set", "names=Ann,Ben"]) == 2
    assert "SE-1" in capsys.readouterr().err
    assert main(["simulate", "lockedout", "--set", "names=Ann,ann,Cat"]) == 2
    assert "LO-10" in capsys.readouterr().err
