"""Light as a Feather: the planning bot against a random-but-legal bot.

Plays N seeded matches of the default scenario (practice + three sessions, through the live
engine on a simulated clock). The planning bot takes seat 1 in even seeds and seat 2 in odd
ones. Prints the win rate and the bot's decision times per tick (median, 99th percentile,
worst; wall and CPU time, as a loaded machine inflates the wall time). Usage: python bench/feather_bot.py [N] [--short]
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from arena.core.clock import ManualClock
from arena.core.match import Match, MatchSettings
from arena.games.feather.match import GAME


def play(seed: int, values: dict[str, object], times: list[float], cpu: list[float]
         ) -> tuple[bool, tuple[float, ...], str]:
    clock = ManualClock(0.0)
    match = Match(GAME, GAME.make_config(values), seed, clock, MatchSettings())
    smart = seed % 2
    rng = random.Random(seed)
    seen = -1
    while not match.finished:
        if match.phase_no != seen:
            seen = match.phase_no
            for seat in (0, 1):
                if seat == smart:
                    t, c = time.perf_counter(), time.process_time()
                    text = GAME.bot(match.state, seat, rng)
                    times.append(time.perf_counter() - t)
                    cpu.append(time.process_time() - c)
                else:
                    text = GAME.random_submission(match.state, seat, rng)
                if text is not None:
                    match.submit(seat, text)
        when = match.next_deadline()
        assert when is not None
        clock.set(when)
        match.advance()
    assert match.result is not None
    return match.result.winner == smart, match.result.scores, match.result.reason


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n = int(args[0]) if args else 100
    values: dict[str, object] = {}
    if "--short" in sys.argv:
        values = {"practice": False, "session_ticks": 20}
    times: list[float] = []
    cpu: list[float] = []
    wins = 0
    margins: list[float] = []
    start = time.perf_counter()
    for seed in range(n):
        won, scores, reason = play(seed, values, times, cpu)
        wins += won
        smart = seed % 2
        margins.append(scores[smart] - scores[1 - smart])
        if not won:
            print(f"  seed {seed}: lost ({reason}); scores {scores}")
    wall = time.perf_counter() - start
    times.sort()
    p99 = times[int(0.99 * (len(times) - 1))]
    print(f"matches: {n} ({'short' if values else 'default scenario'}), wall {wall:.1f} s "
          f"({wall / n:.2f} s per match)")
    print(f"planning bot wins: {wins}/{n} = {100 * wins / n:.0f}%")
    print(f"points margin (bot - random): median {statistics.median(margins):.1f}, "
          f"min {min(margins):.1f}")
    print(f"decision time per tick: median {1000 * statistics.median(times):.2f} ms, "
          f"p99 {1000 * p99:.1f} ms, worst {1000 * times[-1]:.1f} ms over {len(times)} decisions")
    cpu.sort()
    print(f"decision CPU time per tick: median {1000 * statistics.median(cpu):.2f} ms, "
          f"p99 {1000 * cpu[int(0.99 * (len(cpu) - 1))]:.1f} ms, worst {1000 * cpu[-1]:.1f} ms")


if __name__ == "__main__":
    main()
