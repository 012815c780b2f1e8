"""Fuzz every endpoint and every socket message type (issue 20 point 7).

A real ``arena serve`` on a throwaway SQLite file (or ``--database``, or ``--postgres`` for a
throwaway PostgreSQL cluster). The endpoints are those of the OpenAPI document the server
serves at ``/api/openapi.json`` plus every other route of the app (listed apart, so a route
missing from the document shows). Each worker owns a match of one of the games (all seats
human, time scale 1000, so nothing moves unless a request moves it) and sends seeded random
requests: a documented or undocumented route, path parameters (its own match, another match,
junk), the token of each role (its seat, another seat, the spectator, the host, another match's
host, none, garbage; in the query or as a Bearer header), query parameters and bodies built
from the document's schema and then broken (wrong types, extra keys, NaN, Infinity, 10**400,
deep nesting, oversize, not JSON at all), and now and then a legal submission (the game's
``random_submission`` over the host's log) so matches move on and deeper states are fuzzed.

After every rejected request (4xx), and after every read (an accepted GET), the worker's match
must be unchanged: the host's ``/events?since=V`` must still answer version V and no new
entry. After an accepted change the worker waits for the match to settle (a seat the host
handed to a bot acts at once) and takes its new version.

Then ``--sockets`` WebSocket sessions connect with the same kinds of tokens and ``since`` and
send random messages (ping, other JSON, junk text, binary frames, oversize text, a burst past
the rate limit); a socket must end with a close frame and a code the server documents, never
an internal error (1011) or a dropped connection (1006).

Printed: requests, their rate, answers by class, 5xx, tracebacks in the server's log, and
rejections after which the match had changed.

    .venv/bin/python bench/fuzz.py [--requests 20000] [--sockets 300] [--workers 4] [--seed 1]
        [--database URL | --postgres]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import math
import random
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlparse

import httpx
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from arena.core.game import Game  # noqa: E402
from arena.core.match import INPUT_KINDS  # noqa: E402
from arena.core.registry import all_games, register  # noqa: E402
from arena.server.games import load_games  # noqa: E402
from arena.server.limits import MAX_BODY  # noqa: E402
from server.pgcluster import throwaway_postgres  # noqa: E402
from server.serverproc import ServerProcess  # noqa: E402
from server.shadow import host_events, rebuild  # noqa: E402
from toygame import TOY  # noqa: E402

GAMES = ("lockmaker", "boxes", "paint", "feather", "lockedout", "toy")
SETTINGS = {"time_scale": 1000, "bot_pace": "instant"}
ROTATE = 600
"""Requests after which a worker moves to a fresh match of the next game."""
WS_FRAME_LIMIT = 64 * 1024
"""The server's WebSocket frame limit (``ws_max_size`` in ``arena serve``)."""
SOCKET_CODES = {1000, 1001, 1003, 1008, 1009, 4401, 4403, 4404, 4408, 4429}


def _games() -> dict[str, Game[Any, Any]]:
    load_games()
    register(TOY)
    local = all_games(include_extra=True)
    return {name: local[name] for name in GAMES}


# ---------------------------------------------------------------------- random values
STRINGS = ["", " ", "x", "ready", "pass", "\x00", "a\x00b", "%00", "../../../etc/passwd",
           "/etc/hosts.toml", "' OR 1=1 --", "<script>alert(1)</script>", "é✓漢字🙂",
           "\ud800", "null", "true", "NaN", "-1", "0", "1e999", "table", "spectators",
           "host", "seat", "default", "\n\t\r", "{}", "[]"]
NUMBERS: list[Any] = [0, 1, -1, 2, 5, 59, 10**9, -(10**9), 2**63, 10**400, -(10**400),
                      0.5, -0.0, 1e-300, 1e308, math.nan, math.inf, -math.inf]


