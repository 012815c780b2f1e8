"""Every write endpoint has a limit, and a match's log has a bound on what its host adds.

One host link once had thousands of pauses and resumes accepted in a minute, each a stored log
entry sent to every page, and hundreds of reissues: nothing counted them. Now every POST
route goes through ``limits.limited`` (the route test below fails for one that does not),
and each limited action, driven past a small limit, answers 429 with ``Retry-After`` and a
message naming the limit and its setting, while its match's (or season's) version and every
row of the database stay as they were. Past ``ARENA_HOST_ENTRIES_MAX`` host entries in a
match's log, host actions that would add one are refused (422, naming the cap), except a
resume and the end; the count is read from the log, so it holds after a restart.

In process (TestClient over SQLite); refills are tested on RateLimit's own clock (``now``),
never by waiting."""

from __future__ import annotations

import sqlite3
import time
import types
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from starlette.exceptions import StarletteDeprecationWarning
from starlette.routing import Route

from arena.core.clock import ManualClock
from arena.core.match import Match, MatchSettings
from arena.core.registry import register
from arena.server import api, extras, season_api
from arena.server.app import create_app
from arena.server.errors import ApiError
from arena.server.limits import RateLimit, count_host_entries, rule_of
from core.toygames import WAIT, WaitConfig
from server.inprocess import in_process_server
from toygame import TOY

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

register(TOY)

BURST = 3
"""The burst every limit under test is given: the first three pass, the fourth is refused."""

HUMANS = [{"name": "Ann", "bot": False}, {"name": "Ben", "bot": False}]
SLOW = {"time_scale": 100.0}
"""Phases a hundred times their length: nothing moves by itself while a test runs."""

CAST = ["Ann", "Ben", "Cat", "Dan"]
MAIN = {"escaped": ["Ann", "Ben"], "trapped": ["Cat", "Dan"], "bars": {"Ann": 5, "Ben": 3},
        "ec": "Cat", "opal": None}
SEASON = {"cast": CAST, "seed": 5, "settings": {"time_scale": 0.01, "bot_pace": "instant"},
          "step_seconds": 100000}

EXEMPT = {"/api/debug/loop": "a diagnostic route, only there with ARENA_LOOP_MONITOR=1 for "
                             "the load bench, that writes nothing"}


@dataclass
class Server:
    client: TestClient
    db: Path

    def dump(self) -> list[str]:
        """Every row of every table: a refused request must store nothing."""
        with sqlite3.connect(self.db) as conn:
            return list(conn.iterdump())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder: Path = tmp_path_factory.mktemp("writes")
    patch = pytest.MonkeyPatch()
    with in_process_server(folder, patch) as client:
        yield Server(client, folder / "arena.db")


@pytest.fixture(autouse=True)
def roomy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Limits no test's setup reaches (each case then narrows the one it drives)."""
    for module, name in LIMITS:
        old: RateLimit = getattr(module, name)
        monkeypatch.setattr(module, name, RateLimit(10**6, 10**6, old.what, old.setting))


LIMITS = [(api, n) for n in ("CREATE_LIMIT", "ACT_LIMIT", "CHAT_LIMIT", "HOST_LIMIT",
                             "LINK_LIMIT", "WEBHOOK_LIMIT", "REMATCH_LIMIT", "NOTES_LIMIT",
                             "STEP_LIMIT")] + \
    [(extras.limits_of("feather"), "SAVE_LIMIT"), (extras.limits_of("feather"), "CHECK_LIMIT")]


# ---------------------------------------------------------------------- the actions
Post = tuple[str, str | None, Any]
"""A request: its path, the token it is sent with, its JSON body."""


@dataclass
class Target:
    posts: list[Post]
    """Sent in turn, over and over: each a write that is accepted in its turn."""
    version: Callable[[], int]


def new_match(c: TestClient, game: str = "toy") -> dict[str, Any]:
    r = c.post("/api/matches", json={"game": game, "seats": HUMANS, "settings": SLOW})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def match_version(c: TestClient, m: dict[str, Any]) -> Callable[[], int]:
    def version() -> int:
        r = c.get(f"/api/matches/{m['id']}/events", params={"token": m["tokens"]["host"]})
        assert r.status_code == 200, r.text
        return int(r.json()["version"])
    return version


