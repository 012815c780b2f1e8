"""Store fixtures: ``database_url`` runs each store test on SQLite and on a real PostgreSQL
cluster that this suite creates itself (initdb in a temporary directory, pg_ctl on a free
port), skipped with a visible reason only when PostgreSQL is not installed."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.serverproc import free_port


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    bindir = _pg_bin()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb)")
    if os.geteuid() != 0 or shutil.which("runuser") is None:
        pytest.skip("starting a throwaway PostgreSQL needs root (to run initdb as postgres)")
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


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.db'}"
        return
    yield request.getfixturevalue("postgres_database")


@pytest.fixture
def postgres_database(request: pytest.FixtureRequest, postgres_url: str) -> Iterator[str]:
    """A fresh, empty PostgreSQL database on the throwaway cluster, dropped afterwards."""
    base = postgres_url
    name = f"t{os.getpid()}_{abs(hash(request.node.nodeid)) % 10**9}"
    import psycopg

    admin = base.replace("postgresql://", "postgresql://", 1)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield base.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
