"""A season is a match of the core engine, so it has what a match has: an owner with a lease
that another process takes over when the owner dies (its step clock going on from the log),
and reads served from memory while the database is down (commands refused, 503)."""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any

import psycopg
import pytest

from arena.server.leases import LEASE_SECONDS
from server.serverproc import ServerProcess
from store.test_store_failure import BreakableStore

CAST = ["Ann", "Ben", "Cat"]
ONE_TRAPPED = {"result": {"escaped": ["Ann", "Ben"], "trapped": ["Cat"],
                          "bars": {"Ann": 3, "Ben": 3}}, "reason": "played at the meetup"}


def _lease(database: str, match_id: str) -> tuple[str, int] | None:
    with psycopg.connect(database, autocommit=True) as conn:
        row = conn.execute("SELECT url, token FROM match_leases WHERE match_id = %s",
                           (match_id,)).fetchone()
    return None if row is None else (str(row[0]), int(row[1]))


@pytest.mark.slow
def test_the_other_process_takes_a_season_over_and_its_step_clock_goes_on(
        postgres_database: str, tmp_path: Path) -> None:
    a = ServerProcess(postgres_database, tmp_path / "a.log").start()
    b = ServerProcess(postgres_database, tmp_path / "b.log").start()
    try:
        r = a.http.post(a.url + "/api/seasons", json={
            "cast": CAST, "seed": 3, "step_seconds": 12, "settings": {"time_scale": 1.0}})
        assert r.status_code == 201, r.text
        sid, host = r.json()["id"], r.json()["tokens"]["host"]
        r = a.http.post(f"{a.url}/api/seasons/{sid}/host/record_main", params={"token": host},
                        json=ONE_TRAPPED)
        assert r.status_code == 200, r.text
        view = a.http.get(f"{a.url}/api/seasons/{sid}", params={"token": host}).json()
        # Cat, the only one trapped, is the EC (LO-8) and nominates on the step clock (SE-7).
        assert view["state"]["step"] == "nominate"
        deadline = view["phase"]["deadline"]
        assert deadline is not None
        assert _lease(postgres_database, sid) == (a.url, 1)

        a.kill()
        while (_lease(postgres_database, sid) or ("", 0))[0] != b.url:
            time.sleep(0.1)  # B's scan of lapsed leases takes the season (suite timeout)
        taken = b.http.get(f"{b.url}/api/seasons/{sid}", params={"token": host}).json()
        assert taken["phase"]["deadline"] == deadline  # the same clock, not a new one
        while time.time() < deadline + 0.5:
            time.sleep(0.2)
        while True:  # the clock ran out on B: the nominee is drawn (SE-7)
            after = b.http.get(f"{b.url}/api/seasons/{sid}", params={"token": host}).json()
            if after["state"]["step"] != "nominate":
                break
            time.sleep(0.1)
        ep = after["state"]["episodes"][0]
        assert after["state"]["step"] == "dm_next"
        assert ep["dmo"] in ("Ann", "Ben") and "drawn" in ep["dmo_how"]
        print(f"season taken over (lease {LEASE_SECONDS:g} s); nomination drawn at its "
              "deadline by the new owner")
    finally:
        a.stop()
        b.stop()


def test_an_outage_serves_season_reads_from_memory_and_refuses_commands(
        tmp_path: Path) -> None:
    from starlette.exceptions import StarletteDeprecationWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", StarletteDeprecationWarning)
        from starlette.testclient import TestClient

    from arena.server import create_app

    store = BreakableStore(f"sqlite:///{tmp_path / 'o.db'}")
    with TestClient(create_app(store=store)) as client:
        client.app.state.store.probe_seconds = 0.05  # type: ignore[attr-defined]
        r = client.post("/api/seasons", json={"cast": CAST, "seed": 5})
        assert r.status_code == 201, r.text
        sid = r.json()["id"]
        tokens: dict[str, Any] = r.json()["tokens"]
        host, cat = tokens["host"], tokens["players"]["Cat"]
        r = client.post(f"/api/seasons/{sid}/host/record_main", params={"token": host},
                        json=ONE_TRAPPED)
        assert r.status_code == 200, r.text
        before = client.get(f"/api/seasons/{sid}", params={"token": cat}).json()

        store.broken = True
        try:
            for _ in range(10):  # a ten-second outage: a round of requests a second
                for path, params in ((f"/api/seasons/{sid}", {"token": cat}),
                                     (f"/api/seasons/{sid}", {"token": host}),
                                     (f"/api/matches/{sid}/view", {"token": cat}),
                                     ("/api/seasons", {}),
                                     (f"/s/{sid}", {"token": cat})):
                    r = client.get(path, params=params)
                    assert r.status_code == 200, (path, r.status_code, r.text[:200])
                r = client.post(f"/api/seasons/{sid}/nominate", params={"token": cat},
                                json={"dmo": "Ann"})
                assert r.status_code == 503 and "nothing was applied" in r.json()["error"]
                r = client.post(f"/api/seasons/{sid}/host/adjust", params={"token": host},
                                json={"player": "Ann", "what": "tol", "amount": 1,
                                      "reason": "x"})
                assert r.status_code == 503
                time.sleep(1.0)  # within the links' write budgets (one a second)
            now = client.get(f"/api/seasons/{sid}", params={"token": cat}).json()
            assert now["state"] == before["state"]  # nothing was applied
            listed = client.get("/api/seasons").json()
            assert [s["id"] for s in listed] == [sid]
        finally:
            store.broken = False
        while True:  # the probe finds the database back (the suite's timeout guards a hang)
            r = client.post(f"/api/seasons/{sid}/nominate", params={"token": cat},
                            json={"dmo": "Ann"})
            if r.status_code not in (429, 503):
                break
            time.sleep(0.2)
        assert r.status_code == 200, r.text
    store.close()
