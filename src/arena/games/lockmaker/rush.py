"""Standard Rush Hour puzzles as locks (LM-12).

The common 36-character format lists a 6 x 6 grid row by row: ``o`` (or ``.``) empty, ``x`` a
wall, ``A`` the red car, any other letter a vehicle -- ``K`` included, which here is an
ordinary vehicle, unlike the lock file where ``K`` is the key. As a lock, the grid gains a
seventh column G that is blocked except for the keyhole beside the red car's row; the red car
becomes the key, so the lock is solved exactly when the red car reaches the exit (its final
slide counts, LM-9).
"""

from __future__ import annotations

from arena.core.errors import ParseError, RuleError
from arena.games.lockmaker.board import Board
from arena.games.lockmaker.pieces import Bar, bar_cells, bar_from_cells
from arena.games.lockmaker.position import Position

SIZE = 6
WIDTH = 7
VEHICLE_LETTERS = "BCDEFGHIJKLMNOPQRSTUVWXYZ"


def read_rush(text: str) -> Position:
    """A 36-character Rush Hour string -> the lock on a 6 x 7 board (ParseError on bad text)."""
    s = text.strip()
    if len(s) != SIZE * SIZE:
        raise ParseError("LM-12", f"a Rush Hour string has 36 characters, not {len(s)}")
    board_blocked = {r * WIDTH + SIZE for r in range(SIZE)}
    vehicles: dict[str, list[int]] = {}
    for i, ch in enumerate(s):
        r, c = divmod(i, SIZE)
        cell = r * WIDTH + c
        if ch in "o.":
            continue
        if ch in "xX":
            board_blocked.add(cell)
        elif ch.isascii() and ch.isalpha() and ch.isupper():
            vehicles.setdefault(ch, []).append(cell)
        else:
            raise ParseError("LM-12", f"unexpected character {ch!r} (o . x or A-Z)",
                             line=1, column=i + 1)
    if "A" not in vehicles:
        raise ParseError("LM-12", "there is no red car 'A'")
    shape = Board(WIDTH, SIZE, frozenset(board_blocked))
    bars: list[Bar] = []
    key: Bar | None = None
    for letter, cells in vehicles.items():
        try:
            bar = bar_from_cells(shape, cells)
        except RuleError:
            raise ParseError("LM-12", f"vehicle {letter!r} is not one straight piece of 2+ cells",
                             line=1, column=s.index(letter) + 1) from None
        if letter == "A":
            key = bar
        else:
            bars.append(bar)
    assert key is not None
    if not key.horizontal or key.length != 2:
        raise ParseError("LM-12", "the red car 'A' must be a horizontal car of 2 cells",
                         line=1, column=s.index("A") + 1)
    keyhole = shape.row(key.cell) * WIDTH + SIZE
    board = Board(WIDTH, SIZE, frozenset(board_blocked - {keyhole}))
    return Position.make(board, keyhole, key, bars)


def is_rush_shape(pos: Position) -> bool:
    """True if ``pos`` is a lock that :func:`write_rush` can express."""
    b = pos.board
    if (b.width, b.height) != (WIDTH, SIZE) or b.col(pos.keyhole) != SIZE or pos.axes:
        return False
    column_g = {r * WIDTH + SIZE for r in range(SIZE)} - {pos.keyhole}
    return column_g <= b.blocked and pos.key.horizontal


def write_rush(pos: Position) -> str:
    """The 36-character string of a Rush-shaped lock (the key becomes ``A``)."""
    if not is_rush_shape(pos):
        raise RuleError("LM-12", "only a 6 x 7 lock with column G blocked but for the keyhole "
                                 "and no axes is a Rush Hour puzzle")
    if len(pos.bars) > len(VEHICLE_LETTERS):
        raise RuleError("LM-12", "too many vehicles for the Rush Hour letters")
    b = pos.board
    grid = ["x" if not b.is_open(r * WIDTH + c) else "o" for r in range(SIZE) for c in range(SIZE)]
    for cell in bar_cells(b, pos.key):
        grid[b.row(cell) * SIZE + b.col(cell)] = "A"
    for letter, bar in zip(VEHICLE_LETTERS, pos.bars, strict=False):
        for cell in bar_cells(b, bar):
            grid[b.row(cell) * SIZE + b.col(cell)] = letter
    return "".join(grid)
