"""Breadth-first search, one whole level at a time, over packed states.

Moves are reversible (LM-5, LM-7, and LM-8 holds on both sides of any legal move), so the
move graph is undirected and a neighbour of level ``d`` lies in level ``d-1``, ``d`` or
``d+1``. A level is therefore ``neighbours(level d) - level d - level d-1``: two C-level set
differences instead of a membership test per neighbour, and no parent map. Paths are
recovered afterwards by walking back one level at a time.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from arena.games.lockmaker.fast.expand import Bounded, make_bounded_expander, make_expander
from arena.games.lockmaker.fast.tables import KEY_UNREACHABLE, Compiled

if TYPE_CHECKING:
    from arena.games.lockmaker.fast import vector

# NumPy (and with it the vector path and the pattern bound) is imported by the functions
# that use it, on first use: a command line that solves one small puzzle should not pay the
# import; see NUMPY_AFTER.


@dataclass(frozen=True)
class SolveResult:
    """Optimal move count (LM-9) or None when the whole reachable set has no solved position."""

    moves: int | None
    states: int
    path: tuple[int, ...]


VECTOR_LEVEL = 300
"""Levels larger than this are expanded with NumPy (smaller ones: per-call overhead loses)."""

NUMPY_AFTER = 5000
"""States :func:`solve` visits in pure Python before it imports NumPy for its wide levels:
a search smaller than this ends sooner than the import does (once NumPy is loaded, by an
earlier search of the process, wide levels use it at once). The answer is the same."""


def _supported(c: Compiled) -> bool:
    """``vector.supported`` without importing NumPy: packed states fit in 63 bits."""
    return c.total_bits <= 63


PROBE = 100_000
"""States an unbounded first pass may generate before a bounded search takes over."""


def solve_vector(c: Compiled, max_states: int | None = None, *, bounded: bool = False,
                 probe: int = PROBE) -> SolveResult:
    """:func:`solve` with every level expanded by NumPy (tests hold it to the Python path)."""
    if not _supported(c):
        raise ValueError("the vector path does not apply to this lock")
    return _search(c, max_states, vector_level=0, bounded=bounded, probe=probe, numpy_after=0)


def solve(c: Compiled, max_states: int | None = None, *, vector_level: int = VECTOR_LEVEL,
          bounded: bool = True, probe: int = PROBE) -> SolveResult:
    """Fewest moves (LM-9): pure-Python levels while they are small, NumPy levels once they
    grow (when the vector path applies), pruned by an admissible bound where one applies;
    the same answer either way."""
    return _search(c, max_states, vector_level=vector_level if _supported(c) else None,
                   bounded=bounded, probe=probe, numpy_after=NUMPY_AFTER)


def solve_python(c: Compiled, max_states: int | None = None, *, bounded: bool = True,
                 probe: int = PROBE) -> SolveResult:
    """Fewest moves from the start to any solved position (LM-3), or an impossibility proof,
    with pure-Python levels only.

    ``max_states`` (if given) stops the search with ``moves=None`` and ``states`` over the cap;
    callers that need a proof must not pass it. ``probe=0`` goes straight to the bounded
    search (tests use it to exercise the bound on small locks).
    """
    return _search(c, max_states, vector_level=None, bounded=bounded, probe=probe)


def _search(c: Compiled, max_states: int | None, *, vector_level: int | None, bounded: bool,
            probe: int = PROBE, numpy_after: int = 0) -> SolveResult:
    """Breadth-first levels, optionally bounded by iterative deepening.

    With a bound (see :mod:`~arena.games.lockmaker.fast.expand`), budget B expands a state at
    depth d only when d + bound <= B. The bound is admissible, so any budget at least the
    optimum reaches a solved position at exactly the optimal depth (every state of an optimal
    path passes the test), and a budget that prunes nothing and finds nothing is a proof of
    impossibility. The level trick stays valid: a state kept at depth d would have been kept
    at any smaller depth, so pruning never delays a state's discovery past its restricted
    distance. Budgets grow geometrically, so a deep, narrow search costs a small multiple of
    one pass."""
    start = c.start
    if c.is_goal(start):
        return SolveResult(0, 1, (start,))
    if not c.goal_indices:
        return SolveResult(None, 1, ())  # the key can never reach a target placement
    bnd = make_bounded_expander(c) if bounded else None
    if bnd is not None and bnd.first >= KEY_UNREACHABLE:
        return SolveResult(None, 1, ())  # the key cannot reach a goal even alone (LM-8)
    total = 0
    if bnd is not None and probe > 0:
        # Small searches finish faster without the deepening passes (the published puzzles
        # all do); only a search that grows wide pays for the bound.
        cap = probe if max_states is None else min(probe, max_states)
        found, _pruned, total, _work = _pass(c, None, None, 0, cap, vector_level,
                                             numpy_after)
        if found is not None:
            return found
        if total <= cap:
            return SolveResult(None, total, ())
        # a wide search: the relaxed lock's exact distances join the bound, and a relaxed
        # lock that cannot be solved proves the real one impossible
        from arena.games.lockmaker.fast.pattern import pattern_bound

        pattern = pattern_bound(c)
        if pattern is not None:
            if pattern.value(c.start) >= KEY_UNREACHABLE:
                return SolveResult(None, total + pattern.walked, ())
            bnd = make_bounded_expander(c, pattern)
            assert bnd is not None
    budget = first = bnd.first if bnd is not None else None
    last: tuple[int, int] | None = None  # (budget, states expanded) of the pass before
    while True:
        found, pruned, total, work = _pass(c, bnd, budget, total, max_states, vector_level,
                                           numpy_after)
        if found is not None or not pruned or budget is None or first is None:
            return found if found is not None else SolveResult(None, total, ())
        if max_states is not None and total > max_states:
            return SolveResult(None, total, ())
        nxt = _next_budget(first, budget, work, last)
        last, budget = (budget, work), nxt


STEP_AFTER = 20_000
"""Expanded states a pass may be predicted to cost for the budget to jump ahead (a doubled
slack) rather than grow by one. A pass costs some multiple of the one before per move of
budget; stepping by one where that matters means the passes together cost little more than
the last, and the last overshoots the optimum by nothing. Doubling regardless overshot by up
to half the depth, and with it searched millions of states that the right budget prunes
(a 10-move 11 x 11 lock searched under budget 13, 15 million states)."""


def _next_budget(first: int, budget: int, expanded: int, last: tuple[int, int] | None
                 ) -> int:
    """The budget of the next pass (any schedule is exact: see :func:`_search`). A deep,
    narrow search jumps ahead (few passes); once a jump is predicted to be costly, from the
    growth per move between the last two passes (``last``: the budget and states expanded
    of the pass before), the budget grows by one."""
    jump = first + max(1, 2 * (budget - first))
    if jump == budget + 1:
        return jump
    if last is None or last[1] <= 0 or budget <= last[0]:
        growth = float(expanded) if expanded > 0 else 1.0  # unknown: assume it is large
    else:
        growth = max(1.0, expanded / last[1]) ** (1 / (budget - last[0]))
    if expanded * growth ** (jump - budget) > STEP_AFTER:
        return budget + 1
    return jump


def _pass(c: Compiled, bnd: Bounded | None, budget: int | None, total: int,
          max_states: int | None, vector_level: int | None, numpy_after: int = 0
          ) -> tuple[SolveResult | None, bool, int, int]:
    """One breadth-first pass (under ``budget`` when bounded): (the solution if found,
    whether any state was pruned, the running state count, the states it expanded). Wide
    levels go to NumPy once ``numpy_after`` states were visited.

    A bounded NumPy level keeps only the states the budget lets it expand (and solved ones):
    see :func:`_admit`. From the first such level on, every level of the pass is a NumPy
    one, so that each level either holds everything it found (pure Python) or exactly the
    states at that distance the budget admits (NumPy), never a mix."""
    expand = make_expander(c)
    ex: vector.VectorExpander | None = None
    ksh, km, goals = c.key_shift, c.key_mask, c.goal_indices
    levels: list[set[int] | vector.I64] = [{c.start}]
    total += 1
    pruned = False
    admitted = False  # the last level holds admitted states only
    work = 0
    while True:
        d = len(levels) - 1
        cur, prev = levels[-1], levels[-2] if len(levels) > 1 else set()
        # Only the state count decides (G-7): whether NumPy happens to be loaded must not,
        # since the two paths may reach the goal through different, equally short solutions.
        if vector_level is not None and (admitted or (len(cur) > vector_level
                                                      and total > numpy_after)):
            import numpy as np

            from arena.games.lockmaker.fast import vector

            if ex is None:
                ex = vector.VectorExpander(c)
                goal_arr = np.array(sorted(goals), dtype=np.int64)
            cur_a = _as_array(cur)
            frontier = None
            admit = None
            if bnd is not None and budget is not None:
                if not admitted:
                    h = vector.lower_bounds(ex, bnd, cur_a)
                    keep = d + h <= budget
                    if not keep.all():
                        pruned = pruned or bool((~keep & (h < vector.DEAD)).any())
                        frontier = cur_a[keep]
                admit = _Admit(ex, bnd, d + 1, budget, goal_arr)
                admitted = True
            work += len(cur_a) if frontier is None else len(frontier)
            arr = vector.next_level(ex, cur_a, _as_array(prev), frontier,
                                    None if admit is None else admit.filter)
            levels.append(arr)
            total += len(arr)
            if admit is not None:
                pruned = pruned or admit.pruned
            hit = np.isin((arr >> ksh) & km, goal_arr)
            found = int(arr[hit][0]) if hit.any() else None
            empty = len(arr) == 0
        else:
            nxt: set[int] = set()
            cur_s = cur if isinstance(cur, set) else set(cur.tolist())
            work += len(cur_s)
            if bnd is not None and budget is not None:
                if bnd.expand(cur_s, nxt, bnd.limit(budget, d), budget - d):
                    pruned = True
            else:
                expand(cur_s, nxt)
            nxt -= cur_s
            nxt -= _as_set(prev)
            total += len(nxt)
            levels.append(nxt)
            found = next((x for x in nxt if (x >> ksh) & km in goals), None)
            empty = not nxt
        if found is not None:
            return (SolveResult(len(levels) - 1, total, _path_back(c, levels, found)), pruned,
                    total, work)
        if empty or (max_states is not None and total > max_states):
            return None, pruned, total, work


class _Admit:
    """Which neighbours a bounded pass keeps for level ``depth``: those it may expand
    (``depth + bound <= budget``) and the solved ones. The others are dropped as soon as
    they are generated, chunk by chunk, before any sort (on the deepest 11 x 11 locks they
    are most of the last levels, and storing and sorting them was most of the time and the
    peak memory). Only kept states are stored, and counted as visited.

    Exact: a dropped state is over budget at this depth, so it is over budget at any larger
    depth too; if a later level meets it again it is dropped again, never expanded. A kept
    state therefore still lies at its true distance under the budget (every state closer
    than that and within budget was kept at its own level, so the two-level difference still
    removes it), so the level trick, the optimal depth and the walk back are unchanged.
    ``pruned`` (whether a larger budget could find more) counts only dropped states that are
    new, not ones of the current or previous level met again."""

    def __init__(self, ex: vector.VectorExpander, bnd: Bounded, depth: int, budget: int,
                 goal_arr: vector.I64) -> None:
        self.ex, self.bnd, self.depth, self.budget = ex, bnd, depth, budget
        self.goal_arr = goal_arr
        self.pruned = False

    def filter(self, cand: vector.I64, cur: vector.I64, prev: vector.I64) -> vector.I64:
        import numpy as np

        from arena.games.lockmaker.fast import vector

        if not len(cand):
            return cand
        h = vector.lower_bounds(self.ex, self.bnd, cand)
        keep = self.depth + h <= self.budget
        if keep.all():
            return cand
        c = self.ex.c
        keep |= np.isin((cand >> c.key_shift) & c.key_mask, self.goal_arr)
        if not self.pruned:
            lost = cand[~keep & (h < vector.DEAD)]
            if len(lost):
                lost = vector.minus(vector.minus(vector.sorted_unique(lost, own=True), cur),
                                    prev)
                self.pruned = len(lost) > 0
        out: vector.I64 = cand[keep]
        return out


def _as_array(lv: set[int] | vector.I64) -> vector.I64:
    import numpy as np

    if isinstance(lv, set):
        return np.array(sorted(lv), dtype=np.int64)
    return lv


def _as_set(lv: set[int] | vector.I64) -> set[int]:
    return lv if isinstance(lv, set) else set(lv.tolist())


def _path_back(c: Compiled, levels: list[set[int] | vector.I64], goal: int
               ) -> tuple[int, ...]:
    """Walk back one level at a time (NumPy levels are sorted: a binary search each)."""
    path = [goal]
    s = goal
    for k in range(len(levels) - 2, -1, -1):
        lvl = levels[k]
        s = next(nb for nb in c.neighbours(s) if _member(lvl, nb))
        path.append(s)
    path.reverse()
    return tuple(path)


def _member(lvl: set[int] | vector.I64, x: int) -> bool:
    if isinstance(lvl, set):
        return x in lvl
    import numpy as np

    i = int(np.searchsorted(lvl, x))
    return i < len(lvl) and int(lvl[i]) == x


@dataclass(frozen=True)
class ClusterResult:
    """The reachable set of a position and each member's distance to the nearest solved one."""

    states: int
    moves: int
    """Largest distance to a solved position over the set (-1 if none is solved)."""
    start_moves: int
    """The start's own distance (-1 if unsolvable)."""
    hardest: int
    """A farthest state (packed); the start when nothing is solvable."""
    sample: tuple[int, ...] = ()
    """Members of the set spread evenly over it (only when asked for: the generator
    mutates them, since the whole set's neighbourhood is far larger than one member's)."""
    members: tuple[int, ...] = ()
    """Every member (only when asked for, on the pure-Python path: the generator remembers
    walked sets by them); for a set over the cap, the members walked before giving up."""


