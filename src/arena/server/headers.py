"""Protective response headers, and links' tokens kept out of every log line.

A link's token is the whole of its holder's authority (a seat's moves, the host's controls),
so it must not leak from the page that carries it: not to another site through the Referer
header, not into a shared or disk cache, not into a frame of a hostile page, and not into
the server's logs, where uvicorn writes every request line with its query string.

:class:`ProtectiveHeaders` is one pure-ASGI middleware, outermost of the app's own, so the
answers its inner middleware write themselves (a body too large, a NUL in the address) carry
the headers too; a WebSocket passes untouched. :func:`redact_logs` rewrites tokens in every log
record the process makes.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import re
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import parse_qsl

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from arena.web.pages import IMPORT_MAP

# ---------------------------------------------------------------------------- the headers


def _script_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


PAGE_POLICY = "; ".join([
    "default-src 'self'",
    # Scripts come from the server's own files only. The one inline <script> the pages hold
    # is the import map, which is data the browser reads, never code it runs; its hash
    # admits exactly that text (a browser cannot load an import map from a file), and no
    # injected script matches it.
    f"script-src 'self' {_script_hash(IMPORT_MAP)}",
    # Styles too: each game's look is a file under /static/games. Style properties the pages
    # set from script (a tank's water level, a piece's place on the grid) go through the
    # CSSOM, which a policy does not govern, so no 'unsafe-inline' is needed.
    "style-src 'self'",
    # The match socket (ws: or wss:, same host): 'self' covers it in CSP Level 3 browsers.
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
])
"""The policy of every HTML answer: pages, error pages, and any HTML file served."""

OTHER_POLICY = "default-src 'none'; frame-ancestors 'none'"
"""JSON, scripts, styles and images: none is a document that should run or embed anything,
so one opened on its own (a JSON answer, an SVG) gets nothing at all."""

ALWAYS = {
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
}
"""On every HTTP answer. ``no-referrer``: a page's address holds its token, and a link out
(a ruling cited in a webhook, any other site) must not carry it along."""

PRIVATE_PREFIXES = ("/m/", "/s/", "/api/matches", "/api/seasons")
"""Paths whose answers hold or come from a token: match and season pages, and every match
and season API answer (creating one answers with its new links). A game's own pages that
must not be cached (an editor of a host's work) are added from the game's declaration
(:func:`private_prefixes`)."""

_PRIVATE: tuple[str, ...] | None = None


def private_prefixes() -> tuple[str, ...]:
    """:data:`PRIVATE_PREFIXES` and the games' private pages, found once per process (the
    app's routes are made once too)."""
    global _PRIVATE
    if _PRIVATE is None:
        from arena.server.extras import private_prefixes as games_private

        _PRIVATE = PRIVATE_PREFIXES + games_private()
    return _PRIVATE

NO_STORE = "no-store"

ERROR_HEADERS = {**ALWAYS, "content-security-policy": OTHER_POLICY,
                 "cache-control": NO_STORE}
"""For an answer written outside this middleware: Starlette's handler of unexpected errors
runs outermost, past every middleware the app lists."""


def _is_private(scope: Scope) -> bool:
    """Whether the answer to this request must not be stored by any cache: it was asked for
    with a token (in the query or an ``Authorization`` header, the two ways
    :func:`arena.server.access.token_of` reads one; the server sets no cookie) or on a path
    whose answers hold tokens."""
    path: str = scope.get("path", "")
    if path.startswith(private_prefixes()):
        return True
    query: bytes = scope.get("query_string", b"")
    # Decoded as the app decodes it, so ``?to%6Ben=`` counts as the ``token`` it is.
    if query and any("token" in key.lower()
                     for key, _ in parse_qsl(query.decode("latin-1"), keep_blank_values=True)):
        return True
    return any(key == b"authorization" for key, _ in scope.get("headers", ()))


class ProtectiveHeaders:
    """Adds :data:`ALWAYS`, a Content-Security-Policy, and ``Cache-Control: no-store`` on
    private answers, to the start of every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        private = _is_private(scope)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])  # optional in ASGI
                headers = MutableHeaders(scope=message)
                for key, value in ALWAYS.items():
                    headers[key] = value
                html = headers.get("content-type", "").lower().startswith("text/html")
                headers["content-security-policy"] = PAGE_POLICY if html else OTHER_POLICY
                if private:
                    # Over any caching a route chose itself: a token outranks it.
                    headers["cache-control"] = NO_STORE
            await send(message)

        await self.app(scope, receive, send_with_headers)


# ---------------------------------------------------------------------------- the logs

_TOKEN = re.compile(
    # ``token=`` in a query, its letters or ``=`` percent-encoded too (the app decodes the
    # name before it reads it; an address inside another's query encodes the ``=``); the
    # value runs to the next parameter, fragment, space or quote.
    r"(?i)((?:t|%74)(?:o|%6f)(?:k|%6b)(?:e|%65)(?:n|%6e)(?:=|%3d))(?:(?!%26)[^&#\s\"'<>])+"
    # An ``Authorization: Bearer`` value, the other way a token arrives.
    r"|(bearer\s+)[^\s\"'<>,]+")
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """``text`` with every token's value replaced by ``[redacted]``."""
    low = text.lower()
    if "token" not in low and "%" not in low and "bearer" not in low:
        return text  # most lines, without running the pattern
    return _TOKEN.sub(lambda m: (m.group(1) or m.group(2)) + REDACTED, text)


def _redact_value(value: object) -> object:
    """A log argument with its tokens redacted. A number or None cannot hold one and keeps
    its type (uvicorn's access format writes the status with ``%d``); anything else
    (a URL object, say) is written out as text if the text held a token."""
    if value is None or isinstance(value, int | float):
        return value
    if isinstance(value, str):
        return redact(value)
    try:
        text = str(value)
    except Exception:  # a broken __str__ fails the same way when the line is written
        return value
    shown = redact(text)
    return value if shown == text else shown


def redact_record(record: logging.LogRecord) -> None:
    """Redact a record in place: its message, its arguments (positional or named, their
    types kept where no token is found), and the text of its exception and stack."""
    if isinstance(record.msg, str):
        record.msg = redact(record.msg)
    else:
        record.msg = _redact_value(record.msg)
    args = record.args
    if isinstance(args, tuple):
        record.args = tuple(_redact_value(a) for a in args)
    elif isinstance(args, Mapping):
        record.args = {k: _redact_value(v) for k, v in args.items()}
    if record.exc_info and not record.exc_text:
        # Written now, so a handler's formatter uses the redacted text (it keeps exc_text).
        record.exc_text = logging.Formatter().formatException(record.exc_info)
    if record.exc_text:
        record.exc_text = redact(record.exc_text)
    if record.stack_info:
        record.stack_info = redact(record.stack_info)


class RedactTokens(logging.Filter):
    """A filter that redacts (never drops) a record, for a handler of one's own."""

    def filter(self, record: logging.LogRecord) -> bool:
        redact_record(record)
        return True


def redact_logs() -> None:
    """Redact tokens from every log record the process makes from now on, at every level.

    This wraps the record factory rather than filtering loggers or handlers: a logger's
    filter misses what its children log (``arena.server`` under ``arena``, ``websockets.server``
    under ``websockets``), and handlers are replaced after the app is made (uvicorn configures
    its logging when it starts), while every record, whoever logs it and whatever handles it,
    is made by the factory. Calling it again (a test process makes many apps) changes nothing.
    """
    current = logging.getLogRecordFactory()
    if getattr(current, "redacts_tokens", False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = current(*args, **kwargs)
        redact_record(record)
        return record

    wrapped: Callable[..., logging.LogRecord] = factory
    wrapped.redacts_tokens = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(wrapped)
