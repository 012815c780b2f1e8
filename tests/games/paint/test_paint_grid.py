"""PF-1..PF-3: shoves, a turn's action and its enumeration; the rule text's worked example."""

from __future__ import annotations

import pytest

from arena.core.errors import ParseError, RuleError
from arena.games.paint.grid import (
    EMPTY_GRID,
    Action,
    apply_action,
    cell_index,
    cell_name,
    format_grid,
    legal_actions,
    next_grids,
    parse_action,
    parse_grid,
    place,
    shove,
    shove_error,
)


def grid(text: str) -> str:
    return parse_grid(text)


def test_pf1_coordinates_a1_top_left() -> None:
    assert cell_name(0) == "A1" and cell_name(4) == "E1" and cell_name(5) == "A2"
    assert cell_index("E5") == 24 and cell_index("c3") == 12
    with pytest.raises(ParseError, match="PF-1"):
        cell_index("F1")


def test_pf2_golden_shove_example_from_the_rule_text() -> None:
    """The text numbers containers by entry (here R=1, G=2, B=3): 'Shove 1', then
    'shove B then 1', then 'Shove A then 2'; C could not be shoved first (no container on C1)."""
    g = apply_action(place(EMPTY_GRID, "R"), parse_action("Shove 1"))
    assert format_grid(g) == ".R...\n.....\n.....\n.....\n....."
    g = place(g, "G")
    g = apply_action(g, parse_action("shove B then 1"))
    assert format_grid(g) == ".G...\n.R...\n.....\n.....\n....."
    g = place(g, "B")
    with pytest.raises(RuleError, match=r"PF-2: column C cannot be shoved: there is no container on C1"):
        apply_action(g, parse_action("C then 1"))
    g = apply_action(g, parse_action("Shove A then 2"))
    assert format_grid(g) == ".G...\n.BR..\n.....\n.....\n....."


def test_pf2_run_pushes_into_first_gap_only() -> None:
    g = grid("RGB.R\n.....\n.....\n.....\n.....")
    assert shove(g, "1")[:5] == ".RGBR"
    col = grid("R....\nG....\n.....\nB....\n.....")
    assert format_grid(shove(col, "A")).split("\n")[:5] == [".....", "R....", "G....", "B....",
                                                             "....."]


def test_pf2_illegal_shoves_are_named() -> None:
    full_row = grid("RGBRG\n.....\n.....\n.....\n.....")
    assert shove_error(full_row, "1") == ("row 1 cannot be shoved: it is full, its containers "
                                          "have nowhere to go")
    assert shove_error(full_row, "2") == "row 2 cannot be shoved: there is no container on A2"
    with pytest.raises(RuleError, match="PF-2"):
        shove(full_row, "1")


def test_pf3_action_must_clear_a1() -> None:
    g = grid("R....\nRG...\n.....\n.....\n.....")
    with pytest.raises(RuleError, match="PF-3: after shoving row 2 right A1 still holds a container"):
        apply_action(g, parse_action("2"))
    with pytest.raises(RuleError, match="PF-3"):
        parse_action("1 then 2")
    with pytest.raises(RuleError, match="PF-3"):
        parse_action("A B")
    with pytest.raises(ParseError):
        parse_action("F")
    with pytest.raises(ParseError):
        parse_action("")
    with pytest.raises(RuleError, match="PF-3"):
        apply_action(EMPTY_GRID, Action("1"))


def test_pf3_notation_round_trips() -> None:
    for text in ["1", "A", "B then 1", "1 then E", "A then 5", "3 then A"]:
        assert str(parse_action(text)) == text
    assert parse_action("b,1") == Action("B", "1")
    assert parse_action("  shove  a   then 2 ") == Action("A", "2")


def test_pf3_every_action_listed_and_only_legal_ones() -> None:
    g = place(grid(".G...\n.BR..\n.....\n.....\n....."), "R")
    names = [str(a) for a, _ in legal_actions(g)]
    assert names == ["1", "A", "B then 1", "1 then B", "1 then C", "A then 2"]
    for a, after in legal_actions(g):
        assert apply_action(g, a) == after and after[0] == "."
    assert len(next_grids(g)) <= len(names)


def test_pf3_when_row_1_and_column_a_are_full() -> None:
    g = grid("RGBRG\nG....\nB....\nR....\nG....")
    names = [str(a) for a, _ in legal_actions(g)]
    assert names == ["B then 1", "C then 1", "D then 1", "E then 1",
                     "2 then A", "3 then A", "4 then A", "5 then A"]


def test_parse_grid_errors() -> None:
    with pytest.raises(ParseError, match="line 2"):
        parse_grid("RRRRR\nRRXRR\nRRRRR\nRRRRR\nRRRRR")
    with pytest.raises(ParseError, match="5 rows"):
        parse_grid("RRRRR")
