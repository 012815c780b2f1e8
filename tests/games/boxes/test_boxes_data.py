"""Boards (BX-1) and the deck as data (BX-10)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.errors import ParseError, RuleError
from arena.games.boxes.board import (
    CENTRE,
    Tile,
    board_text,
    cell_name,
    change_tiles,
    draw_board,
    parse_board,
    parse_cell,
)
from arena.games.boxes.deck import Card, Deck, default_deck, format_deck, parse_deck
from arena.games.boxes.movement import find_movement, movements
from games.boxes.boxes_helpers import BOARD


def test_bx1_board_text_round_trip_and_centre() -> None:
    board = parse_board(BOARD)
    assert len(board) == 49
    assert board[0] == Tile(3, True) and board[1] == Tile(7, False)
    assert cell_name(CENTRE) == "D4" and board[CENTRE] == Tile(9, True)
    assert parse_board(board_text(board)) == board
    assert parse_board(BOARD.replace("\n", " / ")) == board  # one-line form
    assert parse_board(BOARD.upper()) == board


@pytest.mark.parametrize(("text", "where"), [
    ("\n".join(BOARD.splitlines()[:6]), "7 rows"),
    (BOARD.replace("3b 7w", "3b", 1), "row 1 has 6 tiles"),
    (BOARD.replace("9b 1w 2b\n", "9b 1w 2x\n", 1), "line 1, column 7"),
    (BOARD.replace("3b", "12b", 1), "number 0-9"),
])
def test_bx1_malformed_board_is_rejected_with_where(text: str, where: str) -> None:
    with pytest.raises(ParseError, match="BX-1") as err:
        parse_board(text)
    assert where in str(err.value)


def test_g1_cells() -> None:
    assert parse_cell("a1") == 0 and parse_cell("G7") == 48 and parse_cell("D4") == 24
    for bad in ("H1", "A8", "A0", "D44", ""):
        with pytest.raises(ParseError, match="G-1"):
            parse_cell(bad)


def test_bx1_drawn_board_is_seeded_and_balanced() -> None:
    a, b = draw_board(random.Random(5)), draw_board(random.Random(5))
    assert a == b and a != draw_board(random.Random(6))
    assert sum(t.black for t in a) in (24, 25)
    assert all(sum(t.number == n for t in a) in (4, 5) for n in range(10))


def test_bx8_special_changes_wrap_modulo_10_and_invert() -> None:
    board = parse_board(BOARD)
    cells = frozenset({parse_cell("E1"), parse_cell("A1")})  # 9b, 3b
    up = change_tiles(board, cells, add=2)
    assert up[parse_cell("E1")] == Tile(1, True) and up[0] == Tile(5, True)
    down = change_tiles(board, cells, add=-4)
    assert down[parse_cell("E1")] == Tile(5, True) and down[0] == Tile(9, True)
    inv = change_tiles(board, cells, invert=True)
    assert inv[0] == Tile(3, False)
    assert sum(x != y for x, y in zip(board, inv, strict=True)) == 2


TABLE = {  # BX-10 as printed in the rulings: number -> (type, move, special)
    1: ("A", "1 Orthogonal", ""), 2: ("A", "2 Orthogonal", ""), 3: ("A", "3 Orthogonal", ""),
    4: ("A", "1 Diagonal", ""), 5: ("A", "2 Diagonal", ""), 6: ("B", "1 Orthogonal", ""),
    7: ("B", "2 Orthogonal", ""), 8: ("B", "3 Orthogonal", ""), 9: ("B", "1 Diagonal", ""),
    10: ("B", "2 Diagonal", ""), 11: ("C", "2 Orthogonal", ""), 12: ("C", "3 Orthogonal", ""),
    13: ("C", "2 Diagonal", ""), 14: ("A", "1+1 Orthogonal", ""),
    15: ("A+", "1+1 Orthogonal", ""), 16: ("A", "1 Knightwise", ""),
    17: ("B", "1 Knightwise", ""), 18: ("A", "1+1 Diagonal", ""),
    19: ("A+", "1+2 Orthogonal", ""), 20: ("A+", "2+1 Diagonal", ""),
    21: ("B", "4 Orthogonal", ""), 22: ("C", "4 Orthogonal", ""),
    23: ("A", "1+1+1 Orthogonal", ""), 24: ("A+", "1+1+1 Orthogonal", ""),
    25: ("B", "3 Diagonal", ""), 26: ("C", "3 Diagonal", ""), 27: ("A", "2 Straight", ""),
    28: ("B", "2 Straight", ""), 29: ("B", "2 Orthogonal", "Increase 2"),
    30: ("B", "2 Orthogonal", "Decrease 1"), 31: ("B", "1 Diagonal", "Increase 3"),
    32: ("A", "3 Orthogonal", "Wrap"), 33: ("B", "3 Orthogonal", "Wrap"),
    34: ("B", "2 Orthogonal", "Invert"), 35: ("C", "2 Diagonal", "Invert"),
    36: ("A+", "1+1 Knightwise", ""), 37: ("C", "1 Knightwise", "Increase 1"),
    38: ("B", "5 Orthogonal", "Wrap"),
}


def test_bx10_default_deck_matches_the_ruling() -> None:
    deck = default_deck()
    assert len(deck.cards) == 38
    for card in deck.cards:
        assert (card.type, card.move, card.special) == TABLE[card.number]
        assert card.copies == (2 if card.number <= 18 else 1)
    pile = deck.pile()
    assert len(pile) == 56 == 7 * 8


@pytest.mark.parametrize(("text", "message"), [
    ("name = 'x'", "no [[card]]"),
    ("[[card]]\nnumber = 3\ntype = 'D'\nmove = '1 Orthogonal'", "card 3: type must be"),
    ("[[card]]\nnumber = 4\ntype = 'A'\nmove = 'Orthogonal'", "card 4: move must look like"),
    ("[[card]]\nnumber = 5\ntype = 'A'\nmove = '1 Sideways'", "card 5: displacement"),
    ("[[card]]\nnumber = 6\ntype = 'A'\nmove = '1 Diagonal'\nspecial = 'Fly'",
     "card 6: unknown special figure"),
    ("[[card]]\nnumber = 7\ntype = 'A'\nmove = '1 Diagonal'\ncopies = 0", "card 7: copies"),
    ("[[card]]\nnumber = 8\ntype = 'A'\nmove = '1 Diagonal'\nspecial = 'Increase 12'",
     "card 8: Increase/Decrease amounts"),
    ("[[card]]\nnumber = 9\ntype = 'A'\nmove = '0 Diagonal'", "card 9: every number-figure"),
    ("[[card]]\nnumber = 9\ntype = 'A'\nmove = '1 Diagonal'\ncolour = 'red'",
     "card 9: unknown field"),
    ("[[card]]\nnumber = 2\ntype = 'A'\nmove = '1 Diagonal'\n"
     "[[card]]\nnumber = 2\ntype = 'B'\nmove = '1 Diagonal'", "card 2: the number is used"),
    ("[[card]]\ntype = 'A'\nmove = '1 Diagonal'", "card at position 1"),
    ("[[card]\nnumber = 1", "not valid TOML"),
])
def test_bx10_malformed_host_deck_names_card_and_reason(text: str, message: str) -> None:
    with pytest.raises(ParseError, match="BX-10") as err:
        parse_deck(text)
    assert message in str(err.value)


def test_bx10_host_deck_with_combined_specials() -> None:
    deck = parse_deck("name = 'mine'\n[[card]]\nnumber = 1\ntype = 'B'\n"
                      "move = '2 orthogonal'\nspecial = 'Wrap, Increase 4, Invert'\ncopies = 3")
    card = deck.card(1)
    assert card.wrap and card.invert and card.add == 4 and card.displacement == "Orthogonal"
    assert deck.pile() == (1, 1, 1) and deck.name == "mine"
    assert card.special == "Increase 4, Invert, Wrap"


_DISPS = st.sampled_from(["Orthogonal", "Diagonal", "Straight", "Knightwise"])


@st.composite
def _cards(draw: st.DrawFn, number: int) -> Card:
    legs = tuple(draw(st.lists(st.integers(1, 12), min_size=1, max_size=4)))
    disps = tuple(draw(st.lists(_DISPS, min_size=len(legs), max_size=len(legs))))
    mixed = disps if len(set(disps)) > 1 else ()
    add = draw(st.sampled_from([0, *range(1, 10), *range(-9, 0)]))
    return Card(number, draw(st.sampled_from(["A", "A+", "B", "C"])), legs, disps[0], add,
                draw(st.booleans()), draw(st.booleans()), draw(st.integers(1, 8)), mixed)


@given(st.integers(1, 6).flatmap(
    lambda n: st.tuples(*[_cards(i + 1) for i in range(n)])),
    st.text(st.characters(exclude_categories=["Cs"]), max_size=20))
@settings(max_examples=200, deadline=None)
def test_bx10_every_card_the_rules_allow_round_trips_through_the_deck_format(
        cards: tuple[Card, ...], name: str) -> None:
    deck = Deck(name, cards)
    assert parse_deck(format_deck(deck)) == deck


def test_bx8_a_card_with_two_displacement_figures_plays_them_in_order() -> None:
    deck = parse_deck("[[card]]\nnumber = 1\ntype = 'A+'\nmove = '1 Orthogonal + 1 Diagonal'\n")
    card = deck.card(1)
    assert card.displacements == ("Orthogonal", "Diagonal") and card.move == \
        "1 Orthogonal + 1 Diagonal"
    start = parse_cell("D4")
    finals = {cell_name(m.final) for m in movements(card, start)}
    assert len(movements(card, start)) == 16 and "E2" in finals and "D4" not in finals
    m = find_movement(card, start, ["U", "UR"])
    assert [cell_name(c) for c in m.landings] == ["D3", "E2"]
    with pytest.raises(RuleError, match="BX-8"):
        find_movement(card, start, ["UR", "U"])  # the figures' order is fixed
