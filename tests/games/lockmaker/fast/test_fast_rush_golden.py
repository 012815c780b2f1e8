"""Golden figures from published Rush Hour puzzles (LM-12): optimal counts and cluster sizes.

The move counts and reachable-set sizes are the ones listed with the benchmark material
(rush_public.txt), measured independently of this project.
"""

from __future__ import annotations

import pytest

from arena.core.errors import ParseError
from arena.games.lockmaker.fast.api import fast_solve, hardest
from arena.games.lockmaker.fast.convert import from_position
from arena.games.lockmaker.fast.model import from_rush
from arena.games.lockmaker.fast.search import (
    cluster_walk,
    cluster_walk_python,
    cluster_walk_vector,
    solve,
    solve_python,
    solve_vector,
)
from arena.games.lockmaker.fast.tables import Compiled
from arena.games.lockmaker.notation import format_solution, replay
from arena.games.lockmaker.rush import read_rush

PUZZLES = {
    "fog51": ("BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM.", 51, 4780),
    "fogex49": ("BBBCDEFGGCDEF.AADEHHI....JI.KK.JLLMM", 49, 24132),
    "fog15": ("BB.C...D.CEE.DAAFGH.IIFGH.JKK.LLJ...", 15, 541934),
    "fog24": ("B..CDDBEEC.F.G.AAF.GHHIJKKL.IJ..L.MM", 24, 278666),
    "wall60": ("IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM", 60, 2332),
}


@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_lm12_published_optimal_counts_and_replay(name: str) -> None:
    text, moves, _states = PUZZLES[name]
    pos = read_rush(text)
    res = fast_solve(pos)
    assert res.solvable and res.moves == moves
    # the solution replays through the game's own rules and solves in exactly that many moves
    played = replay(pos, ", ".join(format_solution(pos.board, res.solution)))
    assert played.solved and played.moves == moves


@pytest.mark.parametrize("name", ["fog51", "fogex49", "wall60", "fog24"])
def test_cluster_walk_sizes_and_hardest(name: str) -> None:
    text, moves, states = PUZZLES[name]
    res = hardest(read_rush(text))
    assert res.states == states
    assert res.moves == moves  # these published puzzles are their cluster's hardest member
    assert fast_solve(res.lock).moves == moves


def test_fog15_cluster_has_541934_positions() -> None:
    res = cluster_walk(Compiled(from_rush(PUZZLES["fog15"][0])))
    assert res.states == 541934 and res.start_moves == 15


@pytest.mark.parametrize("name", ["fog51", "wall60"])
def test_python_and_vector_paths_agree(name: str) -> None:
    c = Compiled(from_rush(PUZZLES[name][0]))
    a, b = solve_python(c, bounded=False), solve_vector(c)
    assert a.moves == b.moves == solve(c).moves == solve_python(c).moves
    assert a.states == b.states  # the same levels, by two implementations
    ca, cb = cluster_walk_python(c), cluster_walk_vector(c)
    assert (ca.states, ca.moves, ca.start_moves) == (cb.states, cb.moves, cb.start_moves)


def test_own_rush_reader_matches_the_games() -> None:
    for text, _m, _s in PUZZLES.values():
        mine, theirs = from_rush(text), from_position(read_rush(text))
        assert mine.pieces[0] == theirs.pieces[0]  # the red car is the key
        assert sorted(mine.pieces) == sorted(theirs.pieces)
        assert (mine.width, mine.height, mine.blocked, mine.keyhole, mine.goals) == (
            theirs.width, theirs.height, theirs.blocked, theirs.keyhole, theirs.goals)


@pytest.mark.parametrize("bad", ["", "A" * 35, "AA" + "?" * 34, "B" * 36])
def test_lm12_bad_rush_strings_are_parse_errors(bad: str) -> None:
    with pytest.raises(ParseError) as err:
        from_rush(bad)
    assert err.value.rule in ("LM-12", "LM-3")
