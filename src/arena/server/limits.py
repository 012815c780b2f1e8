"""Bounds on what a client may send (issue 9 point 8, issue 20 defect 7 and point 6): body size
and submission length, how long a body may take to arrive, how often one address may create
matches or one link may act, and how many live sockets one match or one address may hold."""

from __future__ import annotations

import asyncio
import json
import math
import os
import time
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from arena.server.errors import ApiError

MAX_BODY = 64 * 1024
"""Bytes of one request body; the largest submission (a Lockmaker lock file) is far smaller."""

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
    stays as small as the set of recently busy clients."""

    def __init__(self, burst: int, per_second: float, what: str) -> None:
        self.burst = burst
        self.per_second = per_second
        self.what = what
        self.buckets: dict[str, tuple[float, float]] = {}

    def take(self, key: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        tokens, last = self.buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * self.per_second)
        if tokens < 1.0:
            # Whole seconds rounded up, at least one: "try again in 0 s" (issue 27 point 5)
            # told a player to retry at once, and the retry was refused again.
            wait = max(1, math.ceil((1.0 - tokens) / self.per_second))
            raise ApiError(429, "rate", f"too many {self.what}; try again in {wait} s")
        self.buckets[key] = (tokens - 1.0, now)
        if len(self.buckets) > 10_000:
            full = self.burst / self.per_second
            self.buckets = {k: v for k, v in self.buckets.items() if now - v[1] < full}


WS_PER_MATCH = 2000
"""Live sockets on one match (``ARENA_WS_PER_MATCH``): a public match's spectators."""

WS_PER_ADDRESS = 200
"""Live sockets from one client address (``ARENA_WS_PER_ADDRESS``): a club behind one NAT
with many tabs open, but not one script holding thousands."""

WS_LIMIT_CODE = 4429
"""The close code of a socket refused for too many live connections (like HTTP 429)."""


class SocketCounts:
    """Live WebSocket connections per match and per client address (issue 20 point 6).

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
