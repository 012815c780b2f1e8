"""``/ws/{match_id}?token=T&since=V``: live updates, each viewer getting only what it may see.

Messages from the server: ``hello`` (who you are, the current version), then ``update``
messages (the events visible to you with versions greater than the last one sent, and your
current view). A client that reconnects with ``since`` = the last version it saw catches up
without a gap. The client may send ``{"type": "ping"}``; anything else is ignored.

Limits: at most ``ARENA_WS_PER_MATCH`` live sockets on one match and
``ARENA_WS_PER_ADDRESS`` from one client address; one more is accepted and closed at once with
code 4429 and the reason, so a page can tell the player. A client message is at most 4 KiB
(else 1009) and text (else 1003); more than a burst of 20 then 5 a second closes with 1008.
"""

from __future__ import annotations

import asyncio
import contextlib
import json

from starlette.websockets import WebSocket, WebSocketDisconnect

from arena.server.access import resolve, token_of
from arena.server.api import check_spectating
from arena.server.damage import contain
from arena.server.errors import ApiError
from arena.server.limits import MAX_WS_MESSAGE, WS_LIMIT_CODE, RateLimit, SocketCounts
from arena.server.matches import Matches
from arena.store import DamagedRow, StoreUnavailable

WS_MESSAGE_BURST = 20
WS_MESSAGES_PER_SECOND = 5.0


async def match_socket(ws: WebSocket) -> None:
    counts: SocketCounts = ws.app.state.socket_counts
    match_id = ws.path_params["match_id"]
    address = ws.client.host if ws.client else "?"
    refusal = counts.admit(match_id, address)
    if refusal is not None:
        # Accepted only to be closed: a close before the handshake reaches a browser as a bare
        # 1006 with no reason, and the player must learn why.
        await ws.accept()
        await ws.close(code=WS_LIMIT_CODE, reason=refusal)
        return
    try:
        await _serve(ws, match_id)
    finally:
        counts.release(match_id, address)


STORE_DOWN_CODE = 1013
"""Close code ("try again later") for a socket whose link or match only the database knows,
while it is down; the page reconnects."""


async def _serve(ws: WebSocket, match_id: str) -> None:
    matches: Matches = ws.app.state.matches
    try:
        access = await resolve(matches.store, match_id, token_of(ws))
        raw_since = ws.query_params.get("since") or "0"
        since = max(0, int(raw_since)) if raw_since.isdigit() else 0
        owner = await matches.get(match_id)
    except ApiError as exc:
        await ws.close(code=4401 if exc.status == 401 else 4403, reason=exc.message[:100])
        return
    except DamagedRow as exc:  # the link's or the match's stored row: as a quarantine
        refused = contain(ws.app.state, exc)
        await ws.close(code=4403, reason=refused.message[:100])
        return
    except StoreUnavailable:
        await ws.accept()
        await ws.close(code=STORE_DOWN_CODE, reason="the database cannot be reached; try again")
        return
    if owner is None:
        await ws.close(code=4404, reason="no such match")
        return
    try:
        check_spectating(owner, access)
        if access.role == "broadcast":  # G-15: read by /view and /events, cut each time
            raise ApiError(403, "access", "a broadcast link reads the match by its view and "
                                          "events, one delay behind")
    except ApiError as exc:
        await ws.close(code=4403, reason=exc.message[:100])
        return
    await ws.accept()
    async with owner.lock:
        # ``svg=0``: the page draws its own board, so its views leave the picture out.
        sub = owner.subscribe(access.viewer, since, token=token_of(ws) or "",
                              svg=ws.query_params.get("svg") != "0")
        version = owner.match.version_for(access.viewer)
    await ws.send_json({"type": "hello", "match": match_id, "role": access.role,
                        "seat": access.seat, "version": version})
    if matches.store.down:  # the page shows its banner until a "store ok" message
        await ws.send_json({"type": "store", "ok": False})

    async def pump() -> None:
        while True:
            message = await sub.queue.get()
            if isinstance(message, str):
                await ws.send_text(message)
                continue
            await ws.send_json(message)
            if message.get("type") == "revoked":
                await ws.close(code=4403, reason=str(message.get("reason", ""))[:100])
                return
            if sub.overflowed and sub.queue.empty():
                await ws.close(code=4408, reason="too slow; reconnect with since")
                return

    sender = asyncio.create_task(pump())
    rate = RateLimit(burst=WS_MESSAGE_BURST, per_second=WS_MESSAGES_PER_SECOND,
                     what="messages on this socket")
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:  # a binary frame: close with a reason, never a traceback
                await ws.close(code=1003, reason="text frames of JSON only")
                break
            if len(text) > MAX_WS_MESSAGE:
                await ws.close(code=1009, reason=f"messages are at most {MAX_WS_MESSAGE} bytes")
                break
            try:
                rate.take("")
            except ApiError:
                await ws.close(code=1008, reason=f"too many messages: at most "
                                                 f"{WS_MESSAGES_PER_SECOND:g} a second")
                break
            # Nested brackets past the parser's depth raise RecursionError, not ValueError.
            msg: object = None
            with contextlib.suppress(ValueError, RecursionError):
                msg = json.loads(text)
            if isinstance(msg, dict) and msg.get("type") == "ping":
                async with owner.lock:  # not a version whose entries are still being stored
                    version = owner.match.version_for(access.viewer)
                with contextlib.suppress(asyncio.QueueFull):
                    sub.queue.put_nowait({"type": "pong", "version": version})
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        owner.unsubscribe(sub)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender
