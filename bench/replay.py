"""What one replay request costs on a long match (issue 25 point 5).

Builds a Locked Out! match of about ``--events`` log entries (six random players, a chat line
after every action, the clock moving on), as a live server holds it (a checkpoint offered
after every command), then times the work of ``GET /replay?version=V`` for the last, the
middle and an early version:

- *from the start*: replaying every input up to V (what the server did before);
- *from a checkpoint*: :meth:`Match.replay_to` (what it does now), plus the view;
- the same for a match rebuilt by :meth:`Match.replay`, as after a restart.

    .venv/bin/python bench/replay.py [--events 10000] [--repeat 15]

Prints the median and the worst of ``--repeat`` runs in milliseconds.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from arena.core.clock import ManualClock  # noqa: E402
from arena.core.errors import RuleError  # noqa: E402
from arena.core.match import HOST, INPUT_KINDS, Match, MatchSettings  # noqa: E402
from arena.core.registry import get_game  # noqa: E402
from arena.server.games import load_games  # noqa: E402


def long_match(events: int, seed: int) -> Match:
    load_games()
    game = get_game("lockedout")
    config = game.make_config({"max_rounds": 0})
    clock = ManualClock(1_000_000.0)
    rng = random.Random(seed)
    while True:
        m = Match(game, config, seed, clock, MatchSettings())
        while m.version < events and not m.finished:
            spec = m.spec
            assert spec is not None
            seat = rng.choice(sorted(spec.actors))
            text = game.random_submission(m.state, seat, rng)
            try:
                if text is not None:
                    m.submit(seat, text, final=rng.random() < 0.4)
            except RuleError:
                pass
            m.checkpoint()
            with contextlib.suppress(RuleError):
                m.chat(seat, "table", f"line {m.version}")
            m.checkpoint()
            clock.set(clock.now() + rng.random() * 600)
            m.advance()
            m.checkpoint()
        if m.version >= events:
            return m
        seed += 1  # the match ended early: a longer one


def from_start(m: Match, version: int) -> None:
    t = m.log[version - 1].t
    inputs = [e for e in m.log if e.kind in INPUT_KINDS and e.version <= version]
    replayed = Match.replay(m.game, m.config, m.seed, m.settings, m.created_at, inputs,
                            ManualClock(t), until=t)
    replayed.view(HOST)


def from_checkpoint(m: Match, version: int) -> None:
    m.replay_to(version).view(HOST)


def timed(fn: Callable[[], None], repeat: int) -> tuple[float, float]:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - start) * 1000)
    return statistics.median(runs), max(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    live = long_match(args.events, args.seed)
    restarted = Match.replay(live.game, live.config, live.seed, live.settings, live.created_at,
                             live.inputs(), ManualClock(live.log[-1].t), until=live.log[-1].t)
    assert restarted.snapshot()[:-1] == live.replay_to(live.version).snapshot()[:-1]
    print(f"Locked Out! match of {live.version} log entries "
          f"({sum(e.kind in INPUT_KINDS for e in live.log)} inputs), "
          f"{len(live._checkpoints)} checkpoints; median / worst of {args.repeat}, ms")
    for label, version in (("last", live.version), ("middle", live.version // 2),
                           ("early", 40)):
        before = timed(lambda v=version: from_start(live, v), max(3, args.repeat // 5))
        after = timed(lambda v=version: from_checkpoint(live, v), args.repeat)
        again = timed(lambda v=version: from_checkpoint(restarted, v), args.repeat)
        print(f"  {label:>6} (v{version:>6}): from the start {before[0]:8.1f} / {before[1]:8.1f}"
              f"   from a checkpoint {after[0]:6.2f} / {after[1]:6.2f}"
              f"   after a restart {again[0]:6.2f} / {again[1]:6.2f}")


if __name__ == "__main__":
    main()
