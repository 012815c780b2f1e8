"""Box within a Box within a Box: the careful bot against a random-but-legal bot.

Plays N seeded matches (default 200) through the real engine on a simulated clock, the
careful bot alternating between seat 1 (EC) and seat 2 (DMO), and prints the careful bot's
win rate (target >= 80%), median points and the time per match. Usage:

    .venv/bin/python bench/boxes_bot.py [N] [--jobs J]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from arena.core.driver import simulate
from arena.games.boxes import bot as botmod
from arena.games.boxes.match import BoxesGame
from arena.games.boxes.state import BoxesState


class Mixed(BoxesGame):
    """The careful bot in ``smart`` and the random-but-legal bot in the other seat."""

    def __init__(self, smart: int) -> None:
        self.smart = smart

    def bot(self, state: BoxesState, seat: int, rng: random.Random) -> str | None:
        if seat == self.smart:
            return botmod.decide(state, seat, rng)
        return botmod.random_legal(state, seat, rng)


def one(seed: int) -> tuple[int, bool, float, float, float, float]:
    smart = seed % 2
    t0, c0 = time.perf_counter(), time.process_time()
    match = simulate(Mixed(smart), seed)
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    result = match.result
    assert result is not None
    return smart, result.winner == smart, result.scores[smart], result.scores[1 - smart], dt, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("n", type=int, nargs="?", default=200)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(one, range(1, args.n + 1)))
    wall = time.perf_counter() - t0
    wins = sum(1 for r in rows if r[1])
    by_seat = {s: [r for r in rows if r[0] == s] for s in (0, 1)}
    print(f"matches: {len(rows)}  careful bot wins: {wins} ({100 * wins / len(rows):.1f}%)")
    for s, rs in by_seat.items():
        if rs:
            w = sum(1 for r in rs if r[1])
            print(f"  as seat {s + 1}: {w}/{len(rs)} ({100 * w / len(rs):.1f}%)")
    print(f"median points: careful {statistics.median(r[2] for r in rows):g}, "
          f"random {statistics.median(r[3] for r in rows):g}")
    print(f"seconds per match: median {statistics.median(r[4] for r in rows):.2f} wall, "
          f"{statistics.median(r[5] for r in rows):.2f} CPU; max {max(r[4] for r in rows):.2f} "
          f"wall; total wall {wall:.1f} s with {args.jobs} job(s)")


if __name__ == "__main__":
    main()
