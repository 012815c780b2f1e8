"""Endings that never break a season (SE-6), in process.

A season's Main Match may end in any way: its last round, the host's round limit, the host
closing the vault from the season, the host pressing "End match" on the match's own page. It
is then scored as it stands (LO-8) and the steps of SE-3 follow: with two or more trapped,
the vote of those trapped, as a season step with its own clock. A Death Match ended early has
no winner, and the host decides who leaves (SE-4), seeing whose seat a bot played. A season
whose stored log cannot be replayed is that season's problem alone: 503 naming why.

The property test over any interleaving of host and player actions is
``test_season_engine.py``'s (the issue's acceptance test); these are the paths named in it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.core.match import Event
from arena.season.game import SEASON
from arena.season.state import DEFAULT_MM_ROUNDS
from arena.store import Store
from server.inprocess import TestClient, in_process_server
from server.seasonkit import FAST, Season, assert_replays, by_name, refused

CAST = [{"name": "Ann", "bot": False}, {"name": "Ben", "bot": False},
        {"name": "Cat", "bot": True}, {"name": "Dan", "bot": True}]
# Rounds of 36 s at this scale: the humans never play, so a match ends only as the host says.
MM = {"round_seconds": 3600, "vote_seconds": 3600}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = tmp_path_factory.mktemp("endings")
    return path


@pytest.fixture(scope="module")
def client(folder: Path) -> Iterator[TestClient]:
    with in_process_server(folder) as c:
        yield c


def create(client: TestClient, **extra: Any) -> Season:
    return Season.create(client, {"cast": CAST, "seed": 11, "settings": FAST, "mm_config": MM,
                                  "step_seconds": 100000, **extra})


def test_se6_end_match_on_the_main_match_goes_on_to_the_vote(client: TestClient) -> None:
    """The audit's path: start the Main Match, the host presses "End match" on its page."""
    s = create(client)
    s.ok("start_main")
    mm, mm_host = s.made("e1-mm")
    r = s.match_post("host/end", mm_host, {"reason": "enough for tonight"}, mm)
    assert r.status_code == 200, r.text
    view = s.wait_step("mm_play")
    state = view["state"]
    ep = state["episodes"][0]
    # Scored as it stood (SE-6): nobody escaped in round 1, so all four are trapped and hold
    # LO-9's vote as a season step, on its own clock.
    assert ep["main"]["result"]["trapped"] == ["Ann", "Ben", "Cat", "Dan"]
    assert ep["main"]["result"]["escaped"] == [] and ep["main"]["external"] is False
    assert state["step"] == "vote" and view["phase"]["deadline"] is not None
    assert any("SE-6" in n and "enough for tonight" in n for n in ep["notes"])
    assert state["turn"] == {"players": ["Ann", "Ben", "Cat", "Dan"],
                             "options": ["Ann", "Ben", "Cat", "Dan"], "rule": "LO-9"}
    # The host names nobody here: the trapped vote (the bots Cat and Dan at once).
    refused(s.host_act("name_ec", {"ec": "Cat", "reason": "the host's call"}), "SE-1")
    refused(s.choose("Ann", "vote", "Zed"), "LO-9")
    assert s.choose("Ann", "vote", "Cat").status_code == 200
    assert s.choose("Ben", "vote", "Cat").status_code == 200
    state = s.wait_step("vote", "tie")["state"]
    ep = state["episodes"][0]
    assert ep["vote"]["ballots"]["Ann"] == "Cat" and ep["vote"]["ballots"]["Ben"] == "Cat"
    assert ep["ec"] == "Cat" and "LO-9" in ep["ec_how"]
    assert state["step"] in ("nominate", "dm_next")
    # The match's result reached the season once; the log replays to the live season.
    assert [a["data"]["key"] for a in s.acts("match_result")] == ["e1-mm"]
    assert_replays(client, s.id)
    s.ok("end", {"reason": "done"})


