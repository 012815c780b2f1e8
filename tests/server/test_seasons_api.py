"""Seasons over the API, on a real server (SE-1 to SE-5): a season created from a cast, its
Main Match played here with bots and one human, the gift and the nomination answered from the
players' season links, the Death Match started with the EC in seat 1 and the DMO in seat 2,
its result eliminating the loser, results recorded by hand, a whole season of bots down to its
winner, and restarts (SIGKILL) that lose nothing, not even a step whose clock ran out while
the server was down."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from server.seasonkit import FAST, Season, by_name, refused
from server.serverproc import ServerProcess

SHORT_MM = {"round_seconds": 60, "vote_seconds": 60, "max_rounds": 6}
SIX = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("seasons")
    proc = ServerProcess(f"sqlite:///{folder / 'arena.db'}", folder / "server.log").start()
    try:
        yield proc
    finally:
        proc.stop()


def create(server: ServerProcess, cast: list[Any], **extra: Any) -> Season:
    body = {"cast": cast, "seed": 7, "settings": FAST, "mm_config": SHORT_MM, **extra}
    return Season.create(server.http, body, server.url)


def match_info(server: ServerProcess, match_id: str) -> dict[str, Any]:
    r = server.http.get(f"{server.url}/api/matches/{match_id}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def external_main(s: Season) -> None:
    """SE-2: Ann escaped alone with the most bars, Ben escaped too, four trapped, Cat voted."""
    s.ok("record_main", {"reason": "played on the stage", "result": {
        "escaped": ["Ann", "Ben"], "trapped": ["Cat", "Dan", "Eve", "Fay"],
        "bars": {"Ann": 7, "Ben": 2}, "ec": "Cat", "opal": "Ann"}})


def test_bad_input_names_the_rule(server: ServerProcess) -> None:
    r = server.http.post(server.url + "/api/seasons", json={"cast": ["Ann", "Ben"]})
    refused(r, "SE-1")
    r = server.http.post(server.url + "/api/seasons", json={"cast": ["Ann", "ann", "Cat"]})
    refused(r, "LO-10")
    s = create(server, SIX)
    # Only the host link runs the season; a player link cannot.
    refused(s.post("host/start_main", s.players["Ann"], {}), status=403)
    # Steps out of order, and hand-recorded results without a reason, name their rule.
    refused(s.host_act("start_death", {"game": "boxes"}), "SE-1")
    refused(s.choose("Ann", "nominate", "Ben"), "G-2")  # nobody nominates yet
    refused(s.host_act("record_main", {"result": {
        "escaped": ["Ann"], "trapped": SIX[1:], "ec": "Ben"}}), "SE-2")
    refused(s.host_act("record_main", {"reason": "x", "result": {
        "escaped": ["Ann"], "trapped": SIX[1:], "ec": "Ann"}}), "LO-9")
    refused(s.host_act("adjust", {"player": "Ann", "what": "garnets", "amount": 2}), "SE-5")
    refused(s.host_act("adjust", {"player": "Ann", "what": "tol", "amount": -1,
                                  "reason": "spent"}), "SE-5")
    s.ok("adjust", {"player": "Ann", "what": "garnets", "amount": 2,
                    "reason": "bonus from the audience"})
    # The public view has the standings and the ledger with causes, and no links.
    public = s.get()
    assert public["role"] == "spectator" and public["links"] == {}
    assert public["state"]["ledger"][0]["cause"].startswith(
        "host adjustment: bonus from the audience")
    assert by_name(public["state"])["Ann"]["garnets"] == 2
    spectator = s.get(s.spectator)  # the public link reads the same
    assert {**public, "now": 0} == {**spectator, "now": 0}
    r = server.http.get(f"{server.url}/api/seasons/{s.id}", params={"token": "nope"})
    assert r.status_code == 403


def test_gift_nomination_death_match_and_elimination(server: ServerProcess) -> None:
    s = create(server, SIX)
    external_main(s)
    view = s.get(s.players["Ann"])
    state = view["state"]
    assert state["step"] == "gift" and state["turn"]["players"] == ["Ann"]
    assert state["me"] == {"name": "Ann", "in": True, "to_act": True, "options": ["Ben"]}
    assert view["phase"]["deadline"] is not None  # SE-7: the gift has a clock
    standings = by_name(state)
    assert standings["Ann"]["garnets"] == 3 and standings["Ben"]["garnets"] == 1  # SE-3
    assert standings["Ann"]["opals"] == 1
    # SE-3: only the solo winner gives, and never to a trapped player.
    refused(s.choose("Cat", "gift", "Ben"), "G-2")
    refused(s.choose("Ann", "gift", "Dan"), "SE-3")
    assert s.choose("Ann", "gift", "Ben").status_code == 200
    state = s.state(s.players["Cat"])
    assert state["step"] == "nominate" and state["turn"]["players"] == ["Cat"]
    assert state["turn"]["options"] == ["Dan", "Eve", "Fay"]  # 3+ trapped: another trapped
    err = refused(s.choose("Cat", "nominate", "Ben"), "SE-3")  # Ben holds a ToL now
    assert "Dan, Eve or Fay" in err["error"]
    refused(s.choose("Dan", "nominate", "Eve"), "G-2")
    assert s.choose("Cat", "nominate", "Dan").status_code == 200
    assert s.step() == "dm_next"
    # SE-4: the Death Match starts with the EC in seat 1 and the DMO in seat 2.
    s.ok("start_death", {"game": "boxes", "config": {"bouts": 2}})
    dm = f"{s.id}-e1-dm"
    view = s.wait(lambda st: st["step"] == "dm_play", token=s.players["Dan"])
    assert view["state"]["episodes"][0]["death_match"]["seats"] == ["Cat", "Dan"]
    s.wait(lambda st: "play" in s.get(s.players["Dan"])["links"]["e1-dm"])  # once it is made
    links = s.get(s.players["Dan"])["links"]["e1-dm"]
    assert links["play"].startswith(server.url + f"/m/{dm}?token=")
    assert set(links) == {"play", "watch"}  # a player of it: its own seat and the public's
    assert set(s.get(s.players["Eve"])["links"]["e1-dm"]) == {"watch"}
    assert match_info(server, dm)["names"] == ["Cat", "Dan"]
    # Recorded by hand instead (SE-4), which needs a reason.
    refused(s.host_act("record_death", {"loser": "Dan"}), "SE-4")
    s.ok("record_death", {"loser": "Dan", "reason": "server down"})
    # The Death Match the hand-recorded result replaces is ended.
    assert match_info(server, dm)["status"] == "finished"
    state = s.state()
    standings = by_name(state)
    assert standings["Dan"]["in"] is False and standings["Dan"]["eliminated_in"] == 1
    assert standings["Ben"]["tols"] == 1
    assert state["step"] == "main_next" and state["episode"] == 2
    causes = [e["cause"] for e in state["ledger"]]
    assert any("gift of the solo winner Ann" in c for c in causes)
    assert any("server down" in c and "SE-4" in c for c in causes)
    # The ended Death Match hands in no result: the season no longer waits for it.
    assert s.acts("match_result") == []


def test_main_match_with_five_bots_and_one_human(server: ServerProcess) -> None:
    cast = [{"name": "Ann", "bot": False}] + [{"name": n, "bot": True} for n in SIX[1:]]
    s = create(server, cast, step_seconds=3000)
    s.ok("start_main")
    mm = f"{s.id}-e1-mm"
    s.made("e1-mm")
    info = match_info(server, mm)
    assert info["game"] == "lockedout" and info["names"] == SIX
    assert info["bots"] == [False, True, True, True, True, True]
    view = s.wait_step("mm_play")
    info = match_info(server, mm)
    assert info["status"] == "finished"
    detail = info["result"]["detail"]
    main = view["state"]["episodes"][0]["main"]["result"]
    assert main["escaped"] == [SIX[i] for i in detail["escaped"]]
    assert main["trapped"] == [SIX[i] for i in detail["losers"]]
    standings = by_name(view["state"])
    for i, name in enumerate(SIX):  # SE-3: one garnet per two bars of an escaped player
        garnets = detail["bars"][i] // 2 if i in detail["escaped"] else 0
        assert standings[name]["garnets"] == garnets
    # Exactly one result came back from the match.
    assert [a["data"]["key"] for a in s.acts("match_result")] == ["e1-mm"]
    # Bots make their own choices at once; Ann's wait for her.
    for _ in range(4):
        state = s.state(s.players["Ann"])
        if state["step"] not in ("vote", "tie", "gift", "nominate"):
            break
        if state["me"]["to_act"]:
            verb = {"vote": "vote", "tie": "vote"}.get(state["step"], state["step"])
            assert s.choose("Ann", verb, state["me"]["options"][0]).status_code == 200
        else:  # only bots act in this step; its clock is short at this time scale
            s.wait(lambda st, step=state["step"]: st["step"] != step)
    state = s.state()
    assert state["step"] == "dm_next"
    ep = state["episodes"][0]
    assert ep["ec"] is not None and ep["dmo"] is not None
    assert ep["ec"] in main["trapped"]


def test_a_whole_season_of_bots_down_to_its_winner(server: ServerProcess) -> None:
    s = create(server, [{"name": n, "bot": True} for n in ["Ann", "Ben", "Cat"]])
    s.ok("start_main")
    for number in (1, 2):
        view = s.wait_step("main_next", "mm_play", "vote", "tie", "gift", "name_ec",
                           "nominate")
        state = view["state"]
        assert state["step"] == "dm_next", state
        ep = state["episodes"][-1]
        s.ok("start_death", {"game": "boxes", "config": {"bouts": 2}})
        view = s.wait_step("dm_play")
        seats = view["state"]["episodes"][number - 1]["death_match"]["seats"]
        if number == 1:
            assert seats == [ep["ec"], ep["dmo"]]  # SE-4
        assert match_info(server, f"{s.id}-e{number}-dm")["names"] == seats
        if view["state"]["step"] == "dm_decide":  # no winner: the host decides, with a reason
            s.ok("decide", {"loser": seats[1], "reason": "coin"})
        state = s.state()
        done = state["episodes"][number - 1]
        assert done["eliminated"] in seats and done["death_match"]["winner"] in seats
        if number == 1:
            assert state["step"] == "dm_next" and state["episodes"][-1]["final"]
    state = s.state()
    assert state["step"] == "over" and state["winner"] is not None
    assert [n for n, st in by_name(state).items() if st["in"]] == [state["winner"]]
    view = s.get()
    assert view["result"]["winner"] == state["cast"].index(state["winner"])
    listed = [x for x in server.http.get(server.url + "/api/seasons").json() if x["id"] == s.id]
    assert listed == [{"id": s.id, "status": "finished", "cast": ["Ann", "Ben", "Cat"],
                       "episode": 2, "stage": "Season over", "winner": state["winner"]}]


def test_restart_in_the_middle_of_a_nomination_loses_nothing(server: ServerProcess) -> None:
    long = create(server, SIX, step_seconds=100000)
    short = create(server, SIX, step_seconds=300)  # 3 s at time scale 0.01
    for s in (long, short):
        external_main(s)
        assert s.choose("Ann", "gift", "Ben").status_code == 200
    before = long.get(long.host)
    assert before["state"]["step"] == "nominate"
    server.kill()
    time.sleep(3.2)  # the short season's nomination clock runs out while the server is down
    server.start()
    after = long.get(long.host)
    for key in ("state", "phase", "version", "seats", "links", "chat"):
        assert after[key] == before[key], key
    assert long.choose("Cat", "nominate", "Eve").status_code == 200
    assert long.state()["episodes"][0]["dmo"] == "Eve"
    # The passed deadline resolved at its own moment, drawn from the season's chance.
    state = short.wait_step("nominate")["state"]
    ep = state["episodes"][0]
    assert ep["dmo"] in ("Dan", "Eve", "Fay")  # (its next step's clock is 3 s too)
    assert "clock ran out" in ep["dmo_how"]
    events = short.events(short.host)
    started = next(e for e in events
                   if e["kind"] == "phase_started" and "Nomination" in e["data"]["name"])
    resolved = next(e for e in events
                    if e["kind"] == "phase_resolved" and "Nomination" in e["data"]["name"])
    assert resolved["t"] == started["data"]["deadline"]


def test_se6_end_match_on_a_default_season_goes_on_and_a_restart_changes_nothing(
        server: ServerProcess) -> None:
    """The lobby's default season (one human, five bots, time scale 1, human-paced bots,
    24-hour rounds and steps, the default round limit), its Main Match started, and the host
    presses "End match" on the match's page. The season goes on to the vote of those trapped
    (SE-6), every season endpoint answers 200, and a restart (SIGKILL) changes nothing."""
    cast = [{"name": "Ann", "bot": False}] + [{"name": n, "bot": True} for n in SIX[1:]]
    s = Season.create(server.http, {
        "cast": cast, "settings": {"time_scale": 1, "bot_pace": "human"},
        "step_seconds": 86400, "mm_config": {"round_seconds": 86400, "vote_seconds": 86400}},
        server.url)
    s.ok("start_main")
    mm, mm_host = s.made("e1-mm")
    r = s.match_post("host/end", mm_host, {"reason": "ended by the host"}, mm)
    assert r.status_code == 200, r.text
    view = s.wait_step("mm_play")
    state = view["state"]
    assert state["step"] == "vote"  # SE-6: six trapped hold LO-9's vote as a season step
    main = state["episodes"][0]["main"]["result"]
    assert sorted(main["trapped"]) == sorted(SIX) and main["ec"] is None
    assert any("SE-6" in n for n in state["episodes"][0]["notes"])
    assert view["phase"]["deadline"] is not None  # with its own clock (SE-7)

    def every_endpoint() -> dict[str, Any]:
        for token in (s.host, s.players["Ann"], s.spectator, None):
            s.get(token)
            page = server.http.get(f"{server.url}/s/{s.id}",
                                   params={"token": token} if token else {},
                                   follow_redirects=True)  # no link: the spectator's page
            assert page.status_code == 200, page.text
        assert server.http.get(server.url + "/api/seasons").status_code == 200
        return s.get(s.spectator)  # the bots' sealed votes may come in: the public's view

    before = every_endpoint()
    server.kill()
    server.start()
    after = every_endpoint()
    for key in ("state", "version", "phase", "result"):
        assert after[key] == before[key], key
    assert s.choose("Ann", "vote", "Ben").status_code == 200
    s.ok("end", {"reason": "the test is over"})
    view = s.get()
    assert view["result"]["reason"] == "ended by the host: the test is over"
    assert match_info(server, mm)["status"] == "finished"
    assert "Traceback" not in server.log_path.read_text(encoding="utf-8", errors="replace")
