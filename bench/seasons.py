"""Many seasons at once on one server: do the season list and the season pages stay quick?

A season is a match of the core engine, so a season full of bots runs itself: each step's
clock runs out to a drawn choice (SE-7), its Main Match (Locked Out!) and Death Match are
played by instant bots, and it goes on to the next episode. This starts ``--seasons`` such
seasons (casts of ``--cast`` bots, a short step clock) on a real server process over a
throwaway SQLite file, then for ``--seconds`` a reader asks, one request after another, for
the season list (``GET /api/seasons``), a season's page (``/s/{id}?token=``) and its view
(``GET /api/seasons/{id}?token=``). Printed: p50/p99/max of each, requests served, how far
the seasons got (episodes, finished) and the machine's load average over the run.

    PYTHONPATH=src .venv/bin/python bench/seasons.py [--seasons 100] [--seconds 60]

The reader shares the machine's two cores with the server and every season's bots.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from server.serverproc import ServerProcess  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def season_body(i: int, cast: int) -> dict[str, Any]:
    return {"cast": [{"name": f"P{i}-{n}", "bot": True} for n in range(cast)], "seed": i,
            "settings": {"time_scale": 0.05, "bot_pace": "instant"}, "step_seconds": 60,
            "mm_config": {"round_seconds": 60, "vote_seconds": 60, "max_rounds": 8}}


async def run(server: ServerProcess, seasons: int, cast: int, seconds: float) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        made: list[tuple[str, str]] = []
        began = time.monotonic()
        for i in range(seasons):
            r = await http.post("/api/seasons", json=season_body(i, cast))
            r.raise_for_status()
            data = r.json()
            made.append((data["id"], data["tokens"]["spectator"]))
        print(f"{seasons} seasons of {cast} bots created in {time.monotonic() - began:.1f} s")
        times: dict[str, list[float]] = {"list": [], "page": [], "view": []}
        load_before = os.getloadavg()
        stop = time.monotonic() + seconds
        rng = random.Random(1)
        while time.monotonic() < stop:
            sid, token = rng.choice(made)
            for name, path in (("list", "/api/seasons"),
                               ("page", f"/s/{sid}?token={token}"),
                               ("view", f"/api/seasons/{sid}?token={token}")):
                t0 = time.perf_counter()
                r = await http.get(path)
                times[name].append((time.perf_counter() - t0) * 1000)
                if r.status_code != 200:
                    print(f"  {path}: {r.status_code} {r.text[:120]}")
        load_after = os.getloadavg()
        listing = (await http.get("/api/seasons")).json()
    for name, values in times.items():
        print(f"GET {name:5s}: {len(values):5d} requests  p50 {pct(values, 0.5):7.1f} ms  "
              f"p99 {pct(values, 0.99):7.1f} ms  max {max(values):7.1f} ms")
    episodes = [s.get("episode") or 0 for s in listing]
    done = sum(1 for s in listing if s.get("status") == "finished")
    print(f"seasons: {len(listing)} listed, {done} finished, episodes reached: median "
          f"{sorted(episodes)[len(episodes) // 2]}, max {max(episodes)}")
    print(f"load average (1 min) at start {load_before[0]:.2f}, at end {load_after[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seasons", type=int, default=100)
    parser.add_argument("--cast", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(f"sqlite:///{Path(folder) / 'arena.db'}",
                               Path(folder) / "server.log", create_limit="100000",
                               env={"ARENA_BOT_WORKERS": "1"}).start()
        try:
            asyncio.run(run(server, args.seasons, args.cast, args.seconds))
        finally:
            server.stop()
            errors = [line for line in server.log().splitlines() if "Traceback" in line]
            if errors:
                print(f"server log: {len(errors)} tracebacks")


if __name__ == "__main__":
    main()
