"""Bounds on what a client may send: body size
and submission length, how long a body may take to arrive, how often one address may create
matches or one link may write (every write endpoint, through :func:`limited`), how many
host entries one match's log keeps, and how many live sockets one match or one address may
hold."""

from __future__ import annotations

import asyncio
import functools
import json
import math
import os
import time
import weakref
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from arena.core.match import Event, Match
from arena.server.errors import ApiError

MAX_BODY = 64 * 1024
"""Bytes of one request body; the largest submission (a lock file, LM-10) is far smaller."""

MAX_TEXT = 16 * 1024
"""Characters of one submission."""

MAX_WS_MESSAGE = 4 * 1024


class BodyLimit:
    """Refuse a request whose declared body is too large before reading it."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for key, value in scope.get("headers", []):
                if key == b"content-length":
                    try:
                        size = int(value)
                    except ValueError:
                        size = self.limit + 1
                    if size > self.limit:
                        body = json.dumps({"ok": False, "error":
                                           f"request: the body may be at most {self.limit} bytes"})
                        await send({"type": "http.response.start", "status": 413,
                                    "headers": [(b"content-type", b"application/json")]})
                        await send({"type": "http.response.body", "body": body.encode()})
                        return
        await self.app(scope, receive, send)


class NoNulInUrl:
    """Refuse a request or socket whose path or query holds a NUL byte (``%00``).

    No token, id or name of the server contains one, and PostgreSQL cannot even compare a
    text with one (every lookup raised, a 500); refusing it at the door answers 400 (a socket
    is refused at its handshake) on every database alike."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and (
                "\x00" in scope.get("path", "") or b"%00" in scope.get("query_string", b"")):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008,
                            "reason": "a NUL byte in the address"})
                return
            body = json.dumps({"ok": False, "error": "request: the address holds a NUL byte"})
            await send({"type": "http.response.start", "status": 400,
                        "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": body.encode()})
            return
        await self.app(scope, receive, send)


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The raw body, read with a cap and a time limit (a chunked body has no length to check
    up front), and kept on the request so a later reader (a forward) gets it again."""
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise ApiError(413, "request", f"the body may be at most {limit} bytes")
                chunks.append(chunk)
    except TimeoutError:
        raise ApiError(408, "request", f"the body did not arrive within {BODY_SECONDS:g} s"
                       ) from None
    raw = b"".join(chunks)
    request._body = raw  # Starlette's cache: ``request.stream()`` yields it again
    return raw


async def read_json(request: Request, limit: int = MAX_BODY) -> Any:
    """The JSON body, read with a cap (see ``read_body``)."""
    raw = await read_body(request, limit)
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw)
        if b"\\u" in raw:
            # JSON may escape a lone surrogate ("\\ud800"): it parses, but no answer, page
            # or database can hold it as UTF-8. Refuse it here rather than fail later.
            json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(400, "request", "the body has text that is not Unicode (a lone "
                                       "surrogate escape)") from None
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "request", "the body is not valid JSON") from None
    except RecursionError:
        raise ApiError(400, "request", "the body is nested too deeply") from None
    return value


def _env_number(name: str, default: float) -> float:
    raw = os.environ.get(name, "")
    try:
        value = float(raw) if raw else default
    except ValueError:
        value = default
    return value if value > 0 else default


BODY_SECONDS = _env_number("ARENA_BODY_SECONDS", 10.0)
"""How long a request body may take to arrive: a body that trickles is cut off
(``ARENA_BODY_SECONDS`` changes it)."""


class RateLimit:
    """A token bucket per key (an address, a link): ``burst`` at once, then ``per_second``.

    Kept in memory per process; a key idle long enough to refill is forgotten, so the table
    stays as small as the set of recently busy clients. ``setting`` is the environment
    variable that changes it, named in a refusal so an operator knows which knob it was."""

    def __init__(self, burst: int, per_second: float, what: str, setting: str = "") -> None:
        self.burst = burst
        self.per_second = per_second
        self.what = what
        self.setting = setting
        self.buckets: dict[str, tuple[float, float]] = {}

    @classmethod
    def from_env(cls, setting: str, burst: int, per_second: float, what: str) -> RateLimit:
        """A limit whose defaults ``setting`` (``burst,per_second``, or just ``burst``) may
        change: a test suite or a busy event desk needs more than a public lobby. A value
        that is not two positive numbers stops the server naming the variable, rather than
        starting it with a limit the operator did not ask for."""
        raw = os.environ.get(setting, "").strip()
        if raw:
            first, _, second = raw.partition(",")
            try:
                burst = int(first)
                per_second = float(second) if second.strip() else per_second
            except ValueError:
                raise ValueError(f"{setting} must be 'burst,per_second' (say '30,1'), "
                                 f"not {raw!r}") from None
            if burst < 1 or not 0 < per_second < math.inf:
                raise ValueError(f"{setting} must be 'burst,per_second' with a burst of at "
                                 f"least 1 and a positive rate, not {raw!r}")
        return cls(burst=burst, per_second=per_second, what=what, setting=setting)

    def describe(self) -> str:
        """The limit in words, for a refusal: "at most 30 at once, then 1 a second"."""
        pace = (f"{self.per_second:g} a second" if self.per_second >= 1
                else f"one every {1 / self.per_second:g} s")
        words = f"at most {self.burst} at once, then {pace}"
        return f"{words}: {self.setting}" if self.setting else words

    def take(self, key: str, now: float | None = None) -> None:
        """Spend one token of ``key``'s bucket, or refuse with 429 and ``Retry-After``."""
        now = time.monotonic() if now is None else now
        tokens, last = self.buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * self.per_second)
        if tokens < 1.0:
            # Whole seconds rounded up, at least one: "try again in 0 s"
            # told a player to retry at once, and the retry was refused again. The same
            # figure goes in ``Retry-After``, so a script that honours it is not refused.
            wait = max(1, math.ceil((1.0 - tokens) / self.per_second))
            refused = ApiError(429, "rate", f"too many {self.what}; try again in {wait} s "
                                            f"({self.describe()})")
            refused.retry_after = wait
            raise refused
        self.buckets[key] = (tokens - 1.0, now)
        if len(self.buckets) > 10_000:
            full = self.burst / self.per_second
            self.buckets = {k: v for k, v in self.buckets.items() if now - v[1] < full}


