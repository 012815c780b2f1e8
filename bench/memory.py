"""Is a server's memory bounded by what is live?

Two measurements on a real server process over a throwaway SQLite file:

``churn`` (the default): one client creates Light as a Feather matches at the server's
default creation limit (60 at once, then one a second) for ``--seconds``, and its host ends
each one as soon as it is created, so almost nothing is live at any moment. Meanwhile a
reader asks for the lobby (``GET /api/matches``) and the public view of a recent match, one
request after another. Printed every 30 s: the server's RSS and the reader's p50/p99; at the
end, RSS after a 20 s rest, against the start.

``--no-end``: the same client never ends its matches (as a careless or hostile one would):
the per-address bound on running matches refuses it past its limit, so memory stays bounded.

``idle``: ``--idle N`` live matches (two human seats that never act, hour-long phases) on one
process; printed: RSS before and after, and per live match. The creation limit and the
per-address live-match bound are lifted for this one (a single client makes them all).

    PYTHONPATH=src .venv/bin/python bench/memory.py [--seconds 600]
    PYTHONPATH=src .venv/bin/python bench/memory.py --seconds 60 --no-end
    PYTHONPATH=src .venv/bin/python bench/memory.py --idle 1000

The reader shares the machine's two cores with the server and the creating client.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from server.serverproc import ServerProcess  # noqa: E402

PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * PAGE / 2**20


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


FEATHER: dict[str, Any] = {"game": "feather", "settings": {"bot_pace": "instant"}}
BOTS = [{"bot": True}, {"bot": True}]


async def churn(server: ServerProcess, seconds: float, end: bool = True) -> None:
    assert server.proc is not None
    pid = server.proc.pid
    start_rss = rss_mb(pid)
    latencies: list[float] = []
    recent: list[str] = []
    made = ended = refused = 0
    stop = time.monotonic() + seconds

    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:

        async def create() -> None:
            nonlocal made, ended, refused
            while time.monotonic() < stop:
                r = await http.post("/api/matches", json=FEATHER)
                if r.status_code == 429:
                    refused += 1
                    await asyncio.sleep(float(r.headers.get("retry-after", "1")))
                    continue
                assert r.status_code == 201, r.text
                made += 1
                data = r.json()
                recent.append(data["id"])
                del recent[:-20]
                if not end:
                    continue
                e = await http.post(f"/api/matches/{data['id']}/host/end",
                                    params={"token": data["tokens"]["host"]}, json={})
                if e.status_code == 200:
                    ended += 1

        async def read() -> None:
            while time.monotonic() < stop:
                t0 = time.perf_counter()
                await http.get("/api/matches")
                if recent:
                    await http.get(f"/api/matches/{recent[0]}/view")
                latencies.append(time.perf_counter() - t0)
                await asyncio.sleep(0.05)

        async def report() -> None:
            began = time.monotonic()
            while time.monotonic() < stop:
                await asyncio.sleep(30)
                window = latencies[:]
                latencies.clear()
                print(f"{time.monotonic() - began:5.0f} s  made {made:5d}  ended {ended:5d}  "
                      f"RSS {rss_mb(pid):6.1f} MB  reads p50 {pct(window, .5) * 1000:6.1f} ms  "
                      f"p99 {pct(window, .99) * 1000:6.1f} ms  (n={len(window)})", flush=True)

        await asyncio.gather(create(), read(), report())
        await asyncio.sleep(20)
        rest: list[float] = []
        for _ in range(100):
            t0 = time.perf_counter()
            await http.get("/api/matches")
            rest.append(time.perf_counter() - t0)
    end_rss = rss_mb(pid)
    print(f"matches made {made}, ended {ended}, creation refusals {refused}")
    print(f"RSS start {start_rss:.1f} MB, 20 s after the last match ended {end_rss:.1f} MB "
          f"(+{end_rss - start_rss:.1f} MB); lobby p50 {statistics.median(rest) * 1000:.1f} ms "
          f"p99 {pct(rest, .99) * 1000:.1f} ms at rest")


IDLE = {"game": "feather", "seats": [{"name": "Ann"}, {"name": "Ben"}],
        "config": {"tick": 3600, "study": 3600}, "settings": {"bot_pace": "instant"}}


async def idle(server: ServerProcess, n: int) -> None:
    assert server.proc is not None
    pid = server.proc.pid
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        for _ in range(20):  # warm: imports, first match of the game, caches
            await http.get("/api/matches")
        before = rss_mb(pid)
        for i in range(n):
            r = await http.post("/api/matches", json=IDLE)
            assert r.status_code == 201, r.text
            if (i + 1) % 200 == 0:
                print(f"{i + 1:5d} live  RSS {rss_mb(pid):6.1f} MB", flush=True)
        await asyncio.sleep(5)
        after = rss_mb(pid)
        live = [m for m in (await http.get("/api/matches")).json() if m["status"] == "running"]
    print(f"RSS before {before:.1f} MB, with {n} live idle matches {after:.1f} MB: "
          f"{(after - before) / n:.3f} MB per live match ({len(live)} listed running)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--bots", action="store_true",
                        help="bots in both seats, playing at once (instant pace)")
    parser.add_argument("--no-end", action="store_true",
                        help="leave every match running (the per-address bound holds them)")
    parser.add_argument("--idle", type=int, default=0,
                        help="measure N live idle matches instead of the churn")
    args = parser.parse_args()
    if args.bots:
        FEATHER["seats"] = BOTS
    with tempfile.TemporaryDirectory() as tmp:
        env: dict[str, Any] = {}
        limit: str | None = None
        if args.idle:
            limit = "100000,1000"
            env["ARENA_LIVE_PER_ADDRESS"] = str(args.idle + 10)
        server = ServerProcess(str(Path(tmp) / "arena.db"), Path(tmp) / "server.log",
                               create_limit=limit, env=env).start()
        try:
            if args.idle:
                asyncio.run(idle(server, args.idle))
            else:
                asyncio.run(churn(server, args.seconds, end=not args.no_end))
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
