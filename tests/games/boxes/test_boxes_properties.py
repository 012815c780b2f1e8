"""Hypothesis properties: movements stay on the board without Wrap, landings follow the card
type (BX-8, BX-9), and no seat ever exceeds its usage limits or its points (BX-3, BX-4)."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.game import SubmitContext
from arena.games.boxes import GAME
from arena.games.boxes.board import SIZE
from arena.games.boxes.bot import random_legal
from arena.games.boxes.conditions import LIMIT, TRAITS
from arena.games.boxes.deck import Card, default_deck
from arena.games.boxes.movement import find_movement, movements
from arena.games.boxes.state import OVER
from games.boxes.boxes_helpers import new_state, step

CARDS = st.sampled_from(default_deck().cards)
CELLS = st.integers(0, SIZE * SIZE - 1)


def delta(a: int, b: int) -> tuple[int, int]:
    return (b // SIZE - a // SIZE, b % SIZE - a % SIZE)


@settings(deadline=None, max_examples=150)
@given(card=CARDS, start=CELLS)
def test_bx9_no_movement_leaves_the_board_without_wrap(card: Card, start: int) -> None:
    for m in movements(card, start):
        cells = (start, *m.path)
        assert all(0 <= c < SIZE * SIZE for c in m.path)
        steps = [delta(a, b) for a, b in itertools.pairwise(cells)]
        if not card.wrap:
            # Every unit step is one cell to a neighbour: the path never jumps an edge.
            assert all(max(abs(dr), abs(dc)) == 1 for dr, dc in steps)
        else:
            assert all(abs(dr) in (1, SIZE - 1) or abs(dc) in (1, SIZE - 1) for dr, dc in steps)
        assert len(m.path) == sum(n * (3 if d == "Knightwise" else 1)
                                  for n, d in zip(card.legs, card.displacements, strict=True))
        assert len(m.ends) == len(card.legs) and m.ends[-1] == m.final
        # Landings by type (BX-8).
        expected = {"A": (m.final,), "A+": m.ends, "B": m.path, "C": m.path[:-1]}[card.type]
        assert m.landings == expected
        # The notation names this movement back.
        assert find_movement(card, start, str(m).split()[1:]) == m


@settings(deadline=None, max_examples=6)
@given(seed=st.integers(0, 10**6))
def test_bx3_bx4_usage_and_points_never_exceeded_in_random_matches(seed: int) -> None:
    state = new_state(seed)
    rng = random.Random(seed)
    while state.stage != OVER:
        spec = GAME.phase(state)
        assert spec is not None
        texts = {s: random_legal(state, s, rng) or "" for s in sorted(spec.actors)}
        stakes_ok = {s: sum(int(x["stake"]) for x in
                            GAME.validate(state, s, t, SubmitContext(at=0.0)).to_json()) <=
                     state.points[s] for s, t in texts.items() if state.stage == "bet"}
        assert all(stakes_ok.values())
        state, _ = step(state, texts)
        for usage in state.usage:
            for trait, n in zip(TRAITS, usage, strict=True):
                assert n <= LIMIT[trait]
        assert all(p >= 0 for p in state.points)
    assert len(state.records) == state.config.bouts
    assert GAME.result(state) is not None

