"""Every default card (BX-8, BX-10) from the centre tile D4 and the edge tile A4, Wrap
included: how many legal movements there are (counted by hand from the card's figures) and one
worked movement each with its path and landings by type."""

from __future__ import annotations

import pytest

from arena.core.errors import RuleError
from arena.games.boxes.board import cell_name, parse_cell
from arena.games.boxes.deck import default_deck
from arena.games.boxes.movement import find_movement, movements

# card: (movements from D4, movements from A4). Hand counts: a leg of N in one of 4 (8)
# directions needs N cells of room; knight shapes are legal iff their end cell is on the board.
COUNTS = {
    1: (4, 3), 2: (4, 3), 3: (4, 3), 4: (4, 2), 5: (4, 2), 6: (4, 3), 7: (4, 3), 8: (4, 3),
    9: (4, 2), 10: (4, 2), 11: (4, 3), 12: (4, 3), 13: (4, 2), 14: (16, 10), 15: (16, 10),
    16: (16, 8), 17: (16, 8), 18: (16, 8), 19: (16, 9), 20: (16, 8), 21: (0, 1), 22: (0, 1),
    23: (64, 35), 24: (64, 35), 25: (4, 2), 26: (4, 2), 27: (8, 5), 28: (8, 5), 29: (4, 3),
    30: (4, 3), 31: (4, 2), 32: (4, 4), 33: (4, 4), 34: (4, 3), 35: (4, 2), 36: (192, 96),
    37: (16, 8), 38: (4, 4),
}

