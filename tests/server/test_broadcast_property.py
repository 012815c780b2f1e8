"""G-15 as a property over any sequence of play: submissions (sealed ones included), chat,
the host's pause, resume and extend (and, in a season, a Main Match recorded by hand), and
moves of the clock, in every game and in a season.

Two identical matches run side by side on one server and one frozen clock; only the first
has a broadcast open. At chosen moments T the test keeps what the host and every seat read;
when the clock later stands exactly at T + delay, the broadcast must read the same bytes
(the host's view and log, each seat's view, any replay entry, the link preview's picture),
bar the fields that name the reader and its time. Nothing newer reaches it: its log stops
at T. And whatever the broadcast, every seat and the spectators read the same bytes from
both matches.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.core.clock import ManualClock
from arena.core.registry import get_game
from server.inprocess import TestClient, in_process_server
from server.seasonkit import frozen_clock, unlimited

CLOCK = ManualClock(float(int(time.time())))
SEASON = "season"
GAMES = ("lockmaker", "boxes", "paint", "feather", "lockedout", SEASON)
CAST = ["Ann", "Ben", "Cat", "Dan", "Eve"]
# The host records a Main Match played elsewhere (SE-2): the trapped then vote (sealed).
RECORDED = {"escaped": ["Ann"], "trapped": ["Ben", "Cat", "Dan", "Eve"], "bars": {"Ann": 3}}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder: Path = tmp_path_factory.mktemp("broadcast-property")
    patch = pytest.MonkeyPatch()
    unlimited(patch)
    patch.setenv("ARENA_GC_FREEZE", "0")
    frozen_clock(patch, CLOCK)
    with in_process_server(folder, patch) as c:
        yield c


@dataclass
class Kept:
    """What the host and each seat read at one moment, for the broadcast one delay later."""

    t: float
    host_view: dict[str, Any]
    host_events: list[dict[str, Any]]
    seat_views: list[dict[str, Any]]
    card: bytes
    """The link preview's picture a spectator got (G-9)."""


