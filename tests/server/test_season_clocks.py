"""SE-7 on the server: every season step's clock is the match clock. The host pauses, resumes,
extends or sets the clock of the current step (a paused step does not run out even long after
its old deadline); while a match is played, the season's clock controls are that match's; a
deadline for starting the Death Match starts one drawn from the season's chance; and a Death
Match started from the season takes the options any match takes (refused 422 naming the
field). In process; the server's clock is moved forward instead of waited for."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from server.inprocess import TestClient, in_process_server
from server.seasonkit import FAST, Season, Shifted, frozen_clock, refused, wake

CAST = ["Ann", "Ben", "Cat", "Dan"]
MAIN = {"escaped": ["Ann", "Ben"], "trapped": ["Cat", "Dan"], "bars": {"Ann": 5, "Ben": 3},
        "ec": "Cat", "opal": None}
CLOCK = Shifted()
STEP = 1000.0  # the step clock at this time scale (100000 s times 0.01)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder: Path = tmp_path_factory.mktemp("clocks")
    patch = pytest.MonkeyPatch()
    frozen_clock(patch, CLOCK)
    with in_process_server(folder, patch) as c:
        yield c


def later(client: TestClient, seconds: float) -> None:
    """The server's clock moves on by ``seconds``; every match looks at it again."""
    CLOCK.offset += seconds
    wake(client)


def create(client: TestClient) -> Season:
    return Season.create(client, {"cast": CAST, "seed": 5, "settings": FAST,
                                  "step_seconds": 100000})


def to_gift(client: TestClient) -> Season:
    s = create(client)
    s.ok("record_main", {"result": MAIN, "reason": "played on stage"})
    assert s.step() == "gift"
    return s


def to_dm_next(client: TestClient) -> Season:
    s = to_gift(client)
    assert s.choose("Ann", "gift", "Ben").status_code == 200
    assert s.choose("Cat", "nominate", "Dan").status_code == 200
    assert s.step() == "dm_next"
    return s


def phase(s: Season, token: str | None = None) -> dict[str, Any]:
    view = s.get(token or s.host)
    out: dict[str, Any] = view["phase"]
    out["paused"] = view["paused"]
    out["step"] = view["state"]["step"]
    return out


def test_se7_a_paused_step_does_not_run_out(client: TestClient) -> None:
    s = to_gift(client)
    old = phase(s)["deadline"]
    assert old == pytest.approx(CLOCK.now() + STEP, abs=5)
    s.ok("pause")
    later(client, 10 * 86400)  # ten days on: far past the old deadline
    now = phase(s, s.players["Ann"])
    assert now["step"] == "gift" and now["paused"] and now["next_deadline"] is None
    s.ok("resume")
    now = phase(s, s.spectator)
    assert now["step"] == "gift" and not now["paused"]
    assert now["deadline"] == pytest.approx(old + 10 * 86400, abs=5)  # the pause did not count
    # Only the host's link pauses a step.
    refused(s.post("host/pause", s.players["Ann"], {}), status=403)
    refused(s.match_post("host/pause", s.players["Ann"], {}), status=403)
    # Unpaused, the same step runs out: a gift drawn from the season's chance (SE-7).
    later(client, STEP + 1)
    state = s.wait_step("gift")["state"]
    assert state["episodes"][0]["gift"] == "Ben" and "clock ran out" in \
        state["episodes"][0]["gift_how"]


def test_se7_extend_by_ten_minutes_and_a_clock_time(client: TestClient) -> None:
    s = to_gift(client)
    assert s.choose("Ann", "gift", "Ben").status_code == 200
    before = phase(s)
    assert before["step"] == "nominate"
    s.ok("extend", {"seconds": 600})
    assert phase(s)["deadline"] == pytest.approx(before["deadline"] + 600)
    # A clock time with its offset: stored as that moment and shown to every reader.
    when = datetime.fromtimestamp(int(CLOCK.now()) + 3 * 86400, UTC).astimezone()
    s.ok("deadline", {"at": when.isoformat()})
    for token in (s.players["Dan"], s.players["Cat"], s.spectator, None):
        assert s.get(token)["phase"]["deadline"] == when.timestamp()
    assert client.get(f"/s/{s.id}", params={"token": s.players["Cat"]}).status_code == 200
    for body in ({"at": "Friday 20:00"}, {"at": "2030-05-17T20:00"}, {},
                 {"at": CLOCK.now() - 60}):
        body_text = refused(s.host_act("deadline", body))
        assert body_text["rule"] in ("SE-7", "host"), body_text
    refused(s.host_act("extend", {"seconds": -60}), "SE-7")
    refused(s.host_act("extend", {"seconds": 367 * 86400}), "SE-7")
    assert phase(s)["deadline"] == when.timestamp()  # nothing refused changed it


