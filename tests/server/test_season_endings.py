"""Endings that never break a season (issue 26 point 1, SE-6), in process.

The host's natural way out of a Main Match, "End match" on the match's own page, used to leave
the season answering 500 on every page, for good: the match's result had no Locked Out! scores
and the season's watcher failed on it three times a second. Now a Main Match that ends in any
way leads to a season step: scored as it stood (LO-8), or, where it cannot be read, the host is
asked to record it by hand (SE-2).

The property test drives any sequence of host actions (start a match, end it from its own page,
close the vault, hand seats to bots, record results by hand, adjust, change the round limit,
end the season) on a season with bots and humans, and checks after every step that each season
endpoint answers 200 or a 4xx naming a rule, and that the ledger replays, in memory and from
the store, to the standings the season shows.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.exceptions import StarletteDeprecationWarning

from arena.season.ledger import Entry, Ledger
from arena.season.live import LiveSeason
from server.inprocess import in_process_server

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

CAST = [{"name": "Ann", "bot": False}, {"name": "Ben", "bot": False},
        {"name": "Cat", "bot": True}, {"name": "Dan", "bot": True}]
# Rounds of 36 s at this scale: the humans never play, so a match ends only as the host says.
SETTINGS = {"time_scale": 0.01, "bot_pace": "instant"}
MM = {"round_seconds": 3600, "vote_seconds": 3600}
RULE = re.compile(r"^(SE|LO|G|LM|BX|PF|LF)-\d{1,2}$")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder: Path = tmp_path_factory.mktemp("endings")
    patch = pytest.MonkeyPatch()
    with in_process_server(folder, patch) as c:
        yield c


def create(client: TestClient, **extra: Any) -> dict[str, Any]:
    r = client.post("/api/seasons", json={"cast": CAST, "seed": 11, "settings": SETTINGS,
                                          "mm_config": MM, "step_seconds": 100000, **extra})
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


def season(client: TestClient, sid: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/seasons/{sid}", params={"token": token} if token else {})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def host_post(client: TestClient, sid: str, host: str, action: str,
              body: dict[str, Any]) -> Any:
    return client.post(f"/api/seasons/{sid}/host/{action}", params={"token": host}, json=body)


def running_match(client: TestClient, sid: str, host: str) -> tuple[str, str] | None:
    """The running match of the season's current episode and its host link's token."""
    data = season(client, sid, host)
    ep = data["episodes"][-1]
    block = ep.get("main") if data["stage"] == "mm" else (
        ep.get("death_match") if data["stage"] == "dm" else None)
    if not block or not block.get("match"):
        return None
    link = (block.get("links") or {}).get("host") or ""
    return block["match"], link.split("token=")[-1]


def check_answer(r: Any, what: str) -> None:
    """SE-6: 200, or a 4xx that says why, naming the rule when a rule refused it."""
    assert r.status_code < 500, f"{what}: {r.status_code} {r.text}"
    if r.status_code >= 400:
        data = r.json()
        assert data.get("error"), f"{what}: {r.text}"
        if r.status_code == 422:
            assert RULE.match(str(data.get("rule"))) or data.get("rule") in ("host", "api"), \
                f"{what}: {r.text}"


def check_endpoints(client: TestClient, created: dict[str, Any], *,
                    every: bool = True) -> dict[str, Any]:
    """Every season endpoint answers 200 (``every=False``: the host's view and page only, the
    ones that show the most), and the ledger replays to the standings shown."""
    sid = created["id"]
    host = created["tokens"]["host"]
    for token in (created["tokens"]["players"]["Ann"], None) if every else ():
        season(client, sid, token)
        page = client.get(f"/s/{sid}", params={"token": token} if token else {})
        assert page.status_code == 200, page.text
    if every:
        assert client.get("/api/seasons").status_code == 200
    page = client.get(f"/s/{sid}", params={"token": host})
    assert page.status_code == 200, page.text
    view = season(client, sid, host)
    # SE-5: the ledger replays to the standings the season shows.
    ledger = Ledger(tuple(view["cast"]), [Entry.from_json(e) for e in view["ledger"]])
    replayed = ledger.standings()
    assert [replayed[n].to_json() for n in view["cast"]] == view["standings"]
    return view


async def replay_stored(client: TestClient, sid: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The season replayed from its stored inputs, as a restarted server would, and the season
    in memory, both read under its lock (its watcher may be taking a step meanwhile)."""
    seasons = client.app.state.seasons  # type: ignore[attr-defined]
    owner = seasons.owners[sid]
    async with owner.lock:
        stored = await seasons.store.get_season(sid)
        assert stored is not None
        head, inputs = stored
        return LiveSeason.replay(head, inputs).to_json(), owner.season.to_json()


