"""Bounds on what a client may send (issue 9 point 8): body size and submission length."""

from __future__ import annotations

import json
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


async def read_json(request: Request, limit: int = MAX_BODY) -> Any:
    """The JSON body, read with a cap (a chunked body has no length to check up front)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, "request", f"the body may be at most {limit} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "request", "the body is not valid JSON") from None
    except RecursionError:
        raise ApiError(400, "request", "the body is nested too deeply") from None
