"""Lockmaker's builder against its yardstick: the hardest-lock generator at its full default.

For ``--hands`` DISTINCT board-and-hand pairs drawn at run time (the run's seed is printed;
``--seed`` repeats a run, ``--hand-seed`` replays one hand), this runs

- the yardstick: :func:`arena.games.lockmaker.fast.generator.generate` at its default budget
  (``seconds=10.0``, the budget of ``arena lockmaker generate --seconds 10``; ``--searches N``
  runs N independent searches one after the other and keeps the best, as the CLI's one search
  per core does, without a second process). The budget is counted in this process's CPU
  seconds unless ``--wall`` is given, so a busy machine does not weaken the yardstick;
- the hard bot's builder (:func:`arena.games.lockmaker.builder.build_hardest` at the config's
  ``bot_placements``), timed (wall and CPU),

and checks every lock (legal for the hand, LM-15; its count confirmed by the solver, LM-9).
It prints the median of bot / generator with a 95% bootstrap interval, n, the minimum, the
worst hands, the hands with an axis apart from the others, and the builder's time p50/p99
against the build phase (LM-15) and the bot's thinking budget (G-11).

Boards are 6x6 to 9x9 with a few blocked cells (a corner block, scattered cells or none), like
the default rounds; pools are 7 to 9 pieces with up to two axes; each hand is the one the hard
bot drafts (its own draft) against a random drafter.

    nice -n 10 env PYTHONPATH=src .venv/bin/python bench/yardstick_lockmaker.py
        [--hands 100] [--seconds 10] [--searches 1] [--walks N] [--seed S] [--wall]
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import random
import secrets
import statistics
import sys
import time
import types
from dataclasses import dataclass

from arena.core.errors import RuleError
from arena.games.lockmaker.board import Board
from arena.games.lockmaker.builder import build_hardest, thinking_budget
from arena.games.lockmaker.fast import generator as genmod
from arena.games.lockmaker.fast.api import fast_solve
from arena.games.lockmaker.lockfile import write_board
from arena.games.lockmaker.match import LMState, LockmakerConfig, LockmakerGame
from arena.games.lockmaker.pieces import PieceKind, format_piece_list, parse_piece
from arena.games.lockmaker.position import Position
from arena.games.lockmaker.rounds import DEFAULT_ROUNDS
from arena.games.lockmaker.validate import construction_problems

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lockmaker_builder import draft_against_random  # the same drafter as that bench

DEFAULT_SECONDS = float(inspect.signature(genmod.generate).parameters["seconds"].default)
"""The generator's own default budget (what ``arena lockmaker generate`` runs by default)."""


def random_board(rng: random.Random) -> Board:
    """A board like the default rounds': 6x6 to 9x9, a corner block, scattered cells or
    none (the open area stays compact, so every drafted hand fits)."""
    w, h = rng.randint(6, 9), rng.randint(6, 9)
    blocked: set[int] = set()
    style = rng.random()
    if style < 0.4 and min(w, h) >= 7:
        bw, bh = rng.randint(1, 3), rng.randint(1, 3)
        corner = rng.choice(["tl", "tr"])  # never the keyhole's sides (bottom, right)
        for r in range(bh):
            for c in range(bw):
                blocked.add(r * w + (c if corner == "tl" else w - 1 - c))
    if style < 0.9:
        for _ in range(rng.randint(1, 3)):
            blocked.add(rng.randrange(w * h))
    return Board(w, h, frozenset(blocked))


def random_pool(rng: random.Random) -> tuple[PieceKind, ...]:
    bars = [rng.choice(["H2", "H2", "H3", "V2", "V2", "V3"]) for _ in range(rng.randint(6, 8))]
    axes = ["X"] * rng.choice([0, 1, 1, 2])
    return tuple(sorted(parse_piece(p) for p in bars + axes))


def drafted(rng: random.Random, pool_in: tuple[PieceKind, ...]) -> tuple[PieceKind, ...]:
    """The hand the hard bot drafts against a random drafter (``lockmaker_builder``'s)."""
    return tuple(sorted(draft_against_random(rng, pool_in)))


