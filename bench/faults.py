"""SIGKILL the server at random moments and lose nothing (issue 20 point 7).

A real ``arena serve`` runs all-bot matches of the five games (instant bots, a small time
scale, so each finishes in seconds; new ones start as old ones end) and, for each game and the
toy game, a match whose seat 0 a scripted client plays like a person: it reads the host's log,
rebuilds the match and submits ``Game.random_submission`` as final. Meanwhile the server is
killed with SIGKILL at ``--kills`` random moments (seeded) within ``--seconds`` and started
again on the same database. Then no new matches start, every match is played to its end, and:

- every submission the server answered 200 must be in the stored log, at or before the
  version the answer named (``lost`` counts those that are not);
- every finished match's log must equal, entry for entry, an uninterrupted replay of its
  inputs with its seed (``Match.replay``), and its result the replay's.

    .venv/bin/python bench/faults.py [--kills 10] [--seconds 90] [--seed 1]
        [--database postgresql://...] [--postgres]

SQLite (a throwaway file) by default; ``--database`` runs on that database instead, and
``--postgres`` also runs on a throwaway PostgreSQL cluster started here (initdb as the
postgres user, as ``tests/server/conftest.py`` does; needs root and PostgreSQL installed).

Outage mode (issue 25 point 4), instead of kills::

    .venv/bin/python bench/faults.py --outage sqlite|postgres [--outage-seconds 10]

The same matches run, and reader threads read views, events, the lobby and match records
all along; a third of the way in, the database goes away for ``--outage-seconds``: on
PostgreSQL the throwaway server is stopped (``pg_ctl stop -m fast``) and started again, on
SQLite another process holds the file's write lock (``BEGIN IMMEDIATE``). It prints the 5xx
answers to reads, the read p50/p99 during the outage, the commands answered during it and
how many of them 503, the log lines of the outage, and the same lost / replay checks.
Targets: no 5xx on reads, read p99 under 100 ms, every command refused with 503, 0 lost,
every log equal to its replay.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))

from arena.core.game import Game  # noqa: E402
from arena.core.registry import all_games, register  # noqa: E402
from arena.server.games import load_games  # noqa: E402
from server.pgcluster import Cluster, NoPostgres, throwaway_cluster  # noqa: E402
from server.serverproc import ServerProcess  # noqa: E402
from server.shadow import host_events, normalised, rebuild  # noqa: E402
from toygame import TOY  # noqa: E402

GAMES = ("lockmaker", "boxes", "paint", "feather", "lockedout")
BOT_SCALE = 0.01
HUMAN_SCALE = 0.02
OPTIONS: dict[str, dict[str, Any]] = {
    "lockmaker": {"rounds": 2},
    "boxes": {"bouts": 2},
    "paint": {},
    # Clock-driven: 20 ticks of 10 s x the time scale, no practice, no study.
    "feather": {"practice": False, "session_ticks": 20, "study": 0},
    "lockedout": {},
    "toy": {"rounds": 3},
}
SEATS = {"lockedout": 4}


def _games() -> dict[str, Game[Any, Any]]:
    load_games()
    register(TOY)
    local = all_games(include_extra=True)
    return {name: local[name] for name in (*GAMES, "toy")}


@dataclasses.dataclass
class Tracked:
    """One match this bench created, and what it needs to replay it."""

    game: Game[Any, Any]
    id: str
    host: str
    seat: str | None
    config: dict[str, Any]
    settings: dict[str, Any]
    accepted: list[tuple[str, int]] = dataclasses.field(default_factory=list)
    """(text, version) of every submission the server answered 200 for seat 0."""
    spectator: str = ""


class Bench:
    def __init__(self, server: ServerProcess, seed: int) -> None:
        self.server = server
        self.games = _games()
        self.rng = random.Random(seed)
        self.tracked: list[Tracked] = []
        self.lock = threading.Lock()
        self.creating = threading.Event()
        self.creating.set()
        self.stopping = threading.Event()
        self.errors: list[str] = []
        self.refused: int = 0
        # Outage mode: (sent, answered, method, status) of every request, and the window.
        self.calls: list[tuple[float, float, str, str, int]] = []
        self.outage: tuple[float, float] | None = None

    def client(self) -> httpx.Client:
        """A client that records every answer (when sent and answered, what, status)."""
        sent: dict[int, float] = {}

        def on_request(request: httpx.Request) -> None:
            sent[id(request)] = time.monotonic()

        def on_response(response: httpx.Response) -> None:
            t0 = sent.pop(id(response.request), time.monotonic())
            with self.lock:
                self.calls.append((t0, time.monotonic(), response.request.method,
                                   _kind(response.request.url.path), response.status_code))

        return httpx.Client(timeout=30, event_hooks={"request": [on_request],
                                                     "response": [on_response]})

    # ------------------------------------------------------------------ helpers
    def _create(self, http: httpx.Client, name: str, human: bool, seed: int) -> Tracked | None:
        game = self.games[name]
        count = SEATS.get(name, game.seats)
        seats = [{"name": f"P{i}", "bot": not (human and i == 0)} for i in range(count)]
        fields = {f.name for f in dataclasses.fields(game.default_config())}
        config = dict(OPTIONS[name])
        if human and "reserve_periods" in fields and name != "feather":
            config["reserve_periods"] = 200  # a human waiting through a kill keeps its seat
        settings = {"time_scale": HUMAN_SCALE if human else BOT_SCALE, "bot_pace": "instant"}
        body = {"game": name, "seats": seats, "settings": settings, "config": config,
                "seed": seed}
        try:
            r = http.post(self.server.url + "/api/matches", json=body)
        except httpx.HTTPError:
            return None  # the server is down; an answer lost this way leaves an orphan
        if r.status_code == 503 and "nothing was applied" in r.text:
            return None  # the database is away (outage mode): try again later
        if r.status_code != 201:
            self.errors.append(f"create {name}: {r.status_code} {r.text[:200]}")
            return None
        data = r.json()
        stored = game.config_for_seats(config, [str(s["name"]) for s in seats])
        t = Tracked(game, data["id"], data["tokens"]["host"],
                    data["tokens"]["seats"][0] if human else None, stored, settings,
                    spectator=data["tokens"]["spectator"])
        with self.lock:
            self.tracked.append(t)
        return t

    def _status(self, http: httpx.Client, t: Tracked) -> str | None:
        try:
            r = http.get(f"{self.server.url}/api/matches/{t.id}")
            return str(r.json()["status"]) if r.status_code == 200 else None
        except (httpx.HTTPError, ValueError):
            return None

    # ------------------------------------------------------------------ players
    def bots(self, name: str, seed: int) -> None:
        """Keeps one all-bot match of ``name`` running while the bench creates matches."""
        http = self.client()
        current: Tracked | None = None
        while not self.stopping.is_set():
            if current is None or self._status(http, current) == "finished":
                current = None
                if self.creating.is_set():
                    current = self._create(http, name, human=False, seed=seed)
                    seed += 1
            time.sleep(0.1)
        http.close()

    def human(self, name: str, seed: int) -> None:
        """Plays seat 0 of one match of ``name`` after another, like a person."""
        http = self.client()
        rng = random.Random(seed)
        current: Tracked | None = None
        done_phase = -1
        while not self.stopping.is_set():
            try:
                if current is None:
                    if self.creating.is_set():
                        current = self._create(http, name, human=True, seed=seed)
                        seed += 1
                        done_phase = -1
                    if current is None:
                        time.sleep(0.1)
                    continue
                over, done_phase = self._step(http, current, rng, done_phase)
                if over:
                    current = None
            except (httpx.HTTPError, ValueError, KeyError):
                pass  # the server is down or restarting
            except Exception as exc:  # a bench bug: say so instead of stopping quietly
                self.errors.append(f"human {name}: {type(exc).__name__}: {exc}")
                current = None
            time.sleep(0.03)
        http.close()

    def _step(self, http: httpx.Client, t: Tracked, rng: random.Random,
              done_phase: int) -> tuple[bool, int]:
        base = self.server.url
        assert t.seat is not None
        view = http.get(f"{base}/api/matches/{t.id}/view", params={"token": t.seat}).json()
        if view["result"] is not None:
            return True, done_phase
        phase = view["phase"]
        if phase is None or 0 not in phase["waiting_for"] or phase["no"] == done_phase:
            return False, done_phase
        names = [f"P{i}" for i in range(SEATS.get(t.game.name, t.game.seats))]
        match = rebuild(t.game, t.config, t.settings, host_events(http, base, t.id, t.host),
                        names)
        if match.finished or 0 not in match.waiting_for():
            return False, done_phase
        text = t.game.random_submission(match.state, 0, rng)
        if text is None:
            return False, phase["no"]
        r = http.post(f"{base}/api/matches/{t.id}/submit", params={"token": t.seat},
                      json={"text": text, "final": True, "phase": match.phase_no})
        if r.status_code == 200:
            t.accepted.append((text, int(r.json()["version"])))
            return False, phase["no"]
        if r.status_code == 503 and "nothing was applied" in r.text:
            self.refused += 1  # the database is away: try again on the next round
        elif r.status_code >= 500:
            self.errors.append(f"submit {t.game.name}: {r.status_code} {r.text[:200]}")
        else:
            self.refused += 1  # the phase moved on meanwhile (409, G-2), or a rate limit
        return False, done_phase

    def reader(self, seed: int) -> None:
        """Reads like the open pages and the lobby do: a view, the events, the lobby, a
        match's record, over and over (outage mode)."""
        http = self.client()
        rng = random.Random(seed)
        base = self.server.url
        while not self.stopping.is_set():
            with self.lock:
                tracked = list(self.tracked[-30:])
            if not tracked:
                time.sleep(0.05)
                continue
            t = rng.choice(tracked)
            which = rng.randrange(4)
            try:
                if which == 0:
                    # A spectator's view, as the lobby's watch links open (Boxes' host view
                    # computes the odds of every board: a second of CPU in some states).
                    http.get(f"{base}/api/matches/{t.id}/view", params={"token": t.spectator})
                elif which == 1:
                    http.get(f"{base}/api/matches/{t.id}/events",
                             params={"token": t.host, "since": 0})
                elif which == 2:
                    http.get(f"{base}/api/matches")
                else:
                    http.get(f"{base}/api/matches/{t.id}")
            except httpx.HTTPError:
                pass
            time.sleep(0.02)
        http.close()

    def commander(self, seed: int) -> None:
        """Sends commands all along (outage mode): a host's line in the table chat of a
        running match, an input of its log like any submission."""
        http = self.client()
        rng = random.Random(seed)
        base = self.server.url
        n = 0
        while not self.stopping.is_set():
            with self.lock:
                tracked = list(self.tracked[-12:])
            if tracked and self.creating.is_set():
                t = rng.choice(tracked)
                try:
                    if self._status(http, t) == "running":
                        n += 1
                        http.post(f"{base}/api/matches/{t.id}/chat", params={"token": t.host},
                                  json={"channel": "table", "text": f"line {n}"})
                except httpx.HTTPError:
                    pass
            time.sleep(0.1)
        http.close()

    # ------------------------------------------------------------------ checks
    def check(self, t: Tracked, http: httpx.Client) -> dict[str, int]:
        out = {"finished": 0, "equal": 0, "lost": 0, "accepted": len(t.accepted)}
        log = host_events(http, self.server.url, t.id, t.host)
        human = [(str(e.data["text"]), e.version) for e in log
                 if e.kind == "submit" and e.data["seat"] == 0]
        # An answer names the seat's own version (G-10): the log version of its n-th
        # visible entry (a finished match numbers as the log does, which only loosens this).
        seen = [e.version for e in log if (e.to is None or 0 in e.to) and not (
            e.kind == "chat" and isinstance(e.data, dict) and e.data.get("channel") == "spectators")]
        # Every 200 answer is in the log, in order, at or before the version it named; an
        # answer lost in a kill may leave an extra entry that no answer names.
        i = 0
        for text, seq in t.accepted:
            version = seen[seq - 1] if 1 <= seq <= len(seen) else seq
            while i < len(human) and not (human[i][0] == text and human[i][1] <= version):
                i += 1
            if i == len(human):
                out["lost"] += 1
                self.errors.append(f"{t.game.name} {t.id}: accepted {text!r} (v{version}) "
                                   "is not in the log")
            else:
                i += 1
        if not log or log[-1].kind != "match_ended":
            return out
        out["finished"] = 1
        names = [f"P{i}" for i in range(SEATS.get(t.game.name, t.game.seats))]
        replayed = rebuild(t.game, t.config, t.settings, log, names)  # texts name the seats
        ours, theirs = normalised(replayed.log), normalised(log)
        final = http.get(f"{self.server.url}/api/matches/{t.id}/view",
                         params={"token": t.host}).json()
        if ours == theirs and replayed.result is not None \
                and final["result"] == replayed.result.to_json():
            out["equal"] = 1
        else:
            first = next((k for k, (a, b) in enumerate(zip(ours, theirs, strict=False))
                          if a != b), min(len(ours), len(theirs)))
            self.errors.append(f"{t.game.name} {t.id}: replay differs at entry {first}: "
                               f"{ours[first:first + 1]} vs {theirs[first:first + 1]}")
        return out