def act(client: TestClient, created: dict[str, Any], action: str, pick: int) -> None:
    sid, host = created["id"], created["tokens"]["host"]
    view = season(client, sid, host)
    ep = view["episodes"][-1]
    players = ep["players"] or [s["name"] for s in view["standings"] if s["in"]]
    if action in ("end_match", "hand_to_bot"):
        found = running_match(client, sid, host)
        if found is None:
            return
        match_id, token = found
        if action == "end_match":  # the host's "End match" on the match's own page
            r = client.post(f"/api/matches/{match_id}/host/end", params={"token": token},
                            json={"reason": "enough for tonight"})
        else:
            r = client.post(f"/api/matches/{match_id}/host/seat", params={"token": token},
                            json={"seat": pick % 2, "bot": True})
        check_answer(r, action)
        return
    bodies: dict[str, tuple[str, dict[str, Any]]] = {
        "start_main": ("start_main", {}),
        "close_vault": ("close_vault", {}),
        "end_season": ("end", {"reason": "the host ended it"}),
        "record_main": ("record_main", {"reason": "played on the stage", "result": {
            "escaped": players[:1], "trapped": players[1:],
            "bars": {p: i for i, p in enumerate(players)},
            "ec": players[-1] if pick % 3 else None}}),
        "name_ec": ("name_ec", {"ec": players[pick % len(players)], "reason": "host's call"}),
        "start_death": ("start_death", {"game": "boxes", "config": {"bouts": 2}}),
        "record_death": ("record_death", {"loser": (ep.get("death_match") or {}).get(
            "seats", players)[pick % 2], "reason": "played elsewhere"}),
        "decide": ("decide", {"loser": (ep.get("death_match") or {}).get(
            "seats", players)[pick % 2], "reason": "a coin"}),
        "adjust": ("adjust", {"player": view["cast"][pick % 4], "what": "garnets",
                              "amount": 1 + pick % 3, "reason": "audience prize"}),
        "rounds": ("mm_rounds", {"max_rounds": pick}),
    }
    name, body = bodies[action]
    check_answer(host_post(client, sid, host, name, body), action)


ACTIONS = st.sampled_from(["start_main", "end_match", "close_vault", "hand_to_bot",
                           "end_season", "record_main", "name_ec", "start_death",
                           "record_death", "decide", "adjust", "rounds"])


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(steps=st.lists(st.tuples(ACTIONS, st.integers(0, 30)), min_size=1, max_size=8))
def test_se6_any_host_actions_keep_every_season_endpoint_answering(
        client: TestClient, steps: list[tuple[str, int]]) -> None:
    created = create(client)
    sid, host = created["id"], created["tokens"]["host"]
    try:
        # Most sequences are worth more with a Main Match under way.
        check_answer(host_post(client, sid, host, "start_main", {}), "start_main")
        for action, pick in steps:
            act(client, created, action, pick)
            check_endpoints(client, created, every=False)
        check_endpoints(client, created)
        # A restart replays the stored inputs to the very same season.
        stored, live = client.portal.call(replay_stored, client, sid)  # type: ignore[union-attr]
        assert stored == live
    finally:  # nothing of this season keeps running under the next example
        host_post(client, sid, host, "end", {"reason": "example over"})


def test_se6_end_match_on_the_main_match_goes_on_to_the_ec_step(client: TestClient) -> None:
    """The audit's path: start the Main Match, the host presses "End match" on its page."""
    created = create(client)
    sid, host = created["id"], created["tokens"]["host"]
    assert host_post(client, sid, host, "start_main", {}).status_code == 200
    match_id, token = running_match(client, sid, host) or ("", "")
    r = client.post(f"/api/matches/{match_id}/host/end", params={"token": token},
                    json={"reason": "enough for tonight"})
    assert r.status_code == 200, r.text
    view = check_endpoints(client, created)
    ep = view["episodes"][0]
    result = ep["main"]["result"]
    # Scored as it stood (SE-6): nobody escaped in round 1, so everyone is trapped, nobody
    # voted, and the host names the EC among the trapped.
    assert result["trapped"] == ["Ann", "Ben", "Cat", "Dan"] and result["escaped"] == []
    assert view["stage"] == "name_ec" and view["problem"] is None
    assert "SE-6" in ep["note"] and "enough for tonight" in ep["note"]
    err = host_post(client, sid, host, "name_ec", {"ec": "Zed", "reason": "x"})
    assert err.status_code == 422 and err.json()["rule"] == "LO-9"
    ok = host_post(client, sid, host, "name_ec", {"ec": "Cat", "reason": "the host's call"})
    assert ok.status_code == 200, ok.text
    assert season(client, sid)["stage"] in ("nominate", "dm_pick")


