"""The fast solver's own view of a lock: plain cells, no behaviour (LM-1..LM-8).

The fast package keeps its input model tiny and independent of the game's richer
``Position`` so that it can be fed from anywhere: a Rush Hour string (LM-12), a lock file
(LM-10, through :mod:`arena.games.lockmaker.fast.convert`) or a generator's candidate
placement. A :class:`FastLock` is just the board rectangle, the cells that never move
(blocked cells, keyhole, axes) and the cells of each movable piece; the key is piece 0.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from arena.core.errors import ParseError

MAX_SIZE = 11
"""LM-1: boards are at most 11 x 11."""


@dataclass(frozen=True)
class FastLock:
    """A lock as cells (``row * width + col``). ``pieces[0]`` is the key (LM-3).

    ``goals`` are the key placements (sorted cell tuples) that solve the lock: the cells
    directly in line with the keyhole, touching it end-on (LM-3). They are given explicitly so
    that the label-edge convention (LM-1, LM-2) stays the caller's business.
    """

    width: int
    height: int
    blocked: frozenset[int]
    keyhole: int
    axes: tuple[int, ...]
    pieces: tuple[tuple[int, ...], ...]
    goals: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        if not (1 <= self.width <= MAX_SIZE and 1 <= self.height <= MAX_SIZE):
            raise ParseError("LM-1", f"a board is at most {MAX_SIZE} x {MAX_SIZE} cells")
        if not self.pieces:
            raise ParseError("LM-3", "a lock needs a key")
        size = self.width * self.height
        seen: set[int] = set(self.blocked) | {self.keyhole} | set(self.axes)
        if len(seen) != len(self.blocked) + 1 + len(self.axes):
            raise ParseError("LM-15", "keyhole, axes and blocked cells overlap")
        for cells in self.pieces:
            if len(cells) < 2 or list(cells) != sorted(cells):
                raise ParseError("LM-4", "a bar is a sorted run of at least 2 cells")
            horizontal = cells[1] - cells[0] == 1
            step = 1 if horizontal else self.width
            row = cells[0] // self.width
            for a, b in itertools.pairwise(cells):
                if b - a != step or (horizontal and b // self.width != row):
                    raise ParseError("LM-4", "a bar's cells form one straight run")
            for c in cells:
                if not 0 <= c < size or c in seen:
                    raise ParseError("LM-15", f"pieces overlap or leave the board at cell {c}")
                seen.add(c)

    @property
    def size(self) -> int:
        return self.width * self.height


def side_goals(width: int, height: int, keyhole: int, sides: list[str]) -> tuple[tuple[int, ...], ...]:
    """LM-3: the key placements touching a keyhole on the given board sides end-on."""
    kc, kr = keyhole % width, keyhole // width
    out: list[tuple[int, ...]] = []
    for side in sides:
        if side == "right" and kc >= 2:
            out.append((keyhole - 2, keyhole - 1))
        elif side == "left" and kc + 2 < width:
            out.append((keyhole + 1, keyhole + 2))
        elif side == "bottom" and kr >= 2:
            out.append((keyhole - 2 * width, keyhole - width))
        elif side == "top" and kr + 2 < height:
            out.append((keyhole + width, keyhole + 2 * width))
    return tuple(sorted(set(out)))


def from_rush(text: str) -> FastLock:
    """LM-12: a 36-character Rush Hour string as a lock on the 6 x 7 board.

    ``o``/``.`` empty, ``x`` wall, ``A`` the red car (becomes the key), other letters
    vehicles (``K`` included: it is an ordinary vehicle in this format). The seventh column is
    blocked except for the keyhole beside the red car's row.
    """
    t = text.strip()
    if len(t) != 36:
        raise ParseError("LM-12", f"a Rush Hour string has 36 characters, not {len(t)}")
    width, height = 7, 6
    blocked: set[int] = set()
    runs: dict[str, list[int]] = {}
    for i, ch in enumerate(t):
        r, c = divmod(i, 6)
        cell = r * width + c
        if ch in ".o":
            continue
        if ch == "x":
            blocked.add(cell)
        elif ch.isalpha():
            runs.setdefault(ch, []).append(cell)
        else:
            raise ParseError("LM-12", f"character {i + 1} ({ch!r}) is not o, x or a letter",
                             column=i + 1)
    if "A" not in runs:
        raise ParseError("LM-12", "no red car A")
    key = tuple(sorted(runs["A"]))
    if len(key) != 2 or key[1] - key[0] != 1:
        raise ParseError("LM-3", "the red car must be a horizontal 2-cell car")
    row = key[0] // width
    keyhole = row * width + 6
    blocked |= {r * width + 6 for r in range(height) if r != row}
    others = tuple(tuple(sorted(runs[k])) for k in sorted(runs) if k != "A")
    goals = side_goals(width, height, keyhole, ["right"])
    return FastLock(width, height, frozenset(blocked), keyhole, (), (key, *others), goals)
