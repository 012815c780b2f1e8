"""Can one match starve the server? (issue 25 point 2, the first acceptance point)

For each variant a real server starts on a throwaway SQLite file, one ``POST /api/matches``
sends the variant's settings (the audit's Locked Out! with ``round_seconds: 0`` and no round
limit; with five instant bots at time scale 0.001; rounds just under the G-5 bound; zero
durations in the other games), and for ``--seconds`` this process reads ``GET /api/games``
every 100 ms. Printed per variant: the creation's answer, the readers' p50/p99/max latency (a
read that times out counts as its time-out), the server's longest event-loop stall
(``ARENA_LOOP_MONITOR``; a slow read without a stall is this client or the shared machine),
the RSS growth, then, after a SIGKILL and a restart on the same file (three times), the
seconds until ``/api/games`` and the lobby serve, and the match as its host sees it then.
``--src`` runs another checkout's sources (``git archive main src | tar -x -C /tmp/before``)
for a before/after comparison.

    .venv/bin/python bench/starve.py [--seconds 30] [--only audit,bots] [--rss-cap 1500]
        [--src /tmp/before/src]

Targets (issue 25): reads within 200 ms throughout, RSS growth under 50 MB, a restart that
serves within 5 s. ``--rss-cap`` stops a variant whose server passes that many MB, to spare
the machine (the figures then say so).
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]

RESTARTS = 3
"""SIGKILL and restart this many times (on a shared machine one start can be slow)."""

LO_SEATS = [{}] + [{"bot": True} for _ in range(5)]

VARIANTS: dict[str, dict[str, Any]] = {
    # The audit's request, verbatim: max_rounds defaults to 0 (no limit).
    "audit": {"game": "lockedout", "config": {"round_seconds": 0}},
    "bots": {"game": "lockedout", "seats": LO_SEATS,
             "settings": {"time_scale": 0.001, "bot_pace": "instant"}},
    "bots_zero": {"game": "lockedout", "seats": LO_SEATS, "config": {"round_seconds": 0},
                  "settings": {"time_scale": 0.001, "bot_pace": "instant"}},
    # Just under the G-5 bound of 50 deadlines a second, with no round limit: runs on.
    "lo_40hz": {"game": "lockedout", "config": {"round_seconds": 0.025}},
    "bots5": {"game": "lockedout", "seats": [{"bot": True}] * 5,
              "settings": {"time_scale": 0.001, "bot_pace": "instant"}},
    "lo_all_zero": {"game": "lockedout", "seats": [{"bot": True}] * 6,
                    "settings": {"bot_pace": "instant"},
                    "config": {"round_seconds": 0, "vote_seconds": 0}},
    "feather_zero": {"game": "feather", "config": {"tick": 0, "study": 0}},
    "feather_fast": {"game": "feather", "config": {"tick": 0.001, "study": 0}},
    "boxes_zero": {"game": "boxes", "config": {"study_boards": 0, "study_cards": 0, "bet": 0,
                                               "pick": 0, "reserve_period": 0}},
    "lockmaker_zero": {"game": "lockmaker", "config": {
        "study": 0, "draft_turn": 0, "build": 0, "solve": 0, "pick": 0, "decide": 0,
        "reserve_period": 0}},
    "paint_zero": {"game": "paint", "config": {"design_time": 0, "decision_time": 0,
                                               "reserve_period": 0}},
}


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class Server:
    def __init__(self, src: Path, database: Path, log: Path) -> None:
        self.src, self.database, self.log = src, database, log
        with socket_port() as port:
            self.url = f"http://127.0.0.1:{port}"
            self.port = port
        self.proc: subprocess.Popen[bytes] | None = None

    def spawn(self) -> None:
        env = dict(os.environ, PYTHONPATH=f"{self.src}{os.pathsep}{ROOT / 'tests'}",
                   ARENA_EXTRA_GAMES="toygame:TOY", ARENA_CREATE_LIMIT="10000,1000",
                   ARENA_LOOP_MONITOR="1")
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "arena", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port), "--database", str(self.database)],
                stdout=out, stderr=subprocess.STDOUT, env=env)

    def wait_serving(self, http: httpx.Client, paths: tuple[str, ...], limit: float) -> float:
        """Seconds from now until every path answers 200 (inf past ``limit``)."""
        t0 = time.monotonic()
        pending = list(paths)
        while pending and time.monotonic() - t0 < limit:
            assert self.proc is not None
            if self.proc.poll() is not None:
                return float("inf")
            try:
                if http.get(self.url + pending[0], timeout=1).status_code == 200:
                    pending.pop(0)
                    continue
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        return time.monotonic() - t0 if not pending else float("inf")

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=30)
            self.proc = None


class socket_port:
    def __enter__(self) -> int:
        import socket
        self.s = socket.socket()
        self.s.bind(("127.0.0.1", 0))
        port: int = self.s.getsockname()[1]
        return port

    def __exit__(self, *exc: object) -> None:
        self.s.close()


def after_restart(http: httpx.Client, base: str, host: str) -> str:
    """The match as its host sees it once the restarted server has rebuilt it."""
    try:
        r = http.get(f"{base}/view", params={"token": host}, timeout=30)
    except httpx.HTTPError as exc:
        return f"unreadable ({type(exc).__name__})"
    if r.status_code != 200:
        return f"{r.status_code} {r.json().get('error', '')[:70]}"
    view = r.json()
    if view.get("result"):
        return "finished"
    if view.get("pause_reason"):
        return f"paused at phase {view['phase']['no']} ({view['pause_reason'][:50]}...)"
    return f"running, phase {view['phase']['no'] if view.get('phase') else '-'}"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(name: str, body: dict[str, Any], src: Path, seconds: float, cap: float) -> None:
    with tempfile.TemporaryDirectory(prefix="arena-starve-") as tmp:
        server = Server(src, Path(tmp) / "arena.db", Path(tmp) / "server.log")
        http = httpx.Client()
        server.spawn()
        assert server.proc is not None
        if server.wait_serving(http, ("/api/games",), 60) == float("inf"):
            print(f"{name}: the server did not start\n{server.log.read_text()}")
            return
        pid = server.proc.pid
        for _ in range(5):  # warm up the route and the allocator
            http.get(server.url + "/api/games")
        http.post(server.url + "/api/debug/loop")  # the loop's stalls from here on
        rss0 = rss_mb(pid)
        r = http.post(server.url + "/api/matches", json=body, timeout=30)
        created = f"{r.status_code}"
        match_id = r.json().get("id") if r.status_code == 201 else None
        host = r.json()["tokens"]["host"] if match_id else ""
        if match_id is None:
            created += f" {r.json().get('error', '')[:70]}"
        latencies: list[float] = []
        timeouts = 0
        rss_max = rss0
        capped = False
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            t0 = time.perf_counter()
            try:
                http.get(server.url + "/api/games", timeout=5)
            except httpx.HTTPError:
                timeouts += 1
            latencies.append(time.perf_counter() - t0)
            rss_max = max(rss_max, rss_mb(pid))
            if rss_max - rss0 > cap:
                capped = True
                break
            time.sleep(max(0.0, 0.1 - (time.perf_counter() - t0)))
        stall = "-"
        if not capped:
            try:
                loop = http.get(server.url + "/api/debug/loop", timeout=5).json()
                stall = f"{loop['max_stall'] * 1000:.0f}"
            except (httpx.HTTPError, ValueError, KeyError):
                stall = "?"
        ups: list[float] = []
        status = "-"
        for _ in range(RESTARTS):
            server.kill()
            server.spawn()
            ups.append(server.wait_serving(http, ("/api/games", "/"), 60))
            if match_id is not None and ups[-1] != float("inf"):
                status = after_restart(http, f"{server.url}/api/matches/{match_id}", host)
            if ups[-1] == float("inf"):
                break
        server.kill()
        http.close()
        ms = [x * 1000 for x in latencies]
        print(f"{name:15} create {created:4} reads {len(ms):3} p50 {statistics.median(ms):7.1f}"
              f" p99 {pct(ms, 0.99):7.1f} max {max(ms):7.1f} ms  timeouts {timeouts:2}  "
              f"loop stall max {stall:>5} ms  "
              f"RSS +{rss_max - rss0:6.1f} MB{' (capped)' if capped else ''}  "
              f"restarts serve in {'/'.join(f'{u:.2f}' for u in ups)} s  "
              f"match after restart: {status}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--only", default="", help="comma-separated variant names")
    ap.add_argument("--rss-cap", type=float, default=1500.0, help="MB of growth to stop at")
    ap.add_argument("--src", type=Path, default=ROOT / "src",
                    help="the sources the server runs (another checkout, for before/after)")
    args = ap.parse_args()
    names = [n for n in args.only.split(",") if n] or list(VARIANTS)
    print(f"{args.seconds:g} s per variant; reads of /api/games every 100 ms (time-out 5 s)")
    for name in names:
        run(name, VARIANTS[name], args.src.resolve(), args.seconds, args.rss_cap)


if __name__ == "__main__":
    main()
