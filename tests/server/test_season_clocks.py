"""SE-7 on the server: the host pauses, resumes, extends or sets the clock of the season's
current step (a paused step does not run out even long after its old deadline), a deadline
for starting the Death Match starts one drawn from the season's chance, and a Death Match
started from the season takes the options any match takes (refused 422 naming the field).
In-process (TestClient); the season's clock is moved forward instead of waited for."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime
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
SETTINGS = {"time_scale": 0.01, "bot_pace": "instant"}
MAIN = {"escaped": ["Ann", "Ben"], "trapped": ["Cat", "Dan"], "bars": {"Ann": 5, "Ben": 3},
        "ec": "Cat", "opal": None}


class Clock:
    """The season module's ``time``, moved forward by the test (the watcher reads it too)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def time(self) -> float:
        return time.time() + self.offset

    def monotonic(self) -> float:
        return time.monotonic()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(season_api, "time", fake)
    return fake


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder: Path = tmp_path_factory.mktemp("clocks")
    patch = pytest.MonkeyPatch()
    with in_process_server(folder, patch) as c:
        yield c


def create(client: TestClient) -> tuple[str, str, dict[str, str]]:
    r = client.post("/api/seasons", json={"cast": CAST, "seed": 5, "settings": SETTINGS,
                                          "step_seconds": 100000})  # 1000 s at this scale
    assert r.status_code == 201, r.text
    data = r.json()
    return data["id"], data["tokens"]["host"], data["tokens"]["players"]


def view(client: TestClient, sid: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/seasons/{sid}", params={"token": token} if token else {})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def host(client: TestClient, sid: str, tok: str, action: str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/seasons/{sid}/host/{action}", params={"token": tok}, json=body)


def to_gift(client: TestClient) -> tuple[str, str, dict[str, str]]:
    sid, tok, players = create(client)
    r = host(client, sid, tok, "record_main", {"result": MAIN, "reason": "played on stage"})
    assert r.status_code == 200, r.text
    assert view(client, sid)["stage"] == "gift"
    return sid, tok, players


def to_dm_pick(client: TestClient) -> tuple[str, str, dict[str, str]]:
    sid, tok, players = to_gift(client)
    for path, key, who, value in (("gift", "to", "Ann", "Ben"), ("nominate", "dmo", "Cat", "Dan")):
        r = client.post(f"/api/seasons/{sid}/{path}", params={"token": players[who]},
                        json={key: value})
        assert r.status_code == 200, r.text
    assert view(client, sid)["stage"] == "dm_pick"
    return sid, tok, players


def test_se7_a_paused_step_does_not_run_out(client: TestClient, clock: Clock) -> None:
    sid, tok, players = to_gift(client)
    old = view(client, sid)["deadline"]
    r = host(client, sid, tok, "pause", {})
    assert r.status_code == 200, r.text
    clock.offset = 10 * 86400  # ten days on: far past the old deadline
    data = view(client, sid, players["Ann"])
    assert data["stage"] == "gift" and data["paused"] and data["deadline"] is None
    assert 0 < data["paused_left"] <= 1000
    r = host(client, sid, tok, "resume", {})
    assert r.status_code == 200, r.text
    data = view(client, sid)
    assert data["stage"] == "gift" and not data["paused"]
    assert data["deadline"] > old + 10 * 86400 - 5
    # Only the host's link pauses a step.
    r = client.post(f"/api/seasons/{sid}/host/pause", params={"token": players["Ann"]}, json={})
    assert r.status_code == 403


def test_se7_extend_by_ten_minutes_and_a_clock_time(client: TestClient, clock: Clock) -> None:
    # The nomination, extended by ten minutes.
    sid, tok, players = to_gift(client)
    r = client.post(f"/api/seasons/{sid}/gift", params={"token": players["Ann"]},
                    json={"to": "Ben"})
    assert r.status_code == 200, r.text
    before = view(client, sid)
    assert before["stage"] == "nominate"
    r = host(client, sid, tok, "extend", {"seconds": 600})
    assert r.status_code == 200, r.text
    assert view(client, sid)["deadline"] == pytest.approx(before["deadline"] + 600)
    # A clock time with its offset: stored as that moment and shown to every viewer.
    when = datetime.fromtimestamp(int(time.time()) + 3 * 86400, UTC).astimezone()
    r = host(client, sid, tok, "deadline", {"at": when.isoformat()})
    assert r.status_code == 200, r.text
    assert view(client, sid, players["Dan"])["deadline"] == when.timestamp()
    # The page draws it from the view (tests/web/test_season_browser.py shows it drawn).
    assert client.get(f"/s/{sid}", params={"token": players["Cat"]}).status_code == 200
    for body in ({"at": "Friday 20:00"}, {"at": "2030-05-17T20:00"}, {}):
        r = host(client, sid, tok, "deadline", body)
        assert r.status_code == 422 and r.json()["rule"] == "SE-7", r.text
    r = host(client, sid, tok, "extend", {"seconds": -60})
    assert r.status_code == 422 and r.json()["rule"] == "SE-7"


def test_se7_a_death_match_takes_the_lobbys_options(client: TestClient) -> None:
    sid, tok, _ = to_dm_pick(client)
    for body, field in (({"settings": {"time_scale": "fast"}}, "time_scale"),
                        ({"settings": {"bot_pace": "slow"}}, "bot_pace"),
                        ({"settings": {"colour": 1}}, "colour"),
                        ({"config": {"rounds": -1}}, "rounds")):
        r = host(client, sid, tok, "start_death", {"game": "lockmaker", **body})
        assert r.status_code == 422, r.text
        assert field in r.json()["error"], r.text
        assert view(client, sid)["stage"] == "dm_pick"  # nothing started
    r = host(client, sid, tok, "start_death", {
        "game": "lockmaker", "settings": {"time_scale": 0.5, "bot_pace": "human"},
        "config": {"rounds": 2}})
    assert r.status_code == 200, r.text
    match = client.app.state.matches.owners[r.json()["match"]]  # type: ignore[attr-defined]
    assert match.record.settings["time_scale"] == 0.5
    assert match.record.settings["bot_pace"] == "human"
    assert match.record.config["rounds"] == 2
    assert view(client, sid)["stage"] == "dm"


def test_se7_a_deadline_to_start_the_death_match_starts_one(client: TestClient,
                                                            clock: Clock) -> None:
    sid, tok, _ = to_dm_pick(client)
    assert view(client, sid)["deadline"] is None  # the host's own step: no clock by default
    r = host(client, sid, tok, "deadline", {"at": int(time.time()) + 3600})
    assert r.status_code == 200, r.text
    clock.offset = 7200
    data = view(client, sid, tok)
    assert data["stage"] == "dm", data["problem"]
    ep = data["episodes"][-1]
    assert ep["death_match"]["game"] in data["death_matches"] and "SE-7" in ep["note"]
