"""The protective headers on every answer of every route, and no token in any log line.

Every route the app lists is asked with every method it takes, with a real match, season,
game, scenario and token, so a route added later is covered (or this test says which one it
cannot build an address for). Pages must carry a policy that runs scripts from the server's
files only and lets no other site frame them; everything answered to a token, or on a path
whose answers hold tokens, must not be stored by a cache. The log test runs the app under a
real uvicorn with every logger at DEBUG, as ``arena serve --log-level debug`` would.
"""

from __future__ import annotations

import logging
import re
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest
import uvicorn
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route, WebSocketRoute
from uvicorn.logging import AccessFormatter
from websockets.sync.client import connect

from arena.server import headers
from arena.server.app import create_app
from server.inprocess import in_process_server

if TYPE_CHECKING:  # imported by server.inprocess, which quiets its warning
    from starlette.testclient import TestClient

HUMANS = {"game": "boxes", "seats": [{"name": "Ann"}, {"name": "Ben"}],
          "settings": {"time_scale": 50.0}}


class World:
    """The app, and one of each thing a route's address names."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        m = client.post("/api/matches", json=HUMANS)
        assert m.status_code == 201, m.text
        self.match = m.json()
        s = client.post("/api/seasons", json={"cast": [{"name": n} for n in ("Ann", "Ben", "Cat")],
                                              "seed": 3})
        assert s.status_code == 201, s.text
        self.season = s.json()
        scenarios = client.get("/api/scenarios").json()
        assert scenarios, "a scenario comes with Feather"
        self.scenario = scenarios[0]["name"]

    def address(self, path: str) -> tuple[str, dict[str, str]]:
        """A concrete address for a route's path, and the query that makes it a real ask."""
        if "{season_id}" in path:
            return (path.replace("{season_id}", self.season["id"])
                    .replace("{action}", "close_vault"),
                    {"token": self.season["tokens"]["host"]})
        if "{match_id}" in path:
            token = (self.match["tokens"]["seats"][0] if path.startswith("/m/")
                     else self.match["tokens"]["host"])
            return (path.replace("{match_id}", self.match["id"]).replace("{action}", "pause"),
                    {"token": token})
        if path == "/api/scenarios/{name}":
            return path.replace("{name}", self.scenario), {}
        if "{name}" in path:
            return path.replace("{name}", "boxes"), {}
        assert "{" not in path, f"no address is known for the route {path}: add one here"
        return path, {}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    with in_process_server(tmp_path_factory.mktemp("headers")) as client:
        yield World(client)


def _directives(policy: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def _private(path: str, query: dict[str, str]) -> bool:
    return "token" in query or path.startswith(
        ("/m/", "/s/", "/feather/editor", "/api/matches", "/api/seasons"))


def check(r: httpx.Response, where: str, *, private: bool) -> None:
    """The headers every answer must carry, and a page's policy."""
    h = r.headers
    assert h.get("referrer-policy") == "no-referrer", where
    assert h.get("x-content-type-options") == "nosniff", where
    assert h.get("x-frame-options") == "DENY", where
    policy = _directives(h.get("content-security-policy", ""))
    assert policy.get("frame-ancestors") == ["'none'"], (where, policy)
    if h.get("content-type", "").startswith("text/html"):
        scripts = policy.get("script-src", [])
        assert "'self'" in scripts, (where, scripts)
        # Only the server's own files and the import map's exact text (by its hash) run.
        assert all(s == "'self'" or re.fullmatch(r"'sha256-[A-Za-z0-9+/]+=*'", s)
                   for s in scripts), (where, scripts)
        assert "'unsafe-inline'" not in policy.get("style-src", []), where
        assert policy.get("default-src") == ["'self'"], where
        assert policy.get("object-src") == ["'none'"], where
        assert policy.get("base-uri") == ["'none'"], where
        assert policy.get("form-action") == ["'self'"], where
    else:
        assert policy.get("default-src") == ["'none'"], (where, policy)
    if private:
        assert "no-store" in h.get("cache-control", ""), (where, h.get("cache-control"))


def test_every_route_answers_with_the_protective_headers(world: World) -> None:
    client = world.client
    asked: list[str] = []
    kinds: set[str] = set()
    for route in client.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, WebSocketRoute):
            continue  # below: a socket passes untouched
        if isinstance(route, Mount):
            for file in ("/arena.css", "/shell.js", "/favicon.svg", "/games/paint.css",
                         "/vendor/LICENSE.htm", "/no-such-file.js"):
                url = route.path + file
                r = client.get(url)
                check(r, url, private=False)
                asked.append(url)
            r = client.get(route.path + "/shell.js", params={"token": "a"})
            check(r, "a static file asked with a token", private=True)
            continue
        assert isinstance(route, Route), route
        path, query = world.address(route.path)
        for method in sorted(route.methods or {"GET"}):
            r = client.request(method, path, params=query,
                               json={} if method == "POST" else None)
            assert r.status_code < 500, (method, path, r.status_code, r.text)
            check(r, f"{method} {route.path} ({r.status_code})", private=_private(path, query))
            kinds.add(r.headers.get("content-type", "").split(";")[0])
            asked.append(f"{method} {route.path}")
    # Pages, JSON, and (past the API) refusals were all among them.
    assert {"text/html", "application/json"} <= kinds, kinds
    assert len(asked) > len(client.app.routes), asked  # type: ignore[attr-defined]


