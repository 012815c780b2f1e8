"""Paint Factory: the hard bot against the clairvoyant yardstick, on designs drawn at run time.

Each design is the set-design bot's (:func:`arena.games.paint.designer.design_for`, what a hard
seat meets from a bot opponent) with a fresh presentation seed; the hard bot
(:data:`arena.games.paint.bot.HARD`) plays it through :func:`play_episode`, then the yardstick
(:class:`arena.games.paint.yardstick.Yardstick`) searches the same sets and showings, handed
the bot's grid (so it is never below the bot; the count of designs where the bot's grid was
the best is printed). Prints the bot's and the yardstick's means, their ratio with a 95%
bootstrap interval over the designs (paired), the sample size, how many designs the yardstick
proved best (at the colour ceiling) and how many at 8,748, and the bot's decision time per
phase, p50 / p99 / max against PF-8's limit. One process, sequential (``nice`` it).

    .venv/bin/python bench/yardstick_paint.py                    # 80 designs, seed drawn
    .venv/bin/python bench/yardstick_paint.py --designs 10 --seed 12345
"""

from __future__ import annotations

import argparse
import math
import random
import secrets
import statistics
import time

from arena.games.paint.bot import HARD
from arena.games.paint.designer import design_for
from arena.games.paint.episode import play_episode
from arena.games.paint.grid import Action
from arena.games.paint.match import PaintConfig
from arena.games.paint.players import Player, Situation
from arena.games.paint.scoring import score_value
from arena.games.paint.yardstick import CEILING, WIDTHS, Yardstick


class Timed:
    """The bot with each decision's seconds recorded by phase (pick, shove, last)."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.times: dict[str, list[float]] = {"pick": [], "shove": [], "last": []}

    def shove(self, s: Situation) -> Action:
        t = time.perf_counter()
        out = self.inner.shove(s)
        self.times["shove"].append(time.perf_counter() - t)
        return out

    def pick(self, s: Situation) -> int:
        t = time.perf_counter()
        out = self.inner.pick(s)
        self.times["pick"].append(time.perf_counter() - t)
        return out

    def last(self, grid: str) -> str:
        t = time.perf_counter()
        out = self.inner.last(grid)
        self.times["last"].append(time.perf_counter() - t)
        return out


def bootstrap(pairs: list[tuple[int, int]], rng: random.Random, rounds: int = 4000
              ) -> tuple[float, float]:
    """The 95% percentile interval of mean(bot) / mean(yardstick), designs resampled."""
    n = len(pairs)
    ratios = []
    for _ in range(rounds):
        sample = [pairs[rng.randrange(n)] for _ in range(n)]
        ratios.append(sum(b for b, _ in sample) / sum(y for _, y in sample))
    ratios.sort()
    return ratios[int(0.025 * rounds)], ratios[int(0.975 * rounds) - 1]


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, math.ceil(q * len(xs)) - 1))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--designs", type=int, default=80, help="designs played (80)")
    ap.add_argument("--seed", type=int, default=None,
                    help="the run's seed (default: drawn afresh, printed)")
    ap.add_argument("--widths", default=",".join(map(str, WIDTHS)),
                    help="the yardstick's beam widths, tried in turn")
    ap.add_argument("-v", "--verbose", action="store_true", help="a line per design")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else secrets.randbits(48)
    print(f"bench/yardstick_paint.py --seed {seed} --designs {args.designs}", flush=True)
    rng = random.Random(seed)
    yardstick = Yardstick(tuple(int(w) for w in args.widths.split(",")))
    bot = Timed(HARD)
    pairs: list[tuple[int, int]] = []
    proven = at_ceiling = given = 0
    t_bot = t_yard = 0.0
    for k in range(args.designs):
        sets = design_for(rng)
        pseed = rng.randrange(2**31)
        t0 = time.perf_counter()
        grid = play_episode(bot, sets, pseed).grid
        t1 = time.perf_counter()
        sol = yardstick.solve(sets, pseed, given=[grid])
        t2 = time.perf_counter()
        t_bot += t1 - t0
        t_yard += t2 - t1
        b = score_value(grid)
        pairs.append((b, sol.score))
        proven += sol.proven
        at_ceiling += sol.score == CEILING
        given += sol.source == "given"
        if args.verbose:
            print(f"  {k + 1:3d} {','.join(sets)} seed {pseed}: bot {b:5d} yardstick "
                  f"{sol.score:5d} (ceiling {sol.ceiling}, {'proven' if sol.proven else 'open'}"
                  f", widths {sol.widths}, {sol.source}) {t1 - t0:.1f}+{t2 - t1:.1f} s",
                  flush=True)
    n = len(pairs)
    bots = [b for b, _ in pairs]
    yards = [y for _, y in pairs]
    mb, my = statistics.mean(bots), statistics.mean(yards)
    lo, hi = bootstrap(pairs, random.Random(seed ^ 0x5EED))
    ratio = mb / my
    se = (statistics.stdev([b - ratio * y for b, y in pairs]) / my / math.sqrt(n)
          if n > 1 else math.nan)
    print(f"Paint, {n} designs (the design bot's, fresh presentation seeds):")
    print(f"  hard bot mean {mb:.1f}, yardstick mean {my:.1f}: ratio {ratio:.3f} "
          f"(95% bootstrap {lo:.3f}-{hi:.3f}; delta-method +- {1.96 * se:.3f}; n={n}; "
          f"acceptance >= 0.95: {'ok' if ratio >= 0.95 else 'BELOW'})")
    print(f"  yardstick proved best on {proven}/{n} designs ({at_ceiling} at {CEILING:,}); "
          f"the bot's own grid was the best found on {given}; bot at {CEILING:,} on "
          f"{sum(1 for b in bots if b == CEILING)}")
    print(f"  seconds: bot {t_bot:.0f}, yardstick {t_yard:.0f}")
    limit = PaintConfig().decision_time
    for phase, xs in bot.times.items():
        if xs:
            p99 = quantile(xs, 0.99)
            print(f"  latency hard {phase:<6} n={len(xs):<5} p50 {1000 * quantile(xs, 0.5):7.1f} ms"
                  f"  p99 {1000 * p99:8.1f} ms  max {1000 * max(xs):8.1f} ms  limit {limit:g} s"
                  f" ({'within' if p99 <= limit else 'OVER'})")


if __name__ == "__main__":
    main()
