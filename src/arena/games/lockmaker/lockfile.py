"""The lock file (LM-10): one text line per board row, one character per cell.

``.`` open and empty, ``#`` blocked, ``@`` the keyhole, ``K`` the key (its two cells), ``+`` an
axis (each ``+`` its own axis), any other letter a bar (all cells of one letter form one
straight bar of 2+ cells). Lines starting with ``;`` are comments; blank lines are skipped.
A draft board -- the shape the host gives before anything is built -- has only ``.`` and ``#``.

Reading checks the format (and reports the file line and column); whether the lock is *legal*
(keyhole side, attached axes, ...) is :meth:`Position.problems` and :mod:`validate`.
"""

from __future__ import annotations

from arena.core.errors import ParseError, RuleError
from arena.games.lockmaker.board import MAX_SIZE, Board
from arena.games.lockmaker.pieces import Bar, bar_cells, bar_from_cells
from arena.games.lockmaker.position import Position

BAR_LETTERS = "ABCDEFGHIJLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
"""Letters a writer gives bars, in order (``K`` is the key's, LM-10)."""


def _rows(text: str) -> list[tuple[int, str]]:
    rows = []
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith(";"):
            continue
        rows.append((no, line))
    return rows


def read(text: str) -> Board | Position:
    """A draft board (no pieces at all) or a lock; ParseError with line and column."""
    rows = _rows(text)
    if not rows:
        raise ParseError("LM-10", "the lock file has no board rows")
    width = len(rows[0][1])
    if len(rows) > MAX_SIZE or width > MAX_SIZE:
        raise ParseError("LM-1", f"a board is at most {MAX_SIZE} x {MAX_SIZE} cells, "
                                 f"not {width} x {len(rows)}", line=rows[0][0])
    blocked: set[int] = set()
    keyholes: list[int] = []
    axes: list[int] = []
    letters: dict[str, list[int]] = {}
    where: dict[int, tuple[int, int]] = {}
    for r, (no, line) in enumerate(rows):
        if len(line) != width:
            raise ParseError("LM-10", f"row {r + 1} has {len(line)} cells but the first row has "
                                      f"{width}", line=no, column=min(len(line), width) + 1)
        for c, ch in enumerate(line):
            cell = r * width + c
            where[cell] = (no, c + 1)
            if ch == ".":
                continue
            if ch == "#":
                blocked.add(cell)
            elif ch == "@":
                keyholes.append(cell)
            elif ch == "+":
                axes.append(cell)
            elif ch.isascii() and ch.isalpha():
                letters.setdefault(ch, []).append(cell)
            else:
                raise ParseError("LM-10", f"unexpected character {ch!r} (use . # @ K + or a "
                                          "letter)", line=no, column=c + 1)
    board = Board(width, len(rows), frozenset(blocked))
    if not keyholes and not axes and not letters:
        return board
    first = rows[0][0]
    if len(keyholes) != 1:
        at: tuple[int, int | None] = where[keyholes[1]] if len(keyholes) > 1 else (first, None)
        raise ParseError("LM-10", f"a lock has exactly one keyhole '@', found {len(keyholes)}",
                         line=at[0], column=at[1])
    if "K" not in letters:
        raise ParseError("LM-10", "a lock has a key 'K' (two cells)", line=first)
    key: Bar | None = None
    bars: list[Bar] = []
    for letter, cells in letters.items():
        at_line, at_col = where[cells[0]]
        try:
            bar = bar_from_cells(board, cells)
        except RuleError:
            what = "the key" if letter == "K" else f"bar {letter!r}"
            raise ParseError("LM-10", f"the cells of {what} do not form one straight bar of "
                                      "2 or more cells", line=at_line, column=at_col) from None
        if letter == "K":
            if bar.length != 2:
                raise ParseError("LM-3", f"the key has 2 cells, not {bar.length}",
                                 line=at_line, column=at_col)
            key = bar
        else:
            bars.append(bar)
    assert key is not None
    return Position.make(board, keyholes[0], key, bars, axes)


def read_lock(text: str) -> Position:
    """A lock (key and keyhole required)."""
    got = read(text)
    if isinstance(got, Board):
        raise ParseError("LM-10", "this is an empty board: a lock needs a key 'K' and a keyhole '@'")
    return got


def read_board(text: str) -> Board:
    """A board shape; a full lock gives its board."""
    got = read(text)
    return got if isinstance(got, Board) else got.board


def write_board(board: Board) -> str:
    return "\n".join(
        "".join("." if board.is_open(board.cell(c, r)) else "#" for c in range(board.width))
        for r in range(board.height)
    ) + "\n"


def grid_chars(pos: Position) -> list[list[str]]:
    """The lock as a grid of LM-10 characters (bars lettered in order)."""
    board = pos.board
    grid = [["." if board.is_open(board.cell(c, r)) else "#" for c in range(board.width)]
            for r in range(board.height)]

    def put(cell: int, ch: str) -> None:
        grid[board.row(cell)][board.col(cell)] = ch

    put(pos.keyhole, "@")
    for a in pos.axes:
        put(a, "+")
    for cell in bar_cells(board, pos.key):
        put(cell, "K")
    if len(pos.bars) > len(BAR_LETTERS):
        raise RuleError("LM-10", f"a lock file can letter at most {len(BAR_LETTERS)} bars")
    for letter, bar in zip(BAR_LETTERS, pos.bars, strict=False):
        for cell in bar_cells(board, bar):
            put(cell, letter)
    return grid


def write_lock(pos: Position) -> str:
    return "\n".join("".join(row) for row in grid_chars(pos)) + "\n"
