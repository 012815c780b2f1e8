"""Seasons the old season engine stored become season matches of the same id at start-up
(``server/season_import.py``, ``season/legacy.py``): nothing stored is lost and every link
already handed out goes on working.

The old era's database is written through the store's old season methods with the rows the
old engine itself wrote (``old_seasons.json``, made by ``make_old_seasons.py`` with that
engine's code, moved in time to now): a gift on its clock (with private lines, a ledger
adjustment and a round limit), a nomination the host paused, a Death Match to start with no
clock and one with a clock the host set, a Main Match in play with its own match, a finished
season; and two damaged ones. A server started on it serves the old links with the same ledger,
standings and episodes; deadlines are kept, clockless steps are paused, a paused step keeps
the time it had left; the old Main Match's end reaches the season; the damaged ones answer
503 naming why, their rows untouched; and a second start converts nothing more.
"""

from __future__ import annotations

import contextlib
import copy
import html
import json
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from starlette.exceptions import StarletteDeprecationWarning

from arena.core.clock import ManualClock
from arena.core.errors import RuleError
from arena.core.match import INPUT_KINDS, Event, Match, MatchSettings
from arena.season.game import SEASON
from arena.season.legacy import NO_CLOCK_NOTE
from arena.server import season_import
from arena.server.app import create_app
from arena.store import MatchRecord, Store, TokenRecord
from arena.store.legacy import OldSeason
from arena.store.match_rows import seed_from_db

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

FIXTURE = json.loads((Path(__file__).parent / "old_seasons.json").read_text())
TIME_KEYS = frozenset({"t", "deadline", "created", "start", "updated", "at", "until"})
CONVERTED = ("gift", "nominate_paused", "dm_pick", "dm_pick_clock", "mm_play", "finished")
DAMAGED = {"damaged_record": "'Zed' is not in the cast", "damaged_head": "not valid JSON"}


# ---------------------------------------------------------------------- the old era
def shifted(value: Any, by: float) -> Any:
    """``value`` with every moment in it (a key naming a time) ``by`` seconds later."""
    if isinstance(value, dict):
        return {k: v + by if k in TIME_KEYS and isinstance(v, (int, float))
                and not isinstance(v, bool) else shifted(v, by) for k, v in value.items()}
    if isinstance(value, list):
        return [shifted(v, by) for v in value]
    return value


def old_rows(name: str, by: float) -> dict[str, Any]:
    """One old season of the fixture as the store holds it, moved ``by`` seconds."""
    s = FIXTURE["seasons"][name]
    row = s["row"]
    return {"id": row["id"], "status": row["status"], "created": row["created"] + by,
            "updated": row["updated"] + by,
            "head": shifted(json.loads(row["head"]), by),
            "record": shifted(json.loads(row["record"]), by),
            "entries": [shifted(json.loads(e["data"]), by) for e in s["entries"]],
            "tokens": [(t["token"], t["role"], t["player"]) for t in s["tokens"]]}


def write_season(store: Store, old: dict[str, Any]) -> None:
    """Through the old engine's store methods, as it wrote them: the season and its links,
    then each input with the snapshot and status it left."""
    store.create_season(old["id"], old["head"], old["record"], old["created"], old["tokens"])
    for version, item in enumerate(old["entries"], start=1):
        store.append_season_entry(old["id"], version, item, old["record"], old["status"])


