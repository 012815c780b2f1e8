"""G-15 on the API: a broadcast link sees the whole match as the host sees it, one delay
behind, and never anything newer; it reads only the view, the events and the replay; opening
it changes nothing a player or a spectator reads; it can be reissued and closed.

The server's clock is a ManualClock moved by the test, so "one delay ago" is exact."""

from __future__ import annotations

import time
import types
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.exceptions import StarletteDeprecationWarning
from starlette.websockets import WebSocketDisconnect

from arena.core.clock import ManualClock
from arena.core.match import HOST, INPUT_KINDS, Match
from arena.server import api, children, creating, rebuild
from arena.server.app import create_app
from arena.server.limits import RateLimit

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

CLOCK = ManualClock(float(int(time.time())))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder: Path = tmp_path_factory.mktemp("broadcast")
    patch = pytest.MonkeyPatch()
    for module in (creating, rebuild, children):
        patch.setattr(module, "SystemClock", lambda: CLOCK)
        patch.setattr(module, "time", types.SimpleNamespace(
            time=CLOCK.now, monotonic=time.monotonic, sleep=time.sleep,
            perf_counter=time.perf_counter))
    unlimited = RateLimit(burst=10**9, per_second=10**9, what="requests")
    for name in ("CREATE_LIMIT", "ACT_LIMIT", "CHAT_LIMIT", "REPLAY_LIMIT", "LINK_LIMIT"):
        patch.setattr(api, name, unlimited, raising=False)
    try:
        with TestClient(create_app(f"sqlite:///{folder / 'b.db'}")) as c:
            yield c
    finally:
        patch.undo()


def _match(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/matches", json={
        "game": "lockmaker", "seed": 5, "settings": {"time_scale": 1.0},
        "seats": [{"name": "Ann", "bot": False}, {"name": "Bob", "bot": False}]})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def _open(client: TestClient, m: dict[str, Any], **body: Any) -> Any:
    return client.post(f"/api/matches/{m['id']}/host/broadcast",
                       params={"token": m["tokens"]["host"]}, json=body)


def _get(client: TestClient, m: dict[str, Any], path: str, token: str, **params: Any) -> Any:
    return client.get(f"/api/matches/{m['id']}{path}", params={"token": token, **params})


def test_a_broadcast_is_the_host_view_one_delay_ago_and_nothing_newer(
        client: TestClient) -> None:
    m = _match(client)
    start = CLOCK.now()
    r = _open(client, m, delay=30)
    assert r.status_code == 422 and "G-15" in r.text  # at least a minute while it runs
    r = _open(client, m, delay=60)
    assert r.status_code == 200, r.text
    token = r.json()["token"]
    assert _get(client, m, "/view", token).status_code == 425  # nothing a minute old yet

    CLOCK.set(start + 61)
    before = _get(client, m, "/view", token).json()
    seat_view = _get(client, m, "/view", m["tokens"]["seats"][0]).json()
    r = client.post(f"/api/matches/{m['id']}/submit",
                    params={"token": m["tokens"]["seats"][1]}, json={"text": "first"})
    assert r.status_code == 200, r.text  # the DMO's choice (LM-13), made at start + 61
    now = _get(client, m, "/view", token).json()
    assert now == before  # the choice is newer than a minute: not seen yet
    assert now["role"] == "broadcast" and now["now"] == start + 1
    assert now["match"]["seed"] is None  # the seed would tell chance still to come
    events = _get(client, m, "/events", token).json()["events"]
    assert all(e["t"] <= start + 1 for e in events)
    assert not any(e["kind"] in ("submit", "accepted", "seat_acted") for e in events)

    CLOCK.set(start + 122)
    later = _get(client, m, "/view", token).json()
    events = _get(client, m, "/events", token).json()["events"]
    assert any(e["kind"] == "submit" and e["data"]["seat"] == 1 for e in events)  # sealed too
    # What the host read of the log up to a minute ago, the seed apart (it tells the chance
    # still to come until the match is over).
    host_events = _get(client, m, "/events", m["tokens"]["host"]).json()["events"]
    assert [e for e in host_events if e["t"] <= start + 62 and e["kind"] != "seed"] == events
    assert later["seats"][1]["submissions"][0]["text"] == "first"
    # The replay of the broadcast reaches its cut and no further.
    last = events[-1]["version"]
    assert _get(client, m, "/replay", token, version=last).status_code == 200
    assert _get(client, m, "/replay", token, version=last + 1).status_code == 400
    # Seats and spectators read the same with a broadcast open as without.
    assert _get(client, m, "/view", m["tokens"]["seats"][0]).json()["seats"] == \
        seat_view["seats"]


