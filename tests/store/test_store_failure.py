"""A store write that fails leaves memory and database in step. The
command is answered "nothing was applied" (503), the match in memory is the stored one, and
the next command works and is stored."""

from __future__ import annotations

import asyncio
import logging
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from arena.core.clock import SystemClock
from arena.core.match import Match
from arena.core.registry import register
from arena.server.errors import ApiError
from arena.server.owner import MatchOwner
from arena.store import MatchRecord, Store
from arena.store.asyncstore import AsyncStore
from toygame import TOY


class FlakyStore(Store):
    fail_next = False

    def append_many(self, items: Any) -> None:
        if self.fail_next:
            self.fail_next = False
            raise OSError("disk full")
        super().append_many(items)


def test_a_failed_write_rolls_memory_back_and_the_next_command_is_stored(tmp_path: Path) -> None:
    store = FlakyStore(f"sqlite:///{tmp_path / 'f.db'}")
    match = Match(TOY, TOY.default_config(), 3, SystemClock())
    record = MatchRecord(id="m1", game="toy", config={}, seed=3,
                         settings=match.settings.to_json(), start=match.created_at,
                         seat_names=("A", "B"), bots=(False, False), status="running",
                         created=match.created_at)
    store.create_match(record, [])
    owner = MatchOwner(record, match, AsyncStore(store), persisted=0)

    async def run() -> None:
        await owner.command(lambda m: None)  # store the opening entries
        before = [(e.version, e.kind) for e in owner.match.log]
        store.fail_next = True
        with pytest.raises(ApiError) as err:
            await owner.command(lambda m: m.submit(0, "ready", final=True))
        assert err.value.status == 503 and "nothing was applied" in err.value.message
        assert [(e.version, e.kind) for e in owner.match.log] == before  # memory == store
        assert [(e.version, e.kind) for e in store.events("m1")] == before
        assert owner.match.standing(0) is None
        await owner.command(lambda m: m.submit(0, "ready", final=True))  # works again
        assert [e.kind for e in store.events("m1")][-3:] == ["submit", "accepted", "seat_acted"]

    try:
        asyncio.run(run())
    finally:
        store.close()


# ------------------------------------------------------------------------------- outages
class BreakableStore(Store):
    """A store whose database can be made unreachable: while ``broken``, every statement
    fails as a stopped PostgreSQL's would (an OperationalError), the probe included."""

    broken = False

    def __init__(self, url: str) -> None:
        super().__init__(url)
        event.listen(self.engine, "before_cursor_execute", self._maybe_fail)

    def _maybe_fail(self, *_: Any) -> None:
        if self.broken:
            raise OperationalError("statement", {}, Exception("connection refused"))


def _outage_lines(caplog: pytest.LogCaptureFixture) -> tuple[list[str], list[str]]:
    lines = [r.getMessage() for r in caplog.records if r.name == "arena.server"]
    return ([m for m in lines if "the database cannot be used" in m],
            [m for m in lines if "the database is back" in m])


