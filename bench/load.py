"""Load on one server process (issue 20 point 7): N Light as a Feather matches at 1 s ticks.

For each N a fresh ``python -m arena serve`` is started (tests/server/serverproc.py) on a
throwaway SQLite file, or, with ``--database postgresql://...``, on a fresh database created
on that PostgreSQL server for the run and dropped after it. The server runs with
``ARENA_LOOP_MONITOR=1`` (src/arena/server/loopmon.py) and with the creation and submission
rate limits lifted. N matches are created, each with two bots at ``bot_pace`` "instant" and
the config ``tick=1, study=0, practice=false, session_ticks=K`` (three scored sessions of K
one-second ticks, K chosen so that no match ends inside the run). S spectator WebSockets are
opened per match; after a short warm-up a window of ``--seconds`` is measured.

Tick lateness, the method: a Feather tick is a phase that never closes early
(``early_close=False``), so it always resolves at its deadline, and the engine stamps every
entry it logs at a deadline with the deadline's own time, however late the server got to it
(src/arena/core/match.py, ``advance``). The ``t`` of a ``tick`` event is therefore the moment
the tick was scheduled for. Each spectator socket notes ``time.time()`` as each update arrives
(client and server share the machine's clock) and, for every ``tick`` event in that update
stamped inside the window, counts ``arrival - t``: the scheduler's own delay, the store write,
the broadcast (views, JSON), the socket send and the bench client's own delay in reading it.
The last part is not the server's doing, so the client's event-loop lag (a 50 ms heartbeat in
the bench process) and CPU are printed next to the figures: when the client is saturated,
the lateness is an upper bound for the server's.

Also printed, over the same window: the latency of ``GET /api/matches`` and ``GET /`` (one
request after another, ~8 a second, each timed from the client), the server's CPU (user +
system time from /proc/<pid>/stat over the window; 100 % = one core) and its resident memory
at the end (/proc/<pid>/statm), the server's longest event-loop stall with its p99 (the
heartbeat of ``/api/debug/loop``), and the ticks received against the ticks expected (a
socket the server dropped for being slow shows as missing ticks and in ``closed``).

    .venv/bin/python bench/load.py [--matches 10,100,300] [--seconds 30] [--spectators 6]
        [--database postgresql://user@host:port/db]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from server.serverproc import ServerProcess  # noqa: E402

WARMUP = 3.0
"""Seconds between the last socket opening and the start of the window."""

CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (/proc/<pid>/stat fields 14 and 15)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * PAGE / 2**20


@dataclass
class Figures:
    window: tuple[float, float] = (0.0, 0.0)
    lateness: list[float] = field(default_factory=list)
    lobby: dict[str, list[float]] = field(default_factory=lambda: {"/api/matches": [], "/": []})
    client_lag: list[float] = field(default_factory=list)
    closed: int = 0
    opened: int = 0

    def measuring(self, t: float) -> bool:
        return self.window[0] <= t < self.window[1]


async def spectate(ws: ClientConnection, figures: Figures) -> None:
    try:
        async for raw in ws:
            arrived = time.time()
            message = json.loads(raw)
            for event in message.get("events", ()):
                if event["kind"] == "tick" and figures.measuring(event["t"]):
                    figures.lateness.append(arrived - event["t"])
    except Exception:  # the server closed the socket (too slow), or the run ended
        pass
    finally:
        if time.time() < figures.window[1]:
            figures.closed += 1


async def heartbeat(figures: Figures, until: float) -> None:
    loop = asyncio.get_running_loop()
    while time.time() < until:
        before = loop.time()
        await asyncio.sleep(0.05)
        if figures.measuring(time.time()):
            figures.client_lag.append(loop.time() - before - 0.05)


async def lobby(http: httpx.AsyncClient, figures: Figures) -> None:
    while time.time() < figures.window[0]:
        await asyncio.sleep(0.05)
    while time.time() < figures.window[1]:
        for path in figures.lobby:
            t0 = time.perf_counter()
            r = await http.get(path)
            figures.lobby[path].append(time.perf_counter() - t0)
            assert r.status_code == 200, (path, r.status_code)
            await asyncio.sleep(0.12)


async def run(server: ServerProcess, matches: int, spectators: int, seconds: float
              ) -> dict[str, Any]:
    setup_guess = 10 + matches * (0.05 + 0.01 * spectators)
    session_ticks = min(600, int((setup_guess + WARMUP + seconds) / 3) + 30)
    body = {"game": "feather", "seed": 1,
            "seats": [{"name": "Ann", "bot": True}, {"name": "Bob", "bot": True}],
            "settings": {"bot_pace": "instant"},
            "config": {"tick": 1.0, "study": 0, "practice": False,
                       "session_ticks": session_ticks}}
    figures = Figures(window=(float("inf"), float("inf")))
    async with httpx.AsyncClient(base_url=server.url, timeout=60,
                                 limits=httpx.Limits(max_connections=16)) as http:
        sem = asyncio.Semaphore(8)

        async def create(i: int) -> dict[str, Any]:
            async with sem:
                r = await http.post("/api/matches", json={**body, "seed": i + 1})
                assert r.status_code == 201, r.text
                data: dict[str, Any] = r.json()
                return data

        t0 = time.perf_counter()
        created = await asyncio.gather(*(create(i) for i in range(matches)))
        create_s = time.perf_counter() - t0

        ws_base = server.url.replace("http", "ws", 1)
        open_sem = asyncio.Semaphore(32)
        sockets: list[ClientConnection] = []

        async def open_one(m: dict[str, Any]) -> None:
            async with open_sem:
                ws = await connect(f"{ws_base}/ws/{m['id']}?token={m['tokens']['spectator']}",
                                   max_size=None, ping_interval=None, open_timeout=60)
                sockets.append(ws)
                figures.opened += 1

        t0 = time.perf_counter()
        await asyncio.gather(*(open_one(m) for m in created for _ in range(spectators)))
        open_s = time.perf_counter() - t0
        readers = [asyncio.create_task(spectate(ws, figures)) for ws in sockets]

        start = time.time() + WARMUP
        figures.window = (start, start + seconds)
        beat = asyncio.create_task(heartbeat(figures, start + seconds))
        lobby_task = asyncio.create_task(lobby(http, figures))
        await asyncio.sleep(max(0.0, start - time.time()))
        assert server.proc is not None
        pid = server.proc.pid
        await http.post("/api/debug/loop")  # a new stall window starts now
        cpu0, client0, wall0 = cpu_seconds(pid), time.process_time(), time.perf_counter()
        rss_peak = 0.0
        while time.time() < figures.window[1]:
            rss_peak = max(rss_peak, rss_mb(pid))
            await asyncio.sleep(1.0)
        cpu1, client1, wall1 = cpu_seconds(pid), time.process_time(), time.perf_counter()
        loop = (await http.get("/api/debug/loop")).json()
        await lobby_task
        await beat
        await asyncio.sleep(1.5)  # the window's last ticks are still on their way
        await asyncio.gather(*(ws.close() for ws in sockets))
        await asyncio.gather(*readers)
    wall = wall1 - wall0
    return {
        "matches": matches, "sockets": figures.opened, "create_s": create_s, "open_s": open_s,
        "ticks": len(figures.lateness),
        "expected": int(matches * spectators * seconds),
        "closed": figures.closed,
        "late_p50": pct(figures.lateness, 0.5), "late_p99": pct(figures.lateness, 0.99),
        "late_max": max(figures.lateness, default=0.0),
        "lobby": {p: (pct(v, 0.5), pct(v, 0.99), len(v)) for p, v in figures.lobby.items()},
        "cpu": 100 * (cpu1 - cpu0) / wall, "rss": max(rss_peak, rss_mb(pid)),
        "client_cpu": 100 * (client1 - client0) / wall,
        "client_lag_max": max(figures.client_lag, default=0.0),
        "stall_max": loop["max_stall"], "stall_p99": loop["p99_stall"],
    }


@contextmanager
def database(url: str | None, tmp: str, n: int) -> Iterator[str]:
    """A fresh database for one run: a SQLite file, or a new database on the PostgreSQL
    server of ``url`` (dropped afterwards), so no match of a previous run is resumed."""
    if url is None:
        yield f"sqlite:///{tmp}/load{n}.db"
        return
    import psycopg

    name = f"arena_load_{os.getpid()}_{n}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def ms(x: float) -> str:
    return f"{x * 1000:,.0f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", default="10,100,300")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--spectators", type=int, default=6)
    parser.add_argument("--database", default=None,
                        help="a PostgreSQL URL (a database is created on it per run); "
                             "default a throwaway SQLite file")
    args = parser.parse_args()
    os.environ["ARENA_LOOP_MONITOR"] = "1"
    kind = "PostgreSQL" if args.database else "SQLite"
    print(f"Light as a Feather, 1 s ticks, 2 instant bots and {args.spectators} spectator "
          f"sockets per match, one server process on {kind}, {args.seconds:g} s windows; "
          f"times in ms (p50/p99/max); CPU 100 % = one core of {os.cpu_count()}; "
          f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    header = (f"{'matches':>7} {'sockets':>7} {'ticks got/expected':>18} {'closed':>6} "
              f"{'tick lateness':>17} {'GET /api/matches':>16} {'GET /':>11} "
              f"{'srv CPU%':>8} {'RSS MB':>6} {'loop stall max/p99':>18} "
              f"{'client CPU%':>11} {'client lag':>10}")
    rows: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(x) for x in args.matches.split(",")):
            with database(args.database, tmp, n) as url:
                server = ServerProcess(url, Path(tmp) / f"server{n}.log").start()
                try:
                    r = asyncio.run(run(server, n, args.spectators, args.seconds))
                finally:
                    server.stop()
            lm, lr = r["lobby"]["/api/matches"], r["lobby"]["/"]
            rows.append(
                f"{n:>7} {r['sockets']:>7} {r['ticks']:>9,}/{r['expected']:<8,} "
                f"{r['closed']:>6} "
                f"{ms(r['late_p50']) + '/' + ms(r['late_p99']) + '/' + ms(r['late_max']):>17} "
                f"{ms(lm[0]) + '/' + ms(lm[1]):>16} {ms(lr[0]) + '/' + ms(lr[1]):>11} "
                f"{r['cpu']:>8.0f} {r['rss']:>6.0f} "
                f"{ms(r['stall_max']) + '/' + ms(r['stall_p99']):>18} "
                f"{r['client_cpu']:>11.0f} {ms(r['client_lag_max']):>10}")
            print(f"  N={n}: created in {r['create_s']:.1f} s, {r['sockets']} sockets open in "
                  f"{r['open_s']:.1f} s", flush=True)
    print(header)
    for row in rows:
        print(row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
