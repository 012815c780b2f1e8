"""Webhooks under hostile load (G-14): one deadline for a whole post, a cap on the webhooks
in use per server and per match or season, and an allowlist by scheme, host and port.

Nothing here times the machine: a slow receiver is shown abandoned by what it saw (its
connection closed before its answer was out), never by a stopwatch; the waits on events have
generous guards that only turn a hang into a failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
import warnings
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from starlette.exceptions import StarletteDeprecationWarning

from arena.core.errors import RuleError
from arena.server import announce
from arena.server.errors import ApiError
from server.inprocess import in_process_server

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

HOOK = "/api/webhooks/42/s3cr3t"
GUARD = 30.0
"""Seconds a wait on an event may take before the test fails instead of hanging."""


# --------------------------------------------------------------------------- receivers
class SlowLoris:
    """A receiver on 127.0.0.1 that reads each request whole, then trickles its answer one
    byte every ``every`` seconds, never finishing in a test's time; it notes every connection
    the client closes and how many bytes of the answer went out before that."""

    ANSWER = b"HTTP/1.1 204 No Content\r\nX-Trickle: " + b"x" * 200 + b"\r\n\r\n"

    def __init__(self, every: float) -> None:
        self.every = every
        self.connections = 0
        self.requests = 0
        self.closed = 0
        self.sent: list[int] = []
        """Bytes of the answer out on each connection the client closed."""
        self.all_closed = asyncio.Event()
        self._server: asyncio.Server | None = None

    async def start(self) -> str:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}{HOOK}"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self.all_closed.clear()
        sent = 0

        async def trickle() -> None:
            nonlocal sent
            for byte in self.ANSWER:
                writer.write(bytes([byte]))
                await writer.drain()
                sent += 1
                await asyncio.sleep(self.every)

        try:
            head = await reader.readuntil(b"\r\n\r\n")
            length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), 0)
            await reader.readexactly(length)
            self.requests += 1
            task = asyncio.create_task(trickle())
            await reader.read(1)  # b"" once the client closes its end
            task.cancel()
            with _quiet():
                await task
        except (asyncio.IncompleteReadError, ConnectionError):
            pass  # the client gave up before its request was out
        finally:
            self.sent.append(sent)
            self.closed += 1
            if self.closed == self.connections:
                self.all_closed.set()
            writer.close()
            with _quiet():
                await writer.wait_closed()

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()


def _quiet() -> contextlib.suppress:
    return contextlib.suppress(BaseException)


class Quick:
    """A receiver on 127.0.0.1 answering 204 at once, in a thread (for the in-process
    server's matches and seasons)."""

    def __init__(self) -> None:
        outer = self
        self.posts: list[dict[str, Any]] = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                outer.posts.append(json.loads(body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, n: int) -> str:
        return f"http://127.0.0.1:{self.port}/api/webhooks/{n}/tok{n}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> announce.Announcer:
    """An announcer of the test's own, so counts from other tests never meet its own."""
    mine = announce.Announcer()
    monkeypatch.setattr(announce, "ANNOUNCER", mine)
    return mine


# --------------------------------------------------------------------------- the deadline
@pytest.mark.timeout(120)
def test_a_slow_loris_receiver_holds_a_post_at_most_the_deadline(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The answer trickles a byte every 0.2 s, faster than any per-read timeout would notice
    (the deadline is 1 s): the post is abandoned at its deadline all the same, with the
    answer far from out, and counted as failed; the sender then ends and lets the URL go."""
    monkeypatch.setattr(announce, "TIMEOUT", 1.0)
    monkeypatch.setattr(announce, "RETRIES", 0)

    async def scenario() -> None:
        loris = SlowLoris(every=0.2)
        url = await loris.start()
        monkeypatch.setenv("ARENA_WEBHOOK_HOSTS", url.split("/")[2])
        announcer = announce.Announcer()
        try:
            assert announce.check_url(url) == url
            announcer.post(url, "hello", announce.holder("match", "m1"))
            line = announcer._hooks[url].line
            assert line is not None and line.task is not None
            await asyncio.wait_for(line.task, GUARD)  # a guard: a hang fails here
            await asyncio.wait_for(loris.all_closed.wait(), GUARD)
            assert loris.requests == loris.connections == loris.closed == 1
            assert loris.sent[0] < len(SlowLoris.ANSWER)  # abandoned before its end
            assert (announcer.sent, announcer.failed) == (0, 1)
            assert announcer._hooks[url].line is None  # nothing sending: no task, no queue
            announcer.release(announce.holder("match", "m1"))
            assert announcer.in_use() == 0
        finally:
            await announcer.close()
            await loris.stop()

    asyncio.run(scenario())


@pytest.mark.timeout(120)
def test_a_message_gives_up_within_its_own_deadline_over_all_its_retries(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten retries allowed, but the message's deadline (1.5 s) holds three attempts of
    0.5 s at most: it stops before using them all, and every connection it opened was closed
    before the answer was out."""
    monkeypatch.setattr(announce, "TIMEOUT", 0.5)
    monkeypatch.setattr(announce, "RETRIES", 10)
    monkeypatch.setattr(announce, "BACKOFF", 0.01)
    monkeypatch.setattr(announce, "MESSAGE_DEADLINE", 1.5)

    async def scenario() -> None:
        loris = SlowLoris(every=0.1)
        url = await loris.start()
        monkeypatch.setenv("ARENA_WEBHOOK_HOSTS", url.split("/")[2])
        announcer = announce.Announcer()
        try:
            announcer.post(url, "hello", announce.holder("match", "m1"))
            line = announcer._hooks[url].line
            assert line is not None and line.task is not None
            await asyncio.wait_for(line.task, GUARD)
            await asyncio.wait_for(loris.all_closed.wait(), GUARD)
            assert 1 <= loris.connections <= 4 < announce.RETRIES + 1
            assert loris.closed == loris.connections
            assert all(n < len(SlowLoris.ANSWER) for n in loris.sent)
            assert (announcer.sent, announcer.failed) == (0, 1)
        finally:
            await announcer.close()
            await loris.stop()

    asyncio.run(scenario())


# --------------------------------------------------------------------------- the caps
def test_ten_thousand_distinct_webhooks_are_refused_past_the_cap(
        fresh: announce.Announcer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The function every endpoint calls (``webhook_setting``): the first 200 distinct URLs
    are taken, the other 9,800 refused with 429 naming the cap; the count, and what the
    server keeps for it, stays at 200. A URL in use is still taken for another match."""
    monkeypatch.delenv("ARENA_WEBHOOK_HOSTS", raising=False)
    assert announce.MAX_WEBHOOKS == 200
    urls = [f"https://discord.com/api/webhooks/{i}/token-{i}" for i in range(10_000)]
    taken, refused = [], []
    for i, url in enumerate(urls):
        who = announce.holder("match", f"m{i}") if i % 2 else None  # held, or being created
        try:
            taken.append(announce.webhook_setting(url, who))
        except ApiError as exc:
            refused.append(exc)
    assert taken == urls[:200]
    assert len(refused) == 9_800
    for no in (refused[0], refused[-1]):
        assert no.status == 429 and no.rule == "G-14" and no.retry_after
        assert "this server has the most webhooks it takes (200" in str(no)
        assert "ARENA_WEBHOOKS_MAX" in str(no)
    assert fresh.in_use() == 200 and len(fresh._hooks) == 200
    # Shared: a URL already counted costs nothing more.
    assert announce.webhook_setting(urls[1], announce.holder("match", "other")) == urls[1]
    assert fresh.in_use() == 200


def test_the_count_comes_back_as_matches_end_and_creations_lapse(
        fresh: announce.Announcer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARENA_WEBHOOK_HOSTS", raising=False)
    monkeypatch.setattr(announce, "MAX_WEBHOOKS", 3)
    now = [1000.0]
    fresh.clock = lambda: now[0]
    url = [f"https://discord.com/api/webhooks/{i}/t" for i in range(6)]
    announce.webhook_setting(url[0])                                   # a match being created
    announce.webhook_setting(url[1], announce.holder("match", "a"))
    announce.webhook_setting(url[2], announce.holder("season", "s"))
    with pytest.raises(ApiError, match="most webhooks it takes"):
        announce.webhook_setting(url[3])
    now[0] += announce.RESERVE + 1  # the creation's check lapsed (its match never posted)
    assert fresh.in_use() == 2
    announce.webhook_setting(url[3], announce.holder("match", "b"))
    # A holder moving from a URL nothing else uses to a new one keeps the count: allowed
    # at the cap, and the old one is gone at once (it had nothing to send).
    announce.webhook_setting(url[4], announce.holder("match", "a"))
    assert fresh.in_use() == 3 and url[1] not in fresh._hooks
    # Over, or cleared: the URL leaves the count.
    fresh.send(url[4], [], announce.holder("match", "a"), last=True)   # no loop: no post
    assert announce.webhook_setting(None, announce.holder("season", "s")) is None
    assert fresh.in_use() == 1 and list(fresh._hooks) == [url[3]]


def test_a_post_to_a_webhook_not_taken_is_dropped_with_one_log_line(
        fresh: announce.Announcer, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.delenv("ARENA_WEBHOOK_HOSTS", raising=False)
    monkeypatch.setattr(announce, "MAX_WEBHOOKS", 1)
    announce.webhook_setting("https://discord.com/api/webhooks/1/a",
                             announce.holder("match", "a"))

    async def scenario() -> None:
        fresh.send("https://discord.com/api/webhooks/2/b", ["one", "two", "three"],
                   announce.holder("match", "b"))

    with caplog.at_level("WARNING", "arena.server"):
        asyncio.run(scenario())
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and "3 posts dropped" in lines[0] and "most webhooks" in lines[0]
    assert "/2/b" not in lines[0]  # the secret part of a webhook is never logged
    assert fresh.dropped == 3 and fresh.in_use() == 1


@pytest.mark.timeout(120)
def test_a_match_changing_its_webhook_over_and_over_holds_a_few_at_most(
        fresh: announce.Announcer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Changes with nothing to send leave one URL counted; changes while the old ones still
    send (a slow receiver) are refused past PER_HOLDER, naming the match's limit."""
    monkeypatch.setattr(announce, "TIMEOUT", 5.0)

    async def scenario() -> None:
        loris = SlowLoris(every=1.0)
        base = (await loris.start()).rsplit("/", 2)[0]
        monkeypatch.setenv("ARENA_WEBHOOK_HOSTS", base.split("/")[2])
        me = announce.holder("match", "m")
        try:
            for i in range(50):
                announce.webhook_setting(f"{base}/{i}/t", me)
            assert fresh.in_use() == 1
            for i in range(100, 100 + announce.PER_HOLDER):
                announce.webhook_setting(f"{base}/{i}/t", me)
                fresh.post(f"{base}/{i}/t", "news", me)  # still sending when left
            with pytest.raises(ApiError) as err:
                announce.webhook_setting(f"{base}/999/t", me)
            assert err.value.status == 429
            assert f"this match has {announce.PER_HOLDER} earlier webhooks" in str(err.value)
            assert fresh.in_use() == announce.PER_HOLDER
            # Another match is not held back by this one's.
            announce.webhook_setting(f"{base}/999/t", announce.holder("match", "other"))
        finally:
            await fresh.close()
            await loris.stop()

    asyncio.run(scenario())


@pytest.fixture(scope="module")
def quick() -> Iterator[Quick]:
    q = Quick()
    yield q
    q.close()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory, quick: Quick) -> Iterator[TestClient]:
    folder: Path = tmp_path_factory.mktemp("webhook-bounds")
    patch = pytest.MonkeyPatch()
    patch.setenv("ARENA_WEBHOOK_HOSTS", f"127.0.0.1:{quick.port}")
    patch.setattr(announce, "MAX_WEBHOOKS", 2)
    patch.setattr(announce, "ANNOUNCER", announce.Announcer())
    with in_process_server(folder, patch) as c:
        yield c


def test_the_endpoints_refuse_a_new_webhook_past_the_servers_cap(
        client: TestClient, quick: Quick) -> None:
    """Through HTTP with the cap at 2: seasons hold their webhooks from creation (what they
    post goes to those same URLs, so nothing else is counted); a third URL is refused 429 with Retry-After at
    creation and by both host endpoints; a host moving its season to a new URL keeps the
    count and is allowed; a cleared webhook makes room."""
    cast = ["Ann", "Ben", "Cat", "Dan"]

    def season(url: str | None) -> Any:
        r = client.post("/api/seasons", json={"cast": cast, "webhook": url})
        return r

    one, two = season(quick.url(1)), season(quick.url(2))
    assert one.status_code == two.status_code == 201, (one.text, two.text)
    r = season(quick.url(3))
    assert r.status_code == 429, r.text
    assert r.json()["error"].startswith("G-14: this server has the most webhooks it takes (2")
    assert r.headers["retry-after"] == str(announce.RETRY_AFTER)
    r = client.post("/api/matches", json={"game": "boxes",
                                          "settings": {"webhook": quick.url(3)}})
    assert r.status_code == 429 and "most webhooks it takes (2" in r.json()["error"], r.text
    # The match endpoint: a match without a webhook may not add a third.
    created = client.post("/api/matches", json={"game": "boxes"}).json()
    host = created["tokens"]["host"]
    path = f"/api/matches/{created['id']}/host/webhook"
    r = client.post(path, params={"token": host}, json={"url": quick.url(3)})
    assert r.status_code == 429 and "most webhooks it takes (2" in r.json()["error"], r.text
    # ...but may share one already in use.
    r = client.post(path, params={"token": host}, json={"url": quick.url(2)})
    assert r.status_code == 200 and r.json()["webhook"] is True, r.text
    r = client.post(path, params={"token": host}, json={"url": None})
    assert r.status_code == 200, r.text
    # The season endpoint: moving season one to a new URL frees its old one.
    s1 = one.json()
    r = client.post(f"/api/seasons/{s1['id']}/host/webhook",
                    params={"token": s1["tokens"]["host"]}, json={"url": quick.url(3)})
    assert r.status_code == 200, r.text
    s2 = two.json()
    r = client.post(f"/api/seasons/{s2['id']}/host/webhook",
                    params={"token": s2["tokens"]["host"]}, json={"url": quick.url(4)})
    assert r.status_code == 200, r.text  # moved, not added
    r = client.post(f"/api/seasons/{s2['id']}/host/webhook",
                    params={"token": s2["tokens"]["host"]}, json={"url": None})
    assert r.status_code == 200, r.text
    five = season(quick.url(5))
    assert five.status_code == 201, five.text
    for s in (s1, five.json()):
        r = client.post(f"/api/seasons/{s['id']}/host/webhook",
                        params={"token": s["tokens"]["host"]}, json={"url": None})
        assert r.status_code == 200, r.text
    # A season is a match: its first step may still be on its way to the receiver, and a URL
    # still sending counts until it is sent.
    until(lambda: announce.ANNOUNCER.in_use() == 0)


def test_a_match_holds_its_webhook_until_it_is_over_and_its_news_is_sent(
        client: TestClient, quick: Quick) -> None:
    """A match counts its webhook while it runs, and lets it go once its result is posted:
    the count comes back to where it was, with no task left sending."""
    before = announce.ANNOUNCER.in_use()
    r = client.post("/api/matches", json={
        "game": "boxes", "seed": 5, "seats": [{"bot": True}, {"bot": True}],
        "settings": {"time_scale": 0.01, "bot_pace": "instant", "webhook": quick.url(7)}})
    assert r.status_code == 201, r.text
    mid = r.json()["id"]
    held = announce.ANNOUNCER._held.get(announce.holder("match", mid))
    status = client.get(f"/api/matches/{mid}").json()["status"]
    assert held == quick.url(7) or status == "finished"  # held while it runs
    over = f"match {mid} is over"
    until(lambda: any(over in str(p["content"]) for p in quick.posts))
    until(lambda: announce.ANNOUNCER.in_use() == before)  # sent, then let go


def until(check: Any, guard: float = GUARD) -> None:
    """Waits for ``check``; the guard only turns a hang into a failure."""
    end = time.monotonic() + guard
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


# --------------------------------------------------------------------------- the allowlist
def test_the_allowlist_is_by_scheme_host_and_port(monkeypatch: pytest.MonkeyPatch) -> None:
    port = 48_123
    monkeypatch.setenv("ARENA_WEBHOOK_HOSTS", f"127.0.0.1:{port}")
    ok = f"http://127.0.0.1:{port}{HOOK}"
    assert announce.check_url(ok) == ok
    assert announce.check_url(f"https://127.0.0.1:{port}{HOOK}")  # a loopback entry: both
    for bad, words in [(f"http://127.0.0.1:22{HOOK}", f"only use port {port}"),
                       (f"http://127.0.0.1{HOOK}", "not 80"),
                       (f"http://127.0.0.1:{port + 1}{HOOK}", f"not {port + 1}"),
                       (f"ftp://127.0.0.1:{port}{HOOK}", "must start with"),
                       (f"http://localhost:{port}{HOOK}", "may only go to")]:
        with pytest.raises(RuleError) as err:
            announce.check_url(bad)
        assert err.value.rule == "G-14" and words in str(err.value), (bad, str(err.value))
    # An entry naming its scheme takes that scheme only.
    monkeypatch.setenv("ARENA_WEBHOOK_HOSTS", f"http://127.0.0.1:{port}, https://[::1]:9443")
    assert announce.check_url(ok)
    assert announce.check_url(f"https://[::1]:9443{HOOK}")
    for bad in (f"https://127.0.0.1:{port}{HOOK}", f"http://[::1]:9443{HOOK}",
                f"https://[::1]{HOOK}"):
        with pytest.raises(RuleError, match="G-14"):
            announce.check_url(bad)
    # Ports by scheme when the entry names none: https 443; plain http never off loopback.
    monkeypatch.setenv("ARENA_WEBHOOK_HOSTS", "hooks.example")
    assert announce.check_url(f"https://hooks.example{HOOK}")
    assert announce.check_url(f"https://hooks.example:443{HOOK}")
    for bad in (f"https://hooks.example:8443{HOOK}", f"http://hooks.example{HOOK}",
                f"http://hooks.example:443{HOOK}"):
        with pytest.raises(RuleError, match="G-14"):
            announce.check_url(bad)
    monkeypatch.delenv("ARENA_WEBHOOK_HOSTS")
    with pytest.raises(RuleError, match="only use port 443"):
        announce.check_url(f"https://discord.com:22{HOOK}")


@pytest.mark.parametrize("entry", ["ftp://x.example", "x.example:99999", "x.example/path",
                                   "user@x.example", ":8080", "x.example:0",
                                   "http://x.example"])
def test_an_allowlist_entry_that_cannot_be_read_takes_nothing(
        monkeypatch: pytest.MonkeyPatch, entry: str) -> None:
    monkeypatch.setenv("ARENA_WEBHOOK_HOSTS", f"discord.com, {entry}")
    with pytest.raises(RuleError, match="ARENA_WEBHOOK_HOSTS cannot be read"):
        announce.check_url(f"https://discord.com{HOOK}")


ENTRIES = "https://hooks.example:8443, 127.0.0.1:5555, [::1]:6666, discord.com"
ALLOWED = {("https", "hooks.example", 8443), ("https", "127.0.0.1", 5555),
           ("http", "127.0.0.1", 5555), ("https", "::1", 6666), ("http", "::1", 6666),
           ("https", "discord.com", 443)}

SCHEMES = ["http", "https", "HTTP", "HttPs", "ftp", "", "javascript", "https:", "http:/"]
USERS = ["", "user@", "user:pw@", "@", ":@", "hooks.example@", "hooks.example:8443@",
         "127.0.0.1:5555@", "%40@", "discord.com%40@"]
HOSTS = ["hooks.example", "HOOKS.EXAMPLE", "hooks.example.", "hooks%2Eexample",
         "hook%73.example", "hooks.example.evil", "evil.hooks.example", "hooks.examp1e",
         "hooks\u3002example", "\uff48ooks.example", "xn--hooks-example", "127.0.0.1", "127.1",
         "2130706433", "0x7f.0.0.1", "127.0.0.1.", "127.000.000.001", "localhost",
         "LOCALHOST", "[::1]", "[0:0:0:0:0:0:0:1]", "[::ffff:127.0.0.1]", "[::1%25lo]",
         "::1", "[::1", "discord.com", "DISCORD.COM", "discord.com.", "discordapp.com.evil",
         "169.254.169.254", ""]
PORTS = ["", ":", ":5555", ":6666", ":8443", ":443", ":80", ":22", ":05555", ":+5555",
         ":65536", ":-1", ":0", ":5555:6666", ":0x15b3"]
PATHS = [HOOK, "/api/webhooks/", "/x", "", f"{HOOK}#frag", f"{HOOK}?wait=true",
         "/api/webhooks/../admin", f"/..{HOOK}", f"{HOOK}@evil.example"]
NOISE = ["@", "#", "?", "%", ":", "[", "]", "/", ".", "\\", "\t", "\u3002", "\uff0e", "%00",
         "%2e", "//"]


@st.composite
def webhook_urls(draw: st.DrawFn) -> str:
    scheme = draw(st.sampled_from(SCHEMES))
    port = draw(st.one_of(st.sampled_from(PORTS), st.integers(0, 70_000).map(lambda p: f":{p}")))
    url = (f"{scheme}://{draw(st.sampled_from(USERS))}{draw(st.sampled_from(HOSTS))}{port}"
           f"{draw(st.sampled_from(PATHS))}")
    if draw(st.booleans()):  # a stray character anywhere
        at = draw(st.integers(0, len(url)))
        url = url[:at] + draw(st.sampled_from(NOISE)) + url[at:]
    return url


# Hypothesis warns about its own thread-local PRNG once a TestClient's thread has run in the
# process (the in-process server above); nothing here draws from the global random.
@pytest.mark.filterwarnings("ignore:It looks like `register_random`")
@settings(max_examples=1500, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(url=webhook_urls())
@example(url=f"https://hooks.example:8443{HOOK}")
@example(url=f"http://127.0.0.1:5555{HOOK}")
@example(url=f"https://[::1]:6666{HOOK}")
@example(url=f"https://DISCORD.com:443{HOOK}")
@example(url=f"https://discord.com@127.0.0.1:5555{HOOK}")
@example(url=f"http://127.0.0.1:5555#@hooks.example:8443{HOOK}")
def test_nothing_outside_an_entrys_scheme_host_and_port_is_admitted(url: str) -> None:
    """Whatever a URL's spelling (user parts, IPv6, ports with zeros or signs, percent-encoded
    or trailing-dot or full-width hosts, uppercase, stray characters), if it is admitted, the
    sender reads it as an allowed (scheme, host, port) with no user part and a webhook path."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ARENA_WEBHOOK_HOSTS", ENTRIES)
        try:
            admitted = announce.check_url(url)
        except RuleError as exc:
            assert exc.rule == "G-14"
            return
    sent = httpx.URL(admitted)
    port = sent.port or {"http": 80, "https": 443}[sent.scheme]
    assert (sent.scheme, sent.host, port) in ALLOWED, url
    assert sent.userinfo == b"", url
    assert sent.path.startswith("/api/webhooks/") and "/../" not in sent.path, url


def test_the_canonical_spellings_are_admitted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The property test above is not empty: each allowed place is reachable."""
    monkeypatch.setenv("ARENA_WEBHOOK_HOSTS", ENTRIES)
    for scheme, host, port in sorted(ALLOWED):
        where = f"[{host}]" if ":" in host else host
        assert announce.check_url(f"{scheme}://{where}:{port}{HOOK}")