def test_close_the_vault_now_and_the_round_limit_by_default(client: TestClient) -> None:
    """SE-6: the host's season-level "close the vault now" ends the Main Match, which the
    season then scores as it stands; the next Main Match has the round limit the host set,
    and a season created without one has the default; its seeds have 64 bits (G-12)."""
    s = create(client)
    assert s.state()["mm_rounds"] == DEFAULT_MM_ROUNDS  # no round limit given: the default
    refused(s.host_act("close_vault"), "SE-6")  # no match yet
    refused(s.host_act("mm_rounds", {"max_rounds": 401}), "SE-6")
    s.ok("mm_rounds", {"max_rounds": 7})
    s.ok("start_main")
    mm, _ = s.made("e1-mm")
    assert s.state()["mm_rounds"] == 7
    s.ok("close_vault")
    view = s.wait_step("mm_play")
    assert view["state"]["step"] == "vote"
    assert any("closed the vault now" in n for n in view["state"]["episodes"][0]["notes"])
    owners = client.app.state.matches.owners  # type: ignore[attr-defined]
    record = owners[mm].record
    assert record.config["max_rounds"] == 7 and record.config["vote"] == "season"
    spec = next(x for x in SEASON.children(owners[s.id].match.state) if x.key == "e1-mm")
    assert record.seed == spec.seed and 2**32 <= spec.seed < 2**64  # exact, 64 bits (G-12)
    refused(s.host_act("close_vault"), "SE-6")  # closed already
    s.ok("end", {"reason": "done"})


def test_the_episode_says_a_death_match_seat_was_handed_to_a_bot(client: TestClient) -> None:
    cast = [{"name": n, "bot": False} for n in ("Ann", "Ben", "Cat")] + [
        {"name": "Dan", "bot": True}]
    s = create(client, cast=cast)
    s.ok("record_main", {"reason": "stage", "result": {
        "escaped": ["Ann", "Ben"], "trapped": ["Cat", "Dan"], "bars": {"Ann": 5, "Ben": 3},
        "ec": "Cat"}})
    assert s.choose("Ann", "gift", "Ben").status_code == 200
    assert s.choose("Cat", "nominate", "Ann").status_code == 200
    s.ok("start_death", {"game": "boxes", "config": {"bouts": 2}})
    waiting = s.state(s.players["Ben"])["waiting"]
    assert waiting == "Cat and Ann are playing the Death Match."
    dm, dm_host = s.made("e1-dm")
    r = s.match_post("host/seat", dm_host, {"seat": 1, "bot": True}, dm)
    assert r.status_code == 200, r.text
    # Ann's season seat goes to a bot as well (its own link, the season's votes to come).
    r = s.match_post("host/seat", s.host, {"seat": 0, "bot": True})
    assert r.status_code == 200, r.text
    r = s.match_post("host/end", dm_host, {"reason": "late"}, dm)
    assert r.status_code == 200, r.text
    state = s.wait_step("dm_play")["state"]
    assert state["step"] == "dm_decide"  # ended early: no winner, the host decides (SE-4)
    assert state["episodes"][0]["death_match"]["handed_to_bot"] == ["Ann"]
    assert s.state()["episodes"][0]["death_match"]["handed_to_bot"] == ["Ann"]
    refused(s.host_act("decide", {"loser": "Ann"}), "SE-4")  # a reason is needed
    s.ok("decide", {"loser": "Ann", "reason": "left early"})
    assert by_name(s.state())["Ann"]["in"] is False
    assert_replays(client, s.id)
    s.ok("end", {"reason": "done"})


def test_a_season_whose_stored_log_cannot_be_replayed_is_its_own_problem(
        tmp_path: Path) -> None:
    with in_process_server(tmp_path) as c:
        damaged, sound = create(c), create(c)
        for s in (damaged, sound):
            s.ok("adjust", {"player": "Ann", "what": "garnets", "amount": 2, "reason": "prize"})
    folder = tmp_path
    store = Store(f"sqlite:///{folder / 'arena.db'}")
    try:
        last = store.events(damaged.id)[-1]
        # A stored step that no longer applies (a bad migration, say): a Death Match
        # started before any Main Match.
        store.append_events(damaged.id, [Event(last.version + 1, "act", {
            "name": "start_death", "data": {"game": "boxes"}, "by": "host"}, None, last.t)])
    finally:
        store.close()
    with in_process_server(folder) as c:
        broken = Season(c, damaged.created)
        r = c.get(f"/api/seasons/{broken.id}", params={"token": broken.host})
        assert r.status_code == 503, r.text
        assert "SE-1" in r.json()["error"] and "Death Match next" in r.json()["error"]
        refused(broken.host_act("adjust", {"player": "Ann", "what": "garnets", "amount": 1,
                                           "reason": "x"}), status=503)
        assert c.get(f"/api/matches/{broken.id}/view",
                     params={"token": broken.spectator}).status_code == 503
        # The rest of the server goes on.
        assert c.get("/api/seasons").status_code == 200
        assert Season(c, sound.created).state()["standings"][0]["garnets"] == 2
        assert c.get("/").status_code == 200
