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


class Cluster:
    """A running throwaway cluster: its URL, and :meth:`stop` / :meth:`start` to take the
    server away and bring it back (the outage bench)."""

    def __init__(self, bindir: Path, folder: Path, port: int) -> None:
        self.bindir, self.folder, self.port = bindir, folder, port
        self.data = folder / "data"
        self.url = f"postgresql://postgres@127.0.0.1:{port}/postgres"

    def _as_postgres(self, *cmd: str) -> None:
        subprocess.run(["runuser", "-u", "postgres", "--", *cmd], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)

    def start(self) -> None:
        self._as_postgres(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l",
                          str(self.folder / "log"), "-w", "-o",
                          f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                          "-c fsync=off", "start")

    def stop(self, mode: str = "fast") -> None:
        self._as_postgres(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w",
                          "stop")


@contextlib.contextmanager
def throwaway_cluster() -> Iterator[Cluster]:
    """A fresh cluster, stopped and deleted on exit."""
    bindir = pg_bin()
    if bindir is None:
        raise NoPostgres("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb)")
    if os.geteuid() != 0 or shutil.which("runuser") is None:
        raise NoPostgres("starting a throwaway PostgreSQL needs root (to run initdb as postgres)")
    folder = Path(tempfile.mkdtemp(prefix="arena-pg-"))
    shutil.chown(folder, "postgres", "postgres")
    cluster = Cluster(bindir, folder, free_port())
    cluster._as_postgres(str(bindir / "initdb"), "-D", str(cluster.data), "-A", "trust", "-U",
                         "postgres", "--no-sync")
    cluster.start()
    try:
        yield cluster
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            cluster.stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    """The URL of a fresh cluster, stopped and deleted on exit."""
    with throwaway_cluster() as cluster:
        yield cluster.url


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
