"""CPU time per Feather tick through the server's own path (issue 29 point 2), before and after.

One process runs ``--matches`` Feather matches the way ``arena serve`` runs them: the real
:class:`~arena.server.matches.Matches` creates each one (a :class:`MatchOwner` with its
scheduler task) on a throwaway SQLite file behind :class:`AsyncStore`, two idle seats (humans
who never submit, so no bot cost is counted), and ``--spectators`` subscribers per match
opened as the page opens them (``svg=0``). Each subscriber's pump takes its messages off the
queue and encodes them to UTF-8 bytes, as the socket's send does before framing. Every tick
therefore pays for the timer, the rules (``Match.advance``), the store append (in the store's
thread), the views, the difference, the JSON and the send's encoding.

The figure is the process's CPU time (``time.process_time``: every thread, so the store's
too) over a window, divided by the ticks resolved in it (summed over the matches); a warm-up
comes first. ``--runs`` children are run alternately on the old and the new sources (``--before
SRC``: e.g. ``git archive <commit> src | tar -x -C /tmp/before``) and the medians printed side
by side. ``--parts`` first takes one match's tick apart on a manual clock (the rules, the
store append, the view, the difference, the encoding: CPU per step). ``--profile`` runs one
child under cProfile instead and prints its largest costs.

    PYTHONPATH=src .venv/bin/python bench/tick_cost.py [--before /tmp/before/src] [--runs 5]
        [--matches 20] [--tick 0.05] [--seconds 8] [--spectators 6] [--parts] [--profile]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

WARMUP = 1.5
"""Seconds of ticks before the window: the first views, the caches, the store's first writes."""


def _config(args: argparse.Namespace) -> dict[str, Any]:
    return {"game": "feather", "seed": 7,
            "seats": [{"name": "Ann", "bot": args.bots}, {"name": "Bob", "bot": args.bots}],
            "settings": {"bot_pace": "instant"},
            "config": {"tick": args.tick, "study": 0, "practice": False,
                       "session_ticks": 600}}


async def _child(args: argparse.Namespace) -> dict[str, Any]:
    from arena.core.match import SPECTATOR
    from arena.server.matches import Matches
    from arena.store import Store
    from arena.store.asyncstore import AsyncStore

    with tempfile.TemporaryDirectory() as folder:
        store = AsyncStore(Store(f"sqlite:///{folder}/tick.db"))
        matches = Matches(store)
        owners = []
        for _ in range(args.matches):
            created = await matches.create(_config(args))
            owners.append(created.owner)
        sent = [0]

        async def pump(queue: asyncio.Queue[Any]) -> None:
            while True:
                message = await queue.get()
                text = message if isinstance(message, str) else json.dumps(message)
                sent[0] += len(text.encode("utf-8"))

        pumps = []
        for owner in owners:
            async with owner.lock:
                for _ in range(args.spectators):
                    sub = owner.subscribe(SPECTATOR, 0, svg=False)
                    pumps.append(asyncio.create_task(pump(sub.queue)))

        def ticks() -> int:
            return sum(o.match.phase_no for o in owners)

        await asyncio.sleep(WARMUP)
        t0, c0, n0, b0 = time.perf_counter(), time.process_time(), ticks(), sent[0]
        await asyncio.sleep(args.seconds)
        t1, c1, n1, b1 = time.perf_counter(), time.process_time(), ticks(), sent[0]
        for task in pumps:
            task.cancel()
        for owner in owners:
            await owner.stop()
        await store.close()
    n = max(1, n1 - n0)
    return {"us_per_tick": (c1 - c0) / n * 1e6, "ticks": n1 - n0,
            "cpu_share": (c1 - c0) / (t1 - t0), "bytes_per_socket_tick":
            (b1 - b0) / n / max(1, args.spectators)}