def reachable(c: Compiled, cap: int | None = None, seen: list[set[int]] | None = None
              ) -> list[set[int]] | None:
    """The whole reachable set of the start, as BFS levels (None once over ``cap``; the
    levels walked until then are appended to ``seen`` if given)."""
    expand = make_expander(c)
    levels = [{c.start}]
    prev: set[int] = set()
    cur = levels[0]
    total = 1
    while cur:
        nxt: set[int] = set()
        expand(cur, nxt)
        nxt -= cur
        nxt -= prev
        if nxt:
            levels.append(nxt)
            total += len(nxt)
            if cap is not None and total > cap:
                if seen is not None:
                    seen.extend(levels)
                return None
        prev, cur = cur, nxt
    return levels


PYTHON_CAP = 10_000
"""Below this many reachable states the pure-Python walk beats NumPy's per-call overhead."""


TOO_BIG = ClusterResult(-1, -2, -1, 0)
"""What a capped cluster walk returns when the reachable set exceeds its cap."""


def cluster_walk(c: Compiled, buildable: bool = False, cap: int | None = None,
                 sample: int = 0, members: bool = False) -> ClusterResult:
    """The cluster walk: pure Python for small sets, NumPy levels for large ones when the
    vector path applies (same answers either way).

    With ``buildable`` the hardest position is taken among those whose bars all have their
    original orientation, i.e. that a maker could build from the same hand (LM-4, LM-15);
    only axis turns change orientation, and the vector path has none. With ``cap`` a set
    larger than that is abandoned and :data:`TOO_BIG` returned (the generator's budget)."""
    if (buildable and c.free_specs) or not _supported(c):
        partial: list[set[int]] = []
        levels = reachable(c, cap, partial if members else None)
        if levels is None:  # with ``members``: the part walked before giving up
            return dataclasses.replace(TOO_BIG, members=tuple(x for lv in partial for x in lv))
        return _sampled(c, levels, _reverse_python(c, levels, buildable=buildable), sample,
                        buildable, members)
    partial = []
    levels = reachable(c, PYTHON_CAP if cap is None else min(cap, PYTHON_CAP),
                       partial if members else None)
    if levels is None:
        if cap is not None and cap <= PYTHON_CAP:
            return dataclasses.replace(TOO_BIG, members=tuple(x for lv in partial for x in lv))
        return cluster_walk_vector(c, cap)
    return _sampled(c, levels, _reverse_python(c, levels), sample, buildable, members)


