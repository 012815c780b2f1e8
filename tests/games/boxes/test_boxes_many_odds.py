"""The odds panels' one-walk search gives each condition's scalar figures, float for float."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.boxes.board import parse_board, parse_cell
from arena.games.boxes.conditions import TRAITS, make_condition
from arena.games.boxes.deck import default_deck
from arena.games.boxes.odds import condition_odds, many_condition_odds, roles_for_round
from games.boxes.boxes_helpers import BOARD


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), first=st.integers(1, 4), size=st.integers(1, 5))
def test_one_walk_equals_a_walk_per_condition(seed: int, first: int, size: int) -> None:
    rng = random.Random(seed)
    deck = default_deck()
    numbers = [c.number for c in deck.cards for _ in range(c.copies)]
    hand = [deck.card(n) for n in sorted(rng.sample(numbers, size))]
    board = parse_board(BOARD)
    box = rng.randrange(len(board))
    roles = roles_for_round(first)
    conditions = [make_condition([t]).matches for t in TRAITS]
    many = many_condition_odds(board, box, hand, conditions, roles)
    one = [condition_odds(board, box, hand, f, roles) for f in conditions]
    assert many == one


def test_worked_example_through_the_one_walk() -> None:
    # Card 1 from D4 (as in test_boxes_tools): the owner can land on the 2, the opponent avoids it.
    deck = default_deck()
    two = make_condition(["2"]).matches
    own, opp = (many_condition_odds(parse_board(BOARD), parse_cell("D4"), [deck.card(1)],
                                    [two], (role,))[0] for role in ("self", "opp"))
    assert (own.expected, own.p_any) == (1.0, 1.0)
    assert (opp.expected, opp.p_any) == (0.0, 0.0)
