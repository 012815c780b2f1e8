"""Six Locked Out! bots over many seeds: does every match finish, how many safes open, how many
seats escape, how long a match and the deduction helper take.

    .venv/bin/python bench/lockedout_bots.py [SEEDS]
"""

from __future__ import annotations

import statistics
import sys
import time

from arena.core.driver import simulate
from arena.games.lockedout import GAME, knowledge
from arena.games.lockedout import deduce as deduce_mod


def main(seeds: int = 100) -> None:
    calls: list[float] = []
    plain = deduce_mod.deduce

    def timed(obs: deduce_mod.Observations) -> deduce_mod.Deduction:
        t = time.perf_counter()
        out = plain(obs)
        calls.append(time.perf_counter() - t)
        return out

    knowledge.deduce = timed  # type: ignore[assignment]
    finished = 0
    opened, escaped, rounds, secs, winners = [], [], [], [], 0
    for seed in range(seeds):
        knowledge.cached_deduce.cache_clear()
        t = time.perf_counter()
        match = simulate(GAME, seed)
        secs.append(time.perf_counter() - t)
        result = match.result
        if result is None:
            continue
        finished += 1
        opened.append(result.detail["opened_safes"])
        escaped.append(len(result.detail["escaped"]))
        rounds.append(match.state.round)
        winners += result.winner is not None
    print(f"matches finished: {finished}/{seeds}")
    print(f"safes opened: mean {statistics.mean(opened):.2f}, median {statistics.median(opened)}, "
          f"min {min(opened)}, max {max(opened)}")
    print(f"seats escaped: mean {statistics.mean(escaped):.2f}, median "
          f"{statistics.median(escaped)}, min {min(escaped)}, max {max(escaped)}")
    print(f"rounds: mean {statistics.mean(rounds):.2f}, max {max(rounds)}")
    print(f"single winner in {winners}/{finished}")
    print(f"match time: median {statistics.median(secs) * 1000:.0f} ms, "
          f"max {max(secs) * 1000:.0f} ms")
    print(f"deduction helper: {len(calls)} calls, median {statistics.median(calls) * 1000:.2f} ms, "
          f"worst {max(calls) * 1000:.2f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
