"""The reference solver: breadth-first search over single moves (LM-9), fewest moves first.

Deliberately simple, so that it is certainly right: it is the oracle the fast solver in
``lockmaker.fast`` is checked against. Each move (a slide of any distance or one axis turn)
costs one; the search stops at the first solved position it generates, which is therefore an
optimal solution (the key's final slide into place is counted). When no position it can reach
is solved, it has explored the whole reachable set: that is the proof of impossibility, and
``states`` is then the size of that set.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from arena.games.lockmaker.moves import Move, successors
from arena.games.lockmaker.pieces import Bar
from arena.games.lockmaker.position import Position
from arena.games.lockmaker.validate import construction_error

State = tuple[Bar, tuple[Bar, ...]]


@dataclass(frozen=True)
class SolveResult:
    """``moves`` is None when unsolvable; ``states`` counts distinct positions reached
    (start included). ``complete`` is False only when ``max_states`` cut the search short."""

    solvable: bool
    moves: int | None
    solution: tuple[Move, ...]
    states: int
    complete: bool = True


def solve(pos: Position, *, max_states: int | None = None) -> SolveResult:
    """An optimal solution of a legal lock, or a proof (full exploration) that none exists."""
    problems = pos.problems()
    if problems:
        raise construction_error(problems, "not a legal lock: ")
    if pos.solved:
        return SolveResult(True, 0, (), 1)
    start = pos.state
    parent: dict[State, tuple[State, Move] | None] = {start: None}
    queue: deque[Position] = deque([pos])
    while queue:
        cur = queue.popleft()
        here = cur.state
        for move, nxt in successors(cur):
            s = nxt.state
            if s in parent:
                continue
            parent[s] = (here, move)
            if nxt.solved:
                path: list[Move] = []
                at: State = s
                while (link := parent[at]) is not None:
                    at, m = link
                    path.append(m)
                path.reverse()
                return SolveResult(True, len(path), tuple(path), len(parent))
            if max_states is not None and len(parent) >= max_states:
                return SolveResult(False, None, (), len(parent), complete=False)
            queue.append(nxt)
    return SolveResult(False, None, (), len(parent))


def reachable(pos: Position, *, max_states: int | None = None) -> dict[State, int]:
    """Every position reachable from ``pos`` with its distance in moves (BFS)."""
    dist: dict[State, int] = {pos.state: 0}
    queue: deque[Position] = deque([pos])
    while queue:
        cur = queue.popleft()
        d = dist[cur.state] + 1
        for _, nxt in successors(cur):
            s = nxt.state
            if s not in dist:
                dist[s] = d
                if max_states is not None and len(dist) >= max_states:
                    return dist
                queue.append(nxt)
    return dist
