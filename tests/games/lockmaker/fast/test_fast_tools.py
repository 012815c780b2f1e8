"""The command-line tools (hardest, generate, solve --rush-file) and the generator."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import pytest

from arena.cli import main
from arena.core.errors import ParseError, RuleError
from arena.games.lockmaker.board import Board
from arena.games.lockmaker.fast.api import fast_solve
from arena.games.lockmaker.fast.generator import (
    build_hard_lock,
    generate,
    is_minimal,
    mutate,
    random_placement,
)
from arena.games.lockmaker.fast.jobs import generate_jobs
from arena.games.lockmaker.lockfile import read_lock
from arena.games.lockmaker.pieces import parse_piece_list
from arena.games.lockmaker.rush import read_rush
from arena.games.lockmaker.solver import solve as ref_solve
from arena.games.lockmaker.tools_fast import extend_lockmaker, read_generator_board, solve_rush_file
from arena.games.lockmaker.validate import construction_problems

FOG51 = "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM."


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    parser = argparse.ArgumentParser()
    extend_lockmaker(parser.add_subparsers())
    args = parser.parse_args(argv)
    assert args.handler(args) == 0
    return capsys.readouterr().out


def test_hardest_fog51_reports_4780_positions_and_51_moves(capsys: pytest.CaptureFixture[str]) -> None:
    out = json.loads(run(["hardest", "--rush", FOG51, "--json"], capsys))
    assert out["states"] == 4780 and out["moves"] == 51
    assert ref_solve(read_lock(out["lock"])).moves == 51


def test_hardest_reads_lock_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "lock.txt"
    f.write_text("; LM-10\n....\nKK.@\n.AA.\n....\n")
    out = json.loads(run(["hardest", str(f), "--json"], capsys))
    assert out["moves"] >= 1 and out["states"] >= 2


def test_solve_rush_file_one_json_line_per_puzzle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text(f"fog51 {FOG51} 51\nwall60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 60 extra\n\n")
    assert solve_rush_file(str(f), True) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(d["name"], d["moves"], d["solvable"]) for d in lines] == [
        ("fog51", 51, True), ("wall60", 60, True)]
    assert len(lines[0]["solution"]) == 51


def test_solve_rush_file_bad_line_names_rule(tmp_path: Path) -> None:
    f = tmp_path / "p.txt"
    f.write_text("broken AAB\n")
    with pytest.raises(ParseError, match="LM-12"):
        solve_rush_file(str(f), True)


def test_generator_board_file_with_fixed_keyhole() -> None:
    board, keyhole = read_generator_board("......#\n......@\n......#\n")
    assert keyhole == 13 and board.width == 7
    with pytest.raises(RuleError, match="LM-2"):
        read_generator_board("...\n.@.\n...\n")


def test_generate_cli_gives_legal_solvable_lock(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "b.txt"
    f.write_text(".....\n.....\n.....\n.....\n.....\n")
    out = json.loads(run(["generate", "--board", str(f), "--pieces", "H2,V2,V3,H3,X",
                          "--seconds", "1", "--seed", "3", "--jobs", "1", "--json"], capsys))
    lock = read_lock(out["lock"])
    assert construction_problems(lock, parse_piece_list("H2,V2,V3,H3,X")) == []
    assert ref_solve(lock).moves == out["moves"] >= 1 and out["searched"] >= 1


def test_lm15_random_placements_and_mutations_stay_legal() -> None:
    rng = random.Random(7)
    board = Board(6, 6, frozenset({0, 35}))
    hand = parse_piece_list("H2,H3,V2,V3,X,X")
    for _ in range(30):
        pos = random_placement(board, hand, rng)
        assert pos is not None and construction_problems(pos, hand) == []
        for _m in range(10):
            nxt = mutate(pos, rng)
            if nxt is not None:
                assert construction_problems(nxt, hand) == []
                pos = nxt


def test_generator_result_is_legal_and_its_count_optimal() -> None:
    pos = read_rush(FOG51)
    hand = [p for p in parse_piece_list("V3,V2,H2,V2,V2,V3")]
    res = generate(pos.board, hand, seconds=2, rng=random.Random(1), keyhole=pos.keyhole)
    assert res.moves == fast_solve(res.lock).moves == ref_solve(res.lock).moves
    assert construction_problems(res.lock, hand) == []


def test_minimality_fogleman() -> None:
    """fog51 is minimal; adding a bar in a far corner that never matters is not."""
    assert is_minimal(read_rush(FOG51))
    assert not is_minimal(read_rush("ooooooooooooAAooooooooooooooooooooBB"))


def test_build_hard_lock_for_the_bot() -> None:
    board = Board(5, 5)
    hand = parse_piece_list("H2,V2,V3")
    lock = build_hard_lock(board, hand, 1.0, random.Random(2))
    assert construction_problems(lock, hand) == []
    assert fast_solve(lock).solvable


def test_generator_jobs_run_independent_searches_and_keep_the_best() -> None:
    """Two jobs (a child process and this one) under a placement budget: a pure function of
    the seed, the best of both, placements summed, trajectory the running best."""
    board = Board(6, 6, frozenset({0, 35}))
    hand = parse_piece_list("H2,H3,V2,V3,V2,X")
    a = generate_jobs(board, hand, jobs=2, seconds=None, placements=15, rng=random.Random(5))
    b = generate_jobs(board, hand, jobs=2, seconds=None, placements=15, rng=random.Random(5))
    assert (a.moves, a.lock, a.searched) == (b.moves, b.lock, b.searched)
    assert 15 < a.searched <= 30  # both jobs searched
    assert construction_problems(a.lock, hand) == []
    assert ref_solve(a.lock).moves == a.moves
    bests = [m for _t, m in a.trajectory]
    assert bests == sorted(set(bests)) and bests[-1] == a.moves


def test_generator_jobs_report_an_unplaceable_hand_by_its_rule() -> None:
    board = Board(3, 3)
    with pytest.raises(RuleError, match="LM-15"):
        generate_jobs(board, parse_piece_list("H3,H3,H3,V3"), jobs=2, seconds=None,
                      placements=5, rng=random.Random(1))


def test_generate_cli_rejects_zero_jobs(tmp_path: Path) -> None:
    f = tmp_path / "b.txt"
    f.write_text(".....\n.....\n.....\n")
    assert main(["lockmaker", "generate", "--board", str(f), "--pieces", "H2", "--jobs", "0"]) == 2


def test_lm12_quick_rush_path_matches_the_fast_solver(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A few puzzles are solved by the quick path before argparse loads;
    its answers are optimal (the fast solver's move counts) and replay through the rules."""
    from arena.games.lockmaker.notation import replay
    from arena.games.lockmaker.quick import quick

    puzzles = {"fog51": FOG51, "jam": "BB.C...D.CEE.DAAFGH.IIFGH.JKK.LLJ...",
               "stuck": "BBBCCCAAD...xxD.....x.........EE...."}
    f = tmp_path / "p.txt"
    f.write_text("".join(f"{n} {r}\n" for n, r in puzzles.items()))
    assert quick(["lockmaker", "solve", "--rush-file", str(f), "--json", "--jobs", "1"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    for got, (name, rush) in zip(lines, puzzles.items(), strict=True):
        pos = read_rush(rush)
        want = fast_solve(pos)
        assert (got["name"], got["solvable"], got["moves"]) == (name, want.solvable, want.moves)
        if want.solvable:
            assert replay(pos, ", ".join(got["solution"])).solved
    # anything else is left to the ordinary command line, before printing anything
    assert quick(["lockmaker", "solve", "--rush-file", str(f), "--verbose"]) is None
    (tmp_path / "bad.txt").write_text("broken AAB\n")
    assert quick(["lockmaker", "solve", "--rush-file", str(tmp_path / "bad.txt")]) is None
    assert capsys.readouterr().out == ""
