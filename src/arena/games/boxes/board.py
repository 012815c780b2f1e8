"""The 7 x 7 boards of Box within a Box within a Box (BX-1).

A tile has two traits, a number 0-9 and a colour (black or white). A board is an immutable
tuple of 49 tiles indexed ``row * 7 + column`` with ``A1`` the top-left cell and rows growing
downward (G-1), so ``D4`` (index 24) is the centre where both boxes start.

A host writes a board as text: seven lines of seven tokens, each a digit followed by ``b``
(black) or ``w`` (white), e.g. ``3b 7w 0b 5w 9b 1w 2b``. Lines may also be separated by ``/``
so a whole board fits on one line of a form. The two boards of a match start identical and
then change independently when a card's special figure touches them (BX-9).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from arena.core.errors import ParseError
from arena.games.boxes.words import shown

SIZE = 7
CELLS = SIZE * SIZE
CENTRE = (SIZE // 2) * SIZE + SIZE // 2
"""D4, where both boxes start (BX-1)."""

_TOKEN = re.compile(r"^([0-9])([bw])$")
_CELL = re.compile(r"^([A-Ga-g])([1-7])$")


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile's two traits. ``str()`` is its board-text token (``3b``, ``7w``)."""

    number: int
    black: bool

    @property
    def colour(self) -> str:
        return "black" if self.black else "white"

    def __str__(self) -> str:
        return f"{self.number}{'b' if self.black else 'w'}"

    def to_json(self) -> dict[str, int | str]:
        """The tile as facts for the events and pages: its number and its colour."""
        return {"number": self.number, "colour": self.colour}


Board = tuple[Tile, ...]
"""49 tiles, row-major from A1 (G-1)."""


def cell_name(index: int) -> str:
    """``0`` -> ``A1``, ``24`` -> ``D4``."""
    row, col = divmod(index, SIZE)
    return f"{chr(ord('A') + col)}{row + 1}"


def parse_cell(text: str) -> int:
    """``D4`` -> 24; a clear error for anything that is not a cell of the 7 x 7 board."""
    m = _CELL.match(text.strip())
    if not m:
        raise ParseError("G-1", f"{shown(text)} is not a cell of the board: a column from A "
                                "to G and a row from 1 to 7, such as D4")
    return (int(m.group(2)) - 1) * SIZE + (ord(m.group(1).upper()) - ord("A"))


def parse_board(text: str) -> Board:
    """Read a board written as 7 lines (or ``/``-separated rows) of 7 tokens like ``3b``."""
    rows = [r for r in re.split(r"[\n/]", text) if r.strip()]
    if len(rows) != SIZE:
        raise ParseError("BX-1", f"a board has {SIZE} rows of tiles, this text has {len(rows)}")
    tiles: list[Tile] = []
    for r, row in enumerate(rows, start=1):
        tokens = row.split()
        if len(tokens) != SIZE:
            raise ParseError("BX-1", f"row {r} has {len(tokens)} tiles, expected {SIZE}", line=r)
        for c, token in enumerate(tokens, start=1):
            m = _TOKEN.match(token.lower())
            if not m:
                raise ParseError(
                    "BX-1",
                    f"tile {token!r} is not a number 0-9 followed by b (black) or w (white)",
                    line=r,
                    column=c,
                )
            tiles.append(Tile(int(m.group(1)), m.group(2) == "b"))
    return tuple(tiles)


def board_text(board: Board) -> str:
    """The board as host text; ``parse_board(board_text(b)) == b``."""
    return "\n".join(
        " ".join(str(board[r * SIZE + c]) for c in range(SIZE)) for r in range(SIZE)
    )


def draw_board(rng: random.Random) -> Board:
    """A board drawn from the match seed (BX-1, G-7): each number 0-9 about equally often and
    colours as close to half and half as 49 tiles allow, shuffled."""
    numbers = [i % 10 for i in range(CELLS)]
    blacks = [i % 2 == 0 for i in range(CELLS)]
    rng.shuffle(numbers)
    rng.shuffle(blacks)
    return tuple(Tile(n, b) for n, b in zip(numbers, blacks, strict=True))


def change_tiles(board: Board, cells: frozenset[int], *, add: int = 0, invert: bool = False
                 ) -> Board:
    """The board after a special figure (BX-8): numbers shift by ``add`` modulo 10 and/or
    colours swap on ``cells``. Each cell changes once however often the path crossed it."""
    if not cells or (add % 10 == 0 and not invert):
        return board
    out = list(board)
    for i in cells:
        t = out[i]
        out[i] = Tile((t.number + add) % 10, (not t.black) if invert else t.black)
    return tuple(out)
