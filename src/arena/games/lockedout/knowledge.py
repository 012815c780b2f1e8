"""What one seat knows, as input for the deduction helper (and nothing it may not know).

A seat knows its own lights, the combinations announced as safes closed, which safes are open,
and its own numbers on the safes it helped open (a Dual partner's number stays unknown until
the combination is announced, LO-4/LO-5).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from arena.games.lockedout.deduce import Deduction, Known, Observations, Seen, deduce
from arena.games.lockedout.state import LockedOutState


def observations_for(state: LockedOutState, seats: Iterable[int]) -> Observations:
    """The pooled knowledge of ``seats`` (one seat normally; two bots that talk for a Dual)."""
    group = tuple(seats)
    merged: dict[tuple[int, int, frozenset[int]], Seen] = {}
    plain: list[Seen] = []
    for s in group:
        for x in state.seats[s].lights:
            if x.partner is None or x.partner not in group:
                plain.append(Seen(x.safe, x.left, x.right, x.colour))
                continue
            # Both partners of a Dual are pooling: together they know the whole guess.
            key = (x.round, x.safe, frozenset({s, x.partner}))
            old = merged.get(key)
            left = x.left if x.left is not None else (old.left if old else None)
            right = x.right if x.right is not None else (old.right if old else None)
            merged[key] = Seen(x.safe, left, right, x.colour)
    lights = (*plain, *merged.values())
    opened: list[Known] = []
    for safe in range(16):
        if not state.opened[safe]:
            continue
        combo = state.announced[safe]
        if combo is not None:
            opened.append(Known(safe, combo[0], combo[1]))
            continue
        left = right = None
        for s in group:
            for side in state.seats[s].sides:
                if side.safe == safe:
                    left = side.left if side.left is not None else left
                    right = side.right if side.right is not None else right
        opened.append(Known(safe, left, right))
    return Observations(lights, tuple(opened))


@lru_cache(maxsize=4096)
def cached_deduce(obs: Observations) -> Deduction:
    """Deductions repeat (every view, every bot turn): the inputs are frozen, so cache."""
    return deduce(obs)


def deduction_for(state: LockedOutState, seats: Iterable[int]) -> Deduction:
    return cached_deduce(observations_for(state, seats))
