"""One damaged row is one match's (or season's) problem, never the server's.

A server with matches of several games (running ones, one with a bot, a finished one), two
seasons (one with a stored step, one running its Main Match; a season is a match of the
``season`` game, so its rows are a match's), a seat's notes and a library scenario is built
once and stopped. Then, for each example, Hypothesis damages one field of one
row of one table of a copy of its database, directly in SQLite: bad JSON, JSON of the wrong
type, an object missing a key, truncated text, an empty string, NULL where the column allows
it. The tables and their columns come from the SQLAlchemy metadata, so a table added later is
damaged too (and must be named in the store's ``OWNER_OF``).

A new server over the damaged copy (a restart) must then: answer the lobby (``/``,
``/api/matches``, ``/api/seasons``) 200; resume every other running match (in memory, not
quarantined, and its clock moves on: deadlines that passed while it was down resolve, so its
log grows); serve every other match and season 200; answer the request that needs the damaged
row 503 naming the problem whenever the store cannot read the row (and the store must not be
able to read it whenever the damage makes the column unreadable, by the column's own rules
written out below); and never answer 500 on any route with the damaged match's or season's id,
the socket included.
"""

from __future__ import annotations

import contextlib
import html
import json
import shutil
import sqlite3
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import String, Text, text
from starlette.exceptions import StarletteDeprecationWarning
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocketDisconnect

from arena.core.match import INPUT_KINDS, Event
from arena.core.registry import register
from arena.games.feather.scenario import SCENARIO_DIR
from arena.server.damage import REBUILT_FROM
from arena.store import DamagedRow, MatchRecord, Store, TokenRecord
from arena.store.models import Base
from arena.store.rows import OWNER_OF
from server.inprocess import in_process_server
from toygame import TOY

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

register(TOY)

SIX = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
SEASON = {"cast": SIX, "settings": {"time_scale": 0.01, "bot_pace": "instant"},
          "mm_config": {"round_seconds": 60, "vote_seconds": 60, "max_rounds": 6}}
SCENARIO = SCENARIO_DIR / "example.toml"

SQLITE_NEVER_WRITES = {
    "match_leases": "leases are for several processes on PostgreSQL; one SQLite process owns "
                    "every match",
    "seasons": "seasons stored before a season was a match: no server writes them now, and "
               "their reader is the import (test_season_import.py damages them)",
    "season_entries": "as 'seasons'", "season_tokens": "as 'seasons'"}
"""Tables a server on SQLite leaves empty, so there is no row of theirs to damage here."""

JSON_COLUMNS: dict[tuple[str, str], type | None] = {
    ("matches", "config"): dict, ("matches", "settings"): dict, ("matches", "seat_names"): list,
    ("matches", "bots"): list, ("matches", "result"): dict,
    ("events", "data"): None, ("events", "to"): list, ("seat_notes", "data"): None,
    ("seasons", "head"): dict, ("seasons", "record"): dict, ("season_entries", "data"): dict,
}
"""Columns of JSON text, and the JSON type each holds (None: any JSON value, a log entry's data
or a page's notes; an input's data excepted, which the replay reads as an object)."""

REQUIRED_KEYS = {
    ("seasons", "head"): {"cast", "bots", "seed", "step_seconds", "created", "settings",
                          "mm_config"},
    ("seasons", "record"): {"cast", "episode", "stage_words", "winner"},
    ("season_entries", "data"): {"kind"},
}
"""Keys a stored object cannot do without (the other objects' keys all have defaults)."""

CHOICES = {("matches", "status"), ("tokens", "role"), ("seasons", "status"),
           ("season_tokens", "role")}
"""Text columns that hold one of a few words: any other text is damage."""

NAMES = {("matches", "game"), ("events", "kind"), ("scenarios", "game")}
"""Text columns that hold a name: empty, or with JSON's brackets and quotes, is damage."""

FREE_TEXT = {("scenarios", "text"), ("scenarios", "note"), ("season_tokens", "player"),
             ("match_leases", "owner"), ("match_leases", "url")}
"""Text columns where most text is a possible value (a player's name cannot be empty)."""

NUMBERS = {("tokens", "seat"), ("tokens", "delay")}
"""Columns that are not text but may be NULL (a seat's link must name its seat, a broadcast
link its delay)."""

