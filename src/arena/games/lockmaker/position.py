"""A lock position: board, keyhole, axes, key and bars, immutable and canonical.

Bars are kept sorted, so two positions that differ only by swapping identical bars compare
equal (which is what a solver wants: the pieces carry no identity beyond shape and place).
Axes and the keyhole never move (LM-2, LM-6); only the key and bars do.

Public API (stable; ``lockmaker.fast`` builds on it):

- ``Position(board, keyhole, key, bars, axes)``; ``Position.make(...)`` sorts for you.
- ``pos.pieces`` -> ``(key, *bars)``; ``pos.occupied`` bitmask of every piece cell (key, bars,
  axes, keyhole); ``pos.solved`` (LM-3); ``pos.targets`` (the key placements that solve).
- ``attached(board, axis, bar)`` (LM-6), ``pos.attached_to(axis)``, ``pos.problems()`` (LM-1,
  LM-2, LM-3, LM-4, LM-8 and overlap; empty when the position is legal).
- ``key_targets(board, keyhole)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from arena.core.frozen import evolve
from arena.games.lockmaker.board import Board
from arena.games.lockmaker.pieces import Bar, bar_cells, bar_mask


def attached(board: Board, axis: int, bar: Bar) -> bool:
    """LM-6: a 1-unit end of ``bar`` is orthogonally next to ``axis`` and the bar extends
    away from it in a straight line (which a straight bar always does)."""
    w = board.width
    ac, ar = axis % w, axis // w
    bc, br = bar.cell % w, bar.cell // w
    if bar.horizontal:
        return br == ar and (bc - 1 == ac or bc + bar.length == ac)
    return bc == ac and (br - 1 == ar or br + bar.length == ar)


@lru_cache(maxsize=1024)
def key_targets(board: Board, keyhole: int) -> frozenset[Bar]:
    """LM-3: the key placements that touch the keyhole end-on from inside the board.

    Remembered per board and keyhole: every Position computes its targets, and a random
    playout makes thousands of positions on a few boards."""
    kc, kr = board.col(keyhole), board.row(keyhole)
    out = set()
    for side in board.keyhole_sides(keyhole):
        if side == "right" and kc - 2 >= 0:
            out.add(Bar(board.cell(kc - 2, kr), 2, True))
        elif side == "left" and kc + 2 < board.width:
            out.add(Bar(board.cell(kc + 1, kr), 2, True))
        elif side == "bottom" and kr - 2 >= 0:
            out.add(Bar(board.cell(kc, kr - 2), 2, False))
        elif side == "top" and kr + 2 < board.height:
            out.add(Bar(board.cell(kc, kr + 1), 2, False))
    return frozenset(out)


@dataclass(frozen=True)
class Position:
    """A lock. ``bars`` excludes the key; ``axes`` are axis cells. Both kept sorted."""

    board: Board
    keyhole: int
    key: Bar
    bars: tuple[Bar, ...]
    axes: tuple[int, ...] = ()
    targets: frozenset[Bar] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if list(self.bars) != sorted(self.bars):
            object.__setattr__(self, "bars", tuple(sorted(self.bars)))
        if list(self.axes) != sorted(self.axes):
            object.__setattr__(self, "axes", tuple(sorted(self.axes)))
        object.__setattr__(self, "targets", key_targets(self.board, self.keyhole))

    @classmethod
    def make(cls, board: Board, keyhole: int, key: Bar, bars: list[Bar] | tuple[Bar, ...],
             axes: list[int] | tuple[int, ...] = ()) -> Position:
        return cls(board, keyhole, key, tuple(sorted(bars)), tuple(sorted(axes)))

    def with_pieces(self, key: Bar, bars: tuple[Bar, ...]) -> Position:
        """The same lock with the movable pieces replaced (bars need not be sorted).

        A copy by the engine's fast helper, without re-running ``__post_init__``: the board,
        keyhole and axes are shared, so the key targets are too, and the bars are sorted here
        (this is the solver's hot path)."""
        return evolve(self, key=key, bars=tuple(sorted(bars)))

    @property
    def state(self) -> tuple[Bar, tuple[Bar, ...]]:
        """The movable part, ``(key, bars)``: what distinguishes positions of one lock."""
        return (self.key, self.bars)

    @property
    def pieces(self) -> tuple[Bar, ...]:
        return (self.key, *self.bars)

    @property
    def solved(self) -> bool:
        return self.key in self.targets

    @property
    def occupied(self) -> int:
        m = 1 << self.keyhole
        for a in self.axes:
            m |= 1 << a
        for b in self.pieces:
            m |= bar_mask(self.board, b)
        return m

    def attached_to(self, axis: int) -> list[Bar]:
        return [b for b in self.pieces if attached(self.board, axis, b)]

    def piece_at(self, cell: int) -> Bar | None:
        """The key or bar covering ``cell``, if any."""
        for b in self.pieces:
            if cell in bar_cells(self.board, b):
                return b
        return None

    def legal(self) -> bool:
        """``not self.problems()``, without naming anything: the same tests on a bitmask, so
        a legal lock (nearly every lock a match or a random playout checks) costs no texts
        . ``problems`` explains a lock this rejects."""
        board = self.board
        size, w, h, free = board.size, board.width, board.height, board.open_mask
        k = self.keyhole
        if not (0 <= k < size and free >> k & 1) or not board.keyhole_sides(k):
            return False  # LM-1, LM-2
        if self.key.length != 2:
            return False  # LM-3
        seen = 1 << k
        for b in self.pieces:
            if b.length < 2 or not 0 <= b.cell < size:
                return False  # LM-4, LM-1
            c0, r0 = b.cell % w, b.cell // w
            if b.horizontal:
                if c0 + b.length > w:
                    return False  # LM-1
            elif r0 + b.length > h:
                return False  # LM-1
            for c in bar_cells(board, b):
                if not free >> c & 1 or seen >> c & 1:
                    return False  # LM-1, overlap (LM-15)
                seen |= 1 << c
        for a in self.axes:
            if not (0 <= a < size and free >> a & 1) or seen >> a & 1:
                return False  # LM-1, overlap (LM-15)
            seen |= 1 << a
        return all(any(attached(board, a, b) for b in self.pieces) for a in self.axes)  # LM-8

    def problems(self) -> list[str]:
        """Every way this position breaks LM-1..LM-8 (overlap included); empty if legal."""
        return [] if self.legal() else self.explain()

    def explain(self) -> list[str]:
        """:meth:`problems` worked out in full, naming every piece (tests hold :meth:`legal`
        to it: empty exactly when ``legal``)."""
        board = self.board
        out: list[str] = []
        seen: dict[int, str] = {}

        def place(cell: int, what: str) -> None:
            if not 0 <= cell < board.size:
                out.append(f"LM-1: {what} lies outside the board")
                return
            if not board.is_open(cell):
                out.append(f"LM-1: {what} is on blocked cell {board.name(cell)}")
            if cell in seen:
                out.append(f"LM-15: {what} overlaps {seen[cell]} on {board.name(cell)}")
            else:
                seen[cell] = what

        place(self.keyhole, "the keyhole")
        if 0 <= self.keyhole < board.size and not board.keyhole_sides(self.keyhole):
            out.append(f"LM-2: the keyhole on {board.name(self.keyhole)} is not on the outermost "
                       "row or column of a side without labels")
        if self.key.length != 2:
            out.append(f"LM-3: the key has 2 cells, not {self.key.length}")
        for i, b in enumerate(self.pieces):
            what = "the key" if i == 0 else "a bar"
            if b.length < 2:
                out.append(f"LM-4: {what} has fewer than 2 cells")
            c0, r0 = board.col(b.cell), board.row(b.cell)
            c1 = c0 + (b.length - 1 if b.horizontal else 0)
            r1 = r0 + (0 if b.horizontal else b.length - 1)
            if not (0 <= b.cell < board.size and board.inside(c1, r1)):
                out.append(f"LM-1: {what} at {board.name(b.cell) if 0 <= b.cell < board.size else b.cell}"
                           " runs off the board")
                continue
            name = board.run_name(bar_cells(board, b))
            for c in bar_cells(board, b):
                place(c, f"{what} {name}" if i else "the key")
        for a in self.axes:
            place(a, f"the axis on {board.name(a) if 0 <= a < board.size else a}")
        for a in self.axes:
            if 0 <= a < board.size and not self.attached_to(a):
                out.append(f"LM-8: the axis on {board.name(a)} has no attached piece")
        return out
