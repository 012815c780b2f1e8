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


def test_a_match_asked_for_while_its_row_is_stored_is_the_one_being_created(tmp_path: Path
                                                                            ) -> None:
    """A season's match has links anyone may read, and open, from the moment its row is
    stored. A request for it that came before its owner was registered rebuilt a second
    owner, and the two wrote the same log versions (the child's entries then failed to store
    and its season never heard its result)."""
    with in_process_server(tmp_path) as client:
        matches = client.app.state.matches  # type: ignore[attr-defined]
        real = matches.store.create_match
        asked: list[Any] = []

        async def create_then_ask(record: Any, *args: Any, **kwargs: Any) -> Any:
            done = await real(record, *args, **kwargs)
            asked.append(await matches.get(record.id))  # a reader between row and owner
            return done

        matches.store.create_match = create_then_ask
        r = client.post("/api/matches", json={
            "game": "lockmaker", "seats": [{"name": "A"}, {"name": "B"}]})
        assert r.status_code == 201, r.text
        m = r.json()
        assert asked == [matches.owners[m["id"]]]
        r = client.post(f"/api/matches/{m['id']}/host/pause", params={"token": m["tokens"]["host"]})
        assert r.status_code == 200, r.text
        events = client.get(f"/api/matches/{m['id']}/events",
                            params={"token": m["tokens"]["host"]}).json()["events"]
        versions = [e["version"] for e in events]
        assert versions == sorted(set(versions)) and events[-1]["kind"] == "pause"