def draw_hand(hand_seed: int) -> tuple[Board, tuple[PieceKind, ...]]:
    """One board-and-hand pair from its seed (a default round's board a fifth of the time)."""
    rng = random.Random(hand_seed)
    if rng.random() < 0.2:
        rnd = rng.choice(DEFAULT_ROUNDS)
        board, pool = rnd.board, rnd.pool
    else:
        board, pool = random_board(rng), random_pool(rng)
    return board, drafted(rng, pool)


class _CpuClock(types.ModuleType):
    """The generator's ``time`` module with ``monotonic`` reading this process's CPU time:
    its seconds budget then buys the same search on a busy machine as on an idle one."""

    def __init__(self) -> None:
        super().__init__("time")
        self.monotonic = time.process_time  # type: ignore[method-assign]
        self.process_time = time.process_time  # type: ignore[method-assign]


def checked(lock: Position, board: Board, hand: tuple[PieceKind, ...], moves: int,
            who: str) -> int:
    problems = construction_problems(lock, hand, board)
    res = fast_solve(lock)
    if problems or res.moves != moves:
        sys.exit(f"{who}: bad lock ({problems or f'count {res.moves} != {moves}'})")
    return moves


@dataclass
class Row:
    hand_seed: int
    board: Board
    hand: tuple[PieceKind, ...]
    gen: int
    gen_walks: int
    bot: int
    bot_walks: int
    wall: float
    cpu: float

    @property
    def ratio(self) -> float:
        return max(self.bot, 0) / self.gen if self.gen > 0 else 1.0

    @property
    def axis(self) -> bool:
        return any(p.is_axis for p in self.hand)


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def boot_median(xs: list[float], rng: random.Random, n: int = 4000) -> tuple[float, float]:
    """The 95% percentile-bootstrap interval of the median."""
    meds = sorted(statistics.median(rng.choices(xs, k=len(xs))) for _ in range(n))
    return meds[int(0.025 * n)], meds[int(0.975 * n) - 1]


def summary(name: str, rows: list[Row], rng: random.Random) -> str:
    if not rows:
        return f"{name}: no hands"
    rs = [r.ratio for r in rows]
    lo, hi = boot_median(rs, rng)
    return (f"{name}: median {100 * statistics.median(rs):.1f}% (95% bootstrap "
            f"{100 * lo:.1f}-{100 * hi:.1f}%), n {len(rs)}, min {100 * min(rs):.0f}%, "
            f"mean {100 * statistics.fmean(rs):.1f}%, at >= 90%: {sum(x >= 0.9 for x in rs)}, "
            f"bot >= generator: {sum(r.bot >= r.gen for r in rows)}")