BAD_JSON = ["%%%", "{{", "[1,", '{"a":', "{]", "'x'"]
JSON_OF_EACH_TYPE = ["{}", "[]", "1", '"x"', "true", "null", "2.5"]


# ---------------------------------------------------------------------- the server, built once
@dataclass
class Built:
    """The stopped server's database, and what the test needs to know of its contents."""

    db: Path
    hosts: dict[str, str]  # match id -> its host token (the seasons' and their matches' too)
    season_hosts: dict[str, str]  # season id -> its host token


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    folder = tmp_path_factory.mktemp("damaged-pristine")
    hosts: dict[str, str] = {}
    season_hosts: dict[str, str] = {}
    with in_process_server(folder) as client:
        def create(game: str, seats: list[dict[str, Any]], **settings_: Any) -> dict[str, Any]:
            r = client.post("/api/matches", json={"game": game, "seats": seats,
                                                  "settings": settings_})
            assert r.status_code == 201, r.text
            made: dict[str, Any] = r.json()
            hosts[made["id"]] = made["tokens"]["host"]
            return made

        # Running: deadlines a fraction of a second apart, so each restart has some to resolve.
        toy = create("toy", [{"name": "Ann"}, {"name": "Bot", "bot": True}], time_scale=0.005,
                     bot_pace="instant")
        lm = create("lockmaker", [{"name": "Ann"}, {"name": "Ben"}], time_scale=0.005)
        assert client.post(f"/api/matches/{lm['id']}/host/broadcast",  # a link with a delay
                           params={"token": lm["tokens"]["host"]}, json={"delay": 60}
                           ).status_code == 200
        create("boxes", [{"name": "Ann"}, {"name": "Bot", "bot": True}], time_scale=0.005,
               bot_pace="instant")
        finished = create("paint", [{"name": "Ann"}, {"name": "Ben"}])
        assert client.post(f"/api/matches/{finished['id']}/host/end",
                           params={"token": finished["tokens"]["host"]}, json={}
                           ).status_code == 200
        assert client.post(f"/api/matches/{toy['id']}/notes",
                           params={"token": toy["tokens"]["seats"][0]},
                           json={"notes": {"text": "watch the bot"}}).status_code == 200
        assert client.post("/api/scenarios", json={
            "name": "Mine", "note": "by Ann", "text": SCENARIO.read_text(encoding="utf-8")}
        ).status_code == 201
        # A season with a step stored (a Main Match recorded by hand, SE-2) ...
        r = client.post("/api/seasons", json={**SEASON, "seed": 7})
        assert r.status_code == 201, r.text
        recorded = r.json()
        season_hosts[recorded["id"]] = hosts[recorded["id"]] = recorded["tokens"]["host"]
        assert client.post(f"/api/seasons/{recorded['id']}/host/record_main",
                           params={"token": recorded["tokens"]["host"]},
                           json={"reason": "played on the stage", "result": {
                               "escaped": ["Ann", "Ben"], "trapped": SIX[2:],
                               "bars": {"Ann": 7, "Ben": 2}, "ec": "Cat", "opal": "Ann"}}
                           ).status_code == 200
        # ... and one whose Main Match runs here (its match is one of the running ones).
        r = client.post("/api/seasons", json={**SEASON, "seed": 8,
                                              "settings": {"time_scale": 0.01}})
        assert r.status_code == 201, r.text
        playing = r.json()
        season_hosts[playing["id"]] = hosts[playing["id"]] = playing["tokens"]["host"]
        r = client.post(f"/api/seasons/{playing['id']}/host/start_main",
                        params={"token": playing["tokens"]["host"]}, json={})
        assert r.status_code == 200, r.text
        # The season makes its Main Match on its own loop; its host link is the season host's.
        link = wait_for(lambda: client.get(f"/api/seasons/{playing['id']}", params={
            "token": playing["tokens"]["host"]}).json()["links"].get("e1-mm", {}).get("host"),
            what="the season's Main Match")
        main, token = link.split("/m/", 1)[1].split("?token=")
        hosts[main] = token
    return Built(folder / "arena.db", hosts, season_hosts)