def test_error_answers_carry_the_headers_too(world: World) -> None:
    client = world.client
    page = client.get("/no/such/page")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    check(page, "a 404 page", private=False)
    check(client.get("/m/nosuchmatch", params={"token": "x"}), "a bad match link", private=True)
    check(client.get(f"/m/{world.match['id']}", params={"token": "wrong"}),
          "a wrong token", private=True)
    check(client.get("/api/nosuch"), "a 404 answer", private=False)
    check(client.delete("/api/games"), "a 405 answer", private=False)
    # Written by middleware inside this one: a body too large, a NUL byte in the address.
    big = client.post("/api/matches", content=b"x" * 70_000,
                      headers={"content-type": "application/json"})
    assert big.status_code == 413
    check(big, "a body too large", private=True)
    nul = client.get("/api/games%00")
    assert nul.status_code == 400
    check(nul, "a NUL in the address", private=False)


def test_an_unexpected_error_is_answered_with_the_headers(tmp_path: Path) -> None:
    """Starlette answers an unexpected error outside every middleware the app lists; that
    answer carries the headers all the same."""
    with in_process_server(tmp_path) as client:
        async def boom(request: Request) -> Response:
            raise RuntimeError("a bug")

        client.app.routes.append(Route("/api/matches/x/boom", boom))  # type: ignore[attr-defined]
        r = client.get("/api/matches/x/boom")
        assert r.status_code == 500
        check(r, "a 500 answer", private=True)


def test_only_token_answers_are_kept_from_caches(world: World) -> None:
    client = world.client
    for url in ("/", "/rulings", "/games/boxes", "/api/games", "/static/arena.css"):
        r = client.get(url)
        assert "no-store" not in r.headers.get("cache-control", ""), url
    # The icon keeps the caching its route chose; a token anywhere overrules any choice.
    assert client.get("/favicon.ico").headers["cache-control"] == "public, max-age=86400"
    assert client.get("/favicon.ico?token=t").headers["cache-control"] == "no-store"
    assert client.get("/?to%6Ben=t").headers["cache-control"] == "no-store"
    bearer = client.get("/api/games", headers={"authorization": "Bearer t"})
    assert bearer.headers["cache-control"] == "no-store"
    link = client.get(f"/m/{world.match['id']}", params={"token": world.match["tokens"]["host"]})
    assert link.status_code == 200 and link.headers["cache-control"] == "no-store"


def test_a_socket_passes_untouched(world: World) -> None:
    m = world.match
    with world.client.websocket_connect(f"/ws/{m['id']}?token={m['tokens']['spectator']}") as ws:
        assert '"hello"' in ws.receive_text()


# ---------------------------------------------------------------------------- the logs

def _free_socket() -> socket.socket:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


