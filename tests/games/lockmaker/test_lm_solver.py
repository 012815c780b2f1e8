"""The reference solver: optimal by LM-9, proofs of impossibility, published puzzles."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.lockmaker.board import STEP
from arena.games.lockmaker.construct import sample_lock as small_random_lock
from arena.games.lockmaker.lockfile import read_lock as lock
from arena.games.lockmaker.moves import TURNS, Move, Rotate, Slide, apply_move
from arena.games.lockmaker.notation import format_solution, replay
from arena.games.lockmaker.position import Position
from arena.games.lockmaker.rush import read_rush
from arena.games.lockmaker.solver import reachable, solve

PUBLIC = Path("/work/shared/bench/rush_public.txt")
PUZZLES = [
    ("fog51", "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM.", 51),
    ("wall60", "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM", 60),
]


@pytest.mark.parametrize(("name", "rush", "moves"), PUZZLES)
def test_lm12_published_rush_hour_optima(name: str, rush: str, moves: int) -> None:
    pos = read_rush(rush)
    res = solve(pos)
    assert res.solvable and res.moves == moves, name
    check = replay(pos, ", ".join(format_solution(pos.board, res.solution)))
    assert check.solved and check.moves == moves


def test_public_bench_file_if_present() -> None:
    if not PUBLIC.exists():  # the shared file is outside the repository
        pytest.fail(f"{PUBLIC} is missing")
    for line in PUBLIC.read_text().splitlines():
        name, rush, n = line.split()
        if int(n) <= 30:  # the long ones are covered above; keep the suite quick
            assert solve(read_rush(rush)).moves == int(n), name


def test_seed_example_three_moves() -> None:
    # The seed's example: BC1 one left, C34 two down, the key one right: three moves.
    # Its image is not in the text; this lock is built to match those moves, with a bar on
    # C2 so that C34 cannot go up instead.
    p = lock(".bb.\n.cc.\n..a.\nKKa@\n....\n....\n")
    r = replay(p, "BC1 L1, C34 D2, K R1")
    assert r.solved and r.moves == 3
    res = solve(p)
    assert res.solvable and res.moves == 2  # BC1 L1 was never needed in this rendering
    assert format_solution(p.board, res.solution) == ["C34 D2", "K R1"]


def test_already_solved_is_zero_moves() -> None:
    res = solve(lock("KK@\n"))
    assert res.solvable and res.moves == 0 and res.solution == ()


def test_impossible_is_proved_by_exhausting_the_reachable_set() -> None:
    p = lock("......\naa+...\n..K.#.\n..K..@\n".replace("......\n", "..bb..\n", 1))
    res = solve(p)
    assert not res.solvable and res.complete and res.moves is None
    assert res.states == len(reachable(p))
    stuck = lock("K.\nK.\n.@\n")  # a vertical key can never lie left of a right-edge keyhole
    r2 = solve(stuck)
    assert not r2.solvable and r2.states == 2


def test_rotation_solution() -> None:
    # The key hangs below axis B2; turning it CCW lays it along row 2 toward the keyhole.
    p = lock(".....\n.+..@\n.K...\n.K...\n")
    res = solve(p)
    assert res.solvable and res.moves == 1
    assert format_solution(p.board, res.solution) == ["B2 CCW"]
    r = replay(p, ", ".join(format_solution(p.board, res.solution)))
    assert r.solved and r.moves == res.moves


def _all_moves(pos: Position) -> list[Move]:
    """Every move one could write, legal or not, for the brute-force oracle."""
    out: list[Move] = []
    n = max(pos.board.width, pos.board.height)
    for i, bar in enumerate(pos.pieces):
        for d in STEP:
            for k in range(1, n):
                out.append(Slide(bar, d, k, i == 0))
    for a in pos.axes:
        out.extend(Rotate(a, t) for t in TURNS)
    return out


def _brute_bfs(pos: Position, limit: int = 4000) -> int | str | None:
    """Fewest moves by BFS over :func:`apply_move` (the checking path, not the generator)."""
    from arena.core.errors import RuleError

    seen = {pos.state}
    queue = deque([(pos, 0)])
    while queue:
        cur, d = queue.popleft()
        if cur.solved:
            return d
        for m in _all_moves(cur):
            try:
                nxt = apply_move(cur, m)
            except RuleError:
                continue
            if nxt.state not in seen:
                seen.add(nxt.state)
                if len(seen) > limit:
                    return "big"
                queue.append((nxt, d + 1))
    return None


@settings(deadline=None, max_examples=40)
@given(st.integers(0, 10**6))
def test_solver_matches_brute_force_bfs_and_replays(seed: int) -> None:
    p = small_random_lock(seed)
    brute = _brute_bfs(p)
    if brute == "big":
        return
    res = solve(p)
    assert res.moves == brute
    if res.solvable:
        r = replay(p, "\n".join(format_solution(p.board, res.solution)))
        assert r.solved and r.moves == res.moves
    else:
        assert res.complete and res.states == len(reachable(p))


def test_max_states_gives_no_false_proof() -> None:
    res = solve(read_rush(PUZZLES[0][1]), max_states=100)
    assert not res.solvable and not res.complete