# ---------------------------------------------------------------------- the tables
def owner_column(table: str) -> tuple[str, str]:
    """(column naming what a row belongs to, the table of that): the foreign key to a match
    or season, else the row's own key."""
    t = Base.metadata.tables[table]
    for column in t.columns:
        for fk in column.foreign_keys:
            return column.name, fk.column.table.name
    (key,) = t.primary_key.columns
    return key.name, table


def damageable(table: str) -> list[str]:
    """Every text column that is not a key (a changed key moves a row, it does not damage
    it), and every column that may be NULL."""
    t = Base.metadata.tables[table]
    out = []
    for column in t.columns:
        if column.primary_key or column.foreign_keys:
            continue
        if isinstance(column.type, String | Text) or column.nullable:
            out.append(column.name)
    return out


def test_every_table_is_damaged_somewhere_and_belongs_to_something(built: Built) -> None:
    """The property below draws from the metadata: every table has an owner the server can
    quarantine, and every table but those SQLite never writes has rows to damage."""
    assert set(Base.metadata.tables) == set(OWNER_OF)
    classes = [set(JSON_COLUMNS), CHOICES, NAMES, FREE_TEXT, NUMBERS]
    for table in Base.metadata.tables:
        for column in damageable(table):
            assert sum((table, column) in c for c in classes) == 1, (
                f"say how {table}.{column} may be damaged")
    with contextlib.closing(sqlite3.connect(built.db)) as db:
        empty = {t for t in Base.metadata.tables
                 if db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] == 0}
    assert empty == set(SQLITE_NEVER_WRITES)
    for table in set(Base.metadata.tables) - empty:
        assert damageable(table), table


# ---------------------------------------------------------------------- the store alone
def test_the_store_names_the_damage_and_its_listings_go_on(database_url: str) -> None:
    """On SQLite and PostgreSQL alike: the damage the audit found (bad JSON in a match's
    config, its seat names, a log entry's recipients, a season's stored step) is named by the
    store, and the listings leave that row out and say so."""
    store = Store(database_url)
    try:
        for match_id in ("m1", "m2", "m3"):
            store.create_match(MatchRecord(
                id=match_id, game="toy", config={}, seed=1, settings={}, start=1.0,
                seat_names=("A", "B"), bots=(False, True), created=float(match_id[1])),
                [TokenRecord(f"{match_id}-sp", match_id, "spectator")])
            store.append_events(match_id, [Event(1, "submit", {"seat": 0}, frozenset({0}), 2.0)])
        store.create_season("s1", {"cast": ["A", "B", "C"], "bots": [False] * 3, "seed": 1,
                                   "step_seconds": 60.0, "created": 1.0, "settings": {},
                                   "mm_config": {}},
                            {"cast": ["A", "B", "C"], "episode": 1, "stage_words": "x",
                             "winner": None}, 1.0, [("s1-h", "host", None)])
        store.append_season_entry("s1", 1, {"kind": "gift", "t": 3.0},
                                  {"cast": ["A", "B", "C"], "episode": 1, "stage_words": "x",
                                   "winner": None}, "running")
        with store.engine.begin() as c:
            c.execute(text("UPDATE matches SET config = '%%%' WHERE id = 'm1'"))
            c.execute(text("UPDATE matches SET seat_names = '{{' WHERE id = 'm2'"))
            c.execute(text("UPDATE events SET \"to\" = '[true]' WHERE match_id = 'm3'"))
            c.execute(text("UPDATE season_entries SET data = '[]' WHERE season_id = 's1'"))
        running = store.running()
        assert [r.id for r in running] == ["m3"]
        assert [(d.table, d.key, d.reason) for d in running.damaged] == [
            ("matches", "m1", "its config is not valid JSON"),
            ("matches", "m2", "its seat names are not valid JSON")]
        assert [r.id for r in store.list_matches()] == ["m3"]
        with pytest.raises(DamagedRow, match="its config is not valid JSON") as raised:
            store.get_match("m1")
        assert raised.value.of == "match" and raised.value.key == "m1"
        with pytest.raises(DamagedRow, match="its log entry 1's recipients are not a list of "
                                             "seat numbers"):
            store.events("m3")
        assert store.spectator_tokens(["m1", "m2", "m3"]) == {
            m: f"{m}-sp" for m in ("m1", "m2", "m3")}  # the links themselves are whole
        with pytest.raises(DamagedRow, match="its stored step 1's data is not an object") \
                as step:
            store.get_season("s1")
        assert step.value.of == "season" and step.value.table == "season_entries"
        assert [s[0] for s in store.list_seasons()] == ["s1"]  # its own row is whole
    finally:
        store.close()


