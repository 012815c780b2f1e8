"""Benchmark of the reference Lockmaker solver (breadth-first, optimal).

Prints, per puzzle of a fixed set (the published Rush Hour puzzles of
/work/shared/bench/rush_public.txt when present, a few built-in ones, and locks with axes),
the optimal move count, states explored, seconds, states per second, and the peak memory of
the search (tracemalloc, measured in a second run so it does not slow the timed one).

    .venv/bin/python bench/lockmaker_solver.py [--repeat N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import tracemalloc
from pathlib import Path

from arena.games.lockmaker.construct import random_lock
from arena.games.lockmaker.lockfile import read_lock
from arena.games.lockmaker.position import Position
from arena.games.lockmaker.rounds import DEFAULT_ROUNDS
from arena.games.lockmaker.rush import read_rush
from arena.games.lockmaker.solver import solve

PUBLIC = Path("/work/shared/bench/rush_public.txt")
BUILTIN = [
    ("fog51", "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM.", 51),
    ("wall60", "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM", 60),
]
AXIS_LOCKS = {
    "axis-turn": ".....\n.+..@\n.K...\n.K...\n",
    "axis-impossible": "..bb..\naa+...\n..K.#.\n..K..@\n",
}


def puzzles() -> list[tuple[str, Position, int | None]]:
    out: list[tuple[str, Position, int | None]] = []
    seen = set()
    if PUBLIC.exists():
        for line in PUBLIC.read_text().splitlines():
            if line.strip():
                name, rush, n = line.split()
                out.append((name, read_rush(rush), int(n)))
                seen.add(rush)
    for bname, brush, bn in BUILTIN:
        if brush not in seen:
            out.append((bname, read_rush(brush), bn))
    for name, text in AXIS_LOCKS.items():
        out.append((name, read_lock(text), None))
    rng = random.Random(2026)
    for i, rnd in enumerate(DEFAULT_ROUNDS):
        hand = [p for p in rnd.pool][:5]
        pos = random_lock(rnd.board, hand, rng)
        if pos is not None:
            out.append((f"round{i + 1}-random", pos, None))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--max-states", type=int, default=2_000_000)
    args = ap.parse_args()
    rates: list[float] = []
    print(f"{'puzzle':<18}{'moves':>6}{'expect':>7}{'states':>10}{'median s':>10}"
          f"{'states/s':>11}{'peak MiB':>10}")
    for name, pos, expect in puzzles():
        times = []
        res = None
        for _ in range(args.repeat):
            t = time.perf_counter()
            res = solve(pos, max_states=args.max_states)
            times.append(time.perf_counter() - t)
        assert res is not None
        tracemalloc.start()
        solve(pos, max_states=args.max_states)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        med = statistics.median(times)
        rate = res.states / med if med > 0 else float("inf")
        rates.append(rate)
        moves = "-" if res.moves is None else str(res.moves)
        if not res.complete:
            moves = "cut"
        exp = "-" if expect is None else str(expect)
        flag = "" if expect is None or expect == res.moves else "  MISMATCH"
        print(f"{name:<18}{moves:>6}{exp:>7}{res.states:>10}{med:>10.3f}{rate:>11.0f}"
              f"{peak / 2**20:>10.1f}{flag}")
    print(f"median states/s over the set: {statistics.median(rates):.0f}")


if __name__ == "__main__":
    main()
