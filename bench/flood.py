"""Does a flood on one endpoint slow the others? (issue 20 point 6)

A real server on a throwaway SQLite file, at its default limits (60 match creations at once
from one address, then one a second). One process floods ``POST /api/matches`` from
127.0.0.2 with ``--flood`` requests, ``--concurrency`` at a time; meanwhile this process reads
``GET /api/games`` (and the lobby, ``GET /api/matches``) from 127.0.0.1 one request after
another. Printed: the flood's answers and rate, and the readers' p50/p99/max latency before
the flood (quiet), during it, and after it (the lobby then lists the matches the flood did
create, so "after" is the baseline for the lobby's "during").

    .venv/bin/python bench/flood.py [--flood 2000] [--concurrency 50] [--quiet 300]

The client processes share the machine's cores with the server: on a small, busy machine the
"during" figures include the flooder's own CPU, not only the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import cast

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from server.serverproc import ServerProcess  # noqa: E402


async def _flood(url: str, total: int, concurrency: int) -> tuple[Counter[int], float]:
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    codes: Counter[int] = Counter()
    queue = iter(range(total))
    async with httpx.AsyncClient(base_url=url, timeout=60, transport=transport,
                                 limits=httpx.Limits(max_connections=concurrency)) as http:
        async def worker() -> None:
            for _ in queue:
                try:
                    r = await http.post("/api/matches", json={"game": "feather"})
                    codes[r.status_code] += 1
                except httpx.HTTPError:
                    codes[0] += 1

        t0 = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return codes, time.perf_counter() - t0


def flood(url: str, total: int, concurrency: int, out: multiprocessing.Queue[object]) -> None:
    codes, seconds = asyncio.run(_flood(url, total, concurrency))
    out.put((dict(codes), seconds))


def read_latencies(http: httpx.Client, base: str, path: str, *, count: int | None = None,
                   until: multiprocessing.Process | None = None) -> list[float]:
    """Sequential GETs: ``count`` of them, or as many as fit while ``until`` runs."""
    times: list[float] = []
    while (count is not None and len(times) < count) or (until is not None and until.is_alive()):
        t0 = time.perf_counter()
        r = http.get(base + path)
        times.append(time.perf_counter() - t0)
        assert r.status_code == 200, r.text
    return times


def figures(times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (f"{len(times):>6} {statistics.median(ordered) * 1000:>8.1f} {p99 * 1000:>8.1f} "
            f"{ordered[-1] * 1000:>8.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flood", type=int, default=2000, help="POST /api/matches to send")
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--quiet", type=int, default=300, help="GETs measured before the flood")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(f"sqlite:///{tmp}/flood.db", Path(tmp) / "server.log",
                               create_limit=None).start()  # the server's default limits
        try:
            http = httpx.Client(timeout=60)
            for path in ("/api/games", "/api/matches"):
                read_latencies(http, server.url, path, count=20)  # warm up
            quiet = {path: read_latencies(http, server.url, path, count=args.quiet)
                     for path in ("/api/games", "/api/matches")}

            out: multiprocessing.Queue[object] = multiprocessing.Queue()
            flooder = multiprocessing.Process(
                target=flood, args=(server.url, args.flood, args.concurrency, out))
            during: dict[str, list[float]] = {"/api/games": [], "/api/matches": []}
            flooder.start()
            while flooder.is_alive():
                for path in during:
                    during[path] += read_latencies(http, server.url, path, count=10)
            flooder.join()
            # Afterwards, with the matches the flood did create live: the lobby lists them, so
            # its cost after the flood is the baseline to compare "during" with.
            after = {path: read_latencies(http, server.url, path, count=args.quiet)
                     for path in ("/api/games", "/api/matches")}
            codes, seconds = cast(tuple[dict[int, int], float], out.get(timeout=10))
            answers = ", ".join(f"{n} x {code or 'error'}" for code, n in sorted(codes.items()))
            print(f"flood: {args.flood} POST /api/matches from 127.0.0.2, {args.concurrency} at "
                  f"a time, in {seconds:.1f} s ({args.flood / seconds:.0f}/s): {answers}")
            print(f"{'GET from 127.0.0.1':<28} {'n':>6} {'p50 ms':>8} {'p99 ms':>8} "
                  f"{'max ms':>8}")
            for path in ("/api/games", "/api/matches"):
                print(f"{path + ' quiet':<28} {figures(quiet[path])}")
                print(f"{path + ' during flood':<28} {figures(during[path])}")
                print(f"{path + ' after':<28} {figures(after[path])}")
            http.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
