"""Pieces: bars (and the key) on a board, and draftable piece kinds with their lists (LM-22).

A placed bar is a :class:`Bar` -- a NamedTuple ``(cell, length, horizontal)`` where ``cell`` is
its top-left cell. The key is a bar of length 2 (LM-3) held apart in the position. Axes and the
keyhole are plain cells. NamedTuples keep positions hashable and fast in search.

Draftable kinds (:class:`PieceKind`) are ``H<n>`` horizontal bars, ``V<n>`` vertical bars and
``X`` axes (LM-22); the key and keyhole are never drafted.

Public API (stable): ``Bar``, ``bar_cells(board, bar)``, ``bar_mask(board, bar)``,
``bar_from_cells(board, cells)``, ``PieceKind``, ``parse_piece_list``, ``format_piece_list``,
``kind_of(bar)``.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from arena.core.errors import ParseError, RuleError
from arena.games.lockmaker.board import Board


class Bar(NamedTuple):
    """A straight piece of ``length`` cells from top-left ``cell``; horizontal slides L/R."""

    cell: int
    length: int
    horizontal: bool


def bar_cells(board: Board, bar: Bar) -> tuple[int, ...]:
    step = 1 if bar.horizontal else board.width
    return tuple(bar.cell + i * step for i in range(bar.length))


def bar_mask(board: Board, bar: Bar) -> int:
    m = 0
    for c in bar_cells(board, bar):
        m |= 1 << c
    return m


def bar_from_cells(board: Board, cells: Iterable[int]) -> Bar:
    """The bar on exactly these cells; RuleError (LM-4) unless they form a straight run of 2+."""
    cs = sorted(set(cells))
    if len(cs) < 2:
        raise RuleError("LM-4", "a bar has at least 2 cells")
    rows = {board.row(c) for c in cs}
    cols = {board.col(c) for c in cs}
    if len(rows) == 1 and cs[-1] - cs[0] == len(cs) - 1:
        return Bar(cs[0], len(cs), True)
    if len(cols) == 1 and all(b - a == board.width for a, b in itertools.pairwise(cs)):
        return Bar(cs[0], len(cs), False)
    raise RuleError("LM-4", f"cells {board.run_name(cs)} do not form one straight bar"
                    if len(rows) == 1 or len(cols) == 1 else "cells do not form one straight bar")


@dataclass(frozen=True, order=True)
class PieceKind:
    """A draftable piece: ``kind`` is ``"H"``, ``"V"`` or ``"X"`` (axis, length 1)."""

    kind: str
    length: int = 1

    def __post_init__(self) -> None:
        if self.kind not in ("H", "V", "X"):
            raise RuleError("LM-22", f"unknown piece kind {self.kind!r}")
        if self.kind == "X" and self.length != 1:
            raise RuleError("LM-6", "an axis is 1 x 1")
        if self.kind != "X" and not 2 <= self.length <= 11:
            raise RuleError("LM-4", f"a bar has 2 to 11 cells, not {self.length}")

    def __str__(self) -> str:
        return "X" if self.kind == "X" else f"{self.kind}{self.length}"

    @property
    def is_axis(self) -> bool:
        return self.kind == "X"


_PIECE = re.compile(r"^\s*(?:([HV])\s*(\d+)|(X))\s*$", re.IGNORECASE)


def parse_piece(text: str) -> PieceKind:
    m = _PIECE.match(text)
    if not m:
        raise ParseError("LM-22", f"{text.strip()!r} is not a piece (H3, V2 or X)")
    if m.group(3):
        return PieceKind("X")
    return PieceKind(m.group(1).upper(), int(m.group(2)))


def parse_piece_list(text: str) -> tuple[PieceKind, ...]:
    """``"H2,H2,V3,X"`` -> the pieces (LM-22); an empty text is an empty list."""
    if not text.strip():
        return ()
    out = []
    for i, part in enumerate(text.split(","), 1):
        try:
            out.append(parse_piece(part))
        except ParseError as exc:
            raise ParseError("LM-22", f"item {i}: {exc.message}") from None
    return tuple(out)


def format_piece_list(pieces: Iterable[PieceKind]) -> str:
    return ",".join(str(p) for p in pieces)


def kind_of(bar: Bar) -> PieceKind:
    """The draftable kind a placed bar corresponds to (its orientation is kept, LM-4)."""
    return PieceKind("H" if bar.horizontal else "V", bar.length)


def count_kinds(pieces: Iterable[PieceKind]) -> Counter[PieceKind]:
    return Counter(pieces)
