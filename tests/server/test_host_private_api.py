"""G-13 as extended, over the API: the host's private channel with one seat. In two matches
played alike, the host opens a private channel with seat A and talks there in one of them
only; every byte seat B and a spectator can obtain (view, events, every replay version, the
page, the socket) is the same in both, while the match runs and after a revealing end. Seat A
reads it, titled "Host (private)"; seat A may also open it itself (``POST .../private`` with
its own link) and write first, and nobody else learns of that either; only the host closes
it; bad input names the rule."""

from __future__ import annotations

import json
from typing import Any

from server.test_sealed_everywhere import (
    CLOCK,
    TestClient,
    World,
    _first_difference,
    _reader_bytes,
    client,
)

__all__ = ["client"]  # the module's fixture, shared
SECRET = "between us: your lock was the best"


def _reads(w: World, token: str) -> list[str]:
    """What a reader obtains from a finished match (no posting: its chat is closed)."""
    out: list[Any] = []
    status, view = w.get("/view", token)
    out.append((status, view))
    last = json.loads(view)["version"]
    for since in (0, 1, last - 1, last, last + 1):
        out.append(w.get("/events", token, since=since))
    for version in (0, *range(1, last + 2)):
        out.append(w.get("/replay", token, version=version))
    out.append(w.get("", token))
    page = w.client.get(f"/m/{w.id}", params={"token": token})
    out.append((page.status_code, page.text))
    with w.client.websocket_connect(f"/ws/{w.id}?token={token}&since=0") as ws:
        out.append(ws.receive_text())
        out.append(ws.receive_text())
    return [w.normalise(json.dumps(x, sort_keys=True)) for x in out]


def _same(x: list[str], y: list[str]) -> None:
    assert len(x) == len(y)
    for a, b in zip(x, y, strict=True):
        assert a == b, _first_difference(a, b)


def test_only_the_host_and_that_seat_know_of_it(client: TestClient) -> None:
    CLOCK.set(CLOCK.now() + 1)
    talked, quiet = World(client, "paint", 11), World(client, "paint", 11)
    code, body = talked.post("host/private", talked.host, {"seat": 0, "open": True})
    assert code == 200, body
    channel = "host-private-0"
    assert talked.post("chat", talked.host, {"channel": channel, "text": SECRET})[0] == 200
    assert talked.post("chat", talked.seats[0], {"channel": channel, "text": "thanks"})[0] == 200

    # Seat A reads it, titled for it; the host's view names the seat.
    view_a = json.loads(talked.get("/view", talked.seats[0])[1])
    assert [c["title"] for c in view_a["chat"] if c["id"] == channel] == ["Host (private)"]
    assert SECRET in talked.get("/events", talked.seats[0])[1]
    view_h = json.loads(talked.get("/view", talked.host)[1])
    assert [c["title"] for c in view_h["chat"] if c["id"] == channel] == ["Private: Ann"]

    # Seat B and a spectator: not a byte differs from the match where nothing was said.
    for w_t, w_q, token_t, token_q, seat in (
            (talked, quiet, talked.spectator, quiet.spectator, None),
            (talked, quiet, talked.seats[1], quiet.seats[1], 1)):
        _same(_reader_bytes(w_t, token_t, seat, None), _reader_bytes(w_q, token_q, seat, None))
    # A stranger posting there is told the same as for a channel that does not exist.
    code, body = talked.post("chat", talked.seats[1], {"channel": channel, "text": "hi"})
    code_q, body_q = quiet.post("chat", quiet.seats[1], {"channel": channel, "text": "hi"})
    assert (code, body) == (code_q, body_q) and code == 422, body
    assert "G-13" in body["error"]

    # After a revealing end (G-9) the conversation stays between the two.
    for w in (talked, quiet):
        assert w.post("host/end", w.host, {})[0] == 200
    for token_t, token_q in ((talked.spectator, quiet.spectator),
                             (talked.seats[1], quiet.seats[1])):
        _same(_reads(talked, token_t), _reads(quiet, token_q))
    assert SECRET in talked.get("/events", talked.seats[0])[1]


