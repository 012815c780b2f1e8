"""Opening the delayed broadcast (G-15): a link of the host's through which an audience sees
the whole match, every seat's private view, sealed submissions, private channels, as it stood
one delay ago (:mod:`arena.server.broadcast_views` serves it).

Opening a broadcast writes no log entry: players' and spectators' views are the same with or
without one (G-15)."""

from __future__ import annotations

import secrets

from starlette.requests import Request
from starlette.responses import JSONResponse

from arena.core.errors import RuleError
from arena.server import api
from arena.server.api import link_key, store_of
from arena.server.broadcast_views import MIN_DELAY
from arena.server.hosting import _host, _page
from arena.server.limits import limited
from arena.server.requests import Broadcast


@limited(lambda r: api.LINK_LIMIT, link_key)
async def open_broadcast(request: Request) -> JSONResponse:
    """Open, reissue or close the broadcast link (G-15). A new link replaces the old one,
    whose pages are told at once, like a reissued seat's."""
    owner, body = await _host(request, Broadcast)
    running = not owner.match.finished
    if body.open and running and body.delay < MIN_DELAY:
        raise RuleError("G-15", f"while the match runs a broadcast is at least "
                                f"{MIN_DELAY:g} s behind it")
    token = secrets.token_urlsafe(18) if body.open else None
    store = store_of(request)
    async with owner.lock:
        old = await owner.write(lambda fence: store.replace_broadcast(
            owner.record.id, token, body.delay, fence))
    owner.revoke(set(old), "the host closed this broadcast")
    link = None if token is None else _page(request, owner.record.id, token)
    return JSONResponse({"ok": True, "open": token is not None,
                         "delay": body.delay if token else None, "link": link,
                         "token": token})
