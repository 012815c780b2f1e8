"""The fast package's entry points on the game's own :class:`Position`.

``fast_solve`` (optimal solution or impossibility proof, LM-9), ``hardest`` (Fogleman's
cluster walk: reachable set, distance to the nearest solved position, farthest position).
The generator lives in :mod:`arena.games.lockmaker.fast.generator`.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.games.lockmaker.fast.convert import from_position, path_moves, state_position
from arena.games.lockmaker.fast.search import cluster_walk, solve
from arena.games.lockmaker.fast.tables import Compiled
from arena.games.lockmaker.moves import Move
from arena.games.lockmaker.position import Position


@dataclass(frozen=True)
class FastSolution:
    """Same meaning as the reference solver's result: ``moves`` None means impossible (the
    whole reachable set was explored) unless ``complete`` is False (a state cap was hit)."""

    solvable: bool
    moves: int | None
    solution: tuple[Move, ...]
    states: int
    complete: bool = True


def fast_solve(pos: Position, *, max_states: int | None = None) -> FastSolution:
    c = Compiled(from_position(pos))
    res = solve(c, max_states)
    if res.moves is None:
        capped = max_states is not None and res.states > max_states
        return FastSolution(False, None, (), res.states, complete=not capped)
    return FastSolution(True, res.moves, tuple(path_moves(c, pos, res.path)), res.states)


@dataclass(frozen=True)
class Hardest:
    """``states`` in the start's reachable set; ``moves`` the largest distance to a solved
    position in it (-1 if none is solved); ``lock`` a position at that distance."""

    states: int
    moves: int
    lock: Position


def hardest(pos: Position) -> Hardest:
    c = Compiled(from_position(pos))
    res = cluster_walk(c)
    return Hardest(res.states, res.moves, state_position(c, pos, res.hardest))
