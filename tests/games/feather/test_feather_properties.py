"""Hypothesis properties of one boundary: water bounds and conservation, and the LF-3 order
when both seats act on the same buckets and basins."""

from __future__ import annotations

from dataclasses import replace

from feather_helpers import BASINS, act, session
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.feather.actions import Action
from arena.games.feather.bot import legal_actions
from arena.games.feather.tick import Board, Lock, SeatBoard, new_board, step

OBJ = "".join(
    f"[[sessions.objectives]]\nid = {i}\nbuckets = {{ min = 1, max = 2 }}\nsum = {i + 2}\n"
    f"reward = {{ points = 1, sip = 1 }}\n" for i in range(1, 8)
)
SPEC = session(BASINS + OBJ, buckets="[8, 5, 3]", ticks=60)
CAPS = SPEC.capacities


@st.composite
def seat_boards(draw: st.DrawFn, tick: int) -> SeatBoard:
    caps = tuple(max(1, c + draw(st.integers(-2, 2))) for c in CAPS)
    waters = tuple(draw(st.integers(0, c)) for c in caps)
    powerups = tuple(draw(st.integers(0, 2)) for _ in range(5))
    last = draw(st.none() | st.integers(max(0, tick - 6), tick))
    return SeatBoard(waters, caps, draw(st.integers(0, 9)), powerups, last)


@st.composite
def boards(draw: st.DrawFn) -> Board:
    tick = draw(st.integers(0, 40))
    b = new_board(SPEC, None, draw(st.integers(0, 1)))
    basins = tuple(replace(x, amount=draw(st.integers(0, 25)), clock=tick) for x in b.basins)
    locks = ()
    if draw(st.booleans()):
        locks = (Lock(draw(st.integers(0, 1)), draw(st.integers(0, 2)), tick + draw(st.integers(0, 2)), 0),)
    return replace(b, tick=tick, seats=(draw(seat_boards(tick)), draw(seat_boards(tick))),
                   basins=basins, locks=locks)


def swap(b: Board) -> Board:
    locks = tuple(sorted((replace(lk, owner=1 - lk.owner, by=1 - lk.by) for lk in b.locks),
                         key=lambda lk: (lk.owner, lk.bucket, lk.until, lk.by)))
    return replace(b, seats=(b.seats[1], b.seats[0]), locks=locks, ankh=1 - b.ankh)


def total(b: Board) -> int:
    return sum(s.water for s in b.seats) + sum(x.amount for x in b.basins)


@settings(deadline=None, max_examples=150)
@given(data=st.data())
def test_water_never_negative_nor_above_capacity(data: st.DataObject) -> None:
    b = data.draw(boards())
    acts = {s: data.draw(st.sampled_from(legal_actions(SPEC, b, s))) for s in (0, 1)}
    after, outcomes = step(SPEC, b, acts)
    for seat in after.seats:
        assert all(0 <= w <= c for w, c in zip(seat.waters, seat.caps, strict=True))
        assert all(n >= 0 for n in seat.powerups)
    assert all(x.amount >= 0 for x in after.basins)
    assert after.tick == b.tick + 1
    assert len(outcomes) == sum(1 for a in acts.values() if a.verb != "pass")


@settings(deadline=None, max_examples=150)
@given(data=st.data())
def test_transfer_and_exchange_within_capacity_conserve_water(data: st.DataObject) -> None:
    b = data.draw(boards())
    b = replace(b, locks=())
    me = b.seats[0]
    i, j = data.draw(st.permutations(range(3)))[:2]
    if data.draw(st.booleans()):
        action = Action("transfer", (i, j))
    else:
        # Exchange within capacity: each amount fits the other bucket.
        waters = list(me.waters)
        waters[i] = min(waters[i], me.caps[j])
        waters[j] = min(waters[j], me.caps[i])
        b = replace(b, seats=(replace(me, waters=tuple(waters), powerups=(1, 0, 0, 0, 0)),
                              b.seats[1]))
        action = Action("exchange", (i, j))
    before_mine = b.seats[0].water
    after, _ = step(SPEC, b, {0: action})
    assert after.seats[0].water == before_mine
    # And the whole world's water changes only by the basins' own additions.
    added = sum(SPEC.basins[k].addition(b.basins[k].clock + 1) for k in range(len(b.basins)))
    assert total(after) == total(b) + added


