"""Seasons (SE-1..SE-5): properties over whole simulated seasons, and the SE-3 refusals."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.cli import main
from arena.core.errors import RuleError
from arena.core.wording import counted
from arena.season.ledger import Entry, Ledger
from arena.season.simulate import load_record, simulate_season
from arena.season.steps import MainResult, check_nomination, give_tol, nominees


@given(st.integers(3, 6), st.integers(0, 2**32))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_se_properties_of_whole_simulated_seasons(players: int, seed: int) -> None:
    record = simulate_season(players, seed)
    data = record.to_json()
    cast = data["cast"]
    # SE-1: the cast shrinks by exactly one per episode, down to one winner.
    assert len(data["episodes"]) == players - 1
    left = set(cast)
    for ep in data["episodes"]:
        assert ep["eliminated"] in left
        left.discard(ep["eliminated"])
    assert left == {data["winner"]}
    # SE-4: the EC is seat 1 and the DMO seat 2 of every Death Match after a Main Match.
    for ep in data["episodes"]:
        if ep["main"] is not None:
            assert ep["death_match"]["seats"] == [ep["ec"], ep["dmo"]]
    # SE-3: garnets are floor(bars / 2) summed over the player's escapes.
    for name in cast:
        want = sum(ep["main"]["bars"][name] // 2 for ep in data["episodes"]
                   if ep["main"] is not None and name in ep["main"]["escaped"])
        got = next(s["garnets"] for s in data["standings"] if s["name"] == name)
        assert got == want, name
    # SE-3: no ToL holder nominated while a player without one was eligible.
    entries = [Entry.from_json(e) for e in data["ledger"]]
    for ep in data["episodes"]:
        if ep["main"] is None:
            continue
        before = Ledger(tuple(cast), [e for e in entries if e.episode < ep["episode"] or (
            e.episode == ep["episode"] and e.kind != "eliminated")])
        standings = before.standings()
        if standings[ep["dmo"]].tols:
            main = ep["main"]
            pool = ([n for n in main["trapped"] if n != ep["ec"]] if len(main["trapped"]) >= 3
                    else [n for n in before.still_in() if n != ep["ec"]])
            assert all(standings[n].tols for n in pool), ep
    # SE-5: the ledger replays to the same standings, also after a JSON round trip.
    again = load_record(json.loads(json.dumps(data))).to_json()
    assert again["standings"] == data["standings"] and again == data


def _mm(**over: object) -> MainResult:
    base: dict[str, object] = dict(escaped=("Ann", "Ben"), trapped=("Cat", "Dan", "Eve"),
                                   bars={"Ann": 6, "Ben": 2, "Cat": 0, "Dan": 1, "Eve": 0},
                                   winners=("Ann",), opal=None, ec="Cat")
    base.update(over)
    return MainResult(**base)  # type: ignore[arg-type]


def test_se3_the_tol_goes_to_another_escaped_player() -> None:
    ledger = Ledger(("Ann", "Ben", "Cat", "Dan", "Eve"))
    with pytest.raises(RuleError, match="SE-3") as err:
        give_tol(ledger, 1, _mm(), "Dan")
    assert "still trapped" in str(err.value)
    with pytest.raises(RuleError, match="SE-3"):
        give_tol(ledger, 1, _mm(), "Ann")
    give_tol(ledger, 1, _mm(), "Ben")
    assert ledger.standings()["Ben"].tols == 1


def test_se3_a_tol_holder_is_never_nominated_unless_nobody_else_is_left() -> None:
    ledger = Ledger(("Ann", "Ben", "Cat", "Dan", "Eve"))
    ledger.add(Entry(1, "Dan", "tol", 1, "gift"))
    assert nominees(ledger, _mm(), "Cat") == ["Eve"]  # 3 trapped: another trapped player
    with pytest.raises(RuleError, match="SE-3") as err:
        check_nomination(ledger, _mm(), "Cat", "Dan")
    assert "Token of Life" in str(err.value)
    with pytest.raises(RuleError, match="SE-3"):
        check_nomination(ledger, _mm(), "Cat", "Ann")  # escaped, while 3 are trapped
    few = _mm(escaped=("Ann", "Ben", "Eve"), trapped=("Cat", "Dan"))
    assert nominees(ledger, few, "Cat") == ["Ann", "Ben", "Eve"]  # anyone in without a ToL
    for name in ("Ann", "Ben", "Eve"):
        ledger.add(Entry(1, name, "tol", 1, "gift"))
    assert nominees(ledger, few, "Cat") == ["Ann", "Ben", "Dan", "Eve"]  # nobody else left


def test_season_command_line_simulates_saves_and_shows(tmp_path: object,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    from pathlib import Path

    out = Path(str(tmp_path)) / "season.json"
    assert main(["season", "simulate", "--players", "4", "--seed", "2", "--json",
                 "--out", str(out)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["winner"] in printed["cast"] and len(printed["episodes"]) == 3
    assert main(["season", "show", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == printed
    assert main(["season", "show", str(out)]) == 0
    assert "wins" in capsys.readouterr().out
    assert main(["season", "simulate", "--players", "2"]) == 2
    assert "SE-1" in capsys.readouterr().err


def test_season_show_prints_the_final_standings(tmp_path: object,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """``arena season show season.json`` ends with the standings the ledger replays to."""
    from pathlib import Path

    out = Path(str(tmp_path)) / "season.json"
    assert main(["season", "simulate", "--players", "4", "--seed", "2", "--json",
                 "--out", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert main(["season", "show", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Final standings:" in text
    table = text.split("Final standings:")[1].strip().splitlines()
    assert table[0] == (f"1. {data['winner']}: won the season; "
                        + next(f"{counted(s['tols'], 'ToL')}, "
                               f"{counted(s['garnets'], 'garnet')}, "
                               f"{counted(s['opals'], 'opal')}"
                               for s in data["standings"] if s["won"]))
    assert len(table) == 4 and all("eliminated in episode" in line for line in table[1:])