def test_a_broadcast_link_reads_and_does_nothing_else(client: TestClient) -> None:
    m = _match(client)
    token = _open(client, m, delay=60).json()["token"]
    for path, body in (("submit", {"text": "ready"}), ("chat", {"channel": "table",
                                                               "text": "hi"}),
                       ("host/pause", {}), ("confirm", {}),
                       ("host/broadcast", {"delay": 60})):
        r = client.post(f"/api/matches/{m['id']}/{path}", params={"token": token}, json=body)
        assert r.status_code == 403, (path, r.text)
    assert _get(client, m, "/notes", token).status_code == 403
    # Whether the host has made a rematch is news of now, not of a delay ago.
    assert _get(client, m, "/next", token).json()["error"] == \
        "host: a broadcast link follows its own match only"
    assert _get(client, m, "/host/links", token).status_code == 403
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(
            f"/ws/{m['id']}?token={token}") as ws:
        ws.receive_json()
    assert closed.value.code == 4403


def test_a_reissued_or_closed_broadcast_link_stops_working(client: TestClient) -> None:
    m = _match(client)
    first = _open(client, m, delay=60).json()["token"]
    second = _open(client, m, delay=120).json()
    assert _get(client, m, "/events", first).status_code == 403
    assert _get(client, m, "/events", second["token"]).status_code == 200
    links = client.get(f"/api/matches/{m['id']}/host/links",
                       params={"token": m["tokens"]["host"]}).json()
    assert links["broadcast"]["delay"] == 120
    assert second["token"] in links["broadcast"]["link"]
    assert _open(client, m, open=False).json()["open"] is False
    assert _get(client, m, "/events", second["token"]).status_code == 403
    assert client.get(f"/api/matches/{m['id']}/host/links",
                      params={"token": m["tokens"]["host"]}).json()["broadcast"] is None


def test_the_cut_equals_a_fresh_replay_of_the_log_up_to_it() -> None:
    """The definition the endpoints rely on, for a whole random match: the host's view of
    the cut is the host's view of the inputs up to the cut replayed from scratch."""
    from playouts import random_playout

    match, _ = random_playout("boxes", 3)
    for where in (0.1, 0.5, 0.9):
        t = match.log[0].t + (match.log[-1].t - match.log[0].t) * where
        cut = match.as_of(t)
        assert cut is not None
        inputs = [e for e in match.log if e.t <= t and e.kind in INPUT_KINDS]
        fresh = Match.replay(match.game, match.config, match.seed, match.settings,
                             match.created_at, inputs, ManualClock(t), until=t)
        a, b = cut.view(HOST, svg=False), fresh.view(HOST, svg=False)
        a.pop("now"), b.pop("now")
        assert a == b


def test_a_season_broadcast_follows_the_season_and_its_matches(client: TestClient) -> None:
    """G-15 for a season: its broadcast link reads the season one delay behind, lists only
    the matches the season had started by then, and opens each of them one delay behind."""
    from server.seasonkit import Season

    cast = [{"name": n, "bot": False} for n in ("Ann", "Ben", "Cat", "Dan")]
    s = Season.create(client, {"cast": cast, "seed": 4, "settings": {"time_scale": 1.0}})
    start = CLOCK.now()
    r = client.post(f"/api/matches/{s.id}/host/broadcast", params={"token": s.host},
                    json={"delay": 60})
    assert r.status_code == 200, r.text
    token = r.json()["token"]
    assert client.get(f"/api/seasons/{s.id}", params={"token": token}).status_code == 425
    CLOCK.set(start + 61)
    before = client.get(f"/api/seasons/{s.id}", params={"token": token}).json()
    assert before["role"] == "broadcast" and before["links"] == {}
    s.ok("start_main")
    key = next(iter(s.get(s.host)["links"]))
    # The server makes the match just after the step; on a loaded machine a read right
    # after it met no match yet (403: not this token's match) instead of one too new.
    child, _ = s.made(key)
    # The Main Match is newer than a minute: neither listed nor readable yet.
    now = client.get(f"/api/seasons/{s.id}", params={"token": token}).json()
    assert now["links"] == {} and now["state"] == before["state"]
    assert client.get(f"/api/matches/{child}/view",
                      params={"token": token}).status_code == 425
    CLOCK.set(start + 122)
    later = client.get(f"/api/seasons/{s.id}", params={"token": token}).json()
    assert list(later["links"]) == [key] and token in later["links"][key]["watch"]
    r = client.get(f"/api/matches/{child}/view", params={"token": token})
    assert r.status_code == 200, r.text
    view = r.json()
    assert view["role"] == "broadcast" and view["broadcast"]["delay"] == 60
    assert view["now"] == start + 62
    # Still a reader only, there as anywhere; and no other match opens with it.
    r = client.post(f"/api/matches/{child}/submit", params={"token": token},
                    json={"text": "x"})
    assert r.status_code == 403
    other = _match(client)
    assert client.get(f"/api/matches/{other['id']}/view",
                      params={"token": token}).status_code == 403