def test_no_token_reaches_a_log_line_at_any_level(tmp_path: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    """Under uvicorn, with the root logger at DEBUG: a page, the API, a socket, a refused link
    and a bearer header each leave log lines (the access log's request lines among them),
    and none of them holds a token."""
    caplog.set_level(logging.DEBUG)
    app = create_app(f"sqlite:///{tmp_path / 'arena.db'}")
    sock = _free_socket()
    port = sock.getsockname()[1]
    # No logging set up by uvicorn (and no level left changed after the test): every logger
    # reports to caplog at the root's DEBUG.
    server = uvicorn.Server(uvicorn.Config(app, log_config=None, log_level=None))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    secrets: list[str] = []
    try:
        while not server.started:  # the suite's timeout guards a hang
            time.sleep(0.05)
        with httpx.Client(base_url=base, timeout=30) as http:
            created = http.post("/api/matches", json=HUMANS)
            assert created.status_code == 201, created.text
            m = created.json()
            tokens = m["tokens"]
            secrets = [*tokens["seats"], tokens["spectator"], tokens["host"], "NOT-A-REAL-TOKEN"]
            assert http.get(f"/m/{m['id']}", params={"token": tokens["host"]}).status_code == 200
            assert http.get(f"/api/matches/{m['id']}/view",
                            params={"token": tokens["seats"][0]}).status_code == 200
            assert http.get(f"/api/matches/{m['id']}/view",
                            params={"token": "NOT-A-REAL-TOKEN"}).status_code == 403
            assert http.post(f"/api/matches/{m['id']}/host/pause", json={},
                             headers={"authorization": f"Bearer {tokens['host']}"}
                             ).status_code == 200
            # Percent-encoded, as a client may write it: the app reads it as the token.
            assert http.get(f"/api/matches/{m['id']}/view?to%6Ben={tokens['spectator']}"
                            ).status_code == 200
        with connect(f"ws://127.0.0.1:{port}/ws/{m['id']}?token={tokens['seats'][1]}") as ws:
            assert '"hello"' in str(ws.recv(timeout=10))
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()
    assert not thread.is_alive()
    lines = [r.getMessage() + (r.exc_text or "") for r in caplog.records]
    access = [line for line in lines if "/view?" in line or "/m/" in line or "/ws/" in line]
    # The request lines were logged, with the token's place shown and its value not.
    assert any(f"/m/{m['id']}?token=[redacted]" in line for line in access), access
    assert any("/ws/" in line and "token=[redacted]" in line for line in access), access
    assert any("to%6Ben=[redacted]" in line for line in access), access
    for secret in secrets:
        leaked = [line for line in lines if secret in line]
        assert not leaked, leaked
        assert secret not in caplog.text


def test_a_uvicorn_access_record_is_redacted_and_still_formats() -> None:
    """The record uvicorn's access log makes (its format and arguments, the status a number
    for ``%d``), made by a real logger once an app has been made."""
    create_app("sqlite://")  # installs the redaction; no store is opened until it starts
    logger = logging.getLogger("uvicorn.access")
    record = logger.makeRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", "/m/abc?token=SECRET1&since=3", "1.1", 200), None)
    assert record.getMessage() == '127.0.0.1:5000 - "GET /m/abc?token=[redacted]&since=3 HTTP/1.1" 200'
    line = AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s').format(record)
    assert "SECRET1" not in line and "token=[redacted]" in line and "200" in line


@pytest.mark.parametrize(("text", "shown"), [
    ("/s/x?token=abc-_DEF", "/s/x?token=[redacted]"),
    ("/m/x?since=1&token=abc&svg=0", "/m/x?since=1&token=[redacted]&svg=0"),
    ("/m/x?TOKEN=abc#top", "/m/x?TOKEN=[redacted]#top"),
    ("next=%2Fm%2Fx%3Ftoken%3Dabc%26since%3D1", "next=%2Fm%2Fx%3Ftoken%3D[redacted]%26since%3D1"),
    ("/m/x?to%6Ben=abc", "/m/x?to%6Ben=[redacted]"),
    ("Authorization: Bearer abc.def", "Authorization: Bearer [redacted]"),
    ("'http://h/m/x?token=abc'", "'http://h/m/x?token=[redacted]'"),
    ("process 1 owns match x (token 7)", "process 1 owns match x (token 7)"),
])
def test_redact_forms(text: str, shown: str) -> None:
    assert headers.redact(text) == shown


def test_redaction_covers_arguments_exceptions_and_is_installed_once() -> None:
    create_app("sqlite://")
    factory = logging.getLogRecordFactory()
    create_app("sqlite://")
    assert logging.getLogRecordFactory() is factory  # a second app wraps nothing again
    log = logging.getLogger("arena.test.headers")

    class Url:
        def __str__(self) -> str:
            return "http://h/api/matches/x/view?token=SECRET2"

    record = log.makeRecord("arena.test.headers", logging.DEBUG, __file__, 1,
                            "asked for %(x)s", ({"x": Url()},), None)
    assert "SECRET2" not in record.getMessage()
    try:
        raise ValueError("bad link http://h/m/x?token=SECRET3")
    except ValueError:
        failed = log.makeRecord("arena.test.headers", logging.ERROR, __file__, 1, "failed",
                                (), sys.exc_info())
    assert failed.exc_text and "SECRET3" not in failed.exc_text
    assert "token=[redacted]" in logging.Formatter().format(failed)
