"""Why the database cannot be used: the outage every caller answers 503, and its one line.

An outage (unreachable, shut down, or locked by another connection) is told apart from a bug
(a constraint violated), so the server logs it once and refuses commands until it is back.
"""

from __future__ import annotations

from sqlalchemy.engine import make_url
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    DisconnectionError,
    InterfaceError,
    NoSuchModuleError,
    OperationalError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout

CONNECT_SECONDS = 5
"""How long a PostgreSQL connection attempt may take (a host that does not answer): the
command line says so within 10 s, and during an outage a request is refused in time."""


class StoreUnavailable(Exception):
    """The database cannot be used right now (unreachable, shut down, or locked by another
    connection): nothing was written. The message is one line naming the problem."""


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot be reached or used for now (as opposed to a
    bug, such as a constraint violated): an outage is answered 503 and logged once."""
    if isinstance(exc, StoreUnavailable | OperationalError | InterfaceError | DisconnectionError
                  | PoolTimeout):
        return True
    if isinstance(exc, DBAPIError):
        return bool(exc.connection_invalidated)
    # The driver's own, unwrapped (the LISTEN thread uses psycopg directly).
    kind = type(exc)
    return kind.__module__.split(".")[0] in ("psycopg", "sqlite3") and any(
        base.__name__ in ("OperationalError", "InterfaceError") for base in kind.__mro__)


def describe_failure(exc: BaseException, url: str | None = None) -> str:
    """One line naming why the database at ``url`` cannot be used (never a password, never a
    traceback): for the command line and for the log line of an outage."""
    where = ""
    parsed = None
    if url is not None:
        try:
            parsed = make_url(normalise_url(url))
        except ArgumentError:
            parsed = None
    if parsed is not None and parsed.get_backend_name() != "sqlite":
        where = f"{parsed.host or 'localhost'}:{parsed.port or 5432}"
    if isinstance(exc, NoSuchModuleError | ModuleNotFoundError):
        return "this kind of database is not supported; use sqlite:///path.db or postgresql://"
    if isinstance(exc, ArgumentError):
        return "the database URL cannot be read"
    raw = str(getattr(exc, "orig", None) or exc)
    text = " ".join(raw.split())
    low = text.lower()
    user = parsed.username if parsed is not None else None
    name = parsed.database if parsed is not None else None
    if ("role" in low and "does not exist" in low) or "authentication failed" in low \
            or "no password supplied" in low or "no pg_hba.conf entry" in low:
        return f"the server at {where} refused the user {user!r} (authentication failed)"
    if "does not exist" in low and "database" in low:
        return f"the database {name!r} does not exist on the server at {where}"
    if "connection refused" in low:
        return f"nothing is listening at {where} (connection refused)"
    if "timeout expired" in low or "timed out" in low:
        return f"the server at {where} did not answer within {CONNECT_SECONDS} s"
    if "name or service not known" in low or "could not translate host name" in low \
            or "nodename nor servname" in low or "temporary failure in name resolution" in low:
        return f"the host {parsed.host if parsed else '?'!r} cannot be found"
    if "database is locked" in low:
        return "the SQLite file is locked by another connection"
    if "shutting down" in low or "terminating connection" in low or "server closed" in low \
            or "connection is closed" in low or "consuming input failed" in low:
        return f"the server at {where} closed the connection (it shut down or is restarting)"
    if "unable to open database file" in low:
        return "the SQLite file cannot be opened"
    first = raw.strip().splitlines()[0] if raw.strip() else type(exc).__name__
    # psycopg prefixes "connection failed: connection to server at ... failed: "
    return first.rsplit("failed: ", 1)[-1][:200]


def normalise_url(url: str) -> str:
    """The URL as SQLAlchemy takes it (``postgresql://`` means psycopg 3)."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url
