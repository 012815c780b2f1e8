"""The bounded NumPy search keeps only admitted states and still answers like the reference.

On the deepest 11 x 11 locks most states of the last levels are over the
pass's budget, and storing and sorting them was most of the time and the peak memory. A
bounded NumPy level now keeps only the states it may expand (depth + bound <= budget) and
solved ones. These tests check that the levels really are that small, that the answers stay
those of the game's naive reference BFS (solvable or not, fewest moves, LM-9), that the
solution path still replays through the game's rules (the walk back through thinner levels),
that the budget schedule steps by one once passes are large, and that the pattern bound's
relaxed distances come out the same when walked by NumPy levels.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.lockmaker.board import Board
from arena.games.lockmaker.fast import search, vector
from arena.games.lockmaker.fast.api import hardest
from arena.games.lockmaker.fast.convert import from_position, path_moves
from arena.games.lockmaker.fast.generator import random_placement
from arena.games.lockmaker.fast.pattern import (
    _distances_python,
    _distances_vector,
    _tabulate,
    attached_order,
    pattern_bound,
    relaxation_order,
    relaxed_lock,
)
from arena.games.lockmaker.fast.search import STEP_AFTER, _next_budget, solve_vector
from arena.games.lockmaker.fast.tables import KEY_UNREACHABLE, Compiled
from arena.games.lockmaker.notation import format_solution, replay
from arena.games.lockmaker.position import Position
from arena.games.lockmaker.solver import solve as ref_solve
from games.lockmaker.fast.strategies import piece


@st.composite
def deep_locks(draw: st.DrawFn) -> Position | None:
    """Small locks with the key in line with the keyhole (the generator's placements), and
    half the time the farthest position of that placement's reachable set: deep answers, so
    the bound prunes a good part of every pass."""
    w, h = draw(st.integers(4, 7)), draw(st.integers(4, 7))
    blocked = draw(st.frozensets(st.integers(0, w * h - 1), max_size=2))
    hand = draw(st.lists(piece, min_size=2, max_size=8))
    rng = random.Random(draw(st.integers(0, 2**32)))
    pos = random_placement(Board(w, h, blocked), hand, rng, tries=30)
    if pos is not None and draw(st.booleans()):
        pos = hardest(pos).lock
    return pos


@contextmanager
def watched_levels(c: Compiled) -> Iterator[list[tuple[int, int, int]]]:
    """Record (depth, budget, states over budget and unsolved) for every NumPy level a
    bounded pass builds; every level is a NumPy one with ``solve_vector(probe=0)``."""
    seen: list[tuple[int, int, int]] = []
    pass_of: dict[str, Any] = {}
    real_pass, real_next = search._pass, vector.next_level

    def spy_pass(cc: Compiled, bnd: Any, budget: int | None, *rest: Any, **kw: Any) -> Any:
        pass_of.update(bnd=bnd, budget=budget, depth=0)
        return real_pass(cc, bnd, budget, *rest, **kw)

    def spy_next(ex: vector.VectorExpander, *rest: Any, **kw: Any) -> vector.I64:
        out = real_next(ex, *rest, **kw)
        pass_of["depth"] += 1
        if pass_of["bnd"] is not None and pass_of["budget"] is not None and len(out):
            h = vector.lower_bounds(ex, pass_of["bnd"], out)
            over = (pass_of["depth"] + h > pass_of["budget"]) & ~vector.goal_mask(c, out)
            seen.append((pass_of["depth"], pass_of["budget"], int(np.count_nonzero(over))))
        return out

    search._pass = spy_pass  # type: ignore[assignment]
    vector.next_level = spy_next  # type: ignore[assignment]
    try:
        yield seen
    finally:
        search._pass = real_pass  # type: ignore[assignment]
        vector.next_level = real_next  # type: ignore[assignment]


@settings(deadline=None, max_examples=250)
@given(deep_locks())
def test_bounded_numpy_levels_hold_only_admitted_states_and_agree_with_reference(
        pos: Position | None) -> None:
    if pos is None:
        return
    c = Compiled(from_position(pos))
    if not vector.supported(c):
        return
    with watched_levels(c) as seen:
        res = solve_vector(c, bounded=True, probe=0)
    # No level of a bounded pass stores a state its budget cannot expand
    assert all(over == 0 for _d, _b, over in seen), seen
    ref = ref_solve(pos)
    assert (res.moves is not None) == ref.solvable
    assert res.moves == ref.moves  # LM-9: the fewest moves, or an impossibility proof
    if res.moves:
        moves = path_moves(c, pos, res.path)
        played = replay(pos, ", ".join(format_solution(pos.board, moves)))
        assert played.solved and played.moves == res.moves


def test_budget_steps_by_one_once_passes_are_large() -> None:
    # passes that stay small: the slack over the first budget doubles (a deep, narrow search
    # needs few passes)
    assert _next_budget(5, 5, 10, None) == 6
    assert _next_budget(5, 7, 10, (6, 5)) == 9
    # a large pass: one more move (doubling overshot a 10-move lock to budget 13)
    assert _next_budget(5, 9, STEP_AFTER + 1, (8, 10_000)) == 10
    # a small pass whose growth per move predicts a costly jump: one more move too (an
    # 11 x 11 lock jumped from budget 6 to 10 for a 9-move answer)
    assert _next_budget(4, 6, 19_364, (5, 3_246)) == 7


@settings(deadline=None, max_examples=150)
@given(deep_locks(), st.integers(1, 4))
def test_relaxed_distances_by_numpy_levels_equal_the_python_walk(pos: Position | None,
                                                                   size: int) -> None:
    """The pattern bound's table walked by NumPy levels (the pure-Python
    walk was most of a second on the deep 11 x 11 locks) holds the same distances."""
    if pos is None:
        return
    c = Compiled(from_position(pos))
    if not c.goal_indices or not vector.supported(c):
        return
    chosen, extra, _frozen = relaxation_order(c)
    rc = relaxed_lock(c, (chosen + extra)[:size])
    assert _distances_vector(rc, 20_000) == _distances_python(rc, 20_000)


@settings(deadline=None, max_examples=150)
@given(deep_locks(), st.integers(1, 4))
def test_dense_pattern_table_equals_the_sorted_lookup(pos: Position | None, limit: int) -> None:
    """The pattern bound's dense table (one gather per state) gives the values of its
    sorted-key binary search on every reachable state, unreachable projections included."""
    if pos is None:
        return
    c = Compiled(from_position(pos))
    if not c.goal_indices or not vector.supported(c):
        return
    pb = pattern_bound(c, limit, cap=5_000)
    if pb is None:
        return
    assert pb.dense is not None  # small relaxations always fit DENSE_BITS
    walked: list[set[int]] = []
    walked = search.reachable(c, 3_000, walked) or walked  # the whole set, or its start
    states = np.array(sorted({s for lv in walked for s in lv} | {c.start}), dtype=np.int64)
    sparse = dataclasses.replace(pb, dense=None)
    assert pb.values_of(states).tolist() == sparse.values_of(states).tolist()
    assert [pb.value(int(s)) for s in states] == pb.values_of(states).tolist()


@settings(deadline=None, max_examples=300)
@given(deep_locks(), st.integers(1, 5))
def test_relaxation_keeping_lm8_never_overestimates(pos: Position | None, limit: int) -> None:
    """The relaxation that keeps every piece able to touch an axis may keep LM-8: its distances
    never exceed the moves left along an optimal solution, and it
    claims a lock unsolvable only when the reference agrees."""
    if pos is None:
        return
    c = Compiled(from_position(pos))
    free = sum(1 for k in c.free_ids if c.pieces[k].original != 0)
    if not c.goal_indices or not free:
        return
    frozen = relaxation_order(c)[2]
    held = _tabulate(c, attached_order(c), free, free + limit, 5_000, frozen, lm8=True)
    if held is None:
        return
    ref = ref_solve(pos)
    if held.value(c.start) >= KEY_UNREACHABLE:
        assert not ref.solvable
        return
    res = solve_vector(c) if vector.supported(c) else None
    if res is None or res.moves is None:
        return
    assert res.moves == ref.moves
    for i, s in enumerate(res.path):
        assert held.value(s) <= res.moves - i
