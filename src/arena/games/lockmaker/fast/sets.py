"""Which reachable sets the generator has already walked.

The generator's climb keeps proposing placements that lie in a set it has walked before (on
fog51's hand about two solvable walks in five repeat an earlier set), and a walk costs tens of
milliseconds. A set is recognised here by a sample of its members: each member gets a key
that does not depend on how a particular placement was compiled (the occupied cells and the
key's cells), one member in :data:`SAMPLE` by that key's hash is remembered, and a new
candidate first walks a few dozen positions around itself; if any of them is remembered, the
candidate is in that set and gets its result without the walk.

Two placements with the same occupied cells and key but bars split differently would share
a key; the generator then reuses the other set's result, which is still a true score of a
real lock, so nothing wrong can be reported: at worst one candidate is skipped.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic, TypeVar

from arena.games.lockmaker.fast.expand import make_expander
from arena.games.lockmaker.fast.tables import Compiled

SAMPLE = 16
"""One member in this many (by key hash) is remembered per set."""
PREFIX = 64
"""Positions walked around a candidate before it is looked up (a set of this size is missed
with odds (15/16)^64, about 2%)."""
LIMIT = 400_000
"""Remembered members before the registry starts afresh (tens of MB)."""

R = TypeVar("R")


def canonical(c: Compiled, s: int) -> int:
    """Occupied cells (both halves of the occupancy) and the key's cells, as one int."""
    key = c.pieces[c.packed_of[0]]
    return c.occupancy(s) | (key.cellmask[(s >> c.key_shift) & c.key_mask] << (2 * c.ncells))


class SetRegistry(Generic[R]):
    """Results of walked sets, found again from any of their members."""

    def __init__(self) -> None:
        self.known: dict[int, R] = {}
        self.hits = 0

    def add(self, c: Compiled, members: Iterable[int], result: R) -> None:
        if len(self.known) > LIMIT:
            self.known.clear()
        for s in members:
            k = canonical(c, s)
            if hash(k) % SAMPLE == 0:
                self.known[k] = result

    def lookup(self, c: Compiled) -> R | None:
        """The result of the set ``c.start`` lies in, if that set was walked before."""
        if not self.known:
            return None
        expand = make_expander(c)
        seen = {c.start}
        cur = {c.start}
        while cur and len(seen) < PREFIX:
            nxt: set[int] = set()
            expand(cur, nxt)
            nxt -= seen
            seen |= nxt
            cur = nxt
        for s in seen:
            k = canonical(c, s)
            if hash(k) % SAMPLE == 0:
                got = self.known.get(k)
                if got is not None:
                    self.hits += 1
                    return got
        return None
