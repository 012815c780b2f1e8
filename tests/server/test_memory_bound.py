"""Memory follows what is live: a finished match nobody uses leaves the server's memory and is
rebuilt, the same, from its stored log when someone asks for it again; a running match, or a
watched one, stays; one address keeps a bounded number of matches running.

Time is simulated: :meth:`Matches.sweep` is handed a ``now`` past the keep time instead of
the test waiting for it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from arena.server import creating
from arena.server import matches as matches_mod
from arena.server.envsetting import env_positive
from server.inprocess import TestClient, in_process_server


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with in_process_server(tmp_path_factory.mktemp("memory")) as c:
        yield c


TOY_HUMANS = {"game": "paint", "seats": [{"name": "Ann"}, {"name": "Ben"}]}


def _create(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    r = client.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def _later(client: TestClient) -> int:
    """Run the sweep as if the keep time had passed for every match used so far."""
    registry = client.app.state.matches  # type: ignore[attr-defined]
    now = time.monotonic() + matches_mod.KEEP_SECONDS + 1
    gone: int = client.portal.call(registry.sweep, now)  # type: ignore[union-attr]
    return gone


def test_a_finished_match_leaves_memory_and_comes_back_the_same(client: TestClient) -> None:
    registry = client.app.state.matches  # type: ignore[attr-defined]
    made = _create(client, TOY_HUMANS)
    mid, host = made["id"], made["tokens"]["host"]
    seat = made["tokens"]["seats"][0]
    r = client.post(f"/api/matches/{mid}/host/end", params={"token": host},
                    json={"reason": "the host called it"})
    assert r.status_code == 200, r.text
    before_view = client.get(f"/api/matches/{mid}/view", params={"token": seat}).json()
    before_events = client.get(f"/api/matches/{mid}/events", params={"token": host}).json()
    assert mid in registry.owners

    _later(client)
    assert mid not in registry.owners, "a finished, unwatched match stayed in memory"

    # Read back from the store on the next request, identical for every reader.
    after_view = client.get(f"/api/matches/{mid}/view", params={"token": seat}).json()
    after_events = client.get(f"/api/matches/{mid}/events", params={"token": host}).json()
    assert mid in registry.owners
    before_view.pop("now")  # the server's clock when it answered
    after_view.pop("now")
    assert after_view == before_view
    assert after_events == before_events
    listed = {m["id"]: m for m in client.get("/api/matches").json()}
    assert listed[mid]["status"] == "finished"


def test_running_and_watched_matches_stay(client: TestClient) -> None:
    registry = client.app.state.matches  # type: ignore[attr-defined]
    running = _create(client, TOY_HUMANS)["id"]
    watched = _create(client, TOY_HUMANS)
    wid = watched["id"]
    r = client.post(f"/api/matches/{wid}/host/end", params={"token": watched["tokens"]["host"]},
                    json={})
    assert r.status_code == 200, r.text
    with client.websocket_connect(f"/ws/{wid}?token={watched['tokens']['spectator']}") as ws:
        ws.receive_json()  # subscribed: its first view arrived
        _later(client)
        assert running in registry.owners, "a running match left memory: its clock would stop"
        assert wid in registry.owners, "a watched match left memory under its socket"
    # Once its last viewer has gone, it may leave too.
    _later(client)
    assert wid not in registry.owners
    assert running in registry.owners


def test_one_address_keeps_a_bounded_number_of_matches_running(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    registry = client.app.state.matches  # type: ignore[attr-defined]
    already = sum(1 for m in registry.creators if not registry.owners[m].match.finished)
    monkeypatch.setattr(creating, "LIVE_PER_ADDRESS", already + 2)
    first = _create(client, TOY_HUMANS)
    _create(client, TOY_HUMANS)
    count = len(client.get("/api/matches").json())
    r = client.post("/api/matches", json=TOY_HUMANS)
    assert r.status_code == 429, r.text
    assert "at most" in r.json()["error"] and "running" in r.json()["error"]
    assert int(r.headers["retry-after"]) >= 1
    assert len(client.get("/api/matches").json()) == count, "a refused creation was stored"
    # Ending one of them frees its place.
    r = client.post(f"/api/matches/{first['id']}/host/end",
                    params={"token": first["tokens"]["host"]}, json={})
    assert r.status_code == 200, r.text
    _create(client, TOY_HUMANS)


def test_the_keep_time_and_sweep_settings_are_positive(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad or zero setting falls back to the default instead of sweeping every match at once
    (or never)."""
    for raw in ("", "x", "0", "-5", "nan"):
        monkeypatch.setenv("ARENA_KEEP_SECONDS", raw)
        assert env_positive("ARENA_KEEP_SECONDS", 30.0) == 30.0, raw
    monkeypatch.setenv("ARENA_KEEP_SECONDS", "2.5")
    assert env_positive("ARENA_KEEP_SECONDS", 30.0) == 2.5