def _kind(path: str) -> str:
    """A request's endpoint without its ids: ``view``, ``events``, ``lobby``, ``submit``..."""
    parts = path.strip("/").split("/")
    if parts[:2] == ["api", "matches"]:
        return "lobby" if len(parts) == 2 else ("record" if len(parts) == 3 else parts[3])
    return parts[-1]


class Outage:
    """Takes the database away and gives it back: PostgreSQL stopped and started, or an
    SQLite write lock held by another process."""

    def __init__(self, kind: str, database: str, cluster: Cluster | None) -> None:
        self.kind, self.database, self.cluster = kind, database, cluster
        self.holder: subprocess.Popen[str] | None = None

    def begin(self) -> None:
        if self.cluster is not None:
            self.cluster.stop("fast")
            return
        path = self.database.split(":///", 1)[1]
        code = ("import sqlite3, sys\n"
                f"c = sqlite3.connect({path!r}, timeout=30, isolation_level=None)\n"
                "c.execute('BEGIN IMMEDIATE')\n"
                "print('locked', flush=True)\n"
                "sys.stdin.readline()\n"
                "c.execute('ROLLBACK')\n")
        self.holder = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, text=True)
        assert self.holder.stdout is not None
        assert self.holder.stdout.readline().strip() == "locked"

    def end(self) -> None:
        if self.cluster is not None:
            self.cluster.start()
            return
        assert self.holder is not None and self.holder.stdin is not None
        self.holder.stdin.write("\n")
        self.holder.stdin.flush()
        self.holder.wait(timeout=30)


