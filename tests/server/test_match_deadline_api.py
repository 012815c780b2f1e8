"""SE-7 made the match clock: ``POST /api/matches/{id}/host/deadline`` sets when the current
phase ends as a clock time, epoch seconds or ISO 8601 with its UTC offset, after now and at
most 366 days on; ``host/extend`` takes up to 366 days. Every reader's view shows the new
deadline; a bad body is refused naming the field, a bad moment naming the bound, another
link is refused; nothing refused is logged. The server's clock is frozen
(``test_sealed_everywhere``'s), so every moment below is exact."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from server.test_sealed_everywhere import CLOCK, TestClient, World, client

__all__ = ["client"]  # the module's fixture, shared
DAY = 86400.0
YEAR = 366 * DAY


def phase(w: World, token: str) -> dict[str, Any]:
    view = json.loads(w.get("/view", token)[1])
    assert view["phase"] is not None, view
    out: dict[str, Any] = view["phase"]
    out["paused"] = view["paused"]
    return out


def version(w: World) -> int:
    return int(json.loads(w.get("/events", w.host)[1])["version"])


def test_a_clock_time_is_every_readers_deadline(client: TestClient) -> None:
    CLOCK.set(CLOCK.now() + 1)
    w = World(client, "paint", 21)
    now = CLOCK.now()
    code, body = w.post("host/deadline", w.host, {"at": now + 3 * DAY})
    assert code == 200, body
    for token in (w.host, w.spectator, *w.seats):
        assert phase(w, token)["deadline"] == now + 3 * DAY
    # ISO 8601 with an offset is that moment, whatever the zone it is written in.
    when = datetime.fromtimestamp(int(now) + 2 * DAY, UTC).astimezone(
        timezone(timedelta(hours=-5, minutes=-30)))
    code, body = w.post("host/deadline", w.host, {"at": when.isoformat()})
    assert code == 200, body
    assert phase(w, w.seats[0])["deadline"] == when.timestamp()
    zulu = datetime.fromtimestamp(int(now) + DAY, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert w.post("host/deadline", w.host, {"at": zulu})[0] == 200
    assert phase(w, w.spectator)["deadline"] == int(now) + DAY
    # The spectator's log says so (a public entry): the moment and the resulting deadline.
    events = json.loads(w.get("/events", w.spectator)[1])["events"]
    last = [e for e in events if e["kind"] == "deadline"][-1]
    assert last["data"] == {"at": int(now) + DAY, "deadline": int(now) + DAY,
                            "resumed": False}


def test_a_paused_match_runs_again(client: TestClient) -> None:
    CLOCK.set(CLOCK.now() + 1)
    w = World(client, "paint", 22)
    assert w.post("host/pause", w.host, {})[0] == 200
    assert phase(w, w.host)["paused"] is True
    code, body = w.post("host/deadline", w.host, {"at": CLOCK.now() + 600})
    assert code == 200, body
    now = phase(w, w.host)
    assert now["paused"] is False and now["next_deadline"] == CLOCK.now() + 600


def test_bad_bodies_name_the_field_and_bad_moments_the_bound(client: TestClient) -> None:
    CLOCK.set(CLOCK.now() + 1)
    w = World(client, "paint", 23)
    before, deadline = version(w), phase(w, w.host)["deadline"]
    now = CLOCK.now()
    naive = datetime.fromtimestamp(int(now) + DAY).isoformat()
    for bad, words in (({"at": naive}, "field 'at' needs its UTC offset"),
                       ({"at": "Friday 20:00"}, "field 'at' must be epoch seconds or an ISO "
                                                "8601 time"),
                       ({"at": ""}, "field 'at' must be epoch seconds"),
                       ({"at": "2030-02-30T20:00+02:00"}, "field 'at' must be epoch seconds"),
                       ({"at": "x" * 65}, "field 'at'"),
                       ({"at": True}, "field 'at' must be a number"),
                       ({"at": None}, "field 'at' must be a number"),
                       ({}, "field 'at' is required"),
                       ({"at": now + DAY, "when": 1}, "unknown field 'when'")):
        code, body = w.post("host/deadline", w.host, bad)
        assert 400 <= code < 500 and words in body["error"], (bad, body)
    for at in (now, now - 1, now + YEAR + 1):
        code, body = w.post("host/deadline", w.host, {"at": at})
        assert code == 422 and body["rule"] == "host" and "366 days" in body["error"], body
    assert w.post("host/deadline", w.host, {"at": now + YEAR})[0] == 200  # the bound itself
    assert version(w) == before + 1
    assert deadline != now + YEAR and phase(w, w.host)["deadline"] == now + YEAR


def test_only_the_host_link_sets_it(client: TestClient) -> None:
    CLOCK.set(CLOCK.now() + 1)
    w = World(client, "paint", 24)
    before = version(w)
    for token in (w.seats[0], w.spectator):
        code, body = w.post("host/deadline", token, {"at": CLOCK.now() + 60})
        assert code == 403, body
    r = client.post(f"/api/matches/{w.id}/host/deadline", json={"at": CLOCK.now() + 60})
    assert r.status_code == 401, r.text
    assert version(w) == before


def test_extend_takes_up_to_366_days(client: TestClient) -> None:
    CLOCK.set(CLOCK.now() + 1)
    w = World(client, "paint", 25)
    deadline = phase(w, w.host)["deadline"]
    code, body = w.post("host/extend", w.host, {"seconds": YEAR + 1})
    assert code == 422 and "'seconds'" in body["error"] and "31622400" in body["error"], body
    code, body = w.post("host/extend", w.host, {"seconds": YEAR})
    assert code == 200, body
    assert phase(w, w.host)["deadline"] == deadline + YEAR
