"""The acceptance tests of the season as a match of the core engine, over the API, in process.

1. Any interleaving of the host's actions (start or record the Main Match, end it on its own
   page, close the vault, end the season, hand seats to bots, record by hand, adjust, pause,
   extend, set a deadline, reissue a link) and the players' (vote, gift, nominate, chat, write
   privately), on seasons with bots: every season endpoint answers 200 or a 4xx naming a rule,
   never a 5xx; the season's stored log replays (core ``Match.replay`` with ``SEASON``) to the
   live season; no match of the season runs for nobody; each match hands in one result at most.
2. G-10: two seasons that differ only in one player's sealed vote, gift or nomination (not yet
   resolved) read byte for byte the same to every other player and to the public, on every
   endpoint and on the socket, even across a host's act during that step.
3. The crash windows of the children (design section 2.5): the season's log names the match
   but the match was never made; the match was made but never held; the match ended but the
   season was not told; the match ended while the season was not in memory; the match ran out
   of time while the server was down; the match cannot be read. Each leads to exactly one
   match and one result, and the season moves on.
4. SE-6 and SE-7 through the API: closing the vault or ending the Main Match with two or more
   trapped leads to the vote step, with its own clock, which the host can extend or set.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.core.clock import ManualClock
from arena.core.match import Event
from arena.server.children import Children
from arena.server.matches import Matches
from arena.store import Store
from server.inprocess import TestClient, in_process_server
from server.seasonkit import (
    FAST,
    Season,
    Shifted,
    assert_replays,
    check_answer,
    frozen_clock,
    refused,
    unlimited,
    wake,
)

CAST = [{"name": "Ann", "bot": False}, {"name": "Ben", "bot": False},
        {"name": "Cat", "bot": True}, {"name": "Dan", "bot": True}]
NAMES = [c["name"] for c in CAST]
MM = {"round_seconds": 3600, "vote_seconds": 3600}  # 36 s rounds: humans never play here


# ====================================================================== 1. any interleaving
@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder: Path = tmp_path_factory.mktemp("engine")
    patch = pytest.MonkeyPatch()
    unlimited(patch)
    # No frozen collector: Hypothesis (6.170) takes a frozen object for one about to be
    # collected when it sets up its own random in a fresh process, and warns.
    patch.setenv("ARENA_GC_FREEZE", "0")
    with in_process_server(folder, patch) as c:
        yield c


class Driver:
    """One season driven through the API as the property test draws it; it follows the
    links the host's actions change (a reissued or handed seat)."""

    def __init__(self, client: TestClient, step_seconds: float) -> None:
        self.client = client
        self.s = Season.create(client, {
            "cast": CAST, "seed": 11, "settings": FAST, "step_seconds": step_seconds,
            "mm_config": {**MM, "vote_seconds": min(step_seconds, MM["vote_seconds"])}})
        self.tokens: dict[str, str | None] = dict(self.s.players)

    # --- what the host sees -------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        r = self.client.get(f"/api/seasons/{self.s.id}", params={"token": self.s.host})
        check_answer(r, "host's view")
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def child(self, kind: str) -> tuple[str, str] | None:
        """The current episode's Main (``mm``) or Death (``dm``) Match and its host token."""
        view = self.view()
        key = f"e{view['state']['episode']}-{kind}"
        link = view["links"].get(key, {}).get("host")
        return None if link is None else (f"{self.s.id}-{key}", link.split("token=")[1])

    # --- the actions --------------------------------------------------------------------
    def act(self, action: str, pick: int) -> None:
        view = self.view()
        state = view["state"]
        ep = state["episodes"][-1]
        still = [st_["name"] for st_ in state["standings"] if st_["in"]]
        players = ep["players"] or still
        dm_seats = (ep.get("death_match") or {}).get("seats") or players
        who = NAMES[pick % len(NAMES)]
        turn = state["turn"]
        target = (turn["options"][pick // 4 % len(turn["options"])]
                  if turn and turn["options"] else NAMES[pick // 4 % len(NAMES)])
        s = self.s
        if action == "progress":  # what the season waits for now, as a host would go on
            action = {"main_next": "start_main", "mm_play": ("end_child", "close_vault")[pick % 2],
                      "mm_record": "record_main", "vote": "choose", "tie": "choose",
                      "gift": "choose", "nominate": "choose", "name_ec": "name_ec",
                      "dm_next": "start_death", "dm_decide": "decide",
                      "dm_play": ("end_child", "record_death")[pick % 2],
                      }.get(state["step"], "wait")
            if action == "end_child":
                pick = pick // 2 * 2 + (state["step"] == "dm_play")  # the match being played
            if action == "name_ec":
                who = (ep["main"]["result"]["trapped"] or players)[0] if ep["main"] and \
                    ep["main"]["result"] else players[0]
        if action == "wait":  # the step's clock runs out (SE-7) if it is due within a second
            due = (view["phase"] or {}).get("next_deadline")
            if due is not None and due - time.time() < 1.2 and not view["paused"]:
                time.sleep(max(0.0, due - time.time()) + 0.1)
            return
        if action == "choose":  # one of those whose turn it is makes a choice
            if not turn:
                return
            acted = {NAMES[x["seat"]] for x in view["seats"] if x["acted"]}
            waiting = [n for n in turn["players"] if n not in acted] or turn["players"]
            who = waiting[pick % len(waiting)]
            action = {"tie": "vote"}.get(state["step"], state["step"])
        if action in ("vote", "gift", "nominate"):
            token = self.tokens[who]
            if token is not None:
                key = {"vote": "ec", "gift": "to", "nominate": "dmo"}[action]
                check_answer(s.post(action, token, {key: target}), action)
            return
        if action == "chat":
            token = self.tokens[who]
            if token is not None:
                check_answer(s.match_post("chat", token, {"text": f"hi {pick}"}), action)
            return
        if action == "private":
            if pick % 2:
                check_answer(s.post("private", s.host, {"player": who, "text": "a word"}),
                             action)
            elif self.tokens[who] is not None:
                check_answer(s.post("private", self.tokens[who], {"text": "psst"}), action)
            return
        if action in ("end_child", "child_seat"):
            found = self.child("mm" if pick % 2 == 0 else "dm")
            if found is None:
                return
            cid, token = found
            if action == "end_child":  # "End match" on the match's own page
                r = s.match_post("host/end", token, {"reason": "enough for tonight"}, cid)
            else:
                r = s.match_post("host/seat", token, {"seat": pick // 2 % 2, "bot": True},
                                 cid)
            check_answer(r, action)
            return
        if action == "seat":
            seat, bot = pick % len(NAMES), pick // 4 % 2 == 0
            r = s.match_post("host/seat", s.host, {"seat": seat, "bot": bot})
            check_answer(r, action)
            if r.status_code == 200:
                link = r.json()["link"]
                self.tokens[NAMES[seat]] = None if link is None else link.split("token=")[1]
            return
        if action == "reissue":
            seat = pick % len(NAMES)
            r = s.match_post("host/reissue", s.host, {"seat": seat})
            check_answer(r, action)
            if r.status_code == 200:
                self.tokens[NAMES[seat]] = r.json()["link"].split("token=")[1]
            return
        bodies: dict[str, tuple[str, dict[str, Any]]] = {
            "start_main": ("start_main", {} if pick % 3 else {"players": still[:3]}),
            "close_vault": ("close_vault", {}),
            "end_season": ("end", {"reason": "the host ended it"}),
            "record_main": ("record_main", {"reason": "played on the stage", "result": {
                "escaped": players[:pick % 3], "trapped": players[pick % 3:],
                "bars": {p: i for i, p in enumerate(players[:pick % 3])},
                "ec": players[-1] if pick % 4 == 1 else None}}),
            "name_ec": ("name_ec", {"ec": who, "reason": "the host's call"}),
            "start_death": ("start_death", {"game": "boxes", "config": {"bouts": 2}}
                            if pick % 2 else {"game": "lockmaker", "config": {"rounds": 1}}),
            "record_death": ("record_death", {"loser": dm_seats[pick % 2 % len(dm_seats)],
                                              "reason": "played elsewhere"}),
            "decide": ("decide", {"loser": dm_seats[pick % 2 % len(dm_seats)],
                                  "reason": "a coin"}),
            "adjust": ("adjust", {"player": who, "what": ("tol", "garnets", "opal")[pick % 3],
                                  "amount": pick % 5 - 2, "reason": "audience prize"}),
            "rounds": ("mm_rounds", {"max_rounds": pick}),
            "pause": ("pause", {}),
            "resume": ("resume", {}),
            "extend": ("extend", {"seconds": 1 + pick}),
            "deadline": ("deadline", {"at": time.time() + 0.5 + pick % 3}),
        }
        name, body = bodies[action]
        check_answer(s.host_act(name, body), action)

    # --- afterwards -----------------------------------------------------------------------
    def every_endpoint(self) -> None:
        s, c = self.s, self.client
        readers = [s.host, s.spectator, *[t for t in self.tokens.values() if t]]
        for token in [*readers, None]:
            params = {"token": token} if token else {}
            for path in (f"/api/seasons/{s.id}", f"/s/{s.id}"):
                r = c.get(path, params=params)
                assert r.status_code == 200, f"{path} {r.status_code} {r.text[:300]}"
        for token in readers:
            for path in ("view", "events", "replay"):
                r = c.get(f"/api/matches/{s.id}/{path}", params={"token": token})
                assert r.status_code == 200, f"{path} {r.status_code} {r.text[:300]}"
            with c.websocket_connect(f"/ws/{s.id}?token={token}&since=0") as ws:
                assert json.loads(ws.receive_text())["type"] == "hello"
        for path in ("/api/seasons", "/api/matches", f"/api/matches/{s.id}"):
            assert c.get(path).status_code == 200, path

    def children_in_memory(self) -> list[Any]:
        owners = self.client.app.state.matches.owners  # type: ignore[attr-defined]
        return [o for i, o in list(owners.items()) if i.startswith(self.s.id + "-")]


ACTIONS = st.sampled_from([
    "progress", "choose", "progress", "start_main", "record_main", "end_child", "close_vault", "choose", "seat",
    "child_seat", "name_ec", "start_death", "choose", "record_death", "decide", "adjust",
    "rounds", "choose", "pause", "resume", "extend", "deadline", "reissue", "end_season",
    "vote", "gift", "nominate", "chat", "private", "wait"])
"""The host's actions and the players'; ``choose`` is the choice of a player whose turn it is
(the others' are mostly refused), so it comes more often, and ``progress`` is what the
season waits for now (a host taking the season on, so that examples reach the Death Matches
and the final); ``wait`` lets a step's clock run
out when it is due within a second (a step clock is 1 s in half the examples)."""


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(prelude=st.lists(st.integers(0, 30), max_size=24),
       steps=st.lists(st.tuples(ACTIONS, st.integers(0, 30)), min_size=1, max_size=16),
       step_seconds=st.sampled_from([100, 100000]))
def test_any_interleaving_keeps_every_endpoint_answering_and_the_log_replays(
        client: TestClient, prelude: list[int], steps: list[tuple[str, int]],
        step_seconds: float) -> None:
    d = Driver(client, step_seconds)  # 100: each step's clock is 1 s at this time scale
    try:
        # The season taken some way on first (any step of any episode, the final, its
        # end), then anything at all.
        for pick in prelude:
            d.act("progress", pick)
        for action, pick in steps:
            d.act(action, pick)
        d.every_endpoint()
        # The season's stored log replays to the very season in memory.
        assert_replays(client, d.s.id)
        # Each of its matches handed in one result at most, and only the season's own.
        keys = [a["data"]["key"] for a in d.s.acts("match_result")]
        assert len(keys) == len(set(keys))
        store = client.app.state.matches.store  # type: ignore[attr-defined]
        for key in keys:
            assert client.portal.call(store.get_match, f"{d.s.id}-{key}") is not None
    finally:  # nothing of this season keeps running under the next example
        d.s.host_act("end", {"reason": "example over"})
    # Once the season is over, none of its matches runs for nobody.
    while any(not o.match.finished for o in d.children_in_memory()):
        time.sleep(0.05)  # the suite's timeout guards a match left running
    assert_replays(client, d.s.id)


# ====================================================================== 2. sealed choices
FROZEN = ManualClock(float(int(time.time())))
FIVE = ["Ann", "Ben", "Cat", "Dan", "Eve"]
SEALED_WORLDS: dict[str, tuple[dict[str, Any], dict[str, Any], str, str]] = {
    # kind: (settings, the hand-recorded Main Match, the actor, the choice)
    "vote": ({}, {"escaped": ["Ann"], "trapped": ["Ben", "Cat", "Dan", "Eve"],
                  "bars": {"Ann": 3}}, "Ben", "Cat"),
    "gift": ({"early_close": False}, {"escaped": ["Ann", "Ben"],
                                      "trapped": ["Cat", "Dan", "Eve"],
                                      "bars": {"Ann": 5, "Ben": 1}, "ec": "Cat"}, "Ann", "Ben"),
    "nominate": ({"early_close": False}, {"escaped": ["Ann", "Ben"],
                                          "trapped": ["Cat", "Dan", "Eve"],
                                          "bars": {"Ann": 2, "Ben": 2}, "ec": "Cat"},
                 "Cat", "Eve"),
}


@pytest.fixture(scope="module")
def frozen(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder: Path = tmp_path_factory.mktemp("sealed-season")
    patch = pytest.MonkeyPatch()
    unlimited(patch)
    frozen_clock(patch, FROZEN)
    with in_process_server(folder, patch) as c:
        yield c


def _reads(c: TestClient, s: Season, token: str | None) -> list[str]:
    """Every byte one reader obtains from the season's routes, the match routes under its
    id, the lists and the page (the socket is read beside it, in the test)."""
    params = {"token": token} if token else {}
    out: list[Any] = []
    for path in (f"/api/seasons/{s.id}", f"/s/{s.id}", f"/api/matches/{s.id}"):
        r = c.get(path, params=params)
        out.append((path, r.status_code, r.text))
    for path in ("/api/seasons", "/api/matches"):
        out.append([x for x in c.get(path).json() if x["id"] == s.id])
    if token is not None:
        last = c.get(f"/api/matches/{s.id}/view", params=params).json()["version"]
        out.append(c.get(f"/api/matches/{s.id}/view", params=params).text)
        for since in (0, 1, last - 1, last, last + 1):
            out.append(c.get(f"/api/matches/{s.id}/events",
                             params={**params, "since": since}).text)
        for version in (0, *range(1, last + 2)):
            out.append(c.get(f"/api/matches/{s.id}/replay",
                             params={**params, "version": version}).text)
        with c.websocket_connect(f"/ws/{s.id}?token={token}&since=1") as ws:
            out.append(ws.receive_text())  # hello
            out.append(ws.receive_text())  # the update bringing it from its version 1
    return [s.neutral(json.dumps(x, sort_keys=True)) for x in out]


def _first_difference(x: str, y: str) -> str:
    at = next((i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q),
              min(len(x), len(y)))
    return f"differs at {at}: ...{x[max(0, at - 100):at + 100]}... vs " \
           f"...{y[max(0, at - 100):at + 100]}..."


def _same(x: list[str], y: list[str]) -> None:
    assert len(x) == len(y)
    for a, b in zip(x, y, strict=True):
        assert a == b, _first_difference(a, b)


@pytest.mark.parametrize("kind", sorted(SEALED_WORLDS))
def test_a_sealed_choice_is_nobody_elses_business(frozen: TestClient, kind: str) -> None:
    FROZEN.set(FROZEN.now() + 1)
    extra, main, actor, choice = SEALED_WORLDS[kind]
    body = {"cast": FIVE, "seed": 23, "step_seconds": 3600, "settings": extra}
    acted, quiet = Season.create(frozen, body), Season.create(frozen, body)
    for s in (acted, quiet):
        s.ok("record_main", {"reason": "played on the stage", "result": main})
        assert s.step() == kind
        assert actor in s.state()["turn"]["players"]
    watcher = "Dan"  # another player, on the socket across the choice
    seen: list[list[str]] = [[], []]
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(frozen.websocket_connect(
            f"/ws/{s.id}?token={s.players[watcher]}&since=0")) for s in (acted, quiet)]
        for i, ws in enumerate(sockets):
            seen[i] += [ws.receive_text(), ws.receive_text()]  # hello, the update to now
        # The choice, in one season only; it stands sealed, the step still open.
        assert acted.choose(actor, kind, choice).status_code == 200
        assert acted.step() == kind
        # The host acts during the sealed step, in both (a public fact; the choice is not);
        # then the watcher says something. Each brings the watcher one message, no more.
        for s in (acted, quiet):
            s.ok("adjust", {"player": "Eve", "what": "garnets", "amount": 1, "reason": "prize"})
        for i, ws in enumerate(sockets):
            seen[i].append(ws.receive_text())
        for s in (acted, quiet):
            r = s.match_post("chat", s.players[watcher], {"text": "well?"})
            assert r.status_code == 200, r.text
        for i, ws in enumerate(sockets):
            seen[i].append(ws.receive_text())
    first = [[s.neutral(m) for m in seen[i]] for i, s in enumerate((acted, quiet))]
    _same(first[0], first[1])
    others = [n for n in FIVE if n != actor]
    for name in others:
        _same(_reads(frozen, acted, acted.players[name]), _reads(frozen, quiet,
                                                                 quiet.players[name]))
    _same(_reads(frozen, acted, acted.spectator), _reads(frozen, quiet, quiet.spectator))
    _same(_reads(frozen, acted, None), _reads(frozen, quiet, None))
    # The comparison is not blind: the actor and the host do read a difference.
    assert _reads(frozen, acted, acted.players[actor]) != \
        _reads(frozen, quiet, quiet.players[actor])
    assert _reads(frozen, acted, acted.host) != _reads(frozen, quiet, quiet.host)
    for s in (acted, quiet):
        s.ok("end", {"reason": "done"})


# ====================================================================== 3. crash windows
def crash_server(folder: Path, *patches: tuple[Any, str, Any],
                 clock: Shifted | None = None) -> Any:
    """An in-process server over ``folder`` with some of its parts replaced, standing for a
    process that died at that point (its store keeps what it wrote)."""
    patch = pytest.MonkeyPatch()
    for target, name, value in patches:
        patch.setattr(target, name, value)
    if clock is not None:
        frozen_clock(patch, clock)
    return in_process_server(folder, patch)


def one_result(c: TestClient, s: Season, key: str) -> dict[str, Any]:
    """The season once it has moved past the match ``key``: exactly one such match exists
    and exactly one result of it reached the season."""
    state = s.wait_step("mm_play", "dm_play")["state"]
    rows = c.app.state.matches.store  # type: ignore[attr-defined]
    ids = [r.id for r in c.portal.call(rows.list_matches) if r.id.startswith(s.id + "-")]
    assert ids == [f"{s.id}-{key}"]
    assert [a["data"]["key"] for a in s.acts("match_result")] == [key]
    return state


async def _nothing(self: Any, *args: Any) -> None:
    return None


def start_mm(c: TestClient) -> Season:
    s = Season.create(c, {"cast": CAST, "seed": 31, "settings": FAST, "mm_config": MM,
                          "step_seconds": 100000})
    s.ok("mm_rounds", {"max_rounds": 1})
    s.ok("start_main")
    return s


def test_the_match_named_in_the_log_was_never_made(tmp_path: Path) -> None:
    """The season stored its step, then its process died before it made the match."""
    with crash_server(tmp_path, (Children, "ensure", _nothing)) as c:
        s = start_mm(c)
        assert s.step() == "mm_play" and s.get(s.host)["links"]["e1-mm"] == {}
    with in_process_server(tmp_path) as c:
        s = Season(c, s.created)
        mm, token = s.made("e1-mm")
        assert s.match_post("host/end", token, {"reason": "late"}, mm).status_code == 200
        assert one_result(c, s, "e1-mm")["step"] == "vote"


def test_the_match_was_made_but_never_held(tmp_path: Path) -> None:
    """The match's row was stored, then its process died before it held it (no result
    callback): a new server holds it and hears of its end."""
    real = Children._child

    async def made_then_died(self: Children, parent: Any, spec: Any) -> Any:
        await real(self, parent, spec)
        raise RuntimeError("the process died here")

    with crash_server(tmp_path, (Children, "_child", made_then_died)) as c:
        s = start_mm(c)
        s.made("e1-mm")
    with in_process_server(tmp_path) as c:
        s = Season(c, s.created)
        mm, token = s.child("e1-mm")
        s.wait(lambda st: (c.app.state.matches.owners.get(mm) is not None  # type: ignore
                           and c.app.state.matches.owners[mm].on_finished is not None))
        assert s.match_post("host/end", token, {"reason": "late"}, mm).status_code == 200
        assert one_result(c, s, "e1-mm")["step"] == "vote"


def test_the_match_ended_but_the_season_was_not_told(tmp_path: Path) -> None:
    with crash_server(tmp_path, (Children, "report", _nothing)) as c:
        s = start_mm(c)
        mm, token = s.made("e1-mm")
        assert s.match_post("host/end", token, {"reason": "late"}, mm).status_code == 200
        time.sleep(0.3)  # the result would have been handed in by now
        assert s.step() == "mm_play" and s.acts("match_result") == []
    with in_process_server(tmp_path) as c:
        s = Season(c, s.created)
        state = one_result(c, s, "e1-mm")
        assert state["step"] == "vote"
        assert any("late" in n for n in state["episodes"][0]["notes"])


def test_the_match_ended_while_the_season_was_not_in_memory(tmp_path: Path) -> None:
    with in_process_server(tmp_path) as c:
        s = start_mm(c)
        mm, token = s.made("e1-mm")
        matches: Matches = c.app.state.matches  # type: ignore[attr-defined]

        async def evict() -> None:  # as a process that lost the season's lease would
            owner = matches.owners.pop(s.id)
            await owner.stop()

        c.portal.call(evict)
        assert s.match_post("host/end", token, {"reason": "late"}, mm).status_code == 200
        time.sleep(0.3)
        assert s.id not in matches.owners
        # The next request for the season holds it again, and it hears of the end.
        state = one_result(c, s, "e1-mm")
        assert state["step"] == "vote"


def test_the_match_ran_out_of_time_while_the_server_was_down(tmp_path: Path) -> None:
    clock = Shifted()
    with crash_server(tmp_path, clock=clock) as c:
        s = start_mm(c)
        s.made("e1-mm")
    clock.offset += 86400  # a day later: the match's one round has long run out
    with crash_server(tmp_path, clock=clock) as c:
        s = Season(c, s.created)
        state = one_result(c, s, "e1-mm")
        assert state["step"] in ("vote", "gift", "name_ec", "nominate", "dm_next")
        assert state["episodes"][0]["main"]["result"] is not None
        assert_replays(c, s.id)


def test_asking_twice_never_makes_two(tmp_path: Path) -> None:
    """The id is the season's and the key: a second try (another process that found no row a
    moment ago, a retry) has its row refused by the store and uses the one there."""
    with in_process_server(tmp_path) as c:
        s = start_mm(c)
        s.made("e1-mm")
        matches: Matches = c.app.state.matches  # type: ignore[attr-defined]
        parent = matches.owners[s.id]
        spec = next(x for x in parent.match.game.children(parent.match.state) if x.live)
        cid = f"{s.id}-{spec.key}"
        real_get = matches.get
        missed: list[str] = []

        async def not_yet(match_id: str) -> Any:  # the first look misses it: a race
            if not missed:
                missed.append(match_id)
                return None
            return await real_get(match_id)

        async def again() -> Any:
            first = matches.owners.pop(cid)  # held elsewhere (the process that made it)
            await first.stop()
            matches.get = not_yet  # type: ignore[method-assign]
            try:
                await matches.children.ensure(s.id)
            finally:
                matches.get = real_get  # type: ignore[method-assign]
            return matches.owners[cid]

        held = c.portal.call(again)
        assert missed == [cid] and held is matches.owners[cid]
        store = matches.store
        ids = [r.id for r in c.portal.call(store.list_matches) if r.id.startswith(s.id + "-")]
        assert ids == [cid]
        stored = [e.to_json() for e in c.portal.call(store.events, cid)]
        # The match held is the stored one, going on: its bots keep playing meanwhile, so the
        # live log read after the rows may be longer (on a loaded machine it was, by six).
        live = [e.to_json() for e in held.match.log]
        assert stored and live[:len(stored)] == stored
        mm, token = s.child("e1-mm")
        assert s.match_post("host/end", token, {"reason": "late"}, mm).status_code == 200
        one_result(c, s, "e1-mm")


def test_a_match_that_cannot_be_read_asks_the_host(tmp_path: Path) -> None:
    """A season's match whose log no longer replays is quarantined; the season hears why and
    asks its host to record the Main Match by hand (SE-2, SE-6)."""
    with crash_server(tmp_path, (Children, "report", _nothing)) as c:
        s = start_mm(c)
        mm, _ = s.made("e1-mm")
    store = Store(f"sqlite:///{tmp_path / 'arena.db'}")
    try:
        last = store.events(mm)[-1]
        store.append_events(mm, [Event(last.version + 1, "submit", {
            "seat": 9, "text": "nonsense", "final": True}, frozenset(), last.t)])
    finally:
        store.close()
    with in_process_server(tmp_path) as c:
        s = Season(c, s.created)
        state = s.wait_step("mm_play")["state"]
        assert state["step"] == "mm_record"
        assert any("cannot be read" in n for n in state["episodes"][0]["notes"])
        s.ok("record_main", {"reason": "from the stage notes", "result": {
            "escaped": ["Ann"], "trapped": ["Ben", "Cat", "Dan"], "bars": {"Ann": 4}}})
        assert s.step() == "vote"


# ====================================================================== 4. SE-6 and SE-7
@pytest.fixture(scope="module")
def shifted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Shifted]]:
    folder: Path = tmp_path_factory.mktemp("se6")
    clock = Shifted()
    patch = pytest.MonkeyPatch()
    frozen_clock(patch, clock)
    with in_process_server(folder, patch) as c:
        yield c, clock


VOTE = 36.0  # the vote clock at this time scale (3600 s times 0.01)


@pytest.mark.parametrize("how", ["close_vault", "end_match"])
def test_se6_two_trapped_vote_on_a_clock_the_host_can_extend(
        shifted: tuple[TestClient, Shifted], how: str) -> None:
    c, clock = shifted
    s = Season.create(c, {"cast": NAMES, "seed": 41, "settings": FAST, "mm_config": MM,
                          "step_seconds": 100000})
    s.ok("start_main")
    s.made("e1-mm")
    if how == "close_vault":
        s.ok("close_vault")
    else:
        mm, token = s.child("e1-mm")
        assert s.match_post("host/end", token, {"reason": "late"}, mm).status_code == 200
    view = s.wait_step("mm_play")
    assert view["state"]["step"] == "vote" and len(view["state"]["turn"]["players"]) >= 2
    ended = clock.now()
    deadline = view["phase"]["deadline"]
    assert deadline == pytest.approx(ended + VOTE, abs=2)  # the vote's own clock (SE-7)
    for token in (s.spectator, *s.players.values()):
        assert s.get(token)["phase"]["deadline"] == deadline
    s.ok("extend", {"seconds": 600})
    assert s.get()["phase"]["deadline"] == pytest.approx(deadline + 600)
    s.ok("pause")
    clock.offset += 3600
    wake(c)
    assert s.step() == "vote"  # paused: it does not run out
    s.ok("deadline", {"at": clock.now() + 5})
    assert s.get()["phase"]["deadline"] == pytest.approx(clock.now() + 5, abs=1)
    clock.offset += 10
    wake(c)
    # Nobody voted: LO-9's fallbacks, then the season's chance, choose the EC (SE-7).
    state = s.wait_step("vote", "tie")["state"]
    ep = state["episodes"][0]
    assert ep["vote"]["ballots"] == {} and ep["ec"] in ep["main"]["result"]["trapped"]
    assert "LO-9" in ep["ec_how"]
    assert_replays(c, s.id)
    s.ok("end", {"reason": "done"})


def test_se6_the_vote_clock_is_the_seasons_not_the_ended_matchs(
        shifted: tuple[TestClient, Shifted]) -> None:
    """The vote's clock is the season's, not the match's: the host's clock controls during
    the vote never reach the ended match."""
    c, _ = shifted
    s = Season.create(c, {"cast": NAMES, "seed": 43, "settings": FAST, "mm_config": MM,
                          "step_seconds": 100000})
    s.ok("start_main")
    s.made("e1-mm")
    s.ok("close_vault")
    s.wait_step("mm_play")
    assert s.ok("extend", {"seconds": 60})["match"] == s.id
    r = s.match_post("host/extend", s.host, {"seconds": 60})
    assert r.status_code == 200, r.text
    mm, token = s.child("e1-mm")
    refused(s.match_post("host/extend", token, {"seconds": 60}, mm), "host")  # it is over
    s.ok("end", {"reason": "done"})