def test_se7_a_death_match_takes_the_lobbys_options(client: TestClient) -> None:
    s = to_dm_next(client)
    for body, field in (({"settings": {"time_scale": "fast"}}, "time_scale"),
                        ({"settings": {"bot_pace": "slow"}}, "bot_pace"),
                        ({"settings": {"colour": 1}}, "colour"),
                        ({"config": {"rounds": -1}}, "rounds"),
                        ({"config": {"rounds": 1}, "settings": {"time_scale": 0.00001}},
                         "time_scale")):
        err = refused(s.host_act("start_death", {"game": "lockmaker", **body}))
        assert field in err["error"], err
        assert s.step() == "dm_next"  # nothing started
    s.ok("start_death", {"game": "lockmaker", "settings": {"time_scale": 0.5,
                                                           "bot_pace": "human"},
                         "config": {"rounds": 2}, "levels": ["easy", "normal"]})
    s.made("e1-dm")
    record = client.app.state.matches.owners[f"{s.id}-e1-dm"].record  # type: ignore[attr-defined]
    assert record.settings["time_scale"] == 0.5 and record.settings["bot_pace"] == "human"
    assert record.settings["parent"] == {"id": s.id, "key": "e1-dm"}
    assert record.config["rounds"] == 2 and record.seat_names == ("Cat", "Dan")
    assert s.step() == "dm_play"


def test_se7_while_a_match_is_played_its_clock_is_the_steps(client: TestClient) -> None:
    s = to_dm_next(client)
    s.ok("start_death", {"game": "boxes", "config": {"bouts": 2}})
    dm, dm_host = s.made("e1-dm")
    # The season waits for the match without a clock of its own (no time limit) ...
    assert phase(s)["deadline"] is None
    err = refused(s.match_post("host/extend", s.host, {"seconds": 60}), "host")
    assert "no time limit" in err["error"]
    # ... and its clock controls work the match's clock.
    before = client.get(f"/api/matches/{dm}/view", params={"token": dm_host}).json()["phase"]
    assert s.ok("extend", {"seconds": 600})["match"] == dm
    after = client.get(f"/api/matches/{dm}/view", params={"token": dm_host}).json()["phase"]
    assert after["deadline"] == pytest.approx(before["deadline"] + 600)
    assert s.ok("pause")["match"] == dm
    assert client.get(f"/api/matches/{dm}/view", params={"token": dm_host}).json()["paused"]
    assert s.ok("resume")["match"] == dm
    s.ok("record_death", {"loser": "Dan", "reason": "the test is done with it"})


def test_se7_a_deadline_to_start_the_death_match_starts_one(client: TestClient) -> None:
    s = to_dm_next(client)
    assert phase(s)["deadline"] == pytest.approx(CLOCK.now() + STEP, abs=5)  # SE-7's default
    s.ok("deadline", {"at": int(CLOCK.now()) + 3600})
    assert phase(s)["deadline"] == int(CLOCK.now()) + 3600
    later(client, 7200)
    state = s.wait_step("dm_next")["state"]
    assert state["step"] in ("dm_play", "dm_decide", "main_next")
    ep = state["episodes"][-1]
    assert ep["death_match"]["game"] in state["death_games"]
    assert any("SE-7" in note for note in ep["notes"])
    assert ep["death_match"]["seats"] == ["Cat", "Dan"]


def test_a_step_that_waits_for_the_host_has_its_clock_too(client: TestClient) -> None:
    """SE-7 for the host's own steps: the Main Match not started by its deadline starts with
    SE-1's players."""
    s = create(client)
    assert phase(s)["deadline"] == pytest.approx(CLOCK.now() + STEP, abs=5)
    later(client, STEP + 1)
    state = s.wait_step("main_next")["state"]
    assert state["episodes"][0]["players"] == CAST  # four still in: all of them play
    s.ok("end", {"reason": "done"})
