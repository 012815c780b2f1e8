"""What a broadcast costs the player who caused it (issue 20 point 4).

A real server on a throwaway SQLite file; one Locked Out! match (its board picture is the
largest) with N spectator sockets open; a seat posts chat lines at the table, each of which
every spectator receives. Printed: the median and p95 time of the POST as the seat sees it, and
the median time until the last spectator has the line, for each N.

    .venv/bin/python bench/broadcast.py [--spectators 0,100,500] [--lines 40]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from server.serverproc import ServerProcess  # noqa: E402


async def run(server: ServerProcess, spectators: int, lines: int) -> tuple[float, float, float]:
    m = server.create("lockedout", seats=[{"name": n, "bot": False} for n in "ABCDEF"],
                      settings={"time_scale": 50.0})
    ws_url = server.url.replace("http", "ws", 1) + f"/ws/{m['id']}?token=" \
        + m["tokens"]["spectator"]
    sockets = []
    for _ in range(spectators):
        ws = await connect(ws_url, max_size=None)
        await ws.recv()  # hello
        await ws.recv()  # the catch-up update
        sockets.append(ws)
    posts: list[float] = []
    spread: list[float] = []
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        for i in range(lines):
            text = f"line {i}"
            t0 = time.perf_counter()
            r = await http.post(f"/api/matches/{m['id']}/chat",
                                params={"token": m["tokens"]["seats"][0]},
                                json={"channel": "table", "text": text})
            posts.append(time.perf_counter() - t0)
            assert r.status_code == 200, r.text
            if sockets:
                await asyncio.gather(*(ws.recv() for ws in sockets))
                spread.append(time.perf_counter() - t0)
            await asyncio.sleep(1.2)  # under the chat rate limit of one line a second
    for ws in sockets:
        await ws.close()
    posts.sort()
    p95 = posts[int(0.95 * (len(posts) - 1))]
    return statistics.median(posts), p95, statistics.median(spread) if spread else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", default="0,100,500")
    parser.add_argument("--lines", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        # Every spectator comes from 127.0.0.1: lift the per-address socket limit.
        server = ServerProcess(f"sqlite:///{tmp}/b.db", Path(tmp) / "server.log",
                               env={"ARENA_WS_PER_ADDRESS": "100000"}).start()
        try:
            print(f"{'spectators':>10} {'POST p50 ms':>12} {'POST p95 ms':>12} "
                  f"{'all received p50 ms':>20}")
            for n in (int(x) for x in args.spectators.split(",")):
                p50, p95, spread = asyncio.run(run(server, n, args.lines))
                print(f"{n:>10} {p50 * 1000:>12.1f} {p95 * 1000:>12.1f} {spread * 1000:>20.1f}")
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
