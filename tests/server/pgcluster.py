"""A throwaway PostgreSQL cluster (initdb in a temporary folder as the postgres user, pg_ctl on
a free port, fsync off), for the store tests and the fault bench alike."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from server.serverproc import free_port


class NoPostgres(RuntimeError):
    """PostgreSQL cannot be started here; the message says why."""


def pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    """The URL of a fresh cluster, stopped and deleted on exit."""
    bindir = pg_bin()
    if bindir is None:
        raise NoPostgres("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb)")
    if os.geteuid() != 0 or shutil.which("runuser") is None:
        raise NoPostgres("starting a throwaway PostgreSQL needs root (to run initdb as postgres)")
    folder = Path(tempfile.mkdtemp(prefix="arena-pg-"))
    shutil.chown(folder, "postgres", "postgres")
    data, port = folder / "data", free_port()

    def as_postgres(*cmd: str) -> None:
        subprocess.run(["runuser", "-u", "postgres", "--", *cmd], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)

    as_postgres(str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
                "--no-sync")
    as_postgres(str(bindir / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w",
                "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off",
                "start")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        as_postgres(str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def fresh_database(url: str, name: str) -> Iterator[str]:
    """The URL of a new, empty database ``name`` on the server of ``url``, dropped on exit
    (even with sessions still open), so no match of an earlier run is ever resumed."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
