"""Text formats: the lock file (LM-10), move notation (LM-11), Rush Hour strings (LM-12) and
piece lists (LM-22), with their round trips and their errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.errors import ParseError, RuleError
from arena.games.lockmaker.board import Board
from arena.games.lockmaker.construct import sample_lock as small_random_lock
from arena.games.lockmaker.lockfile import read, read_lock, write_board, write_lock
from arena.games.lockmaker.moves import legal_moves
from arena.games.lockmaker.notation import (
    format_move,
    named_cells,
    parse_move_text,
    parse_solution,
    replay,
)
from arena.games.lockmaker.pieces import PieceKind, format_piece_list, parse_piece_list
from arena.games.lockmaker.rush import read_rush, write_rush

FOG51 = "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM."


def test_lm10_reads_every_symbol() -> None:
    text = "; a comment\n.#.b.\nKK+b@\n..aa.\n"
    p = read_lock(text)
    b = p.board
    assert (b.width, b.height) == (5, 3)
    assert not b.is_open(b.cell(1, 0))
    assert p.keyhole == b.cell(4, 1)
    assert p.axes == (b.cell(2, 1),)
    assert len(p.bars) == 2
    assert p.key.horizontal and p.key.cell == 5


def test_lm10_empty_draft_board_has_no_key_and_no_keyhole() -> None:
    got = read("...\n.#.\n...\n")
    assert isinstance(got, Board) and got.blocked == frozenset({4})
    assert write_board(got) == "...\n.#.\n...\n"


@pytest.mark.parametrize(("text", "where", "rule"), [
    ("KK.@\nKK..\n", "line 1", "LM-10"),  # key of four cells
    ("KK.@\n...\n", "line 2", "LM-10"),  # ragged rows
    ("KK.@\n.a.a\n", "line 2, column 2", "LM-10"),  # a bar in two pieces
    ("KK.?\n", "line 1, column 4", "LM-10"),  # unknown character
    ("KK..\n", "line 1", "LM-10"),  # no keyhole
    ("..@\n", "line 1", "LM-10"),  # no key
    ("KK.@\n.a..\n", "line 2, column 2", "LM-10"),  # a bar of one cell
])
def test_lm10_errors_give_line_column_and_reason(text: str, where: str, rule: str) -> None:
    with pytest.raises(ParseError) as info:
        read_lock(text)
    assert info.value.rule == rule
    assert where in str(info.value)


def test_lm10_size_limit() -> None:
    with pytest.raises(ParseError, match="LM-1"):
        read(("." * 12 + "\n") * 3)


@settings(deadline=None, max_examples=40)
@given(st.integers(0, 10**6))
def test_lm10_round_trip_on_random_locks(seed: int) -> None:
    p = small_random_lock(seed)
    assert read_lock(write_lock(p)) == p


def test_lm11_parser_accepts_case_spacing_lines_and_commas() -> None:
    moves = parse_solution("bc1 l1,  C34   D2\n k r1\n\nE5 cw, e5ccw,E5 180")
    assert [str(m) for m in moves] == ["BC1 L1", "C34 D2", "K R1", "E5 CW", "E5 CCW", "E5 180"]
    assert moves[2].line == 2


def test_lm11_rejects_with_line_and_reason() -> None:
    with pytest.raises(ParseError) as info:
        parse_solution("K R1\nBC1 sideways")
    assert "line 2" in str(info.value) and info.value.rule == "LM-11"
    with pytest.raises(ParseError, match="LM-5"):
        parse_move_text("K R0")


def test_lm11_piece_names() -> None:
    b = Board(11, 11)
    assert named_cells(b, "BC1") == [b.cell(1, 0), b.cell(2, 0)]
    assert named_cells(b, "C34") == [b.cell(2, 2), b.cell(2, 3)]
    assert named_cells(b, "C9-11") == [b.cell(2, r) for r in (8, 9, 10)]
    assert named_cells(b, "C11") == [b.cell(2, 10)]
    with pytest.raises(RuleError, match="G-1"):
        named_cells(b, "BD1")


def test_lm11_piece_by_any_cell_by_run_or_k() -> None:
    p = read_lock(".bb..\n.....\n..a..\nKKa.@\n.....\n.....\n")
    for name in ("BC1", "B1", "C1"):
        assert replay(p, f"{name} L1").valid
    assert replay(p, "C34 D2, K R2").solved
    assert replay(p, "C3 D2, A4 R2").solved  # the key named by a cell
    bad = replay(p, "BC2 L1")
    assert bad.error is not None and "move 1" in bad.error and "LM-11" in bad.error


@settings(deadline=None, max_examples=40)
@given(st.integers(0, 10**6))
def test_lm11_notation_round_trip(seed: int) -> None:
    p = small_random_lock(seed)
    for move in legal_moves(p):
        text = format_move(p.board, move)
        assert str(parse_move_text(text)) == text
        assert replay(p, text).played == (move,)


def test_lm12_rush_hour_string_is_a_6x7_lock() -> None:
    p = read_rush(FOG51)
    b = p.board
    assert (b.width, b.height) == (7, 6)
    assert b.col(p.keyhole) == 6 and b.row(p.keyhole) == b.row(p.key.cell)
    assert {b.cell(6, r) for r in range(6)} - {p.keyhole} == b.blocked
    assert len(p.bars) == 12  # K is an ordinary vehicle in this format
    assert write_rush(p) == FOG51.replace(".", "o").translate(
        str.maketrans("BCDEFGHIJKLM", "BCDEFGHIJKLM")) or read_rush(write_rush(p)) == p
    assert read_rush(write_rush(p)) == p


def test_lm12_walls_and_errors() -> None:
    p = read_rush("IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM")
    assert p.board.cell(3, 0) in p.board.blocked
    with pytest.raises(ParseError, match="LM-12"):
        read_rush("oooo")
    with pytest.raises(ParseError, match="LM-12"):
        read_rush("o" * 36)
    with pytest.raises(ParseError, match="LM-12"):
        read_rush("A" + "o" * 5 + "A" + "o" * 29)


def test_lm22_piece_lists() -> None:
    pieces = parse_piece_list("H2, h2,V3 ,X")
    assert pieces == (PieceKind("H", 2), PieceKind("H", 2), PieceKind("V", 3), PieceKind("X"))
    assert format_piece_list(pieces) == "H2,H2,V3,X"
    assert parse_piece_list("") == ()
    with pytest.raises(ParseError, match="LM-22"):
        parse_piece_list("H2,Q4")
    with pytest.raises(RuleError, match="LM-4"):
        parse_piece_list("H1")


def test_lm11_numbered_listing_from_the_solver_can_be_pasted_back() -> None:
    moves = parse_solution("  1. F234 U1\n  2. K R1\n3) E5 CW, K L2")
    assert [str(m) for m in moves] == ["F234 U1", "K R1", "E5 CW", "K L2"]
