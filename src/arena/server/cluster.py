"""Commands that reach a process which does not own the match.

On PostgreSQL several server processes share one database; each live match has one owner
(:class:`~arena.server.leases.Leases` keeps the leases). A command endpoint wrapped with
:func:`routed` runs here when this process owns the match, or takes the match over when its
lease is free or lapsed, and otherwise sends the request on to the owner over HTTP and
answers with the owner's answer. When the owner cannot be reached (it died and its lease has
not lapsed yet) the request waits for the lease to lapse and then takes the match over, so a
player's command is applied once, a few seconds late at worst. On SQLite nothing changes.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable

import httpx
from starlette.requests import Request
from starlette.responses import Response

from arena.server.access import resolve, token_of
from arena.server.errors import Moved
from arena.server.leases import LEASE_SECONDS
from arena.server.limits import read_body
from arena.server.matches import Matches
from arena.server.owner import MatchOwner

FORWARDED = "x-arena-forwarded"
"""Set on a forwarded request: the receiver runs it or waits, but never forwards it again."""

Handler = Callable[[Request], Awaitable[Response]]

_client: httpx.AsyncClient | None = None


def _http() -> httpx.AsyncClient:
    global _client
    if _client is None:
        _client = httpx.AsyncClient(timeout=httpx.Timeout(30.0, connect=2.0))
    return _client


async def close() -> None:
    global _client
    if _client is not None:
        await _client.aclose()
        _client = None


async def _body(request: Request) -> bytes:
    """The body, read once with the server's cap and kept on the request, so the handler
    (through ``read_json``) or a forward can both use it."""
    return await read_body(request)


async def forward(request: Request, url: str, body: bytes, sender: str) -> Response:
    """Send the request on to ``url`` (the owner) and answer with its answer."""
    headers = {k: v for k, v in request.headers.items()
               if k in ("authorization", "content-type", "accept", "host")}
    headers[FORWARDED] = sender
    target = url.rstrip("/") + request.url.path
    if request.url.query:
        target += "?" + request.url.query
    answer = await _http().request(request.method, target, content=body, headers=headers)
    kept = {k: v for k, v in answer.headers.items() if k in ("content-type", "retry-after")}
    return Response(answer.content, status_code=answer.status_code, headers=kept)


def _moved(answer: Response) -> bool:
    """The owner answered that it does not own the match (any more): nothing was applied."""
    return answer.status_code == 503 and bytes(answer.body).startswith(b'{"ok":false,"error":"moved:')


def routed(handler: Handler) -> Handler:
    """Run a command endpoint where the match is owned (see the module's words)."""

    async def endpoint(request: Request) -> Response:
        matches: Matches = request.app.state.matches
        if not matches.cluster:
            return await handler(request)
        match_id = request.path_params["match_id"]
        await resolve(matches.store, match_id, token_of(request))  # refuse a bad link here
        body = await _body(request)
        give_up = time.monotonic() + LEASE_SECONDS + 5.0
        hop = bool(request.headers.get(FORWARDED))
        while True:
            target = await matches.leases.ensure_owner(match_id)
            if target is None or isinstance(target, MatchOwner):
                try:
                    return await handler(request)
                except Moved:
                    if time.monotonic() > give_up:
                        raise
                    continue
            if hop:
                # Sent here as the owner, but the match moved on: the sender looks again.
                raise Moved(match_id)
            if target.url and target.url != matches.process_url:
                try:
                    answer = await forward(request, target.url, body, matches.process_id)
                    if not _moved(answer):
                        return answer
                except httpx.TransportError:
                    pass  # the owner died: its lease lapses soon, then we take the match
            if time.monotonic() > give_up:
                raise Moved(match_id)
            await asyncio.sleep(0.2)

    # Its name and words, and ``__wrapped__``: the write-limit test finds the handler's limit
    # through this wrapper (limits.rule_of).
    return functools.update_wrapper(endpoint, handler)
