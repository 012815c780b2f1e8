"""Chains and the score of a grid (PF-6, PF-7).

A component is a maximal same-colour group joined orthogonally. On a grid graph a connected
group has a cycle exactly when it has at least as many adjacencies as cells (a tree on n cells
has n - 1 edges); a 2 x 2 square is the smallest such cycle. A cycle-free component is a chain
whose length is its longest simple path in cells: the diameter of a tree, found by two
breadth-first searches. Looped components contribute nothing to the product (a factor 1, not
0), and a lone container is a chain of length 1 and counts as "non-connected".

The same functions score partial grids (empty cells are simply not part of any component),
which the bots use.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.games.paint.grid import CELLS, EMPTY, SIZE, cell_name


def _neighbours() -> tuple[tuple[int, ...], ...]:
    out: list[tuple[int, ...]] = []
    for i in range(CELLS):
        r, c = divmod(i, SIZE)
        n: list[int] = []
        if r > 0:
            n.append(i - SIZE)
        if c > 0:
            n.append(i - 1)
        if c < SIZE - 1:
            n.append(i + 1)
        if r < SIZE - 1:
            n.append(i + SIZE)
        out.append(tuple(n))
    return tuple(out)


NEIGHBOURS = _neighbours()


@dataclass(frozen=True)
class Component:
    """One same-colour group: its cells (indices, sorted), adjacency count and, for a chain,
    its length (longest simple path in cells); ``looped`` when it holds a cycle."""

    colour: str
    cells: tuple[int, ...]
    edges: int
    length: int

    @property
    def looped(self) -> bool:
        return self.edges >= len(self.cells)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"colour": self.colour,
                                  "cells": [cell_name(i) for i in self.cells]}
        if not self.looped:
            out["length"] = self.length
        return out


@dataclass(frozen=True)
class Score:
    """The PF-7 score of a grid with everything that produced it."""

    score: int
    chains: tuple[Component, ...]
    looped: tuple[Component, ...]
    non_connected: int

    def to_json(self) -> dict[str, object]:
        return {
            "score": self.score,
            "chains": [c.to_json() for c in self.chains],
            "looped": [c.to_json() for c in self.looped],
            "non_connected": self.non_connected,
        }

    @property
    def lengths(self) -> list[int]:
        """The factors of the score, the chains longer than one container, in grid order."""
        return [c.length for c in self.chains if c.length > 1]

    @property
    def formula(self) -> str:
        """``2x4x2x3x4`` as the rule text writes it (chains of length 1 left out), for the
        command-line tools and the SVG; the pages word the score from its facts."""
        if not self.chains and not self.looped:
            return "0"
        return "x".join(str(n) for n in self.lengths) or "1"


def _farthest(start: int, members: set[int]) -> tuple[int, int]:
    """The member farthest from ``start`` (breadth-first, in cells) and its distance + 1."""
    dist = {start: 1}
    frontier = [start]
    last = start
    while frontier:
        nxt: list[int] = []
        for i in frontier:
            for j in NEIGHBOURS[i]:
                if j in members and j not in dist:
                    dist[j] = dist[i] + 1
                    nxt.append(j)
                    last = j
        frontier = nxt
    return last, dist[last]


def longest_path(members: set[int], start: int) -> int:
    """Cells on the longest simple path of a tree (PF-6): two breadth-first sweeps, the
    second from the member farthest from ``start``."""
    far, _ = _farthest(start, members)
    return _farthest(far, members)[1]


def components(grid: str) -> list[Component]:
    """Every same-colour component of ``grid``, in order of its first cell."""
    seen = [False] * CELLS
    out: list[Component] = []
    for i in range(CELLS):
        colour = grid[i]
        if colour == EMPTY or seen[i]:
            continue
        stack = [i]
        seen[i] = True
        cells = [i]
        edges2 = 0
        while stack:
            k = stack.pop()
            for j in NEIGHBOURS[k]:
                if grid[j] == colour:
                    edges2 += 1
                    if not seen[j]:
                        seen[j] = True
                        stack.append(j)
                        cells.append(j)
        edges = edges2 // 2
        length = 0
        if edges < len(cells):
            length = longest_path(set(cells), i)
        out.append(Component(colour, tuple(sorted(cells)), edges, length))
    return out


def score_grid(grid: str) -> Score:
    """PF-6/PF-7 for a full or partial grid. A grid with no container scores 0, as the
    result of a match that ended before any entered says (a product of no chain would read 1
    on the page against the result's 0)."""
    comps = components(grid)
    chains = tuple(c for c in comps if not c.looped)
    looped = tuple(c for c in comps if c.looped)
    product = 1 if comps else 0
    for c in chains:
        product *= c.length
    non_connected = sum(1 for c in chains if len(c.cells) == 1)
    return Score(product, chains, looped, non_connected)


def score_value(grid: str) -> int:
    return score_grid(grid).score
