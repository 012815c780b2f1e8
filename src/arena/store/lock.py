"""One server per SQLite file.

SQLite is the one-process default: two servers on one file would each keep their own copy of
every live match in memory and split (the second writer's commands fail, the first never sees
them). ``arena serve`` therefore holds an exclusive ``flock`` on a sidecar file ``<db>.lock``
for its whole life. The lock belongs to the open file, so the kernel releases it however the
process ends, SIGKILL included: a restart after a crash is never refused by a stale lock, as it
would be by a pid file. The pid written in the file is only there to name the holder.

PostgreSQL needs no such lock here (a database URL that is not an SQLite file is left alone).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TextIO

from sqlalchemy.engine import make_url


class DatabaseInUse(Exception):
    """Another live process holds the database's lock."""

    def __init__(self, path: Path, holder: str) -> None:
        self.path = path
        self.holder = holder
        who = f"another Arena server (pid {holder})" if holder.isdigit() else \
            "another Arena server"
        super().__init__(f"{who} is using the database {path}; stop it first, or give this "
                         f"server its own --database")


def sqlite_path(url: str) -> Path | None:
    """The file of an SQLite URL, or None (in memory, or not SQLite)."""
    try:
        parsed = make_url(url)
    except Exception:  # an unreadable URL is the store's error to report
        return None
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database or ""
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database).expanduser().resolve()


def lock_database(url: str) -> TextIO | None:
    """Hold the lock of an SQLite database for as long as the returned file stays open (keep
    it referenced for the process's life); None when there is nothing to lock.

    Raises :class:`DatabaseInUse` when another process holds it."""
    path = sqlite_path(url)
    if path is None or sys.platform == "win32":
        return None
    import fcntl

    path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(path.with_name(path.name + ".lock"), "a+", encoding="utf-8")  # noqa: SIM115
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip()
        handle.close()
        raise DatabaseInUse(path, holder) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle
