"""The quick path of ``arena lockmaker solve --rush-file``: a search over
line fields that must give the fast solver's optimum (LM-9) on every Rush Hour puzzle (LM-12)
it takes, and a whole batch through the real command without the parser or game modules."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from arena.games.lockmaker.fast.api import fast_solve
from arena.games.lockmaker.notation import replay
from arena.games.lockmaker.quick import parse, quick, solve
from arena.games.lockmaker.rush import read_rush

PUBLISHED = {  # name: (puzzle, optimal moves), the published set the batch bench repeats
    "fog51": ("BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM.", 51),
    "fogex49": ("BBBCDEFGGCDEF.AADEHHI....JI.KK.JLLMM", 49),
    "fog15": ("BB.C...D.CEE.DAAFGH.IIFGH.JKK.LLJ...", 15),
    "fog24": ("B..CDDBEEC.F.G.AAF.GHHIJKKL.IJ..L.MM", 24),
    "wall60": ("IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM", 60),
}


def _checked(rush: str) -> tuple[int | None, int]:
    """The quick search's answer, held to the fast solver's and replayed through the rules."""
    parsed = parse(rush)
    assert parsed is not None, rush
    moves, texts, states = solve(*parsed)
    pos = read_rush(rush)
    assert moves == fast_solve(pos).moves, rush
    if moves is None:
        assert texts == []
    else:
        played = replay(pos, ", ".join(texts)) if texts else None
        assert len(texts) == moves
        assert played is None or (played.solved and played.error is None), (rush, texts)
    return moves, states


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_lm9_published_puzzles_get_their_optimum_and_a_solution_the_rules_accept(
        name: str) -> None:
    rush, moves = PUBLISHED[name]
    assert _checked(rush)[0] == moves


def _random_puzzle(rng: random.Random) -> str:
    grid = ["o"] * 36
    r, c = rng.randrange(6), rng.randrange(5)
    grid[r * 6 + c] = grid[r * 6 + c + 1] = "A"
    letters = iter("BCDEFGHIJKLMNOPQRSTUVWXYZ")
    for _ in range(rng.randrange(8, 40)):
        n, across = rng.choice((2, 2, 3)), rng.random() < 0.5
        row, col = rng.randrange(6), rng.randrange(6)
        if (col if across else row) + n > 6:
            continue
        cells = [row * 6 + col + k if across else (row + k) * 6 + col for k in range(n)]
        if any(grid[x] != "o" for x in cells):
            continue
        letter = next(letters)
        for x in cells:
            grid[x] = letter
    for _ in range(rng.randrange(3)):
        x = rng.randrange(36)
        if grid[x] == "o":
            grid[x] = "x"
    return "".join(grid)


def _scrambled(rush: str, rng: random.Random, slides: int) -> str:
    """``rush`` after ``slides`` random legal slides: positions of a published puzzle's set
    at every distance from the keyhole, which random grids seldom are."""
    grid = list(rush)
    for _ in range(slides):
        letter = rng.choice(sorted({ch for ch in grid if ch.isupper()}))
        cells = [i for i, ch in enumerate(grid) if ch == letter]
        step = 1 if cells[1] - cells[0] == 1 else 6
        way = rng.choice((-1, 1))
        head = cells[-1] if way > 0 else cells[0]
        nxt = head + way * step
        same_line = step == 6 or nxt // 6 == head // 6
        if 0 <= nxt < 36 and same_line and grid[nxt] in "o.":
            grid[nxt], grid[cells[0] if way > 0 else cells[-1]] = letter, "o"
    return "".join(grid)


def test_lm12_quick_search_agrees_with_the_fast_solver_on_random_puzzles() -> None:
    rng = random.Random(29)
    answers = [_checked(_random_puzzle(rng))[0] for _ in range(80)]
    assert None in answers and 0 in answers  # impossible and already solved ones as well
    deep = [_checked(_scrambled(PUBLISHED[name][0], rng, rng.randrange(200)))[0]
            for name in ("fog51", "fog15") for _ in range(8)]
    assert max(d or 0 for d in deep) >= 40 and min(d or 0 for d in deep) < 20


def _solve(rush: str) -> tuple[int | None, list[str], int]:
    parsed = parse(rush)
    assert parsed is not None, rush
    return solve(*parsed)


def test_lm3_a_red_car_that_can_never_reach_the_keyhole_is_impossible_at_once() -> None:
    blocked = ["AABB" + "o" * 32,  # a car of its own row stands in front of it
               "AAooxo" + "o" * 30]  # a wall does
    for rush in blocked:
        assert _solve(rush) == (None, [], 1)
        assert not fast_solve(read_rush(rush)).solvable
    assert _solve("ooooAA" + "o" * 30) == (0, [], 1)  # already at the keyhole


def test_quick_path_takes_a_whole_batch(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    """Every plain batch goes the quick way now (it used to stop at three puzzles and leave
    the rest to the parser, the game modules and NumPy), in file order."""
    f = tmp_path / "p.txt"
    names = sorted(PUBLISHED) * 2
    f.write_text("# published\n" + "".join(f"{n} {PUBLISHED[n][0]} x\n" for n in names))
    assert quick(["lockmaker", "solve", "--rush-file", str(f), "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(d["name"], d["moves"], d["solvable"]) for d in lines] == [
        (n, PUBLISHED[n][1], True) for n in names]
    assert quick(["lockmaker", "solve", "--rush-file", str(f)]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("fog15: 15 moves (")


def test_the_command_prints_every_answer_before_it_ends_its_process(tmp_path: Path) -> None:
    """The real command line ends the process without the interpreter's teardown: what it
    printed must still all arrive, with exit status 0 and nothing on stderr."""
    f = tmp_path / "p.txt"
    f.write_text("".join(f"{n} {rush}\n" for n, (rush, _m) in PUBLISHED.items()))
    script = "import sys\nfrom arena.cli import main\nsys.exit(main())\n"  # as the entry point
    proc = subprocess.run([sys.executable, "-c", script, "lockmaker", "solve", "--rush-file",
                           str(f), "--json"], capture_output=True, text=True, timeout=120,
                          check=False)
    assert (proc.returncode, proc.stderr) == (0, "")
    got = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [(d["name"], d["moves"]) for d in got] == [(n, m) for n, (_r, m) in PUBLISHED.items()]
