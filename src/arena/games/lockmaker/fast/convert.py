"""Between the game's :class:`Position` and the fast package's packed states.

The fast solver searches packed ints; everything a person sees (lock text, move notation)
comes from the game's own model, so the two cannot drift apart: a path found here is turned
into moves by asking the game's :func:`successors` which of its legal moves leads to the next
position, which also re-checks every step against the reference rules (LM-5..LM-8).
"""

from __future__ import annotations

from collections.abc import Iterator

from arena.core.errors import RuleError
from arena.games.lockmaker.board import Board
from arena.games.lockmaker.fast.model import FastLock
from arena.games.lockmaker.fast.tables import Compiled
from arena.games.lockmaker.moves import Move, successors
from arena.games.lockmaker.pieces import Bar, bar_cells, bar_from_cells
from arena.games.lockmaker.position import Position


def from_position(pos: Position) -> FastLock:
    """The fast model of a lock (key first, then its bars)."""
    board = pos.board
    pieces = tuple(tuple(sorted(bar_cells(board, b))) for b in pos.pieces)
    goals = tuple(sorted(tuple(sorted(bar_cells(board, t))) for t in pos.targets))
    return FastLock(board.width, board.height, frozenset(board.blocked), pos.keyhole,
                    tuple(pos.axes), pieces, goals)


def lock_position(lock: FastLock, board: Board | None = None) -> Position:
    """The game's position for a fast lock (``board`` supplies label edges if given)."""
    if board is None:
        board = Board(lock.width, lock.height, frozenset(lock.blocked))
    key = bar_from_cells(board, lock.pieces[0])
    bars = tuple(bar_from_cells(board, cells) for cells in lock.pieces[1:])
    return Position.make(board, lock.keyhole, key, bars, lock.axes)


def state_position(c: Compiled, template: Position, state: int) -> Position:
    """The position of packed ``state`` on the template's board, keyhole and axes."""
    board = template.board
    cells = c.placements_of(state)
    key = bar_from_cells(board, cells[0])
    bars: tuple[Bar, ...] = tuple(bar_from_cells(board, p) for p in cells[1:])
    return template.with_pieces(key, bars)


def path_moves(c: Compiled, template: Position, path: tuple[int, ...]) -> list[Move]:
    """The moves along a path of packed states, found among the game's own legal moves."""
    out: list[Move] = []
    cur = state_position(c, template, path[0])
    for state in path[1:]:
        target = state_position(c, template, state)
        # A slide changes one piece and keeps its orientation: ask the rules for that piece's
        # slides first; a turn (a 180 keeps orientation too) is found in the full list.
        changed = [i for i, (a, b) in enumerate(zip(cur.pieces, target.pieces, strict=True))
                   if a != b]
        found = None
        if len(changed) == 1:
            found = _step(successors(cur, only=changed[0], rotations=False), target)
        if found is None:
            found = _step(successors(cur), target)
        if found is None:
            raise RuleError("LM-9", "fast solver path step is not a legal move (internal error)")
        out.append(found)
        cur = target
    return out


def _step(steps: Iterator[tuple[Move, Position]], target: Position) -> Move | None:
    for move, nxt in steps:
        if nxt == target:
            return move
    return None
