"""Announcements to an outside chat (G-14): a match's or a season's public news posted to a
webhook the host gave (a Discord webhook by default).

Two things make this safe to offer on a public server:

* **Only allowed hosts are ever called.** :func:`check_url` accepts a URL only on a host of
  the allowlist (Discord's webhook hosts unless ``ARENA_WEBHOOK_HOSTS`` names others), over
  https (plain http only to a loopback host named in the list, for tests), with no user
  part, no other port and a ``/api/webhooks/`` path; redirects are never followed. So a host
  cannot make the server call anything else (its own database, a cloud's metadata address).
* **Nothing secret goes out, and nothing waits for it.** The messages are built from what a
  spectator may see (public log entries, the season's public record): phases as they start
  with their deadlines, results, standings; never a link, since every link of a match holds a
  token, and never a seat's activity (G-10). They are queued, one bounded queue and one
  background task per webhook, sent with a short timeout and retried with backoff a few times;
  a webhook that fails, hangs or refuses costs its own queue, never a match's command.

The stored URL is the host's secret: it is kept in the match's settings (or the season's
head), which no seat or spectator view shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

from arena.core.errors import RuleError
from arena.core.match import SPECTATOR, Event, Match, phase_label

log = logging.getLogger("arena.server")

RULE = "G-14"
MAX_URL = 512
"""The longest webhook URL accepted (Discord's are about 120 characters)."""

DISCORD_HOSTS = ("discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com")
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
PATH = "/api/webhooks/"

TIMEOUT = float(os.environ.get("ARENA_WEBHOOK_TIMEOUT", "5"))
"""Seconds one post may take (connect and answer) before it counts as failed."""
RETRIES = 3
"""Attempts after the first one for a post that failed (an error, a 5xx, a 429)."""
BACKOFF = 1.0
"""Seconds before the first retry; each later one waits twice as long."""
QUEUE = 64
"""Posts waiting per webhook; past it new news is dropped (and logged), never waited for."""
IDLE = 60.0
"""Seconds a webhook's sender waits for news before it stops (a new post starts it again)."""
MAX_TEXT = 1900
"""Discord takes 2000 characters per message."""


def allowed_hosts() -> frozenset[str]:
    """The hosts a webhook may be on: ``ARENA_WEBHOOK_HOSTS`` (comma-separated), else
    Discord's webhook hosts."""
    raw = os.environ.get("ARENA_WEBHOOK_HOSTS", "")
    hosts = [h.strip().lower() for h in raw.split(",") if h.strip()]
    return frozenset(hosts or DISCORD_HOSTS)


def check_url(url: object) -> str:
    """The webhook URL if the server may call it, else a :class:`RuleError` naming the rule
    it breaks (G-14). Read before anything is stored."""
    hosts = allowed_hosts()
    listed = ", ".join(sorted(hosts))
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
    if host not in hosts:
        raise RuleError(RULE, f"webhooks may only go to {listed} (ARENA_WEBHOOK_HOSTS), "
                              f"not {host or 'an empty host'!r}")
    loopback = host in LOOPBACK
    if parts.scheme != "https" and not (parts.scheme == "http" and loopback):
        raise RuleError(RULE, "a webhook URL must start with https://")
    if port is not None and port != 443 and not loopback:
        raise RuleError(RULE, "a webhook URL may not name another port")
    if not parts.path.startswith(PATH) or len(parts.path) <= len(PATH) or "/../" in parts.path \
            or parts.fragment:
        raise RuleError(RULE, f"a webhook URL's path starts with {PATH} (a Discord channel's "
                              "webhook: Edit Channel > Integrations > Webhooks)")
    return url


def webhook_setting(value: object) -> str | None:
    """A create request's or a host action's webhook: None (none) or a checked URL."""
    return None if value is None or value == "" else check_url(value)


# --------------------------------------------------------------------------- sending
@dataclass(eq=False)
class _Line:
    """One webhook's queue and the task that sends it, bound to the loop that made them."""

    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(maxsize=QUEUE))
    task: asyncio.Task[None] | None = None


class Announcer:
    """Posts text to webhooks in the background: per webhook, in order, at most
    :data:`QUEUE` waiting, each post retried :data:`RETRIES` times with backoff. Nothing it
    does raises into its caller."""

    def __init__(self) -> None:
        self._lines: dict[str, _Line] = {}
        self.sent = 0
        self.failed = 0
        self.dropped = 0

    def post(self, url: str, text: str) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a script replaying a match): nobody to tell
            return
        line = self._lines.get(url)
        if line is None or line.loop is not loop or line.task is None or line.task.done():
            old = line
            line = self._lines[url] = _Line(loop)
            if old is not None and old.loop is loop:  # a sender that stopped: keep its news
                while not old.queue.empty():
                    line.queue.put_nowait(old.queue.get_nowait())
            line.task = loop.create_task(self._send_all(url, line), name="webhook")
        try:
            line.queue.put_nowait(text[:MAX_TEXT])
        except asyncio.QueueFull:
            self.dropped += 1
            log.warning("webhook %s: %d posts waiting; news dropped", _shown(url), QUEUE)

    async def _send_all(self, url: str, line: _Line) -> None:
        async with httpx.AsyncClient(timeout=TIMEOUT, follow_redirects=False) as client:
            while True:
                try:
                    text = await asyncio.wait_for(line.queue.get(), IDLE)
                except TimeoutError:
                    if line.queue.empty():
                        if self._lines.get(url) is line:
                            del self._lines[url]
                        return
                    continue
                await self._send(client, url, text)

    async def _send(self, client: httpx.AsyncClient, url: str, text: str) -> None:
        # No @everyone or role pings from a seat's name (Discord's allowed_mentions).
        body = {"content": text, "allowed_mentions": {"parse": []}}
        wait = BACKOFF
        for attempt in range(RETRIES + 1):
            why = ""
            try:
                answer = await client.post(url, json=body)
                if answer.status_code < 300:
                    self.sent += 1
                    return
                why = f"answered {answer.status_code}"
                if answer.status_code < 500 and answer.status_code != 429:
                    break  # refused for good (a deleted webhook): retrying changes nothing
                with contextlib.suppress(ValueError):
                    wait = max(wait, min(float(answer.headers.get("retry-after", 0)), 30.0))
            except httpx.HTTPError as exc:
                why = type(exc).__name__
            if attempt < RETRIES:
                await asyncio.sleep(wait)
                wait *= 2
        self.failed += 1
        log.warning("webhook %s: a post failed (%s); the match goes on", _shown(url), why)

    async def close(self) -> None:
        """Stop every sender of this loop (the server is shutting down)."""
        lines, self._lines = list(self._lines.values()), {}
        for line in lines:
            if line.task is not None:
                line.task.cancel()
                with contextlib.suppress(BaseException):
                    await line.task


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
        return
    for text in posts:
        ANNOUNCER.post(url, text)


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
        return
    for text in posts:
        ANNOUNCER.post(url, text)
