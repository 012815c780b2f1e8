"""Hypothesis over whole matches of random legal play (mixed with bot play so safes open):
cards are conserved (LO-2), a seat only ever sees lights it entered (LO-4), bargains pay only
when the claims add up to exactly 2 bars and 1 key (LO-5), and every count a seat is shown
agrees with its noun."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.game import PhaseOutcome, Submission
from arena.games.lockedout import GAME
from arena.games.lockedout.commands import Dual, Solo
from arena.games.lockedout.state import OVER, LockedOutState
from wording import ONE_OF_MANY


def _play(seed: int, bot_share: float, absent: float) -> None:
    rng = random.Random(seed)
    state: LockedOutState = GAME.initial_state(GAME.default_config(), random.Random(seed))
    takes = agreed = 0
    while state.stage != OVER:
        spec = GAME.phase(state)
        assert spec is not None
        standing = {}
        for seat in sorted(spec.actors):
            if rng.random() < absent:
                continue
            pick = GAME.bot if rng.random() < bot_share else GAME.random_submission
            text = pick(state, seat, random.Random(rng.random()))
            if text is not None:
                standing[seat] = Submission(seat, text, GAME.validate(state, seat, text, None),  # type: ignore[arg-type]
                                            0.0)
        orders = {s: sub.value.commands for s, sub in standing.items()}
        outcome = PhaseOutcome(standing, {s: (x,) for s, x in standing.items()}, frozenset(), 0)
        before = state
        state, events = GAME.resolve(state, outcome, random.Random(seed))
        # LO-2: held + used = 8, and what was used is what the seat's openings took.
        for seat in state.seats:
            used = sum((x.left is not None) + (x.right is not None) for x in seat.sides)
            assert min(seat.cards) >= 0 and seat.card_count + used == 8
        # LO-4: every new light is one the seat entered, and only it is told.
        for i, (old, new) in enumerate(zip(before.seats, state.seats, strict=True)):
            for seen in new.lights[len(old.lights):]:
                entered = False
                for c in orders.get(i, ()):
                    if isinstance(c, Solo):
                        entered |= (c.safe, c.left, c.right, None) == (
                            seen.safe, seen.left, seen.right, seen.partner)
                    elif isinstance(c, Dual):
                        mine = seen.left if c.side == "left" else seen.right
                        entered |= (c.safe, c.value, c.partner) == (seen.safe, mine, seen.partner)
                assert entered, f"seat {i} saw a light it did not enter"
        for e in events:
            if e.kind == "light":
                assert e.to is not None and len(e.to) == 1
        shown = [json.dumps(GAME.view(state, j)) + str(GAME.render_svg(state, j))
                 for j in range(6)]
        # Counts read as a host says them ("1 bar", not "1 bars") in all a seat is shown.
        assert not [m.group(0) for x in shown for m in [ONE_OF_MANY.search(x)] if m]
        for i in range(6):
            notes = GAME.private_facts(state, i)
            assert all(n in shown[i] for n in notes)
            assert not any(n in shown[j] for n in notes for j in range(6) if j != i)
        # LO-5: paid if and only if the claims add up exactly.
        for e in events:
            if e.kind == "bargain_resolved":
                claims = e.data["claims"]
                assert {c["seat"] for c in claims} <= set(e.data["seats"])
                exact = (sum(c["bars"] for c in claims), sum(c["keys"] for c in claims)) == (2, 1)
                assert e.data["agreed"] == exact
                agreed += exact
            if e.kind == "safe_taken":
                takes += 1
        assert sum(s.bars for s in state.seats) == 2 * (takes + agreed)
        assert sum(s.keys for s in state.seats) == takes + agreed
    assert sum(state.opened) <= 16 and GAME.result(state) is not None


@settings(deadline=None, max_examples=20)
@given(seed=st.integers(0, 10**9), bot_share=st.floats(0, 1), absent=st.floats(0, 0.3))
def test_whole_matches_keep_cards_lights_and_bargains_honest(seed: int, bot_share: float,
                                                             absent: float) -> None:
    _play(seed, bot_share, absent)