def on_match(*posts: tuple[str, Any], game: str = "toy", token: str = "host",
             before: tuple[str, Any] | None = None) -> Callable[[TestClient], Target]:
    """Posts to one new match's ``/api/matches/{id}/<path>`` with its host link (or a seat's,
    ``token="seat0"``); ``before`` is sent once first (ending the match for a rematch)."""
    def make(c: TestClient) -> Target:
        m = new_match(c, game)
        tok = m["tokens"]["host"] if token == "host" else m["tokens"]["seats"][int(token[4:])]
        base = f"/api/matches/{m['id']}/"
        if before is not None:
            r = c.post(base + before[0], params={"token": m["tokens"]["host"]}, json=before[1])
            assert r.status_code == 200, r.text
        return Target([(base + path, tok, body) for path, body in posts], match_version(c, m))
    return make


def new_season(c: TestClient, main: dict[str, Any] = MAIN) -> tuple[str, str, dict[str, str]]:
    r = c.post("/api/seasons", json=SEASON)
    assert r.status_code == 201, r.text
    data = r.json()
    sid, host = data["id"], data["tokens"]["host"]
    r = c.post(f"/api/seasons/{sid}/host/record_main", params={"token": host},
               json={"result": main, "reason": "played on stage"})
    # The season waits for Ann's gift (or, with no EC named, the trapped players' vote): a
    # step with a clock.
    assert r.status_code == 200, r.text
    return sid, host, data["tokens"]["players"]


def on_season(*posts: tuple[str, Any], who: str = "host",
              main: dict[str, Any] = MAIN) -> Callable[[TestClient], Target]:
    def make(c: TestClient) -> Target:
        sid, host, players = new_season(c, main)
        tok = host if who == "host" else players[who]

        def version() -> int:
            r = c.get(f"/api/seasons/{sid}", params={"token": host})
            assert r.status_code == 200, r.text
            return int(r.json()["version"])
        return Target([(f"/api/seasons/{sid}/{path}", tok, body) for path, body in posts],
                      version)
    return make


def anyone(path: str, *bodies: Any) -> Callable[[TestClient], Target]:
    """Posts without a link (limited by address); the version is the number of matches and
    seasons listed."""
    def make(c: TestClient) -> Target:
        def version() -> int:
            return len(c.get("/api/matches").json()) + len(c.get("/api/seasons").json())
        return Target([(path, None, body) for body in bodies], version)
    return make


ADJUST = {"player": "Ann", "what": "garnets", "amount": 1, "reason": "a kind word"}
SCENARIO = {"name": "too-short", "text": "not a scenario"}

