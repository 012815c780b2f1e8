"""What the season tests share: a season made and read over the API (in process or against a
real server, both through an httpx-like client), the check that a refusal names its rule, the
clocks a test moves, and the season's stored log replayed beside the live season.

A season is a match of the ``season`` game: ``GET /api/seasons/{id}`` is the match's view of
it (the season's own view under ``state``) plus each reader's links to its matches."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from arena.core.clock import ManualClock
from arena.core.match import INPUT_KINDS, Event, Match, MatchSettings
from arena.season.game import SEASON

FAST = {"time_scale": 0.01, "bot_pace": "instant"}
RULE = re.compile(r"^(SE|LO|G|LM|BX|PF|LF)-\d{1,2}$")
"""A rule id as the refusals name them."""


class Http(Protocol):
    def get(self, url: str, **kw: Any) -> Any: ...
    def post(self, url: str, **kw: Any) -> Any: ...


class Season:
    """One season over the API: its id and links, its reads and its posts."""

    def __init__(self, http: Http, created: dict[str, Any], base: str = "") -> None:
        self.http = http
        self.base = base
        self.created = created
        self.id: str = created["id"]
        self.host: str = created["tokens"]["host"]
        self.players: dict[str, str] = created["tokens"]["players"]
        self.spectator: str = created["tokens"]["spectator"]

    @classmethod
    def create(cls, http: Http, body: dict[str, Any], base: str = "") -> Season:
        r = http.post(base + "/api/seasons", json=body)
        assert r.status_code == 201, r.text
        return cls(http, r.json(), base)

    # ------------------------------------------------------------------ reads
    def get(self, token: str | None = None) -> dict[str, Any]:
        """The season as ``token`` reads it (none: the public)."""
        r = self.http.get(f"{self.base}/api/seasons/{self.id}",
                          params={"token": token} if token else {})
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def state(self, token: str | None = None) -> dict[str, Any]:
        state: dict[str, Any] = self.get(token)["state"]
        return state

    def step(self) -> str:
        return str(self.state(self.host)["step"])

    def events(self, token: str, since: int = 0) -> list[dict[str, Any]]:
        r = self.http.get(f"{self.base}/api/matches/{self.id}/events",
                          params={"token": token, "since": since})
        assert r.status_code == 200, r.text
        events: list[dict[str, Any]] = r.json()["events"]
        return events

    def acts(self, name: str) -> list[dict[str, Any]]:
        """The act entries of ``name`` in the season's log (the host reads them)."""
        return [e["data"] for e in self.events(self.host)
                if e["kind"] == "act" and e["data"]["name"] == name]

    def child(self, key: str) -> tuple[str, str]:
        """The id of the season's match ``key`` (like ``e1-mm``) and its host's token."""
        links = self.get(self.host)["links"]
        assert key in links and "host" in links[key], links
        return f"{self.id}-{key}", links[key]["host"].split("token=")[1]

    def made(self, key: str) -> tuple[str, str]:
        """The season's match ``key`` once the server has made and holds it (its links
        appear then): its id and its host's token."""
        self.wait(lambda st: "host" in self.get(self.host)["links"].get(key, {}))
        return self.child(key)

    def wait(self, done: Callable[[dict[str, Any]], bool],
             token: str | None = None) -> dict[str, Any]:
        """The season's view once ``done`` holds for its state (the bots and the matches it
        runs move it on their own); the suite's timeout guards a hang, never the wall clock."""
        while True:
            view = self.get(token or self.host)
            if done(view["state"]):
                return view
            time.sleep(0.05)

    def wait_step(self, *leave: str) -> dict[str, Any]:
        """The season's view once its step is none of ``leave``."""
        return self.wait(lambda s: s["step"] not in leave)

    # ------------------------------------------------------------------ posts
    def post(self, path: str, token: str | None, body: dict[str, Any]) -> Any:
        return self.http.post(f"{self.base}/api/seasons/{self.id}/{path}",
                              params={"token": token} if token else {}, json=body)

    def host_act(self, action: str, body: dict[str, Any] | None = None) -> Any:
        return self.post(f"host/{action}", self.host, body or {})

    def ok(self, action: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        r = self.host_act(action, body)
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def choose(self, who: str, verb: str, name: str) -> Any:
        """A player's vote, gift or nomination from their own season link."""
        key = {"vote": "ec", "gift": "to", "nominate": "dmo"}[verb]
        return self.post(verb, self.players[who], {key: name})

    def neutral(self, text: str) -> str:
        """``text`` with the season's id, the name made of it and its links put aside: what
        two seasons of the same seed legitimately differ in."""
        for secret in (self.id, self.host, self.spectator, *self.players.values()):
            text = text.replace(secret, "<id>")
        return text.replace(f"Season {self.id[:6]}", "Season <id>")

    def match_post(self, path: str, token: str, body: dict[str, Any],
                   match_id: str | None = None) -> Any:
        return self.http.post(f"{self.base}/api/matches/{match_id or self.id}/{path}",
                              params={"token": token}, json=body)


def refused(r: Any, rule: str | None = None, status: int = 422) -> dict[str, Any]:
    """The refusal's body, after checking its status and (when given) the rule it names."""
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    if rule is not None:
        assert body.get("rule") == rule, r.text
    return body


def check_answer(r: Any, what: str) -> None:
    """200, or a 4xx whose body says why and names the rule (or the API's own check) that
    refused it; never a 5xx."""
    assert r.status_code < 500, f"{what}: {r.status_code} {r.text}"
    if r.status_code >= 400:
        data = r.json()
        assert data.get("error"), f"{what}: {r.text}"
        if r.status_code == 422:
            rule = str(data.get("rule"))
            assert RULE.match(rule) or rule in ("host", "api"), f"{what}: {r.text}"


FIVE = ["Ann", "Ben", "Cat", "Dan", "Eve"]


def two_recorded_episodes(s: Season) -> None:
    """Two episodes of a season of :data:`FIVE` (people, no bots), results recorded by hand
    (SE-2, SE-4) and every choice made from the players' links. Episode 1: Ann (5 bars, the
    opal) and Ben (3 bars) escape, the trapped vote Eve the Elimination Candidate, Ann gives
    her Token of Life to Ben, Eve nominates Dan, who loses at Chess. Episode 2: Cat (4 bars)
    and Eve (2) escape, Ann is the EC named in the record, Cat gives her token to Eve, Ann
    nominates Cat and beats her. In episode 3 the host takes one of Ann's garnets (SE-5)."""
    def at(step: str) -> None:
        s.wait(lambda st: st["step"] == step)

    def choose(who: str, verb: str, name: str) -> None:
        r = s.choose(who, verb, name)
        assert r.status_code == 200, r.text

    s.ok("record_main", {"reason": "played on the stage", "result": {
        "escaped": ["Ann", "Ben"], "trapped": ["Cat", "Dan", "Eve"],
        "bars": {"Ann": 5, "Ben": 3}, "opal": "Ann"}})
    at("vote")
    for voter, target in (("Cat", "Eve"), ("Dan", "Eve"), ("Eve", "Cat")):
        choose(voter, "vote", target)
    at("gift")
    choose("Ann", "gift", "Ben")
    at("nominate")
    choose("Eve", "nominate", "Dan")
    at("dm_next")
    s.ok("record_death", {"loser": "Dan", "game": "Chess", "reason": "played at the club"})
    at("main_next")
    s.ok("record_main", {"reason": "stage two", "result": {
        "escaped": ["Cat", "Eve"], "trapped": ["Ann", "Ben"], "bars": {"Cat": 4, "Eve": 2},
        "ec": "Ann"}})
    at("gift")
    choose("Cat", "gift", "Eve")
    at("nominate")
    choose("Ann", "nominate", "Cat")
    at("dm_next")
    s.ok("record_death", {"winner": "Ann", "reason": "a coin, watched by all"})
    at("main_next")
    s.ok("adjust", {"player": "Ann", "what": "garnets", "amount": -1,
                    "reason": "spent on a hint"})


def by_name(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["name"]: s for s in state["standings"]}


# ---------------------------------------------------------------------- replay
def stored_inputs(stored: Iterable[Event]) -> list[Event]:
    return [e for e in stored if e.kind in INPUT_KINDS]


def replayed(record: Any, stored: list[Event]) -> Match:
    """The season its stored log describes (core ``Match.replay`` with ``SEASON``), brought
    to the log's last entry, as a restarted server rebuilds it."""
    started = stored[0]
    until = stored[-1].t
    return Match.replay(SEASON, SEASON.make_config(record.config), record.seed,
                        MatchSettings.from_json(record.settings), started.t,
                        stored_inputs(stored), ManualClock(until), until=until,
                        names=record.seat_names)


async def stored_and_live(app: Any, season_id: str) -> tuple[Match, Any, list[Event]]:
    """Under the season's lock (its clock and bots wait): the season replayed from the store,
    the live state, and the live log."""
    matches = app.state.matches
    owner = matches.owners[season_id]
    async with owner.lock:
        stored = await matches.store.events(season_id)
        return replayed(owner.record, stored), owner.match.state, list(owner.match.log)


def assert_replays(client: Any, season_id: str) -> None:
    """The season's stored log replays to the very season in memory (state and log)."""
    rebuilt, state, log = client.portal.call(stored_and_live, client.app, season_id)
    assert rebuilt.state == state
    assert [e.to_json() for e in rebuilt.log] == [e.to_json() for e in log]


class Shifted:
    """The server's clock, moved forward by a test (never back): deadlines the move passes
    are due at once, once the match is woken (:func:`wake`)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return time.time() + self.offset


async def _wake_all(app: Any) -> None:
    for owner in list(app.state.matches.owners.values()):
        owner.wake()


def wake(client: Any) -> None:
    """Every match in memory looks at its clock again (after a :class:`Shifted` move)."""
    client.portal.call(_wake_all, client.app)


def frozen_clock(patch: Any, clock: ManualClock | Shifted) -> None:
    """Every match the server makes or loads (seasons and their matches) runs on ``clock``."""
    import types

    from arena.server import children, creating, rebuild

    for module in (creating, rebuild, children):
        patch.setattr(module, "SystemClock", lambda: clock)
        patch.setattr(module, "time", types.SimpleNamespace(
            time=clock.now, monotonic=time.monotonic, sleep=time.sleep,
            perf_counter=time.perf_counter))


def unlimited(patch: Any) -> None:
    """No rate limit of the API holds a test back (a property test is one busy client)."""
    from arena.server import api
    from arena.server.limits import RateLimit

    for name, value in list(vars(api).items()):
        if isinstance(value, RateLimit):
            patch.setattr(api, name, RateLimit(10**9, 10**9, value.what))
