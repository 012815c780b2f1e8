"""G-13 in a season: the host and any player of the cast have a private channel for the whole
season, not only inside a match, and either of the two may open it by writing first. Only the
two of them read it: another player and the public get the same bytes from the season's API,
the match API under its id, its page and its socket whether or not the host talked privately
with Ann (the version they are shown counts only what they may read, G-10); the lines are
kept with the season (a new server on the same database rebuilds them from its log). In
process, on a clock that stands still, so that two seasons share every timestamp."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.core.clock import ManualClock
from server.inprocess import TestClient, in_process_server
from server.seasonkit import Season, frozen_clock, refused

CAST = ["Ann", "Ben", "Cat", "Dan"]
CLOCK = ManualClock(1_900_000_000.0)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = tmp_path_factory.mktemp("season-private")
    return path


def server(folder: Path) -> Any:
    patch = pytest.MonkeyPatch()
    frozen_clock(patch, CLOCK)
    return in_process_server(folder, patch)


@pytest.fixture
def client(folder: Path) -> Iterator[TestClient]:
    CLOCK.set(CLOCK.now() + 1)  # each test's seasons are made at a moment of their own
    with server(folder) as c:
        yield c


def create(client: TestClient) -> Season:
    return Season.create(client, {"cast": CAST, "seed": 9, "step_seconds": 3600})


def say(s: Season, token: str, body: dict[str, Any]) -> Any:
    return s.post("private", token, body)


def private_lines(s: Season, token: str) -> list[tuple[str, Any, str]]:
    """The private lines ``token`` reads: (channel, who wrote, text), in order."""
    return [(e["data"]["channel"], e["data"]["from"], e["data"]["text"])
            for e in s.events(token) if e["kind"] == "chat"
            and e["data"]["channel"].startswith("host-private-")]


def readings(client: TestClient, s: Season, token: str | None) -> list[str]:
    """What one reader obtains (the season's API, the match API under its id, the pages, the
    socket), with the season's id and links made neutral."""
    params = {"token": token} if token else {}
    out: list[Any] = []
    for path in (f"/api/seasons/{s.id}", f"/s/{s.id}"):
        r = client.get(path, params=params)
        assert r.status_code == 200, r.text
        out.append(r.text)
    if token:
        for path in ("view", "events", "replay"):
            r = client.get(f"/api/matches/{s.id}/{path}", params=params)
            assert r.status_code == 200, r.text
            out.append(r.text)
        with client.websocket_connect(f"/ws/{s.id}?token={token}&since=0") as ws:
            out.append(ws.receive_text())  # hello
            out.append(ws.receive_text())  # the update bringing it to now
    return [s.neutral(json.dumps(out))]


def test_only_the_host_and_the_player_read_their_private_channel(client: TestClient) -> None:
    quiet, talked = create(client), create(client)
    ann, ben = talked.players["Ann"], talked.players["Ben"]
    # The host opens Ann's channel by writing first; she answers.
    r = say(talked, talked.host, {"player": "Ann", "text": "Confessional: <b>how</b> was it?"})
    assert r.status_code == 200, r.text
    assert say(talked, ann, {"text": "Ben is lying."}).status_code == 200
    # Dan opens his own by writing first (G-13: either of the two may).
    assert say(talked, talked.players["Dan"], {"text": "a word, host?"}).status_code == 200
    # Nobody else writes in it, nor in a channel that is not theirs.
    refused(say(talked, ben, {"player": "Ann", "text": "me too"}), status=403)
    refused(say(talked, talked.spectator, {"player": "Ann", "text": "spectator"}),
            status=403)
    refused(say(talked, "", {"player": "Ann", "text": "nobody"}), status=401)
    for bad in ({"player": "Zed", "text": "x"}, {"player": "Ann", "text": ""},
                {"player": "Ann", "text": "x" * 501}, {"player": "Ann"}, {"text": "who?"}):
        refused(say(talked, talked.host, bad), "G-13")
    # The host reads every channel, Ann and Dan their own; each in order, as written.
    ann_lines = [("host-private-0", "host", "Confessional: <b>how</b> was it?"),
                 ("host-private-0", 0, "Ben is lying.")]
    assert private_lines(talked, ann) == ann_lines
    assert private_lines(talked, talked.players["Dan"]) == [
        ("host-private-3", 3, "a word, host?")]
    assert private_lines(talked, talked.host) == [*ann_lines,
                                                  ("host-private-3", 3, "a word, host?")]
    host_view = talked.get(talked.host)
    titles = {c["id"]: c["title"] for c in host_view["chat"]}
    assert titles["host-private-0"] == "Private: Ann" and titles["host-private-3"] == "Private: Dan"
    assert [c["title"] for c in talked.get(ann)["chat"] if c["id"].startswith("host-")] == [
        "Host (private)"]
    # Ben, Cat and the public read exactly what they read in a season where nobody talked.
    for name in ("Ben", "Cat"):
        assert readings(client, talked, talked.players[name]) == \
            readings(client, quiet, quiet.players[name])
    for t_token, q_token in ((talked.spectator, quiet.spectator), (None, None)):
        assert readings(client, talked, t_token) == readings(client, quiet, q_token)
    # The comparison is not blind: Ann's own readings do differ.
    assert readings(client, talked, ann) != readings(client, quiet, quiet.players["Ann"])
    for token in (ben, talked.spectator, None):
        for text in readings(client, talked, token):
            assert "Confessional" not in text and "lying" not in text and "a word" not in text


def test_the_private_channel_is_kept_with_the_season(folder: Path) -> None:
    CLOCK.set(CLOCK.now() + 1)
    with server(folder) as c:
        s = create(c)
        public = s.get(s.spectator)["version"]
        assert say(s, s.host, {"player": "Cat", "text": "kept?"}).status_code == 200
        assert say(s, s.players["Cat"], {"text": "kept."}).status_code == 200
        before = private_lines(s, s.host)
        assert s.get(s.spectator)["version"] == public  # nothing the public may read
    with server(folder) as c:  # a new server on the same database
        s = Season(c, s.created)
        assert private_lines(s, s.players["Cat"]) == before == [
            ("host-private-2", "host", "kept?"), ("host-private-2", 2, "kept.")]
        assert private_lines(s, s.host) == before
        assert private_lines(s, s.players["Ann"]) == []
        assert s.get(s.spectator)["version"] == public
        # The channel is still open: the two go on talking.
        assert say(s, s.players["Cat"], {"text": "still here"}).status_code == 200
        assert private_lines(s, s.host)[-1] == ("host-private-2", 2, "still here")