def junk(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if roll < 0.12:
        return rng.choice([None, True, False])
    if roll < 0.35:
        return rng.choice(NUMBERS)
    if roll < 0.65 or depth > 3:
        s = rng.choice(STRINGS)
        if rng.random() < 0.1:
            s = s * rng.choice([50, 1000, 20_000])
        return s
    if roll < 0.82:
        return [junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(["a", "text", "seat", "name", "game", "x" * 50, ""]): junk(rng, depth + 1)
            for _ in range(rng.randrange(4))}


def from_schema(schema: dict[str, Any], rng: random.Random, depth: int = 0) -> Any:
    """A value of the schema's type most of the time, something else otherwise."""
    if rng.random() < 0.15 or depth > 4:
        return junk(rng, depth)
    if "enum" in schema:
        return rng.choice(schema["enum"])
    kind = schema.get("type")
    if kind == "object":
        out = {}
        for key, sub in schema.get("properties", {}).items():
            if rng.random() < 0.8 or key in schema.get("required", []):
                out[key] = from_schema(sub, rng, depth + 1)
        if rng.random() < 0.2:
            out[rng.choice(["extra", "seat", "final", "phase", "seconds", "reason", "open",
                            "bot", "channel", "muted", "name", "value", "notes"])] = junk(rng)
        return out
    if kind == "array":
        return [from_schema(schema.get("items", {}), rng, depth + 1)
                for _ in range(rng.randrange(4))]
    if kind == "integer":
        return rng.choice([0, 1, 2, 3, -1, 10**6, 2**63, 10**400])
    if kind == "number":
        return rng.choice([0.001, 0.5, 1, 2, 1000, 1e-300, math.nan, math.inf])
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "string":
        return rng.choice(STRINGS)
    return junk(rng, depth)


def _plain(value: Any, size: int = 200) -> str:
    """A value as query text (a lone surrogate cannot travel in a URL; it becomes U+FFFD)."""
    return str(value)[:size].encode("utf-8", "replace").decode()


def _quoted(value: Any, size: int) -> str:
    """A value as one path segment, every byte escaped (a lone surrogate too)."""
    return quote(str(value)[:size].encode("utf-8", "surrogatepass"), safe="")


# Bodies for routes the document does not describe, and richer ones for those it does.
EXTRA_BODIES: dict[str, dict[str, Any]] = {
    "reissue": {"type": "object", "properties": {"seat": {"type": "integer"}}},
    "seat": {"type": "object", "properties": {"seat": {"type": "integer"},
                                              "bot": {"type": "boolean"}}},
    "spectators": {"type": "object", "properties": {"open": {"type": "boolean"}}},
    "notes": {"type": "object", "properties": {"notes": {"type": "string"}}},
    "host": {"type": "object", "properties": {
        "seconds": {"type": "number"}, "reason": {"type": "string"},
        "channel": {"enum": ["table", "spectators", "x"]}, "muted": {"type": "boolean"},
        "name": {"type": "string"}, "value": {"type": "boolean"}}},
    "matches": {"type": "object", "properties": {
        "game": {"enum": list(GAMES)}, "seed": {"type": "integer"},
        "seats": {"type": "array", "items": {"type": "object", "properties": {
            "name": {"type": "string"}, "bot": {"type": "boolean"}}}},
        "settings": {"type": "object", "properties": {
            "time_scale": {"type": "number"}, "bot_pace": {"enum": ["human", "instant"]},
            "early_close": {"type": "boolean"}, "reveal_at_end": {"type": "boolean"},
            "spectators": {"type": "boolean"}}},
        "config": {"type": "object", "properties": {
            "rounds": {"type": "integer"}, "tick": {"type": "number"},
            "study": {"type": "number"}, "scenario": {"type": "string"},
            "session_ticks": {"type": "integer"}, "decision_time": {"type": "number"},
            "reserve_periods": {"type": "integer"}, "setup": {"type": "string"},
            "board": {"type": "string"}, "names": {"type": "array"}}}}},
    "seasons": {"type": "object", "properties": {
        "cast": {"type": "array", "items": {"type": "string"}}, "seed": {"type": "integer"},
        "settings": {"type": "object"}, "step_seconds": {"type": "number"},
        "mm_config": {"type": "object"}}},
    "season_step": {"type": "object", "properties": {
        "to": {"enum": ["Ann", "Bob", "Cy", "Zed"]}, "dmo": {"enum": ["Ann", "Bob", "Cy"]},
        "reason": {"type": "string"}}},
    "season_host": {"type": "object", "properties": {
        "result": {"type": "object"}, "players": {"type": "array"},
        "reason": {"type": "string"}, "ec": {"enum": ["Ann", "Bob", "Cy"]},
        "winner": {"enum": ["Ann", "Bob", "Cy"]}, "loser": {"enum": ["Ann", "Bob", "Cy"]},
        "game": {"enum": ["lockmaker", "boxes", "paint", "feather", "x"]},
        "player": {"enum": ["Ann", "Bob", "Cy"]}, "what": {"enum": ["tol", "garnets", "opal"]},
        "amount": {"type": "integer"}}},
}


class Route:
    def __init__(self, method: str, path: str, documented: bool,
                 params: list[dict[str, Any]], body: dict[str, Any] | None) -> None:
        self.method, self.path, self.documented = method, path, documented
        self.params, self.body = params, body

    def __repr__(self) -> str:
        return f"{self.method} {self.path}"


def routes_of(spec: dict[str, Any]) -> list[Route]:
    """The document's operations, then every other API route of the app."""
    from starlette.routing import Route as StarRoute

    from arena.server.app import create_app

    out: list[Route] = []
    seen: set[tuple[str, str]] = set()
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            body = op.get("requestBody", {}).get("content", {}).get(
                "application/json", {}).get("schema")
            out.append(Route(method.upper(), path, True, op.get("parameters", []), body))
            seen.add((method.upper(), path))
    for app_route in create_app("sqlite://").routes:
        if not isinstance(app_route, StarRoute) or not app_route.methods:
            continue
        for method in sorted(app_route.methods - {"HEAD"}):
            if (method, app_route.path) in seen:
                continue
            seen.add((method, app_route.path))
            tail = app_route.path.rsplit("/", 1)[-1]
            body = EXTRA_BODIES.get(tail) if method == "POST" else None
            out.append(Route(method, app_route.path, False, [], body))
    for r in out:  # richer bodies than the document's for a few documented routes
        if r.path == "/api/matches" and r.method == "POST":
            r.body = EXTRA_BODIES["matches"]
        if r.path == "/api/matches/{match_id}/host/{action}":
            r.body = EXTRA_BODIES["host"]
        if r.path.endswith(("/gift", "/nominate")):
            r.body = EXTRA_BODIES["season_step"]
        if r.path == "/api/seasons/{season_id}/host/{action}":
            r.body = EXTRA_BODIES["season_host"]
    return out


# ---------------------------------------------------------------------- the fuzzer
class Target:
    """A match a worker owns: its id, its links, and the version last seen by the host."""

    def __init__(self, created: dict[str, Any], game: Game[Any, Any]) -> None:
        self.id: str = created["id"]
        self.game = game
        self.seats: list[str | None] = list(created["tokens"]["seats"])
        self.spectator: str = created["tokens"]["spectator"]
        self.host: str = created["tokens"]["host"]
        self.version = 0
        self.texts: list[tuple[int, str]] = []


class Fuzzer:
    def __init__(self, server: ServerProcess, routes: list[Route], seed: int) -> None:
        self.s = server
        self.routes = routes
        self.submit = next(r for r in routes if r.path.endswith("/submit"))
        self.seed = seed
        self.games = _games()
        self.lock = threading.Lock()
        self.codes: Counter[int] = Counter()
        self.by_route: dict[str, Counter[int]] = {}
        self.server_errors: list[str] = []
        self.changed: list[str] = []
        self.read_changed: list[str] = []
        self.sent = 0
        self.resets = 0
        self.moves = 0
        self.shared: Target | None = None
        self.season: dict[str, Any] = {}

    def create(self, http: httpx.Client, name: str, seed: int) -> Target:
        game = self.games[name]
        count = 4 if name == "lockedout" else game.seats
        r = http.post(self.s.url + "/api/matches", json={
            "game": name, "seed": seed, "settings": SETTINGS,
            "seats": [{"name": f"P{i}", "bot": False} for i in range(count)]})
        assert r.status_code == 201, r.text
        t = Target(r.json(), game)
        self.settle(http, t)
        return t

    def host_version(self, http: httpx.Client, t: Target) -> tuple[int, list[str]]:
        """The match's version and the kinds of the entries after the one last seen, leaving
        out what a bot seat did on its own: a seat the host gave to a bot moves the match
        whenever the bot has thought (later than the settle wait when the machine is
        loaded), which no request caused."""
        r = http.get(f"{self.s.url}/api/matches/{t.id}/events",
                     params={"token": t.host, "since": t.version})
        r.raise_for_status()
        data = r.json()
        events = data["events"]
        inputs = [e for e in events if e["kind"] in INPUT_KINDS]
        if inputs and all(e["kind"] == "submit" and e["data"].get("bot") for e in inputs):
            return int(data["version"]), []
        return int(data["version"]), [e["kind"] for e in events]

    def settle(self, http: httpx.Client, t: Target) -> None:
        """The version once the match stops moving: a seat the host gave to a bot acts on its
        own right after a change, so with a bot seated the match must stay still longer."""
        quiet = 0.3 if any(s is None for s in t.seats) else 0.02
        last = -1
        for _ in range(50):
            version, _ = self.host_version(http, t)
            if version == last:
                break
            last = version
            time.sleep(quiet)
        t.version = last

    def legal_texts(self, http: httpx.Client, t: Target, rng: random.Random) -> None:
        match = rebuild(t.game, t.game.config_for_seats({}, [f"P{i}" for i in range(len(t.seats))]),
                        SETTINGS, host_events(http, self.s.url, t.id, t.host))
        t.texts = []
        if match.finished:
            return
        for seat in sorted(match.waiting_for()):
            with contextlib.suppress(Exception):
                text = t.game.random_submission(match.state, seat, rng)
                if text is not None:
                    t.texts.append((seat, text))

    def token(self, t: Target, rng: random.Random) -> tuple[str, str | None]:
        assert self.shared is not None
        roll = rng.randrange(10)
        seats = [s for s in t.seats if s]
        if roll < 3 and seats:
            return "seat", rng.choice(seats)
        if roll == 3:
            return "spectator", t.spectator
        if roll < 6:
            return "host", t.host
        if roll == 6:
            return "none", None
        if roll == 7:
            return "other-match", rng.choice([self.shared.host, self.shared.spectator])
        return "garbage", rng.choice(["x", "\x00", "a" * 64, "a" * 129, "é🙂", "' OR 1=1 --",
                                      t.host[:-1] + "A", "null", " " + t.host])

    def path_value(self, name: str, t: Target, rng: random.Random) -> str:
        assert self.shared is not None
        if rng.random() < 0.85:
            if name == "match_id":
                return t.id if rng.random() < 0.9 else self.shared.id
            if name == "name":
                return rng.choice(GAMES)
            if name == "season_id":
                return str(self.season.get("id", "x"))
            if name == "action":
                return rng.choice(["pause", "resume", "extend", "end", "mute", "option",
                                   "links", "reissue", "seat", "spectators", "rematch",
                                   "start_main", "start_death", "record_main", "name_ec",
                                   "record_death", "decide", "adjust"])
        return _quoted(junk(rng), 300)

    def one(self, http: httpx.Client, t: Target, rng: random.Random) -> None:
        route = rng.choice(self.routes)
        if t.texts and rng.random() < 0.08:  # move the match on, to fuzz its later phases
            route = self.submit
        path = route.path
        for name in ("match_id", "name", "season_id", "action"):
            if "{" + name + "}" in path:
                path = path.replace("{" + name + "}", self.path_value(name, t, rng))
        params: dict[str, str] = {}
        headers = {"content-type": "application/json"}
        role, token = self.token(t, rng)
        if path.startswith("/api/seasons/") and self.season and rng.random() < 0.6:
            token = rng.choice([self.season["host"], *self.season["players"].values()])
        legal = None
        if route.path.endswith("/submit") and t.texts and rng.random() < 0.5:
            legal = rng.choice(t.texts)
            token = t.seats[legal[0]]
        if token is not None:
            if rng.random() < 0.8 or not (token.isascii() and token.isprintable()):
                params["token"] = token
            else:
                headers["authorization"] = "Bearer " + token
        for p in route.params:
            if p["in"] == "query" and p["name"] != "token" and rng.random() < 0.8:
                params[p["name"]] = _plain(from_schema(p.get("schema", {}), rng))
        if rng.random() < 0.1:
            params[rng.choice(["since", "version", "x", "token"])] = _plain(junk(rng))
        content: bytes | None = None
        if route.method == "POST":
            roll = rng.random()
            if legal is not None:
                body: Any = {"text": legal[1], "final": rng.choice([True, False, "false", 1])}
                if rng.random() < 0.2:
                    body["phase"] = junk(rng)
                content = json.dumps(body).encode()
            elif roll < 0.04:
                content = b"[" * 30_000 + b"]" * 30_000
            elif roll < 0.06:
                content = b'{"text": "' + b"x" * 70_000 + b'"}'
            elif roll < 0.1:
                content = rng.choice([b"", b"{", b"\xff\xfe", b"nul", b"1e999", b"NaN",
                                      b'{"text": "a", "text": 1}', b"\x00"])
            else:
                value = from_schema(route.body or {"type": "object"}, rng)
                content = json.dumps(value).encode()
        self.send(http, t, route, role, path, params, headers, content)

    def send(self, http: httpx.Client, t: Target, route: Route, role: str, path: str,
             params: dict[str, str], headers: dict[str, str], content: bytes | None) -> None:
        try:
            r = http.request(route.method, self.s.url + path, params=params, headers=headers,
                             content=content)
            code = r.status_code
        except httpx.HTTPError as exc:
            r = None
            if content is not None and len(content) > MAX_BODY:
                # Refused by its length before it was read: the server answers 413 and closes,
                # and the client, still sending, may see the reset before the answer.
                code = 413
                with self.lock:
                    self.resets += 1
            else:
                code = 599
                with self.lock:
                    self.server_errors.append(f"{route} as {role}: {type(exc).__name__} {exc}")
        with self.lock:
            self.sent += 1
            self.codes[code] += 1
            self.by_route.setdefault(repr(route), Counter())[code] += 1
            if 500 <= code < 599 and r is not None:
                self.server_errors.append(
                    f"{route} as {role}: {code} {path[:80]} {params} {(content or b'')[:200]!r} "
                    f"-> {r.text[:200]}")
        if 400 <= code < 500 or (code < 400 and route.method == "GET"):
            # A refusal, and a read, leave the match as it was.
            version, new = self.host_version(http, t)
            if new:  # (a version moved by a bot alone leaves no kinds)
                with self.lock:
                    (self.changed if code >= 400 else self.read_changed).append(
                        f"{route} as {role} answered {code} but the match moved from "
                        f"v{t.version} to v{version} ({new}): {path[:80]} "
                        f"{(content or b'')[:200]!r}")
            t.version = version
        elif code == 599:  # no answer: the request may or may not have been applied
            self.settle(http, t)
        elif code < 400:
            if route.path.endswith(("/host/reissue", "/host/seat")) and r is not None:
                data = r.json()
                link = data.get("link")
                t.seats[data["seat"]] = None if link is None else \
                    parse_qs(urlparse(link).query)["token"][0]
            before = t.version
            self.settle(http, t)
            if t.version != before:
                with self.lock:
                    self.moves += 1
            if route.path.endswith("/submit"):
                t.texts = []

    def worker(self, index: int, quota: int) -> None:
        rng = random.Random(self.seed * 100 + index)
        http = httpx.Client(timeout=60)
        game = index
        t = self.create(http, GAMES[game % len(GAMES)], rng.randrange(10**6))
        try:
            for n in range(quota):
                if n and n % ROTATE == 0:
                    game += 1
                    t = self.create(http, GAMES[game % len(GAMES)], rng.randrange(10**6))
                if n % 25 == 0:
                    self.legal_texts(http, t, rng)
                self.one(http, t, rng)
        except Exception as exc:  # a bench bug or a dead server: say so, do not hang
            with self.lock:
                self.server_errors.append(f"worker {index} stopped: {type(exc).__name__} {exc}")
            raise
        finally:
            http.close()

    # ------------------------------------------------------------------ sockets
    def sockets(self, count: int, seed: int) -> Counter[str]:
        rng = random.Random(seed)
        http = httpx.Client(timeout=60)
        t = self.create(http, "toy", 77)
        out: Counter[str] = Counter()
        for _ in range(count):
            role, token = self.token(t, rng)
            query = {} if token is None else {"token": token}
            if rng.random() < 0.7:
                query["since"] = str(rng.choice([0, 1, -5, 10**30, "x", "", "1.5"]))
            mid = t.id if rng.random() < 0.9 else _quoted(junk(rng), 100)
            url = self.s.url.replace("http://", "ws://") + f"/ws/{mid}"
            if query:
                url += "?" + "&".join(f"{k}={quote(v, safe='')}" for k, v in query.items())
            out[self.socket_session(url, rng)] += 1
            version, new = self.host_version(http, t)
            if new:  # (a version moved by a bot alone leaves no kinds)
                self.changed.append(f"socket as {role} moved the match to v{version} ({new})")
                t.version = version
        http.close()
        return out

    def socket_session(self, url: str, rng: random.Random) -> str:
        sent: list[str] = []
        sizes: list[int] = []
        try:
            with connect(url, open_timeout=10, close_timeout=5, max_size=2**24) as ws:
                for _ in range(rng.choice([1, 3, 8, 30])):
                    roll = rng.random()
                    if roll < 0.3:
                        message: str | bytes = json.dumps({"type": "ping"})
                    elif roll < 0.55:
                        message = json.dumps(junk(rng))
                    elif roll < 0.7:
                        message = rng.choice(["", "{", "null", "NaN", "\x00", "[" * 2000])
                    elif roll < 0.82:
                        message = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
                    elif roll < 0.9:
                        message = "x" * rng.choice([4097, 70_000])
                    else:
                        message = json.dumps({"type": rng.choice(["ping", "submit", "hello",
                                                                  "update", "chat"]),
                                              "text": junk(rng)})
                    sent.append(repr(message[:40]) + f"({len(message)})")
                    sizes.append(len(message))
                    ws.send(message)
                with contextlib.suppress(TimeoutError):
                    while True:
                        ws.recv(timeout=0.3)
                ws.close()
                code = ws.close_code
        except InvalidStatus as exc:
            return f"http {exc.response.status_code}"
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else 1006
        except OSError as exc:
            return f"error {type(exc).__name__}"
        if code == 1006 and any(n > WS_FRAME_LIMIT for n in sizes):
            # uvicorn fails the connection at its frame limit (1009) and closes at once; the
            # client, still sending, may get the reset before the close frame.
            return "reset after a frame over 64 KiB"
        if code is None or code not in SOCKET_CODES:
            with self.lock:
                self.server_errors.append(f"socket {url[:100]} closed with {code} after "
                                          f"{', '.join(sent)[:400]}")
        return f"close {code}"


def run(database: str, args: argparse.Namespace, folder: Path) -> int:
    server = ServerProcess(database, folder / "server.log").start()
    try:
        spec = server.http.get(server.url + "/api/openapi.json").json()
        routes = routes_of(spec)
        documented = sum(r.documented for r in routes)
        print(f"operations: {documented} in the OpenAPI document, {len(routes) - documented} "
              f"more routes in the app (pages): {', '.join(repr(r) for r in routes if not r.documented)}")
        fuzz = Fuzzer(server, routes, args.seed)
        fuzz.shared = fuzz.create(server.http, "toy", 1)
        r = server.http.post(server.url + "/api/seasons", json={
            "cast": ["Ann", "Bob", "Cy"], "seed": 3, "settings": {"time_scale": 1000}})
        if r.status_code == 201:
            data = r.json()
            fuzz.season = {"id": data["id"], "host": data["tokens"]["host"],
                           "players": data["tokens"]["players"]}
        started = time.monotonic()
        quota = args.requests // args.workers
        threads = [threading.Thread(target=fuzz.worker, args=(i, quota))
                   for i in range(args.workers)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        elapsed = time.monotonic() - started
        t0 = time.monotonic()
        closes = fuzz.sockets(args.sockets, args.seed)
        socket_s = time.monotonic() - t0
        time.sleep(0.5)
        tracebacks = server.log().count("Traceback")
    finally:
        server.stop()
    classes = Counter(f"{c // 100}xx" for c in fuzz.codes.elements() if c != 599)
    fives = sum(n for c, n in fuzz.codes.items() if 500 <= c < 599)
    silent = fuzz.codes[599]  # no answer at all (the connection dropped)
    print(f"requests {fuzz.sent} in {elapsed:.0f} s ({fuzz.sent / elapsed:.0f}/s), "
          f"answers {dict(sorted(classes.items()))}, 5xx {fives}, no answer {silent}, "
          f"tracebacks {tracebacks}, changed after a rejection {len(fuzz.changed)} "
          f"(after a read {len(fuzz.read_changed)}) "
          f"(oversize bodies answered by a reset before the 413 was read: {fuzz.resets})")
    print(f"accepted requests that moved a match on: {fuzz.moves}")
    print(f"sockets {args.sockets} in {socket_s:.0f} s: "
          f"{', '.join(f'{k} x{v}' for k, v in sorted(closes.items()))}")
    print("by code:", dict(sorted(fuzz.codes.items())))
    if args.verbose:
        for name, counts in sorted(fuzz.by_route.items()):
            print(f"  {name}: {dict(sorted(counts.items()))}")
    problems = fuzz.server_errors + fuzz.changed + fuzz.read_changed
    for line in problems[:20]:
        print("   ", line)
    if problems:
        (folder / "problems.txt").write_text("\n".join(problems) + "\n", encoding="utf-8",
                                             errors="backslashreplace")
        print(f"all {len(problems)} problems: {folder / 'problems.txt'}")
    print(f"server log: {folder / 'server.log'} (removed after a clean run unless --keep)")
    return 1 if fives or tracebacks or problems else 0


def main() -> int:
    logging.getLogger("websockets").setLevel(logging.CRITICAL)  # the client's own noise
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--requests", type=int, default=20_000)
    ap.add_argument("--sockets", type=int, default=300)
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--database", help="a database URL instead of a throwaway SQLite file")
    ap.add_argument("--postgres", action="store_true",
                    help="run on a throwaway PostgreSQL cluster started here")
    ap.add_argument("--verbose", action="store_true", help="answers per route")
    ap.add_argument("--keep", action="store_true",
                    help="keep the server's log and database even when nothing was found")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="arena-fuzz-"))
    if args.postgres:
        with throwaway_postgres() as url:
            code = run(url, args, folder)
    else:
        code = run(args.database or f"sqlite:///{folder / 'fuzz.db'}", args, folder)
    if code == 0 and not args.keep:
        shutil.rmtree(folder, ignore_errors=True)  # a clean run leaves nothing behind
    return code


if __name__ == "__main__":
    raise SystemExit(main())
