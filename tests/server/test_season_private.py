"""G-13 in a season (issue 26 point 5): the host opens a private channel with any player of
the season, not only inside a match. Only the two of them read it: another player and a
spectator get the same bytes from the season's API and page whether or not the host talked
privately with Ann (the version they are shown counts only what they may read, G-10); the
lines are kept with the season (a restart rebuilds them from its stored inputs). In-process."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.exceptions import StarletteDeprecationWarning

from arena.server import seasons as season_api
from server.inprocess import in_process_server

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

CAST = ["Ann", "Ben", "Cat", "Dan"]
FROZEN = 1_900_000_000.0


class Frozen:
    """The season module's clock, held still so two seasons' views can be compared."""

    @staticmethod
    def time() -> float:
        return FROZEN

    @staticmethod
    def monotonic() -> float:
        import time

        return time.monotonic()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = tmp_path_factory.mktemp("season-private")
    return path


@pytest.fixture
def client(folder: Path) -> Iterator[TestClient]:
    patch = pytest.MonkeyPatch()
    patch.setattr(season_api, "time", Frozen)
    with in_process_server(folder, patch) as c:
        yield c


def create(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/seasons", json={"cast": CAST, "seed": 9, "step_seconds": 3600})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def say(client: TestClient, sid: str, token: str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/seasons/{sid}/private", params={"token": token}, json=body)


def readings(client: TestClient, created: dict[str, Any]) -> list[str]:
    """What Ben and a spectator read (API and page), with the season's id made neutral."""
    sid = created["id"]
    out = []
    for token in (created["tokens"]["players"]["Ben"], None):
        params = {"token": token} if token else {}
        for path in (f"/api/seasons/{sid}", f"/s/{sid}"):
            r = client.get(path, params=params)
            assert r.status_code == 200, r.text
            text = r.text.replace(sid, "SID")
            if token:
                text = text.replace(token, "TOKEN")
            out.append(text)
    return out


def test_only_the_host_and_the_player_read_their_private_channel(client: TestClient) -> None:
    quiet, talked = create(client), create(client)
    sid, host = talked["id"], talked["tokens"]["host"]
    ann, ben = talked["tokens"]["players"]["Ann"], talked["tokens"]["players"]["Ben"]
    # A player cannot open it; the host opens it by writing first.
    r = say(client, sid, ann, {"text": "hello?"})
    assert r.status_code == 422 and r.json()["rule"] == "G-13", r.text
    r = say(client, sid, host, {"player": "Ann", "text": "Confessional: <b>how</b> was it?"})
    assert r.status_code == 200, r.text
    r = say(client, sid, ann, {"text": "Ben is lying."})
    assert r.status_code == 200, r.text
    # Nobody else writes in it, nor in a channel that is not theirs.
    assert say(client, sid, ben, {"player": "Ann", "text": "me too"}).status_code == 403
    assert say(client, sid, "", {"player": "Ann", "text": "spectator"}).status_code in (
        401, 403)
    for bad in ({"player": "Zed", "text": "x"}, {"player": "Ann", "text": ""},
                {"player": "Ann", "text": "x" * 501}, {"player": "Ann"}):
        r = say(client, sid, host, bad)
        assert r.status_code == 422 and r.json()["rule"] == "G-13", r.text
    # The host reads every channel, Ann hers; both in order, as text.
    lines = client.get(f"/api/seasons/{sid}", params={"token": host}).json()["private"]
    assert [(p["player"], p["from"], p["text"]) for p in lines] == [
        ("Ann", "host", "Confessional: <b>how</b> was it?"), ("Ann", "player", "Ben is lying.")]
    mine = client.get(f"/api/seasons/{sid}", params={"token": ann}).json()["private"]
    assert mine == lines
    # Ben and a spectator read exactly what they read in a season where nobody talked.
    assert readings(client, talked) == readings(client, quiet)
    for text in readings(client, talked):
        assert "Confessional" not in text and "lying" not in text


def test_the_private_channel_is_kept_with_the_season(folder: Path) -> None:
    patch = pytest.MonkeyPatch()
    patch.setattr(season_api, "time", Frozen)
    with in_process_server(folder, patch) as c:
        created = create(c)
        sid, host = created["id"], created["tokens"]["host"]
        assert say(c, sid, host, {"player": "Cat", "text": "kept?"}).status_code == 200
        before = c.get(f"/api/seasons/{sid}", params={"token": host}).json()
    patch = pytest.MonkeyPatch()
    patch.setattr(season_api, "time", Frozen)
    with in_process_server(folder, patch) as c:  # a new server on the same database
        cat = created["tokens"]["players"]["Cat"]
        after = c.get(f"/api/seasons/{sid}", params={"token": cat}).json()
        assert [p["text"] for p in after["private"]] == ["kept?"]
        assert after["private"] == before["private"]
        assert c.get(f"/api/seasons/{sid}", params={"token": host}).json()["version"] == 1
        assert c.get(f"/api/seasons/{sid}").json()["version"] == 0
