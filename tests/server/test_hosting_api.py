"""Hosting over the API: the host's links (none for a bot's seat), reissuing a seat's
link (the old one fails at once and its socket is told), handing a seat to a bot and back,
closing the match to spectators, and a rematch each link follows to its own new link."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from server.serverproc import ServerProcess

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("hosting")
    proc = ServerProcess(f"sqlite:///{folder / 'h.db'}", folder / "server.log").start()
    try:
        yield proc
    finally:
        proc.stop()


def token_in(url: str) -> str:
    return url.split("token=", 1)[1]


def host_post(server: ServerProcess, m: dict[str, Any], action: str, body: Any) -> Any:
    return server.http.post(f"{server.url}/api/matches/{m['id']}/host/{action}",
                            params={"token": m["tokens"]["host"]}, json=body)


def test_links_reissue_and_the_old_page_is_told(server: ServerProcess) -> None:
    m = server.create("toy", seats=[{"name": "Ada", "bot": False}, {"name": "Bot", "bot": True}],
                      settings={"time_scale": 50.0})
    base = f"{server.url}/api/matches/{m['id']}"
    links = server.http.get(base + "/host/links", params={"token": m["tokens"]["host"]}).json()
    assert links["seats"][0]["link"].endswith(m["tokens"]["seats"][0])
    assert links["seats"][1]["link"] is None and links["seats"][1]["bot"] is True
    r = server.http.get(base + "/host/links", params={"token": m["tokens"]["seats"][0]})
    assert r.status_code == 403

    old = m["tokens"]["seats"][0]
    ws_url = server.url.replace("http", "ws", 1) + f"/ws/{m['id']}?token={old}"
    with connect(ws_url) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"
        json.loads(ws.recv(timeout=10))
        r = host_post(server, m, "reissue", {"seat": 0})
        assert r.status_code == 200, r.text
        new = token_in(r.json()["link"])
        told = json.loads(ws.recv(timeout=10))
        assert told["type"] == "revoked" and "new link" in told["reason"]
    assert server.http.get(base + "/view", params={"token": old}).status_code == 403
    assert server.http.get(base + "/view", params={"token": new}).status_code == 200
    assert host_post(server, m, "reissue", {"seat": 1}).status_code == 422  # a bot's seat
    assert host_post(server, m, "reissue", {"seat": 7}).status_code == 400


def test_a_bot_takes_a_seat_and_the_match_goes_on(server: ServerProcess) -> None:
    m = server.create("toy", seats=[{"name": "Ada", "bot": False}, {"name": "Bo", "bot": False}],
                      settings={"time_scale": 50.0}, config={"rounds": 1})
    base = f"{server.url}/api/matches/{m['id']}"
    s0, s1 = m["tokens"]["seats"]
    r = host_post(server, m, "seat", {"seat": 1, "bot": True})
    assert r.status_code == 200 and r.json()["link"] is None
    assert server.http.get(base + "/view", params={"token": s1}).status_code == 403
    server.http.post(base + "/submit", params={"token": s0}, json={"text": "ready", "final": True})
    for _ in range(200):  # the bot, now in seat 2, ends the study with its own "ready"
        view = server.http.get(base + "/view", params={"token": s0}).json()
        if view["phase"] and view["phase"]["name"] == "pick":
            break
        time.sleep(0.05)
    r = server.http.post(base + "/submit", params={"token": s0}, json={"text": "3", "final": True})
    assert r.status_code == 200, r.text
    for _ in range(200):
        info = server.http.get(base).json()
        if info["status"] == "finished":
            break
        time.sleep(0.05)
    assert info["status"] == "finished", "the bot in seat 2 played on"
    assert info["bots"] == [False, True]
    events = server.http.get(base + "/events", params={"token": s0}).json()["events"]
    assert any(e["kind"] == "host_note" and e["data"]["what"] == "seat" for e in events)

    m2 = server.create("toy", seats=[{"name": "A", "bot": False}, {"name": "B", "bot": True}],
                       settings={"time_scale": 50.0})
    r = host_post(server, m2, "seat", {"seat": 1, "bot": False})
    assert r.status_code == 200
    view = server.http.get(f"{server.url}/api/matches/{m2['id']}/view",
                           params={"token": token_in(r.json()["link"])}).json()
    assert view["you"] == 1 and view["match"]["bots"] == [False, False]


def test_spectating_can_be_closed(server: ServerProcess) -> None:
    m = server.create("toy", seats=[{"name": "A", "bot": False}, {"name": "B", "bot": False}],
                      settings={"time_scale": 50.0})
    base = f"{server.url}/api/matches/{m['id']}"
    spec = m["tokens"]["spectator"]

    def watch() -> str | None:
        listed = [x for x in server.http.get(f"{server.url}/api/matches").json()
                  if x["id"] == m["id"]]
        link: str | None = listed[0]["watch"]
        return link

    assert watch() == f"{server.url}/m/{m['id']}?token={spec}"
    assert host_post(server, m, "spectators", {"open": False}).status_code == 200
    r = server.http.get(base + "/view", params={"token": spec})
    assert r.status_code == 403 and "spectators" in r.json()["error"]
    assert watch() is None
    assert host_post(server, m, "spectators", {"open": True}).status_code == 200
    assert watch() == f"{server.url}/m/{m['id']}?token={spec}"
    assert server.http.get(base + "/view", params={"token": spec}).status_code == 200


def test_rematch_gives_each_link_its_new_link(server: ServerProcess) -> None:
    m = server.create("toy", seats=[{"name": "Ada", "bot": False}, {"name": "Bot", "bot": True}],
                      settings={"time_scale": 50.0}, config={"rounds": 1})
    base = f"{server.url}/api/matches/{m['id']}"
    assert host_post(server, m, "rematch", {}).status_code == 422  # not over yet
    host_post(server, m, "end", {})
    r = host_post(server, m, "rematch", {})
    assert r.status_code == 200, r.text
    new_id = r.json()["id"]
    nxt = server.http.get(base + "/next", params={"token": m["tokens"]["seats"][0]}).json()
    assert f"/m/{new_id}?token=" in nxt["url"]
    view = server.http.get(f"{server.url}/api/matches/{new_id}/view",
                           params={"token": token_in(nxt["url"])}).json()
    assert view["you"] == 0 and view["match"]["names"] == ["Ada", "Bot"]
    assert server.http.get(base + "/next", params={"token": m["tokens"]["seats"][1]}
                           ).status_code == 404  # the bot's seat has no link
    assert host_post(server, m, "rematch", {}).status_code == 422  # only one


def test_a_seats_notes_are_its_own_and_survive(server: ServerProcess) -> None:
    m = server.create("lockedout", seats=[{"name": n, "bot": False} for n in "ABCDEF"],
                      settings={"time_scale": 50.0})
    base = f"{server.url}/api/matches/{m['id']}/notes"
    s0, s1 = m["tokens"]["seats"][:2]
    assert server.http.get(base, params={"token": s0}).json()["notes"] is None
    r = server.http.post(base, params={"token": s0}, json={"notes": {"C": ["1-1", "2-3"]}})
    assert r.status_code == 200 and r.json()["notes"] == {"C": ["1-1", "2-3"]}
    assert server.http.get(base, params={"token": s1}).json()["notes"] is None
    for token in (m["tokens"]["spectator"], m["tokens"]["host"]):
        assert server.http.get(base, params={"token": token}).status_code == 403
    too_big = {"x": "y" * 20_000}
    assert server.http.post(base, params={"token": s0}, json={"notes": too_big}
                            ).status_code == 413
    assert server.http.post(base, params={"token": s0}, json=[1]).status_code == 400
    server.kill()
    server.start()
    assert server.http.get(base, params={"token": s0}).json()["notes"] == {"C": ["1-1", "2-3"]}
