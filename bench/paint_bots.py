"""Paint Factory bots: the planning bot against a greedy one-step bot and a clairvoyant beam.

Each game: the set-design bot designs 8 sets (PF-4), the presentation seed fixes the showings
(PF-5), and the same sets and seed are played by every player. Prints the mean and median
scores, the planner's ratios to the greedy and the clairvoyant means, and the planner's time
per decision (mean and worst). Aims (issue 6): >= 2x greedy, within 15% of clairvoyant,
< 2 s per decision.

    .venv/bin/python bench/paint_bots.py [--games 200] [--jobs 2] [--width 100]
    .venv/bin/python bench/paint_bots.py --search-designs 4   # hill-climb hard designs
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from arena.games.paint.designer import design_for, search_design
from arena.games.paint.episode import play_episode
from arena.games.paint.planner import BeamClairvoyant, Planner
from arena.games.paint.players import GreedyPlayer, Player
from arena.games.paint.scoring import score_value


class TimedPlayer:
    """Wraps a player and records the wall time of each decision."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.times: list[float] = []

    def _timed(self, fn, *args):  # type: ignore[no-untyped-def]
        t = time.perf_counter()
        out = fn(*args)
        self.times.append(time.perf_counter() - t)
        return out

    def shove(self, s):  # type: ignore[no-untyped-def]
        return self._timed(self.inner.shove, s)

    def pick(self, s):  # type: ignore[no-untyped-def]
        return self._timed(self.inner.pick, s)

    def last(self, grid):  # type: ignore[no-untyped-def]
        return self._timed(self.inner.last, grid)


def one_game(args: tuple[int, int]) -> tuple[int, int, int, list[float]]:
    game_seed, width = args
    rng = random.Random(game_seed)
    sets = design_for(rng)
    seed = rng.randrange(2**31)
    planner = TimedPlayer(Planner())
    p = score_value(play_episode(planner, sets, seed).grid)
    g = score_value(play_episode(GreedyPlayer(), sets, seed).grid)
    c = score_value(BeamClairvoyant(width).play(sets, seed))
    return p, g, c, planner.times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--width", type=int, default=100, help="clairvoyant beam width")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--search-designs", type=int, default=0, metavar="N")
    ap.add_argument("--progress", type=int, default=0, metavar="K",
                    help="print the figures so far every K games")
    args = ap.parse_args()
    if args.search_designs:
        rng = random.Random(args.seed)
        for _ in range(args.search_designs):
            design, value = search_design(rng, GreedyPlayer(), steps=60, episodes=6)
            print(f"{value:.3f}  {','.join(design)}", flush=True)
        return
    t0 = time.perf_counter()
    tasks = [(args.seed * 100_003 + i, args.width) for i in range(args.games)]
    rows: list[tuple[int, int, int, list[float]]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for row in pool.map(one_game, tasks):
            rows.append(row)
            if args.progress and len(rows) % args.progress == 0:
                report(rows, args.width, time.perf_counter() - t0, partial=True)
    report(rows, args.width, time.perf_counter() - t0, partial=False)


def report(rows: list[tuple[int, int, int, list[float]]], width: int, elapsed: float,
           *, partial: bool) -> None:
    planner = [r[0] for r in rows]
    greedy = [r[1] for r in rows]
    clair = [max(r[2], r[0]) for r in rows]  # the beam is a lower bound of the best
    times = [t for r in rows for t in r[3]]
    pm, gm, cm = (statistics.mean(x) for x in (planner, greedy, clair))
    print(f"{'(so far) ' if partial else ''}games {len(rows)}, clairvoyant beam width {width}, "
          f"{elapsed:.0f} s")
    for name, xs in (("planner", planner), ("greedy", greedy), ("clairvoyant", clair)):
        print(f"{name:<12} mean {statistics.mean(xs):8.1f}  median {statistics.median(xs):7.0f}")
    raw = statistics.mean(r[2] for r in rows)
    print(f"(clairvoyant is per game the better of its beam and the planner; the beam alone "
          f"averages {raw:.1f})")
    print(f"planner / greedy      {pm / gm:.2f}  (aim >= 2.00)")
    print(f"planner / clairvoyant {pm / cm:.2f}  (aim >= 0.85)")
    print(f"planner time per decision: mean {1000 * statistics.mean(times):.0f} ms, "
          f"median {1000 * statistics.median(times):.0f} ms, max {1000 * max(times):.0f} ms "
          f"(aim < 2000 ms)", flush=True)

if __name__ == "__main__":
    main()
