"""Batch solve as a whole process: ``arena lockmaker solve --rush-file FILE --json`` against
the naive pure-Python BFS baseline (../shared/bench/naive_rush_bfs.py) on the same puzzles in
the same run, start-up included (issue 18: target ratio >= 2.5), plus the start-up of
``arena --help`` and ``arena games`` (target < 0.3 s each).

The puzzle file is the published set of ../shared/bench/rush_public.txt repeated to 45 lines
(only five published puzzles ship with the project). Rounds alternate the two commands so
machine noise hits both alike; the figures are medians. The default command solves on every
core (``--jobs``); the one-core figure is printed beside it, for the record.

    python bench/rush_batch.py [--rounds 7] [--lines 45]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared" / "bench"
ARENA = [sys.executable, "-m", "arena"]


def timed(cmd: list[str], stdin: str | None = None) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=True)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--lines", type=int, default=45)
    args = ap.parse_args()
    published = [ln for ln in (SHARED / "rush_public.txt").read_text().splitlines() if ln.strip()]
    lines = [published[i % len(published)] for i in range(args.lines)]
    text = "\n".join(lines) + "\n"
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write(text)
        path = fh.name
    naive_cmd = [sys.executable, str(SHARED / "naive_rush_bfs.py"), "solve", "1"]
    fast_cmd = [*ARENA, "lockmaker", "solve", "--rush-file", path, "--json"]
    timed(fast_cmd)  # warm the file cache once
    naive, fast, single, helps, games = [], [], [], [], []
    for _ in range(args.rounds):
        naive.append(timed(naive_cmd, text))
        fast.append(timed(fast_cmd))
        single.append(timed([*fast_cmd, "--jobs", "1"]))
        helps.append(timed([*ARENA, "--help"]))
        games.append(timed([*ARENA, "games"]))
    med = statistics.median
    print(f"{len(lines)} puzzles ({len(published)} published, repeated), {args.rounds} rounds, "
          "whole processes, medians:")
    print(f"  naive BFS baseline           {med(naive):.3f} s  (min {min(naive):.3f})")
    print(f"  arena lockmaker --rush-file  {med(fast):.3f} s  (min {min(fast):.3f})")
    print(f"  ratio naive / arena          x{med(naive) / med(fast):.2f}  (target >= 2.5)")
    # For the record: the same command on one core (the baseline always uses one).
    print(f"  arena ... --jobs 1           {med(single):.3f} s  ratio x{med(naive) / med(single):.2f}")
    print(f"  arena --help                 {med(helps):.3f} s  (target < 0.3)")
    print(f"  arena games                  {med(games):.3f} s  (target < 0.3)")


if __name__ == "__main__":
    main()