# (card, start, legs, path, landings)
EXAMPLES = [
    (1, "D4", "U", "D3", "D3"), (1, "A4", "R", "B4", "B4"),
    (2, "D4", "D", "D5 D6", "D6"), (2, "A4", "U", "A3 A2", "A2"),
    (3, "D4", "L", "C4 B4 A4", "A4"), (3, "A4", "D", "A5 A6 A7", "A7"),
    (4, "D4", "UR", "E3", "E3"), (4, "A4", "DR", "B5", "B5"),
    (5, "D4", "DL", "C5 B6", "B6"), (5, "A4", "UR", "B3 C2", "C2"),
    (6, "D4", "R", "E4", "E4"), (6, "A4", "U", "A3", "A3"),
    (7, "D4", "U", "D3 D2", "D3 D2"), (7, "A4", "R", "B4 C4", "B4 C4"),
    (8, "D4", "D", "D5 D6 D7", "D5 D6 D7"), (8, "A4", "U", "A3 A2 A1", "A3 A2 A1"),
    (9, "D4", "UL", "C3", "C3"), (9, "A4", "UR", "B3", "B3"),
    (10, "D4", "DR", "E5 F6", "E5 F6"), (10, "A4", "DR", "B5 C6", "B5 C6"),
    (11, "D4", "L", "C4 B4", "C4"), (11, "A4", "D", "A5 A6", "A5"),
    (12, "D4", "R", "E4 F4 G4", "E4 F4"), (12, "A4", "R", "B4 C4 D4", "B4 C4"),
    (13, "D4", "UL", "C3 B2", "C3"), (13, "A4", "UR", "B3 C2", "B3"),
    (14, "D4", "U R", "D3 E3", "E3"), (14, "A4", "R L", "B4 A4", "A4"),
    (15, "D4", "U U", "D3 D2", "D3 D2"), (15, "A4", "D R", "A5 B5", "A5 B5"),
    (16, "D4", "R2D1", "E4 F4 F5", "F5"), (16, "A4", "U1R2", "A3 B3 C3", "C3"),
    (17, "D4", "D1R2", "D5 E5 F5", "D5 E5 F5"), (17, "A4", "R2U1", "B4 C4 C3", "B4 C4 C3"),
    (18, "D4", "UR DR", "E3 F4", "F4"), (18, "A4", "UR DL", "B3 A4", "A4"),
    (19, "D4", "L U", "C4 C3 C2", "C4 C2"), (19, "A4", "R D", "B4 B5 B6", "B4 B6"),
    (20, "D4", "UR UR", "E3 F2 G1", "F2 G1"), (20, "A4", "DR UR", "B5 C6 D5", "C6 D5"),
    (21, "A4", "R", "B4 C4 D4 E4", "B4 C4 D4 E4"),
    (22, "A4", "R", "B4 C4 D4 E4", "B4 C4 D4"),
    (23, "D4", "U U U", "D3 D2 D1", "D1"), (23, "A4", "R U L", "B4 B3 A3", "A3"),
    (24, "D4", "L D R", "C4 C5 D5", "C4 C5 D5"), (24, "A4", "U U U", "A3 A2 A1", "A3 A2 A1"),
    (25, "D4", "DL", "C5 B6 A7", "C5 B6 A7"), (25, "A4", "UR", "B3 C2 D1", "B3 C2 D1"),
    (26, "D4", "UL", "C3 B2 A1", "C3 B2"), (26, "A4", "DR", "B5 C6 D7", "B5 C6"),
    (27, "D4", "DR", "E5 F6", "F6"), (27, "A4", "R", "B4 C4", "C4"),
    (28, "D4", "UL", "C3 B2", "C3 B2"), (28, "A4", "D", "A5 A6", "A5 A6"),
    (29, "D4", "U", "D3 D2", "D3 D2"), (29, "A4", "R", "B4 C4", "B4 C4"),
    (30, "D4", "D", "D5 D6", "D5 D6"), (30, "A4", "U", "A3 A2", "A3 A2"),
    (31, "D4", "DR", "E5", "E5"), (31, "A4", "DR", "B5", "B5"),
    (32, "D4", "U", "D3 D2 D1", "D1"), (32, "A4", "L", "G4 F4 E4", "E4"),
    (33, "D4", "R", "E4 F4 G4", "E4 F4 G4"), (33, "A4", "L", "G4 F4 E4", "G4 F4 E4"),
    (34, "D4", "L", "C4 B4", "C4 B4"), (34, "A4", "D", "A5 A6", "A5 A6"),
    (35, "D4", "DL", "C5 B6", "C5"), (35, "A4", "UR", "B3 C2", "B3"),
    (36, "D4", "R2D1 U2R1", "E4 F4 F5 F4 F3 G3", "F5 G3"),
    (36, "A4", "R1D2 R2U1", "B4 B5 B6 C6 D6 D5", "B6 D5"),
    (37, "D4", "U2L1", "D3 D2 C2", "D3 D2"), (37, "A4", "D2R1", "A5 A6 B6", "A5 A6"),
    (38, "D4", "U", "D3 D2 D1 D7 D6", "D3 D2 D1 D7 D6"),
    (38, "A4", "L", "G4 F4 E4 D4 C4", "G4 F4 E4 D4 C4"),
]


def cells(text: str) -> tuple[int, ...]:
    return tuple(parse_cell(x) for x in text.split())


def test_every_card_has_counts_and_examples() -> None:
    numbers = {c.number for c in default_deck().cards}
    assert set(COUNTS) == numbers == set(range(1, 39))
    for start in ("D4", "A4"):
        shown = {card for card, s, *_ in EXAMPLES if s == start}
        no_move = {n for n, (d4, a4) in COUNTS.items() if (d4 if start == "D4" else a4) == 0}
        assert shown | no_move == numbers, f"cards without an example from {start}"


@pytest.mark.parametrize("number", sorted(COUNTS))
def test_bx8_movement_counts_centre_and_edge(number: int) -> None:
    card = default_deck().card(number)
    d4, a4 = COUNTS[number]
    assert len(movements(card, parse_cell("D4"))) == d4
    assert len(movements(card, parse_cell("A4"))) == a4
    for start in ("D4", "A4"):
        notations = [str(m) for m in movements(card, parse_cell(start))]
        assert len(set(notations)) == len(notations), "every movement has its own notation"


