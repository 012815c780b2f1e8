"""Box within a Box within a Box: the hard bot's picks on its own box against expectimax.

Plays hard-against-hard matches through the full engine (:class:`arena.core.match.Match` on a
simulated clock, the bots' real decisions with the engine's own seeds), and before each pick a
hard seat makes on its own box (a seat with stakes on it) values every legal pick by
expectimax: the seat maximises in its own rounds, the opponent's rounds are the deck's odds
(every playable card, then every legal movement of it, alike: the opponent does not see the
bets), a landing is worth the seat's stakes times the multipliers of the bets it meets (BX-5).
The bot's pick is then valued the same way. Figures:

- the **plain** ratio (mean over decisions of value / best) and the **stake-weighted** one
  (sum of stake x value over sum of stake x best, stake = the seat's stakes that bout);
- a 95% **bootstrap interval** of the stake-weighted ratio, resampling whole *matches* (the
  decisions of one match share its stakes, which grow bout after bout, so they are not
  independent); matches are added until the interval is narrower than ``--width`` points
  (1), between ``--min-matches`` and ``--max-matches``;
- the **worst picks** (seed, bout, round, seat, share of the best);
- the hard bot's **decision time** p50 / p99 / max per phase kind against the phase's limit.

Seeds are drawn at run time from a printed run seed; ``--seed`` repeats a run. One process
(the machine is shared); run it under ``nice``:

    nice -n 10 env PYTHONPATH=src .venv/bin/python bench/yardstick_boxes.py
    nice -n 10 env PYTHONPATH=src .venv/bin/python bench/yardstick_boxes.py --seed 12345
"""

from __future__ import annotations

import argparse
import math
import random
import secrets
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from arena.core.clock import ManualClock
from arena.core.driver import BotTracker, bot_apply, bot_think, bots_to_think
from arena.core.match import Match, MatchSettings
from arena.core.registry import get_game
from arena.games.boxes.review import own_pick_values
from arena.games.boxes.state import PICK

RESAMPLES = 4000


@dataclass
class Decision:
    seed: int
    bout: int
    round: int
    seat: int
    stake: float
    value: float
    best: float


@dataclass
class Played:
    seed: int
    decisions: list[Decision] = field(default_factory=list)
    times: list[tuple[str, float, float]] = field(default_factory=list)
    """(phase kind, seconds the hard bot took, the phase's limit at time scale 1)."""


def play(seed: int, opponent: str) -> Played:
    """One match, hard in seat 0 against ``opponent`` in seat 1 (both measured when both are
    hard), timing every decision and valuing every own-box pick."""
    game = get_game("boxes")
    match = Match(game, game.default_config(), seed, ManualClock(0.0),
                  MatchSettings(bot_pace="instant"))
    levels = {0: "hard", 1: opponent}
    tracker = BotTracker()
    out = Played(seed)
    limit = game.max_phases(match.config) + 10
    while not match.finished:
        while seats := bots_to_think(match, range(match.seats), tracker):
            spec = game.phase(match.state)
            budget = spec.duration if spec is not None else math.inf
            state = match.state
            moves = []
            for seat in seats:
                values = None
                if (levels[seat] == "hard" and state.stage == PICK
                        and state.target_board(seat) == seat and state.bets[seat]):
                    values = own_pick_values(state, seat)
                t0 = time.perf_counter()
                mine = bot_think(game, seed, state, match.phase_no, [seat],
                                 {seat: levels[seat]})  # type: ignore[dict-item]
                dt = time.perf_counter() - t0
                moves += mine
                if levels[seat] == "hard":
                    out.times.append((state.stage, dt, budget))
                if values:
                    stake = float(sum(b.stake for b in state.bets[seat]))
                    value = values.get(mine[0].text or "", 0.0)
                    out.decisions.append(Decision(seed, state.bout, state.round, seat, stake,
                                                  value, max(values.values())))
            bot_apply(match, moves, tracker)
        if match.finished:
            break
        when = match.next_deadline()
        if when is None:
            raise RuntimeError("stalled")
        match.clock.set(max(when, match.clock.now()))  # type: ignore[attr-defined]
        match.advance()
        if match.phase_no > limit:
            raise RuntimeError(f"more than {limit} phases")
    return out


