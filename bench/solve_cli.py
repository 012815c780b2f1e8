"""``arena lockmaker solve --rush-file`` as a whole process against the naive BFS (issue 29
point 5): a batch of the 45 published puzzles (the five of ../shared/bench/rush_public.txt
repeated, as bench/rush_batch.py does) and one puzzle (its first line, fog51), start-up
included.

Side by side in one run, rounds interleaved so machine noise hits each alike: the naive
pure-Python BFS (../shared/bench/naive_rush_bfs.py, one core), this tree's command, and the
same command on the sources of ``--before`` (default: the commit before issue 29, exported
with ``git archive``). The command is the installed entry point a user runs (the
``arena`` script beside the interpreter) with the tree's sources first on ``PYTHONPATH``;
``python -m arena`` would add runpy's imports, which no user pays. Each tree is run once
untimed first, with bytecode caching on, so no run pays for compiling. Prints the medians of
wall time and of CPU time (user + system of the child: the machine is shared, so wall time
also holds waits for a core) and the ratios naive / arena of each.

    .venv/bin/python bench/solve_cli.py [--rounds 7] [--before REV | --before none]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent.parent / "shared" / "bench"
if not SHARED.exists():
    SHARED = Path("/work/shared/bench")
BEFORE = "b9025d4"


def timed(cmd: list[str], env: dict[str, str], stdin: str | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=True, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def export(rev: str, into: Path) -> Path:
    data = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev, "src"],
                          check=True, capture_output=True).stdout
    (into / "src.tar").write_bytes(data)
    with tarfile.open(into / "src.tar") as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--lines", type=int, default=45)
    ap.add_argument("--before", default=BEFORE, help="a commit, or 'none'")
    args = ap.parse_args()
    published = [ln for ln in (SHARED / "rush_public.txt").read_text().splitlines() if ln.strip()]
    batches = {"45 puzzles": [published[i % len(published)] for i in range(args.lines)],
               "one puzzle": published[:1]}
    base_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"arena": ROOT / "src"}
        if args.before != "none":
            trees = {"before": export(args.before, Path(tmp)), **trees}
        files = {}
        for label, lines in batches.items():
            files[label] = Path(tmp) / f"{label.replace(' ', '_')}.txt"
            files[label].write_text("\n".join(lines) + "\n")
        naive = [sys.executable, str(SHARED / "naive_rush_bfs.py"), "solve", "1"]
        arena = str(Path(sys.executable).parent / "arena")
        cmds: dict[tuple[str, str], tuple[list[str], dict[str, str], str | None]] = {}
        for label in batches:
            text = files[label].read_text()
            cmds[(label, "naive")] = (naive, base_env, text)
            for tree, src in trees.items():
                env = {**base_env, "PYTHONPATH": str(src)}
                for jobs in ("", "1"):
                    cmd = [arena, "lockmaker", "solve", "--rush-file", str(files[label]),
                           "--json", *(["--jobs", jobs] if jobs else [])]
                    cmds[(label, tree + (" --jobs 1" if jobs else ""))] = (cmd, env, None)
        for cmd, env, stdin in cmds.values():  # warm: bytecode written, files cached
            timed(cmd, env, stdin)
        runs: dict[tuple[str, str], list[tuple[float, float]]] = {k: [] for k in cmds}
        for _ in range(args.rounds):
            for key, (cmd, env, stdin) in cmds.items():
                runs[key].append(timed(cmd, env, stdin))
    med = statistics.median
    print(f"whole processes, median of {args.rounds} rounds (seconds); ratio = naive / command"
          + (f"; before = {args.before}" if "before" in trees else ""))
    for label in batches:
        base = [med(t[i] for t in runs[(label, "naive")]) for i in (0, 1)]
        print(f"{label}:{'wall':>21} {'(min)':>8} {'ratio':>7}   {'CPU':>7} {'ratio':>7}")
        for (lab, name), times in runs.items():
            if lab != label:
                continue
            wall, cpu = med(t[0] for t in times), med(t[1] for t in times)
            least = min(t[0] for t in times)
            ratios = ("", "") if name == "naive" else (f"x{base[0] / wall:.2f}",
                                                       f"x{base[1] / cpu:.2f}")
            print(f"  {name:<20} {wall:7.3f} {least:8.3f} {ratios[0]:>7}   {cpu:7.3f} "
                  f"{ratios[1]:>7}")
    print("targets: 45 puzzles x2.5, one puzzle x2")


if __name__ == "__main__":
    main()
