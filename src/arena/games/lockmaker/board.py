"""The Lockmaker board: a rectangle of open and blocked cells with two label edges (LM-1).

Cells are plain ints, ``row * width + col`` (0-based, ``A1`` = 0, rows grow downward as in
G-1), so positions stay cheap to hash and compare. Cell names follow G-1: ``A1`` is the
top-left cell; a horizontal run is its letters then the row (``BC1``), a vertical run the
letter then its rows (``C34``; ``C9-11`` when a row has two digits).

Public API (stable; the fast solver in ``lockmaker.fast`` builds on it):

- ``Board(width, height, blocked=frozenset(), label_edges=DEFAULT_LABEL_EDGES)``
- ``board.cell(col, row)``, ``board.col(cell)``, ``board.row(cell)``, ``board.inside(col, row)``
- ``board.is_open(cell)``, ``board.open_mask`` (bit ``cell`` set for every open cell)
- ``board.name(cell)`` and ``board.parse_cell(text)`` (G-1 names)
- ``board.run_name(cells)`` (``BC1``, ``C34``, ``C9-11``)
- ``board.keyhole_sides(cell)``: the non-label sides a keyhole on ``cell`` would lie on (LM-2)
- ``MAX_SIZE`` = 11
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from arena.core.errors import ParseError, RuleError

MAX_SIZE = 11
"""LM-1: boards are no larger than 11 x 11."""

LETTERS = "ABCDEFGHIJK"
"""Column letters for up to eleven columns (G-1)."""

SIDES = ("top", "right", "bottom", "left")
DEFAULT_LABEL_EDGES: frozenset[str] = frozenset({"top", "left"})
"""LM-1: letters are printed along the top and numbers down the left side by default."""

STEP = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}
"""Direction letters of LM-11 as (dcol, drow); rows grow downward (G-1)."""


def col_letter(col: int) -> str:
    return LETTERS[col]


@dataclass(frozen=True)
class Board:
    """A ``width`` x ``height`` rectangle (each 1..11, LM-1) with some cells blocked.

    ``label_edges`` are the sides where the algebraic labels are printed; they are not cells
    and a keyhole may not sit on them (LM-2).
    """

    width: int
    height: int
    blocked: frozenset[int] = frozenset()
    label_edges: frozenset[str] = DEFAULT_LABEL_EDGES
    open_mask: int = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not (1 <= self.width <= MAX_SIZE and 1 <= self.height <= MAX_SIZE):
            raise RuleError("LM-1", f"a board is at most {MAX_SIZE} x {MAX_SIZE} cells, "
                                    f"not {self.width} x {self.height}")
        size = self.width * self.height
        for cell in self.blocked:
            if not 0 <= cell < size:
                raise RuleError("LM-1", f"blocked cell {cell} lies outside the board")
        unknown = set(self.label_edges) - set(SIDES)
        if unknown:
            raise RuleError("LM-1", f"unknown label edge(s): {', '.join(sorted(unknown))}")
        mask = 0
        for cell in range(size):
            if cell not in self.blocked:
                mask |= 1 << cell
        object.__setattr__(self, "open_mask", mask)

    # ------------------------------------------------------------------ geometry
    @property
    def size(self) -> int:
        return self.width * self.height

    def cell(self, col: int, row: int) -> int:
        return row * self.width + col

    def col(self, cell: int) -> int:
        return cell % self.width

    def row(self, cell: int) -> int:
        return cell // self.width

    def inside(self, col: int, row: int) -> bool:
        return 0 <= col < self.width and 0 <= row < self.height

    def is_open(self, cell: int) -> bool:
        return bool(self.open_mask >> cell & 1)

    def cells(self) -> range:
        return range(self.size)

    def open_cells(self) -> list[int]:
        return [c for c in self.cells() if self.is_open(c)]

    def neighbour(self, cell: int, direction: str) -> int | None:
        """The cell one step in ``direction`` (U/D/L/R), or None off the rectangle."""
        dc, dr = STEP[direction]
        c, r = self.col(cell) + dc, self.row(cell) + dr
        return self.cell(c, r) if self.inside(c, r) else None

    def sides_of(self, cell: int) -> list[str]:
        """The sides of the rectangle whose outermost row/column holds ``cell``."""
        c, r = self.col(cell), self.row(cell)
        out = []
        if r == 0:
            out.append("top")
        if c == self.width - 1:
            out.append("right")
        if r == self.height - 1:
            out.append("bottom")
        if c == 0:
            out.append("left")
        return out

    def keyhole_sides(self, cell: int) -> list[str]:
        """LM-2: the non-label sides on whose outermost line ``cell`` lies (empty: no keyhole)."""
        return [s for s in self.sides_of(cell) if s not in self.label_edges]

    # ------------------------------------------------------------------ names (G-1)
    def name(self, cell: int) -> str:
        return f"{LETTERS[self.col(cell)]}{self.row(cell) + 1}"

    def parse_cell(self, text: str) -> int:
        """``"C4"`` -> its cell; RuleError (G-1) if it is not a cell of this board."""
        t = text.strip().upper()
        if len(t) < 2 or t[0] not in LETTERS or not t[1:].isdigit() or t[1] == "0":
            raise ParseError("G-1", f"{text!r} is not a cell name like C4")
        col, row = LETTERS.index(t[0]), int(t[1:]) - 1
        if not self.inside(col, row):
            raise RuleError("G-1", f"{t} is not on this {self.width} x {self.height} board")
        return self.cell(col, row)

    def run_name(self, cells: Iterable[int]) -> str:
        """G-1 name of a straight run: ``BC1`` (horizontal), ``C34`` or ``C9-11`` (vertical)."""
        cs = sorted(cells)
        if len(cs) == 1:
            return self.name(cs[0])
        rows = {self.row(c) for c in cs}
        if len(rows) == 1:
            return "".join(LETTERS[self.col(c)] for c in cs) + str(self.row(cs[0]) + 1)
        letter = LETTERS[self.col(cs[0])]
        nums = [self.row(c) + 1 for c in cs]
        if nums[-1] >= 10:
            return f"{letter}{nums[0]}-{nums[-1]}"
        return letter + "".join(str(n) for n in nums)