def test_bad_requests_name_the_rule(client: TestClient) -> None:
    CLOCK.set(CLOCK.now() + 1)
    w = World(client, "paint", 12)
    code, body = w.post("host/private", w.seats[0], {"seat": 1})
    assert code == 403, body
    for bad in ({"seat": "x"}, {"seat": 9}, {}, {"seat": 0, "open": "yes"}):
        code, body = w.post("host/private", w.host, bad)
        assert 400 <= code < 500, (bad, body)
        assert "G-13" in body["error"] or "'open'" in body["error"], body
    assert w.post("host/private", w.host, {"seat": 1})[0] == 200
    code, body = w.post("host/private", w.host, {"seat": 1, "open": True})
    assert code == 422 and "G-13" in body["error"] and "already open" in body["error"], body
    assert w.post("host/private", w.host, {"seat": 1, "open": False})[0] == 200


def test_a_player_writes_to_the_host_first(client: TestClient) -> None:
    """G-13: either of the two may open it. Seat A opens its channel with its own link and
    writes first; the host's view then lists it; seat B and a spectator read the same bytes
    as in the match where nothing happened."""
    CLOCK.set(CLOCK.now() + 1)
    talked, quiet = World(client, "paint", 13), World(client, "paint", 13)
    channel = "host-private-0"
    code, body = talked.post("private", talked.seats[0], {"open": True})
    assert code == 200 and body["channel"] == channel, body
    code, body = talked.post("chat", talked.seats[0], {"channel": channel, "text": SECRET})
    assert code == 200, body
    view_h = json.loads(talked.get("/view", talked.host)[1])
    assert [c["title"] for c in view_h["chat"] if c["id"] == channel] == ["Private: Ann"]
    events_h = json.loads(talked.get("/events", talked.host)[1])["events"]
    opened = [e for e in events_h if e["kind"] == "private"]
    assert [(e["data"]["by"], e["to"]) for e in opened] == [(0, [0])]
    assert SECRET in json.dumps(events_h)
    assert talked.post("chat", talked.host, {"channel": channel, "text": "noted"})[0] == 200
    for token_t, token_q, seat in ((talked.spectator, quiet.spectator, None),
                                   (talked.seats[1], quiet.seats[1], 1)):
        _same(_reader_bytes(talked, token_t, seat, None),
              _reader_bytes(quiet, token_q, seat, None))


def test_the_players_route_takes_only_its_own_seat_and_names_the_rule(
        client: TestClient) -> None:
    CLOCK.set(CLOCK.now() + 1)
    w = World(client, "paint", 14)
    version = json.loads(w.get("/events", w.host)[1])["version"]
    # Only a seat's link opens its channel: the host has host/private, a spectator none.
    for token in (w.host, w.spectator):
        code, body = w.post("private", token, {"open": True})
        assert code == 403 and "seat" in body["error"], body
    r = client.post(f"/api/matches/{w.id}/private", params={"token": "nope"}, json={})
    assert r.status_code == 403 and "token" in r.json()["error"], r.text
    r = client.post(f"/api/matches/{w.id}/private", json={})
    assert r.status_code == 401, r.text
    for bad, name in (({"open": "yes"}, "'open'"), ({"open": 1}, "'open'"),
                      ({"seat": 1}, "'seat'"), ({"open": None}, "'open'")):
        code, body = w.post("private", w.seats[0], bad)
        assert 400 <= code < 500 and name in body["error"], (bad, body)
    code, body = w.post("private", w.seats[0], {"open": False})
    assert code == 422 and body["error"] == ("G-13: a seat may open its private channel "
                                             "with the host; only the host closes it"), body
    assert json.loads(w.get("/events", w.host)[1])["version"] == version  # nothing logged
    assert w.post("private", w.seats[1], {})[0] == 200  # the default opens it
    code, body = w.post("private", w.seats[1], {})
    assert code == 422 and "G-13" in body["error"] and "already open" in body["error"], body
    assert w.post("host/private", w.host, {"seat": 1, "open": False})[0] == 200
    assert w.post("private", w.seats[1], {"open": True})[0] == 200  # and again
    assert w.post("host/end", w.host, {})[0] == 200
    code, body = w.post("private", w.seats[0], {})
    assert code == 422 and body["error"].startswith("G-13: the match is over"), body
