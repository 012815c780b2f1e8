"""Static pruning and the blocker bound never change an answer (LM-4, LM-5, LM-8, LM-9)."""

from __future__ import annotations

from arena.games.lockmaker.fast import vector
from arena.games.lockmaker.fast.api import fast_solve
from arena.games.lockmaker.fast.convert import from_position
from arena.games.lockmaker.fast.expand import make_bounded_expander
from arena.games.lockmaker.fast.pattern import pattern_bound
from arena.games.lockmaker.fast.search import (
    cluster_walk_python,
    cluster_walk_vector,
    solve,
    solve_python,
    solve_vector,
)
from arena.games.lockmaker.fast.tables import KEY_UNREACHABLE, Compiled
from arena.games.lockmaker.lockfile import read_lock
from arena.games.lockmaker.notation import format_solution
from arena.games.lockmaker.solver import solve as ref_solve


def lock(text: str):  # type: ignore[no-untyped-def]
    return read_lock(text)


def test_lm5_bar_on_the_keys_line_between_key_and_keyhole_is_an_instant_proof() -> None:
    pos = lock("......\nKK.AA@\n......\n")
    c = Compiled(from_position(pos))
    assert not c.goal_indices  # pruned statically: AA can never pass the key
    assert fast_solve(pos).solvable is False
    assert ref_solve(pos).solvable is False  # the reference explores everything to agree


def test_lm5_bar_behind_the_key_does_not_prune() -> None:
    pos = lock("......\nAAKK.@\n......\n")
    assert Compiled(from_position(pos)).goal_indices
    assert fast_solve(pos).moves == ref_solve(pos).moves == 1


def test_frozen_pieces_become_walls_but_answers_stay() -> None:
    # B is wedged between walls; once it is a wall, C (beside it) can never move either
    pos = lock("CCB#..\n##B#..\n###...\nKK...@\n")
    c = Compiled(from_position(pos))
    assert all(len(pt.placements) == 1 for pt in c.pieces if pt.original != 0)
    assert fast_solve(pos).moves == ref_solve(pos).moves == 1


def test_lm8_key_alone_on_its_axis_cannot_slide_away() -> None:
    pos = lock(".....\n+KK.@\n.....\n")
    assert fast_solve(pos).solvable is False
    assert ref_solve(pos).solvable is False


def test_lm8_a_second_attached_piece_frees_the_key() -> None:
    # A slides up to touch the axis from below; then the key may leave (LM-6, LM-8)
    pos = lock(".....\n+KK.@\n.....\nA....\nA....\n")
    fast, ref = fast_solve(pos), ref_solve(pos)
    assert fast.moves == ref.moves
    assert fast.solvable


def test_lm7_rotation_needed() -> None:
    # the key stands above the axis; one clockwise quarter turn lays it before the keyhole
    pos = lock(".K...\n.K...\n.+..@\n.....\n")
    fast = fast_solve(pos)
    assert fast.moves == ref_solve(pos).moves == 1
    assert format_solution(pos.board, fast.solution) == ["B3 CW"]


def test_lm8_lone_key_turning_out_of_line_stays_impossible() -> None:
    pos = lock("..K..\n..K..\n..+..\n....@\n")
    assert fast_solve(pos).solvable is ref_solve(pos).solvable is False


def test_blocker_bound_agrees_with_plain_levels() -> None:
    text = ("....A..\n....A..\n.B..A..\n.B.....\nKK.C..@\n...C...\n..DDD..\n")
    pos = lock(text)
    c = Compiled(from_position(pos))
    assert c.blocker_bound() is not None
    a, b = solve_python(c, probe=0), solve_python(c, bounded=False)
    assert a.moves == b.moves == ref_solve(pos).moves
    assert a.states <= b.states


def test_lm7_lm8_vector_path_turns_pieces_like_the_python_path() -> None:
    # two axes, the key and two bars able to turn: A steps up, the key turns into place
    text = "...K...\n...K.A.\n...+.A@\n.BB..+.\n.....C.\n.....C.\n"
    pos = lock(text)
    c = Compiled(from_position(pos))
    assert c.free_specs and vector.supported(c)
    a, b = solve_python(c, bounded=False), solve_vector(c)
    assert (a.moves, a.states) == (b.moves, b.states)
    assert a.moves == ref_solve(pos).moves == 2
    assert cluster_walk_vector(c) == cluster_walk_python(c)
    # the key turns, so the key-distance bound applies (LM-6, LM-7); it keeps the optimum
    bnd = make_bounded_expander(c)
    assert bnd is not None and bnd.key is not None and bnd.blockers is None
    assert solve_python(c, probe=0).moves == solve_vector(c, bounded=True, probe=0).moves == 2


def test_a_search_that_outgrows_its_probe_switches_to_the_bound() -> None:
    text = ("....A..\n....A..\n.B..A..\n.B.....\nKK.C..@\n...C...\n..DDD..\n")
    c = Compiled(from_position(lock(text)))
    plain = solve(c, bounded=False)
    switched = solve(c, probe=10)  # the unbounded probe gives up after 10 states
    assert switched.moves == plain.moves
    assert switched.states != plain.states  # the answer came from the bounded passes


def test_lm8_relaxation_proves_a_lock_impossible_from_a_few_pieces() -> None:
    # A and J share the axis: only a half turn can move them off their column (the wall
    # and the board edge stop quarter turns), so whichever is below the axis keeps covering
    # the goal cell beside the keyhole; the other bars only make the reachable set big
    text = ("CC...A.\n.....A.\nD....A.\nD....A.\n...#.+.\n.....J.\n.....J.\n"
            ".....J.\nKK...J@\n.......\nBB.....\n")
    pos = lock(text)
    c = Compiled(from_position(pos))
    proof = pattern_bound(c)
    ref = ref_solve(pos)
    assert proof is not None and proof.value(c.start) >= KEY_UNREACHABLE
    assert proof.walked < ref.states  # the relaxed walk is much smaller
    assert ref.solvable is False and fast_solve(pos).solvable is False
