"""Lockmaker builder vs the hardest-lock generator (issue 30 point 3).

For N hands (seeds drawn afresh each run unless ``--seed`` is given, and printed), each the
hand the bot drafts against a random drafter in one of the default rounds, this prints the
moves the bot's lock needs (the old builder: the generator cut at ``--old-walks`` walks; the
new one: :mod:`arena.games.lockmaker.builder` at its default walk budget) next to the moves of
``arena lockmaker generate --seconds 10`` (the same search, on ``--jobs`` cores, for
``--seconds``) for the same pieces. Then the median of the per-hand ratios (bot / generator)
before and after, and the new builder's build time, p50/p99, wall and CPU, against the build
phase's thinking budget.

    PYTHONPATH=src .venv/bin/python bench/lockmaker_builder.py [--hands 50] [--seconds 10]
        [--jobs 2] [--walks N] [--old-walks 80] [--seed S]

Every lock the builders return is checked: legal for the hand (LM-15, ``validate.py``) and
its count confirmed by the fast solver (LM-9).
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import sys
import time

from arena.core.errors import RuleError
from arena.games.lockmaker.bot import draft_pick
from arena.games.lockmaker.builder import BUILD_WALKS, build_hardest, thinking_budget
from arena.games.lockmaker.construct import buildable
from arena.games.lockmaker.fast.api import fast_solve
from arena.games.lockmaker.fast.generator import generate
from arena.games.lockmaker.fast.jobs import generate_jobs
from arena.games.lockmaker.match import LMState, LockmakerConfig, LockmakerGame
from arena.games.lockmaker.pieces import PieceKind, format_piece_list, parse_piece
from arena.games.lockmaker.position import Position
from arena.games.lockmaker.rounds import DEFAULT_ROUNDS, Round
from arena.games.lockmaker.validate import construction_problems


def draft_against_random(rng: random.Random, pool_in: tuple[PieceKind, ...]
                         ) -> tuple[PieceKind, ...]:
    """The hand the bot drafts from ``pool_in`` (:func:`draft_pick`, LM-14 snake order, either
    seat first) against an opponent who picks random buildable pieces and sometimes stops;
    shared with ``bench/yardstick_lockmaker.py``."""
    pool = list(pool_in)
    hands: list[tuple[PieceKind, ...]] = [(), ()]
    stopped = [False, False]
    bot, first = rng.randrange(2), rng.randrange(2)
    turn = 0
    while pool and not all(stopped):
        seat = first if turn % 2 == 0 else 1 - first
        if stopped[seat]:
            seat = 1 - seat
        picks = 1 if turn == 0 else 2
        if seat == bot:
            names = [t for t in draft_pick(hands[seat], tuple(pool), picks, rng).split(",") if t]
        else:
            names = []
            for p in rng.sample(pool, len(pool)):
                if len(names) < rng.randint(1, picks) and buildable(
                        (*hands[seat], *(parse_piece(n) for n in names), p)):
                    names.append(str(p))
            if rng.random() < 0.1 or not names:
                names.append("stop")
        for name in names:
            if name == "stop":
                stopped[seat] = True
                continue
            piece = parse_piece(name)
            pool.remove(piece)
            hands[seat] = (*hands[seat], piece)
        turn += 1
    return hands[bot]


def drafted_hand(rng: random.Random) -> tuple[int, Round, tuple[PieceKind, ...]]:
    """A default round and the hand the bot drafts there (:func:`draft_against_random`)."""
    while True:
        no = rng.randrange(len(DEFAULT_ROUNDS))
        rnd = DEFAULT_ROUNDS[no]
        hand = draft_against_random(rng, tuple(rnd.pool))
        if hand:
            return no + 1, rnd, hand


def checked(lock: Position, hand: tuple[PieceKind, ...], moves: int, who: str) -> int:
    problems = construction_problems(lock, hand)
    res = fast_solve(lock)
    if problems or res.moves != moves:
        sys.exit(f"{who}: bad lock ({problems or 'count ' + str(res.moves) + ' != ' + str(moves)})")
    return moves


def old_builder(rnd: Round, hand: tuple[PieceKind, ...], seed: int, walks: int) -> int:
    """The builder before issue 30: the same search cut at the old default of 80 walks."""
    try:
        res = generate(rnd.board, hand, seconds=None, rng=random.Random(seed), placements=walks)
    except RuleError:
        return -1
    return checked(res.lock, hand, res.moves, "old builder")


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=10.0,
                    help="the generator's seconds per hand (arena lockmaker generate)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="the generator's parallel searches (its default: one per core)")
    ap.add_argument("--walks", type=int, default=BUILD_WALKS, help="the new builder's budget")
    ap.add_argument("--old-walks", type=int, default=80, help="the old builder's budget")
    ap.add_argument("--seed", type=int, default=None, help="default: drawn afresh")
    args = ap.parse_args()
    seed = secrets.randbits(32) if args.seed is None else args.seed
    rng = random.Random(seed)
    cfg = LockmakerConfig()
    low, _high = LockmakerGame().bot_think_time(
        LMState(cfg, DEFAULT_ROUNDS, stage="build"), 0)
    budget = thinking_budget(cfg.build, low)
    print(f"seed {seed}; {args.hands} hands; generator {args.seconds:g} s x {args.jobs} jobs; "
          f"builder {args.walks} walks (old: {args.old_walks}); load {os.getloadavg()[0]:.1f}")
    print(f"build phase {cfg.build:g} s; bot think time at human pace from {low:g} s "
          f"(G-11): thinking budget {budget:g} s at time scale 1")
    print(f"{'#':>3} {'round':>5} {'hand':<24} {'gen':>4} {'old':>4} {'new':>4} "
          f"{'old%':>5} {'new%':>5} {'walks':>6} {'wall s':>7} {'cpu s':>6}")
    old_r: list[float] = []
    new_r: list[float] = []
    walls: list[float] = []
    cpus: list[float] = []
    for i in range(args.hands):
        no, rnd, hand = drafted_hand(rng)
        hand_seed = rng.getrandbits(63)
        gen = generate_jobs(rnd.board, hand, jobs=args.jobs, seconds=args.seconds,
                            rng=random.Random(hand_seed))
        g = checked(gen.lock, hand, gen.moves, "generator")
        old = old_builder(rnd, hand, hand_seed, args.old_walks)
        t0, c0 = time.perf_counter(), time.process_time()
        built = build_hardest(rnd.board, hand, random.Random(hand_seed), args.walks)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        new = -1 if built is None else checked(built.lock, hand, built.moves, "builder")
        walls.append(wall)
        cpus.append(cpu)
        old_r.append(max(old, 0) / g if g > 0 else 1.0)
        new_r.append(max(new, 0) / g if g > 0 else 1.0)
        print(f"{i + 1:>3} {no:>5} {format_piece_list(hand):<24} {g:>4} {old:>4} {new:>4} "
              f"{100 * old_r[-1]:>4.0f}% {100 * new_r[-1]:>4.0f}% "
              f"{built.walks if built else 0:>6} {wall:>7.2f} {cpu:>6.2f}", flush=True)
    print(f"median ratio bot / generator: before {100 * statistics.median(old_r):.0f}% "
          f"(min {100 * min(old_r):.0f}%), after {100 * statistics.median(new_r):.0f}% "
          f"(min {100 * min(new_r):.0f}%); hands at >= 90%: before "
          f"{sum(r >= 0.9 for r in old_r)}, after {sum(r >= 0.9 for r in new_r)} of {args.hands}")
    print(f"build time ({args.walks} walks): wall p50 {pct(walls, 0.5):.2f} s p99 "
          f"{pct(walls, 0.99):.2f} s max {max(walls):.2f} s; CPU p50 {pct(cpus, 0.5):.2f} s "
          f"p99 {pct(cpus, 0.99):.2f} s; thinking budget {budget:g} s "
          f"({'within' if pct(walls, 0.99) <= budget else 'OVER'})")


if __name__ == "__main__":
    main()
