"""Designing the 8 sets for the opponent (PF-4): random valid designs and the set-design bot.

The design bot wants the opponent's best score as low as PF-4 allows. Two things hurt a player
most: containers that cannot join a same-colour neighbour (lone containers score a factor 1)
and colours that arrive in an order that forces loops. Sets that alternate colours (``RGBR``)
spread each colour thin; the bot scores a candidate design by how well a quick player does
against it and keeps the design with the lowest mean (:func:`design_for`).
"""

from __future__ import annotations

import itertools
import random

from arena.games.paint.grid import COLOURS
from arena.games.paint.sets import SETS, is_valid, rule_errors

ALL_SETS = tuple("".join(p) for p in itertools.product(COLOURS, repeat=4))
FULL_SETS = tuple(s for s in ALL_SETS if set(s) == set(COLOURS))
OTHER_SETS = tuple(s for s in ALL_SETS if set(s) != set(COLOURS) and max(s.count(c) for c in s) < 4)


def random_design(rng: random.Random) -> tuple[str, ...]:
    """A uniformly drawn valid design (by rejection; most draws with 5+ full sets pass)."""
    for _ in range(10_000):
        full = rng.randint(5, 8)
        sets = rng.sample(FULL_SETS, full) + rng.sample(OTHER_SETS, SETS - full)
        rng.shuffle(sets)
        design = tuple(sets)
        if not rule_errors(design):
            return design
    raise RuntimeError("no valid design found")  # pragma: no cover


DEFAULT_DESIGN: tuple[str, ...] = ("RGBR", "GBRG", "BRGB", "RBGR", "GRBG", "BGRB", "RGRB", "GBGR")
"""A valid design used when a seat must be given one (no submission and no reserve)."""

assert is_valid(DEFAULT_DESIGN)


def design_for(rng: random.Random) -> tuple[str, ...]:
    """The set-design bot's design (placeholder: a random valid design)."""
    return random_design(rng)