@pytest.mark.parametrize(("number", "start", "legs", "path", "landings"), EXAMPLES)
def test_bx8_worked_movement(number: int, start: str, legs: str, path: str,
                             landings: str) -> None:
    card = default_deck().card(number)
    m = find_movement(card, parse_cell(start), legs.split())
    assert m.path == cells(path)
    assert m.landings == cells(landings)
    assert str(m) == f"{number} {legs}"
    # The same movement named by its path and (when unique) by its destination.
    assert find_movement(card, parse_cell(start), ["path", f"{start}-{path.replace(' ', '-')}"]) \
        == m
    assert cell_name(m.final) == path.split()[-1]


@pytest.mark.parametrize(("number", "legs"), [(1, "L"), (3, "L"), (5, "DL"), (16, "L2U1"),
                                              (19, "L U"), (27, "UL"), (36, "U1L2 R2D1")])
def test_bx9_no_movement_leaves_the_board_from_the_edge(number: int, legs: str) -> None:
    card = default_deck().card(number)
    with pytest.raises(RuleError) as err:
        find_movement(card, parse_cell("A4"), legs.split())
    assert err.value.rule == "BX-9"


def test_bx8_wrong_direction_kind_and_leg_count_are_named() -> None:
    deck = default_deck()
    with pytest.raises(RuleError, match="BX-8"):
        find_movement(deck.card(1), parse_cell("D4"), ["UR"])  # orthogonal card
    with pytest.raises(RuleError, match="BX-8"):
        find_movement(deck.card(14), parse_cell("D4"), ["U"])  # two legs
    with pytest.raises(RuleError, match="BX-8"):
        find_movement(deck.card(3), parse_cell("D4"), ["U2"])  # the leg is exactly 3
    with pytest.raises(RuleError, match="BX-8"):
        find_movement(deck.card(16), parse_cell("D4"), ["R3"])
    # Compass words and counts that agree are accepted.
    assert str(find_movement(deck.card(3), parse_cell("D4"), ["n3"])) == "3 U"


def test_bx8_knightwise_needs_the_exact_path() -> None:
    card = default_deck().card(17)
    start = parse_cell("D4")
    with pytest.raises(RuleError, match="several movements"):
        find_movement(card, start, ["to", "F5"])
    a = find_movement(card, start, ["R2D1"])
    b = find_movement(card, start, ["D1R2"])
    assert a.final == b.final and a.landings != b.landings
    # The rule text's clarification: a Knightwise movement is always given as its exact path,
    # even on a type A card where both paths land the same.
    with pytest.raises(RuleError, match="several movements"):
        find_movement(default_deck().card(16), start, ["to", "F5"])
    # A destination reached one way only is enough for other cards.
    assert str(find_movement(default_deck().card(3), start, ["to", "D1"])) == "3 U"


def test_bx8_a_path_that_reads_like_a_knight_leg_is_still_a_path() -> None:
    """``1 path D1-D2`` was read as the knight leg D1 D2 and refused."""
    deck = default_deck().by_number
    m = find_movement(deck[1], parse_cell("D1"), ["path", "D1-D2"])
    assert cell_name(m.final) == "D2"
    m = find_movement(deck[1], parse_cell("D1"), ["D1-D2"])  # not a Knightwise card: a path
    assert cell_name(m.final) == "D2"
    m = find_movement(deck[2], parse_cell("D1"), ["path", "D1-D2-D3"])
    assert cell_name(m.final) == "D3"


def test_bx8_a_knight_leg_that_does_not_turn_a_right_angle_names_bx8() -> None:
    deck = default_deck().by_number
    for token in ("R2R1", "U1D2", "L2-R1"):
        with pytest.raises(RuleError) as err:
            find_movement(deck[16], parse_cell("D4"), [token])
        assert err.value.rule == "BX-8" and "right angle" in str(err.value)
    assert cell_name(find_movement(deck[16], parse_cell("D4"), ["D1-R2"]).final) == "F5"
