"""Announcements to a webhook (G-14), in process, against a receiver in the
test (a tiny HTTP server on 127.0.0.1, allowed by ``ARENA_WEBHOOK_HOSTS``).

A short all-bot match posts one message per public phase, its start and its result, and none
holds a token or the webhook itself; a URL outside the allowlist is refused naming G-14; a
receiver that answers 500 or hangs changes nothing in the match (it finishes, and its log is
its replay). A short season with bots posts its steps and the standings, and its matches
post nothing of their own (the season news' own test is test_season_news.py).
"""

from __future__ import annotations

import json
import threading
import time
import warnings
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from starlette.exceptions import StarletteDeprecationWarning

from arena.core.errors import RuleError
from arena.core.registry import get_game
from arena.server import announce, news
from server.inprocess import in_process_server
from server.shadow import host_events, normalised, rebuild

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

FAST = {"time_scale": 0.01, "bot_pace": "instant"}


class Receiver:
    """A webhook on 127.0.0.1: records each post's JSON; ``mode`` answers ok, 500 or hangs."""

    def __init__(self, mode: str = "ok") -> None:
        self.mode = mode
        self.posts: list[dict[str, Any]] = []
        self.hits = 0
        self.release = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                outer.hits += 1
                if outer.mode == "hang":
                    outer.release.wait(10)
                    return
                if outer.mode == "fail":
                    self.send_response(500)
                    self.end_headers()
                    return
                outer.posts.append(json.loads(body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_port}/api/webhooks/42/s3cr3t-hook"

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()

    def texts(self) -> list[str]:
        return [str(p["content"]) for p in self.posts]


def allow(monkeypatch: pytest.MonkeyPatch, r: Receiver) -> None:
    """The allowlist names the receiver's own port: no other port of 127.0.0.1 is called."""
    monkeypatch.setenv("ARENA_WEBHOOK_HOSTS", f"127.0.0.1:{r.server.server_port}")


@pytest.fixture
def receiver(monkeypatch: pytest.MonkeyPatch) -> Iterator[Receiver]:
    r = Receiver()
    allow(monkeypatch, r)
    yield r
    r.close()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder: Path = tmp_path_factory.mktemp("webhooks")
    patch = pytest.MonkeyPatch()
    patch.setenv("ARENA_WEBHOOK_HOSTS", "127.0.0.1")
    # The deadline is for the whole post: on a loaded machine a receiver that recorded a post
    # may answer after 0.3 s, and the post is sent again (one more text than the log has).
    patch.setattr(announce, "TIMEOUT", 3.0)
    patch.setattr(announce, "BACKOFF", 0.05)
    with in_process_server(folder, patch) as c:
        yield c


def until(check: Any, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


def bot_match(client: TestClient, webhook: str) -> dict[str, Any]:
    r = client.post("/api/matches", json={
        "game": "boxes", "seed": 5, "seats": [{"bot": True}, {"bot": True}],
        "settings": {**FAST, "webhook": webhook}})
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


def finished(client: TestClient, match_id: str) -> bool:
    return bool(client.get(f"/api/matches/{match_id}").json()["status"] == "finished")


def secrets_of(created: dict[str, Any], webhook: str) -> list[str]:
    links = created["links"]
    tokens = [u.split("token=")[1] for u in [*links["seats"], links["spectator"], links["host"]]]
    return [*tokens, webhook, webhook.rsplit("/", 1)[1]]


def test_the_allowlist_refuses_everything_but_discord_webhooks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARENA_WEBHOOK_HOSTS", raising=False)
    good = "https://discord.com/api/webhooks/123/abc-DEF_ghi"
    assert announce.check_url(good) == good
    assert announce.check_url("https://canary.discord.com/api/webhooks/1/x?wait=true")
    for bad in ["http://discord.com/api/webhooks/1/x",            # not https
                "https://evil.example/api/webhooks/1/x",           # not an allowed host
                "https://discord.com.evil.example/api/webhooks/1/x",
                "https://discord.com@evil.example/api/webhooks/1/x",
                "https://user:pw@discord.com/api/webhooks/1/x",    # a user part
                "https://discord.com:8443/api/webhooks/1/x",       # another port
                "https://discord.com/api/users/1",                 # not a webhook path
                "https://discord.com/api/webhooks/",
                "https://127.0.0.1/api/webhooks/1/x",              # loopback not listed
                "http://169.254.169.254/api/webhooks/1/x",
                "https://discord.com/api/webhooks/1/x\ny",
                "https://discord.com/api/webhooks/" + "x" * 600,
                "", 42]:
        with pytest.raises(RuleError) as err:
            announce.check_url(bad)
        assert err.value.rule == "G-14", bad
    monkeypatch.setenv("ARENA_WEBHOOK_HOSTS", "127.0.0.1:8080")
    assert announce.check_url("http://127.0.0.1:8080/api/webhooks/1/x")
    with pytest.raises(RuleError):  # the list replaces Discord's
        announce.check_url(good)


def test_the_api_refuses_a_webhook_outside_the_allowlist(client: TestClient) -> None:
    bad = "https://example.com/api/webhooks/1/x"
    r = client.post("/api/matches", json={"game": "boxes", "settings": {"webhook": bad}})
    assert r.status_code == 422 and "G-14" in r.json()["error"], r.text
    assert "example.com" in r.json()["error"]
    r = client.post("/api/seasons", json={"cast": ["Ann", "Ben", "Cat", "Dan"], "webhook": bad})
    assert r.status_code == 422 and "G-14" in r.json()["error"], r.text
    created = client.post("/api/matches", json={"game": "boxes"}).json()
    host = created["links"]["host"].split("token=")[1]
    r = client.post(f"/api/matches/{created['id']}/host/webhook", params={"token": host},
                    json={"url": bad})
    assert r.status_code == 422 and "G-14" in r.json()["error"], r.text
    seat = created["links"]["seats"][0].split("token=")[1]
    r = client.post(f"/api/matches/{created['id']}/host/webhook", params={"token": seat},
                    json={"url": None})
    assert r.status_code == 403


def test_an_all_bot_match_posts_each_public_phase_and_its_result(
        client: TestClient, receiver: Receiver) -> None:
    created = bot_match(client, receiver.url)
    mid = created["id"]
    until(lambda: finished(client, mid))
    host = created["links"]["host"].split("token=")[1]
    log = host_events(client, "", mid, host)
    public = [e for e in log if e.to is None
              and e.kind in ("match_started", "phase_started", "match_ended")]
    until(lambda: len(receiver.posts) >= len(public))
    time.sleep(0.2)  # nothing more comes
    texts = receiver.texts()
    assert len(texts) == len(public) > 3
    assert texts[0].startswith(f"**Box within a Box within a Box** match {mid} started")
    assert sum("started; deadline <t:" in t or t.endswith("started") for t in texts[1:]) \
        == len(public) - 2
    assert " is over: " in texts[-1]
    for text in texts:  # G-14: never a token, a link or the webhook itself
        assert "token" not in text and "http" not in text
        for secret in secrets_of(created, receiver.url):
            assert secret not in text
    assert all(p["allowed_mentions"] == {"parse": []} for p in receiver.posts)
    # The stored URL is the host's secret: no seat, spectator or host view shows it.
    for link in [*created["links"]["seats"], created["links"]["spectator"],
                 created["links"]["host"]]:
        token = link.split("token=")[1]
        for path in ("", "/events", "/view"):
            r = client.get(f"/api/matches/{mid}{path}", params={"token": token, "since": 0})
            assert "s3cr3t-hook" not in r.text
    links = client.get(f"/api/matches/{mid}/host/links", params={"token": host}).json()
    assert links["webhook"] is True and "s3cr3t-hook" not in json.dumps(links)


def test_the_host_sets_and_clears_the_webhook(client: TestClient, receiver: Receiver) -> None:
    r = client.post("/api/matches", json={"game": "boxes", "seats": [{}, {"bot": True}],
                                          "settings": FAST})
    created = r.json()
    host = created["links"]["host"].split("token=")[1]
    path = f"/api/matches/{created['id']}/host/webhook"
    r = client.post(path, params={"token": host}, json={"url": receiver.url})
    assert r.json() == {"ok": True, "webhook": True}
    client.post(f"/api/matches/{created['id']}/host/end", params={"token": host}, json={})
    until(lambda: any(" is over: " in t for t in receiver.texts()))
    r = client.post(path, params={"token": host}, json={"url": None})
    assert r.json() == {"ok": True, "webhook": False}


@pytest.mark.parametrize("mode", ["fail", "hang"])
def test_a_failing_webhook_changes_nothing_in_the_match(
        client: TestClient, mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = Receiver(mode)
    allow(monkeypatch, bad)
    monkeypatch.setattr(announce, "TIMEOUT", 0.3)  # a hanging receiver gives up soon
    try:
        created = bot_match(client, bad.url)
        mid = created["id"]
        until(lambda: finished(client, mid))
        host = created["links"]["host"].split("token=")[1]
        log = host_events(client, "", mid, host)
        names = client.get(f"/api/matches/{mid}").json()["names"]
        game = get_game("boxes")
        replay = rebuild(game, game.config_for_seats({}, names), FAST, log, names=names)
        assert normalised(replay.log) == normalised(log)
        # The first post was tried again with backoff (and the rest queued behind it).
        until(lambda: bad.hits >= announce.RETRIES + 1)
    finally:
        bad.close()


def test_a_season_with_bots_posts_its_steps_and_standings(
        client: TestClient, receiver: Receiver) -> None:
    cast = [{"name": n, "bot": True} for n in ("Ann", "Ben", "Cat", "Dan")]
    # Steps of 36 s: the bots choose at once, and the host's steps wait for the host.
    r = client.post("/api/seasons", json={
        "cast": cast, "seed": 3, "settings": FAST, "step_seconds": 3600, "webhook": receiver.url,
        "mm_config": {"round_seconds": 60, "vote_seconds": 60, "max_rounds": 4}})
    assert r.status_code == 201, r.text
    created = r.json()
    sid, host = created["id"], created["tokens"]["host"]

    def season() -> Any:
        return client.get(f"/api/seasons/{sid}").json()["state"]

    def step() -> str:
        return str(season()["step"])

    r = client.post(f"/api/seasons/{sid}/host/start_main", params={"token": host}, json={})
    assert r.status_code == 200, r.text
    until(lambda: step() in ("dm_next", "name_ec"), 60)
    if step() == "name_ec":
        r = client.post(f"/api/seasons/{sid}/host/name_ec", params={"token": host},
                        json={"ec": "Ann", "reason": "test"})
        until(lambda: step() == "dm_next", 30)
    r = client.post(f"/api/seasons/{sid}/host/start_death", params={"token": host},
                    json={"game": "boxes"})
    assert r.status_code == 200, r.text
    until(lambda: season()["episodes"][0]["eliminated"] is not None, 60)
    until(lambda: any("is eliminated" in t for t in receiver.texts()), 60)
    texts = receiver.texts()
    head = f"**{news.season_name({}, sid)}**"
    assert all(t.startswith(head) for t in texts), texts  # every post names its season
    assert any("episode 1: the Main Match" in t for t in texts), texts
    assert any("episode 1: the Death Match" in t for t in texts), texts
    eliminated = next(t for t in texts if "is eliminated" in t)
    assert "Standings:" in eliminated and "- Ann: " in eliminated
    # At the season's default level ("steps") its matches post nothing of their own.
    assert not any(f"{sid}-e" in t or "** match" in t for t in texts), texts
    secrets = [host, *created["tokens"]["players"].values(), "s3cr3t-hook"]
    for text in texts:
        assert "token=" not in text and "http" not in text  # ("the token": a Token of Life)
        assert not any(s in text for s in secrets)
    for token in (None, host, *created["tokens"]["players"].values()):
        r = client.get(f"/api/seasons/{sid}", params={"token": token} if token else {})
        assert "s3cr3t-hook" not in r.text


def test_the_season_host_sets_changes_and_clears_the_webhook_after_creation(
        client: TestClient, receiver: Receiver) -> None:
    """G-14: a season created without a webhook gets one from its host
    later; the same allowlist applies (refused naming G-14, nothing changed); the next step
    is posted there; the host's links say a webhook is set, never its URL; cleared, nothing
    more is posted; a player's link may not set it."""
    cast = [{"name": n} for n in ("Ann", "Ben", "Cat", "Dan")]
    r = client.post("/api/seasons", json={"cast": cast, "seed": 4, "settings": FAST})
    assert r.status_code == 201, r.text
    created = r.json()
    sid, host = created["id"], created["tokens"]["host"]
    path = f"/api/seasons/{sid}/host/webhook"

    def webhook_set() -> bool:
        """Whether the host's links say a webhook is set (a season's links are its match's)."""
        links = client.get(f"/api/matches/{sid}/host/links", params={"token": host}).json()
        assert "s3cr3t-hook" not in json.dumps(links)
        return bool(links["webhook"])

    assert webhook_set() is False
    for bad in ("https://example.com/api/webhooks/1/x", "http://127.0.0.1:1/hook", 5):
        r = client.post(path, params={"token": host}, json={"url": bad})
        assert r.status_code == 422 and r.json()["rule"] == "G-14", r.text
    assert client.post(path, params={"token": host}, json={}).status_code == 400
    r = client.post(path, params={"token": created["tokens"]["players"]["Ann"]},
                    json={"url": receiver.url})
    assert r.status_code == 403
    r = client.post(path, params={"token": host}, json={"url": receiver.url})
    assert r.status_code == 200 and r.json()["webhook"] is True, r.text
    view = client.get(f"/api/seasons/{sid}", params={"token": host}).json()
    assert webhook_set() is True and "s3cr3t-hook" not in json.dumps(view)
    r = client.post(f"/api/seasons/{sid}/host/record_main", params={"token": host}, json={
        "reason": "stage", "result": {"escaped": ["Ann", "Ben"], "trapped": ["Cat", "Dan"],
                                      "bars": {"Ann": 5, "Ben": 3}, "ec": "Cat"}})
    assert r.status_code == 200, r.text
    until(lambda: any("Token of Life gift" in t for t in receiver.texts()))
    # Cleared: the next steps go nowhere.
    r = client.post(path, params={"token": host}, json={"url": None})
    assert r.json()["webhook"] is False
    seen = len(receiver.texts())
    client.post(f"/api/seasons/{sid}/gift", params={"token": created["tokens"]["players"][
        "Ann"]}, json={"to": "Ben"})
    assert client.get(f"/api/seasons/{sid}").json()["state"]["step"] == "nominate"
    time.sleep(0.5)  # nothing arrives: a post would take milliseconds on 127.0.0.1
    assert len(receiver.texts()) == seen
    for token in (None, *created["tokens"]["players"].values()):
        r = client.get(f"/api/seasons/{sid}", params={"token": token} if token else {})
        assert "s3cr3t-hook" not in r.text and "webhook" not in r.json()
