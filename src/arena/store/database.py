"""One database: its engine, its schema brought up to date, and its sessions.

The store's concerns (:mod:`~arena.store.match_rows`, :mod:`~arena.store.event_rows`, ...)
each extend :class:`Database` with their own rows; :class:`~arena.store.store.Store` is all of
them over one engine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import platformdirs
from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from arena.store.failures import CONNECT_SECONDS, normalise_url

SQLITE_BUSY_SECONDS = 0.05
"""How long an SQLite statement waits for a lock another connection holds. One server
process writes its file (see :mod:`arena.store.lock`), from one thread, and WAL readers
never wait for a writer, so in normal running nothing waits at all: only an
outside connection (a backup script, the ``sqlite3`` shell) holding a write lock does. Then
the write gives up quickly and the command is refused (503), instead of holding its match's
lock, and every read of the match behind it, for seconds."""


def default_database_url() -> str:
    """An SQLite file in the user's data directory (created on first use)."""
    folder = Path(platformdirs.user_data_dir("arena", appauthor=False))
    return f"sqlite:///{folder / 'arena.db'}"


class Database:
    """An engine over ``url`` (SQLite in the user's data directory by default), its schema
    migrated on opening."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalise_url(url or default_database_url())
        parsed = make_url(self.url)
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        if self.is_sqlite and parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        if self.is_sqlite and (parsed.database or ":memory:") == ":memory:":
            # One connection shared by every thread: the server calls the store from its
            # store thread (``AsyncStore``), and each thread would otherwise get a memory
            # database of its own, empty and without the schema.
            self.engine: Engine = create_engine(
                self.url, poolclass=StaticPool, connect_args={"check_same_thread": False})
        elif self.is_sqlite:
            # A file SQLite gets a QueuePool with ``check_same_thread=False`` from SQLAlchemy
            # itself: the connections move between the store's threads.
            self.engine = create_engine(self.url, future=True,
                                        connect_args={"timeout": SQLITE_BUSY_SECONDS})
        else:
            # After the server restarts, pooled connections are dead: each is checked as it
            # is taken, so the first command after an outage does not fail on one.
            self.engine = create_engine(self.url, future=True, pool_pre_ping=True,
                                        connect_args={"connect_timeout": CONNECT_SECONDS})
        self.is_memory = self.is_sqlite and (parsed.database or ":memory:") == ":memory:"
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        self.migrate()

    # ------------------------------------------------------------------ schema
    def migrate(self) -> None:
        """Apply every migration shipped in ``arena.store.migrations`` (idempotent)."""
        cfg = Config()
        cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def probe(self) -> None:
        """Raise unless a write could go through now: on SQLite, take the write lock and let
        it go (another connection may hold it); on PostgreSQL, ask the server anything."""
        with self.engine.connect() as conn:
            if self.is_sqlite:
                conn.exec_driver_sql("BEGIN IMMEDIATE")
                conn.exec_driver_sql("ROLLBACK")
            else:
                conn.execute(text("SELECT 1"))

    def describe(self) -> str:
        """Where the data lives, for the start-up banner (never prints a password)."""
        parsed = make_url(self.url)
        if self.is_sqlite:
            return str(Path(parsed.database or ":memory:").resolve()) if parsed.database else ":memory:"
        return parsed.render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    def session(self) -> Session:
        return self._session()


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
