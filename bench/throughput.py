"""Rules throughput: random playouts through the full ``Match`` (issue 29 point 4).

For every game, whole matches are played by ``Game.random_submission`` in every seat (each
submission final), the clock jumping to the next deadline whenever no seat has anything to
submit. A *decision* is one call of ``random_submission`` that returned a text; decisions/s
is their count over the wall time of the whole loop (policy, validation, resolution, log),
matches of seeds 1, 2, ... until ``--seconds`` have passed, after one untimed match (seed
0) that pays the imports a policy makes on first use. Setting a match up (``Match(...)``,
which for Feather draws and proves a generated scenario, LF-12) is inside the timed loop.
The same count over the process's CPU time is printed too (``cpu/s``): on a shared machine
the wall rate moves with other work, the CPU rate much less.

The *before* column is the same loop run on the sources of another commit (``--before``,
default the commit before issue 29 point 4), exported with ``git archive`` into a temporary
folder; each measurement is its own process, before and after interleaved game by game, so
both see the same machine. The median of ``--runs`` (3) runs is printed.

    .venv/bin/python bench/throughput.py [--games boxes,feather] [--seconds 2] [--runs 3]
        [--before REV | --before none]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("lockmaker", "boxes", "paint", "feather", "lockedout")
BEFORE = "b9025d4"  # main before issue 29 point 4


def playouts(name: str, seconds: float) -> dict[str, Any]:
    """Random playouts of game ``name`` for about ``seconds``: decisions, time, rejections."""
    import random

    from arena.core.clock import ManualClock
    from arena.core.errors import RuleError
    from arena.core.match import Match, MatchSettings
    from arena.core.registry import get_game

    game = get_game(name)
    decisions = rejected = matches = 0
    start = time.perf_counter()
    cpu = time.process_time()
    seed = -1  # seed 0 is an untimed warm-up: the imports a policy makes on first use
    while seed < 0 or time.perf_counter() - start < seconds:
        seed += 1
        if seed == 1:
            decisions = rejected = 0
            start = time.perf_counter()
            cpu = time.process_time()
        matches += seed > 0
        clock = ManualClock(1000.0)
        match = Match(game, game.default_config(), seed, clock, MatchSettings())
        rng = random.Random(seed)
        while not match.finished:
            acted = False
            for seat in sorted(match.waiting_for()):
                if match.finished or seat not in match.waiting_for():
                    continue
                text = game.random_submission(match.state, seat, rng)
                if text is None:
                    continue
                decisions += 1
                try:
                    match.submit(seat, text, final=True)
                    acted = True
                except RuleError:
                    rejected += 1
            if not acted and not match.finished:
                when = match.next_deadline()
                if when is None:
                    break
                clock.set(max(clock.now(), when))
                match.advance()
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return {"decisions": decisions, "seconds": elapsed, "cpu": cpu, "rejected": rejected,
            "matches": matches, "rate": decisions / elapsed, "cpu_rate": decisions / cpu}


def export(rev: str, into: Path) -> Path:
    """The ``src`` folder of commit ``rev``, written under ``into``."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev, "src"],
                          check=True, capture_output=True).stdout
    tar_path = into / "src.tar"
    tar_path.write_bytes(data)
    with tarfile.open(tar_path) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def measure(src: Path, name: str, seconds: float) -> dict[str, Any]:
    """One measurement in a fresh process on the sources in ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run([sys.executable, __file__, "--worker", name, "--seconds", str(seconds)],
                         check=True, capture_output=True, text=True, env=env).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", default=BEFORE, help="a commit, or 'none'")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(playouts(args.worker, args.seconds)))
        return
    names = [g for g in args.games.split(",") if g]
    with tempfile.TemporaryDirectory() as tmp:
        sources = {"after": ROOT / "src"}
        if args.before != "none":
            sources = {"before": export(args.before, Path(tmp)), **sources}
        runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for _ in range(args.runs):
            for name in names:
                for label, src in sources.items():
                    runs.setdefault((label, name), []).append(measure(src, name, args.seconds))
    labels = list(sources)
    print(f"random playouts through the full Match, decisions/s, median of {args.runs} runs "
          f"of {args.seconds:g} s each" + (f"; before = {args.before}" if "before" in labels
                                           else ""))
    print(f"{'game':<10}" + "".join(f"{label:>12}" for label in labels)
          + ("       ratio" if len(labels) == 2 else "")
          + "".join(f"{label + ' cpu/s':>16}" for label in labels)
          + ("       ratio" if len(labels) == 2 else "") + "   rejected")
    for name in names:
        row = f"{name:<10}"
        for key, width in (("rate", 12), ("cpu_rate", 16)):
            rates = [statistics.median(r[key] for r in runs[(label, name)]) for label in labels]
            row += "".join(f"{rate:>{width},.0f}" for rate in rates)
            if len(labels) == 2:
                row += f"{rates[1] / rates[0]:>11.2f}x"
        rejected = [sum(r["rejected"] for r in runs[(label, name)]) for label in labels]
        print(row + "   " + "/".join(str(n) for n in rejected))


if __name__ == "__main__":
    main()
