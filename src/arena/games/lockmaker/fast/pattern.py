"""A pattern-database bound: exact distances in a relaxed lock of a few pieces.

Keep the key and the few pieces that matter near its goal (those that can ever stand on a
goal cell, then the nearest that can get in their way), drop every other movable piece and
drop LM-8. Every real move is then a move of the relaxed lock or leaves it unchanged (fewer
obstacles, no attachment rule; pieces that can never move stay walls), so the relaxed
distance to a goal from a position's projection never exceeds the real one: an admissible
bound that, unlike the key's own distance, sees the pieces in the key's way and the pieces in
theirs. Its whole table is one small cluster walk, done once per search; wide searches with
deep answers (random 11 x 11 locks whose key must wait for a chain of bars) use it. And a
relaxed lock that cannot be solved at all proves the real lock impossible, which no search of
a reachable set in the millions could show in time.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from arena.games.lockmaker.fast.expand import make_expander
from arena.games.lockmaker.fast.model import FastLock
from arena.games.lockmaker.fast.tables import KEY_UNREACHABLE, Compiled

PATTERN_PIECES = 8
"""Most pieces besides the key in the relaxed lock."""
DENSE_BITS = 24
"""Relaxed states of at most this many bits get a dense distance table (16 MB at most)."""
FAR = 255
"""The dense table's mark for a relaxed state with no distance (unreachable or unsolvable)."""
PATTERN_CAP = 200_000
"""Largest relaxed reachable set worth tabulating (walked by NumPy levels, a few tenths of a
second at most; 60,000 when it was walked in pure Python)."""


