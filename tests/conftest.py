"""Database fixtures shared by the store, server and CLI tests: ``database_url`` runs a test on
SQLite and on a real PostgreSQL cluster that this suite creates itself (initdb in a temporary
directory, pg_ctl on a free port), skipped with a visible reason only when PostgreSQL is not
installed."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.pgcluster import NoPostgres, fresh_database, throwaway_postgres


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    try:
        with throwaway_postgres() as url:
            yield url
    except NoPostgres as exc:
        pytest.skip(str(exc))


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
    name = f"t{os.getpid()}_{abs(hash(request.node.nodeid)) % 10**9}"
    with fresh_database(postgres_url, name) as url:
        yield url