def _sampled(c: Compiled, levels: list[set[int]], res: ClusterResult, k: int,
             buildable: bool, everything: bool = False) -> ClusterResult:
    """``res`` with ``k`` members spread evenly over the sorted set (deterministic), and
    with every member when ``everything``."""
    if everything:
        res = dataclasses.replace(res, members=tuple(x for lv in levels for x in lv))
    if k <= 0:
        return res
    members = sorted(x for lv in levels for x in lv)
    if buildable and c.free_specs:
        members = [x for x in members if c.as_drafted(x)]
    if not members:
        return res
    picks = sorted({members[i * len(members) // k] for i in range(k)})
    return dataclasses.replace(res, sample=tuple(picks))


def cluster_walk_vector(c: Compiled, cap: int | None = None) -> ClusterResult:
    """Forward level walk for the reachable set (sorted int64 arrays), then the reverse walk
    from every solved member; nothing but the levels is kept (no adjacency)."""
    import numpy as np

    from arena.games.lockmaker.fast import vector

    ex = vector.VectorExpander(c)
    levels = vector.reachable_levels(ex, c.start, cap)
    if levels is None:
        return TOO_BIG
    everything = np.concatenate(levels)
    total = len(everything)
    del levels
    cur = vector.sorted_unique(everything[vector.goal_mask(c, everything)])
    del everything
    if not len(cur):
        return ClusterResult(total, -1, -1, c.start)
    start = c.start
    start_moves = 0 if c.is_goal(start) else -1
    d = 0
    for d, level in enumerate(vector.levels_from(ex, cur), 1):
        if start_moves < 0:
            i = int(np.searchsorted(level, start))
            if i < len(level) and int(level[i]) == start:
                start_moves = d
        cur = level
    return ClusterResult(total, d, start_moves, int(cur[0]))


def cluster_walk_python(c: Compiled) -> ClusterResult:
    """Fogleman's walk in pure Python: forward BFS for the reachable set, then a reverse BFS
    from all its solved positions at once; the last level holds the hardest positions."""
    levels = reachable(c)
    assert levels is not None
    return _reverse_python(c, levels)


def _reverse_python(c: Compiled, levels: list[set[int]], buildable: bool = False
                    ) -> ClusterResult:
    expand = make_expander(c)
    ksh, km, goals = c.key_shift, c.key_mask, c.goal_indices
    total = sum(len(lv) for lv in levels)
    cur = {x for lv in levels for x in lv if (x >> ksh) & km in goals}
    if not cur:
        return ClusterResult(total, -1, -1, c.start)
    start = c.start
    start_moves = 0 if start in cur else -1
    first = [x for x in cur if c.as_drafted(x)] if buildable else [start]
    best = (0, min(first)) if first else (-1, start)
    prev: set[int] = set()
    d = 0
    while True:
        nxt: set[int] = set()
        expand(cur, nxt)
        nxt -= cur
        nxt -= prev
        if not nxt:
            break
        d += 1
        if start_moves < 0 and start in nxt:
            start_moves = d
        if buildable:
            ok = [x for x in nxt if c.as_drafted(x)]
            if ok:
                best = (d, min(ok))
        prev, cur = cur, nxt
    if buildable:
        return ClusterResult(total, best[0], start_moves, best[1])
    return ClusterResult(total, d, start_moves, min(cur))
