"""Defects found by the independent re-implementation, each test naming its ruling:
LO-3, LO-8, LO-10, LO-12 and SE-1 (LO-9 lives with the vote in test_lockedout_end.py)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.cli import main
from arena.core.clock import ManualClock
from arena.core.driver import simulate
from arena.core.errors import RuleError
from arena.core.match import SPECTATOR, Match
from arena.games.lockedout import GAME
from arena.games.lockedout.state import OVER
from games.lockedout.lockedout_helpers import make_state, step

ALICE, BOB, CAROL = 0, 1, 2


def test_lo3_solo_and_dual_on_the_same_safe_in_one_round_are_refused() -> None:
    state = make_state()
    with pytest.raises(RuleError, match="LO-3") as err:
        GAME.validate(state, ALICE, "Solo, Safe C, Left 3 Right 1\n"
                                    "Dual, Safe C, Left 4 with Bob", None)  # type: ignore[arg-type]
    assert "different safes" in str(err.value)
    GAME.validate(state, ALICE, "Solo, Safe C, Left 3 Right 1\n"
                                "Dual, Safe D, Left 4 with Bob", None)  # type: ignore[arg-type]


@pytest.mark.parametrize(("bob", "why"), [
    (None, "not_named"),
    ("Dual, Safe E, Right 2 with Alice", "other_safe"),
    ("Dual, Safe C, Left 2 with Alice", "same_side"),
    ("Dual, Safe C, Right 2 with Carol", "not_named"),
])
def test_lo3_a_dual_that_did_not_happen_is_told_to_both_partners(bob: str | None,
                                                                 why: str) -> None:
    state = make_state({"C": (1, 2)})
    texts = {ALICE: "Dual, Safe C, Left 4 with Bob"}
    if bob is not None:
        texts[BOB] = bob
    _, events = step(state, texts)
    failed = [e for e in events if e.kind == "dual_failed" and e.data["seat"] == ALICE]
    assert len(failed) == 1 and failed[0].to == frozenset({ALICE, BOB})
    facts = failed[0].data
    assert (facts["why"], facts["safe"], facts["partner"], facts["side"], facts["value"]) == \
        (why, "C", BOB, "left", 4)
    # The safe Bob's own Dual named, if he sent one.
    assert facts["other_safe"] == (None if bob is None else bob.split(",")[1].split()[-1])


def test_lo3_a_matched_dual_is_not_reported_as_failed() -> None:
    _, events = step(make_state({"C": (1, 2)}), {ALICE: "Dual, Safe C, Left 4 with Bob",
                                                 BOB: "Dual, Safe C, Right 3 with Alice"})
    assert not [e for e in events if e.kind == "dual_failed"]


def test_lo3_the_failed_dual_reaches_only_the_partners_in_a_live_match() -> None:
    clock = ManualClock(0.0)
    match = Match(GAME, GAME.default_config(), 3, clock)
    match.submit(ALICE, "Dual, Safe C, Left 4 with Bob", final=True)
    clock.set(86400.0)
    match.advance()
    for viewer in (ALICE, BOB):
        assert any(e.kind == "dual_failed" for e in match.events_for(viewer))
    for viewer in (CAROL, SPECTATOR):
        assert not any(e.kind == "dual_failed" for e in match.events_for(viewer))


def test_lo8_there_is_no_round_limit_unless_the_host_sets_one() -> None:
    state = make_state()
    assert state.config.max_rounds == 0
    late = state.__class__(**{**state.__dict__, "round": 31})
    after, _ = step(late, {})
    assert after.round == 32 and after.stage != OVER  # 30 rounds no longer end a match
    limited = GAME.initial_state(GAME.make_config({"max_rounds": 3}), random.Random(0))
    limited = limited.__class__(**{**limited.__dict__, "round": 3})
    after, _ = step(limited, {})
    assert "limit of 3 rounds" in after.end_reason and "LO-8" in after.end_reason


def test_lo10_the_match_uses_the_names_it_was_created_with() -> None:
    values = GAME.config_for_seats({}, ["Ann", "ben", "Cat", "Dan"])
    config = GAME.make_config(values)
    assert GAME.seat_count(config) == 4
    state = GAME.initial_state(config, random.Random(0))
    assert state.names == ("Ann", "ben", "Cat", "Dan") and len(state.seats) == 4
    # Names are case-insensitive in commands; the text's own format is taken verbatim.
    value = GAME.validate(state, 0, "Dual, Safe C, Left 4 with BEN", None)  # type: ignore[arg-type]
    assert value.to_json() == [{"kind": "dual", "safe": "C", "side": "left", "value": 4,
                                "partner": 1}]
    GAME.validate(state, 1, "Solo, Safe C, Left 3 Right 1", None)  # type: ignore[arg-type]
    with pytest.raises(RuleError, match="LO-10"):
        GAME.validate(state, 0, "Dual, Safe C, Left 4 with Alice", None)  # type: ignore[arg-type]
    assert GAME.default_seat_name(0, False) == "Alice" and GAME.default_seat_name(5, True) == \
        "Frank"
    view = json.dumps(GAME.view(state, 0))
    assert "Alice" not in view and "Ann" in view


def test_lo12_the_helper_is_off_for_seats_unless_the_host_enables_it() -> None:
    off = GAME.initial_state(GAME.default_config(), random.Random(0))
    on = GAME.initial_state(GAME.make_config({"helper": True}), random.Random(0))
    assert "deduction" not in GAME.view(off, 0)["you"]  # type: ignore[index]
    assert "deduction" in GAME.view(on, 0)["you"]  # type: ignore[index]
    assert "deduction" in GAME.host_view(off)  # type: ignore[operator]


def test_lo12_a_correct_guess_shows_no_light(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lockedout", "light", "--lock", "2,3", "--guess", "2,3", "--mapping", "RGB",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["opens"] is True and out["colour"] is None
    assert main(["lockedout", "light", "--lock", "2,3", "--guess", "2,3", "--mapping",
                 "RGB"]) == 0
    assert "no light" in capsys.readouterr().out
    assert main(["lockedout", "light", "--lock", "2,3", "--guess", "3,4", "--mapping", "RGB",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["colour"] == "white"  # LO-4's worked example


@given(st.integers(3, 6), st.integers(0, 10**6))
@settings(max_examples=8, deadline=None)
def test_se1_whole_matches_with_three_to_six_players(players: int, seed: int) -> None:
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"][:players]
    config = GAME.make_config(GAME.config_for_seats({}, names))
    match = simulate(GAME, seed, config)
    assert match.result is not None and len(match.result.scores) == players
    detail = match.result.detail
    assert isinstance(detail, dict)
    assert len(detail["bars"]) == players
    assert sum(detail["bars"]) + 2 * 16 >= 0
    if len(detail["losers"]) >= 2:
        assert detail["ec"] in detail["losers"]


def test_g10_a_seat_submitting_in_a_round_tells_nobody_else() -> None:
    clock = ManualClock(0.0)
    match = Match(GAME, GAME.default_config(), 3, clock)

    def seen(viewer: int | str) -> object:
        view = match.view(viewer)  # type: ignore[arg-type]
        view.pop("now")
        return view, [e.to_json() for e in match.events_for(viewer)]  # type: ignore[arg-type]

    before = {v: seen(v) for v in (BOB, CAROL, SPECTATOR)}
    match.submit(ALICE, "Solo, Safe C, Left 3 Right 1")
    match.submit(ALICE, "Solo, Safe D, Left 3 Right 1", final=True)
    for viewer, was in before.items():
        assert seen(viewer) == was, viewer
