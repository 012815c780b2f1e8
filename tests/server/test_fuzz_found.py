"""What ``bench/fuzz.py`` found, each kept as a test against a real server,
and a small fuzz run of its own: no 5xx, no traceback, and no change of a match after a
request that was refused."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from server.serverproc import ServerProcess

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server on SQLite, and one on the suite's own PostgreSQL (where a NUL byte in any text
    the server looks up or stores used to be a 500)."""
    folder: Path = tmp_path_factory.mktemp("fuzzfound")
    database = (f"sqlite:///{folder / 'f.db'}" if request.param == "sqlite"
                else request.getfixturevalue("postgres_url"))
    proc = ServerProcess(database, folder / "server.log").start()
    try:
        yield proc
    finally:
        proc.stop()


def test_a_socket_message_nested_too_deeply_is_ignored_like_other_junk(
        server: ServerProcess) -> None:
    """2,000 opening brackets made ``json.loads`` raise RecursionError, which dropped the
    socket without a close frame (1006); now it is ignored like any message that is no ping."""
    m = server.create("toy")
    url = server.url.replace("http", "ws", 1) + f"/ws/{m['id']}?token={m['tokens']['host']}"
    with connect(url, open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"
        assert json.loads(ws.recv(timeout=10))["type"] == "update"
        ws.send("[" * 2000)
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "pong"
    assert "Traceback" not in server.log()


@pytest.mark.parametrize("where", ["notes", "chat", "submit", "create"])
def test_a_lone_surrogate_escape_in_a_body_is_refused_with_400(server: ServerProcess,
                                                               where: str) -> None:
    """``"\\ud800"`` is valid JSON but no UTF-8 answer or database can hold it: notes saved
    with it answered 500 and then every read of them did. Refused at the door now; the match
    and the notes are unchanged and still readable."""
    m = server.create("toy")
    base = f"{server.url}/api/matches/{m['id']}"
    seat = {"token": m["tokens"]["seats"][0]}
    host = {"token": m["tokens"]["host"]}
    before = server.http.get(base + "/events", params=host).json()
    body = {"notes": '{"notes": "a\\ud800"}', "chat": '{"channel": "table", "text": "\\ud800"}',
            "submit": '{"text": "\\udfff2", "final": true}',
            "create": '{"game": "toy", "seats": [{"name": "\\ud800"}, {}]}'}[where]
    url = server.url + "/api/matches" if where == "create" else f"{base}/{where}"
    r = server.http.post(url, params=None if where == "create" else seat,
                         content=body.encode(), headers={"content-type": "application/json"})
    assert r.status_code == 400 and "surrogate" in r.json()["error"], r.text
    assert server.http.get(base + "/events", params=host).json() == before
    notes = server.http.get(base + "/notes", params=seat)
    assert notes.status_code == 200, notes.text
    # A surrogate *pair* is how ASCII-only JSON writes an emoji: that is fine.
    r = server.http.post(base + "/notes", params=seat,
                         content=b'{"notes": "\\ud83d\\ude42"}',
                         headers={"content-type": "application/json"})
    assert r.status_code == 200 and r.json()["notes"] == "\U0001f642", r.text
    assert "Traceback" not in server.log()


def test_a_nul_byte_in_the_address_is_refused_with_400(server: ServerProcess) -> None:
    """``?token=%00`` (or ``%00`` in a match id) made every lookup on PostgreSQL raise
    ("text fields cannot contain NUL"), a 500 on every route and a 500 at a socket's
    handshake. Refused at the door now, on every database alike."""
    m = server.create("toy")
    base = f"{server.url}/api/matches/{m['id']}"
    host = {"token": m["tokens"]["host"]}
    before = server.http.get(base + "/events", params=host).json()
    for method, url, params in [
            ("GET", base + "/view", {"token": "\x00"}),
            ("POST", base + "/submit", {"token": "a\x00b"}),
            ("GET", f"{server.url}/api/matches/x%00y", {}),
            ("GET", f"{server.url}/api/seasons/x", {"token": "\x00"}),
            ("POST", base + "/host/end", {"token": m["tokens"]["host"], "x": "\x00"})]:
        r = server.http.request(method, url, params=params, json={"text": "ready"})
        assert r.status_code == 400 and "NUL" in r.json()["error"], (url, r.text)
    url = server.url.replace("http", "ws", 1) + f"/ws/{m['id']}?token=%00"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, open_timeout=10)
    assert refused.value.response.status_code == 403
    assert server.http.get(base + "/events", params=host).json() == before
    assert "Traceback" not in server.log()