def run(database: str, label: str, kills: int, seconds: float, seed: int,
        settle: float, folder: Path, outage: Outage | None = None,
        outage_seconds: float = 10.0) -> dict[str, Any]:
    env = {"ARENA_CHAT_LIMIT": "1000,100"} if outage is not None else None
    server = ServerProcess(database, folder / f"server-{label}.log", env=env).start()
    bench = Bench(server, seed)
    threads = [threading.Thread(target=bench.bots, args=(name, seed * 1000 + 100 * k),
                                daemon=True) for k, name in enumerate(GAMES)]
    threads += [threading.Thread(target=bench.human, args=(name, seed * 1000 + 100 * k + 50),
                                 daemon=True) for k, name in enumerate((*GAMES, "toy"))]
    if outage is not None:
        threads += [threading.Thread(target=bench.reader, args=(seed * 7 + k,), daemon=True)
                    for k in range(3)]
        threads.append(threading.Thread(target=bench.commander, args=(seed,), daemon=True))
    rng = random.Random(seed)
    moments = sorted(rng.uniform(1.0, seconds) for _ in range(kills))
    restarts: list[float] = []
    started = time.monotonic()
    try:
        for th in threads:
            th.start()
        if outage is not None:
            time.sleep(max(0.0, started + seconds / 3 - time.monotonic()))
            t0 = time.monotonic()
            outage.begin()
            # The window measured: from the moment the database is away (stopped, or the
            # lock held) to the moment it is given back.
            away = time.monotonic()
            time.sleep(max(0.0, t0 + outage_seconds - time.monotonic()))
            bench.outage = (away, time.monotonic())
            outage.end()
        for at in moments:
            time.sleep(max(0.0, started + at - time.monotonic()))
            server.kill()
            time.sleep(rng.uniform(0.0, 0.5))  # deadlines may pass while it is down
            t0 = time.monotonic()
            server.start()
            restarts.append(time.monotonic() - t0)
        time.sleep(max(0.0, started + seconds - time.monotonic()))
        bench.creating.clear()
        http = httpx.Client(timeout=30)
        deadline = time.monotonic() + settle
        while time.monotonic() < deadline:
            with bench.lock:
                tracked = list(bench.tracked)
            if all(bench._status(http, t) == "finished" for t in tracked):
                break
            time.sleep(0.5)
        bench.stopping.set()
        for th in threads:
            th.join(timeout=30)
        totals = {"finished": 0, "equal": 0, "lost": 0, "accepted": 0}
        by_game: dict[str, list[int]] = {}
        for t in bench.tracked:
            checked = bench.check(t, http)
            for k, v in checked.items():
                totals[k] += v
            row = by_game.setdefault(t.game.name, [0, 0, 0])
            row[0] += 1
            row[1] += checked["equal"]
            row[2] += checked["accepted"]
        http.close()
        text = server.log()
        tracebacks = text.count("Traceback")
        lines = [line for line in text.splitlines() if "the database" in line]
    finally:
        bench.stopping.set()
        server.stop()
    out = {"database": label, "kills": kills, "matches": len(bench.tracked), **totals,
           "refused": bench.refused, "restart_s": max(restarts, default=0.0),
           "tracebacks": tracebacks, "errors": bench.errors, "by_game": by_game,
           "elapsed": time.monotonic() - started}
    if bench.outage is not None:
        out["outage"] = _outage_figures(bench, lines)
    return out


