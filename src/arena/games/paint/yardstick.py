"""The yardstick the Paint bot is measured against: a clairvoyant search that proves what it can.

The yardstick knows the 8 sets and what every showing would offer after any picks (PF-5; the
episode's presentation oracle, :func:`arena.games.paint.episode.showing_for`), so it plays the
best a seat could have played had it known the future. It is not a player a seat could be.

Two facts bound every design from above, and the search stops as soon as it meets them:

- **8,748** (3^7 x 2^2) is the highest PF-7 score a full 5 x 5 grid can have: 25 cells split
  into chains, a product of lengths with a fixed sum, is largest with threes (a pair of twos
  for the remainder of one).
- **the colour ceiling**: a chain is one colour (PF-6) and a looped group counts 1 (PF-7), so a
  grid holding n_c containers of colour c scores at most the product over colours of the best
  split of n_c. The yardstick takes the highest such product over every sequence of picks the
  showings allow, the free last colour included (:func:`colour_ceiling`); it is never above
  8,748 and often below it (a design heavy in one colour).

Between them it runs beams over (grid, sets used) of widening widths, each ranked by the
planner's evaluation (:func:`arena.games.paint.planner.grid_value`) under each of
:data:`RANKINGS` in turn, and keeps the best grid any of them reaches, until one meets the
ceiling (then the score is proven best: ``proven``) or the widths run out. A beam is not monotone in its width (a wider one can prune the line a
narrower one kept), hence the portfolio. Last, :meth:`Yardstick.solve` takes the better of its
search and any grids it is handed (the bench hands it the bot's own episode on the same sets
and showings), so it is never below the bot; :class:`Solution` says which one won. A grid
handed in that already meets the ceiling is proven best, and no search runs.

Everything is fixed by counts, never by the clock: the same sets and seed give the same
solution on any machine.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from arena.games.paint.grid import COLOURS, EMPTY, EMPTY_GRID, place
from arena.games.paint.planner import DEFAULT_WEIGHTS, LEGACY_WEIGHTS, Weights, children, grid_value
from arena.games.paint.players import best_last
from arena.games.paint.presentation import SHOWINGS
from arena.games.paint.scoring import score_value

CEILING = 8748
"""The highest score any full grid has (3^7 x 2^2): see the module text."""

WIDTHS = (300, 1200, 3000)
"""The beam widths :class:`Yardstick` tries in turn, stopping at a proven ceiling."""

RANKINGS = (DEFAULT_WEIGHTS, LEGACY_WEIGHTS)
"""The evaluations a beam of each width ranks its lines by, in turn: the bot's own, and the
one it had before. The yardstick must not share the bot's blind spots, and a beam pruned by
a second ranking keeps lines the first one drops."""

Oracle = Callable[[int, frozenset[int], tuple[int, ...]], tuple[int, ...]]
"""What showing ``number`` offers (set indices) given the sets used and the first showing."""


@lru_cache(maxsize=64)
def best_split(n: int) -> int:
    """The largest product of positive integers summing to ``n`` (1 for 0 or 1)."""
    if n <= 4:
        return max(n, 1)
    return 3 * best_split(n - 3)


def colour_bound(counts: Sequence[int]) -> int:
    """The most a grid with these containers per colour can score (see the module text)."""
    out = 1
    for n in counts:
        out *= best_split(n)
    return min(out, CEILING)


def episode_oracle(seed: int) -> Oracle:
    """The showings of :func:`arena.games.paint.episode.play_episode` for ``seed``."""
    from arena.games.paint.episode import showing_for

    def shown(number: int, used: frozenset[int], first: tuple[int, ...]) -> tuple[int, ...]:
        return showing_for(seed, number, tuple(sorted(used)), first)

    return shown


def colour_ceiling(sets: Sequence[str], oracle: Oracle) -> int:
    """The highest :func:`colour_bound` over every pick sequence the showings allow, the free
    last container (PF-5) of any colour."""
    best = 0

    def walk(number: int, used: frozenset[int], first: tuple[int, ...],
             counts: tuple[int, int, int]) -> None:
        nonlocal best
        if best >= CEILING:
            return
        if number > SHOWINGS:
            for k in range(3):
                last = list(counts)
                last[k] += 1
                best = max(best, colour_bound(last))
            return
        shown = oracle(number, used, first)
        for index in shown:
            c = list(counts)
            for colour in sets[index]:
                c[COLOURS.index(colour)] += 1
            walk(number + 1, used | {index}, shown if number == 1 else first,
                 (c[0], c[1], c[2]))

    walk(1, frozenset(), (), (0, 0, 0))
    return best


@dataclass(frozen=True)
class Node:
    """One line of play in a beam: the grid (A1 empty between containers), the sets used,
    the first showing, what is left of the set being played, and the line's root (the
    decision it began with, for a search that judges several)."""

    grid: str
    used: frozenset[int]
    first: tuple[int, ...]
    queue: str
    root: int


@dataclass(frozen=True)
class BeamResult:
    """The best full grid a beam reached, its score, the root it came from, and whether the
    beam pruned anything (if not, the search was exhaustive and the score exact)."""

    grid: str
    score: int
    root: int
    pruned: bool
    by_root: dict[int, int]


def final_score(grid: str) -> tuple[int, str]:
    """The score of a grid with only A1 empty, the free last colour chosen best (PF-5)."""
    if grid[0] == EMPTY and grid.count(EMPTY) == 1:
        full = place(grid, best_last(grid))
        return score_value(full), full
    return score_value(grid), grid


class Values:
    """:func:`grid_value` and :func:`final_score` with bounded memos shared by every beam of
    one search (its beams meet the same grids again and again)."""

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.weights = weights
        self._memo: dict[str, float] = {}
        self._final: dict[str, tuple[int, str]] = {}

    def final(self, grid: str) -> tuple[int, str]:
        got = self._final.get(grid)
        if got is None:
            if len(self._final) > 100_000:
                self._final.clear()
            got = self._final[grid] = final_score(grid)
        return got

    def __call__(self, grid: str) -> float:
        v = self._memo.get(grid)
        if v is None:
            if len(self._memo) > 500_000:
                self._memo.clear()
            v = self._memo[grid] = grid_value(grid, self.weights)
        return v


def beam(sets: Sequence[str], oracle: Oracle, starts: Iterable[Node], number: int,
         width: int, values: Values | None = None) -> BeamResult:
    """A beam of ``width`` lines from ``starts`` to the full grid: each container is placed
    on A1 and every distinct grid an action leaves (PF-3) is kept, the ``width`` best by
    :func:`grid_value` (distinct by grid and sets used); when a set runs out, the next
    showing (``number`` is the showing still to come) branches into its sets. Lines that
    differ only by root keep the first root met in rank order."""
    value = values or Values()
    nodes = list(starts)
    pruned = False
    while True:
        active = [n for n in nodes if n.queue]
        if not active:
            if number > SHOWINGS:
                break
            branched: list[Node] = []
            for n in nodes:
                shown = oracle(number, n.used, n.first)
                first = shown if number == 1 else n.first
                for index in shown:
                    branched.append(Node(n.grid, n.used | {index}, first, sets[index],
                                         n.root))
            nodes = branched
            number += 1
            continue
        out: dict[tuple[str, frozenset[int]], Node] = {}
        for n in nodes:
            if not n.queue:  # pragma: no cover - every line of a beam is at the same turn
                continue
            g = place(n.grid, n.queue[0])
            for c in children(g) or (g,):
                key = (c, n.used)
                if key not in out:
                    out[key] = Node(c, n.used, n.first, n.queue[1:], n.root)
        ranked = sorted(out.values(), key=lambda n: value(n.grid), reverse=True)
        if len(ranked) > width:
            pruned = True
            ranked = ranked[:width]
        nodes = ranked
    best: tuple[int, str, int] = (-1, EMPTY_GRID, -1)
    by_root: dict[int, int] = {}
    for n in nodes:
        s, full = value.final(n.grid)
        if s > by_root.get(n.root, -1):
            by_root[n.root] = s
        if s > best[0]:
            best = (s, full, n.root)
    return BeamResult(best[1], best[0], best[2], pruned, by_root)


@dataclass(frozen=True)
class Solution:
    """What the yardstick found for one design and presentation seed: the best full grid, its
    score, the colour ceiling, whether the score is proven best (it meets the ceiling or the
    search was exhaustive), the widths tried, and ``source``: ``search`` or ``given`` (a grid
    handed in, e.g. the bot's own episode, scored higher than the search)."""

    grid: str
    score: int
    ceiling: int
    proven: bool
    widths: tuple[int, ...]
    source: str


class Yardstick:
    """The clairvoyant yardstick (see the module text): beams of ``widths`` in turn, stopping
    at the colour ceiling."""

    def __init__(self, widths: Sequence[int] = WIDTHS) -> None:
        self.widths = tuple(widths)

    def solve(self, sets: Sequence[str], seed: int, given: Iterable[str] = ()) -> Solution:
        """The best grid for ``sets`` with the showings of presentation ``seed``; ``given``
        are full grids played on the same sets and showings (the bot's), taken if better."""
        oracle = episode_oracle(seed)
        ceiling = colour_ceiling(sets, oracle)
        best, source = (-1, EMPTY_GRID), "search"
        for grid in given:
            s = score_value(grid)
            if s > best[0]:
                best, source = (s, grid), "given"
        values = [Values(w) for w in RANKINGS]
        tried: list[int] = []
        exhaustive = False
        for width, ranking in itertools.product(self.widths, values):
            if best[0] >= ceiling or exhaustive:
                break  # proven best: no grid scores more
            if width not in tried:
                tried.append(width)
            res = beam(sets, oracle, [Node(EMPTY_GRID, frozenset(), (), "", 0)], 1, width,
                       ranking)
            if res.score > best[0]:
                best, source = (res.score, res.grid), "search"
            exhaustive = not res.pruned
        return Solution(best[1], best[0], ceiling, best[0] >= ceiling or exhaustive,
                        tuple(tried), source)

    def play(self, sets: tuple[str, ...], seed: int) -> str:
        """The best grid found (the :class:`arena.games.paint.episode.Clairvoyant` face)."""
        return self.solve(sets, seed).grid