@dataclass
class Pair:
    client: TestClient
    game: str
    delay: float
    a: dict[str, Any] = field(default_factory=dict)  # the match with a broadcast
    b: dict[str, Any] = field(default_factory=dict)  # its twin without one
    token: str = ""
    kept: list[Kept] = field(default_factory=list)
    checked: int = 0
    # each seat's views at the broadcast's entries already checked, by the host's numbering
    past: dict[int, list[str]] = field(default_factory=dict)

    def create(self, seed: int) -> None:
        if self.game == SEASON:
            self.create_seasons(seed)
        else:
            seats = get_game(self.game).seats
            body = {"game": self.game, "seed": seed, "settings": {"time_scale": 1.0},
                    "seats": [{"name": f"P{i + 1}", "bot": False} for i in range(seats)]}
            for name in ("a", "b"):
                r = self.client.post("/api/matches", json=body)
                assert r.status_code == 201, r.text
                setattr(self, name, r.json())
        self.open_broadcast()

    def create_seasons(self, seed: int) -> None:
        """Two seasons of people only: nothing moves but what the test does."""
        body = {"cast": [{"name": n, "bot": False} for n in CAST], "seed": seed,
                "settings": {"time_scale": 1.0}}
        for name in ("a", "b"):
            r = self.client.post("/api/seasons", json=body)
            assert r.status_code == 201, r.text
            made = r.json()
            tokens = made["tokens"]
            made["tokens"] = {"host": tokens["host"], "spectator": tokens["spectator"],
                              "seats": [tokens["players"][n] for n in CAST]}
            setattr(self, name, made)

    def open_broadcast(self) -> None:
        r = self.client.post(f"/api/matches/{self.a['id']}/host/broadcast",
                             params={"token": self.a["tokens"]["host"]},
                             json={"delay": self.delay})
        assert r.status_code == 200, r.text
        self.token = r.json()["token"]

    # ------------------------------------------------------------------ reading
    def get(self, m: dict[str, Any], path: str, token: str, **params: Any) -> Any:
        r = self.client.get(f"/api/matches/{m['id']}{path}", params={"token": token, **params})
        assert r.status_code < 500, r.text
        return r

    def owner(self, m: dict[str, Any]) -> Any:
        return self.client.app.state.matches.owners[m["id"]]  # type: ignore[attr-defined]

    def card(self, token: str) -> bytes:
        r = self.client.get(f"/m/{self.a['id']}/card.png", params={"token": token})
        assert r.status_code == 200, r.text
        return r.content

    def settle(self) -> None:
        """Both matches take every deadline the clock has passed, as their scheduler would."""
        for m in (self.a, self.b):
            owner = self.owner(m)
            self.client.portal.call(owner.command, lambda match: match.advance())

    # ------------------------------------------------------------------ acting
    def both(self, path: str, token_of: Any, body: dict[str, Any]) -> None:
        answers = []
        for m in (self.a, self.b):
            r = self.client.post(f"/api/matches/{m['id']}/{path}",
                                 params={"token": token_of(m)}, json=body)
            assert r.status_code < 500, r.text
            answers.append((r.status_code, r.json().get("error")))
        assert answers[0] == answers[1], (path, body, answers)

    def submit(self, pick: int, final: bool) -> None:
        owner = self.owner(self.a)
        match = owner.match
        waiting = sorted(match.waiting_for())
        if not waiting or match.finished:
            return
        seat = waiting[pick % len(waiting)]
        text = match.game.random_submission(match.state, seat, random.Random(pick))
        if text is None:
            return
        self.both("submit", lambda m: m["tokens"]["seats"][seat],
                  {"text": text, "final": final})

    def chat(self, pick: int) -> None:
        seats = len(self.a["tokens"]["seats"])
        self.both("chat", lambda m: m["tokens"]["seats"][pick % seats],
                  {"channel": "table", "text": f"line {pick}"})

    def host(self, action: str) -> None:
        body = {"seconds": 60} if action == "extend" else {}
        if self.game == SEASON:
            if action == "record":
                action, body = "record_main", RECORDED
            self.both_season(f"host/{action}", lambda m: m["tokens"]["host"], body)
        elif action != "record":
            self.both(f"host/{action}", lambda m: m["tokens"]["host"], body)

    def both_season(self, path: str, token_of: Any, body: dict[str, Any]) -> None:
        answers = []
        for m in (self.a, self.b):
            r = self.client.post(f"/api/seasons/{m['id']}/{path}",
                                 params={"token": token_of(m)}, json=body)
            assert r.status_code < 500, r.text
            answers.append((r.status_code, r.json().get("error")))
        assert answers[0] == answers[1], (path, body, answers)

    def move_clock(self, seconds: float) -> None:
        """Forward, stopping at every moment a kept read comes due for the broadcast."""
        target = CLOCK.now() + seconds
        for kept in sorted(self.kept, key=lambda k: k.t):
            due = kept.t + self.delay
            if CLOCK.now() < due <= target:
                CLOCK.set(due)
                self.settle()
                self.check_due(kept)
        self.kept = [k for k in self.kept if k.t + self.delay > target]
        CLOCK.set(target)
        self.settle()

    # ------------------------------------------------------------------ the properties
    def keep(self) -> None:
        """What the host and each seat read now; the clock then moves on a little, so that
        nothing logged after this read shares its moment."""
        self.settle()
        host = self.a["tokens"]["host"]
        self.kept.append(Kept(
            CLOCK.now(), self.get(self.a, "/view", host).json(),
            self.get(self.a, "/events", host).json()["events"],
            [self.get(self.a, "/view", t).json() for t in self.a["tokens"]["seats"]],
            self.card(self.a["tokens"]["spectator"])))
        self.twins_read_alike()
        CLOCK.set(CLOCK.now() + 0.5)
        self.settle()

    def check_due(self, kept: Kept) -> None:
        view = self.get(self.a, "/view", self.token)
        assert view.status_code == 200, view.text
        got = view.json()
        assert got["role"] == "broadcast" and got["now"] == kept.t
        assert got["broadcast"] == {"delay": self.delay, "as_of": kept.t}
        finished = kept.host_view.get("result") is not None
        if not finished:
            assert got["match"]["seed"] is None
        assert _plain(got) == _plain(kept.host_view)
        # The preview's picture of the broadcast is the spectators' one of that moment.
        assert self.card(self.token) == kept.card
        events = self.get(self.a, "/events", self.token).json()["events"]
        assert events == [e for e in kept.host_events if finished or e["kind"] != "seed"]
        for seat, seat_view in enumerate(kept.seat_views):
            mine = self.get(self.a, "/view", self.token, **{"as": seat}).json()
            assert _plain(mine) == _plain(seat_view), seat
        # A seat's board pinned to an entry the broadcast has passed is that seat's view
        # then, read again now: a page's seat boards stay at its header's moment (G-15).
        now_at = got["version"]
        self.past[now_at] = [_plain(v) for v in kept.seat_views]
        for version, views in self.past.items():
            for seat, then in enumerate(views):
                pinned = self.get(self.a, "/view", self.token, version=version,
                                  **{"as": seat})
                assert pinned.status_code == 200, pinned.text
                assert _plain(pinned.json()) == then, (version, seat)
        for bad in ({"version": now_at + 1, "as": 0}, {"version": 0, "as": 0},
                    {"version": now_at}):
            assert self.get(self.a, "/view", self.token, **bad).status_code == 400, bad
        if events:
            version = events[len(events) // 2]["version"]
            replay = self.get(self.a, "/replay", self.token, version=version).json()
            of_host = self.get(self.a, "/replay", self.a["tokens"]["host"],
                               version=version).json()
            assert _plain(replay) == _plain(of_host)
            beyond = self.get(self.a, "/replay", self.token, version=events[-1]["version"] + 1)
            assert beyond.status_code == 400
        self.checked += 1

    def twins_read_alike(self) -> None:
        """Seats and spectators read the same whether or not a broadcast is open (G-15)."""
        readers = [*zip(self.a["tokens"]["seats"], self.b["tokens"]["seats"], strict=True),
                   (self.a["tokens"]["spectator"], self.b["tokens"]["spectator"])]
        for ta, tb in readers:
            for path in ("/view", "/events"):
                left = self.get(self.a, path, ta).text
                right = self.get(self.b, path, tb).text.replace(self.b["id"], self.a["id"]) \
                    .replace(self.b["id"][:6], self.a["id"][:6])  # a season's default name
                assert left == right, path


def _plain(view: dict[str, Any]) -> str:
    """A view without what names its reader or its time: the rest must match byte for byte."""
    out = {k: v for k, v in view.items() if k not in ("role", "broadcast", "now")}
    out["match"] = {k: v for k, v in view["match"].items() if k != "seed"}
    return json.dumps(out, sort_keys=True)


ACTIONS = st.one_of(
    st.tuples(st.just("submit"), st.integers(0, 99), st.booleans()),
    st.tuples(st.just("chat"), st.integers(0, 99), st.just(False)),
    st.tuples(st.just("host"), st.sampled_from(["pause", "resume", "extend", "record"]),
              st.just(False)),
    st.tuples(st.just("clock"), st.sampled_from([1, 7, 30, 61, 150, 400, 1000]), st.just(False)),
    st.tuples(st.just("keep"), st.just(0), st.just(False)),
)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_a_broadcast_reads_the_host_and_seats_of_one_delay_ago(client: TestClient,
                                                                game: str) -> None:
    checked: list[int] = []

    @settings(max_examples=6, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(seed=st.integers(1, 10**6), delay=st.sampled_from([60.0, 90.0, 300.0]),
           steps=st.lists(ACTIONS, min_size=4, max_size=30))
    def run(seed: int, delay: float, steps: list[tuple[str, Any, bool]]) -> None:
        pair = Pair(client, game, delay)
        pair.create(seed)
        pair.keep()
        for kind, arg, flag in steps:
            if kind == "submit":
                pair.submit(arg, flag)
            elif kind == "chat":
                pair.chat(arg)
            elif kind == "host":
                pair.host(arg)
            elif kind == "clock":
                pair.move_clock(arg)
            else:
                pair.keep()
        pair.keep()
        pair.move_clock(pair.delay + 1)  # every kept read comes due
        pair.twins_read_alike()
        assert not pair.kept
        checked.append(pair.checked)

    run()
    assert sum(checked) >= 2 * len(checked), "the property compared too few moments"