def write_old_era(url: str, by: float) -> dict[str, dict[str, Any]]:
    """Every fixture season and match, plus two damaged seasons; name -> its old rows."""
    store = Store(url)
    olds = {name: old_rows(name, by) for name in FIXTURE["seasons"]}
    for old in olds.values():
        write_season(store, old)
    for m in FIXTURE["matches"]:
        r = m["row"]
        store.create_match(MatchRecord(
            id=r["id"], game=r["game"], config=json.loads(r["config"]),
            seed=seed_from_db(r["seed"]), settings=json.loads(r["settings"]),
            start=r["start"] + by, seat_names=tuple(json.loads(r["seat_names"])),
            bots=tuple(json.loads(r["bots"])), status=r["status"],
            result=None if r["result"] is None else json.loads(r["result"]),
            created=r["created"] + by),
            [TokenRecord(t["token"], t["match_id"], t["role"], t["seat"]) for t in m["tokens"]])
        store.append_events(r["id"], [
            Event(e["version"], e["kind"], shifted(json.loads(e["data"]), by),
                  None if e["to"] is None else frozenset(json.loads(e["to"])), e["t"] + by)
            for e in m["events"]])
    # A snapshot naming a player outside the cast in its ledger, and a head that is not JSON.
    bad = copy.deepcopy(olds["gift"])
    bad.update(id="0ldbadrecord", tokens=[(f"bad-rec-{i}", r, p)
                                          for i, (_, r, p) in enumerate(bad["tokens"])])
    bad["record"]["ledger"][0]["player"] = "Zed"
    write_season(store, bad)
    olds["damaged_record"] = bad
    worse = copy.deepcopy(olds["dm_pick"])
    worse.update(id="0ldbadheadxx", tokens=[(f"bad-head-{i}", r, p)
                                            for i, (_, r, p) in enumerate(worse["tokens"])])
    write_season(store, worse)
    with store.session() as s, s.begin():
        s.execute(text("UPDATE seasons SET head = 'not json {' WHERE id = :i"),
                  {"i": worse["id"]})
    olds["damaged_head"] = worse
    store.close()
    return olds


def raw_rows(url: str, season_id: str) -> dict[str, list[tuple[Any, ...]]]:
    """A season's old rows exactly as stored (to see that nothing touched them)."""
    store = Store(url)
    try:
        with store.session() as s:
            return {table: [tuple(r) for r in s.execute(text(
                f"SELECT * FROM {table} WHERE {key} = :i ORDER BY 1"), {"i": season_id})]
                for table, key in (("seasons", "id"), ("season_entries", "season_id"),
                                   ("season_tokens", "season_id"))}
    finally:
        store.close()


def stored(url: str) -> tuple[set[str], dict[str, int], dict[str, str]]:
    """The match ids, each season match's count of import acts, the old rows' statuses."""
    store = Store(url)
    try:
        with store.session() as s:
            ids = {r[0] for r in s.execute(text("SELECT id FROM matches"))}
            statuses = {r[0]: r[1] for r in s.execute(text("SELECT id, status FROM seasons"))}
        imports = {sid: sum(1 for e in store.events(sid)
                            if e.kind == "act" and e.data.get("name") == "import")
                   for sid in statuses if sid in ids}
        return ids, imports, statuses
    finally:
        store.close()


@contextlib.contextmanager
def serving(url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("ARENA_BOT_WORKERS", "0")
    with TestClient(create_app(url), raise_server_exceptions=False) as client:
        yield client


# ---------------------------------------------------------------------- reading it back
def season(client: TestClient, sid: str, token: str, status: int = 200) -> dict[str, Any]:
    r = client.get(f"/api/seasons/{sid}", params={"token": token})
    assert r.status_code == status, r.text
    data: dict[str, Any] = r.json()
    return data


def host_token(old: dict[str, Any]) -> str:
    return next(t for t, role, _ in old["tokens"] if role == "host")


def player_token(old: dict[str, Any], name: str) -> str:
    return next(t for t, role, p in old["tokens"] if role == "player" and p == name)


def same_episodes(new: list[dict[str, Any]], old: list[dict[str, Any]]) -> None:
    """Each episode says what the old record said, in the new record's words."""
    assert len(new) == len(old)
    for n, o in zip(new, old, strict=True):
        for key in ("episode", "final", "gift", "gift_how", "ec", "ec_how", "dmo", "dmo_how",
                    "eliminated"):
            assert n[key] == o[key], (key, n[key], o[key])
        if o["note"]:
            assert o["note"] in n["notes"]
        if o["main"] is not None and o["main"]["result"] is not None:
            assert n["main"]["result"] == o["main"]["result"]
            assert n["main"]["external"] == o["main"]["external"]
        if o["death_match"] is not None:
            for key in ("game", "seats", "winner", "external"):
                assert n["death_match"][key] == o["death_match"][key], key


def events(client: TestClient, sid: str, token: str) -> list[dict[str, Any]]:
    r = client.get(f"/api/matches/{sid}/events", params={"token": token})
    assert r.status_code == 200, r.text
    found: list[dict[str, Any]] = r.json()["events"]
    return found


def wait_for(check: Any, what: str, tries: int = 400) -> Any:
    """Poll ``check`` (a function) until it returns something truthy."""
    for _ in range(tries):
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"never happened: {what}")


