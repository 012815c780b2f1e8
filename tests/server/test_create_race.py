"""A match being created is stored as running before its owner is registered; the start-up
resume, which lists the running matches, must leave it alone. Otherwise a second owner writes
the same log entries and the creation fails on the store's unique versions (seen once in CI
under load, in test_starve)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server.inprocess import in_process_server


def test_the_start_up_resume_leaves_a_match_being_created_alone(tmp_path: Path) -> None:
    with in_process_server(tmp_path) as client:
        matches = client.app.state.matches  # type: ignore[attr-defined]
        real = matches.store.create_match

        async def create_then_resume(*args: Any, **kwargs: Any) -> Any:
            done = await real(*args, **kwargs)
            await matches.resume_all()  # its listing now holds the new, running match
            return done

        matches.store.create_match = create_then_resume
        r = client.post("/api/matches", json={
            "game": "lockmaker", "seats": [{"name": "A"}, {"name": "B"}]})
        assert r.status_code == 201, r.text
        m = r.json()
        owner = matches.owners[m["id"]]
        assert owner.persisted == owner.match.version > 0
        view = client.get(f"/api/matches/{m['id']}/view", params={"token": m["tokens"]["host"]})
        assert view.status_code == 200
        events = client.get(f"/api/matches/{m['id']}/events",
                            params={"token": m["tokens"]["host"]}).json()["events"]
        versions = [e["version"] for e in events]
        assert versions == sorted(set(versions))
