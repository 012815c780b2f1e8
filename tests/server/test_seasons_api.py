"""Seasons over the API (issue 19, SE-1..SE-5): a season created from a cast, its Main Match
played here with bots and one human, the gift and the nomination answered from the players'
season links, the Death Match started with the EC in seat 1 and the DMO in seat 2, its result
eliminating the loser, results recorded by hand, and a restart in the middle of a nomination
that loses nothing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from server.serverproc import ServerProcess

FAST = {"time_scale": 0.01, "bot_pace": "instant"}
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


def create(server: ServerProcess, cast: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    body = {"cast": cast, "seed": 7, "settings": FAST, "mm_config": SHORT_MM, **extra}
    r = server.http.post(server.url + "/api/seasons", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def get(server: ServerProcess, sid: str, token: str | None = None) -> dict[str, Any]:
    params = {"token": token} if token else {}
    r = server.http.get(f"{server.url}/api/seasons/{sid}", params=params)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def post(server: ServerProcess, sid: str, path: str, token: str, body: dict[str, Any],
         status: int = 200) -> dict[str, Any]:
    r = server.http.post(f"{server.url}/api/seasons/{sid}/{path}", params={"token": token},
                         json=body)
    assert r.status_code == status, r.text
    data: dict[str, Any] = r.json()
    return data


def wait_stage(server: ServerProcess, sid: str, token: str, leave: tuple[str, ...],
               timeout: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = get(server, sid, token)
        if view["stage"] not in leave:
            return view
        time.sleep(0.2)
    raise AssertionError(f"the season stayed at {view['stage']}")


def match_info(server: ServerProcess, match_id: str) -> dict[str, Any]:
    data: dict[str, Any] = server.http.get(f"{server.url}/api/matches/{match_id}").json()
    return data


def external_main(server: ServerProcess, sid: str, host: str) -> None:
    """SE-2: Ann escaped alone with the most bars, Ben escaped too, four trapped, Cat voted."""
    post(server, sid, "host/record_main", host, {"reason": "played on the stage", "result": {
        "escaped": ["Ann", "Ben"], "trapped": ["Cat", "Dan", "Eve", "Fay"],
        "bars": {"Ann": 7, "Ben": 2}, "ec": "Cat", "opal": "Ann"}})


def test_bad_input_names_the_rule(server: ServerProcess) -> None:
    r = server.http.post(server.url + "/api/seasons", json={"cast": ["Ann", "Ben"]})
    assert r.status_code == 422 and r.json()["rule"] == "SE-1"
    r = server.http.post(server.url + "/api/seasons", json={"cast": ["Ann", "ann", "Cat"]})
    assert r.status_code == 422 and r.json()["rule"] == "LO-10"
    created = create(server, [{"name": n} for n in SIX])
    sid, host = created["id"], created["tokens"]["host"]
    ann = created["tokens"]["players"]["Ann"]
    # Only the host link runs the season; a player link cannot.
    post(server, sid, "host/start_main", ann, {}, status=403)
    # Steps out of order, and hand-recorded results without a reason, name their rule.
    assert post(server, sid, "host/start_death", host, {"game": "boxes"}, 422)["rule"] == "SE-1"
    assert post(server, sid, "nominate", ann, {"dmo": "Ben"}, 422)["rule"] == "SE-1"
    assert post(server, sid, "host/record_main", host, {"result": {
        "escaped": ["Ann"], "trapped": SIX[1:], "ec": "Ben"}}, 422)["rule"] == "SE-2"
    assert post(server, sid, "host/record_main", host, {"reason": "x", "result": {
        "escaped": ["Ann"], "trapped": SIX[1:], "ec": "Ann"}}, 422)["rule"] == "LO-9"
    assert post(server, sid, "host/adjust", host, {"player": "Ann", "what": "garnets",
                                                   "amount": 2}, 422)["rule"] == "SE-5"
    assert post(server, sid, "host/adjust", host, {"player": "Ann", "what": "tol", "amount": -1,
                                                   "reason": "spent"}, 422)["rule"] == "SE-5"
    post(server, sid, "host/adjust", host, {"player": "Ann", "what": "garnets", "amount": 2,
                                            "reason": "bonus from the audience"})
    # The public view has the standings and the ledger with causes, and no secret links.
    public = get(server, sid)
    assert public["you"]["role"] == "public" and "player_links" not in public
    assert public["ledger"][0]["cause"].startswith("host adjustment: bonus from the audience")
    assert next(s for s in public["standings"] if s["name"] == "Ann")["garnets"] == 2
    r = server.http.get(f"{server.url}/api/seasons/{sid}", params={"token": "nope"})
    assert r.status_code == 403


def test_gift_nomination_death_match_and_elimination(server: ServerProcess) -> None:
    created = create(server, [{"name": n} for n in SIX])
    sid, host = created["id"], created["tokens"]["host"]
    tok = created["tokens"]["players"]
    external_main(server, sid, host)
    view = get(server, sid, tok["Ann"])
    assert view["stage"] == "gift" and view["actor"] == "Ann" and view["options"] == ["Ben"]
    assert view["deadline"] is not None
    standings = {s["name"]: s for s in view["standings"]}
    assert standings["Ann"]["garnets"] == 3 and standings["Ben"]["garnets"] == 1  # SE-3
    assert standings["Ann"]["opals"] == 1
    # SE-3: only the solo winner gives, and never to a trapped player.
    assert post(server, sid, "gift", tok["Cat"], {"to": "Ben"}, 422)["rule"] == "SE-3"
    err = post(server, sid, "gift", tok["Ann"], {"to": "Dan"}, 422)
    assert err["rule"] == "SE-3" and "trapped" in err["error"]
    post(server, sid, "gift", tok["Ann"], {"to": "Ben"})
    view = get(server, sid, tok["Cat"])
    assert view["stage"] == "nominate" and view["actor"] == "Cat"
    assert view["options"] == ["Dan", "Eve", "Fay"]  # 3+ trapped: another trapped player
    err = post(server, sid, "nominate", tok["Cat"], {"dmo": "Ben"}, 422)
    assert err["rule"] == "SE-3" and "Token of Life" in err["error"]
    assert post(server, sid, "nominate", tok["Dan"], {"dmo": "Eve"}, 422)["rule"] == "SE-3"
    post(server, sid, "nominate", tok["Cat"], {"dmo": "Dan"})
    view = get(server, sid, host)
    assert view["stage"] == "dm_pick"
    # SE-4: the Death Match starts with the EC in seat 1 and the DMO in seat 2.
    started = post(server, sid, "host/start_death", host, {"game": "boxes", "config": {"bouts": 2}})
    assert match_info(server, started["match"])["names"] == ["Cat", "Dan"]
    view = get(server, sid, tok["Dan"])
    dm = view["episodes"][0]["death_match"]
    assert dm["seats"] == ["Cat", "Dan"] and dm["links"]["yours"].startswith(server.url + "/m/")
    # Recorded by hand instead (SE-4), which needs a reason.
    assert post(server, sid, "host/record_death", host, {"loser": "Dan"}, 422)["rule"] == "SE-4"
    post(server, sid, "host/record_death", host, {"loser": "Dan", "reason": "server down"})
    # The Death Match the hand-recorded result replaces is ended.
    assert match_info(server, started["match"])["status"] == "finished"
    view = get(server, sid)
    standings = {s["name"]: s for s in view["standings"]}
    assert standings["Dan"]["in"] is False and standings["Dan"]["eliminated_in"] == 1
    assert standings["Ben"]["tols"] == 1
    assert view["stage"] == "main" and view["episode"] == 2
    causes = [e["cause"] for e in view["ledger"]]
    assert any("gift of the solo winner Ann" in c for c in causes)
    assert any("server down" in c and "SE-4" in c for c in causes)


def test_main_match_with_five_bots_and_one_human(server: ServerProcess) -> None:
    cast = [{"name": "Ann", "bot": False}] + [{"name": n, "bot": True} for n in SIX[1:]]
    created = create(server, cast, step_seconds=3000)
    sid, host = created["id"], created["tokens"]["host"]
    tok = created["tokens"]["players"]
    started = post(server, sid, "host/start_main", host, {})
    info = match_info(server, started["match"])
    assert info["game"] == "lockedout" and info["names"] == SIX
    assert info["bots"] == [False, True, True, True, True, True]
    view = wait_stage(server, sid, host, ("main", "mm"))
    info = match_info(server, started["match"])
    detail = info["result"]["detail"]
    main = view["episodes"][0]["main"]["result"]
    assert main["ec"] == SIX[detail["ec"]]
    assert main["escaped"] == [SIX[i] for i in detail["escaped"]]
    standings = {s["name"]: s for s in view["standings"]}
    for i, name in enumerate(SIX):  # SE-3: one garnet per two bars of an escaped player
        assert standings[name]["garnets"] == (detail["bars"][i] // 2 if i in detail["escaped"]
                                              else 0)
    # Bots answer their own steps at once; Ann's step waits for her.
    if view["stage"] == "gift":
        assert view["actor"] == "Ann"
        post(server, sid, "gift", tok["Ann"], {"to": view["options"][0]})
        view = get(server, sid, host)
    if view["stage"] == "nominate":
        assert view["actor"] == "Ann"
        post(server, sid, "nominate", tok["Ann"], {"dmo": view["options"][0]})
        view = get(server, sid, host)
    assert view["stage"] == "dm_pick"
    ep = view["episodes"][0]
    assert ep["ec"] == main["ec"] and ep["dmo"] is not None


def test_a_whole_season_of_bots_down_to_its_winner(server: ServerProcess) -> None:
    created = create(server, [{"name": n, "bot": True} for n in ["Ann", "Ben", "Cat"]])
    sid, host = created["id"], created["tokens"]["host"]
    post(server, sid, "host/start_main", host, {})
    for number in (1, 2):
        view = wait_stage(server, sid, host, ("main", "mm", "gift", "nominate"))
        assert view["stage"] == "dm_pick", view["stage"]
        ep = view["episodes"][-1]
        started = post(server, sid, "host/start_death", host,
                       {"game": "boxes", "config": {"bouts": 2}})
        seats = match_info(server, started["match"])["names"]
        if number == 1:
            assert seats == [ep["ec"], ep["dmo"]]  # SE-4
        view = wait_stage(server, sid, host, ("dm",))
        if view["stage"] == "dm_decide":  # no winner: the host decides, with a reason
            post(server, sid, "host/decide", host, {"loser": seats[1], "reason": "coin"})
            view = get(server, sid, host)
        done = view["episodes"][number - 1]
        assert done["eliminated"] in seats and done["death_match"]["winner"] in seats
        if number == 1:
            assert view["stage"] == "dm_pick" and view["episodes"][-1]["final"]
    assert view["stage"] == "over" and view["winner"] is not None
    standings = [s for s in view["standings"] if s["in"]]
    assert [s["name"] for s in standings] == [view["winner"]]


def test_restart_in_the_middle_of_a_nomination_loses_nothing(server: ServerProcess) -> None:
    cast = [{"name": n} for n in SIX]
    long = create(server, cast, step_seconds=100000)
    short = create(server, cast, step_seconds=300)  # 3 s at time scale 0.01
    for created in (long, short):
        sid, host = created["id"], created["tokens"]["host"]
        external_main(server, sid, host)
        post(server, sid, "gift", created["tokens"]["players"]["Ann"], {"to": "Ben"})
    before = get(server, long["id"], long["tokens"]["host"])
    assert before["stage"] == "nominate"
    server.kill()
    time.sleep(3.2)  # the short season's nomination clock runs out while the server is down
    server.start()
    after = get(server, long["id"], long["tokens"]["host"])
    for key in ("stage", "deadline", "actor", "options", "episodes", "ledger", "standings",
                "version", "player_links"):
        assert after[key] == before[key], key
    post(server, long["id"], "nominate", long["tokens"]["players"]["Cat"], {"dmo": "Eve"})
    assert get(server, long["id"])["episodes"][0]["dmo"] == "Eve"
    # The passed deadline resolved at its own moment, drawn from the season's chance.
    view = get(server, short["id"])
    ep = view["episodes"][0]
    assert view["stage"] == "dm_pick" and ep["dmo"] in ("Dan", "Eve", "Fay")
    assert "clock ran out" in ep["dmo_how"]


def test_se6_end_match_on_a_default_season_goes_on_and_a_restart_changes_nothing(
        server: ServerProcess) -> None:
    """Issue 26's audit, on a real server: the lobby's default season form (one human, five
    bots, time scale 1, human-paced bots, 24-hour rounds and steps, the default round limit),
    the Main Match started, the host presses "End match" on the match's page. The season goes
    on to the host's EC step, every season endpoint answers 200, and a restart (SIGKILL) of
    the server changes nothing."""
    cast = [{"name": "Ann", "bot": False}] + [{"name": n, "bot": True} for n in SIX[1:]]
    body = {"cast": cast, "settings": {"time_scale": 1, "bot_pace": "human"},
            "step_seconds": 86400, "mm_config": {"round_seconds": 86400,
                                                 "vote_seconds": 86400}}
    r = server.http.post(server.url + "/api/seasons", json=body)
    assert r.status_code == 201, r.text
    created = r.json()
    sid, host = created["id"], created["tokens"]["host"]
    started = post(server, sid, "host/start_main", host, {})
    links = get(server, sid, host)["episodes"][0]["main"]["links"]
    match_host = links["host"].split("token=")[1]
    r = server.http.post(f"{server.url}/api/matches/{started['match']}/host/end",
                         params={"token": match_host}, json={"reason": "ended by the host"})
    assert r.status_code == 200, r.text
    view = wait_stage(server, sid, host, ("mm",), timeout=30)
    assert view["stage"] == "name_ec" and view["problem"] is None
    main = view["episodes"][0]["main"]["result"]
    assert sorted(main["trapped"]) == sorted(SIX) and main["ec"] is None
    assert "SE-6" in view["episodes"][0]["note"]

    def every_endpoint() -> dict[str, Any]:
        for token in (host, created["tokens"]["players"]["Ann"], None):
            get(server, sid, token)
            page = server.http.get(f"{server.url}/s/{sid}",
                                   params={"token": token} if token else {})
            assert page.status_code == 200, page.text
        assert server.http.get(server.url + "/api/seasons").status_code == 200
        return get(server, sid, host)

    before = every_endpoint()
    server.kill()
    server.start()
    after = every_endpoint()
    for key in ("stage", "episodes", "ledger", "standings", "version", "problem", "waiting"):
        assert after[key] == before[key], key
    post(server, sid, "host/name_ec", host, {"ec": "Ben", "reason": "fewest keys"})
    assert get(server, sid)["stage"] in ("nominate", "dm_pick")
    post(server, sid, "host/end", host, {"reason": "the test is over"})
    assert get(server, sid)["stage"] == "over"
    assert "Traceback" not in server.log_path.read_text(encoding="utf-8", errors="replace")
