"""One or more tests per ruling LF-3..LF-9 at the level of a single boundary."""

from __future__ import annotations

import pytest
from feather_helpers import BASINS, act, board, session

from arena.core.errors import ParseError, RuleError
from arena.games.feather.basins import BasinSpec, Every, advance, start_basin
from arena.games.feather.objectives import POWERUPS
from arena.games.feather.tick import Board, check_action, step

OBJ = """
[[sessions.objectives]]
id = 1
buckets = 1
amount = 3
reward = { points = 1, modify = 1 }

[[sessions.objectives]]
id = 2
buckets = 2
all_equal = true
amount = { min = 3 }
reward = { points = 2 }
"""
SPEC = session(BASINS + OBJ)


def with_seat(b: Board, seat: int, *, waters: tuple[int, ...] | None = None,
              powerups: dict[str, int] | None = None, last_fill: int | None = None) -> Board:
    me = b.seats[seat]
    from dataclasses import replace

    if waters is not None:
        me = replace(me, waters=waters)
    if powerups is not None:
        me = replace(me, powerups=tuple(powerups.get(p, 0) for p in POWERUPS))
    if last_fill is not None:
        me = replace(me, last_fill=last_fill)
    seats = list(b.seats)
    seats[seat] = me
    return replace(b, seats=tuple(seats))


def test_lf3_complete_sees_the_sip_of_the_same_boundary() -> None:
    b = with_seat(board(SPEC), 0, waters=(4, 0))
    b = with_seat(b, 1, powerups={"sip": 1})
    # Seat 1's bucket A holds 4: it cannot complete "a bucket with 3" when submitting...
    with pytest.raises(RuleError, match="LF-6"):
        check_action(SPEC, b, 0, act(SPEC, "complete A 1"))
    # ...and a sip then complete order means a Complete judged after the Sip.
    b2 = with_seat(board(SPEC), 0, waters=(3, 0))
    b2 = with_seat(b2, 1, powerups={"sip": 1})
    after, outs = step(SPEC, b2, {0: act(SPEC, "complete A 1"), 1: act(SPEC, "sip opp A")})
    assert after.seats[0].points == 0 and after.seats[0].waters == (2, 0)
    assert not outs[0].done and outs[0].void is not None and outs[0].void["rule"] == "LF-6"


def test_lf3_drain_into_basin_comes_after_fill() -> None:
    # Seat 1 fills from Y (1 water) while seat 2 drains 7 into Y: the fill sees only 1.
    b = with_seat(board(SPEC), 1, waters=(0, 7))
    after, _ = step(SPEC, b, {0: act(SPEC, "fill Y A"), 1: act(SPEC, "drain B -> Y")})
    assert after.seats[0].waters == (1, 0)
    assert after.basins[0].amount == 7 + 1  # the drained water plus tick 1's addition


def test_lf3_accelerate_comes_after_fill_and_basins_add_last() -> None:
    b = with_seat(board(SPEC), 1, powerups={"accelerate": 1})
    b = replace_basin(b, 1, 0)
    after, _ = step(SPEC, b, {0: act(SPEC, "fill Z A"), 1: act(SPEC, "accelerate Z 6")})
    assert after.seats[0].waters == (0, 0)  # Z was empty when the Fill ran
    assert after.basins[1].amount == 10  # clock 1..6 adds 10 at 6; then tick 7 adds nothing
    assert after.basins[1].clock == 7


def replace_basin(b: Board, i: int, amount: int) -> Board:
    from dataclasses import replace

    basins = list(b.basins)
    basins[i] = replace(basins[i], amount=amount)
    return replace(b, basins=tuple(basins))


def test_lf3_lock_voids_the_opponents_action_on_that_bucket() -> None:
    b = with_seat(board(SPEC), 0, powerups={"lock": 1})
    b = with_seat(b, 1, waters=(3, 0))
    after, outs = step(SPEC, b, {0: act(SPEC, "lock A"), 1: act(SPEC, "complete A 1")})
    assert after.seats[1].points == 0 and after.seats[1].waters == (3, 0)
    assert outs[1].done is False and outs[1].void is not None and outs[1].void["why"] == "locked"
    assert after.seats[0].held("lock") == 0


