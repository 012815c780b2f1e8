"""Light as a Feather on generated scenarios (LF-12, issue 28): variety, feasibility, balance.

Prints:

1. over SEEDS seeds (default 1,000): how many distinct scenarios, how many pass the
   feasibility proof (``feasible.objective_problems``), and the time to generate and prove;
2. over MATCHES generated scenarios (default 200, difficulty normal): bot vs bot, how often
   seat 1 wins when the ankh (LF-5) alternates between the seats match by match;
3. the project's bot against a greedy one-step baseline (complete what is met now, else fill
   the roomiest bucket from the fullest basin), seats alternating: the bot's win rate;
4. bot vs bot on "easy", "normal" and "hard": the share of the scored sessions' objectives
   that someone completes (easy >= 90%, hard >= 50%, each difficulty below the one before);
5. ``arena simulate feather --seed N`` for 20 seeds (the default settings): distinct results.

Matches run through the game's own functions (no clock, no study phases).
Usage: python bench/feather_scenarios.py [--seeds N] [--matches N] [--jobs N]
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from collections.abc import Callable

from arena.core import rng as rngmod
from arena.core.driver import simulate
from arena.core.game import PhaseOutcome, Submission, SubmitContext
from arena.core.match import MatchSettings
from arena.games.feather import bot as botmod
from arena.games.feather import generate as gen
from arena.games.feather.feasible import objective_problems
from arena.games.feather.match import GAME, FeatherState
from arena.games.feather.scenario import parse_scenario

Player = Callable[[FeatherState, int], str | None]


def smart(state: FeatherState, seat: int) -> str | None:
    return botmod.choose(state.session, state.board, seat)


def greedy(state: FeatherState, seat: int) -> str | None:
    """One step ahead only: complete the best objective met now; else fill the bucket with
    the most room from the basin with the most water; else nothing."""
    spec, board = state.session, state.board
    done = botmod.completable(spec, board, seat)
    if done:
        obj, combo = max(done, key=lambda oc: (botmod.value(oc[0]), -oc[0].id))
        return f"complete {'+'.join('ABCDEFGH'[i] for i in combo)} {obj.id}"
    me = board.seats[seat]
    if board.tick + 1 >= me.fill_ready_at():
        j = max(range(len(me.caps)), key=lambda i: (me.caps[i] - me.waters[i], -i))
        k = max(range(len(board.basins)), key=lambda i: (board.basins[i].amount, -i))
        if me.caps[j] > me.waters[j] and board.basins[k].amount > 0:
            return f"fill {spec.basins[k].name} {'ABCDEFGH'[j]}"
    full = [i for i in range(len(me.caps)) if me.waters[i] == me.caps[i]]
    return f"drain {'ABCDEFGH'[full[0]]}" if full else None


def play(seed: int, difficulty: str, ankh: int, players: tuple[Player, Player]
         ) -> tuple[int | None, int, int]:
    """One match; (winner, objectives completed by someone, objectives in scored sessions)."""
    config = GAME.make_config({"difficulty": difficulty, "study": 0, "ankh": ankh})
    state = GAME.initial_state(config, rngmod.derive(seed, "setup"))
    total = sum(len(s.objectives) for s in state.sessions if not s.practice)
    done: set[tuple[int, int]] = set()
    ctx = SubmitContext(at=0.0)
    while state.stage != "over":
        standing: dict[int, Submission] = {}
        for seat in (0, 1):
            text = players[seat](state, seat)
            if text is None:
                continue
            try:
                value = GAME.validate(state, seat, text, ctx)
            except Exception:
                continue
            standing[seat] = Submission(seat, text, value, 0.0)
        index, practice = state.index, state.session.practice
        outcome = PhaseOutcome(standing, {s: (v,) for s, v in standing.items()}, frozenset(),
                               1.0)
        state, _ = GAME.resolve(state, outcome, rngmod.derive(seed, "tick"))
        if not practice:
            for o in state.last:
                if o.done and o.action.startswith("complete"):
                    done.add((index, int(o.action.split()[-1])))
    result = GAME.result(state)
    assert result is not None
    return result.winner, len(done), total


def _variety(seed: int) -> tuple[str, bool, float]:
    t = time.perf_counter()
    text = gen.for_match(rngmod.derive(seed, "setup"))
    ok = not objective_problems(parse_scenario(text, "generated"))
    return text, ok, time.perf_counter() - t


def _bvb(i: int) -> int | None:
    return play(10_000 + i, "normal", i % 2, (smart, smart))[0]


def _vs_greedy(i: int) -> bool:
    me = i % 2
    players: tuple[Player, Player] = (smart, greedy) if me == 0 else (greedy, smart)
    return play(20_000 + i, "normal", (i // 2) % 2, players)[0] == me


def _completion(args: tuple[int, str]) -> tuple[int, int]:
    i, difficulty = args
    _, done, total = play(30_000 + i, difficulty, i % 2, (smart, smart))
    return done, total


def _simulate(seed: int) -> str:
    m = simulate(GAME, seed, GAME.make_config({}), MatchSettings(bot_pace="instant"))
    assert m.result is not None
    return f"{m.result.winner} {m.result.scores} {m.result.detail}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=1000)
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    with multiprocessing.Pool(args.jobs) as pool:
        t = time.perf_counter()
        rows = pool.map(_variety, range(args.seeds))
        texts = {r[0] for r in rows}
        print(f"{args.seeds} seeds (normal): {len(texts)} distinct scenarios; "
              f"{sum(r[1] for r in rows)} pass the feasibility proof; generate+prove "
              f"{1000 * sum(r[2] for r in rows) / len(rows):.0f} ms per scenario "
              f"(wall {time.perf_counter() - t:.0f} s)")
        n = args.matches
        winners = pool.map(_bvb, range(n))
        seat1 = sum(1 for w in winners if w == 0)
        print(f"bot vs bot, {n} generated scenarios, ankh alternating: seat 1 wins "
              f"{seat1}/{n} = {100 * seat1 / n:.0f}% (target 40-60%)")
        wins = sum(pool.map(_vs_greedy, range(n)))
        print(f"bot vs greedy one-step baseline, {n} matches, seats alternating: bot wins "
              f"{wins}/{n} = {100 * wins / n:.0f}% (target >= 70%)")
        for difficulty, target in (("easy", ">= 90%"), ("normal", "between the two"),
                                   ("hard", ">= 50%")):
            got = pool.map(_completion, [(i, difficulty) for i in range(n)])
            done, total = sum(g[0] for g in got), sum(g[1] for g in got)
            print(f"bot vs bot on {difficulty}: {done}/{total} = {100 * done / total:.1f}% of "
                  f"the scored sessions' objectives completed by someone (target {target})")
        results = pool.map(_simulate, range(20))
        print(f"arena simulate feather --seed 0..19: {len(set(results))} different results "
              f"(target >= 18)")


if __name__ == "__main__":
    main()