def run_hand(hand_seed: int, seconds: float, searches: int, walks: int,
             known: dict[str, list[int]]) -> Row:
    board, hand = draw_hand(hand_seed)
    rng = random.Random(hand_seed ^ 0x5EED)
    gen_moves, gen_walks = -1, 0
    seeds = [rng.getrandbits(63) for _ in range(searches)]
    key = f"{hand_seed}/{seconds:g}/{searches}"
    if key in known:
        gen_moves, gen_walks = known[key]
        seeds = []
    for s in seeds:
        try:
            g = genmod.generate(board, hand, seconds=seconds, rng=random.Random(s))
        except RuleError:
            continue
        gen_walks += g.searched
        if g.moves > gen_moves:
            gen_moves = checked(g.lock, board, hand, g.moves, "generator")
    known[key] = [gen_moves, gen_walks]
    t0, c0 = time.perf_counter(), time.process_time()
    built = build_hardest(board, hand, random.Random(rng.getrandbits(63)), walks)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    bot = -1 if built is None else checked(built.lock, board, hand, built.moves, "builder")
    return Row(hand_seed, board, hand, gen_moves, gen_walks, bot,
               0 if built is None else built.walks, wall, cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=100, help="distinct board-and-hand pairs")
    ap.add_argument("--seconds", type=float, default=DEFAULT_SECONDS,
                    help=f"the generator's budget per search (its default: {DEFAULT_SECONDS:g})")
    ap.add_argument("--searches", type=int, default=1,
                    help="independent generator searches per hand, best kept (the CLI runs "
                         "one per core)")
    ap.add_argument("--walks", type=int, default=LockmakerConfig().bot_placements,
                    help="the builder's budget in cluster walks (the config's default)")
    ap.add_argument("--wall", action="store_true",
                    help="count the generator's budget on the wall clock (default: CPU time)")
    ap.add_argument("--seed", type=int, default=None, help="the run's seed (default: fresh)")
    ap.add_argument("--hand-seed", type=int, default=None, help="run this one hand only")
    ap.add_argument("--cache", default=None,
                    help="a JSON file of the generator's results by hand (for developing the "
                         "builder against the same yardstick; a final run goes without)")
    ap.add_argument("--worst", type=int, default=8, help="worst hands listed")
    args = ap.parse_args()
    if not args.wall:
        genmod.time = _CpuClock()  # type: ignore[assignment]
    seed = secrets.randbits(48) if args.seed is None else args.seed
    rng = random.Random(seed)
    cfg = LockmakerConfig()
    low, _ = LockmakerGame().bot_think_time(LMState(cfg, DEFAULT_ROUNDS, stage="build"), 0)
    budget = thinking_budget(cfg.build, low)
    print(f"bench/yardstick_lockmaker.py --seed {seed}: {args.hands} distinct hands; generator "
          f"{args.seconds:g} {'wall' if args.wall else 'CPU'} s x {args.searches} search(es); "
          f"builder {args.walks} walks", flush=True)
    seen: set[tuple[str, str]] = set()
    seeds: list[int] = []
    if args.hand_seed is not None:
        seeds = [args.hand_seed]
    while len(seeds) < args.hands and args.hand_seed is None:
        s = rng.getrandbits(63)
        board, hand = draw_hand(s)
        key = (write_board(board), format_piece_list(hand))
        if hand and key not in seen:
            seen.add(key)
            seeds.append(s)
    print(f"{'#':>3} {'hand seed':>20} {'board':>5} {'hand':<22} {'gen':>4} {'bot':>4} "
          f"{'ratio':>6} {'g.walks':>7} {'wall s':>7} {'cpu s':>6}")
    rows: list[Row] = []
    known: dict[str, list[int]] = {}
    if args.cache and os.path.exists(args.cache):
        with open(args.cache) as f:
            known = json.load(f)
    for i, s in enumerate(seeds, 1):
        r = run_hand(s, args.seconds, args.searches, args.walks, known)
        rows.append(r)
        if args.cache:
            with open(args.cache, "w") as f:
                json.dump(known, f)
        print(f"{i:>3} {s:>20} {r.board.width}x{r.board.height:<3} "
              f"{format_piece_list(r.hand):<22} {r.gen:>4} {r.bot:>4} {100 * r.ratio:>5.0f}% "
              f"{r.gen_walks:>7} {r.wall:>7.2f} {r.cpu:>6.2f}", flush=True)
    brng = random.Random(seed ^ 0xB007)
    print()
    print(summary("all hands", rows, brng))
    print(summary("hands with an axis", [r for r in rows if r.axis], brng))
    print(summary("hands without an axis", [r for r in rows if not r.axis], brng))
    print("worst hands (hand seed, board, hand, bot / generator moves):")
    for r in sorted(rows, key=lambda r: (r.ratio, r.hand_seed))[:args.worst]:
        print(f"  {r.hand_seed} {r.board.width}x{r.board.height} "
              f"{format_piece_list(r.hand)}: {r.bot} / {r.gen} ({100 * r.ratio:.0f}%)")
    walls, cpus = [r.wall for r in rows], [r.cpu for r in rows]
    print(f"builder time ({args.walks} walks): wall p50 {pct(walls, 0.5):.2f} s p99 "
          f"{pct(walls, 0.99):.2f} s max {max(walls):.2f} s; CPU p50 {pct(cpus, 0.5):.2f} s "
          f"p99 {pct(cpus, 0.99):.2f} s; build phase {cfg.build:g} s (LM-15), bot thinking "
          f"budget {budget:g} s (G-11): {'within' if pct(walls, 0.99) <= budget else 'OVER'}")


if __name__ == "__main__":
    main()
