"""Which sets a player is shown (PF-5).

Six showings of three unused sets. The second showing holds none of the first showing's sets
(so it is drawn from the five the player has not seen); every other showing is any three unused
sets. Draws come from the generator the engine derives from the match seed (G-7); sets are
referred to by their 0-based index in the designer's list and drawn from the sorted candidates,
so the same generator always gives the same showing.
"""

from __future__ import annotations

import random

from arena.games.paint.sets import SETS

SHOWINGS = 6
SHOWN = 3


def showing(rng: random.Random, number: int, used: tuple[int, ...],
            first: tuple[int, ...]) -> tuple[int, ...]:
    """The sets of showing ``number`` (1-6), given the sets already used and the first
    showing's sets (empty for showing 1). Returned sorted."""
    candidates = [i for i in range(SETS) if i not in used]
    if number == 2:
        candidates = [i for i in candidates if i not in first]
    if len(candidates) < SHOWN:  # pragma: no cover - 8 sets always leave enough
        raise ValueError("not enough unused sets to show")
    return tuple(sorted(rng.sample(candidates, SHOWN)))