# ---------------------------------------------------------------------- damage
@dataclass(frozen=True)
class Damage:
    table: str
    rowid: int
    column: str
    how: str
    before: Any
    after: Any
    row: dict[str, Any]

    @property
    def key(self) -> str:
        return str(self.row[owner_column(self.table)[0]])


def _parsed(value: Any) -> Any:
    try:
        return json.loads(value) if isinstance(value, str) else None
    except ValueError:
        return None


def damages(value: Any, text: bool, nullable: bool) -> list[st.SearchStrategy[tuple[str, Any]]]:
    """Every kind of damage to ``value`` (of a text column, or not): (how, damaged value)."""
    kinds: list[st.SearchStrategy[tuple[str, Any]]] = []
    if text:
        kinds.append(st.sampled_from(BAD_JSON).map(lambda v: ("bad JSON", v)))
        kinds.append(st.just(("empty", "")))
        parsed = _parsed(value)
        kinds.append(st.sampled_from(
            [j for j in JSON_OF_EACH_TYPE if value is None
             or type(json.loads(j)) is not type(parsed)]).map(lambda v: ("wrong type", v)))
    if isinstance(value, str) and value:
        kinds.append(st.integers(0, len(value) - 1).map(lambda n: ("truncated", value[:n])))
        parsed = _parsed(value)
        if isinstance(parsed, dict) and parsed:
            kinds.append(st.sampled_from(sorted(parsed)).map(
                lambda k: (f"missing {k}", json.dumps({x: y for x, y in parsed.items()
                                                        if x != k}))))
    if nullable and value is not None:
        kinds.append(st.just(("NULL", None)))
    return kinds


@st.composite
def damage_of(draw: st.DrawFn, db_path: Path) -> Damage:
    with contextlib.closing(sqlite3.connect(db_path)) as db:
        db.row_factory = sqlite3.Row
        tables = sorted(t for t in Base.metadata.tables if t not in SQLITE_NEVER_WRITES)
        table = draw(st.sampled_from(tables))
        rows = [dict(r) for r in db.execute(f'SELECT rowid AS "rowid_", * FROM "{table}"')]
    row = draw(st.sampled_from(rows))
    column = draw(st.sampled_from(damageable(table)))
    spec = Base.metadata.tables[table].columns[column]
    kinds = damages(row[column], isinstance(spec.type, String | Text), bool(spec.nullable))
    assume(kinds)
    how, after = draw(st.one_of(kinds))
    assume(after != row[column])
    return Damage(table, int(row.pop("rowid_")), column, how, row[column], after, row)


def unreadable(d: Damage) -> bool:
    """Whether the damage leaves the column unreadable by its own rules (so the store must
    refuse the row), written out here rather than taken from the store."""
    where = (d.table, d.column)
    if where in CHOICES:
        return True
    if where in NAMES:
        return d.how in ("empty", "bad JSON")
    if where in FREE_TEXT or where in NUMBERS:
        needs = "broadcast" if d.column == "delay" else ("seat", "player")
        return (d.how == "empty" and where == ("season_tokens", "player")) or (
            d.how == "NULL" and d.row.get("role") in needs)
    kind = JSON_COLUMNS[where]
    if d.table == "events" and d.column == "data" and d.row["kind"] in INPUT_KINDS:
        kind = dict
    if d.how == "NULL":
        return False  # the JSON columns that may be NULL: a running match's result, a public entry
    if d.how in ("bad JSON", "empty"):
        return True
    if d.how == "truncated":
        return isinstance(_parsed(d.before), dict | list | str)
    if d.how == "wrong type":
        return kind is not None and not isinstance(_parsed(d.after), kind)
    assert d.how.startswith("missing "), d.how
    return d.how[len("missing "):] in REQUIRED_KEYS.get(where, set())