def _outage_figures(bench: Bench, lines: list[str]) -> dict[str, Any]:
    assert bench.outage is not None
    begin, end = bench.outage
    reads = [(t0, t1, status) for t0, t1, method, _, status in bench.calls if method == "GET"]
    during = sorted(t1 - t0 for t0, t1, _ in reads if begin <= t0 <= end)
    commands = [(status, kind) for t0, _, method, kind, status in bench.calls
                if method == "POST" and begin <= t0 <= end]
    cuts = statistics.quantiles(during, n=100) if len(during) >= 2 else [0.0] * 99
    return {
        "reads": len(reads), "reads_5xx": sum(1 for *_, s in reads if s >= 500),
        "reads_during": len(during), "read_p50_ms": 1000 * cuts[49],
        "read_p99_ms": 1000 * cuts[98], "read_max_ms": 1000 * max(during, default=0.0),
        "commands_during": len(commands),
        "answered_503": sum(1 for s, _ in commands if s == 503),
        "answered_200": sum(1 for s, _ in commands if s in (200, 201)),
        "other": sorted({f"{k} {s}" for s, k in commands if s not in (200, 201, 503)}),
        "seconds": end - begin, "log_lines": lines,
    }


def _print(r: dict[str, Any]) -> None:
    print(f"{r['database']:>10}: kills {r['kills']}, accepted submissions {r['accepted']}, "
          f"lost {r['lost']}, matches {r['matches']}, finished {r['finished']}, "
          f"results equal to the replay {r['equal']}/{r['finished']}, "
          f"tracebacks {r['tracebacks']}, longest restart {r['restart_s']:.1f} s, "
          f"{r['elapsed']:.0f} s", flush=True)
    print("            by game (matches, equal to the replay, accepted): " + ", ".join(
        f"{name} {m}/{e}/{a}" for name, (m, e, a) in sorted(r["by_game"].items())))
    o = r.get("outage")
    if o is not None:
        print(f"            outage {o['seconds']:.1f} s: reads {o['reads']} in all, 5xx on reads "
              f"{o['reads_5xx']}; during the outage {o['reads_during']} reads, p50 "
              f"{o['read_p50_ms']:.1f} ms, p99 {o['read_p99_ms']:.1f} ms, max "
              f"{o['read_max_ms']:.0f} ms; commands during it {o['commands_during']}, "
              f"answered 503 {o['answered_503']}, applied {o['answered_200']}"
              + (f", other answers {', '.join(o['other'])}" if o["other"] else ""))
        for line in o["log_lines"]:
            print("            log:", line)
    for line in r["errors"][:10]:
        print("    ", line)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kills", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=90.0,
                    help="how long matches start and kills happen, per database")
    ap.add_argument("--settle", type=float, default=60.0,
                    help="how long the running matches may take to finish afterwards")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--database", help="a database URL instead of a throwaway SQLite file")
    ap.add_argument("--postgres", action="store_true",
                    help="also run on a throwaway PostgreSQL cluster started here")
    ap.add_argument("--outage", choices=["sqlite", "postgres"],
                    help="no kills: take the database away once (see the module's words)")
    ap.add_argument("--outage-seconds", type=float, default=10.0)
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="arena-faults-"))
    results = []
    if args.outage == "sqlite":
        url = f"sqlite:///{folder / 'outage.db'}"
        results.append(run(url, "sqlite", 0, args.seconds, args.seed, args.settle, folder,
                           Outage("sqlite", url, None), args.outage_seconds))
        _print(results[-1])
    elif args.outage == "postgres":
        try:
            with throwaway_cluster() as cluster:
                results.append(run(cluster.url, "postgresql", 0, args.seconds, args.seed,
                                   args.settle, folder, Outage("postgres", cluster.url, cluster),
                                   args.outage_seconds))
        except NoPostgres as exc:
            raise SystemExit(f"--outage postgres: {exc}") from None
        _print(results[-1])
    elif args.database:
        label = args.database.split(":", 1)[0].split("+", 1)[0]
        results.append(run(args.database, label, args.kills, args.seconds, args.seed,
                           args.settle, folder))
    else:
        results.append(run(f"sqlite:///{folder / 'faults.db'}", "sqlite", args.kills,
                           args.seconds, args.seed, args.settle, folder))
    if not args.outage:
        _print(results[-1])
    if args.postgres and not args.outage:
        try:
            with throwaway_cluster() as cluster:
                results.append(run(cluster.url, "postgresql", args.kills, args.seconds,
                                   args.seed, args.settle, folder))
        except NoPostgres as exc:
            raise SystemExit(f"--postgres: {exc}") from None
        _print(results[-1])
    bad = any(r["lost"] or r["equal"] != r["finished"] or r["finished"] != r["matches"]
              for r in results)
    for r in results:
        o = r.get("outage")
        if o is not None and (o["reads_5xx"] or o["read_p99_ms"] >= 100
                              or o["other"] or r["tracebacks"]):
            bad = True
    print(f"server logs in {folder}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
