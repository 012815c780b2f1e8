"""Strong shapes: known hard locks the generator starts from when they fit the board.

Why a library: the hardest set of a hand can be a needle. On fog51's hand (the hardest known
6 x 6 Rush Hour layout, 51 moves) the single-piece neighbours of the 51-move set are sets of
7 to 29 moves, so a climb never walks towards it; the search meets it by luck, once in tens
of CPU seconds on some seeds (``bench/lockmaker_fast.py --sections 4 --library off``). A hard
layout someone already found is a far better start than a random placement, so every restart
may begin from a library shape adapted to the hand (:func:`~arena.games.lockmaker.fast.
generator.from_shape`: the shape's bars the hand has are kept, the rest dropped, the hand's
other pieces placed at random), and the climb goes on from there as from any start. (For
hands without axes the climb over line sets, :mod:`.linesets`, now finds fog51's lock without
the library too; the library still gives hands with axes a strong start.)

The shapes are layouts from Michael Fogleman's published database of Rush Hour puzzles (the
hardest known, with and without walls), in the 36-character Rush Hour format that
:func:`~arena.games.lockmaker.rush.read_rush` reads; each also serves mirrored top to bottom,
which moves its keyhole to the mirrored row. A shape only applies to its own board shape (a
6 x 6 grid with the keyhole column of :mod:`~arena.games.lockmaker.rush`) and its keyhole:
locks of other boards search exactly as before, so the bot's builds on the default rounds
(G-7: a function of the match seed) are unchanged.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence

from arena.games.lockmaker.board import Board
from arena.games.lockmaker.pieces import Bar, PieceKind, kind_of
from arena.games.lockmaker.position import Position
from arena.games.lockmaker.rush import SIZE, WIDTH, read_rush

SHAPES: tuple[tuple[str, str], ...] = (
    ("fog51", "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM."),
    ("fogex49", "BBBCDEFGGCDEF.AADEHHI....JI.KK.JLLMM"),
    ("wall60", "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM"),
)
"""(name, layout): the hardest known 6 x 6 layouts (51 moves; 49; 60 with walls)."""

OVERLAP = 2 / 3
"""Share of a shape's bars the hand must have for the shape to be worth starting from."""


def _mirror(text: str) -> str:
    """The layout upside down (rows in reverse order)."""
    rows = [text[r * SIZE:(r + 1) * SIZE] for r in range(SIZE)]
    return "".join(reversed(rows))


@functools.lru_cache(maxsize=1)
def all_shapes() -> tuple[Position, ...]:
    """Every library shape as a lock, each also mirrored top to bottom."""
    out: list[Position] = []
    for _name, text in SHAPES:
        for layout in (text, _mirror(text)):
            out.append(read_rush(layout))
    return tuple(out)


def shapes_for(board: Board, hand: Sequence[PieceKind], keyhole: int | None) -> list[Position]:
    """The shapes on exactly this board (and keyhole, when one is given) that share at least
    :data:`OVERLAP` of their bars with the hand's bars."""
    have = Counter(k for k in hand if not k.is_axis)
    if (board.width, board.height) != (WIDTH, SIZE):
        return []
    out = []
    for shape in all_shapes():
        if shape.board != board or (keyhole is not None and shape.keyhole != keyhole):
            continue
        need = Counter(kind_of(b) for b in shape.bars)
        shared = sum((need & have).values())
        if shared >= OVERLAP * len(shape.bars):
            out.append(shape)
    return out


def kept_bars(shape: Position, hand: Sequence[PieceKind], order: Sequence[int]
              ) -> tuple[list[Bar], list[PieceKind]]:
    """The shape's bars the hand has (taken in ``order``, an order of the shape's bars) and
    the hand's bar kinds left over, to be placed elsewhere."""
    left = Counter(k for k in hand if not k.is_axis)
    kept = []
    for i in order:
        b = shape.bars[i]
        k = kind_of(b)
        if left[k] > 0:
            left[k] -= 1
            kept.append(b)
    return kept, sorted(left.elements())