def read_back(store: Store, d: Damage) -> DamagedRow | None:
    """The store's own read of the damaged row: the DamagedRow it raises, or None."""
    readers: dict[str, Callable[[], object]] = {
        "matches": lambda: store.get_match(d.key),
        "events": lambda: store.events(d.key),
        "tokens": lambda: store.token(d.row["token"]),
        "seat_notes": lambda: store.notes(d.key, d.row["seat"]),
        "scenarios": lambda: store.get_scenario(d.key),
    }
    try:
        readers[d.table]()
    except DamagedRow as exc:
        assert exc.key == d.key and exc.table == d.table, exc
        return exc
    return None


# ---------------------------------------------------------------------- the restarted server
@dataclass(frozen=True)
class Stored:
    """What the damaged database holds before the restart: each match's status and last
    version, each season's status."""

    status: dict[str, str]
    versions: dict[str, int]


@contextlib.contextmanager
def restarted(built: Built, d: Damage) -> Iterator[tuple[TestClient, Stored]]:
    """A server started over a copy of the built database with ``d`` done to it."""
    with tempfile.TemporaryDirectory(dir=built.db.parent.parent) as tmp:
        folder = Path(tmp)
        for path in built.db.parent.glob("arena.db*"):
            if not path.name.endswith(".lock"):
                shutil.copy(path, folder / path.name)
        with contextlib.closing(sqlite3.connect(folder / "arena.db")) as db:
            db.execute(f'UPDATE "{d.table}" SET "{d.column}" = ? WHERE rowid = ?',
                       (d.after, d.rowid))
            db.commit()
            stored = Stored(
                dict(db.execute("SELECT id, status FROM matches")),
                dict(db.execute("SELECT match_id, max(version) FROM events GROUP BY match_id")))
        with in_process_server(folder) as client:
            yield client, stored


