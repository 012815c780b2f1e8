"""Light as a Feather: the bot of issue 29 point 3 against the bot before it, and a greedy one.

Two series of seeded matches of the default scenario (practice + three sessions) through the
live engine on a simulated clock, the seats swapped on every other seed; in each match one
move in ten of either seat is replaced by a seeded random legal move (``NOISE``), so that the
seeds give different matches:

1. new bot (``arena.games.feather.bot``) against the old one (``bench/feather_old_bot.py``, a
   copy of the bot as it was before point 3: a breadth-first search from scratch on tuples,
   with a remembered plan and a memo of failed searches);
2. new bot against a greedy one-step baseline (below): complete what is met now, else the one
   action after which the most valuable objective is met, else fill the roomiest bucket from
   the fullest basin.

Prints the win rates and points, and the decision time per tick (median, p99, worst) of the
old and the new bot measured in the same matches of series 1, as CPU time (process_time) and
wall time (a loaded machine inflates the wall time). Usage:

    PYTHONPATH=src .venv/bin/python bench/feather_bot_speed.py [N]     # N matches per series
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import feather_old_bot as old

from arena.core.clock import ManualClock
from arena.core.errors import RuleError
from arena.core.match import Match, MatchSettings
from arena.games.feather import bot as new
from arena.games.feather.actions import Action
from arena.games.feather.match import GAME
from arena.games.feather.scenario import SessionSpec
from arena.games.feather.tick import Board, check_action

NOISE = 0.1
"""The chance that a seat's move of a tick is replaced by a random legal one (after its bot
was asked and timed): both bots are deterministic and the scenario is fixed, so without it
every even seed would replay one match and every odd seed another."""

Bot = Callable[[SessionSpec, Board, int], str | None]


def greedy(spec: SessionSpec, board: Board, seat: int) -> str | None:
    """One step of look-ahead on the seat's own buckets, no search."""
    mine = new.completable(spec, board, seat)
    if mine:
        obj, combo = max(mine, key=lambda oc: (new.value(oc[0]), -oc[0].id))
        return str(Action("complete", combo, number=obj.id))
    me = board.seats[seat]
    usable = [i for i in range(len(me.waters)) if not board.locked(seat, i, board.tick + 2)]
    best: tuple[float, str] | None = None
    for action in new.legal_actions(spec, board, seat):
        if action.verb not in ("fill", "drain", "transfer", "exchange", "modify") or (
                action.verb == "drain" and action.basin is not None):
            continue
        waters, caps = _after(spec, board, seat, action)
        score = max((new.value(spec.objective(oid)) for oid in board.available
                     if next(new.meeting_subsets(spec.objective(oid).predicate, waters, caps,
                                                 usable), None) is not None), default=0.0)
        if score > 0 and (best is None or score > best[0]):
            best = (score, str(action))
    if best is not None:
        return best[1]
    fills = []
    for i in range(len(me.waters)):
        for k, name in enumerate(spec.basin_names):
            got = min(me.caps[i] - me.waters[i], board.basins[k].amount)
            if got > 0:
                fills.append((got, -i, -k, Action("fill", (i,), basin=name)))
    for *_, action in sorted(fills, key=lambda f: f[:3], reverse=True):
        if _legal(spec, board, seat, action):
            return str(action)
    return None


def _legal(spec: SessionSpec, board: Board, seat: int, action: Action) -> bool:
    try:
        check_action(spec, board, seat, action)
    except RuleError:
        return False
    return True


def _after(spec: SessionSpec, board: Board, seat: int, action: Action
           ) -> tuple[list[int], list[int]]:
    me = board.seats[seat]
    waters, caps = list(me.waters), list(me.caps)
    if action.verb == "fill":
        j = action.buckets[0]
        k = spec.basin_names.index(action.basin or "")
        waters[j] += min(caps[j] - waters[j], board.basins[k].amount)
    elif action.verb == "drain":
        waters[action.buckets[0]] = 0
    elif action.verb == "transfer":
        i, j = action.buckets
        moved = min(waters[i], caps[j] - waters[j])
        waters[i] -= moved
        waters[j] += moved
    elif action.verb == "exchange":
        i, j = action.buckets
        waters[i], waters[j] = min(waters[j], caps[i]), min(waters[i], caps[j])
    elif action.verb == "modify":
        assert action.number is not None
        caps[action.buckets[0]] += action.number
    return waters, caps