def test_close_the_vault_now_and_the_round_limit_by_default(client: TestClient) -> None:
    """SE-6: the host's season-level "close the vault now" ends the Main Match, which the
    season then scores as it stands; the next Main Match has the round limit the host set,
    and a season created without one has the default; its seeds have 64 bits (G-12)."""
    from arena.core import rng as rngmod
    from arena.season.live import DEFAULT_MM_ROUNDS

    created = create(client)
    sid, host = created["id"], created["tokens"]["host"]
    view = season(client, sid, host)
    assert view["mm_rounds"] == DEFAULT_MM_ROUNDS  # no round limit given: the default
    refused = host_post(client, sid, host, "close_vault", {})
    assert refused.status_code == 422 and refused.json()["rule"] == "SE-1"  # no match yet
    assert host_post(client, sid, host, "mm_rounds", {"max_rounds": 401}).json()["rule"] \
        == "SE-6"
    assert host_post(client, sid, host, "mm_rounds", {"max_rounds": 7}).status_code == 200
    assert host_post(client, sid, host, "start_main", {}).status_code == 200
    match_id = season(client, sid, host)["episodes"][0]["main"]["match"]
    # The page draws the host's controls from this view (the browser tests show them).
    assert season(client, sid, host)["mm_rounds"] == 7
    r = host_post(client, sid, host, "close_vault", {})
    assert r.status_code == 200, r.text
    view = check_endpoints(client, created)
    assert view["stage"] == "name_ec" and "closed the vault now" in view["episodes"][0]["note"]
    info = client.get(f"/api/matches/{match_id}").json()
    record = client.app.state.matches.owners[match_id].record  # type: ignore[attr-defined]
    assert record.config["max_rounds"] == 7
    assert info["seed"] == str(rngmod.derive(11, "mm", 1).getrandbits(64))  # exact (issue 27)
    # The lobby's season form shows the same default (season_lobby.js reads it from here).
    assert f'data-max-rounds="{DEFAULT_MM_ROUNDS}"' in client.get("/").text
    host_post(client, sid, host, "end", {"reason": "done"})


def test_the_episode_says_a_death_match_seat_was_handed_to_a_bot(client: TestClient) -> None:
    cast = [{"name": n, "bot": False} for n in ("Ann", "Ben", "Cat")] + [
        {"name": "Dan", "bot": True}]
    created = create(client, cast=cast)
    sid, host = created["id"], created["tokens"]["host"]
    tok = created["tokens"]["players"]
    r = host_post(client, sid, host, "record_main", {"reason": "stage", "result": {
        "escaped": ["Ann", "Ben"], "trapped": ["Cat", "Dan"], "bars": {"Ann": 5, "Ben": 3},
        "ec": "Cat"}})
    assert r.status_code == 200, r.text
    assert client.post(f"/api/seasons/{sid}/gift", params={"token": tok["Ann"]},
                       json={"to": "Ben"}).status_code == 200
    assert client.post(f"/api/seasons/{sid}/nominate", params={"token": tok["Cat"]},
                       json={"dmo": "Ann"}).status_code == 200
    r = host_post(client, sid, host, "start_death", {"game": "boxes", "config": {"bouts": 2}})
    assert r.status_code == 200, r.text
    waiting = season(client, sid, tok["Ben"])["waiting"]
    assert waiting == "Cat and Ann are playing the Death Match; everyone waits for its result."
    match_id, token = running_match(client, sid, host) or ("", "")
    r = client.post(f"/api/matches/{match_id}/host/seat", params={"token": token},
                    json={"seat": 1, "bot": True})
    assert r.status_code == 200, r.text
    client.post(f"/api/matches/{match_id}/host/end", params={"token": token},
                json={"reason": "late"})
    view = check_endpoints(client, created)
    assert view["stage"] == "dm_decide"
    assert view["episodes"][0]["death_match"]["handed_to_bot"] == ["Ann"]
    assert season(client, sid, None)["episodes"][0]["death_match"]["handed_to_bot"] == ["Ann"]
    host_post(client, sid, host, "end", {"reason": "done"})


def test_se6_a_season_whose_stored_record_cannot_be_read_is_shown_with_the_step_named(
        client: TestClient) -> None:
    created = create(client)
    sid, host = created["id"], created["tokens"]["host"]
    assert host_post(client, sid, host, "adjust", {"player": "Ann", "what": "garnets",
                                                   "amount": 2, "reason": "prize"}
                     ).status_code == 200
    seasons = client.app.state.seasons  # type: ignore[attr-defined]

    async def damage() -> None:  # a stored step that no longer applies (a bad migration, say)
        owner = seasons.owners.pop(sid)
        await seasons.store.append_season_entry(sid, owner.version + 1, {
            "kind": "nominate", "dmo": "Nobody", "t": 1.0}, owner.season.to_json(), "running")

    client.portal.call(damage)  # type: ignore[union-attr]
    view = season(client, sid, host)
    assert "step 2 ('nominate'" in view["problem"]
    assert view["standings"][0]["garnets"] == 2  # what can be shown is shown
    assert client.get(f"/s/{sid}", params={"token": host}).status_code == 200
    refused = host_post(client, sid, host, "adjust", {"player": "Ann", "what": "garnets",
                                                      "amount": 1, "reason": "x"})
    assert refused.status_code == 422 and refused.json()["rule"] == "SE-5"