def wait_for(check: Callable[[], Any], seconds: float = 20.0, what: str = "") -> Any:
    """Poll a condition of the server (no fixed sleep): its value once truthy."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"not reached in time: {what}")


def no_500(r: Any, what: str) -> None:
    assert r.status_code != 500 and r.status_code < 600, (what, r.status_code, r.text[:300])


def probe(client: TestClient, built: Built, d: Damage) -> Any:
    """The request that needs the damaged row (a season's, through the season's route)."""
    if d.key in built.season_hosts and d.table in ("matches", "events", "tokens"):
        token = d.row["token"] if d.table == "tokens" else built.season_hosts[d.key]
        return client.get(f"/api/seasons/{d.key}", params={"token": token})
    if d.table in ("matches",):
        return client.get(f"/api/matches/{d.key}")
    if d.table == "events":
        return client.get(f"/api/matches/{d.key}/view", params={"token": built.hosts[d.key]})
    if d.table == "tokens":
        return client.get(f"/api/matches/{d.key}/view", params={"token": d.row["token"]})
    if d.table == "seat_notes":
        with contextlib.closing(sqlite3.connect(built.db)) as db:
            (token,) = db.execute("SELECT token FROM tokens WHERE match_id = ? AND role = 'seat' "
                                  "AND seat = ?", (d.key, d.row["seat"])).fetchone()
        return client.get(f"/api/matches/{d.key}/notes", params={"token": token})
    assert d.table == "scenarios", d.table
    return client.get(f"/api/scenarios/{d.key}")


def every_route(client: TestClient, built: Built, d: Damage) -> None:
    """Every route of the app with the damaged match's (season's, scenario's) name in it,
    with its host link and, for a damaged link, that link: never a 500."""
    owner = OWNER_OF[d.table]
    param = {"match": "match_id", "scenario": "name"}[owner]  # a season's routes: match_id
    tokens = [built.hosts.get(d.key)]
    if d.table in ("tokens", "season_tokens"):
        tokens.append(d.row["token"])
    app: Any = client.app
    for route in app.routes:
        if not isinstance(route, Route | WebSocketRoute):
            continue
        params = set(route.param_convertors)
        if param not in params or params - {param, "action"}:
            continue
        if owner == "scenario" and not route.path.startswith("/api/scenarios"):
            continue
        path = route.path.replace("{" + param + "}", d.key).replace("{action}", "pause")
        for token in tokens:
            query = {} if token is None else {"token": token}
            if isinstance(route, WebSocketRoute):
                with contextlib.suppress(WebSocketDisconnect), \
                        client.websocket_connect(path + (f"?token={token}" if token else "")
                                                 ) as ws:
                    ws.receive_json()
                continue
            for method in sorted((route.methods or {"GET"}) - {"HEAD"}):
                if method == "GET":
                    r = client.get(path, params=query)
                else:
                    r = client.post(path, params=query, json={})
                no_500(r, f"{method} {path}")


# ---------------------------------------------------------------------- the property
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_one_damaged_row_is_contained(built: Built, data: st.DataObject) -> None:
    d = data.draw(damage_of(built.db), label="damage")
    must = unreadable(d)
    owner = OWNER_OF[d.table]
    with restarted(built, d) as (client, stored):
        app: Any = client.app
        status, versions = stored.status, stored.versions
        expected = read_back(app.state.store.sync, d)
        assert expected is not None or not must, f"the store read {d} back without complaint"
        event(f"{d.table}.{d.column}: {d.how.split()[0]}: "
              f"{'refused' if expected is not None else 'read'}")
        matches = app.state.matches
        wait_for(lambda: matches.resuming.done())

        # The lobby, whatever was damaged.
        for path in ("/", "/api/matches", "/api/seasons", "/api/scenarios"):
            r = client.get(path)
            assert r.status_code == 200, (path, r.status_code, r.text[:300])
        # The seasons are listed apart from the lobby's matches.
        listed = {m["id"] for m in client.get("/api/matches").json()} | {
            s["id"] for s in client.get("/api/seasons").json()}
        damaged_match = d.key if owner == "match" else None
        assert set(status) - {damaged_match} <= listed

        # Every other running match was resumed, and its clock moves on.
        for match_id, was in status.items():
            if match_id == damaged_match or was != "running":
                continue
            assert match_id not in matches.quarantined, matches.quarantined[match_id]
            assert matches.in_memory(match_id) is not None, match_id
            if match_id in built.season_hosts:
                continue  # its step clocks are minutes long; the match it plays moves on

            def moved(match_id: str = match_id) -> bool:
                r = client.get(f"/api/matches/{match_id}/events",
                               params={"token": built.hosts[match_id]})
                assert r.status_code == 200, r.text
                return int(r.json()["version"]) > versions[match_id]

            wait_for(moved, what=f"match {match_id} resumed at version {versions[match_id]}")

        # Every other match and season serves.
        for match_id in status:
            if match_id == damaged_match:
                continue
            for path, query in ((f"/api/matches/{match_id}", {}),
                                (f"/api/matches/{match_id}/view",
                                 {"token": built.hosts[match_id]}),
                                (f"/m/{match_id}", {})):
                r = client.get(path, params=query)
                assert r.status_code == 200, (path, r.status_code, r.text[:300])
        for season_id in built.season_hosts:
            if season_id == damaged_match:
                continue
            for path, query in ((f"/api/seasons/{season_id}",
                                 {"token": built.season_hosts[season_id]}),
                                (f"/s/{season_id}", {}), ("/api/seasons", {})):
                r = client.get(path, params=query, follow_redirects=True)
                assert r.status_code == 200, (path, r.status_code, r.text[:300])

        # The damaged one: quarantined at start where the start read it, and the request that
        # needs the row answered 503 naming the problem.
        if expected is not None and d.table in REBUILT_FROM and d.column != "status" \
                and owner == "match" and status.get(d.key) == "running":
            assert matches.quarantined.get(d.key) == expected.reason
        r = probe(client, built, d)
        if expected is not None:
            assert r.status_code == 503, (r.status_code, r.text[:300])
            assert expected.reason in r.json()["error"], (expected.reason, r.text[:300])
            if d.table in REBUILT_FROM:  # quarantined: its page says so too
                pages = [f"/m/{d.key}"] + ([f"/s/{d.key}"] if d.key in built.season_hosts
                                           else [])
                for page in pages:
                    r = client.get(page, params={"token": built.hosts.get(d.key)})
                    assert r.status_code == 503, (page, r.status_code, r.text[:300])
                    assert expected.reason in html.unescape(r.text), r.text[:300]
        else:
            no_500(r, "the probe")
        every_route(client, built, d)
