"""``arena serve``: run the server (lobby, match pages, JSON API) on uvicorn.

With no ``--database`` the matches live in an SQLite file in the user's data directory; the
URL and the database are printed at start. ``ARENA_EXTRA_GAMES=module:attr[,module:attr]``
registers games that live outside ``arena.games`` (the test suite's toy game).

An SQLite file serves one process: a second ``arena serve`` on the same file exits with 2 and
one line naming the file (see :mod:`arena.store.lock`). So does every ``--database`` that
cannot be used: before anything starts, a value that cannot be read or would lose the matches
(see :mod:`arena.cli.database_arg`); then a host that refuses or does not answer (within the
store's connect timeout), a missing database, a refused user.
"""

from __future__ import annotations

import argparse
import importlib
import os
import socket
import sys

from arena.cli.database_arg import database_url
from arena.core.errors import RuleError
from arena.core.game import Game
from arena.core.registry import register


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="run the match server and web pages")
    p.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--database", default=None, metavar="URL",
                   help="sqlite:///path.db, a plain path (an SQLite file), or "
                        "postgresql://user@host/db (default: arena.db in the user data "
                        "directory)")
    p.add_argument("--url", default=None, metavar="URL",
                   help="where other server processes on the same PostgreSQL database reach "
                        "this one (default http://HOST:PORT/); commands for the matches this "
                        "process owns are forwarded there")
    p.add_argument("--log-level", default="warning",
                   choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(handler=_serve)


def register_extra_games(spec: str) -> list[str]:
    """Import and register every ``module:attr`` of a comma-separated list."""
    names = []
    for item in filter(None, (part.strip() for part in spec.split(","))):
        module_name, _, attr = item.partition(":")
        if not attr:
            raise RuleError("serve", f"ARENA_EXTRA_GAMES entry {item!r} is not module:attr")
        game = getattr(importlib.import_module(module_name), attr)
        if not isinstance(game, Game):
            raise RuleError("serve", f"{item} is not a Game")
        register(game)
        names.append(game.name)
    return names


def _shown(url: str) -> str:
    """The URL without its password."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "the given URL"


def _serve(args: argparse.Namespace) -> int:
    from arena.store import default_database_url

    # The arguments first, so a mistake is refused before the server is loaded or anything
    # is locked, bound or connected to; an empty --database is refused too (it never means
    # the default file).
    database = (default_database_url() if args.database is None
                else database_url(args.database))
    if not 0 <= args.port <= 65535:
        raise RuleError("serve", f"--port must be between 0 and 65535, not {args.port}")

    import uvicorn
    from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

    from arena.server import create_app
    from arena.store import Store, describe_failure, is_outage
    from arena.store.lock import DatabaseInUse, lock_database

    register_extra_games(os.environ.get("ARENA_EXTRA_GAMES", ""))
    # One server per SQLite file: held until this process ends, however it ends.
    try:
        db_lock = lock_database(database)
    except DatabaseInUse as exc:
        raise RuleError("serve", str(exc)) from None
    # Bind first, so the banner shows the real port (``--port 0`` picks a free one) and a
    # port in use is one clear line, not a traceback.
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as exc:
        sock.close()
        raise RuleError("serve", f"cannot listen on {args.host}:{args.port}: {exc.strerror}"
                        ) from None
    port = sock.getsockname()[1]
    try:
        store = Store(database)
    except Exception as exc:
        sock.close()
        if db_lock is not None:
            db_lock.close()
        if not is_outage(exc) and not isinstance(exc, ArgumentError | DBAPIError
                                                 | ModuleNotFoundError | NoSuchModuleError):
            raise
        raise RuleError("serve", f"--database: cannot use {_shown(database)}: "
                                 f"{describe_failure(exc, database)}") from None
    shown = "127.0.0.1" if args.host in {"0.0.0.0", ""} else (
        "[::1]" if args.host == "::" else (f"[{args.host}]" if ":" in args.host else args.host))
    app = create_app(store=store, process_url=args.url or f"http://{shown}:{port}")
    print(f"Arena is running at http://{shown}:{port}/", flush=True)
    print(f"Database: {store.describe()}", flush=True)
    print("Press Ctrl+C to stop.", flush=True)
    # Per-message compression of socket updates is off by default: each socket compresses
    # its own copy of the same update, which cost about half of the server's CPU with six
    # spectators per match (bench/README.md); an update is a few KB. ARENA_WS_DEFLATE=1
    # turns it on where bandwidth is dearer than CPU.
    deflate = os.environ.get("ARENA_WS_DEFLATE", "0") not in ("", "0")
    config = uvicorn.Config(app, log_level=args.log_level, ws_max_size=64 * 1024,
                            ws_per_message_deflate=deflate)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
        store.close()
        if db_lock is not None:
            db_lock.close()
    sys.stdout.flush()
    return 0