@dataclass(frozen=True)
class PatternBound:
    """``value(s)``: the relaxed distance of ``s``'s projection (KEY_UNREACHABLE if the
    relaxed lock cannot be solved from there, so neither can the real one)."""

    fields: list[tuple[int, int, list[int]]]
    """Per kept piece: its shift and mask in the real state, and per placement its field
    (already shifted) in the relaxed state."""
    dist: dict[int, int]
    pieces: int
    walked: int
    """Relaxed states walked to build the table (every size tried)."""
    keys: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    """The relaxed states with a distance, sorted (the NumPy path's look-up)."""
    values: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    dense: npt.NDArray[np.uint8] | None = None
    """Distance per relaxed state (:data:`FAR` where none), when the relaxed states fit in
    :data:`DENSE_BITS` bits: one gather instead of a binary search per state, which was the
    largest single cost of the deepest 11 x 11 searches."""
    arrays: list[tuple[int, int, npt.NDArray[np.int64]]] = field(default_factory=list)
    """``fields`` with NumPy tables (filled in by :func:`pattern_bound`)."""
    more: tuple[PatternBound, ...] = ()
    """Further relaxations whose distances are admissible too: the value is the largest."""

    def tables(self) -> list[PatternBound]:
        """This table and the further ones, each on its own (``more`` left empty)."""
        return [dataclasses.replace(self, more=()), *self.more]

    def values_of(self, states: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """:meth:`value` for a whole array of real states."""
        out = self._own_values(states)
        for other in self.more:
            np.maximum(out, other.values_of(states), out=out)
        return out

    def _own_values(self, states: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        r = np.zeros(len(states), dtype=np.int64)
        for sh, m, table in self.arrays or [(sh, m, np.array(t, dtype=np.int64))
                                            for sh, m, t in self.fields]:
            r += table[(states >> sh) & m]
        if self.dense is not None:
            got = self.dense[r].astype(np.int64)
            got[got == FAR] = KEY_UNREACHABLE
            return got
        if not len(self.keys):
            return np.full(len(states), KEY_UNREACHABLE, dtype=np.int64)
        at = np.minimum(np.searchsorted(self.keys, r), len(self.keys) - 1)
        out: npt.NDArray[np.int64] = np.where(self.keys[at] == r, self.values[at],
                                              KEY_UNREACHABLE)
        return out

    def project(self, s: int) -> int:
        r = 0
        for sh, m, table in self.fields:
            r += table[(s >> sh) & m]
        return r

    def value(self, s: int) -> int:
        own = self.dist.get(self.project(s), KEY_UNREACHABLE)
        return max(own, *(m.value(s) for m in self.more)) if self.more else own


def relaxation_order(c: Compiled, first: tuple[int, ...] = ()
                     ) -> tuple[list[int], list[int], int]:
    """(pieces that can cover a goal cell, then the others by how directly they get in the
    way, number of pieces that never move): original piece numbers, key excluded.

    "In the way" is a chain: first the pieces standing now on the goal cells, on the cells a
    key that never turns must sweep to get there, or where the pieces chosen so far could
    go; then the pieces standing where those could go; and so on; last the pieces that could
    only later get in the way. A bar that shuts the key's line and can only leave by turning
    into cells held by others is then kept together with those others (on the deepest
    11 x 11 locks the relaxation had missed both, and bounded nothing).
    Pieces in ``first`` (original numbers) come first and join the chosen ones."""
    frozen = {pt.original for pt in c.pieces if len(pt.placements) == 1
              and not c.geo.attached_axes(pt.placements[0])}
    key = c.pieces[c.packed_of[0]]
    goal_cells: set[int] = set()
    for g in c.goal_indices:
        goal_cells.update(key.placements[g])
    reach = {pt.original: {x for p in pt.placements for x in p} for pt in c.pieces
             if pt.original != 0 and pt.original not in frozen}
    chosen = [*first, *(i for i in sorted(reach) if reach[i] & goal_cells and i not in first)]
    region = set(goal_cells).union(*(reach.get(i, set()) for i in chosen))
    if not key.free and len(c.goal_indices) == 1:
        (g,) = c.goal_indices
        ends = (*key.placements[(c.start >> key.shift) & key.mask], *key.placements[g])
        step = 1 if ends[1] - ends[0] == 1 else c.width
        region.update(range(min(ends), max(ends) + 1, step))
    now = {pt.original: set(pt.placements[(c.start >> pt.shift) & pt.mask]) for pt in c.pieces}
    extra: list[int] = []
    left = [i for i in sorted(reach) if i not in chosen]
    while True:
        tier = [i for i in left if now[i] & region]
        if not tier:
            break
        extra += tier
        left = [i for i in left if i not in tier]
        region = region.union(*(reach[i] for i in tier))
    extra += [i for i in left if reach[i] & region]
    return chosen, extra, len(frozen)


def relaxed_lock(c: Compiled, pieces: list[int], lm8: bool = False) -> Compiled:
    """The relaxed lock keeping the key and ``pieces`` (original numbers), LM-8 dropped
    unless ``lm8`` (sound only when ``pieces`` holds every piece that can touch an axis:
    see :func:`attached_order`)."""
    lock = c.lock
    walls = frozenset(set(c.geo.fixed) - {lock.keyhole} - set(lock.axes))
    sub = FastLock(lock.width, lock.height, walls, lock.keyhole, lock.axes,
                   (lock.pieces[0], *(lock.pieces[i] for i in sorted(pieces))), lock.goals)
    return Compiled(sub, lm8=lm8)


def attached_order(c: Compiled) -> list[int]:
    """Every piece but the key that can ever touch an axis, then the others in
    :func:`relaxation_order`'s order. A relaxation that keeps all of the former may keep
    LM-8 too: after any real move each axis has an attached piece, and only those pieces
    (and the key) can be attached, so the move is one of the relaxed lock as well. With the
    rule kept, a bar that must stay on its axis until another takes its place is seen by the
    bound (on an 11 x 11 lock whose LM-8-free relaxations all said 2 moves, it said 3 and cut
    the search from 15 to about 6 s)."""
    free = tuple(sorted(c.pieces[k].original for k in c.free_ids if c.pieces[k].original != 0))
    chosen, extra, _frozen = relaxation_order(c, free)
    return chosen + extra


VECTOR_AFTER = 2_000
"""Relaxed sets larger than this are walked with NumPy levels (a pure-Python walk of the
largest ones cost most of a second on the deep 11 x 11 locks)."""


def _distances(rc: Compiled, cap: int) -> tuple[dict[int, int], int] | None:
    """Distance to the nearest goal of every state reachable in ``rc`` (states that cannot
    reach a goal left out) and the size of that set; None when it exceeds ``cap``. Small
    sets in pure Python, larger ones with NumPy levels (the same distances)."""
    if rc.total_bits <= 63:
        from arena.games.lockmaker.fast.search import reachable

        if reachable(rc, VECTOR_AFTER) is None:
            return _distances_vector(rc, cap)
    return _distances_python(rc, cap)


def _distances_vector(rc: Compiled, cap: int) -> tuple[dict[int, int], int] | None:
    """:func:`_distances` by NumPy levels: the reachable set forward, then the distances
    backward from all its solved states at once (moves are reversible, so each level is the
    neighbours of the last minus the last two)."""
    from arena.games.lockmaker.fast import vector

    ex = vector.VectorExpander(rc)
    levels = vector.reachable_levels(ex, rc.start, cap)
    if levels is None:
        return None
    every = np.concatenate(levels)
    goals = vector.sorted_unique(every[vector.goal_mask(rc, every)])
    keys, values = [goals], [np.zeros(len(goals), dtype=np.int64)]
    for d, level in enumerate(vector.levels_from(ex, goals), 1):
        keys.append(level)
        values.append(np.full(len(level), d, dtype=np.int64))
    return dict(zip(np.concatenate(keys).tolist(), np.concatenate(values).tolist(),
                    strict=True)), len(every)


def _distances_python(rc: Compiled, cap: int) -> tuple[dict[int, int], int] | None:
    expand = make_expander(rc)
    seen = {rc.start}
    cur = {rc.start}
    while cur:
        nxt: set[int] = set()
        expand(cur, nxt)
        nxt -= seen
        seen |= nxt
        if len(seen) > cap:
            return None
        cur = nxt
    goals = {s for s in seen if rc.is_goal(s)}
    dist = dict.fromkeys(goals, 0)
    cur = goals
    d = 0
    while cur:
        d += 1
        nxt = set()
        expand(cur, nxt)
        nxt.difference_update(dist)
        for s in nxt:
            dist[s] = d
        cur = nxt
    return dist, len(seen)


def pattern_bound(c: Compiled, limit: int = PATTERN_PIECES, cap: int = PATTERN_CAP
                  ) -> PatternBound | None:
    """The largest relaxation (up to ``limit`` pieces) whose reachable set fits ``cap``,
    tabulated; None when even the smallest does not fit or nothing would be left out. A
    relaxation from whose start no goal can be reached is returned at once: it proves the
    real lock impossible (its ``value`` of the start is KEY_UNREACHABLE).

    Two relaxations when both fit, their larger value taken: one without LM-8 (the pieces
    nearest the goal, :func:`relaxation_order`) and one with it (every piece that can touch
    an axis first, :func:`attached_order`)."""
    chosen, extra, frozen = relaxation_order(c)
    main = _tabulate(c, chosen + extra, max(1, len(chosen)), limit, cap, frozen, lm8=False)
    if main is not None and main.value(c.start) >= KEY_UNREACHABLE:
        return main
    order = attached_order(c)
    free = sum(1 for k in c.free_ids if c.pieces[k].original != 0)
    held = (_tabulate(c, order, max(1, free), limit, cap, frozen, lm8=True)
            if c.lm8 and free else None)
    if main is None or held is None:
        return main or held
    return dataclasses.replace(main, walked=main.walked + held.walked, more=(held,))


def _tabulate(c: Compiled, order: list[int], smallest: int, limit: int, cap: int,
              frozen: int, *, lm8: bool) -> PatternBound | None:
    """The largest prefix of ``order`` (from ``smallest`` pieces up to ``limit``) whose
    relaxed reachable set fits ``cap``, as a table."""
    best: tuple[Compiled, list[int], dict[int, int]] | None = None
    walked = 0
    for size in range(smallest, min(limit, len(order)) + 1):
        pieces = order[:size]
        if len(pieces) + 1 >= len(c.lock.pieces) - frozen:
            break  # nothing would be left out: no smaller than the search itself
        rc = relaxed_lock(c, pieces, lm8)
        got = _distances(rc, cap)
        if got is None:
            break
        dist, count = got
        walked += count
        best = (rc, pieces, dist)
        if rc.start not in dist:
            break  # unsolvable already: a proof needs nothing larger
    if best is None:
        return None
    rc, pieces, dist = best
    fields = []
    for sub_i, orig in enumerate([0, *sorted(pieces)]):
        pt = c.pieces[c.packed_of[orig]]
        rpt = rc.pieces[rc.packed_of[sub_i]]
        if any(p not in rpt.index for p in pt.placements):
            return None  # cannot happen (same walls, same closures); never guess
        fields.append((pt.shift, pt.mask, [rpt.index[p] << rpt.shift for p in pt.placements]))
    keys = np.array(sorted(dist), dtype=np.int64)
    values = np.array([dist[int(k)] for k in keys], dtype=np.int64)
    dense = None
    if rc.total_bits <= DENSE_BITS and (not len(values) or int(values.max()) < FAR):
        dense = np.full(1 << rc.total_bits, FAR, dtype=np.uint8)
        dense[keys] = values
    arrays = [(sh, m, np.array(t, dtype=np.int64)) for sh, m, t in fields]
    return PatternBound(fields, dist, len(pieces), walked, keys, values, dense, arrays)
