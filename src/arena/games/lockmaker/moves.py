"""Moves: slides (LM-5) and axis rotations (LM-6, LM-7), kept legal by LM-8, counted by LM-9.

Two independent code paths on purpose: :func:`successors` generates every legal move with its
result (what the solver walks), and :func:`apply_move` checks one given move and explains why
it is illegal (what ``check`` and the match use). The tests hold them to each other.

Geometry of a rotation: with rows growing downward (G-1), a cell at offset ``(dc, dr)`` from
the axis goes to ``(-dr, dc)`` for CW, ``(dr, -dc)`` for CCW and ``(-dc, -dr)`` for 180. Only
the destination cells are checked (LM-7): open, on the board, and not under a piece that is
not turning.

Public API (stable): ``Slide``, ``Rotate``, ``Move``, ``TURNS``, ``successors(pos)``,
``legal_moves(pos)``, ``apply_move(pos, move)``, ``rotate_cell(board, axis, cell, turn)``,
``reverse(move, pos_before)``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from arena.core.errors import RuleError
from arena.games.lockmaker.board import STEP, Board
from arena.games.lockmaker.pieces import Bar, bar_cells, bar_mask
from arena.games.lockmaker.position import Position, attached

TURNS = ("CW", "CCW", "180")


class Slide(NamedTuple):
    """Slide ``bar`` (as it stands before the move) ``distance`` cells ``direction`` (U/D/L/R);
    ``key`` tells whether the bar is the key (written ``K`` in notation, LM-11)."""

    bar: Bar
    direction: str
    distance: int
    key: bool = False


class Rotate(NamedTuple):
    """Turn every piece attached to the axis on ``axis`` by ``turn`` (CW, CCW, 180; LM-7)."""

    axis: int
    turn: str


Move = Slide | Rotate


def rotate_cell(board: Board, axis: int, cell: int, turn: str) -> tuple[int, int]:
    """(col, row) where ``cell`` lands when turned about ``axis`` (may be off the board)."""
    ac, ar = board.col(axis), board.row(axis)
    dc, dr = board.col(cell) - ac, board.row(cell) - ar
    if turn == "CW":
        dc, dr = -dr, dc
    elif turn == "CCW":
        dc, dr = dr, -dc
    else:
        dc, dr = -dc, -dr
    return ac + dc, ar + dr


def _turned(board: Board, axis: int, bar: Bar, turn: str, free: int) -> Bar | None:
    """``bar`` turned about ``axis``, or None if a destination cell is not free (LM-7)."""
    cells = []
    for cell in bar_cells(board, bar):
        c, r = rotate_cell(board, axis, cell, turn)
        if not board.inside(c, r):
            return None
        n = board.cell(c, r)
        if not free >> n & 1:
            return None
        cells.append(n)
    cells.sort()
    horizontal = bar.horizontal if turn == "180" else not bar.horizontal
    return Bar(cells[0], bar.length, horizontal)


def _axes_ok(pos_axes: tuple[int, ...], board: Board, pieces: tuple[Bar, ...]) -> bool:
    """LM-8: every axis has at least one attached piece."""
    return all(any(attached(board, a, b) for b in pieces) for a in pos_axes)


def successors(pos: Position, *, only: int | None = None,
               rotations: bool = True) -> Iterator[tuple[Move, Position]]:
    """Every legal move from ``pos`` with the position it leads to (LM-5, LM-7, LM-8).

    ``only`` limits the slides to one piece (0 is the key) and ``rotations=False`` leaves the
    axis turns out: a caller that knows which piece moved asks for far fewer positions."""
    board = pos.board
    w, h = board.width, board.height
    occ = pos.occupied
    free = board.open_mask & ~occ
    pieces = pos.pieces
    axes = pos.axes
    for i, bar in enumerate(pieces):
        if only is not None and i != only:
            continue
        own_axes = [a for a in axes if attached(board, a, bar)] if axes else []
        col, row = bar.cell % w, bar.cell // w
        others = pieces[:i] + pieces[i + 1:]
        if bar.horizontal:
            dirs = (("L", -1, col), ("R", 1, w - col - bar.length))
        else:
            dirs = (("U", -w, row), ("D", w, h - row - bar.length))
        for direction, step, room in dirs:
            lead = bar.cell if step < 0 else bar.cell + step * (bar.length - 1)
            for d in range(1, room + 1):
                entering = lead + step * d
                if not free >> entering & 1:
                    break
                moved = Bar(bar.cell + step * d, bar.length, bar.horizontal)
                if own_axes and not all(
                    attached(board, a, moved) or any(attached(board, a, o) for o in others)
                    for a in own_axes
                ):
                    continue
                if i == 0:
                    yield Slide(bar, direction, d, True), pos.with_pieces(moved, others)
                else:
                    yield Slide(bar, direction, d, False), pos.with_pieces(
                        pieces[0], (*others[1:], moved))
    for axis in axes if rotations else ():
        turning = [j for j, b in enumerate(pieces) if attached(board, axis, b)]
        if not turning:
            continue
        moving_mask = 0
        for j in turning:
            moving_mask |= bar_mask(board, pieces[j])
        room = free | moving_mask
        for turn in TURNS:
            new_pieces = list(pieces)
            ok = True
            for j in turning:
                nb = _turned(board, axis, pieces[j], turn, room)
                if nb is None:
                    ok = False
                    break
                new_pieces[j] = nb
            if not ok:
                continue
            np = tuple(new_pieces)
            if not _axes_ok(axes, board, np):
                continue
            yield Rotate(axis, turn), pos.with_pieces(np[0], np[1:])


def legal_moves(pos: Position) -> list[Move]:
    return [m for m, _ in successors(pos)]


def apply_move(pos: Position, move: Move) -> Position:
    """The position after ``move``; RuleError naming the rule if the move is illegal."""
    board = pos.board
    if isinstance(move, Slide):
        bar = move.bar
        if move.key and bar != pos.key:
            raise RuleError("LM-11", "the key is not where the move says")
        if not move.key and bar not in pos.bars:
            raise RuleError("LM-11", f"there is no bar on {board.run_name(bar_cells(board, bar))}")
        name = "the key" if move.key else board.run_name(bar_cells(board, bar))
        if move.direction not in STEP:
            raise RuleError("LM-11", f"unknown direction {move.direction!r}")
        if (move.direction in "LR") != bar.horizontal:
            along = "left/right" if bar.horizontal else "up/down"
            raise RuleError("LM-4", f"{name} slides only {along}")
        if move.distance < 1:
            raise RuleError("LM-5", "a slide moves at least one cell")
        dc, dr = STEP[move.direction]
        blocking = pos.occupied & ~bar_mask(board, bar)
        cells = bar_cells(board, bar)
        for d in range(1, move.distance + 1):
            for cell in cells:
                c, r = board.col(cell) + dc * d, board.row(cell) + dr * d
                if not board.inside(c, r):
                    raise RuleError("LM-5", f"{name} would slide off the board")
                n = board.cell(c, r)
                if not board.is_open(n):
                    raise RuleError("LM-5", f"{name} would slide into blocked cell "
                                            f"{board.name(n)}")
                if blocking >> n & 1:
                    raise RuleError("LM-5", f"{name} cannot pass the piece on {board.name(n)}")
        step = dc + dr * board.width
        moved = Bar(bar.cell + step * move.distance, bar.length, bar.horizontal)
        if move.key:
            new = pos.with_pieces(moved, pos.bars)
        else:
            rest = list(pos.bars)
            rest.remove(bar)
            new = pos.with_pieces(pos.key, (*rest, moved))
        _check_axes(new, f"sliding {name}")
        return new
    axis, turn = move
    if axis not in pos.axes:
        raise RuleError("LM-6", f"there is no axis on {board.name(axis)}")
    if turn not in TURNS:
        raise RuleError("LM-11", f"a rotation is CW, CCW or 180, not {turn!r}")
    pieces = pos.pieces
    turning = [j for j, b in enumerate(pieces) if attached(board, axis, b)]
    moving_mask = 0
    for j in turning:
        moving_mask |= bar_mask(board, pieces[j])
    room = board.open_mask & ~pos.occupied | moving_mask
    new_pieces = list(pieces)
    for j in turning:
        nb = _turned(board, axis, pieces[j], turn, room)
        if nb is None:
            for cell in bar_cells(board, pieces[j]):
                c, r = rotate_cell(board, axis, cell, turn)
                if not board.inside(c, r):
                    raise RuleError("LM-7", f"turning {board.name(axis)} {turn} would take a "
                                            "piece off the board")
                n = board.cell(c, r)
                if not board.is_open(n):
                    raise RuleError("LM-7", f"turning {board.name(axis)} {turn} would put a "
                                            f"piece on blocked cell {board.name(n)}")
                if not room >> n & 1:
                    raise RuleError("LM-7", f"turning {board.name(axis)} {turn}: destination "
                                            f"{board.name(n)} is occupied")
        assert nb is not None
        new_pieces[j] = nb
    new = pos.with_pieces(new_pieces[0], tuple(new_pieces[1:]))
    _check_axes(new, f"turning {board.name(axis)}")
    return new


def _check_axes(pos: Position, what: str) -> None:
    for a in pos.axes:
        if not pos.attached_to(a):
            raise RuleError("LM-8", f"{what} would leave the axis on {pos.board.name(a)} "
                                    "with no attached piece")


def reverse(move: Move, before: Position) -> Move:
    """The move that undoes ``move`` played from ``before`` (a slide back; the opposite turn)."""
    if isinstance(move, Slide):
        back = {"L": "R", "R": "L", "U": "D", "D": "U"}[move.direction]
        dc, dr = STEP[move.direction]
        step = dc + dr * before.board.width
        moved = Bar(move.bar.cell + step * move.distance, move.bar.length, move.bar.horizontal)
        return Slide(moved, back, move.distance, move.key)
    back_turn = {"CW": "CCW", "CCW": "CW", "180": "180"}[move.turn]
    return Rotate(move.axis, back_turn)
