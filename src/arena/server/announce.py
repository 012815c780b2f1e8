"""Announcements to an outside chat (G-14): a match's or a season's public news posted to a
webhook the host gave (a Discord webhook by default).

Three things make this safe to offer on a public server:

* **Only allowed places are ever called.** :func:`check_url` accepts a URL only on a scheme,
  host and port of the allowlist: Discord's webhook hosts over https on 443 unless
  ``ARENA_WEBHOOK_HOSTS`` names others (``host``, ``host:port`` or ``scheme://host:port``;
  plain http only to a loopback host, for tests), with no user part and a ``/api/webhooks/``
  path; redirects are never followed. So a host cannot make the server call anything else:
  its own database, a cloud's metadata address, or another port of an allowed host (Arena's
  own, ssh).
* **Nothing secret goes out, and nothing waits for it.** The messages are built from what a
  spectator may see (public log entries, the season's public record): phases as they start
  with their deadlines, results, standings; never a link, since every link of a match holds a
  token, and never a seat's activity (G-10). They are queued per webhook (a bounded queue,
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

The stored URL is the host's secret: it is kept in the match's settings (or the season's
head), which no seat or spectator view shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

from arena.core.errors import RuleError
from arena.core.match import SPECTATOR, Event, Match, phase_label
from arena.server.envsetting import env_number
from arena.server.errors import ApiError

log = logging.getLogger("arena.server")

RULE = "G-14"
MAX_URL = 512
"""The longest webhook URL accepted (Discord's are about 120 characters)."""

HOSTS_ENV = "ARENA_WEBHOOK_HOSTS"
DISCORD_HOSTS = ("discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com")
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
DEFAULT_PORTS = {"https": 443, "http": 80}
"""The port a URL or an allowlist entry without one means, by scheme."""
PATH = "/api/webhooks/"

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
MAX_TEXT = 1900
"""Discord takes 2000 characters per message."""

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


# --------------------------------------------------------------------------- the allowlist
@dataclass(frozen=True)
class Allowed:
    """One entry of the allowlist: a host, the schemes a webhook on it may use, and its port
    (None: the scheme's own, 443 for https and 80 for http); ``shown`` is the entry as
    written, for messages."""

    host: str
    schemes: tuple[str, ...]
    port: int | None = None
    shown: str = ""

    def admits(self, scheme: str, port: int) -> bool:
        return scheme in self.schemes and port == self.port_for(scheme)

    def port_for(self, scheme: str) -> int:
        return self.port if self.port is not None else DEFAULT_PORTS[scheme]


def parse_entry(raw: str) -> Allowed:
    """An entry of ``ARENA_WEBHOOK_HOSTS``: ``host``, ``host:port``, ``scheme://host`` or
    ``scheme://host:port`` (an IPv6 address in brackets, or bare without a port). Without a
    scheme an entry means https, and http too for a loopback host (a test's receiver)."""
    text = raw.strip().lower()
    scheme = None
    if "://" in text:
        scheme, text = text.split("://", 1)
        if scheme not in DEFAULT_PORTS:
            raise ValueError(f"{raw!r}: the scheme is http or https")
    if text.count(":") > 1 and not text.startswith("["):
        host, port = text, None  # a bare IPv6 address: its colons are not a port
    else:
        parts = urlsplit("//" + text)
        host, port = parts.hostname or "", parts.port  # port: ValueError when malformed
        if parts.path not in ("", "/") or parts.query or parts.fragment or "@" in text:
            raise ValueError(f"{raw!r}: an entry is a host, with a port and a scheme if need be")
    if not host or port == 0:
        raise ValueError(f"{raw!r}: an entry names a host (and a port from 1 to 65535)")
    if scheme == "http" and host not in LOOPBACK:
        raise ValueError(f"{raw!r}: plain http only to a loopback host")
    schemes = (scheme,) if scheme else ("https", "http") if host in LOOPBACK else ("https",)
    return Allowed(host, schemes, port, raw.strip().lower())


def allowlist() -> tuple[Allowed, ...]:
    """Where a webhook may be: the entries of ``ARENA_WEBHOOK_HOSTS`` (comma-separated), else
    Discord's webhook hosts over https on 443. An entry that cannot be read is refused, with
    the variable named, at the first webhook checked (never silently widened or dropped)."""
    raw = [e for e in os.environ.get(HOSTS_ENV, "").split(",") if e.strip()]
    if not raw:
        return tuple(Allowed(h, ("https",), None, h) for h in DISCORD_HOSTS)
    try:
        return tuple(parse_entry(e) for e in raw)
    except ValueError as exc:
        raise RuleError(RULE, f"the server's {HOSTS_ENV} cannot be read ({exc}); "
                              "no webhook is taken until it is fixed") from None


def check_url(url: object) -> str:
    """The webhook URL if the server may call it, else a :class:`RuleError` naming the rule
    it breaks (G-14). Read before anything is stored."""
    entries = allowlist()
    if not isinstance(url, str) or not url.strip():
        raise RuleError(RULE, "the webhook must be a URL (text), or null for none")
    url = url.strip()
    if len(url) > MAX_URL:
        raise RuleError(RULE, f"the webhook URL is longer than {MAX_URL} characters")
    if any(c.isspace() or ord(c) < 32 or c == "\\" for c in url):
        raise RuleError(RULE, "the webhook URL may not hold spaces, control characters or '\\'")
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        raise RuleError(RULE, "the webhook URL cannot be read") from None
    if parts.username is not None or parts.password is not None:
        raise RuleError(RULE, "the webhook URL may not hold a user name or password")
    mine = [e for e in entries if e.host == host]
    if not mine:
        listed = ", ".join(e.shown for e in entries)
        raise RuleError(RULE, f"webhooks may only go to {listed} ({HOSTS_ENV}), "
                              f"not {host or 'an empty host'!r}")
    scheme = parts.scheme
    if scheme not in DEFAULT_PORTS or (scheme == "http" and host not in LOOPBACK) \
            or not any(scheme in e.schemes for e in mine):
        schemes = sorted({s for e in mine for s in e.schemes if s == "https" or
                          host in LOOPBACK})
        raise RuleError(RULE, f"a webhook URL on {host} must start with "
                              f"{' or '.join(s + '://' for s in schemes) or 'https://'}")
    effective = DEFAULT_PORTS[scheme] if port is None else port
    if not any(e.admits(scheme, effective) for e in mine):
        ports = sorted({e.port_for(scheme) for e in mine if scheme in e.schemes})
        raise RuleError(RULE, f"a webhook URL on {scheme}://{host} may only use port "
                              f"{' or '.join(map(str, ports))} ({HOSTS_ENV}), not {effective}")
    if not parts.path.startswith(PATH) or len(parts.path) <= len(PATH) or "/../" in parts.path \
            or parts.fragment:
        raise RuleError(RULE, f"a webhook URL's path starts with {PATH} (a Discord channel's "
                              "webhook: Edit Channel > Integrations > Webhooks)")
    # The client must call exactly what was checked: read the URL as the sender will, and
    # refuse any reading that differs (a parser gap would otherwise widen the allowlist).
    try:
        sent = httpx.URL(url)
    except (httpx.InvalidURL, ValueError):
        raise RuleError(RULE, "the webhook URL cannot be read") from None
    if (sent.scheme, sent.raw_host.decode("ascii", "replace"),
            sent.port or DEFAULT_PORTS.get(sent.scheme)) != (scheme, host, effective):
        raise RuleError(RULE, "the webhook URL cannot be read")
    return url


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


# --------------------------------------------------------------------------- match news
def _when(t: float) -> str:
    """A deadline as Discord shows it in each reader's own clock, with the time left."""
    return f"<t:{int(t)}:f> (<t:{int(t)}:R>)"


def _names(names: Iterable[str]) -> str:
    return ", ".join(names)


def match_news(match_id: str, match: Match, names: tuple[str, ...],
               events: Iterable[Event]) -> list[str]:
    """The posts for new log entries of a match: what a spectator sees of them (G-14), and
    only phase starts and the result, so no seat's activity shows (G-10)."""
    title = match.game.title
    head = f"**{title}** match {match_id}"
    out: list[str] = []
    for e in events:
        if e.to is not None or not match.can_see(SPECTATOR, e):
            continue
        data = e.data if isinstance(e.data, dict) else {}
        if e.kind == "match_started":
            out.append(f"{head} started: {_names(names)}")
        elif e.kind == "phase_started":
            label = phase_label(int(data.get("no", 0)), str(data.get("name", "")))
            deadline = data.get("deadline")
            until = f"; deadline {_when(float(deadline))}" \
                if isinstance(deadline, (int, float)) and deadline > time.time() else ""
            out.append(f"{head}: {label} started{until}")
        elif e.kind == "match_ended":
            out.append(f"{head} is over: {_result_words(data, names)}")
    return out


def _result_words(result: dict[str, Any], names: tuple[str, ...]) -> str:
    def name(seat: object) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    winner = result.get("winner")
    parts = [f"{name(winner)} wins" if isinstance(winner, int) else "no single winner"]
    scores = result.get("scores")
    if isinstance(scores, list) and len(scores) == len(names):
        parts.append("scores " + ", ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True)))
    reason = result.get("reason")
    if isinstance(reason, str) and reason:
        parts.append(reason[:200])
    return "; ".join(parts)


def announce_match(url: object, match_id: str, match: Match, names: tuple[str, ...],
                   events: list[Event]) -> None:
    """Queue a match's news (from :meth:`MatchOwner._commit`, once the entries are stored)."""
    if not isinstance(url, str) or not url:
        return
    try:
        posts = match_news(match_id, match, names, events)
    except Exception:  # news must never break a match
        log.exception("match %s: building its news failed", match_id)
        posts = []
    # A match holds its webhook while it runs; its last news lets the URL go once sent.
    ANNOUNCER.send(url, posts, holder("match", match_id), last=match.finished)


# --------------------------------------------------------------------------- season news
def season_news(season_id: str, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The posts for one step of a season, from its public record before and after (the
    record every visitor of the season's page reads): a new stage with its deadline, an
    elimination, and the standings when an episode or the season ends."""
    head = f"**Season** {season_id}, episode {after.get('episode')}"
    out: list[str] = []
    old_eps = before.get("episodes") or []
    for i, ep in enumerate(after.get("episodes") or []):
        was = old_eps[i] if i < len(old_eps) else {}
        if ep.get("eliminated") and not was.get("eliminated"):
            out.append(f"**Season** {season_id}, episode {ep.get('episode')}: "
                       f"{ep['eliminated']} is eliminated\n{_standings(after)}")
    moved = (before.get("stage"), before.get("episode")) != \
        (after.get("stage"), after.get("episode"))
    if moved:
        if after.get("stage") == "over":
            winner = after.get("winner")
            won = f": {winner} wins" if winner else ""
            out.append(f"**Season** {season_id} is over{won}\n{_standings(after)}")
        else:
            text = f"{head}: {after.get('stage_words')}"
            actor = after.get("actor")
            if actor:
                text += f" ({actor})"
            deadline = after.get("deadline")
            if isinstance(deadline, (int, float)) and deadline > time.time():
                text += f"; deadline {_when(float(deadline))}"
            out.append(text)
    return out


def _standings(record: dict[str, Any]) -> str:
    lines = []
    for s in record.get("standings") or []:
        state = "won" if s.get("won") else "in" if s.get("in") \
            else f"out (episode {s.get('eliminated_in')})"
        lines.append(f"- {s.get('name')}: {state}; ToL {s.get('tols')}, garnets "
                     f"{s.get('garnets')}, opals {s.get('opals')}")
    return "Standings:\n" + "\n".join(lines)


def announce_season(url: object, season_id: str, before: dict[str, Any],
                    after: dict[str, Any]) -> None:
    if not isinstance(url, str) or not url:
        return
    try:
        posts = season_news(season_id, before, after)
    except Exception:
        log.exception("season %s: building its news failed", season_id)
        posts = []
    ANNOUNCER.send(url, posts, holder("season", season_id), last=after.get("stage") == "over")