CASES: dict[str, tuple[object, str, Callable[[TestClient], Target], str]] = {
    # name: (module, limit, target, the route it drives)
    "pause": (api, "HOST_LIMIT", on_match(("host/pause", {}), ("host/resume", {})),
              "/api/matches/{match_id}/host/{action}"),
    "resume": (api, "HOST_LIMIT", on_match(("host/resume", {}), ("host/pause", {}),
                                           before=("host/pause", {})),
               "/api/matches/{match_id}/host/{action}"),
    "extend": (api, "HOST_LIMIT", on_match(("host/extend", {"seconds": 5})),
               "/api/matches/{match_id}/host/{action}"),
    "deadline": (api, "HOST_LIMIT",
                 on_match(("host/deadline", {"at": time.time() + 30 * 86400}),
                          ("host/deadline", {"at": time.time() + 31 * 86400})),
                 "/api/matches/{match_id}/host/{action}"),
    "end": (api, "HOST_LIMIT", on_match(("host/end", {"reason": "enough"})),
            "/api/matches/{match_id}/host/{action}"),
    "option": (api, "HOST_LIMIT",
               on_match(("host/option", {"name": "odds_helper", "value": True}),
                        ("host/option", {"name": "odds_helper", "value": False}), game="boxes"),
               "/api/matches/{match_id}/host/{action}"),
    "mute": (api, "HOST_LIMIT", on_match(("host/mute", {"channel": "table", "muted": True}),
                                         ("host/mute", {"channel": "table", "muted": False})),
             "/api/matches/{match_id}/host/{action}"),
    "private": (api, "HOST_LIMIT", on_match(("host/private", {"seat": 0, "open": True}),
                                            ("host/private", {"seat": 0, "open": False})),
                "/api/matches/{match_id}/host/{action}"),
    "reissue": (api, "LINK_LIMIT", on_match(("host/reissue", {"seat": 0})),
                "/api/matches/{match_id}/host/reissue"),
    "seat": (api, "LINK_LIMIT", on_match(("host/seat", {"seat": 1, "bot": True}),
                                         ("host/seat", {"seat": 1, "bot": False})),
             "/api/matches/{match_id}/host/seat"),
    "spectators": (api, "HOST_LIMIT", on_match(("host/spectators", {"open": False}),
                                               ("host/spectators", {"open": True})),
                   "/api/matches/{match_id}/host/spectators"),
    # G-15: each accepted one mints or revokes a link (a row of its own, no log entry).
    "broadcast": (api, "LINK_LIMIT", on_match(("host/broadcast", {"delay": 60}),
                                              ("host/broadcast", {"open": False})),
                  "/api/matches/{match_id}/host/broadcast"),
    "webhook": (api, "WEBHOOK_LIMIT", on_match(("host/webhook", {"url": None})),
                "/api/matches/{match_id}/host/webhook"),
    "rematch": (api, "REMATCH_LIMIT", on_match(("host/rematch", {}), before=("host/end", {})),
                "/api/matches/{match_id}/host/rematch"),
    "notes": (api, "NOTES_LIMIT", on_match(("notes", {"notes": "left corner"}),
                                           ("notes", {"notes": "right corner"}), token="seat0"),
              "/api/matches/{match_id}/notes"),
    "submit": (api, "ACT_LIMIT", on_match(("submit", {"text": "nonsense"}), token="seat0"),
               "/api/matches/{match_id}/submit"),
    "confirm": (api, "ACT_LIMIT", on_match(("confirm", {}), token="seat0"),
                "/api/matches/{match_id}/confirm"),
    "chat": (api, "CHAT_LIMIT", on_match(("chat", {"channel": "table", "text": "hello"}),
                                         token="seat0"),
             "/api/matches/{match_id}/chat"),
    # G-13: a seat opens its channel with the host once (then it is open: refused, counted).
    "seat private": (api, "CHAT_LIMIT", on_match(("private", {"open": True}), token="seat0"),
                     "/api/matches/{match_id}/private"),
    "create match": (api, "CREATE_LIMIT",
                     anyone("/api/matches", {"game": "toy", "seats": HUMANS, "settings": SLOW}),
                     "/api/matches"),
    "season pause": (api, "HOST_LIMIT", on_season(("host/pause", {}), ("host/resume", {})),
                     "/api/seasons/{match_id}/host/{action}"),
    "season extend": (api, "HOST_LIMIT", on_season(("host/extend", {"seconds": 60})),
                      "/api/seasons/{match_id}/host/{action}"),
    "season adjust": (api, "HOST_LIMIT", on_season(("host/adjust", ADJUST)),
                      "/api/seasons/{match_id}/host/{action}"),
    "season mm_rounds": (api, "HOST_LIMIT", on_season(("host/mm_rounds", {"max_rounds": 12})),
                         "/api/seasons/{match_id}/host/{action}"),
    "season webhook": (api, "WEBHOOK_LIMIT", on_season(("host/webhook", {"url": None})),
                       "/api/seasons/{match_id}/host/{action}"),
    "season reissue": (api, "LINK_LIMIT", on_season(("host/reissue", {"player": "Ann"})),
                       "/api/seasons/{match_id}/host/{action}"),
    "season private": (api, "CHAT_LIMIT", on_season(("private", {"player": "Ann", "text": "hi"})),
                       "/api/seasons/{match_id}/private"),
    "vote": (api, "STEP_LIMIT", on_season(("vote", {"ec": "Dan"}), who="Cat",
                                          main={k: v for k, v in MAIN.items() if k != "ec"}),
             "/api/seasons/{match_id}/vote"),
    "gift": (api, "STEP_LIMIT", on_season(("gift", {"to": "Ben"}), who="Ann"),
             "/api/seasons/{match_id}/gift"),
    "nominate": (api, "STEP_LIMIT", on_season(("nominate", {"dmo": "Dan"}), who="Cat"),
                 "/api/seasons/{match_id}/nominate"),
    "create season": (api, "CREATE_LIMIT", anyone("/api/seasons", SEASON), "/api/seasons"),
    "save scenario": (extras.limits_of("feather"), "SAVE_LIMIT", anyone("/api/scenarios", SCENARIO),
                      "/api/scenarios"),
    "check scenario": (extras.limits_of("feather"), "CHECK_LIMIT",
                       anyone("/api/scenarios/check", {"text": ""}),
                       "/api/scenarios/check"),
}


def send(c: TestClient, post: Post) -> Any:
    path, token, body = post
    return c.post(path, params={"token": token} if token else {}, json=body)