def play(seed: int, bots: tuple[Bot, Bot], cpu: tuple[list[float], list[float]],
         wall: tuple[list[float], list[float]]) -> tuple[float, ...]:
    """One match, ``bots[0]`` in seat ``seed % 2``; returns the points of (bots[0], bots[1])."""
    clock = ManualClock(0.0)
    match = Match(GAME, GAME.make_config({}), seed, clock, MatchSettings())
    seats = (seed % 2, 1 - seed % 2)
    rng = random.Random(seed)
    seen = -1
    while not match.finished:
        if match.phase_no != seen:
            seen = match.phase_no
            state = match.state
            for who in (0, 1):
                seat = seats[who]
                if state.stage == "study":
                    text: str | None = "ready"
                elif state.stage != "tick":
                    text = None
                else:
                    t, c = time.perf_counter(), time.process_time()
                    text = bots[who](state.session, state.board, seat)
                    wall[who].append(time.perf_counter() - t)
                    cpu[who].append(time.process_time() - c)
                    if rng.random() < NOISE:
                        text = new.random_legal(state.session, state.board, seat, rng)
                if text is not None:
                    match.submit(seat, text)
        when = match.next_deadline()
        assert when is not None
        clock.set(when)
        match.advance()
    assert match.result is not None
    return tuple(match.result.scores[s] for s in seats)


def series(name: str, bots: tuple[Bot, Bot], names: tuple[str, str], n: int
           ) -> tuple[tuple[list[float], list[float]], tuple[list[float], list[float]]]:
    cpu: tuple[list[float], list[float]] = ([], [])
    wall: tuple[list[float], list[float]] = ([], [])
    wins = [0, 0]
    points: tuple[list[float], list[float]] = ([], [])
    start = time.perf_counter()
    for seed in range(n):
        scores = play(seed, bots, cpu, wall)
        for who in (0, 1):
            points[who].append(scores[who])
        if scores[0] != scores[1]:
            wins[0 if scores[0] > scores[1] else 1] += 1
    draws = n - wins[0] - wins[1]
    print(f"{name}: {n} matches of the default scenario, seats alternated, "
          f"{time.perf_counter() - start:.0f} s")
    print(f"  {names[0]} wins {wins[0]} ({100 * wins[0] / n:.0f}%), {names[1]} wins {wins[1]} "
          f"({100 * wins[1] / n:.0f}%), draws {draws}; win rate of {names[0]} counting draws "
          f"as half: {100 * (wins[0] + draws / 2) / n:.1f}%")
    print(f"  points per match: {names[0]} median {statistics.median(points[0]):.0f} "
          f"(mean {statistics.mean(points[0]):.1f}), {names[1]} median "
          f"{statistics.median(points[1]):.0f} (mean {statistics.mean(points[1]):.1f})")
    return cpu, wall


def figures(times: list[float]) -> str:
    s = sorted(times)
    p99 = s[int(0.99 * (len(s) - 1))]
    return (f"p50 {1000 * statistics.median(s):6.2f}  p99 {1000 * p99:6.2f}  "
            f"worst {1000 * s[-1]:6.1f} ms")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    cpu, wall = series("new vs old", (new.choose, old.choose), ("new", "old"), n)
    series("new vs greedy", (new.choose, greedy), ("new", "greedy"), n)
    print(f"decision time per tick over the new-vs-old matches ({len(cpu[0])} and "
          f"{len(cpu[1])} decisions):")
    for who, label in ((1, "old"), (0, "new")):
        print(f"  {label} CPU   {figures(cpu[who])}")
        print(f"  {label} wall  {figures(wall[who])}")


if __name__ == "__main__":
    main()
