"""A round at its deadline: LO-2 cards, LO-3 attempts, LO-4 lights, LO-5 openings and
bargains, LO-6 order, LO-7 escapes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from arena.core.errors import RuleError
from arena.games.lockedout import GAME
from arena.games.lockedout.safes import SAFE_NAMES
from arena.games.lockedout.state import Seat
from games.lockedout.lockedout_helpers import make_state, step

COMBOS = {"A": (1, 2), "B": (3, 3), "C": (2, 3), "D": (4, 1)}
ALICE, BOB, CAROL, DAVE = 0, 1, 2, 3


def test_lo2_every_seat_starts_with_two_of_each() -> None:
    state = make_state(COMBOS)
    assert all(s.cards == (2, 2, 2, 2) and s.card_count == 8 for s in state.seats)


def test_lo2_one_physical_card_per_safe_in_a_round() -> None:
    state = make_state(COMBOS)
    ok = "Solo, Safe A, Left 3 Right 3\nDual, Safe C, Left 4 with Bob"
    GAME.validate(state, ALICE, ok, None)  # type: ignore[arg-type]
    with pytest.raises(RuleError, match="LO-2"):
        GAME.validate(state, ALICE, "Solo, Safe A, Left 3 Right 3\nDual, Safe C, Left 3 with Bob",
                      None)  # type: ignore[arg-type]
    low = replace(state, seats=(Seat(cards=(0, 1, 1, 1)), *state.seats[1:]))
    with pytest.raises(RuleError, match="LO-2"):
        GAME.validate(low, ALICE, "Solo, Safe A, Left 1 Right 2", None)  # type: ignore[arg-type]


def test_lo2_cards_used_only_on_success() -> None:
    state = make_state(COMBOS)
    state, _ = step(state, {ALICE: "Solo, Safe A, Left 4 Right 4", BOB: "Solo, Safe A, Left 1 Right 2"})
    assert state.seats[ALICE].cards == (2, 2, 2, 2)
    assert state.seats[BOB].cards == (1, 1, 2, 2)


def test_lo3_one_solo_and_one_dual_per_round() -> None:
    state = make_state(COMBOS)
    with pytest.raises(RuleError, match="LO-3"):
        GAME.validate(state, ALICE, "Solo, Safe A, Left 1 Right 1\nSolo, Safe B, Left 2 Right 2",
                      None)  # type: ignore[arg-type]
    with pytest.raises(RuleError, match="LO-3"):
        GAME.validate(state, ALICE, "Dual, Safe A, Left 1 with Alice", None)  # type: ignore[arg-type]


def _lights(events: list, seat: int) -> list:  # type: ignore[type-arg]
    return [e for e in events if e.kind == "light" and e.to == frozenset({seat})]


@pytest.mark.parametrize(
    ("bob", "happens"),
    [
        ("Dual, Safe C, Right 4 with Alice", True),
        ("Dual, Safe C, Left 4 with Alice", False),  # same side
        ("Dual, Safe D, Right 4 with Alice", False),  # another safe
        ("Dual, Safe C, Right 4 with Carol", False),  # another partner
        ("pass", False),  # no submission to be the partner
    ],
)
def test_lo3_dual_only_when_partners_name_each_other(bob: str, happens: bool) -> None:
    state = make_state(COMBOS)
    _, events = step(state, {ALICE: "Dual, Safe C, Left 1 with Bob", BOB: bob})
    assert bool(_lights(events, ALICE)) == happens


def test_lo4_dual_light_goes_to_both_without_partners_number() -> None:
    state = make_state(COMBOS)
    state, events = step(state, {ALICE: "Dual, Safe C, Left 1 with Bob",
                                 BOB: "Dual, Safe C, Right 4 with Alice"})
    (la,) = state.seats[ALICE].lights
    (lb,) = state.seats[BOB].lights
    assert (la.left, la.right, la.partner) == (1, None, BOB)
    assert (lb.left, lb.right, lb.partner) == (None, 4, ALICE)
    assert la.colour == lb.colour
    assert all(e.to in (frozenset({ALICE}), frozenset({BOB})) for e in events if e.kind == "light")
    assert state.seats[CAROL].lights == ()
    view = str(GAME.view(state, CAROL))
    assert la.note(state.names, ALICE) not in view


def test_lo5_lone_solo_opener_takes_everything_at_once() -> None:
    state = make_state(COMBOS)
    state, events = step(state, {ALICE: "Solo, Safe A, Left 1 Right 2"})
    a = state.seats[ALICE]
    assert (a.bars, a.keys, a.opened) == (2, 1, 1)
    assert state.opened[0] and state.announced[0] == (1, 2) and not state.bargains
    assert any(e.kind == "safe_closed" and e.to is None for e in events)
    with pytest.raises(RuleError, match="LO-5"):
        GAME.validate(state, BOB, "Solo, Safe A, Left 1 Right 2", None)  # type: ignore[arg-type]


def test_lo5_text_example_three_bargain_and_four_cards_are_used() -> None:
    """Alpha opens safe A solo while Beta and Gamma open it as a pair: 4 cards, 3 bargain."""
    state = make_state(COMBOS)
    state, events = step(state, {ALICE: "Solo, Safe A, Left 1 Right 2",
                                 BOB: "Dual, Safe A, Left 1 with Carol",
                                 CAROL: "Dual, Safe A, Right 2 with Bob"})
    used = sum(8 - s.card_count for s in state.seats)
    assert used == 4
    assert [b.seats for b in state.bargains] == [(ALICE, BOB, CAROL)]
    assert state.announced[0] is None  # announced when it closes
    assert all(s.bars == 0 and s.keys == 0 for s in state.seats)
    opened = [e for e in events if e.kind == "bargain_opened"]
    assert opened and opened[0].to is None


def _bargain_state():  # type: ignore[no-untyped-def]
    state = make_state(COMBOS)
    state, _ = step(state, {BOB: "Dual, Safe A, Left 1 with Carol",
                            CAROL: "Dual, Safe A, Right 2 with Bob"})
    return state


def test_lo5_claims_that_add_up_are_paid_then_the_combination_is_announced() -> None:
    state = _bargain_state()
    state, _events = step(state, {BOB: "Bargain, Safe A, Claim 2 Gold bars, 0 Keys",
                                 CAROL: "Bargain, Safe A, Claim 0 Gold bars, 1 Keys"})
    assert (state.seats[BOB].bars, state.seats[BOB].keys) == (2, 0)
    assert (state.seats[CAROL].bars, state.seats[CAROL].keys) == (0, 1)
    assert state.announced[0] == (1, 2) and not state.bargains


@pytest.mark.parametrize(
    ("bob", "carol"),
    [
        ("Bargain, Safe A, Claim 2 Gold bars, 1 Keys", "Bargain, Safe A, Claim 1 Gold bars, 0 Keys"),
        ("Bargain, Safe A, Claim 1 Gold bars, 0 Keys", "Bargain, Safe A, Claim 0 Gold bars, 1 Keys"),
        ("Bargain, Safe A, Claim 2 Gold bars, 0 Keys", "pass"),  # no claim claims nothing
    ],
)
def test_lo5_disagreement_or_leftovers_pay_nobody(bob: str, carol: str) -> None:
    state, _ = step(_bargain_state(), {BOB: bob, CAROL: carol})
    assert all(s.bars == 0 and s.keys == 0 for s in state.seats)
    assert state.announced[0] == (1, 2)


def test_lo5_only_bargainers_may_claim() -> None:
    state = _bargain_state()
    with pytest.raises(RuleError, match="LO-5"):
        GAME.validate(state, DAVE, "Bargain, Safe A, Claim 2 Gold bars, 1 Keys", None)  # type: ignore[arg-type]


def test_lo6_a_seat_escaping_by_bargain_voids_its_dual() -> None:
    state = _bargain_state()
    carol = state.seats[CAROL]
    state = replace(state, seats=(*state.seats[:2], replace(carol, keys=2), *state.seats[3:]))
    state, events = step(state, {
        BOB: "Bargain, Safe A, Claim 2 Gold bars, 0 Keys\nDual, Safe C, Left 2 with Carol",
        CAROL: "Bargain, Safe A, Claim 0 Gold bars, 1 Keys\nDual, Safe C, Right 3 with Bob",
    })
    assert not state.seats[CAROL].inside and state.seats[CAROL].keys == 3
    assert not state.opened[SAFE_NAMES.index("C")]  # the right combination, but void
    assert state.seats[BOB].card_count == 7
    kinds = [e.kind for e in events]
    assert kinds.index("bargain_resolved") < kinds.index("escaped")


def test_lo7_escaped_seats_take_no_further_part() -> None:
    state = make_state(COMBOS)
    alice = replace(state.seats[ALICE], keys=2)
    state = replace(state, seats=(alice, *state.seats[1:]))
    state, events = step(state, {ALICE: "Solo, Safe A, Left 1 Right 2"})
    assert not state.seats[ALICE].inside
    assert any(e.kind == "escaped" and e.to is None for e in events)
    assert ALICE not in GAME.phase(state).actors  # type: ignore[union-attr]
    with pytest.raises(RuleError, match="LO-7"):
        GAME.validate(state, BOB, "Dual, Safe B, Left 3 with Alice", None)  # type: ignore[arg-type]


def test_lo7_a_key_that_escapes_from_a_solo_take_skips_that_seats_bargains() -> None:
    state = make_state(COMBOS)
    alice = replace(state.seats[ALICE], keys=2)
    state = replace(state, seats=(alice, *state.seats[1:]))
    state, _ = step(state, {ALICE: "Solo, Safe A, Left 1 Right 2\nDual, Safe C, Left 2 with Bob",
                            BOB: "Dual, Safe C, Right 3 with Alice"})
    assert not state.seats[ALICE].inside
    assert [b.seats for b in state.bargains] == [(BOB,)]


def test_lo4_pooled_dual_lights_rule_out_the_pair_guess() -> None:
    """One partner alone cannot rule the whole guess out (the other number is unknown); two
    bots that pool their knowledge can."""
    from arena.games.lockedout.knowledge import deduction_for

    state = make_state(COMBOS)
    state, _ = step(state, {ALICE: "Dual, Safe C, Left 1 with Bob",
                            BOB: "Dual, Safe C, Right 4 with Alice"})
    c = SAFE_NAMES.index("C")
    assert (2, 3) in deduction_for(state, (ALICE,)).possible(c)
    pooled = deduction_for(state, (ALICE, BOB))
    assert (1, 4) not in pooled.possible(c) and (2, 3) in pooled.possible(c)
