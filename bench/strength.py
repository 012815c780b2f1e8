"""How strong the bots are, per game: the figures of issue 30's acceptance.

Every match is played through the full engine (:class:`arena.core.match.Match` on a simulated
clock, as ``arena simulate`` plays it), with seeds drawn afresh each run and printed, so a run
can be repeated with ``--seed``. For each game it prints:

- **levels** (G-8, issue 30 point 5): in every two-seat game ``hard`` against ``normal`` and
  ``normal`` against ``easy`` over ``--matches`` matches (40), the seats alternated; the
  stronger level's win rate (acceptance: >= 70%). Locked Out!: one ``hard`` seat among five
  ``easy`` ones (the hard seat moving round the table); its escape rate against theirs.
- **Locked Out! fair seats**: escape rate per seat over ``--lo-matches`` six-bot matches (300;
  ``bench/lockedout_seats.py``'s measure and report); acceptance: every seat within 10 points
  of the mean.
- **Boxes**: the hard bot's picks on its own box as a fraction of the expectimax-optimal value,
  weighted by its stake, over every such decision of the level matches (acceptance: >= 99%
  over >= 200 decisions). Expectimax here: the bot maximises in its own rounds and the
  opponent plays every card and movement alike (the deck's odds, no knowledge of the bets).
- **Paint**: the hard bot's mean score against the clairvoyant yardstick on the same sets and
  presentation seed (``bench/yardstick_paint.py``'s measure; acceptance: >= 0.95).
- **Lockmaker**: the moves the hard bot's built locks need against the generator's lock for
  the same board and hand in ``--lm-seconds`` (``arena lockmaker generate --seconds 10``;
  acceptance: median >= 90% over >= 50 hands), hands taken from the level matches.
- **latency**: each level's decision time per phase, p50 / p99 / max, against the phase's
  time limit at time scale 1 (acceptance: hard's p99 within it).

    .venv/bin/python bench/strength.py                       # everything (long: an hour or so)
    .venv/bin/python bench/strength.py --game boxes --matches 10
    .venv/bin/python bench/strength.py --game lockedout --lo-matches 60 --seed 12345
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import secrets
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.core import rng as rngmod
from arena.core.clock import ManualClock
from arena.core.driver import BotTracker, bot_apply, bot_think, bots_to_think
from arena.core.match import Match, MatchSettings
from arena.core.registry import get_game

sys.path.insert(0, str(Path(__file__).parent))
from lockedout_seats import wilson  # the fair-seats bench's own interval

TWO_SEAT = ("lockmaker", "boxes", "paint", "feather")
PAIRS = (("hard", "normal"), ("normal", "easy"))


@dataclass
class Played:
    """One match: who won, the levels by seat, and what the measures need."""

    game: str
    seed: int
    levels: tuple[str, ...]
    winner: int | None
    escaped: tuple[int, ...] = ()
    times: list[tuple[str, str, float, float]] = field(default_factory=list)
    """(level, phase name, seconds the decision took, the phase's limit at scale 1)."""
    boxes: list[tuple[float, float, float]] = field(default_factory=list)
    """Boxes, hard seat's own box: (stake, value of its pick, best value)."""
    builds: list[tuple[str, str, int]] = field(default_factory=list)
    """Lockmaker, hard seat: (board file, hand, moves its lock needs)."""
    paint: list[tuple[tuple[str, ...], int, float]] = field(default_factory=list)
    """Paint, hard seat: (the sets it played, presentation seed, its score)."""


def play(game_name: str, seed: int, levels: tuple[str, ...]) -> Played:
    """A whole match with a bot at ``levels[s]`` in every seat, timing every decision."""
    game = get_game(game_name)
    config = game.default_config()
    if game_name == "lockedout":
        config = game.make_config(game.config_for_seats({}, [f"Bot {i + 1}" for i in
                                                             range(len(levels))]))
    clock = ManualClock(0.0)
    match = Match(game, config, seed, clock, MatchSettings(bot_pace="instant"))
    tracker = BotTracker()
    out = Played(game_name, seed, levels, None)
    by_seat = dict(enumerate(levels))
    limit = game.max_phases(match.config) + 10
    while not match.finished:
        while seats := bots_to_think(match, range(match.seats), tracker):
            spec = game.phase(match.state)
            budget = spec.duration if spec is not None else math.inf
            name = spec.name if spec is not None else "?"
            moves = []
            for seat in seats:
                _measure(game_name, match, seat, by_seat[seat], out)
                t0 = time.perf_counter()
                moves += bot_think(game, seed, match.state, match.phase_no, [seat],
                                   {seat: by_seat[seat]})  # type: ignore[dict-item]
                out.times.append((by_seat[seat], name, time.perf_counter() - t0, budget))
            bot_apply(match, moves, tracker)
        if match.finished:
            break
        when = match.next_deadline()
        if when is None:
            raise RuntimeError("stalled")
        clock.set(max(when, clock.now()))
        match.advance()
        if match.phase_no > limit:
            raise RuntimeError(f"{game_name}: more than {limit} phases")
    assert match.result is not None
    out.winner = match.result.winner
    if game_name == "lockedout":
        out.escaped = tuple(match.state.escaped())
    if game_name == "paint":
        for seat, level in by_seat.items():
            if level == "hard":
                _paint_record(match, seat, out)
    return out


def _measure(game_name: str, match: Match, seat: int, level: str, out: Played) -> None:
    """Before a hard seat decides: what the game's own measure needs of this decision."""
    if level != "hard":
        return
    state = match.state
    if game_name == "boxes":
        from arena.games.boxes.state import PICK
        if state.stage == PICK and state.target_board(seat) == seat and state.bets[seat]:
            out.boxes.append(_boxes_decision(state, seat, match))
    elif game_name == "lockmaker" and state.stage == "build":
        from arena.games.lockmaker import bot as lmbot
        from arena.games.lockmaker.lockfile import read_lock, write_board
        text = lmbot.build_lock(state, seat, rngmod.derive(match.seed, "bot", match.phase_no,
                                                           seat))
        if text is not None:
            lock = read_lock(text)
            res = lmbot.cached_solve(lock, lmbot.SOLVE_BUDGET)
            if res.moves is not None:
                out.builds.append((write_board(state.current.board),
                                   ",".join(str(p) for p in state.hands[seat]), res.moves))


def _boxes_decision(state: Any, seat: int, match: Match) -> tuple[float, float, float]:
    """(stake, expectimax value of the bot's pick, the best pick's value) for one decision on
    the bot's own box: its rounds maximise, the opponent's are the deck's odds (every playable
    card and movement alike), weights are the bets' stakes times their multipliers (the
    review's and ``bench/yardstick_boxes.py``'s yardstick)."""
    from arena.games.boxes import bot as bxbot
    from arena.games.boxes.review import own_pick_values

    values = own_pick_values(state, seat)
    chosen = bxbot.decide(state, seat, rngmod.derive(match.seed, "bot", match.phase_no, seat))
    stake = float(sum(b.stake for b in state.bets[seat]))
    best = max(values.values(), default=0.0)
    return stake, values.get(chosen or "", 0.0), best


def _paint_record(match: Match, seat: int, out: Played) -> None:
    """The sets the hard seat was given (its opponent's design): the clairvoyant plays them."""
    sets = match.state.boards[seat].sets
    seed = rngmod.derive(match.seed, "bench-paint", seat).randrange(2**31)
    out.paint.append((tuple(sets), seed, 0.0))


# ------------------------------------------------------------------------------ reports
def report_levels(game: str, rows: list[Played]) -> None:
    for strong, weak in PAIRS:
        mine = [r for r in rows if set(r.levels) == {strong, weak}]
        if not mine:
            continue
        wins = sum(1 for r in mine if r.winner is not None and r.levels[r.winner] == strong)
        draws = sum(1 for r in mine if r.winner is None)
        lo, hi = wilson(wins, len(mine))
        ok = "ok" if wins >= 0.7 * len(mine) else "BELOW"
        print(f"  {strong} beats {weak}: {wins}/{len(mine)} = {wins / len(mine):.0%} "
              f"(95% {lo:.0%}-{hi:.0%}; {draws} without a winner; acceptance >= 70%: {ok})")


def report_latency(rows: list[Played]) -> None:
    by: dict[tuple[str, str], list[float]] = defaultdict(list)
    budget: dict[str, float] = {}
    for r in rows:
        for level, name, secs, limit in r.times:
            phase = re.sub(r"\d+", "#", name)  # "bout 3: round 2" -> "bout #: round #"
            by[(level, phase)].append(secs)
            budget[phase] = min(limit, budget.get(phase, math.inf))
    for (level, phase), xs in sorted(by.items()):
        xs.sort()
        p99 = xs[min(len(xs) - 1, math.ceil(0.99 * len(xs)) - 1)]
        ok = "within" if p99 <= budget[phase] else "OVER"
        print(f"  latency {level:<6} {phase:<12} n={len(xs):<5} p50 {1000 * xs[len(xs) // 2]:7.1f}"
              f" ms  p99 {1000 * p99:8.1f} ms  max {1000 * xs[-1]:8.1f} ms  budget "
              f"{budget[phase]:g} s ({ok})")


def report_lockedout_levels(rows: list[Played]) -> None:
    mixed = [r for r in rows if r.levels.count("hard") == 1]
    if not mixed:
        return
    hard = sum(1 for r in mixed if r.levels.index("hard") in r.escaped)
    easy = sum(sum(1 for s in r.escaped if r.levels[s] == "easy") for r in mixed)
    n = len(mixed)
    ok = "ok" if hard / n > easy / (5 * n) else "BELOW"
    print(f"  one hard among five easy, {n} matches: hard escapes {hard / n:.0%}, each easy "
          f"{easy / (5 * n):.0%} on average (acceptance: hard higher: {ok})")


def report_seats(rows: list[Played]) -> None:
    n = len(rows)
    seats = len(rows[0].levels)
    counts = [sum(s in r.escaped for r in rows) for s in range(seats)]
    rates = [c / n for c in counts]
    mean = sum(rates) / seats
    print(f"  fair seats, {n} six-bot matches (hard): mean escape rate {mean:.1%}")
    for s, (c, rate) in enumerate(zip(counts, rates, strict=True)):
        lo, hi = wilson(c, n)
        print(f"    seat {s + 1}: {rate:6.1%} ({lo:.1%}-{hi:.1%})  {(rate - mean) * 100:+5.1f} pts")
    spread = max(abs(r - mean) for r in rates) * 100
    print(f"  widest gap from the mean {spread:.1f} pts (acceptance: within 10: "
          f"{'ok' if spread <= 10 else 'BELOW'})")


def report_boxes(rows: list[Played]) -> None:
    ds = [d for r in rows for d in r.boxes]
    if not ds:
        return
    plain = statistics.mean(v / b if b > 0 else 1.0 for _, v, b in ds)
    weighted = sum(s * v for s, v, _ in ds) / max(1e-9, sum(s * b for s, _, b in ds))
    print(f"  Boxes: {len(ds)} own-box decisions of the hard bot: {plain:.1%} of the "
          f"expectimax-optimal value per decision, {weighted:.1%} stake-weighted "
          f"(acceptance: >= 99% over >= 200; bench/yardstick_boxes.py gives the interval)")


def _paint_pair(task: tuple[tuple[str, ...], int]) -> tuple[int, int, bool]:
    """The hard bot's score, the yardstick's (handed the bot's grid, so never below it), and
    whether the yardstick proved its score best."""
    from arena.games.paint.bot import HARD
    from arena.games.paint.episode import play_episode
    from arena.games.paint.scoring import score_value
    from arena.games.paint.yardstick import Yardstick
    sets, seed = task
    grid = play_episode(HARD, sets, seed).grid
    sol = Yardstick().solve(sets, seed, given=[grid])
    return score_value(grid), sol.score, sol.proven


def report_paint(rows: list[Played], jobs: int, seeds: int = 1) -> None:
    """The match bot's planner on the sets its opponent designed in the level matches, and
    the clairvoyant yardstick (:class:`arena.games.paint.yardstick.Yardstick`) on the same
    sets and showings (a match draws its showings from the match's own chance, which the
    yardstick cannot be handed, so both play one fresh presentation seed;
    ``bench/yardstick_paint.py`` is the fuller bench)."""
    got = [(p[0], p[1] if k == 0 else rngmod.derive(p[1], "again", k).randrange(2**31))
           for r in rows for p in r.paint if p[0] for k in range(seeds)]
    if not got:
        return
    with ProcessPoolExecutor(jobs) as pool:
        triples = list(pool.map(_paint_pair, got))
    pairs = [(b, y) for b, y, _ in triples]
    proven = sum(1 for _, _, p in triples if p)
    bots = [b for b, _ in pairs]
    yards = [y for _, y in pairs]
    bot, yard = statistics.mean(bots), statistics.mean(yards)
    ratio = bot / yard
    n = len(pairs)
    # the ratio's standard error by the delta method over the paired designs
    se = (statistics.stdev([b - ratio * y for b, y in pairs]) / yard / math.sqrt(n)
          if n > 1 else math.nan)
    print(f"  Paint: hard bot mean {bot:.1f} vs yardstick {yard:.1f} over {n} episodes "
          f"({seeds} per design; {proven} proven best): {ratio:.3f} (95% "
          f"{ratio - 1.96 * se:.3f}-{ratio + 1.96 * se:.3f}; acceptance >= 0.95)")


def _generated(args: tuple[str, str, float, int]) -> int:
    from arena.games.lockmaker.fast.generator import generate
    from arena.games.lockmaker.lockfile import read_board
    from arena.games.lockmaker.pieces import parse_piece_list
    board, hand, seconds, seed = args
    gen = generate(read_board(board), parse_piece_list(hand), seconds=seconds,
                   rng=random.Random(seed))
    return int(gen.moves)


def _lm_default_seconds() -> float:
    """The generator's own default budget (``arena lockmaker generate``'s), so the yardstick
    follows it if it changes."""
    import inspect

    from arena.games.lockmaker.fast.generator import generate
    return float(inspect.signature(generate).parameters["seconds"].default)


def report_lockmaker(rows: list[Played], seconds: float, hands: int, jobs: int, seed: int
                     ) -> None:
    builds = [b for r in rows for b in r.builds][:hands]
    if not builds:
        return
    with ProcessPoolExecutor(jobs) as pool:
        gens = list(pool.map(_generated, [(b, h, seconds, seed + i)
                                          for i, (b, h, _) in enumerate(builds)]))
    ratios = [m / g for (_, _, m), g in zip(builds, gens, strict=True) if g > 0]
    distinct = len({(b, h) for b, h, _ in builds})
    print(f"  Lockmaker: {len(ratios)} hands ({distinct} distinct board-and-hand pairs): bot "
          f"locks need a median of {statistics.median(m for _, _, m in builds):g} moves, the "
          f"generator's in {seconds:g} s {statistics.median(gens):g}; bot / generator median "
          f"{statistics.median(ratios):.0%}, lowest {min(ratios):.0%} (acceptance: median "
          f">= 90% at the generator's default; the level matches' default rounds repeat "
          f"hands: bench/yardstick_lockmaker.py draws 100+ distinct ones)")


# ------------------------------------------------------------------------------ main
def _one(task: tuple[str, int, tuple[str, ...]]) -> Played:
    return play(*task)


def tasks_for(game: str, n: int, rng: Any, lo_matches: int) -> list[tuple[str, int, tuple[str, ...]]]:
    out: list[tuple[str, int, tuple[str, ...]]] = []
    if game in TWO_SEAT:
        for strong, weak in PAIRS:
            for i in range(n):
                levels = (strong, weak) if i % 2 == 0 else (weak, strong)
                out.append((game, rng.randrange(2**63), levels))
    else:
        for i in range(n):
            levels = ["easy"] * 6
            levels[i % 6] = "hard"
            out.append((game, rng.randrange(2**63), tuple(levels)))
        out += [(game, rng.randrange(2**63), ("hard",) * 6) for _ in range(lo_matches)]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", choices=(*TWO_SEAT, "lockedout"),
                    help="only this game (repeatable; default: every game)")
    ap.add_argument("--matches", type=int, default=40, help="matches per level pair (40)")
    ap.add_argument("--lo-matches", type=int, default=300,
                    help="six-bot Locked Out! matches for the fair-seats figure (300)")
    ap.add_argument("--lm-seconds", type=float, default=_lm_default_seconds(),
                    help="the generator's seconds per Lockmaker hand (its default)")
    ap.add_argument("--lm-hands", type=int, default=50, help="Lockmaker hands compared (50)")
    ap.add_argument("--paint-seeds", type=int, default=1,
                    help="fresh presentation seeds per Paint design (1; more: a tighter figure)")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--seed", type=int, default=None,
                    help="the run's seed (default: drawn afresh, printed)")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else secrets.randbits(48)
    print(f"bench/strength.py --seed {seed} (matches' seeds are drawn from it)", flush=True)
    rng = random.Random(seed)
    for game in args.game or (*TWO_SEAT, "lockedout"):
        tasks = tasks_for(game, args.matches, rng, args.lo_matches)
        t0 = time.perf_counter()
        with ProcessPoolExecutor(args.jobs) as pool:
            rows = list(pool.map(_one, tasks, chunksize=2))
        print(f"{get_game(game).title}: {len(rows)} matches in {time.perf_counter() - t0:.0f} s "
              f"on {args.jobs} process(es); first seeds "
              f"{', '.join(str(t[1]) for t in tasks[:3])} ...", flush=True)
        if game in TWO_SEAT:
            report_levels(game, rows)
        else:
            report_lockedout_levels(rows)
            full = [r for r in rows if r.levels.count("hard") == 6]
            if full:
                report_seats(full)
        if game == "boxes":
            report_boxes(rows)
        if game == "paint":
            report_paint(rows, args.jobs, args.paint_seeds)
        if game == "lockmaker":
            report_lockmaker(rows, args.lm_seconds, args.lm_hands, args.jobs, seed)
        report_latency(rows)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