def test_a_season_player_named_with_a_control_character_is_refused(
        server: ServerProcess) -> None:
    """The season's player name keys its link in the store: a NUL in it was a 500 on
    PostgreSQL. A name with a control character is refused (SE-1) on every database."""
    r = server.http.post(server.url + "/api/seasons", json={"cast": ["A\x00n", "Bo", "Cy"]})
    assert r.status_code == 422 and "SE-1" in r.json()["error"], r.text
    assert "Traceback" not in server.log()


def test_notes_with_nan_or_infinity_are_refused_and_stay_readable(server: ServerProcess) -> None:
    """Notes holding ``-Infinity`` were stored, then could not be sent back as JSON: that POST
    and every later read of the notes answered 500. Refused with 400; the old notes stay."""
    m = server.create("toy")
    base = f"{server.url}/api/matches/{m['id']}"
    seat = {"token": m["tokens"]["seats"][0]}
    assert server.http.post(base + "/notes", params=seat, json={"notes": "kept"}).status_code == 200
    for raw in [b'{"notes": {"x": [1, -Infinity]}}', b'{"notes": NaN}', b'{"notes": Infinity}']:
        r = server.http.post(base + "/notes", params=seat, content=raw,
                             headers={"content-type": "application/json"})
        assert r.status_code == 400 and "NaN" in r.json()["error"], r.text
    r = server.http.get(base + "/notes", params=seat)
    assert r.status_code == 200 and r.json()["notes"] == "kept", r.text
    assert "Traceback" not in server.log()


def test_a_small_fuzz_run_finds_no_server_error_and_no_change_after_a_refusal() -> None:
    """``bench/fuzz.py`` at a size that fits the suite: every route of the app and every
    socket message type, every kind of token; 0 5xx, 0 tracebacks, 0 changes after a
    rejected request or a read (the bench's own exit code says so)."""
    import subprocess
    import sys

    from server.serverproc import ROOT

    done = subprocess.run([sys.executable, str(ROOT / "bench" / "fuzz.py"), "--requests", "800",
                           "--sockets", "30", "--workers", "2", "--seed", "7"],
                          capture_output=True, text=True, timeout=600, cwd=str(ROOT))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert ", 5xx 0, no answer 0, tracebacks 0, changed after a rejection 0 (after a read 0)" \
        in done.stdout


def test_every_api_route_of_the_app_is_in_the_openapi_document() -> None:
    """The fuzzer (and any outside client) works from ``/api/openapi.json``: every JSON route
    of the app is described there with its methods (the document itself aside)."""
    from starlette.routing import Route

    from arena.server.app import create_app
    from arena.server.openapi import SPEC

    missing = []
    for route in create_app("sqlite://").routes:
        if not isinstance(route, Route) or not route.path.startswith("/api/") \
                or route.path == "/api/openapi.json":
            continue
        for method in sorted((route.methods or set()) - {"HEAD"}):
            if method.lower() not in SPEC["paths"].get(route.path, {}):
                missing.append(f"{method} {route.path}")
    assert not missing, missing


@pytest.mark.parametrize("value", [10**80, 10**400])
def test_a_huge_whole_number_in_a_game_option_is_refused_with_g5(server: ServerProcess,
                                                                 value: int) -> None:
    """``"config": {"rounds": 10**80}`` reached ``math.isfinite``, which cannot turn so large
    an int into a float (OverflowError, a 500). Refused like any option above the bound."""
    r = server.http.post(server.url + "/api/matches",
                         json={"game": "toy", "config": {"rounds": value}})
    assert r.status_code == 422 and "G-5" in r.json()["error"], r.text
    assert "Traceback" not in server.log()