# ---------------------------------------------------------------------- every write, limited
R = TypeVar("R", bound=Response)
LimitOf = Callable[[Request], RateLimit]
"""Which limit a request spends: most endpoints have one; ``/host/{action}`` picks by action.
Called at each request, so a test that swaps a module's limit object is heard."""
KeyOf = Callable[[Request], Awaitable[str]]
"""Whose bucket: the client's address, or the link (match or season, role, seat or player)."""


@dataclass(frozen=True)
class WriteRule:
    """How one write endpoint is limited (see :func:`limited`)."""

    limit: LimitOf
    key: KeyOf
    methods: frozenset[str]


LIMITED: dict[Callable[..., Any], WriteRule] = {}
"""Every endpoint wrapped by :func:`limited`. A test walks every route of the app that takes
a POST and finds its endpoint here, so a write endpoint added without a limit fails it."""


def limited(limit: LimitOf, key: KeyOf, methods: Collection[str] = ("POST",)
            ) -> Callable[[Callable[[Request], Awaitable[R]]], Callable[[Request], Awaitable[R]]]:
    """Wrap a write endpoint so each request of ``methods`` spends a token of ``limit`` in
    ``key``'s bucket before the handler runs: a refused request is answered 429 with
    ``Retry-After`` before its body is read or anything is applied, logged or stored.

    ``key`` resolves the link first (a bad link is refused 401/403 as before and spends
    nothing), so one link's bucket is its match's (or season's) role and seat: a reissued
    link keeps the bucket of the seat it plays, and a host cannot mint fresh budgets. On a
    shared database a command runs in the process that owns its match (it is forwarded
    there before this wrapper runs), so a match's buckets live in one process."""
    wanted = frozenset(methods)

    def wrap(handler: Callable[[Request], Awaitable[R]]) -> Callable[[Request], Awaitable[R]]:
        @functools.wraps(handler)
        async def endpoint(request: Request) -> R:
            if request.method in wanted:
                limit(request).take(await key(request))
            return await handler(request)

        LIMITED[endpoint] = WriteRule(limit, key, wanted)
        return endpoint

    return wrap


def rule_of(endpoint: Callable[..., Any]) -> WriteRule | None:
    """The write rule of a route's endpoint, looking through wrappers that name what they
    wrap (``__wrapped__``, as ``functools.wraps`` sets it), or None when it has none."""
    seen: Callable[..., Any] | None = endpoint
    for _ in range(10):
        if seen is None:
            return None
        rule = LIMITED.get(seen)
        if rule is not None:
            return rule
        seen = getattr(seen, "__wrapped__", None)
    return None


async def address_key(request: Request) -> str:
    """The bucket of the client's address (creating matches or seasons, scenarios)."""
    return request.client.host if request.client else "?"


# ---------------------------------------------------------------------- host entries per log
HOST_ENTRIES_MAX = 2000
"""Host-made entries one match's log keeps (``ARENA_HOST_ENTRIES_MAX``), and likewise the
host's repeatable inputs of a season. A rate alone still lets a log grow for as long as the
host link keeps asking (one pause or resume a second is 86,400 entries a day, each stored and
sent to every page); a real host makes a few dozen. Counted from the log itself, so the
bound holds across restarts and processes; never refilled, so past it the refusal is 422
without ``Retry-After`` (waiting would not help)."""