def _parts(args: argparse.Namespace) -> dict[str, Any]:
    """One match's tick taken apart, on a manual clock with no event loop: median CPU
    microseconds of each step, over 250 ticks after 50 of warm-up."""
    from arena.core.clock import ManualClock
    from arena.core.match import SPECTATOR, Match, MatchSettings
    from arena.core.registry import get_game
    from arena.server import viewdiff
    from arena.server import views as ow
    from arena.store import MatchRecord, Store

    game = get_game("feather")
    config = game.make_config(_config(args)["config"])
    clock = ManualClock(1000.0)
    match = Match(game, config, 7, clock, MatchSettings(), start=1000.0, names=["A", "B"])
    record = MatchRecord(id="m", game="feather", config={}, seed=7, settings={}, start=1000.0,
                         seat_names=("A", "B"), bots=(False, False), status="running",
                         created=1000.0)
    names = ("rules", "store", "view", "diff", "encode")
    spent: dict[str, list[float]] = {k: [] for k in names}
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{folder}/parts.db")
        store.create_match(record, [])
        sent, since = ow.view_for(record, match, SPECTATOR, svg=False), match.version
        for i in range(300):
            deadline = match.next_deadline()
            assert deadline is not None
            clock.set(deadline)
            t = [time.process_time_ns()]
            match.advance()
            t.append(time.process_time_ns())
            store.append_events("m", match.log[since:])
            t.append(time.process_time_ns())
            view = ow.view_for(record, match, SPECTATOR, svg=False)
            t.append(time.process_time_ns())
            patch = viewdiff.diff(sent, view)
            t.append(time.process_time_ns())
            seen = match.seq_of(SPECTATOR, since)
            ow._encode({"type": "update", "version": match.version_for(SPECTATOR),
                        "since": seen, "events": ow.events_json(match, SPECTATOR, seen),
                        "patch": patch})
            t.append(time.process_time_ns())
            match.checkpoint()
            sent, since = view, match.version
            if i >= 50:
                for k, (a, b) in zip(names, itertools.pairwise(t), strict=True):
                    spent[k].append((b - a) / 1000)
        store.close()
    return {k: statistics.median(v) for k, v in spent.items()}


def child_main(args: argparse.Namespace) -> None:
    if args.parts:
        print(json.dumps(_parts(args)))
        return
    if args.profile:
        import cProfile
        import pstats
        prof = cProfile.Profile()
        prof.enable()
        out = asyncio.run(_child(args))
        prof.disable()
        stats = pstats.Stats(prof, stream=sys.stderr)
        stats.sort_stats("tottime").print_stats(30)
        stats.sort_stats("cumulative").print_stats(40)
    else:
        out = asyncio.run(_child(args))
    print(json.dumps(out))


def run_child(src: str, args: argparse.Namespace) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--child", "--matches", str(args.matches),
           "--tick", str(args.tick), "--seconds", str(args.seconds),
           "--spectators", str(args.spectators)]
    if args.profile:
        cmd.append("--profile")
    if args.bots:
        cmd.append("--bots")
    if args.parts:
        cmd.append("--parts")
    env = {**os.environ, "PYTHONPATH": src}
    if args.bots:
        env["ARENA_BOT_WORKERS"] = "0"
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"child on {src} failed:\n{done.stderr[-3000:]}")
    if args.profile:
        print(done.stderr)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="the old sources' src folder, run alternately")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--tick", type=float, default=0.05)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--spectators", type=int, default=6)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--bots", action="store_true",
                        help="both seats are bots (instant pace), thinking in the process's "
                             "thread pool (ARENA_BOT_WORKERS=0) so their CPU is counted with "
                             "the server's: the whole cost of a match with bots")
    parser.add_argument("--parts", action="store_true",
                        help="also take one tick apart (rules, store, view, diff, encode)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_main(args)
        return
    new_src = str(ROOT / "src")
    if args.profile:
        run_child(args.before or new_src, args)
        return
    sources = [("after", new_src)] + ([("before", args.before)] if args.before else [])
    if args.parts:
        print("One tick taken apart (median CPU us of 250 ticks, one spectator's update):")
        parts: dict[str, list[dict[str, float]]] = {name: [] for name, _ in sources}
        for _ in range(args.runs):
            for name, src in reversed(sources):
                parts[name].append(run_child(src, args))
        for name, _ in reversed(sources):
            keys = list(parts[name][0])
            print(f"  {name:8} " + "  ".join(
                f"{k} {statistics.median(p[k] for p in parts[name]):.0f}" for k in keys))
        args.parts = False
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in sources}
    load = os.getloadavg()[0]
    for _ in range(args.runs):
        for name, src in reversed(sources):
            runs[name].append(run_child(src, args))
    print(f"Feather, {args.matches} matches at {args.tick} s ticks, {args.spectators} "
          f"spectator subscribers each (svg=0), {'bot' if args.bots else 'idle'} seats; {args.seconds} s windows, "
          f"median of {args.runs} runs; load average {load:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after")
    print(f"{'code':8} {'CPU us/tick':>12} {'runs (us)':>32} {'ticks/run':>10} "
          f"{'CPU %':>6} {'B/socket/tick':>14}")
    for name, _ in reversed(sources):
        rs = runs[name]
        us = [r["us_per_tick"] for r in rs]
        print(f"{name:8} {statistics.median(us):12.0f} "
              f"{' '.join(f'{u:.0f}' for u in us):>32} "
              f"{statistics.median(r['ticks'] for r in rs):10.0f} "
              f"{100 * statistics.median(r['cpu_share'] for r in rs):6.0f} "
              f"{statistics.median(r['bytes_per_socket_tick'] for r in rs):14.0f}")


if __name__ == "__main__":
    main()
