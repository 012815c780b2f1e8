"""The fast solver against the reference BFS (solver.py) on random locks with axes.

Hypothesis draws boards (3..6 per side, some blocked cells) and hands with axes; the game's
own random_lock places them legally (LM-15). Move counts and solvability must agree
(LM-5..LM-9, rotations by LM-7 and the always-attached rule LM-8 included), and the fast
solution must replay through the game's rules.
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.lockmaker.board import Board
from arena.games.lockmaker.construct import random_lock
from arena.games.lockmaker.fast import vector
from arena.games.lockmaker.fast.api import fast_solve, hardest
from arena.games.lockmaker.fast.convert import from_position, state_position
from arena.games.lockmaker.fast.generator import random_placement
from arena.games.lockmaker.fast.pattern import pattern_bound
from arena.games.lockmaker.fast.search import (
    cluster_walk_python,
    cluster_walk_vector,
    solve_python,
    solve_vector,
)
from arena.games.lockmaker.fast.search import reachable as search_reachable
from arena.games.lockmaker.fast.tables import KEY_UNREACHABLE, Compiled
from arena.games.lockmaker.moves import successors
from arena.games.lockmaker.notation import format_solution, replay
from arena.games.lockmaker.position import Position
from arena.games.lockmaker.solver import reachable
from arena.games.lockmaker.solver import solve as ref_solve
from games.lockmaker.fast.strategies import piece


@st.composite
def locks(draw: st.DrawFn) -> Position | None:
    """Four sources: the game's random_lock (mostly impossible: proofs), the generator's
    placements (key in line with the keyhole), random walks of legal moves from those, and
    the farthest position of such a placement's reachable set."""
    w, h = draw(st.integers(3, 6)), draw(st.integers(3, 6))
    blocked = draw(st.frozensets(st.integers(0, w * h - 1), max_size=3))
    hand = draw(st.lists(piece, min_size=1, max_size=6))
    rng = random.Random(draw(st.integers(0, 2**32)))
    source = draw(st.sampled_from(["game", "inline", "walk", "hard"]))
    board = Board(w, h, blocked)
    if source == "game":
        return random_lock(board, hand, rng, tries=30)
    pos = random_placement(board, hand, rng, tries=30)
    if pos is None or source == "inline":
        return pos
    if source == "hard":  # the farthest position of its reachable set
        return hardest(pos).lock
    for _ in range(draw(st.integers(1, 25))):
        options = list(successors(pos))
        if not options:
            break
        pos = rng.choice(options)[1]
    return pos


@settings(deadline=None, max_examples=1500)
@given(locks())
def test_fast_agrees_with_reference_on_random_locks_with_axes(pos: Position | None) -> None:
    if pos is None:
        return
    ref = ref_solve(pos)
    fast = fast_solve(pos)
    assert fast.solvable == ref.solvable
    assert fast.moves == ref.moves
    if fast.solvable:
        played = replay(pos, ", ".join(format_solution(pos.board, fast.solution)))
        assert played.solved and played.moves == fast.moves


@settings(deadline=None, max_examples=150)
@given(locks())
def test_cluster_walk_matches_reference_distances(pos: Position | None) -> None:
    """LM-9: the hardest distance equals the reference's max over its reachable set."""
    if pos is None:
        return
    res = hardest(pos)
    dist = reachable(pos)
    # the reference identifies positions up to identical bars; ours may count both orders
    assert res.states >= len(dist)
    solved = [s for s in dist if Position(pos.board, pos.keyhole, s[0], s[1], pos.axes).solved]
    if not solved:
        assert res.moves == -1
        return
    best = max(ref_solve(Position(pos.board, pos.keyhole, s[0], s[1], pos.axes)).moves or 0
               for s in list(dist)[:40])
    assert res.moves >= best
    assert ref_solve(res.lock).moves == res.moves


@settings(deadline=None, max_examples=200)
@given(locks())
def test_static_tables_never_lose_moves(pos: Position | None) -> None:
    """Every legal move of the reference appears among the fast neighbours (and no more)."""
    if pos is None:
        return
    c = Compiled(from_position(pos))
    mine = {state_position(c, pos, s) for s in c.neighbours(c.start)}
    theirs = {nxt for _m, nxt in successors(pos)}
    assert mine == theirs
    best = ref_solve(pos).moves
    assert solve_python(c, probe=0).moves == best  # bounded (iterative deepening)
    assert solve_python(c, probe=1).moves == best  # relaxed proofs and the pattern bound
    assert solve_python(c, bounded=False).moves == best


@settings(deadline=None, max_examples=300)
@given(locks())
def test_vector_expansion_equals_python_moves_with_axes(pos: Position | None) -> None:
    """The NumPy expansion (free pieces: slides and turns, LM-5..LM-8) yields exactly the
    Python neighbours of every reachable state, and its searches the same answers."""
    if pos is None:
        return
    c = Compiled(from_position(pos))
    if not vector.supported(c):
        return
    levels = search_reachable(c, 3000)
    if levels is None:
        return
    states = sorted(x for lv in levels for x in lv)
    ex = vector.VectorExpander(c)
    got = ex.expand(np.array(states, dtype=np.int64)).tolist()
    want = [nb for s in states for nb in c.neighbours(s)]
    assert sorted(got) == sorted(want)
    best = ref_solve(pos).moves
    assert solve_vector(c).moves == best
    assert solve_vector(c, bounded=True, probe=0).moves == best  # NumPy levels, bounded
    assert cluster_walk_vector(c) == cluster_walk_python(c)


@settings(deadline=None, max_examples=400)
@given(locks())
def test_key_bound_never_overestimates_along_an_optimal_path(pos: Position | None) -> None:
    """Admissibility of the turning key's bound (key distance + goal blockers + the LM-8
    partner move): at every state of an optimal solution it is at most the moves left."""
    if pos is None:
        return
    c = Compiled(from_position(pos))
    kb = c.key_bound()
    if kb is None or not c.goal_indices:
        return
    res = solve_python(c, bounded=False)
    if res.moves is None:
        return
    for i, s in enumerate(res.path):
        assert kb.value(c, s) <= res.moves - i


@settings(deadline=None, max_examples=400)
@given(locks(), st.integers(1, 4))
def test_relaxed_lock_proofs_are_sound(pos: Position | None, limit: int) -> None:
    """A relaxed lock (fewer pieces, LM-8 dropped) that cannot be solved proves the real
    lock impossible: whenever it claims a proof, the reference agrees."""
    if pos is None:
        return
    c = Compiled(from_position(pos))
    if not c.goal_indices or c.is_goal(c.start):
        return
    pb = pattern_bound(c, limit, cap=5_000)
    if pb is not None and pb.value(c.start) >= KEY_UNREACHABLE:
        assert ref_solve(pos).solvable is False


@settings(deadline=None, max_examples=300)
@given(locks(), st.integers(1, 4))
def test_pattern_bound_never_overestimates_along_an_optimal_path(pos: Position | None,
                                                                  limit: int) -> None:
    """The relaxed lock's distances (fewer pieces, LM-8 dropped) are admissible: at every
    state of an optimal solution at most the moves left, and dead only when unsolvable."""
    if pos is None:
        return
    c = Compiled(from_position(pos))
    if not c.goal_indices:
        return
    pb = pattern_bound(c, limit, cap=5_000)
    if pb is None:
        return
    res = solve_python(c, bounded=False)
    if res.moves is None:
        return
    for i, s in enumerate(res.path):
        assert pb.value(s) <= res.moves - i
