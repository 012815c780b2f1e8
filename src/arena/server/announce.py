"""Announcements to an outside chat (G-14): a match's or a season's public news posted to a
webhook the host gave (a Discord webhook by default).

Three things make this safe to offer on a public server:

* **Only allowed places are ever called.** :func:`check_url`
  (:mod:`arena.server.webhook_url`) accepts a URL only on a scheme, host and port of the
  allowlist, and redirects are never followed. So a host cannot make the server call anything
  else: its own database, a cloud's metadata address, or another port of an allowed host.
* **Nothing secret goes out, and nothing waits for it.** The messages are built from what a
  spectator may see (public log entries, told by :mod:`arena.server.news`): phases and a
  season's steps as they start with their deadlines, results, standings; never a link, since
  every link of a match holds a token, and never a seat's activity (G-10). They are queued per webhook (a bounded queue,
  sent in order by a task that lives only while there is news to send) and posted through one
  HTTP client shared by every webhook. Each attempt has one deadline for the whole post
  (connect, send, answer), however slowly a receiver trickles its answer, and a message's
  attempts with their backoff have one deadline too: a webhook that fails, hangs or refuses
  costs its own queue, never a match's command.
* **The webhooks in use are counted.** At most ``ARENA_WEBHOOKS_MAX`` distinct URLs at once
  per server process, and a few per match or season (its current one and those still sending
  its earlier news), so memory follows the live matches, not every URL ever given; past the
  cap, setting a new webhook is refused (429) and news for a URL not taken is dropped with one
  log line.

The stored URL is the host's secret: it is kept in the match's (or season's) record settings,
which no seat or spectator view shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

from arena.core.match import Event, Match
from arena.server import news
from arena.server import season_news as _season_news  # noqa: F401 (registers its formatter)
from arena.server.envsetting import env_number
from arena.server.errors import ApiError
from arena.server.news import MAX_TEXT
from arena.server.webhook_url import (  # re-exported: the allowlist is part of this API
    DEFAULT_PORTS,
    DISCORD_HOSTS,
    HOSTS_ENV,
    LOOPBACK,
    MAX_URL,
    PATH,
    RULE,
    Allowed,
    allowlist,
    check_url,
    parse_entry,
)

__all__ = ["ANNOUNCER", "DEFAULT_PORTS", "DISCORD_HOSTS", "HOSTS_ENV", "LOOPBACK", "MAX_URL",
           "PATH", "RULE", "Allowed", "Announcer", "allowlist", "announce_match", "check_url",
           "holder", "parse_entry", "webhook_setting"]

log = logging.getLogger("arena.server")


TIMEOUT = env_number("ARENA_WEBHOOK_TIMEOUT", 5.0, float, 0.1, 120.0,
                     takes="a number of seconds from 0.1 to 120")
"""Seconds one attempt of a post may take in all (connect, send, the whole answer) before it
counts as failed. One deadline, not one per read: a receiver sending its answer a byte at a
time would otherwise hold the post for as long as it likes."""
MESSAGE_DEADLINE = 60.0
"""Seconds one message may take over all its attempts and the waits between them; past it
the message counts as failed, so a receiver that fails slowly cannot hold its queue for
longer than this per message."""
RETRIES = 3
"""Attempts after the first one for a post that failed (an error, a 5xx, a 429)."""
BACKOFF = 1.0
"""Seconds before the first retry; each later one waits twice as long."""
QUEUE = 64
"""Posts waiting per webhook; past it new news is dropped (and logged), never waited for."""

MAX_WEBHOOKS = env_number("ARENA_WEBHOOKS_MAX", 200, int, 1,
                          takes="a whole number of webhook URLs, 1 or more")
"""Distinct webhook URLs one server process uses at once (see :class:`Announcer` for what
counts). Each costs a little memory while it is counted and a queue, a task and a connection
while it sends, so the cap bounds them all."""
PER_HOLDER = 3
"""Webhook URLs one match or season may have in use at once: the one it has now and those it
had before that are still sending the news queued for them. A host changing the webhook over
and over therefore cannot make the server hold more than this many for its match."""
RESERVE = 60.0
"""Seconds a URL checked for a match or season being created is counted before the match (or
season) holds it; creation takes milliseconds, and a match holds its URL at its first news."""
RETRY_AFTER = 60
"""The ``Retry-After`` of a refusal past a cap: a webhook leaves the count once its match is
over and its news is sent, which takes about this long for a slow receiver."""


# --------------------------------------------------------------------------- holding
def holder(kind: str, ident: str) -> str:
    """Who holds a webhook: ``"match <id>"`` or ``"season <id>"``."""
    return f"{kind} {ident}"


def webhook_setting(value: object, held_by: str | None = None) -> str | None:
    """A create request's or a host action's webhook: None (none) or a checked URL that the
    server has taken (:meth:`Announcer.admit`: 429 past a cap). ``held_by`` is the live match
    or season that will post there (:func:`holder`); without it (a match or season being
    created, or one that is over) the URL is counted for :data:`RESERVE` seconds."""
    if value is None or value == "":
        if held_by is not None:
            ANNOUNCER.release(held_by)
        return None
    url = check_url(value)
    ANNOUNCER.admit(url, held_by)
    return url


# --------------------------------------------------------------------------- sending
@dataclass(eq=False)
class _Line:
    """One webhook's queue and the task sending it, bound to the loop that made them; the
    task ends when the queue is empty (the next news starts another)."""

    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(maxsize=QUEUE))
    task: asyncio.Task[None] | None = None

    def running(self, loop: asyncio.AbstractEventLoop) -> bool:
        return self.loop is loop and self.task is not None and not self.task.done()


@dataclass(eq=False)
class _Hook:
    """A webhook URL the server counts: who holds it, who left it while its news was still
    being sent, and its line while it sends."""

    holders: set[str] = field(default_factory=set)
    left: set[str] = field(default_factory=set)
    line: _Line | None = None


class Announcer:
    """Posts text to webhooks in the background: per webhook, in order, at most
    :data:`QUEUE` waiting, each post retried :data:`RETRIES` times with backoff within
    :data:`MESSAGE_DEADLINE`, every attempt within :data:`TIMEOUT`. Nothing it does raises
    into its caller, except :meth:`admit`'s refusal, which an endpoint answers.

    What counts toward :data:`MAX_WEBHOOKS`: the distinct URLs held by a live match or season
    (a match holds its webhook from its first news, or from its host setting it, until its
    news says it is over, or the host clears or changes it), those checked for a match or
    season being created in the last :data:`RESERVE` seconds, and those still sending. The
    count is what the matches and seasons of this process use now, so it comes back down as
    they end: no URL is kept once nothing holds it and its queue is empty. A process that
    restarts counts a resumed match's webhook again at its next news."""

    def __init__(self) -> None:
        self._hooks: dict[str, _Hook] = {}
        self._held: dict[str, str] = {}
        """Holder to the URL it holds."""
        self._left: dict[str, set[str]] = {}
        """Holder to the URLs it moved away from that are still sending its news."""
        self._reserved: dict[str, float] = {}
        """URL to when its reservation ends, oldest first (every one lasts RESERVE)."""
        self._client: httpx.AsyncClient | None = None
        self._client_loop: asyncio.AbstractEventLoop | None = None
        self.clock: Callable[[], float] = time.monotonic
        """What reservations are timed by (a test moves it on)."""
        self.sent = 0
        self.failed = 0
        self.dropped = 0

    # ---- the count
    def in_use(self) -> int:
        """The webhook URLs counted now (see the class)."""
        self._purge()
        return len(self._hooks)

    def admit(self, url: str, held_by: str | None = None) -> None:
        """Take ``url`` for ``held_by`` (or reserve it), else :class:`ApiError` 429 naming the
        cap it would pass."""
        why = self._take(url, held_by)
        if why is not None:
            refusal = ApiError(429, RULE, why)
            refusal.retry_after = RETRY_AFTER
            raise refusal

    def hold(self, held_by: str, url: str) -> bool:
        """``held_by`` posts to ``url`` from now on; False (nothing changed) past a cap."""
        return self._take(url, held_by) is None

    def release(self, held_by: str) -> None:
        """``held_by`` posts nothing more (cleared, or over): its URL leaves the count once
        nothing else holds it and its news is sent."""
        url = self._held.pop(held_by, None)
        if url is not None:
            self._leave(held_by, url)

    def _refusal(self, url: str, held_by: str | None) -> str | None:
        self._purge()
        if held_by is not None and self._held.get(held_by) == url:
            return None
        # A holder moving from a URL nothing else uses to a new one leaves the count as it is.
        if url not in self._hooks and len(self._hooks) - self._frees(held_by) >= MAX_WEBHOOKS:
            return (f"this server has the most webhooks it takes ({MAX_WEBHOOKS}, "
                    "ARENA_WEBHOOKS_MAX); a webhook leaves the count once the matches and "
                    "seasons using it are over, so try again later")
        if held_by is not None:
            earlier = self._left.get(held_by, set()) - {url}
            old = self._held.get(held_by)
            hook = None if old is None else self._hooks.get(old)
            if old is not None and old != url and hook is not None and hook.line is not None \
                    and not hook.holders - {held_by}:  # left still sending, like the others
                earlier = earlier | {old}
            if len(earlier) + 1 > PER_HOLDER:
                kind = held_by.split(" ", 1)[0]
                return (f"this {kind} has {len(earlier)} earlier webhooks still sending its "
                        f"news, and may have {PER_HOLDER} in use at once; try again once "
                        "they are done")
        return None

    def _frees(self, held_by: str | None) -> int:
        """1 if ``held_by`` leaving its URL would take that URL out of the count, else 0."""
        old = None if held_by is None else self._held.get(held_by)
        hook = None if old is None else self._hooks.get(old)
        if hook is None or hook.holders - {held_by} or hook.line is not None \
                or self._reserved.get(old or "", 0.0) > self.clock():
            return 0
        return 1

    def _take(self, url: str, held_by: str | None) -> str | None:
        why = self._refusal(url, held_by)
        if why is not None:
            return why
        hook = self._hooks.setdefault(url, _Hook())
        if held_by is None:
            self._reserved.pop(url, None)  # re-inserted last: the list stays oldest first
            self._reserved[url] = self.clock() + RESERVE
            return None
        self._reserved.pop(url, None)  # held from now on: the holder keeps it counted
        old = self._held.get(held_by)
        if old != url:
            self._held[held_by] = url
            hook.holders.add(held_by)
            if held_by in hook.left:
                hook.left.discard(held_by)
                self._unleft(held_by, url)
            if old is not None:
                self._leave(held_by, old)
        return None

    def _leave(self, held_by: str, url: str) -> None:
        hook = self._hooks.get(url)
        if hook is None:
            return
        hook.holders.discard(held_by)
        if hook.line is not None and not hook.holders:  # still sending this holder's news
            hook.left.add(held_by)
            self._left.setdefault(held_by, set()).add(url)
        self._forget_if_unused(url)

    def _unleft(self, held_by: str, url: str) -> None:
        urls = self._left.get(held_by)
        if urls is not None:
            urls.discard(url)
            if not urls:
                del self._left[held_by]

    def _forget_if_unused(self, url: str) -> None:
        hook = self._hooks.get(url)
        if hook is None or hook.holders or hook.line is not None \
                or self._reserved.get(url, 0.0) > self.clock():
            return
        del self._hooks[url]
        self._reserved.pop(url, None)
        for gone in hook.left:
            self._unleft(gone, url)

    def _purge(self) -> None:
        now = self.clock()
        while self._reserved:
            url, until = next(iter(self._reserved.items()))
            if until > now:
                return
            del self._reserved[url]
            self._forget_if_unused(url)

    # ---- sending
    def post(self, url: str, text: str, held_by: str | None = None) -> None:
        self.send(url, [text], held_by)

    def send(self, url: str, texts: Sequence[str], held_by: str | None = None, *,
             last: bool = False) -> None:
        """Queue ``texts`` for ``url`` (posted by ``held_by``, which then holds it; ``last``:
        it posts nothing more). Past a cap the texts are dropped with one log line."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a script replaying a match): nobody to tell
            loop = None
        if loop is not None and (texts or not last):
            why = self._take(url, held_by)
            if why is not None:
                if texts:
                    self.dropped += len(texts)
                    log.warning("webhook %s: %d posts dropped: %s", _shown(url), len(texts), why)
            else:
                self._queue(loop, url, texts)
        if last and held_by is not None:
            self.release(held_by)

    def _queue(self, loop: asyncio.AbstractEventLoop, url: str, texts: Sequence[str]) -> None:
        if not texts:
            return
        hook = self._hooks[url]
        line = hook.line
        if line is None or not line.running(loop):
            line = hook.line = _Line(loop)
            line.task = loop.create_task(self._send_all(url, hook, line), name="webhook")
        for text in texts:
            try:
                line.queue.put_nowait(text[:MAX_TEXT])
            except asyncio.QueueFull:
                self.dropped += 1
                log.warning("webhook %s: %d posts waiting; news dropped", _shown(url), QUEUE)

    async def _send_all(self, url: str, hook: _Hook, line: _Line) -> None:
        try:
            while not line.queue.empty():
                await self._send(url, line.queue.get_nowait())
        finally:
            if hook.line is line:  # done: the next news starts another line
                hook.line = None
                for gone in hook.left:
                    self._unleft(gone, url)
                hook.left.clear()
                if self._hooks.get(url) is hook:
                    self._forget_if_unused(url)

    def _http(self) -> httpx.AsyncClient:
        """The one client every webhook of this loop posts through: its connection pool and
        TLS set-up are shared (an own client per webhook cost about 0.9 MB each)."""
        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop:
            self._client = httpx.AsyncClient(
                timeout=TIMEOUT, follow_redirects=False,
                # Each webhook sends one post at a time, and at most MAX_WEBHOOKS send.
                limits=httpx.Limits(max_connections=MAX_WEBHOOKS,
                                    max_keepalive_connections=16, keepalive_expiry=30.0))
            self._client_loop = loop
        return self._client

    async def _send(self, url: str, text: str) -> None:
        # No @everyone or role pings from a seat's name (Discord's allowed_mentions).
        body = {"content": text, "allowed_mentions": {"parse": []}}
        loop = asyncio.get_running_loop()
        give_up = loop.time() + MESSAGE_DEADLINE
        client = self._http()
        wait = BACKOFF
        why = ""
        for attempt in range(RETRIES + 1):
            left = give_up - loop.time()
            if left <= 0:
                why += f"; gave up after {MESSAGE_DEADLINE:g} s"
                break
            try:
                async with asyncio.timeout(min(TIMEOUT, left)):
                    # Streamed: the status and headers are all that is read, never a body
                    # the receiver may make as long as it likes.
                    async with client.stream("POST", url, json=body) as answer:
                        status, retry = answer.status_code, answer.headers.get("retry-after")
                if status < 300:
                    self.sent += 1
                    return
                why = f"answered {status}"
                if status < 500 and status != 429:
                    break  # refused for good (a deleted webhook): retrying changes nothing
                with contextlib.suppress(ValueError, TypeError):
                    wait = max(wait, min(float(retry or 0), 30.0))
            except TimeoutError:
                why = f"no whole answer within {min(TIMEOUT, left):g} s"
            except (httpx.HTTPError, httpx.InvalidURL, OSError) as exc:
                why = type(exc).__name__
            if attempt == RETRIES:
                break
            if loop.time() + wait >= give_up:
                why += f"; gave up within {MESSAGE_DEADLINE:g} s"
                break
            await asyncio.sleep(wait)
            wait *= 2
        self.failed += 1
        log.warning("webhook %s: a post failed (%s); the match goes on", _shown(url), why)

    async def close(self) -> None:
        """Stop every sender and the client of this loop (the server is shutting down) and
        forget every webhook: a server that starts again counts them anew."""
        hooks = list(self._hooks.values())
        self._hooks, self._held, self._left, self._reserved = {}, {}, {}, {}
        for hook in hooks:
            if hook.line is not None and hook.line.task is not None:
                hook.line.task.cancel()
                with contextlib.suppress(BaseException):
                    await hook.line.task
        client, self._client = self._client, None
        if client is not None and self._client_loop is asyncio.get_running_loop():
            with contextlib.suppress(Exception):
                await client.aclose()
        self._client_loop = None


ANNOUNCER = Announcer()


def _shown(url: str) -> str:
    """A webhook in a log line without its secret part (the token after the id)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}{PATH}…"


# --------------------------------------------------------------------------- news
def announce_match(url: object, match_id: str, match: Match, names: tuple[str, ...],
                   events: list[Event], settings: Mapping[str, Any] | None = None) -> None:
    """Queue a match's news (from :meth:`MatchOwner._commit`, once the entries are stored):
    what :func:`arena.server.news.match_news` makes of them, by the match's game and, for a
    season's match, the season's news level (G-14). ``settings`` are the match record's."""
    if not isinstance(url, str) or not url:
        return
    settings = settings or {}
    if news.silent(settings):
        # A season's match at "steps": the season's own posts tell it, so it holds no URL
        # (one it held at "phases", or was given with the season's, leaves the count).
        ANNOUNCER.release(holder("match", match_id))
        return
    try:
        posts = news.match_news(match_id, match, names, events, settings)
    except Exception:  # news must never break a match
        log.exception("match %s: building its news failed", match_id)
        posts = []
    # A match holds its webhook while it runs; its last news lets the URL go once sent.
    ANNOUNCER.send(url, posts, holder("match", match_id), last=match.finished)