def weighted(rows: list[Played]) -> float:
    num = sum(d.stake * d.value for r in rows for d in r.decisions)
    den = sum(d.stake * d.best for r in rows for d in r.decisions)
    return num / den if den > 0 else 1.0


def interval(rows: list[Played], rng: np.random.Generator) -> tuple[float, float]:
    """95% percentile bootstrap of the stake-weighted ratio over whole matches."""
    num = np.array([sum(d.stake * d.value for d in r.decisions) for r in rows])
    den = np.array([sum(d.stake * d.best for d in r.decisions) for r in rows])
    idx = rng.integers(0, len(rows), size=(RESAMPLES, len(rows)))
    ratios = num[idx].sum(axis=1) / np.maximum(den[idx].sum(axis=1), 1e-300)
    lo, hi = np.percentile(ratios, [2.5, 97.5])
    return float(lo), float(hi)


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def report(rows: list[Played], rng: np.random.Generator, worst: int) -> None:
    ds = [d for r in rows for d in r.decisions]
    plain = statistics.mean(d.value / d.best if d.best > 0 else 1.0 for d in ds)
    lo, hi = interval(rows, rng)
    print(f"decisions: {len(ds)} own-box picks of the hard bot in {len(rows)} matches")
    print(f"plain ratio (mean of value/best): {plain:.2%}")
    print(f"stake-weighted ratio: {weighted(rows):.2%}  95% bootstrap over matches "
          f"{lo:.2%} - {hi:.2%} (width {100 * (hi - lo):.2f} points)")
    below = sorted(ds, key=lambda d: d.value / d.best if d.best > 0 else 1.0)[:worst]
    print("worst picks (seed, bout, round, seat: share of the best, stake):")
    for d in below:
        share = d.value / d.best if d.best > 0 else 1.0
        if share >= 1.0:
            break
        print(f"  {d.seed} bout {d.bout} round {d.round} seat {d.seat + 1}: {share:.1%} "
              f"(value {d.value:.4g} of {d.best:.4g}, stake {d.stake:.4g})")
    short = sum(1 for d in ds if d.value < d.best - 1e-9)
    print(f"picks below the best: {short} of {len(ds)}")
    by: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for r in rows:
        for stage, dt, budget in r.times:
            by[stage].append((dt, budget))
    for stage, xs in sorted(by.items()):
        ts = [t for t, _ in xs]
        print(f"hard bot, {stage}: p50 {pct(ts, 0.5) * 1000:.1f} ms, p99 "
              f"{pct(ts, 0.99) * 1000:.1f} ms, max {max(ts) * 1000:.1f} ms over {len(ts)} "
              f"decisions; phase limit {xs[0][1]:.0f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=None,
                    help="the run's seed (default: drawn afresh, printed)")
    ap.add_argument("--opponent", default="hard", choices=("hard", "normal", "easy"),
                    help="seat 2's level (hard: both seats measured)")
    ap.add_argument("--width", type=float, default=1.0,
                    help="stop when the interval is narrower than this many points (1)")
    ap.add_argument("--min-matches", type=int, default=60)
    ap.add_argument("--max-matches", type=int, default=400)
    ap.add_argument("--step", type=int, default=20, help="matches between interval checks")
    ap.add_argument("--worst", type=int, default=8, help="worst picks listed")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else secrets.randbits(48)
    print(f"bench/yardstick_boxes.py --seed {seed} (match seeds drawn from it; hard against "
          f"{args.opponent})", flush=True)
    rng = random.Random(seed)
    boot = np.random.default_rng(seed)
    rows: list[Played] = []
    t0 = time.perf_counter()
    while len(rows) < args.max_matches:
        rows.append(play(rng.getrandbits(63), args.opponent))
        n = len(rows)
        if n >= args.min_matches and n % args.step == 0:
            lo, hi = interval(rows, boot)
            print(f"  {n} matches, {time.perf_counter() - t0:.0f} s: "
                  f"{weighted(rows):.2%} [{lo:.2%}, {hi:.2%}]", flush=True)
            if 100 * (hi - lo) < args.width:
                break
    print(f"first match seeds: {', '.join(str(r.seed) for r in rows[:3])} ...")
    report(rows, boot, args.worst)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
