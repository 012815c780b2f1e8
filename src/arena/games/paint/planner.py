"""The planning player: search over the known containers, sampled futures for the unknown.

What a seat knows (G-9) is its grid, the rest of the set it picked and the sets it has been
shown. At a shove the planner scores each distinct grid an action can leave (PF-3) by
hindsight optimisation: it samples futures (the rest of its set, which it knows, then the next
showing drawn from the sets seen but not used, unseen ones at random) and for each runs a beam
search that also chooses among the sampled showing's sets; an action's value is its mean best
over the samples (an expectimax over the unknown showings, estimated by sampling). With
``samples=0`` it falls back to an exhaustive-with-beam search over the known containers and a
one-ply expectation over the colour of the next unknown one. A pick searches each shown set's
four containers; with ``pick_futures`` it plays each set out and then the sampled showing
after it (the set picked leaves the pool), as a shove does. With ``faithful`` the next showing
is drawn as PF-5 draws it: from every unused set, those not seen yet included (as unknowns),
and the second showing from the unseen sets alone; without it, only from the sets seen and
not used (so unseen sets never came up while three seen ones were left). With
``exact_end``, once every set left is known and two showings or fewer remain, the few
showings still possible are each taken once, followed to the last showing, instead of
sampled; with ``deep_from``, a sampled set is followed by a sampled showing after it while
that many showings or fewer remain (:meth:`Planner._scenarios`). Values come from
:func:`evaluate`.

:func:`evaluate` estimates the final score of a partial grid in log terms (the score is a
product, so log-lengths add up): every chain counts log(length); a lone container with an empty
neighbour may still find a partner and counts nearly what a cell of a three earns, one walled
in counts nothing (PF-6: a non-connected container is a factor 1); a pair that can still grow
counts a little more than log 2, a longer chain nothing more; a loop scores nothing and is
avoided since its cells are lost; a chain that is long counts a little less than its log,
because each cell of it could have served a chain of three (3 is the most a cell earns in a
product of lengths with a fixed sum); and branches off a chain's longest path are cells
wasted. :class:`Weights` gives the figures and why.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from dataclasses import dataclass
from functools import lru_cache

from arena.games.paint.grid import CELLS, COLOURS, EMPTY, Action, next_grids, place
from arena.games.paint.players import Situation, best_last
from arena.games.paint.presentation import SHOWINGS
from arena.games.paint.scoring import NEIGHBOURS, longest_path, score_value
from arena.games.paint.sets import SETS

FULL_SETS = tuple("".join(p) for p in itertools.product(COLOURS, repeat=4)
                  if set(p) == set(COLOURS))
LOG = [0.0] + [math.log(n) for n in range(1, 30)]

Future = tuple[tuple[str, "Future"], ...]
"""One future a search plays into: a showing's sets, each with the showing after it (empty
where the search stops looking)."""


@lru_cache(maxsize=200_000)
def children(grid: str) -> tuple[str, ...]:
    """The distinct grids the legal actions leave (PF-3), cached: searches revisit them."""
    return tuple(g for _, g in next_grids(grid))


@dataclass(frozen=True)
class Weights:
    """What :func:`evaluate` adds for each kind of group. Measured as a share of the final
    log score a cell can still earn: a cell in a chain of three earns log(3)/3 = 0.366, the
    most any cell can (see the module text). So a lone container that can still find a
    partner is worth nearly that (``single_open``); a pair that can still grow into a three
    gains only the little a three earns over a pair and a cell elsewhere (log 3 - log 2 -
    0.366 = 0.039, ``open_pair``, times the chance it grows); a chain of three or more gains
    nothing by growing (``open_long``). The earlier flat bonus for any open chain (0.12) and
    a lone container at 0.2 rewarded many short chains over threes: the hard bot's grids
    stopped at 7,776 (five pairs) where 8,748 (two) was in reach.

    The measured best sits just under an edge: two open lone containers must count less
    than an open pair (``2 * single_open < log 2 + open_pair``, 0.70 against 0.71), or the
    search keeps containers apart rather than pair them (0.4 played to 0.73 of the
    yardstick; 0.30, 0.33 and 0.35 to 0.92, 0.93 and 0.95 of the earlier one)."""

    single_open: float = 0.35
    single_dead: float = 0.0
    open_pair: float = 0.02
    open_long: float = 0.0
    waste: float = 0.05
    loop: float = 0.05
    long_penalty: float = 0.05


LEGACY_WEIGHTS = Weights(single_open=0.2, open_pair=0.12, open_long=0.12)
"""The weights before the ones above, kept for the yardstick: a second ranking of its beams
finds grids the first prunes (a beam is only as good as its ranking)."""


DEFAULT_WEIGHTS = Weights()

_PATHS: dict[int, int] = {}
"""Longest path (PF-6) of a tree-shaped component by its cells as a bit mask: the same shapes
recur across the millions of grids a search ranks, and the two sweeps were half its time."""


def evaluate(grid: str, w: Weights = DEFAULT_WEIGHTS) -> float:
    """An estimate of log(final score) of a partial grid (higher is better)."""
    seen = [False] * CELLS
    total = 0.0
    for i in range(CELLS):
        colour = grid[i]
        if colour == EMPTY or seen[i]:
            continue
        seen[i] = True
        cells = [i]
        stack = [i]
        edges2 = 0
        open_ = False
        while stack:
            k = stack.pop()
            for j in NEIGHBOURS[k]:
                c = grid[j]
                if c == colour:
                    edges2 += 1
                    if not seen[j]:
                        seen[j] = True
                        stack.append(j)
                        cells.append(j)
                elif c == EMPTY:
                    open_ = True
        n = len(cells)
        if edges2 // 2 >= n:
            total -= w.loop * n
            continue
        if n == 1:
            total += w.single_open if open_ else w.single_dead
            continue
        if n <= 3:
            length = n  # a tree of up to three cells is a path
        else:
            mask = 0
            for k in cells:
                mask |= 1 << k
            length = _PATHS.get(mask, 0)
            if not length:
                if len(_PATHS) > 1_000_000:
                    _PATHS.clear()
                length = _PATHS[mask] = longest_path(set(cells), cells[0])
        total += LOG[length] - w.waste * (n - length)
        if length > 4:
            total -= w.long_penalty * (length - 4)
        if open_:
            total += w.open_pair if length == 2 else w.open_long
    return total


def grid_value(grid: str, w: Weights = DEFAULT_WEIGHTS) -> float:
    """:func:`evaluate`, made exact where nothing but the free last container (PF-5) is to
    come: the log of the best final score."""
    empties = grid.count(EMPTY)
    if empties == 0:
        return math.log(score_value(grid))
    if empties == 1 and grid[0] == EMPTY:
        return max(math.log(score_value(place(grid, c))) for c in COLOURS)
    return evaluate(grid, w)


def colour_odds(s: Situation) -> dict[str, float]:
    """How likely each colour is to enter next when the next container is unknown: the colours
    of the sets seen and not used yet, first containers weighted double (a pick starts with
    one), with a floor so no colour is ever ruled out."""
    unused = [x for x in s.seen if x not in s.used] or list(s.seen)
    counts = {c: 0.5 for c in COLOURS}
    for x in unused:
        counts[x[0]] += 2.0
        for c in x[1:]:
            counts[c] += 1.0
    total = sum(counts.values())
    return {c: counts[c] / total for c in COLOURS}


class Planner:
    """The planning player (see the module text). ``samples`` futures with a beam of ``width``
    grids score each action; ``beam`` bounds the grids per depth of the fallback search;
    ``budget`` (seconds) makes it fall back to a narrower search when time is short; None
    keeps the search independent of time (the match bot: a replayed decision is identical)."""

    def __init__(self, beam: int = 6, weights: Weights = DEFAULT_WEIGHTS,
                 lookahead: bool = True, budget: float | None = 1.0, samples: int = 4,
                 width: int = 20, faithful: bool = False, pick_futures: bool = False,
                 exact_end: bool = False, deep_from: int = 0) -> None:
        self.beam = beam
        self.exact_end = exact_end
        self.deep_from = deep_from
        self.faithful = faithful
        self.pick_futures = pick_futures
        self.samples = samples
        self.width = width
        self.w = weights
        self.lookahead = lookahead
        self.budget = budget
        self._deadline = 0.0
        self._cache: dict[str, float] = {}

    def value(self, grid: str) -> float:
        """:func:`evaluate` with a memo (grids recur across branches and decisions)."""
        v = self._cache.get(grid)
        if v is None:
            if len(self._cache) > 400_000:
                self._cache.clear()
            v = self._cache[grid] = grid_value(grid, self.w)
        return v

    # -- search ---------------------------------------------------------------------------
    def _best_after(self, grid: str, queue: str, odds: dict[str, float] | None) -> float:
        """Best value reachable placing ``queue`` one by one from ``grid`` (A1 empty)."""
        if not queue:
            if odds is not None:
                return self._expect(grid, odds)
            return self.value(grid)
        g = place(grid, queue[0])
        kids = children(g)
        if not kids:
            return self.value(g)
        if len(queue) == 1 and odds is None:
            return max(self.value(c) for c in kids)
        beam = self.beam
        if self.budget is not None and time.perf_counter() > self._deadline:
            beam = min(beam, 2)
        if len(kids) > beam:
            kids = tuple(sorted(kids, key=self.value, reverse=True)[:beam])
        return max(self._best_after(c, queue[1:], odds) for c in kids)

    def _expect(self, grid: str, odds: dict[str, float]) -> float:
        """Expectation over the colour of an unknown next container of the best reply."""
        if grid.count(EMPTY) <= 1:
            return self.value(grid)
        value = 0.0
        for colour, p in odds.items():
            g = place(grid, colour)
            value += p * max((self.value(c) for c in children(g)), default=self.value(g))
        return value

    # -- decisions ------------------------------------------------------------------------
    def shove(self, s: Situation) -> Action:
        self._deadline = time.perf_counter() + (self.budget or 0.0)
        options = next_grids(s.grid)
        if len(options) == 1:
            return options[0][0]
        if self.samples and s.grid.count(EMPTY) > 2:
            values = self._hindsight(s, [g for _, g in options])
            return options[values.index(max(values))][0]
        # The expectation over an unknown colour is costly, so it is taken only where few
        # known containers remain before it (the end of a set).
        odds = None
        if self.lookahead and len(s.queue) <= 1 and s.grid.count(EMPTY) > 2:
            odds = colour_odds(s)
        best: tuple[float, Action] | None = None
        for action, g in options:
            v = self._best_after(g, s.queue, odds)
            if best is None or v > best[0]:
                best = (v, action)
        assert best is not None
        return best[1]

    # -- sampled futures (hindsight optimisation) -----------------------------------------
    def _step(self, nodes: list[tuple[int, str]], colour: str, width: int
              ) -> list[tuple[int, str]]:
        """Place ``colour`` in every node, keep the ``width`` best distinct grids."""
        out: dict[str, int] = {}
        for root, grid in nodes:
            if grid[0] != EMPTY or grid.count(EMPTY) <= 1:
                out.setdefault(grid, root)
                continue
            for c in children(place(grid, colour)):
                out.setdefault(c, root)
        ranked = sorted(out.items(), key=lambda kv: self.value(kv[0]), reverse=True)
        return [(root, grid) for grid, root in ranked[:width]]

    def _pool(self, s: Situation, exclude: str = "") -> list[str | None]:
        """The sets the next showing is drawn from, as this seat knows them (PF-5): the sets
        seen and not used (less ``exclude``, a set about to be picked), and one unknown
        (None) per set not seen yet; the second showing holds none of the first's, so it
        is drawn from the unseen sets alone."""
        unseen: list[str | None] = [None] * max(0, SETS - len(s.seen))
        if self.faithful and s.showings_left == SHOWINGS - 1:
            return unseen
        unused = [x for x in s.seen if x not in s.used and x != exclude and x != ""]
        if not self.faithful:
            return list(unused)
        return [*unused, *unseen]

    def _scenarios(self, s: Situation, rng: random.Random, exclude: str,
                   unused: list[str | None] | None = None) -> list[Future]:
        """The futures each root is played into (see :meth:`_futures`), equally likely.

        Once every set left is known and at most two showings remain (``exact_end``), the
        next showing can only be one of a handful of triples (PF-5: any three unused sets),
        so each is taken once instead of sampled, and the last showing after it is what is
        left then; a sampled future would repeat some and miss others. Otherwise ``samples``
        showings are drawn from :meth:`_pool`, and from ``deep_from`` showings left on each
        sampled set is followed by a sampled showing after it, so that a set's worth counts
        what it leaves for the showing after (a pick four sets from the end that spoils the
        last ones loses). ``unused`` is :meth:`_pool`, when the caller has it already."""
        left = s.showings_left
        if left == 0:
            return [()]
        pool0 = self._pool(s, exclude) if unused is None else unused
        if self._known_end(s, pool0):
            known = [x for x in pool0 if x is not None]
            out: list[Future] = []
            for combo in itertools.combinations(range(len(known)), 3):
                out.append(tuple(
                    (known[i], tuple((known[j], ()) for j in range(len(known))
                                     if j != i) if left == 2 else ())
                    for i in combo))
            return out
        deep = bool(self.deep_from) and 2 <= left <= self.deep_from
        futures: list[Future] = []
        for _ in range(self.samples):
            pool = [x if x is not None else rng.choice(FULL_SETS) for x in pool0]
            while len(pool) < 3:
                pool.append(rng.choice(FULL_SETS))
            if not deep:
                futures.append(tuple((x, ()) for x in rng.sample(pool, 3)))
                continue
            tree: list[tuple[str, Future]] = []
            for i in rng.sample(range(len(pool)), 3):
                rest = [x for j, x in enumerate(pool) if j != i]
                while len(rest) < 3:
                    rest.append(rng.choice(FULL_SETS))
                tree.append((pool[i], tuple((y, ()) for y in rng.sample(rest, 3))))
            futures.append(tuple(tree))
        return futures

    def _known_end(self, s: Situation, pool: list[str | None]) -> bool:
        """Whether the futures are taken whole (``exact_end``): every set left known and
        two showings or fewer to come."""
        return (self.exact_end and 0 < s.showings_left <= 2 and None not in pool
                and len(pool) == s.showings_left + 2)

    def _grow(self, nodes: list[tuple[int, str]], future: Future, width: int
              ) -> list[tuple[int, str]]:
        """Every line from ``nodes`` through ``future``: each set of a showing is one branch
        (the pick among them is left to the search), each followed by what comes after it."""
        if not future:
            return nodes
        out: list[tuple[int, str]] = []
        for containers, after in future:
            ns = nodes
            for colour in containers:
                ns = self._step(ns, colour, width)
            out.extend(self._grow(ns, after, width))
        return out

    def _futures(self, s: Situation, roots: list[tuple[str, str]], exclude: str = ""
                 ) -> list[float]:
        """For each root (a grid and the known containers still to place in it), the mean
        over futures (:meth:`_scenarios`) of the best value a beam search reaches: the known
        containers, then the showings of the future, the pick among each showing's sets left
        to the search. Every root meets the same futures (common random numbers), so their
        differences are not sampling noise. Roots with one queue share one beam; with their
        own queues (a pick) each has its own. Fewer futures than ``samples`` (an exact end)
        get a wider beam for the same work."""
        rng = random.Random(s.grid + s.queue + str(len(s.used)) + exclude)
        pool = self._pool(s, exclude)
        futures = self._scenarios(s, rng, exclude, pool)
        shared = len({q for _, q in roots}) == 1
        totals = [0.0] * len(roots)
        width = self.width
        if self._known_end(s, pool) and len(futures) < self.samples:
            width = self.width * self.samples // len(futures)
        for k, future in enumerate(futures):
            if k and self.budget is not None and time.perf_counter() > self._deadline:
                break  # out of time: the futures so far decide
            groups = [list(enumerate(roots))] if shared else [[(i, r)] for i, r in
                                                              enumerate(roots)]
            best: dict[int, float] = {}
            for group in groups:
                nodes = [(i, g) for i, (g, _) in group]
                for colour in group[0][1][1]:
                    nodes = self._step(nodes, colour, width)
                for root, grid in self._grow(nodes, future, width):
                    v = self.value(grid)
                    if v > best.get(root, -1e9):
                        best[root] = v
            floor = min(best.values()) - 0.5
            for i in range(len(roots)):
                totals[i] += best.get(i, floor)
        return totals

    def _hindsight(self, s: Situation, roots: list[str]) -> list[float]:
        """:meth:`_futures` for the grids a shove can leave, the rest of the set to come."""
        return self._futures(s, [(g, s.queue) for g in roots])

    def pick(self, s: Situation) -> int:
        self._deadline = time.perf_counter() + (self.budget or 0.0)
        if self.pick_futures and self.samples:
            # each shown set is played out, then the showing after it (the set picked
            # leaves the pool): a set that spoils the next showing's sets loses
            values = [self._futures(s, [(s.grid, shown)], exclude=shown)[0]
                      for shown in s.shown]
            return values.index(max(values))
        values = [self._best_after(s.grid, shown, None) for shown in s.shown]
        return values.index(max(values))

    def last(self, grid: str) -> str:
        return best_last(grid)


class BeamClairvoyant:
    """A benchmark player that knows every future container: it knows the 8 sets and what
    each showing would offer after any picks (the episode's presentation oracle), and runs a
    beam search over picks and shoves, ranking grids by :func:`evaluate`. It is an estimate
    of the best score a design allows, not a player a seat could be (it sees the future)."""

    def __init__(self, width: int = 100, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.width = width
        self.w = weights

    def play(self, sets: tuple[str, ...], seed: int) -> str:
        from arena.games.paint.episode import showing_for
        from arena.games.paint.grid import EMPTY_GRID
        from arena.games.paint.presentation import SHOWINGS
        # a node: (grid, used sets, first showing)
        nodes: list[tuple[str, tuple[int, ...], tuple[int, ...]]] = [(EMPTY_GRID, (), ())]
        for number in range(1, SHOWINGS + 1):
            expanded = []
            for grid, used, first in nodes:
                shown = showing_for(seed, number, used, first)
                f = shown if number == 1 else first
                for idx in shown:
                    expanded.append((grid, (*used, idx), f))
            nodes = expanded
            for pos in range(4):
                children: dict[tuple[str, tuple[int, ...]], tuple[float, str, tuple[int, ...],
                                                                   tuple[int, ...]]] = {}
                for grid, used, first in nodes:
                    g = place(grid, sets[used[-1]][pos])
                    for _, c in next_grids(g):
                        key = (c, used)
                        if key not in children:
                            children[key] = (grid_value(c, self.w), c, used, first)
                ranked = sorted(children.values(), key=lambda x: x[0], reverse=True)
                nodes = [(c, u, f) for _, c, u, f in ranked[: self.width]]
        best = max(nodes, key=lambda n: score_value(place(n[0], best_last(n[0]))))
        return place(best[0], best_last(best[0]))
