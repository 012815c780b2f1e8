"""Escape rate per seat over many six-bot Locked Out! matches: is any seat favoured?

Issue 30 (fair seats): every seat's escape rate should lie within 10 points of the mean. Each
match is played in-process on a simulated clock (as ``arena simulate lockedout``), seeds
``first .. first+N-1``, spread over the machine's cores. Each rate is printed with a Wilson
95% interval; a chi-square statistic over the six seats (5 degrees of freedom, 11.07 at the
5% level) says whether the differences exceed chance.

    .venv/bin/python bench/lockedout_seats.py [N] [--first SEED] [--jobs J]
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import time

from arena.core.driver import simulate
from arena.games.lockedout import GAME


def escaped_seats(seed: int) -> tuple[int, ...]:
    """The seats that escaped in the match of this seed."""
    match = simulate(GAME, seed)
    assert match.result is not None
    return tuple(match.state.escaped())


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials (sound near 0 and 1, unlike Wald)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=300, help="matches (default 300)")
    ap.add_argument("--first", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    seeds = range(args.first, args.first + args.n)
    t = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(escaped_seats, seeds, chunksize=4)
    secs = time.perf_counter() - t
    seats = GAME.seats
    counts = [sum(s in r for r in results) for s in range(seats)]
    n = len(results)
    rates = [c / n for c in counts]
    mean = sum(rates) / seats
    print(f"Locked Out!, {n} six-bot matches (seeds {seeds.start}..{seeds.stop - 1}), "
          f"{secs:.0f} s on {args.jobs} process(es)")
    print("seat  escaped   rate   95% interval   vs mean")
    for s, (c, r) in enumerate(zip(counts, rates, strict=True)):
        lo, hi = wilson(c, n)
        print(f"{s + 1:>4}  {c:>7}  {r:6.1%}  {lo:6.1%}-{hi:6.1%}  {(r - mean) * 100:+5.1f} pts")
    total = sum(counts)
    expected = total / seats
    chi2 = sum((c - expected) ** 2 / expected for c in counts) if expected else 0.0
    spread = max(abs(r - mean) for r in rates) * 100
    print(f"mean escape rate {mean:.1%}; widest gap from the mean {spread:.1f} pts "
          f"(acceptance: within 10); chi-square {chi2:.1f} on 5 df (11.07 at 5%)")


if __name__ == "__main__":
    main()
