"""The ``--database`` argument: every value the server cannot use is refused before it starts.

A database that turns out to be unusable only once the server runs costs the host more than a
refusal at the prompt: a URL that cannot be parsed ended in a traceback, an empty value quietly
meant the shared default file, an in-memory SQLite served matches that vanished at exit, and a
connection parameter of the wrong type was accepted by the engine (whose own connect timeout
replaces it) but failed the separate LISTEN connection every second, forever. So this module
reads the value the way the store and the LISTEN thread will, and each problem is one line
naming it (the caller prints it and exits 2); nothing is connected to or created here.

The URL is never echoed whole: it may hold a password.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from arena.core.errors import RuleError

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

SCHEMES = ("sqlite", "postgresql", "postgres", "postgresql+psycopg")
"""The kinds of ``--database`` URL the store can use."""

SQLITE_PARAMETERS = ("timeout", "isolation_level", "detect_types", "check_same_thread",
                     "cached_statements")
"""What an SQLite URL may carry after ``?``: the driver's own arguments. SQLAlchemy ignores
anything else with a warning (it would look as if it took effect), and ``uri`` is left out
with the ``file:`` names it enables (see :func:`_check_sqlite`)."""

LIBPQ_WHOLE_NUMBERS = ("connect_timeout", "keepalives", "keepalives_idle", "keepalives_interval",
                       "keepalives_count", "tcp_user_timeout")
"""libpq parameters that are whole numbers: libpq accepts any text for them when it reads the
URL and fails only when it connects."""

LIBPQ_CHOICES: dict[str, frozenset[str]] = {
    "sslmode": frozenset({"disable", "allow", "prefer", "require", "verify-ca", "verify-full"}),
    "gssencmode": frozenset({"disable", "prefer", "require"}),
    "channel_binding": frozenset({"disable", "prefer", "require"}),
    "target_session_attrs": frozenset({"any", "read-write", "read-only", "primary", "standby",
                                       "prefer-standby"}),
    "load_balance_hosts": frozenset({"disable", "random"}),
    "sslnegotiation": frozenset({"postgres", "direct"}),
    "sslcertmode": frozenset({"disable", "allow", "require"}),
    "sslcompression": frozenset({"0", "1"}),
    "sslsni": frozenset({"0", "1"}),
    "gssdelegation": frozenset({"0", "1"}),
    "gsslib": frozenset({"gssapi", "sspi"}),
    "ssl_min_protocol_version": frozenset({"TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"}),
    "ssl_max_protocol_version": frozenset({"", "TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"}),
    "min_protocol_version": frozenset({"3.0", "3.2", "latest"}),
    "max_protocol_version": frozenset({"3.0", "3.2", "latest"}),
}
"""libpq parameters with a fixed set of values (the libpq manual's "Parameter Key Words"), read
as late as the whole numbers above."""

_TEMPLATE = "give an SQLite file (a path or sqlite:///path.db) or postgresql://user@host/db"
_IN_MEMORY = ("an in-memory SQLite database would lose every match when the server stops; "
              "give a file (a path or sqlite:///path.db)")


def _refuse(message: str) -> RuleError:
    return RuleError("serve", f"--database: {message}")


def database_url(given: str) -> str:
    """The ``--database`` argument as a URL the store can use, or :class:`RuleError` naming
    the first problem. A plain path is an SQLite file; its folder must already exist (a typo
    must not quietly create directories)."""
    if "\0" in given:
        raise _refuse("a database name or path cannot hold a NUL character")
    if not given.strip():
        raise _refuse(f"the value is empty; {_TEMPLATE} (leave --database out for the default "
                      "file in the user data directory)")
    if "://" not in given:
        return _plain_path(given)
    scheme, rest = given.split("://", 1)
    if scheme.lower() not in SCHEMES:
        raise _refuse(f"{scheme}:// databases are not supported; {_TEMPLATE}")
    url = f"{scheme.lower()}://{rest}"
    parsed = _parse(url)
    if any("\0" in str(part) for part in (parsed.username, parsed.password, parsed.host,
                                          parsed.database, *parsed.query.values())):
        raise _refuse("a database name or path cannot hold a NUL character")
    if parsed.get_backend_name() == "sqlite":
        _check_sqlite(parsed)
    else:
        _check_postgresql(parsed)
    return url


def _plain_path(given: str) -> str:
    if given.strip() == ":memory:":
        raise _refuse(_IN_MEMORY)
    try:
        path = Path(given).expanduser().resolve()
    except (RuntimeError, OSError) as exc:  # ~nosuchuser, a symlink loop
        raise _refuse(f"{given}: {exc}") from None
    # Quoted, so that a ``?``, ``#`` or ``%`` in a file name stays part of the name.
    url = f"sqlite:///{quote(str(path), safe='/')}"
    _check_sqlite(_parse(url))
    return url


def _parse(url: str) -> URL:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url)
    except (ArgumentError, ValueError):
        raise _refuse(f"the URL cannot be read: {_netloc_problem(url)}") from None


def _netloc_problem(url: str) -> str:
    """What is wrong with the ``user:password@host:port`` part, which is where SQLAlchemy's
    reader fails (with a message about ``int()``)."""
    netloc = url.split("://", 1)[1].split("/", 1)[0].split("?", 1)[0]
    hostport = netloc.rpartition("@")[2]  # never the password
    if hostport.startswith("[") and "]" not in hostport:
        return "the host's [ is never closed (an IPv6 host is written [::1])"
    if "," in hostport:
        return "several hosts are given as ?host=h1:5432&host=h2:5433"
    port = hostport.rpartition("]")[2] if hostport.startswith("[") else hostport
    if ":" in port:
        port = port.split(":", 1)[1]
        if not port:
            return "a ':' after the host is not followed by a port"
        return f"the port {port[:20]!r} is not a whole number from 1 to 65535"
    return "expected " + ("sqlite:///path.db" if url.lower().startswith("sqlite")
                          else "postgresql://user:password@host:port/database")


def _check_sqlite(parsed: URL) -> None:
    """An SQLite URL names one file whose folder exists and which this user may write: the
    server also writes a ``.lock`` file and SQLite its journal beside it."""
    if parsed.username or parsed.password or parsed.host or parsed.port:
        raise _refuse("an SQLite URL has no user or host: write sqlite:///relative/path.db or "
                      "sqlite:////absolute/path.db")
    database = parsed.database or ""
    query = dict(parsed.query)
    if database in ("", ":memory:") or (database.startswith("file:") and (
            ":memory:" in database or query.get("mode") == "memory")):
        raise _refuse(_IN_MEMORY)
    if database.startswith("file:") or "uri" in query:
        # The one-server-per-file lock (arena.store.lock) cannot tell which file a URI
        # filename opens, so two servers could share one.
        raise _refuse("SQLite URI filenames (file:..., uri=true) are not supported; give the "
                      "file's path (sqlite:///path.db)")
    unknown = sorted(set(query) - set(SQLITE_PARAMETERS))
    if unknown:
        raise _refuse(f"an SQLite URL takes only {', '.join(SQLITE_PARAMETERS)} after ?, not "
                      f"{', '.join(repr(k[:40]) for k in unknown)}")
    from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite

    try:
        SQLiteDialect_pysqlite().create_connect_args(parsed)
    except ValueError as exc:  # ?timeout=x
        raise _refuse(f"an SQLite parameter has the wrong type ({exc})") from None
    path = Path(database)  # as SQLAlchemy opens it: no ~ expansion in a URL
    folder = path.parent
    if not folder.is_dir():
        raise _refuse(f"the folder {folder} does not exist")
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise _refuse(f"{path}: {exc.strerror}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise _refuse(f"{path} is a directory, not a file")
    if mode is not None and not stat.S_ISREG(mode):
        raise _refuse(f"{path} is not a regular file (an SQLite database is a file)")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise _refuse(f"cannot write in the folder {folder} (permission denied)")
    if mode is not None and not os.access(path, os.R_OK | os.W_OK):
        raise _refuse(f"{path} cannot be read and written (permission denied)")


def _check_postgresql(parsed: URL) -> None:
    """The URL as both connections read it: the engine's keyword arguments (what SQLAlchemy
    hands psycopg) and the plain URL of the LISTEN connection, each through libpq's own
    parser (unknown parameters), then the values libpq reads only when it connects."""
    import psycopg
    from psycopg.conninfo import conninfo_to_dict, make_conninfo
    from sqlalchemy.exc import ArgumentError

    if parsed.port is not None and not 1 <= parsed.port <= 65535:
        raise _refuse(f"the port {parsed.port} is not a whole number from 1 to 65535")
    listen = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
    try:
        engine_url = parsed.set(drivername="postgresql+psycopg")
        _, engine_args = engine_url.get_dialect()().create_connect_args(engine_url)
        params = [conninfo_to_dict(make_conninfo("", **engine_args)),
                  conninfo_to_dict(listen)]
    except (psycopg.Error, ArgumentError, ValueError) as exc:
        text = " ".join(str(exc).split()) or type(exc).__name__
        raise _refuse(f"the URL cannot be used: {text[:200]}") from None
    for found in params:
        for key, value in found.items():
            _check_libpq(key, str(value))


def _check_libpq(key: str, value: str) -> None:
    if key in LIBPQ_WHOLE_NUMBERS and not _whole(value):
        raise _refuse(f"{key} must be a whole number, not {value[:40]!r}")
    if key == "port" and not all(not p or (_whole(p) and 1 <= int(p) <= 65535)
                                 for p in value.split(",")):
        raise _refuse(f"the port {value[:40]!r} is not a whole number from 1 to 65535")
    choices = LIBPQ_CHOICES.get(key)
    if choices is not None and value not in choices:
        raise _refuse(f"{key} must be one of {', '.join(sorted(c for c in choices if c))}, "
                      f"not {value[:40]!r}")


def _whole(text: str) -> bool:
    """ASCII digits only (``str.isdigit`` also takes other scripts' digits, which libpq does
    not)."""
    text = text.strip()
    return bool(text) and text.isascii() and text.isdigit()