def test_lf4_fill_cooldown() -> None:
    b = board(SPEC)
    b, _ = step(SPEC, b, {0: act(SPEC, "fill Z A")})  # processed at tick 1
    assert b.seats[0].last_fill == 1
    for _ in range(4):  # ticks 2..5 are blocked
        with pytest.raises(RuleError, match="LF-4"):
            check_action(SPEC, b, 0, act(SPEC, "fill Y B"))
        b, _ = step(SPEC, b, {})
    check_action(SPEC, b, 0, act(SPEC, "fill Y B"))  # submitted in tick 5, processed at 6
    b, _ = step(SPEC, b, {0: act(SPEC, "fill Y B")})
    assert b.seats[0].last_fill == 6


def test_lf4_a_fill_of_nothing_still_starts_the_cooldown() -> None:
    b = replace_basin(board(SPEC), 0, 0)
    b, outs = step(SPEC, b, {0: act(SPEC, "fill Y A")})
    assert outs[0].done and b.seats[0].waters == (0, 0) and b.seats[0].last_fill == 1


@pytest.mark.parametrize("ankh", [0, 1])
def test_lf5_ankh_holder_fills_first_and_ankh_passes(ankh: int) -> None:
    b = replace_basin(board(SPEC, ankh=ankh), 1, 12)
    after, _ = step(SPEC, b, {0: act(SPEC, "fill Z A"), 1: act(SPEC, "fill Z A")})
    assert after.seats[ankh].waters[0] == 10
    assert after.seats[1 - ankh].waters[0] == 2
    assert after.ankh == 1 - ankh


def test_lf5_ankh_stays_when_fills_use_different_basins() -> None:
    b = board(SPEC, ankh=1)
    after, _ = step(SPEC, b, {0: act(SPEC, "fill Z A"), 1: act(SPEC, "fill Y A")})
    assert after.ankh == 1
    assert after.seats[0].waters[0] == 10 and after.seats[1].waters[0] == 1


def test_lf6_both_seats_complete_the_same_objective() -> None:
    spec = session(BASINS + OBJ + OBJ.replace("id = 1", "id = 3").replace("id = 2", "id = 4"))
    b = with_seat(with_seat(board(spec), 0, waters=(3, 0)), 1, waters=(0, 3))
    after, outs = step(spec, b, {0: act(spec, "complete A 1"), 1: act(spec, "complete B 1")})
    assert [s.points for s in after.seats] == [1, 1]
    assert [s.held("modify") for s in after.seats] == [1, 1]
    assert after.seats[0].waters == (0, 0) and after.seats[1].waters == (0, 0)
    # Objective 1 leaves; the first queued one (3) takes its place at the end.
    assert after.available == (2, 3, 4)
    assert all(o.done for o in outs)


def test_lf6_completed_objective_replaced_from_queue_in_order() -> None:
    objs = "".join(
        f"[[sessions.objectives]]\nid = {i}\nbuckets = 1\namount = {i}\nreward = {{ points = 1 }}\n"
        for i in range(1, 11)
    )
    spec = session(BASINS + objs)
    b = board(spec)
    assert b.available == (1, 2, 3, 4, 5) and b.queue == (6, 7, 8, 9, 10)
    b = with_seat(b, 0, waters=(3, 0))
    b, _ = step(spec, b, {0: act(spec, "complete A 3")})
    assert b.available == (1, 2, 4, 5, 6) and b.queue == (7, 8, 9, 10)
    with pytest.raises(RuleError, match=r"LF-6.*not available"):
        check_action(spec, b, 0, act(spec, "complete A 7"))


def test_lf6_complete_empties_only_named_buckets() -> None:
    b = with_seat(board(SPEC), 0, waters=(5, 5))
    b, _ = step(SPEC, b, {0: act(SPEC, "complete A+B 2")})
    assert b.seats[0].waters == (0, 0) and b.seats[0].points == 2


def test_lf8_schedules_and_accelerate_keep_the_advanced_clock() -> None:
    z = BasinSpec("Z", 0, (Every(add=10, every=6, start=0),))
    basin = start_basin(z)
    assert (basin.amount, basin.clock) == (10, 0)
    basin = advance(z, basin, 3)  # accelerate 3: clocks 1..3 add nothing
    assert (basin.amount, basin.clock) == (10, 3)
    basin = advance(z, basin, 3)  # three natural ticks later the clock reads 6: +10
    assert basin.amount == 20
    at = BasinSpec("T", 5, (Every(add=2, every=1, start=3, until=4),))
    assert start_basin(at).amount == 5
    assert advance(at, start_basin(at), 6).amount == 9


