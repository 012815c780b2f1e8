"""The JSON API and the socket against a real server: creating matches, bad input answered
with the rule it breaks (G-6) and never a 500, bounded sizes, host actions, and a socket
client that reconnects with ``since`` catching up without a gap."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from server.serverproc import ServerProcess

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("api")
    proc = ServerProcess(f"sqlite:///{folder / 'api.db'}", folder / "server.log").start()
    try:
        yield proc
    finally:
        proc.stop()


def test_serve_prints_the_url_and_the_database(server: ServerProcess) -> None:
    assert f"Arena is running at http://127.0.0.1:{server.port}/" in server.banner
    assert "Database: " in server.banner and "api.db" in server.banner


def test_create_gives_one_link_per_seat_and_spectator_and_host(server: ServerProcess) -> None:
    m = server.create("toy", seats=[{"name": "Ann", "bot": False}, {"name": "Bob", "bot": True}])
    assert len(m["links"]["seats"]) == 2
    links = [*m["links"]["seats"], m["links"]["spectator"], m["links"]["host"]]
    assert len(set(links)) == 4 and all(f"/m/{m['id']}?token=" in u for u in links)
    info = server.http.get(f"{server.url}/api/matches/{m['id']}").json()
    assert info["names"] == ["Ann", "Bob"] and info["bots"] == [False, True]
    assert info["seed"] is None  # G-7: not while the match runs
    assert server.http.get(f"{server.url}/api/openapi.json").json()["openapi"].startswith("3.")


@pytest.mark.parametrize(("body", "status", "rule"), [
    ({"game": "nosuch"}, 422, "unknown game"),
    ({"game": "toy", "seats": [{}]}, 422, "G-8"),
    ({"game": "toy", "seed": "x"}, 422, "G-7"),
    ({"game": "toy", "settings": {"time_scale": 0}}, 422, "G-5"),
    ({"game": "toy", "settings": {"speed": 2}}, 422, "G-5"),
    ({"game": "toy", "config": {"rounds": -1}}, 422, "G-5"),
    ({"game": "toy", "config": {"colour": "red"}}, 422, "G-5"),
    ({"game": "toy", "extra": 1}, 422, "unknown field"),
    # A truthy string is not a flag; the audit's zero-length rounds are refused.
    ({"game": "toy", "seats": [{"bot": "false"}, {}]}, 422, "G-8: seat 1 field 'bot'"),
    ({"game": "toy", "settings": {"early_close": "false"}}, 422, "'early_close'"),
    ({"game": "toy", "config": {"rounds": 1.5}}, 422, "G-5: setting 'rounds'"),
    ({"game": "lockedout", "config": {"round_seconds": 0}}, 422,
     "G-5: setting 'round_seconds'"),
    ([1, 2], 422, "JSON object"),
])
def test_bad_create_requests_name_the_rule(server: ServerProcess, body: Any, status: int,
                                           rule: str) -> None:
    r = server.http.post(server.url + "/api/matches", json=body)
    assert r.status_code == status, r.text
    assert rule in r.json()["error"] and r.json()["ok"] is False


def test_malformed_and_oversized_bodies(server: ServerProcess) -> None:
    r = server.http.post(server.url + "/api/matches", content=b"{not json",
                         headers={"content-type": "application/json"})
    assert r.status_code == 400 and "JSON" in r.json()["error"]
    r = server.http.post(server.url + "/api/matches", content=b"x" * 100_000)
    assert r.status_code == 413
    m = server.create("toy")
    tok = m["tokens"]["seats"][0]
    url = f"{server.url}/api/matches/{m['id']}/submit"
    r = server.http.post(url, params={"token": tok}, json={"text": "y" * 20_000})
    assert r.status_code == 422 and "G-6" in r.json()["error"]
    r = server.http.post(url, params={"token": tok}, json={"text": "7"})
    assert r.status_code == 422 and r.json()["error"].startswith("TOY-1")
    r = server.http.get(f"{server.url}/api/matches/{m['id']}/replay",
                        params={"token": tok, "version": 10_000})
    assert r.status_code == 400
    r = server.http.get(f"{server.url}/api/matches/{m['id']}/events",
                        params={"token": tok, "since": "abc"})
    assert r.status_code == 400
    assert server.http.get(server.url + "/api/matches/zzz/view",
                           params={"token": tok}).status_code == 403
    assert server.http.get(server.url + "/m/zzz").status_code == 404


@pytest.fixture(scope="module")
def toy_match(server: ServerProcess) -> dict[str, Any]:
    return server.create("toy")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.recursive(st.none() | st.booleans() | st.integers() | st.floats()
                         | st.text(max_size=30),
                         lambda inner: st.lists(inner, max_size=3)
                         | st.dictionaries(st.sampled_from(
                             ["game", "seed", "seats", "settings", "config", "name", "bot",
                              "time_scale", "rounds", "text", "final", "seconds"]),
                             inner, max_size=5),
                         max_leaves=10))
def test_no_500_on_arbitrary_json(server: ServerProcess, toy_match: dict[str, Any],
                                  body: Any) -> None:
    payload = json.dumps(body).encode()
    r = server.http.post(server.url + "/api/matches", content=payload)
    assert r.status_code < 500, r.text
    base = f"{server.url}/api/matches/{toy_match['id']}/"
    seat, host = toy_match["tokens"]["seats"][0], toy_match["tokens"]["host"]
    for path, token in [("submit", seat), ("confirm", seat), ("host/extend", host)]:
        r = server.http.post(base + path, params={"token": token}, content=payload)
        assert r.status_code < 500, (path, r.text)


def _receive_until(ws: Any, version: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while True:
        msg = json.loads(ws.recv(timeout=10))
        if msg["type"] == "update":
            events.extend(msg["events"])
            if msg["version"] >= version:
                return events


def test_socket_reconnect_catches_up_without_a_gap(server: ServerProcess) -> None:
    m = server.create("toy", seats=[{"name": "A", "bot": False}, {"name": "B", "bot": False}])
    base = f"{server.url}/api/matches/{m['id']}"
    t0, t1 = m["tokens"]["seats"]
    ws_url = server.url.replace("http", "ws", 1) + f"/ws/{m['id']}?token={t0}"
    with connect(ws_url + "&since=0") as ws:
        hello = json.loads(ws.recv(timeout=10))
        assert hello["type"] == "hello" and hello["seat"] == 0 and hello["role"] == "seat"
        first = _receive_until(ws, hello["version"])
        server.http.post(base + "/submit", params={"token": t0}, json={"text": "ready"})
        live = _receive_until(ws, hello["version"] + 3)
    seen = max(e["version"] for e in first + live)
    # While disconnected, both seats act (the phase closes, a new one starts).
    server.http.post(base + "/confirm", params={"token": t0})
    server.http.post(base + "/submit", params={"token": t1}, json={"text": "ready", "final": True})
    now = server.http.get(base + "/view", params={"token": t0}).json()["version"]
    with connect(ws_url + f"&since={seen}") as ws:
        json.loads(ws.recv(timeout=10))
        caught_up = _receive_until(ws, now)
    all_events = server.http.get(base + "/events", params={"token": t0}).json()["events"]
    got = first + live + caught_up
    assert [e["version"] for e in got] == [e["version"] for e in all_events]
    assert not any(e["to"] not in (None, [0]) for e in got)  # seat 1's own entries never sent


def test_host_actions_and_their_errors(server: ServerProcess) -> None:
    m = server.create("toy")
    base = f"{server.url}/api/matches/{m['id']}/host/"
    host = {"token": m["tokens"]["host"]}
    assert server.http.post(base + "resume", params=host).status_code == 422
    assert server.http.post(base + "pause", params=host).status_code == 200
    r = server.http.post(m["links"]["seats"][0].replace("/m/", "/api/matches/").split("?")[0]
                         + "/submit", params={"token": m["tokens"]["seats"][0]},
                         json={"text": "ready"})
    assert r.status_code == 422 and "paused" in r.json()["error"]
    assert server.http.post(base + "extend", params=host, json={"seconds": -3}).status_code == 422
    assert server.http.post(base + "extend", params=host, json={"seconds": 30}).status_code == 200
    assert server.http.post(base + "resume", params=host).status_code == 200
    assert server.http.post(base + "end", params=host, json={"reason": "rain"}).status_code == 200
    assert server.http.post(base + "end", params=host).status_code == 422
    view = server.http.get(f"{server.url}/api/matches/{m['id']}/view", params=host).json()
    assert view["result"]["reason"] == "rain"


def test_g10_sealed_submission_reaches_no_other_viewer(server: ServerProcess) -> None:
    """G-10 on the server: after another seat submits (and resubmits and confirms) in a sealed
    phase, a seat's and a spectator's view and event stream are exactly as before, and their
    sockets receive no message at all; the host learns of it."""
    m = server.create("toy", seats=[{"name": "A", "bot": False}, {"name": "B", "bot": False}])
    base = f"{server.url}/api/matches/{m['id']}"
    t0, t1 = m["tokens"]["seats"]
    spectator, host = m["tokens"]["spectator"], m["tokens"]["host"]
    for t in (t0, t1):  # past the (unsealed) study phase into the sealed pick
        server.http.post(base + "/submit", params={"token": t}, json={"text": "ready",
                                                                       "final": True})

    def seen(token: str) -> tuple[Any, Any]:
        view = server.http.get(base + "/view", params={"token": token}).json()
        view.pop("now", None)
        events = server.http.get(base + "/events", params={"token": token}).json()["events"]
        return view, events

    before = {t: seen(t) for t in (t0, spectator)}
    assert before[t0][0]["phase"]["name"] == "pick"
    ws_base = server.url.replace("http", "ws", 1) + f"/ws/{m['id']}?token="
    with connect(ws_base + t0) as ws0, connect(ws_base + spectator) as wss:
        for ws in (ws0, wss):
            assert json.loads(ws.recv(timeout=10))["type"] == "hello"
            json.loads(ws.recv(timeout=10))  # the catch-up update
        for text in ("1", "2"):
            r = server.http.post(base + "/submit", params={"token": t1}, json={"text": text})
            assert r.status_code == 200, r.text
        assert server.http.post(base + "/confirm", params={"token": t1}).status_code == 200
        for ws in (ws0, wss):
            with pytest.raises(TimeoutError):
                ws.recv(timeout=0.5)
    for t in (t0, spectator):
        assert seen(t) == before[t]
    host_events = server.http.get(base + "/events", params={"token": host}).json()["events"]
    assert sum(e["kind"] == "seat_acted" and e["data"]["seat"] == 1
               for e in host_events) >= 3


def test_g2_late_submission_and_non_boolean_final_are_refused(server: ServerProcess) -> None:
    m = server.create("toy", seats=[{"name": "A", "bot": False}, {"name": "B", "bot": False}])
    base = f"{server.url}/api/matches/{m['id']}"
    t0, t1 = m["tokens"]["seats"]
    r = server.http.post(base + "/submit", params={"token": t0},
                         json={"text": "ready", "final": "false"})
    assert r.status_code == 400 and "'final' must be true or false" in r.json()["error"]
    assert server.http.get(base + "/view", params={"token": t0}).json()["seats"][0]["acted"] is False
    study = server.http.get(base + "/view", params={"token": t0}).json()["phase"]["no"]
    for t in (t0, t1):
        r = server.http.post(base + "/submit", params={"token": t},
                             json={"text": "ready", "final": True, "phase": study})
        assert r.status_code == 200, r.text
    before = server.http.get(base + "/events", params={"token": m["tokens"]["host"]}).json()
    r = server.http.post(base + "/submit", params={"token": t0},
                         json={"text": "1", "phase": study})
    assert r.status_code == 409
    assert f"G-2: phase {study} (study) closed at" in r.json()["error"]
    after = server.http.get(base + "/events", params={"token": m["tokens"]["host"]}).json()
    assert after == before


def test_g12_default_seed_is_64_bits_stored_and_revealed_only_at_the_end(
        server: ServerProcess) -> None:
    seeds = []
    for _ in range(4):
        m = server.create("toy", seed=None)
        base = f"{server.url}/api/matches/{m['id']}"
        assert server.http.get(base).json()["seed"] is None  # hidden while it runs (G-9)
        host = {"token": m["tokens"]["host"]}
        events = server.http.get(base + "/events", params=host).json()["events"]
        seed = next(e["data"]["seed"] for e in events if e["kind"] == "seed")
        assert isinstance(seed, str)  # 64 bits travel as a string
        seeds.append(int(seed))
        assert server.http.post(base + "/host/end", params=host).status_code == 200
        assert server.http.get(base).json()["seed"] == seed  # revealed after the match
    # Four 64-bit draws all below 2^32 has probability 2^-128; a 30-bit draw always is.
    assert max(seeds) >= 2**32 and all(0 <= s < 2**64 for s in seeds)


@pytest.mark.parametrize("seed", [2**64 - 1, 2**63, "18446744073709551615"])
def test_g12_seeds_up_to_2_64_survive_the_store(server: ServerProcess, seed: Any) -> None:
    m = server.create("toy", seed=seed)
    base = f"{server.url}/api/matches/{m['id']}"
    assert server.http.post(base + "/host/end",
                            params={"token": m["tokens"]["host"]}).status_code == 200
    # Exactly the same digits, as a string (a JavaScript number would
    # round 2^64 - 1 to 18446744073709552000).
    assert server.http.get(base).json()["seed"] == str(int(seed))
    view = server.http.get(base + "/view", params={"token": m["tokens"]["seats"][0]}).json()
    assert view["match"]["seed"] == str(int(seed))


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, True, "1e3", float("inf")])
def test_g7_bad_seeds_are_refused(server: ServerProcess, seed: Any) -> None:
    payload = json.dumps({"game": "toy", "seed": seed}).encode()  # inf as Infinity
    r = server.http.post(server.url + "/api/matches", content=payload)
    assert r.status_code == 422 and "G-7" in r.json()["error"], r.text


def test_lo10_se1_locked_out_with_four_named_seats_uses_those_names(
        server: ServerProcess) -> None:
    seats = [{"name": "Ann"}, {"name": "Ben", "bot": True}, {"name": "cat"}, {"name": "Dan"}]
    m = server.create("lockedout", seats=seats)
    base = f"{server.url}/api/matches/{m['id']}"
    t0 = m["tokens"]["seats"][0]
    view = server.http.get(base + "/view", params={"token": t0}).json()
    assert view["match"]["names"] == ["Ann", "Ben", "cat", "Dan"]
    assert [s["name"] for s in view["state"]["seats"]] == ["Ann", "Ben", "cat", "Dan"]
    r = server.http.post(base + "/submit", params={"token": t0},
                         json={"text": "Dual, Safe C, Left 4 with CAT"})
    assert r.status_code == 200, r.text
    r = server.http.post(base + "/submit", params={"token": t0},
                         json={"text": "Dual, Safe C, Left 4 with Alice"})
    assert r.status_code == 422 and "LO-10" in r.json()["error"]
    unnamed = server.create("lockedout", seats=[{}, {}, {"bot": True}])
    info = server.http.get(f"{server.url}/api/matches/{unnamed['id']}").json()
    assert info["names"] == ["Alice", "Bob", "Carol"]  # LO-10's defaults for unnamed seats
    r = server.http.post(server.url + "/api/matches",
                         json={"game": "lockedout", "seats": [{}, {}]})
    assert r.status_code == 422 and "SE-1" in r.json()["error"]
    r = server.http.post(server.url + "/api/matches",
                         json={"game": "lockedout", "seats": [{"name": "Al"}, {"name": "al"},
                                                              {"name": "Bo"}]})
    assert r.status_code == 422 and "LO-10" in r.json()["error"]


@pytest.mark.parametrize(("frame", "code"), [(b"\x00\x01binary", 1003), ("x" * 5000, 1009)])
def test_socket_bad_frames_get_a_close_frame_with_a_reason(server: ServerProcess,
                                                           frame: Any, code: int) -> None:
    """A binary frame or an oversized message is answered with a close
    frame naming the problem, not a dropped connection; the server keeps serving."""
    from websockets.exceptions import ConnectionClosed

    m = server.create("toy")
    url = server.url.replace("http", "ws", 1) + f"/ws/{m['id']}?token={m['tokens']['seats'][0]}"
    with connect(url) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"
        ws.send(frame)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == code
        assert closed.value.rcvd.reason
    assert server.http.get(f"{server.url}/api/games").status_code == 200


def test_rate_limit_buckets_refill_and_name_the_wait() -> None:
    from arena.server.errors import ApiError
    from arena.server.limits import RateLimit

    limit = RateLimit(burst=3, per_second=0.5, what="matches created from this address")
    for _ in range(3):
        limit.take("1.2.3.4", now=100.0)
    with pytest.raises(ApiError) as err:
        limit.take("1.2.3.4", now=100.0)
    assert err.value.status == 429 and "try again in 2 s" in err.value.message
    limit.take("5.6.7.8", now=100.0)  # other addresses are not held back
    limit.take("1.2.3.4", now=102.0)  # refilled one token after 2 s


def test_creation_flood_is_refused_with_429_and_other_endpoints_answer(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    folder: Path = tmp_path_factory.mktemp("flood")
    proc = ServerProcess(f"sqlite:///{folder / 'f.db'}", folder / "server.log",
                         create_limit=None).start()
    try:
        codes = [proc.http.post(proc.url + "/api/matches", json={"game": "toy"}).status_code
                 for _ in range(80)]
        assert codes.count(201) <= 65 and codes.count(429) >= 15, codes
        r = proc.http.post(proc.url + "/api/matches", json={"game": "toy"})
        assert r.status_code == 429 and "too many matches" in r.json()["error"]
        assert proc.http.get(proc.url + "/api/games").status_code == 200
    finally:
        proc.stop()
