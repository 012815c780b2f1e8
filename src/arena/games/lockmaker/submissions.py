"""What a Lockmaker seat submits, as values (LM-13..LM-17): each ``str()`` is the notation a
seat types for it, each ``to_json()`` its facts (pieces by shape and length, cells as
``[column, row]`` from 0, moves as direction and distance): the pages word them, the notation
stays the replay's record.

A study answer is a :class:`arena.core.moves.Word` (``ready``, or the DMO's ``first`` or
``second``, LM-13); a draft turn a :class:`Take` (LM-14); a build a :class:`Lock` (LM-15); in
the solve phase a :class:`Solve` or :data:`IMPOSSIBLE` (LM-16); a :class:`Pick` of the
solution that counts (LM-16); a :class:`Decide` (LM-17); a countersolve a :class:`Solve` with
``counter`` set (LM-17, LM-18).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from arena.core.game import JSON, Word
from arena.games.lockmaker.board import Board
from arena.games.lockmaker.lockfile import write_lock
from arena.games.lockmaker.moves import Move, Rotate
from arena.games.lockmaker.notation import MoveText
from arena.games.lockmaker.pieces import Bar, PieceKind, bar_cells
from arena.games.lockmaker.position import Position

DIRECTIONS = {"L": "left", "R": "right", "U": "up", "D": "down"}
TURNS = {"CW": "clockwise", "CCW": "counterclockwise", "180": "half"}


@lru_cache(maxsize=64)
def lock_text(pos: Position) -> str:
    """``write_lock(pos)``, remembered: one lock is written as its maker's move, when it is
    shown and in every view of the solve phase, so a playout writes each lock once."""
    return write_lock(pos)


def piece_facts(piece: PieceKind) -> JSON:
    """A draftable piece as facts (LM-22): its shape (``horizontal``, ``vertical`` or
    ``axis``) and its length in cells."""
    shape = {"H": "horizontal", "V": "vertical", "X": "axis"}[piece.kind]
    return {"shape": shape, "length": piece.length}


def pieces_facts(pieces: tuple[PieceKind, ...] | list[PieceKind]) -> list[JSON]:
    return [piece_facts(p) for p in pieces]


def _at(board: Board, cell: int) -> list[int]:
    return [board.col(cell), board.row(cell)]


def _bar_facts(board: Board, bar: Bar) -> JSON:
    return {"at": _at(board, bar.cell), "length": bar.length, "horizontal": bar.horizontal}


@lru_cache(maxsize=64)
def lock_facts(pos: Position) -> JSON:
    """A lock as facts (LM-10): the board's size and blocked cells, the keyhole, the key, the
    bars (top-left cell, length, orientation) and the axes, cells as ``[column, row]``."""
    b = pos.board
    return {"width": b.width, "height": b.height,
            "blocked": [_at(b, c) for c in b.cells() if not b.is_open(c)],
            "keyhole": _at(b, pos.keyhole), "key": _bar_facts(b, pos.key),
            "bars": [_bar_facts(b, bar) for bar in pos.bars],
            "axes": [_at(b, a) for a in pos.axes]}


def move_facts(board: Board, move: Move) -> JSON:
    """One played move (LM-11) as facts: a slide's piece (its cells before the slide, and
    whether it is the key), direction and distance; a turn's axis and how far it turns."""
    if isinstance(move, Rotate):
        return {"turn": TURNS[move.turn], "axis": _at(board, move.axis)}
    return {"slide": DIRECTIONS[move.direction], "distance": move.distance, "key": move.key,
            "cells": [_at(board, c) for c in bar_cells(board, move.bar)]}


def _text_facts(mt: MoveText) -> JSON:
    """A move as read, before it is played on a lock: no cells yet (the name is notation)."""
    if mt.action in TURNS:
        return {"turn": TURNS[mt.action]}
    return {"slide": DIRECTIONS[mt.action], "distance": mt.distance, "key": mt.piece == "K"}


@dataclass(frozen=True)
class Take:
    """A draft turn (LM-14): the pieces taken, and whether the seat stops drafting."""

    pieces: tuple[PieceKind, ...]
    stop: bool

    def __str__(self) -> str:
        return ",".join([*(str(p) for p in self.pieces), *(["stop"] if self.stop else [])])

    def to_json(self) -> JSON:
        return {"kind": "take", "pieces": pieces_facts(self.pieces), "stop": self.stop}


@dataclass(frozen=True)
class Lock:
    """A built lock (LM-15); its notation is the lock file."""

    position: Position

    def __str__(self) -> str:
        return lock_text(self.position)

    def to_json(self) -> JSON:
        facts = lock_facts(self.position)
        assert isinstance(facts, dict)
        return {"kind": "lock", **facts}


@dataclass(frozen=True)
class Impossible:
    """The solver's call that the lock cannot be solved (LM-16, LM-18)."""

    def __str__(self) -> str:
        return "impossible"

    def to_json(self) -> JSON:
        return {"kind": "impossible"}


IMPOSSIBLE = Impossible()


@dataclass(frozen=True)
class Solve:
    """A solution (LM-11, LM-16), or with ``counter`` a countersolve of the seat's own lock
    (LM-17). ``text`` is its moves in canonical notation, one ``, `` between two, and ``moves``
    their count (LM-9). Read from text, a piece keeps the name the seat gave it (any of its
    cells); once checked against the lock (:meth:`LockmakerGame.check`), every piece has its
    canonical name, as the rules record it. ``steps`` are the moves as read, for that check:
    two solutions with the same text are the same move wherever their moves stood.
    ``played`` are the checked moves as facts (:func:`move_facts`), what the log records."""

    text: str
    moves: int
    counter: bool = False
    steps: tuple[MoveText, ...] = field(default=(), compare=False, repr=False)
    played: tuple[JSON, ...] = field(default=(), compare=False, repr=False)

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> JSON:
        steps = list(self.played) or [_text_facts(mt) for mt in self.steps]
        return {"kind": "counter" if self.counter else "solution", "moves": self.moves,
                "steps": steps}


@dataclass(frozen=True)
class Pick:
    """The number of the solution that counts, from 1 (LM-16)."""

    number: int

    def __str__(self) -> str:
        return str(self.number)

    def to_json(self) -> JSON:
        return {"kind": "pick", "solution": self.number}


@dataclass(frozen=True)
class Decide:
    """Whether the maker countersolves (LM-17)."""

    counter: bool

    def __str__(self) -> str:
        return "countersolve" if self.counter else "pass"

    def to_json(self) -> JSON:
        return {"kind": "decide", "countersolve": self.counter}


LMMove = Word | Take | Lock | Impossible | Solve | Pick | Decide
"""Every move of a Lockmaker match."""