@settings(deadline=None, max_examples=120)
@given(data=st.data())
def test_seats_are_symmetric_but_for_the_ankh(data: st.DataObject) -> None:
    """Swapping the seats (and the ankh) swaps the outcome: no hidden seat order in LF-3."""
    b = data.draw(boards())
    acts = {s: data.draw(st.sampled_from(legal_actions(SPEC, b, s))) for s in (0, 1)}
    after, _ = step(SPEC, b, acts)
    swapped, _ = step(SPEC, swap(b), {1 - s: a for s, a in acts.items()})
    assert swap(swapped) == after


@settings(deadline=None, max_examples=100)
@given(data=st.data())
def test_both_fill_one_basin_in_ankh_order(data: st.DataObject) -> None:
    b = replace(data.draw(boards()), locks=())
    b = replace(b, seats=tuple(replace(s, last_fill=None) for s in b.seats))
    basin = data.draw(st.sampled_from(["Y", "Z"]))
    k = SPEC.basin_names.index(basin)
    i, j = data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2))
    acts = {0: act(SPEC, f"fill {basin} {'ABC'[i]}"), 1: act(SPEC, f"fill {basin} {'ABC'[j]}")}
    after, _ = step(SPEC, b, acts)
    first, second = b.ankh, 1 - b.ankh
    bucket = {0: i, 1: j}
    room1 = b.seats[first].caps[bucket[first]] - b.seats[first].waters[bucket[first]]
    room2 = b.seats[second].caps[bucket[second]] - b.seats[second].waters[bucket[second]]
    got1 = min(room1, b.basins[k].amount)
    got2 = min(room2, b.basins[k].amount - got1)
    assert after.seats[first].waters[bucket[first]] == b.seats[first].waters[bucket[first]] + got1
    assert after.seats[second].waters[bucket[second]] == b.seats[second].waters[bucket[second]] + got2
    assert after.ankh == second


@settings(deadline=None, max_examples=100)
@given(data=st.data())
def test_lock_voids_the_other_seats_action_on_that_bucket(data: st.DataObject) -> None:
    b = replace(data.draw(boards()), locks=())
    b = replace(b, seats=(replace(b.seats[0], powerups=(0, 0, 0, 1, 0)), b.seats[1]))
    target = data.draw(st.integers(0, 2))
    theirs = [a for a in legal_actions(SPEC, b, 1)
              if target in a.own_buckets() and a.verb != "lock"]
    if not theirs:
        return
    action = data.draw(st.sampled_from(theirs))
    after, outcomes = step(SPEC, b, {0: Action("lock", (target,), opponent=True), 1: action})
    assert after.seats[1].waters == b.seats[1].waters
    assert after.seats[1].caps == b.seats[1].caps
    assert after.seats[1].points == b.seats[1].points
    assert [o.done for o in outcomes] == [True, False]


@settings(deadline=None, max_examples=100)
@given(data=st.data())
def test_fill_does_not_see_water_drained_at_the_same_boundary(data: st.DataObject) -> None:
    b = replace(data.draw(boards()), locks=())
    b = replace(b, seats=(replace(b.seats[0], last_fill=None), b.seats[1]))
    k = data.draw(st.integers(0, 1))
    name = SPEC.basin_names[k]
    acts = {0: act(SPEC, f"fill {name} A"), 1: act(SPEC, f"drain A -> {name}")}
    after, _ = step(SPEC, b, acts)
    room = b.seats[0].caps[0] - b.seats[0].waters[0]
    assert after.seats[0].waters[0] == b.seats[0].waters[0] + min(room, b.basins[k].amount)