@pytest.mark.parametrize("name", list(CASES))
def test_past_its_limit_an_action_is_refused_and_nothing_is_logged_or_stored(
        server: Server, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    module, attr, make, _ = CASES[name]
    target = make(server.client)
    real: RateLimit = getattr(module, attr)
    # A rate no test outlives: the refusal below cannot be a token that refilled meanwhile.
    monkeypatch.setattr(module, attr, RateLimit(BURST, 0.001, real.what, real.setting))
    answers = [send(server.client, target.posts[i % len(target.posts)]) for i in range(BURST)]
    assert [r.status_code for r in answers].count(429) == 0, [r.text for r in answers]
    if name not in ("end", "rematch", "vote", "gift", "nominate", "submit", "confirm", "save scenario",
                    "seat private"):
        # Each accepted in its turn: the refused request below is one that would have been.
        assert all(r.status_code in (200, 201) for r in answers), [r.text for r in answers]

    version, rows = target.version(), server.dump()
    refused = send(server.client, target.posts[BURST % len(target.posts)])
    assert refused.status_code == 429, refused.text
    assert int(refused.headers["retry-after"]) >= 1
    error = refused.json()["error"]
    assert error.startswith(f"rate: too many {real.what}; try again in "), error
    assert f"at most {BURST} at once" in error and real.setting in error, error
    assert target.version() == version
    assert server.dump() == rows


def test_every_post_route_is_limited_and_driven_here(tmp_path: Path) -> None:
    """A write endpoint added without ``limits.limited`` (or without a case above that drives
    it past its limit) fails here."""
    app = create_app(f"sqlite:///{tmp_path / 'routes.db'}")  # routes only: never started
    posts = {r.path: r for r in app.routes
             if isinstance(r, Route) and r.methods and "POST" in r.methods}
    assert posts, "no POST route found"
    unlimited = [p for p, r in posts.items() if p not in EXEMPT and rule_of(r.endpoint) is None]
    assert not unlimited, f"POST routes without a write limit: {unlimited}"
    driven = {case[3] for case in CASES.values()}
    assert set(posts) - set(EXEMPT) <= driven, sorted(set(posts) - driven - set(EXEMPT))


def test_the_host_action_route_picks_the_limit_by_action(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """A season's new player link spends the link budget and a webhook change the webhook
    budget, as on a match: the host budget alone would let 30 reissues through at once."""
    def request(action: str) -> Any:
        return types.SimpleNamespace(path_params={"action": action})
    rule = rule_of(season_api.host_action)
    assert rule is not None
    assert rule.limit(request("reissue")) is api.LINK_LIMIT
    assert rule.limit(request("webhook")) is api.WEBHOOK_LIMIT
    assert rule.limit(request("pause")) is api.HOST_LIMIT


# ---------------------------------------------------------------------- the bucket itself
def test_a_refusal_carries_retry_after_and_the_bucket_refills_on_its_own_clock() -> None:
    limit = RateLimit(2, 0.1, "host actions from this link", "ARENA_HOST_LIMIT")
    limit.take("m:host", now=50.0)
    limit.take("m:host", now=50.0)
    with pytest.raises(ApiError) as refused:
        limit.take("m:host", now=50.0)
    assert refused.value.status == 429 and refused.value.retry_after == 10
    assert "(at most 2 at once, then one every 10 s: ARENA_HOST_LIMIT)" in refused.value.message
    with pytest.raises(ApiError):
        limit.take("m:host", now=59.0)  # 0.9 of a token: still refused, and nothing spent
    limit.take("m:host", now=60.0)  # one token back after 10 s
    limit.take("other:host", now=50.0)  # another link's bucket is its own


def test_a_limit_setting_is_read_and_a_bad_one_names_its_variable(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_HOST_LIMIT", "5,0.5")
    limit = RateLimit.from_env("ARENA_HOST_LIMIT", 30, 1.0, "host actions from this link")
    assert (limit.burst, limit.per_second, limit.setting) == (5, 0.5, "ARENA_HOST_LIMIT")
    monkeypatch.setenv("ARENA_HOST_LIMIT", "7")
    assert RateLimit.from_env("ARENA_HOST_LIMIT", 30, 1.0, "x").per_second == 1.0
    for bad in ("lots", "0,1", "5,0", "5,-1", "5,nan", "5,inf"):
        monkeypatch.setenv("ARENA_HOST_LIMIT", bad)
        with pytest.raises(ValueError, match="ARENA_HOST_LIMIT"):
            RateLimit.from_env("ARENA_HOST_LIMIT", 30, 1.0, "x")


# ---------------------------------------------------------------------- host entries per log
CAP = 6


def host_post(c: TestClient, m: dict[str, Any], action: str, body: Any) -> Any:
    return c.post(f"/api/matches/{m['id']}/host/{action}", params={"token": m["tokens"]["host"]},
                  json=body)


def pause_resume_to_the_cap(c: TestClient, m: dict[str, Any]) -> None:
    """Pauses and resumes until the log holds CAP host entries, ending paused."""
    for i in range(CAP - 1):
        r = host_post(c, m, "pause" if i % 2 == 0 else "resume", {})
        assert r.status_code == 200, r.text
    r = host_post(c, m, "extend", {"seconds": 5})  # the CAP-th, the match still paused
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("action,body", [
    ("pause", {}), ("extend", {"seconds": 5}), ("mute", {"channel": "table", "muted": True}),
    ("private", {"seat": 0, "open": True}), ("reissue", {"seat": 0}),
    ("seat", {"seat": 1, "bot": True}), ("spectators", {"open": False})])
def test_past_the_host_entries_cap_the_host_adds_nothing_to_the_log(
        server: Server, monkeypatch: pytest.MonkeyPatch, action: str, body: Any) -> None:
    monkeypatch.setenv("ARENA_HOST_ENTRIES_MAX", str(CAP))
    c = server.client
    m = new_match(c)
    pause_resume_to_the_cap(c, m)
    if action == "pause":
        assert host_post(c, m, "resume", {}).status_code == 200  # resume is taken past the cap
    version, rows = match_version(c, m)(), server.dump()
    refused = host_post(c, m, action, body)
    assert refused.status_code == 422, refused.text
    assert "ARENA_HOST_ENTRIES_MAX = 6" in refused.json()["error"]
    assert "retry-after" not in refused.headers  # a cap never refills: waiting would not help
    assert match_version(c, m)() == version and server.dump() == rows


def test_past_the_cap_the_host_may_still_resume_and_end(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """Refusing these would leave a paused match stuck, or running against its host's will;
    each happens once more at most (the pause they would pair with is refused)."""
    monkeypatch.setenv("ARENA_HOST_ENTRIES_MAX", str(CAP))
    c = server.client
    m = new_match(c)
    pause_resume_to_the_cap(c, m)
    assert host_post(c, m, "resume", {}).status_code == 200
    assert host_post(c, m, "pause", {}).status_code == 422
    assert host_post(c, m, "end", {}).status_code == 200


def test_the_host_entries_count_the_hosts_game_acts_never_the_servers() -> None:
    """A game act is the host's entry only when the host made it; the server's own acts (a
    child match's result) are bounded by the game's phases, not by the host's asking."""
    m = Match(WAIT, WaitConfig(), 1, ManualClock(0.0), MatchSettings())
    base = count_host_entries(m)
    m.act("note", None, "server")
    assert count_host_entries(m) == base
    m.act("go", {"n": 1}, "host")
    assert count_host_entries(m) == base + 1
    m.act("note", None, "server")
    m.pause()
    assert count_host_entries(m) == base + 2


def test_the_cap_is_counted_from_the_stored_log_so_a_restart_keeps_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_HOST_ENTRIES_MAX", str(CAP))
    with in_process_server(tmp_path) as c:
        m = new_match(c)
        pause_resume_to_the_cap(c, m)
        assert host_post(c, m, "extend", {"seconds": 5}).status_code == 422
    with in_process_server(tmp_path) as c:  # a new process over the same database
        refused = host_post(c, m, "extend", {"seconds": 5})
        assert refused.status_code == 422, refused.text
        assert "ARENA_HOST_ENTRIES_MAX" in refused.json()["error"]


def test_a_seasons_repeatable_host_inputs_are_capped_too(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_HOST_ENTRIES_MAX", str(CAP))
    c = server.client
    sid, host, _ = new_season(c)
    url = f"/api/seasons/{sid}/host/"
    for i in range(CAP):
        r = c.post(url + ("pause" if i % 2 == 0 else "resume"), params={"token": host}, json={})
        assert r.status_code == 200, r.text
    rows = server.dump()
    # (The webhook is a setting of the season's match, never an entry of its log: it is
    # bounded by its rate alone, as a match's is.)
    for action, body in (("pause", {}), ("adjust", ADJUST), ("mm_rounds", {"max_rounds": 12}),
                         ("reissue", {"player": "Ann"})):
        refused = c.post(url + action, params={"token": host}, json=body)
        assert refused.status_code == 422, refused.text
        assert "season's record" in refused.json()["error"]
        assert "ARENA_HOST_ENTRIES_MAX" in refused.json()["error"]
    assert server.dump() == rows
    # The season's end is still the host's to call.
    assert c.post(url + "end", params={"token": host}, json={"reason": "done"}).status_code == 200