def test_an_outage_refuses_commands_with_503_and_serves_reads_from_memory(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from starlette.exceptions import StarletteDeprecationWarning

    with warnings.catch_warnings():  # Starlette asks for httpx2; it works the same on httpx
        warnings.simplefilter("ignore", StarletteDeprecationWarning)
        from starlette.testclient import TestClient

    from arena.server import create_app
    from arena.server.games import load_games

    load_games()
    register(TOY)
    store = BreakableStore(f"sqlite:///{tmp_path / 'o.db'}")
    caplog.set_level(logging.INFO, logger="arena.server")
    with TestClient(create_app(store=store)) as client:
        client.app.state.store.probe_seconds = 0.05  # type: ignore[attr-defined]
        r = client.post("/api/matches", json={"game": "toy", "seed": 5, "seats": [{}, {}]})
        assert r.status_code == 201
        mid, tokens = r.json()["id"], r.json()["tokens"]
        seat, host = tokens["seats"][0], tokens["host"]
        base = f"/api/matches/{mid}"
        assert client.get(base + "/view", params={"token": seat}).status_code == 200
        assert client.get("/api/matches").status_code == 200
        version = client.get(base + "/events", params={"token": host}).json()["version"]

        store.broken = True
        for _ in range(3):  # one log line for the outage, however many commands it refuses
            r = client.post(base + "/submit", params={"token": seat},
                            json={"text": "ready", "final": True})
            assert r.status_code == 503
            assert r.json()["error"] == ("store: the match could not be saved, so nothing "
                                         "was applied; try again")
            assert r.headers["retry-after"].isdigit()
        r = client.post(base + "/host/pause", params={"token": host}, json={})
        assert r.status_code == 503 and "nothing was applied" in r.json()["error"]
        # Reads: the view, the events, the lobby, the match's record and page, and a link
        # used here for the first time (the host's: known from the creation) all answer.
        view = client.get(base + "/view", params={"token": seat})
        assert view.status_code == 200 and view.json()["paused"] is False
        events = client.get(base + "/events", params={"token": host})
        assert events.status_code == 200 and events.json()["version"] == version
        assert not [e for e in events.json()["events"] if e["kind"] == "submit"]
        lobby = client.get("/api/matches")
        assert lobby.status_code == 200 and mid in [m["id"] for m in lobby.json()]
        assert client.get(base).status_code == 200
        assert client.get(f"/m/{mid}", params={"token": seat}).status_code == 200
        started, ended = _outage_lines(caplog)
        assert len(started) == 1 and not ended
        assert not [r for r in caplog.records if r.exc_info]  # no traceback per request

        store.broken = False
        deadline = time.monotonic() + 10
        while True:  # the probe finds the database back within a few of its periods
            r = client.post(base + "/submit", params={"token": seat},
                            json={"text": "ready", "final": True})
            if r.status_code != 503 or time.monotonic() > deadline:
                break
        assert r.status_code == 200, r.text
        started, ended = _outage_lines(caplog)
        assert len(started) == 1 and len(ended) == 1
        kinds = [e["kind"] for e in client.get(base + "/events",
                                                params={"token": host}).json()["events"]]
        assert kinds.count("submit") == 1
    store.close()


@pytest.mark.slow
def test_an_sqlite_write_lock_held_by_another_connection_stalls_no_read(tmp_path: Path) -> None:
    """A real server; the test holds the write lock of its SQLite file from another
    connection (BEGIN IMMEDIATE, as a backup script or the sqlite3 shell would). Commands
    are refused with 503 at once, reads answer while the lock is still held (a read that
    waited for it would never answer, since the test lets go only after the reads; how long
    they take is bench/faults.py --outage's business), and after the lock is let go commands
    work again. The log has one line each way."""
    import sqlite3

    from server.serverproc import ServerProcess

    db = tmp_path / "locked.db"
    server = ServerProcess(f"sqlite:///{db}", tmp_path / "server.log").start()
    try:
        m = server.create("toy", seats=[{"name": "A"}, {"name": "B"}], seed=2)
        seat, host = m["tokens"]["seats"][0], m["tokens"]["host"]
        base = f"{server.url}/api/matches/{m['id']}"
        http = server.http
        assert http.get(server.url + "/api/matches").status_code == 200
        other = sqlite3.connect(db, timeout=5, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            for _ in range(2):
                r = http.post(base + "/submit", params={"token": seat},
                              json={"text": "ready", "final": True})
                assert r.status_code == 503 and "nothing was applied" in r.json()["error"]
                assert "retry-after" in r.headers
            for url, params in ((base + "/view", {"token": seat}),
                                (base + "/events", {"token": host}),
                                (server.url + "/api/matches", {}), (base, {})):
                r = http.get(url, params=params)
                assert r.status_code == 200, (url, r.text)
        finally:
            other.execute("ROLLBACK")
            other.close()
        deadline = time.monotonic() + 10
        while True:
            r = http.post(base + "/submit", params={"token": seat},
                          json={"text": "ready", "final": True})
            if r.status_code != 503 or time.monotonic() > deadline:
                break
        assert r.status_code == 200, r.text
        log = server.log()
        assert log.count("the database cannot be used") == 1
        assert log.count("the database is back") == 1
        assert "Traceback" not in log
    finally:
        server.stop()