HOST_KINDS = frozenset({"pause", "resume", "extend", "end", "host_option", "mute", "private",
                        "host_note", "deadline", "act"})
"""The log entries only the host link makes (chat is the chat limit's, whoever writes). A
seat's opening of its own private channel (G-13) is a ``private`` entry too: it needs the
host to have closed the channel first, so the host's own entries bound those as well. A game
act counts only when the host made it (:func:`made_by_host`): the server's own acts (a child
match's result) are bounded by the game's phases, not by the host's asking."""


def made_by_host(event: Event) -> bool:
    """Whether ``event`` is one of :data:`HOST_KINDS` that the host made."""
    if event.kind not in HOST_KINDS:
        return False
    return event.kind != "act" or (isinstance(event.data, dict)
                                   and event.data.get("by") == "host")


HOST_ALWAYS = frozenset({"resume", "end"})
"""Host actions allowed past the cap: each can happen once more at most (the match ends
once; a resume needs a pause, and a pause is refused past the cap), and refusing them would
leave a paused match stuck, or a match the host wants over running."""

_counted: weakref.WeakKeyDictionary[Match, tuple[int, object, int]] = \
    weakref.WeakKeyDictionary()


def host_entries_max() -> int:
    """The cap, read at each check so a test (or an operator's restart) may set it."""
    return env_whole("ARENA_HOST_ENTRIES_MAX", HOST_ENTRIES_MAX)


def env_whole(setting: str, default: int) -> int:
    raw = os.environ.get(setting, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{setting} must be a whole number of at least 1, not {raw!r}"
                         ) from None
    if value < 1:
        raise ValueError(f"{setting} must be a whole number of at least 1, not {raw!r}")
    return value


def count_host_entries(match: Match) -> int:
    """How many of ``match``'s log entries the host made (:func:`made_by_host`). Counted on from where
    the last count stopped while the log only grows; a match rebuilt (a rolled-back commit, a
    match read back from the store) is a new object, and a log cut back has another entry at
    the mark, so either is counted afresh."""
    log = match.log
    scanned, last, count = _counted.get(match, (0, None, 0))
    if scanned > len(log) or (scanned and log[scanned - 1] is not last):
        scanned, count = 0, 0
    count += sum(1 for e in log[scanned:] if made_by_host(e))
    if log:
        _counted[match] = (len(log), log[-1], count)
    return count


def check_host_entries(count: int, action: str, where: str = "match's log") -> None:
    """Refuse ``action`` when ``count`` host entries have reached the cap (unless the action
    is one of :data:`HOST_ALWAYS`), naming the cap and its setting."""
    cap = host_entries_max()
    if count >= cap and action not in HOST_ALWAYS:
        raise ApiError(422, "limit", f"this {where} already holds {count} entries made by the "
                                     f"host, the most it keeps (ARENA_HOST_ENTRIES_MAX = "
                                     f"{cap}); the host may still resume or end it")


WS_PER_MATCH = 2000
"""Live sockets on one match (``ARENA_WS_PER_MATCH``): a public match's spectators."""

WS_PER_ADDRESS = 200
"""Live sockets from one client address (``ARENA_WS_PER_ADDRESS``): a club behind one NAT
with many tabs open, but not one script holding thousands."""

WS_LIMIT_CODE = 4429
"""The close code of a socket refused for too many live connections (like HTTP 429)."""


class SocketCounts:
    """Live WebSocket connections per match and per client address.

    :meth:`admit` counts a socket in (or names why not); :meth:`release` counts it out and
    must run however the socket ends. In memory per process, like :class:`RateLimit`."""

    def __init__(self, per_match: int = WS_PER_MATCH, per_address: int = WS_PER_ADDRESS) -> None:
        self.per_match = per_match
        self.per_address = per_address
        self.by_match: dict[str, int] = {}
        self.by_address: dict[str, int] = {}

    @classmethod
    def from_env(cls) -> SocketCounts:
        return cls(per_match=int(_env_number("ARENA_WS_PER_MATCH", WS_PER_MATCH)),
                   per_address=int(_env_number("ARENA_WS_PER_ADDRESS", WS_PER_ADDRESS)))

    def admit(self, match_id: str, address: str) -> str | None:
        """None when the socket is counted in, else the reason to close it with."""
        if self.by_address.get(address, 0) >= self.per_address:
            return (f"too many live connections from this address (at most "
                    f"{self.per_address}); close some tabs")
        if self.by_match.get(match_id, 0) >= self.per_match:
            return (f"this match has the most live connections it takes "
                    f"({self.per_match}); try again later")
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.by_match[match_id] = self.by_match.get(match_id, 0) + 1
        return None

    def release(self, match_id: str, address: str) -> None:
        for table, key in ((self.by_address, address), (self.by_match, match_id)):
            left = table.get(key, 0) - 1
            if left > 0:
                table[key] = left
            else:
                table.pop(key, None)