def test_lf9_exchange_loses_the_excess() -> None:
    b = with_seat(board(SPEC), 0, waters=(9, 2), powerups={"exchange": 1})
    b, _ = step(SPEC, b, {0: act(SPEC, "exchange A B")})
    assert b.seats[0].waters == (2, 7)
    assert b.seats[0].held("exchange") == 0


def test_lf9_modify_bounds() -> None:
    b = with_seat(board(SPEC), 0, waters=(0, 6), powerups={"modify": 2})
    with pytest.raises(RuleError, match="LF-9"):
        check_action(SPEC, b, 0, act(SPEC, "modify B -2"))
    with pytest.raises(RuleError, match="from -2 to 2"):
        act(SPEC, "modify B 3")
    b, _ = step(SPEC, b, {0: act(SPEC, "modify B -1")})
    assert b.seats[0].caps == (10, 6) and b.seats[0].held("modify") == 1


def test_lf9_sip_any_seat_never_below_zero() -> None:
    b = with_seat(board(SPEC), 0, waters=(0, 2), powerups={"sip": 2})
    b = with_seat(b, 1, powerups={"sip": 1}, waters=(0, 1))
    b, _ = step(SPEC, b, {0: act(SPEC, "sip opp B"), 1: act(SPEC, "sip opp A")})
    assert b.seats[1].waters == (0, 0) and b.seats[0].waters == (0, 2)
    b, _ = step(SPEC, b, {0: act(SPEC, "sip B")})
    assert b.seats[0].waters == (0, 1)


def test_lf9_lock_lasts_this_tick_and_the_next_two() -> None:
    b = with_seat(board(SPEC), 0, powerups={"lock": 2})
    b, _ = step(SPEC, b, {0: act(SPEC, "lock B")})  # processed at tick 1: locked 1..3
    for _ in range(2):
        with pytest.raises(RuleError, match=r"LF-9.*locked"):
            check_action(SPEC, b, 1, act(SPEC, "fill Z B"))
        with pytest.raises(RuleError, match=r"LF-9.*locked"):  # the locker cannot use it either
            check_action(SPEC, b, 0, act(SPEC, "lock B"))
        b, _ = step(SPEC, b, {})
    check_action(SPEC, b, 1, act(SPEC, "fill Z B"))  # processed at tick 4: free again


def test_lf9_powerup_not_held() -> None:
    for text in ("exchange A B", "modify A 1", "sip A", "lock A", "accelerate Y 3"):
        with pytest.raises(RuleError, match=r"LF-9.*no"):
            check_action(SPEC, board(SPEC), 0, act(SPEC, text))


@pytest.mark.parametrize("text, rule", [
    ("", "LF-9"), ("jump A", "LF-9"), ("fill A Y", "LF-8"), ("fill Y", "LF-9"),
    ("transfer A A", "LF-9"), ("transfer A C", "LF-1"), ("complete A+A 1", "LF-6"),
    ("complete 1", "LF-6"), ("accelerate Y 11", "LF-9"), ("modify A two", "LF-9"),
    ("drain 7", "LF-9"),
])
def test_bad_notation_names_the_rule(text: str, rule: str) -> None:
    with pytest.raises(RuleError) as info:
        act(SPEC, text)
    assert info.value.rule == rule


def test_notation_round_trips() -> None:
    for text in ("fill Z A", "drain B", "drain B -> Y", "transfer A -> B", "complete A+B 2",
                 "exchange A B", "modify B -2", "sip opp B", "sip A", "lock A",
                 "accelerate Y 5", "pass"):
        assert str(act(SPEC, text)) == text
    assert str(act(SPEC, "Transfer a to b")) == "transfer A -> B"
    assert str(act(SPEC, "complete B, A objective 2")) == "complete A+B 2"


def test_parse_errors_are_parse_errors() -> None:
    with pytest.raises(ParseError):
        act(SPEC, "fill")