# ---------------------------------------------------------------------- the test
def test_old_seasons_become_season_matches(database_url: str,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    earliest = min(s["row"]["created"] for s in FIXTURE["seasons"].values())
    by = time.time() - 120 - earliest  # the old seasons were made two minutes ago
    olds = write_old_era(database_url, by)
    damaged_before = {name: raw_rows(database_url, olds[name]["id"]) for name in DAMAGED}

    with serving(database_url, monkeypatch) as client:
        # Every old link works, each as the reader it was; the record is the same.
        for name in CONVERTED:
            old = olds[name]
            sid, record = old["id"], old["record"]
            view = season(client, sid, host_token(old))
            assert view["role"] == "host"
            state = view["state"]
            assert state["cast"] == record["cast"]
            assert state["ledger"] == record["ledger"]
            assert state["standings"] == record["standings"]
            same_episodes(state["episodes"], record["episodes"])
            for i, player in enumerate(record["cast"]):
                mine = season(client, sid, player_token(old, player))
                assert (mine["role"], mine["you"]) == ("seat", i)
            page = client.get(f"/s/{sid}", params={"token": player_token(old, "Ann")})
            assert page.status_code == 200
            public = client.get(f"/s/{sid}", follow_redirects=False)
            assert public.status_code == 303
            spectator = public.headers["location"].split("token=")[1]
            assert season(client, sid, spectator)["role"] == "spectator"

        # A gift on its clock: the old deadline, the old round limit, and both private lines
        # for the host and Ben alone (G-13).
        old = olds["gift"]
        view = season(client, old["id"], host_token(old))
        assert view["state"]["step"] == "gift" and not view["paused"]
        assert view["phase"]["deadline"] == pytest.approx(old["record"]["deadline"])
        assert view["state"]["mm_rounds"] == 7
        assert view["state"]["turn"]["players"] == ["Ann"]
        lines = ["Ben, a word about the vault?", "Sure, what is it?"]
        for token, sees in ((host_token(old), True), (player_token(old, "Ben"), True),
                            (player_token(old, "Cat"), False)):
            said = [e["data"]["text"] for e in events(client, old["id"], token)
                    if e["kind"] == "chat"]
            assert said == (lines if sees else [])
        # ... and the season goes on from there: Ann gives the token.
        r = client.post(f"/api/seasons/{old['id']}/gift",
                        params={"token": player_token(old, "Ann")}, json={"to": "Ben"})
        assert r.status_code == 200, r.text
        after = season(client, old["id"], host_token(old))["state"]
        assert after["step"] == "nominate" and after["episodes"][0]["gift"] == "Ben"

        # A paused nomination keeps the time it had left: resumed, that is its clock.
        old = olds["nominate_paused"]
        view = season(client, old["id"], host_token(old))
        left = old["record"]["paused_left"]
        assert view["state"]["step"] == "nominate" and view["paused"]
        assert view["phase"]["deadline"] == pytest.approx(old["updated"] + left)
        r = client.post(f"/api/seasons/{old['id']}/host/resume",
                        params={"token": host_token(old)}, json={})
        assert r.status_code == 200, r.text
        resumed = [e for e in events(client, old["id"], host_token(old))
                   if e["kind"] == "resume"][-1]
        assert resumed["data"]["deadline"] - resumed["t"] == pytest.approx(left)

        # Starting the Death Match: without a clock it waits, paused, saying so; with the
        # host's clock it keeps it.
        old = olds["dm_pick"]
        view = season(client, old["id"], host_token(old))
        assert view["state"]["step"] == "dm_next" and view["paused"]
        assert NO_CLOCK_NOTE in view["state"]["episodes"][-1]["notes"]
        assert view["state"]["episodes"][-1]["death_match"] is None
        old = olds["dm_pick_clock"]
        view = season(client, old["id"], host_token(old))
        assert view["state"]["step"] == "dm_next" and not view["paused"]
        assert view["phase"]["deadline"] == pytest.approx(old["record"]["deadline"])
        assert NO_CLOCK_NOTE not in view["state"]["episodes"][-1]["notes"]

        # The Main Match in play is the old match: its links are the season's, its end
        # reaches the season.
        old = olds["mm_play"]
        child = old["record"]["episodes"][0]["main"]["match"]
        view = season(client, old["id"], host_token(old))
        assert view["state"]["step"] == "mm_play"
        assert f"/m/{child}?token=" in view["links"]["e1-mm"]["host"]
        mine = season(client, old["id"], player_token(old, "Ann"))
        assert f"/m/{child}?token=" in mine["links"]["e1-mm"]["play"]
        child_host = view["links"]["e1-mm"]["host"].split("token=")[1]
        r = client.post(f"/api/matches/{child}/host/end", params={"token": child_host},
                        json={"reason": "the club closed early"})
        assert r.status_code == 200, r.text
        moved = wait_for(lambda: season(client, old["id"], host_token(old))["state"]["step"]
                         != "mm_play", "the old Main Match's end reaching the season")
        assert moved

        # A finished season is over, with its winner, in the list too.
        old = olds["finished"]
        view = season(client, old["id"], host_token(old))
        assert view["state"]["step"] == "over" and view["match"]["status"] == "finished"
        assert view["state"]["winner"] == "Ann"
        listed = {s["id"]: s for s in client.get("/api/seasons").json()}
        assert listed[old["id"]]["status"] == "finished"
        assert listed[old["id"]]["winner"] == "Ann"
        assert {olds[n]["id"] for n in CONVERTED} <= set(listed)

        # The damaged ones say why, on the API and on their page.
        for name, why in DAMAGED.items():
            old = olds[name]
            r = client.get(f"/api/seasons/{old['id']}", params={"token": host_token(old)})
            assert r.status_code == 503 and why in r.json()["error"], r.text
            page = client.get(f"/s/{old['id']}")
            assert page.status_code == 503 and why in html.unescape(page.text)

    ids, imports, statuses = stored(database_url)
    for name in CONVERTED:
        assert imports[olds[name]["id"]] == 1
        assert statuses[olds[name]["id"]] == "converted"
    for name in DAMAGED:
        assert olds[name]["id"] not in ids
        assert raw_rows(database_url, olds[name]["id"]) == damaged_before[name]

    # A second start converts nothing more, and the damaged are still quarantined.
    with serving(database_url, monkeypatch) as client:
        for name in CONVERTED:
            season(client, olds[name]["id"], host_token(olds[name]))
        for name in DAMAGED:
            season(client, olds[name]["id"], host_token(olds[name]), status=503)
    assert stored(database_url)[0] == ids
    assert stored(database_url)[1] == imports
    for name in DAMAGED:
        assert raw_rows(database_url, olds[name]["id"]) == damaged_before[name]


# ---------------------------------------------------------------------- the pure part
def old_season(name: str) -> OldSeason:
    old = old_rows(name, 0.0)
    return OldSeason(old["id"], old["head"], old["record"], old["status"], old["created"],
                     old["updated"], old["entries"], old["tokens"])


@pytest.mark.parametrize("name", sorted(FIXTURE["seasons"]))
def test_the_converted_log_replays_to_the_same_season(name: str) -> None:
    """G-7: the log the conversion stores rebuilds the very season it built."""
    old = old_season(name)
    missing = [] if name != "mm_play" else ["gone"]
    record, _, log = season_import.build(old, missing, "spectator-token")
    config = SEASON.config_from_record(record.config)
    inputs = [e for e in log if e.kind in INPUT_KINDS]
    again = Match.replay(SEASON, config, record.seed, MatchSettings.from_json(record.settings),
                         record.start, inputs, ManualClock(log[-1].t), until=log[-1].t,
                         names=record.seat_names)
    assert [(e.version, e.kind, e.data, e.to, e.t) for e in again.log] == \
        [(e.version, e.kind, e.data, e.to, e.t) for e in log]
    assert again.finished == (record.status == "finished")
    assert (again.paused_at is not None) == (log[-1].kind == "pause")


def test_a_main_match_that_cannot_be_found_is_started_again() -> None:
    """An old season playing a Main Match that is gone goes back to 'Main Match next' with a
    note, paused, instead of waiting for ever."""
    old = old_season("mm_play")
    child = old.record["episodes"][0]["main"]["match"]
    _, _, log = season_import.build(old, [child], "spectator-token")
    imported = next(e for e in log if e.kind == "imported")
    assert imported.data["step"] == "main_next"
    assert log[-1].kind == "pause"


def test_only_a_legacy_season_takes_the_import_and_only_first() -> None:
    """SE-5: the import act is the server's, first, once, and only on a legacy season; a
    record that cannot be read is refused naming why, the season unchanged."""
    old = old_season("gift")
    cast = old.head["cast"]
    plain = Match(SEASON, SEASON.make_config({"cast": cast}), 1, ManualClock(0.0), names=cast)
    with pytest.raises(RuleError, match="only a season the old season engine stored"):
        plain.act("import", {"record": old.record}, "server")
    legacy = Match(SEASON, SEASON.make_config({"cast": cast, "legacy": True}), 1,
                   ManualClock(0.0), names=cast)
    assert legacy.spec is not None and legacy.spec.duration is None
    with pytest.raises(RuleError, match="server"):
        legacy.act("import", {"record": old.record}, "host")
    with pytest.raises(RuleError, match="being imported"):
        legacy.act("mm_rounds", {"max_rounds": 3}, "host")
    broken = copy.deepcopy(old.record)
    broken["stage"] = "vault"
    version = legacy.version
    with pytest.raises(RuleError, match="stage 'vault'"):
        legacy.act("import", {"record": broken}, "server")
    assert legacy.version == version
    legacy.act("import", {"record": old.record}, "server")
    assert legacy.state.step == "gift"
    with pytest.raises(RuleError, match="only as its first step"):
        legacy.act("import", {"record": old.record}, "server")


def test_an_old_main_match_keeps_the_vote_it_held() -> None:
    """LO-9: a Main Match the old engine started held its own vote; when it ends, the
    season takes its Elimination Candidate instead of voting again (SE-6 is for the
    season's own Main Matches)."""
    old = old_season("mm_play")
    cast = old.head["cast"]
    m = Match(SEASON, SEASON.make_config({"cast": cast, "legacy": True}), 1,
              ManualClock(0.0), names=cast)
    m.act("import", {"record": old.record}, "server")
    assert m.state.step == "mm_play"
    (spec,) = SEASON.children(m.state)
    assert (spec.key, spec.match_id, spec.live) == ("e1-mm", old.record["episodes"][0]["main"]
                                                    ["match"], True)
    detail = {"escaped": [0], "losers": [1, 2], "bars": [4, 1, 0], "winners": [0],
              "opal": None, "ec": 2, "keys": [3, 1, 0], "cards_left": [0, 2, 3]}
    m.act("match_result", {"key": "e1-mm", "result": {"winner": 0, "scores": [1, 0, 0],
                                                       "reason": "the vault closed",
                                                       "detail": detail}}, "server")
    ep = m.state.episode
    assert (ep.ec, m.state.step) == ("Cat", "nominate")
    assert ep.ec_how == "voted by the trapped players in the Main Match (LO-9)"
