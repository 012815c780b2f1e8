"""LO-9's vote as pure functions (``lockedout/vote.py``): the tally, the winners' majority,
the fallbacks (fewest keys, bars, cards, season garnets, then a draw), read from a state or
from a result's detail; and the match deciding exactly as it did before they moved there
(same choices, same words, the same draws from its chance)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.lockedout import GAME
from arena.games.lockedout.state import OVER, TIE, VOTE, LockedOutState, Seat
from arena.games.lockedout.vote import (
    SEASON_CHANCE,
    SeatFacts,
    break_tie,
    facts_from_detail,
    fallback,
    tally,
    winners_choice,
)
from games.lockedout.lockedout_helpers import NAMES, make_state, step

ALICE, BOB, CAROL, DAVE, ERIN, FRANK = range(6)


# --------------------------------------------------------------------------- tally
def test_lo9_the_most_votes_choose_and_a_missing_vote_abstains() -> None:
    count = tally({CAROL: DAVE, DAVE: CAROL, ERIN: DAVE}, (CAROL, DAVE, ERIN, FRANK))
    assert count.counts == {CAROL: 1, DAVE: 2, ERIN: 0, FRANK: 0}
    assert count.leaders == (DAVE,) and count.chosen == DAVE
    assert count.votes == ((CAROL, DAVE), (DAVE, CAROL), (ERIN, DAVE))


def test_lo9_a_tie_names_every_leader_in_seat_order() -> None:
    count = tally({FRANK: CAROL, CAROL: FRANK}, (CAROL, DAVE, FRANK))
    assert count.leaders == (CAROL, FRANK) and count.chosen is None
    nobody = tally({}, (CAROL, DAVE))
    assert nobody.leaders == (CAROL, DAVE) and nobody.votes == ()


def test_lo9_only_the_seats_inside_vote_and_only_for_one_another() -> None:
    # An escaped seat's vote, and a vote for an escaped seat, do not count.
    count = tally({ALICE: CAROL, CAROL: ALICE, DAVE: CAROL}, (CAROL, DAVE))
    assert count.counts == {CAROL: 1, DAVE: 0} and count.votes == ((DAVE, CAROL),)


# --------------------------------------------------------------------------- winners
def test_lo9_the_winners_choose_by_majority_among_the_tied() -> None:
    assert winners_choice((CAROL, DAVE), (ALICE, BOB, ERIN),
                          {ALICE: DAVE, BOB: DAVE, ERIN: CAROL}) == DAVE
    # One each: no majority.
    assert winners_choice((CAROL, DAVE), (ALICE, BOB), {ALICE: CAROL, BOB: DAVE}) is None
    # A winner who does not vote counts against every majority; a vote for a seat that is
    # not tied counts for nobody.
    assert winners_choice((CAROL, DAVE), (ALICE, BOB, ERIN), {ALICE: CAROL}) is None
    assert winners_choice((CAROL, DAVE), (ALICE,), {ALICE: FRANK}) is None
    assert winners_choice((CAROL, DAVE), (ALICE,), {ALICE: CAROL}) == CAROL


# --------------------------------------------------------------------------- fallbacks
def _facts(**seats: SeatFacts) -> tuple[SeatFacts, ...]:
    out = [SeatFacts()] * 6
    for name, facts in seats.items():
        out[[n.lower() for n in NAMES].index(name)] = facts
    return tuple(out)


def test_lo9_fallbacks_fewest_keys_then_bars_then_cards_then_garnets() -> None:
    rng = random.Random(0)
    tied = (CAROL, DAVE, ERIN)
    assert fallback(tied, _facts(carol=SeatFacts(1), dave=SeatFacts(2), erin=SeatFacts(1, 3)),
                    (), rng) == (CAROL, "fewest gold bars")
    facts = _facts(carol=SeatFacts(0, 0, 5), dave=SeatFacts(0, 0, 4), erin=SeatFacts(0, 0, 4))
    assert fallback(tied, facts, (0, 0, 0, 2, 1, 0), rng) == (ERIN, "fewest season garnets")
    assert fallback(tied, _facts(carol=SeatFacts(0), dave=SeatFacts(1), erin=SeatFacts(1)),
                    (), rng) == (CAROL, "fewest keys")


def test_lo9_each_fallback_only_breaks_what_the_one_before_left_tied() -> None:
    # Carol has the fewest cards of all, but Dave and Erin already have fewer keys.
    facts = _facts(carol=SeatFacts(2, 0, 1), dave=SeatFacts(1, 5, 8), erin=SeatFacts(1, 4, 8))
    assert fallback((CAROL, DAVE, ERIN), facts, (), random.Random(0)) == (ERIN,
                                                                            "fewest gold bars")
    facts = _facts(dave=SeatFacts(0, 0, 3), erin=SeatFacts(0, 0, 2))
    assert fallback((DAVE, ERIN), facts, (), random.Random(0)) == (ERIN, "fewest cards")


def test_lo9_still_tied_one_draw_from_the_chance_of_whoever_holds_the_vote() -> None:
    tied = (FRANK, CAROL, DAVE)
    for seed in range(20):
        rng, ref = random.Random(seed), random.Random(seed)
        seat, how = fallback(tied, _facts(), (), rng)
        assert seat == ref.choice(list(tied))  # one choice, among the tied in their order
        assert rng.random() == ref.random()  # and nothing else drawn
        assert how.endswith("a draw from the match's chance")
    _, how = fallback(tied, _facts(), (), random.Random(0), chance=SEASON_CHANCE)
    assert how.endswith("a draw from the season's chance")


def test_lo9_break_tie_names_why_the_fallbacks_ran() -> None:
    facts = _facts(carol=SeatFacts(1), dave=SeatFacts(0))
    rng = random.Random(0)
    assert break_tie((CAROL, DAVE), (), {}, facts, (), rng) == (
        DAVE, "no winners to break the tie; fewest keys")
    assert break_tie((CAROL, DAVE), (ALICE, BOB), {ALICE: CAROL, BOB: DAVE}, facts, (), rng) \
        == (DAVE, "the winners reached no majority; fewest keys")
    assert break_tie((CAROL, DAVE), (ALICE, BOB), {ALICE: CAROL, BOB: CAROL}, facts, (), rng) \
        == (CAROL, "the winners' majority among the tied")


# --------------------------------------------------------------------------- from a result
def test_the_fallbacks_read_a_results_detail_and_a_hand_record_compares_zeros() -> None:
    names = ("Ann", "Ben", "Cat")
    detail = {"keys": [3, 1, 0], "bars": [4, 2, 2], "cards_left": [1, 5, 6]}
    assert facts_from_detail(detail, names) == (SeatFacts(3, 4, 1), SeatFacts(1, 2, 5),
                                                SeatFacts(0, 2, 6))
    # A result the host recorded by hand: bars by name, no keys or cards.
    hand = {"escaped": ["Ann"], "bars": {"Ann": 4, "Cat": 1}}
    assert facts_from_detail(hand, names) == (SeatFacts(0, 4, 0), SeatFacts(), SeatFacts(0, 1))
    for nothing in (None, [], "x", {"keys": "3", "bars": [True, None]}):
        assert facts_from_detail(nothing, names) == (SeatFacts(),) * 3


def test_the_same_vote_from_a_result_as_from_the_state() -> None:
    """A season holding the vote (SE-6) decides from the result exactly as the match would
    have decided from its state."""
    state = _with_seats(make_state(), {ALICE: Seat(keys=3, bars=4, escaped=2),
                                       CAROL: Seat(keys=1, cards=(1, 1, 1, 1)),
                                       DAVE: Seat(keys=1, cards=(1, 1, 1, 0))})
    result = GAME.result(replace(state, stage=OVER))
    assert result is not None
    from_state = tuple(SeatFacts(s.keys, s.bars, s.card_count) for s in state.seats)
    assert facts_from_detail(result.detail, NAMES) == from_state
    assert break_tie((CAROL, DAVE), (ALICE,), {}, from_state, (), random.Random(0)) == (
        DAVE, "the winners reached no majority; fewest cards")


# --------------------------------------------------------------------------- the match
def _with_seats(state: LockedOutState, seats: dict[int, Seat]) -> LockedOutState:
    return replace(state, seats=tuple(seats.get(i, s) for i, s in enumerate(state.seats)))


def _old_vote(state: LockedOutState, votes: dict[int, int], rng: random.Random
              ) -> tuple[str, int | None, tuple[int, ...], str]:
    """The vote as the match decided it before ``vote.py`` (kept here as the reference):
    (stage, ec, tied, how)."""
    inside = state.inside()
    counted = tuple((s, t) for s, t in sorted(votes.items()) if s in inside)
    table = {s: 0 for s in inside}
    for _, target in counted:
        table[target] += 1
    top = max(table.values())
    tied = tuple(s for s in inside if table[s] == top)
    if len(tied) == 1:
        return OVER, tied[0], (), "most votes"
    if state.escaped():
        return TIE, None, tied, ""
    return _old_fallback(state, tied, "no winners to break the tie", rng)


def _old_tie(state: LockedOutState, votes: dict[int, int], rng: random.Random
             ) -> tuple[str, int | None, tuple[int, ...], str]:
    winners = set(state.escaped())
    picks = {s: 0 for s in state.tied}
    for s, t in votes.items():
        if s in winners and t in picks:
            picks[t] += 1
    best = max(picks.values())
    if best * 2 > len(winners):
        return OVER, max(picks, key=lambda t: picks[t]), (), "the winners' majority among the tied"
    return _old_fallback(state, state.tied, "the winners reached no majority", rng)


def _old_fallback(state: LockedOutState, tied: tuple[int, ...], why: str, rng: random.Random
                  ) -> tuple[str, int | None, tuple[int, ...], str]:
    garnets = state.config.garnets or (0,) * len(state.seats)
    steps: tuple[tuple[str, Callable[[int], int]], ...] = (
        ("fewest keys", lambda s: state.seats[s].keys),
        ("fewest gold bars", lambda s: state.seats[s].bars),
        ("fewest cards", lambda s: state.seats[s].card_count),
        ("fewest season garnets", lambda s: garnets[s]))
    left = list(tied)
    for label, key in steps:
        low = min(key(s) for s in left)
        left = [s for s in left if key(s) == low]
        if len(left) == 1:
            return OVER, left[0], (), f"{why}; {label}"
    return OVER, rng.choice(left), (), (f"{why}; still tied after keys, bars, cards and "
                                        "garnets: a draw from the match's chance")


small = st.integers(0, 2)
seat_facts = st.builds(lambda escaped, keys, bars, cards: Seat(
    cards=(cards, cards, 0, 0), keys=keys, bars=bars, escaped=escaped),
    st.sampled_from([0, 0, 3]), small, small, small)


@settings(max_examples=150, deadline=None)
@given(seats=st.lists(seat_facts, min_size=6, max_size=6), data=st.data(),
       garnets=st.sampled_from([(), (1, 1, 1, 1, 1, 1), (0, 2, 1, 1, 0, 2)]))
def test_the_match_decides_the_vote_as_before_it_moved(seats: list[Seat], data: st.DataObject,
                                                       garnets: tuple[int, ...]) -> None:
    """Every vote and tie-break the match resolves: the same EC, the same words, the same
    draws (the rng is in the same state afterwards)."""
    state = replace(make_state(), seats=tuple(seats), stage=VOTE)
    state = replace(state, config=replace(state.config, garnets=garnets))
    inside = state.inside()
    if len(inside) < 2:
        return
    votes = {s: data.draw(st.sampled_from(inside)) for s in inside if data.draw(st.booleans())}
    texts = {s: f"Vote {NAMES[t]}" for s, t in votes.items()}
    new, events = step(state, texts)
    ref = random.Random(1)  # the rng ``step`` resolves with
    stage, ec, tied, how = _old_vote(state, votes, ref)
    assert (new.stage, new.ec, new.tied) == (stage, ec, tied)
    if stage == OVER:
        assert new.ec_how == f"{how} (LO-9)"
        return
    picks = {w: data.draw(st.sampled_from(tied)) for w in new.escaped()
             if data.draw(st.booleans())}
    end, _ = step(new, {w: f"Vote {NAMES[t]}" for w, t in picks.items()})
    ref = random.Random(1)
    stage, ec, _, how = _old_tie(new, picks, ref)
    assert (end.stage, end.ec, end.ec_how) == (stage, ec, f"{how} (LO-9)")
    assert [e.kind for e in events] == ["vote_counted"]
