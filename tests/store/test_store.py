"""The store, on SQLite and on PostgreSQL alike: migrations, matches, tokens, and an
append-only event log that gives back exactly what went in (G-7 replays depend on it)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import inspect
from sqlalchemy.exc import IntegrityError

from arena.core.clock import ManualClock
from arena.core.driver import simulate
from arena.core.match import INPUT_KINDS, Event, Match, MatchSettings
from arena.store import MatchRecord, Store, TokenRecord
from toygame import TOY


def _record(match_id: str = "m1", status: str = "running") -> MatchRecord:
    return MatchRecord(id=match_id, game="toy", config={"rounds": 2}, seed=2**62 + 5,
                       settings={"time_scale": 0.5, "early_close": True, "reveal_at_end": True},
                       start=1795370000.123456789, seat_names=("Ada", "Bö"),
                       bots=(False, True), status=status, created=1795370000.5)


def test_migrations_create_the_schema_and_are_idempotent(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.migrate()
        store.migrate()
        tables = set(inspect(store.engine).get_table_names())
        assert {"matches", "tokens", "events", "alembic_version"} <= tables
    finally:
        store.close()


def test_matches_and_tokens_round_trip(database_url: str) -> None:
    store = Store(database_url)
    try:
        rec = _record()
        toks = [TokenRecord("s0", "m1", "seat", 0), TokenRecord("s1", "m1", "seat", 1),
                TokenRecord("sp", "m1", "spectator"), TokenRecord("h", "m1", "host")]
        store.create_match(rec, toks)
        store.create_match(_record("m2", "finished"), [])
        assert store.get_match("m1") == rec
        assert store.get_match("nope") is None
        assert [r.id for r in store.running()] == ["m1"]
        assert {r.id for r in store.list_matches()} == {"m1", "m2"}
        assert store.token("s1") == TokenRecord("s1", "m1", "seat", 1)
        assert store.token("missing") is None
        assert sorted(t.token for t in store.tokens_for("m1")) == ["h", "s0", "s1", "sp"]
        store.set_status("m1", "finished", {"winner": 1})
        finished = store.get_match("m1")
        assert finished is not None and finished.status == "finished"
        assert finished.result == {"winner": 1}
        assert store.running() == []
    finally:
        store.close()


def test_event_versions_are_append_only(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.create_match(_record(), [])
        store.append_events("m1", [Event(1, "a", None, None, 1.0), Event(2, "b", [1], None, 2.0)])
        with pytest.raises(IntegrityError):
            store.append_events("m1", [Event(2, "again", None, None, 3.0)])
        # The failed batch left nothing behind.
        assert [e.kind for e in store.events("m1")] == ["a", "b"]
        assert store.last_version("m1") == 2
        assert [e.version for e in store.events("m1", since=1)] == [2]
    finally:
        store.close()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**53, 2**53)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12,
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.lists(st.tuples(json_values, st.none() | st.frozensets(st.integers(0, 5)),
                               st.floats(0, 2e9, allow_nan=False)), min_size=1, max_size=6))
def test_events_round_trip_exactly(database_url: str,
                                   data: list[tuple[Any, frozenset[int] | None, float]]) -> None:
    store = Store(database_url)
    try:
        match_id = f"h{abs(hash(json.dumps([d for d, _, _ in data], sort_keys=True))) % 10**12}"
        if store.get_match(match_id) is not None:
            return
        store.create_match(_record(match_id), [])
        events = [Event(i + 1, "k", d, to, t) for i, (d, to, t) in enumerate(data)]
        store.append_events(match_id, events)
        assert store.events(match_id) == events
    finally:
        store.close()


def test_a_whole_match_replays_from_the_stored_inputs(database_url: str) -> None:
    """G-7: the stored inputs, replayed with the stored seed, rebuild the match exactly."""
    store = Store(database_url)
    try:
        settings_ = MatchSettings(time_scale=0.5)
        played = simulate(TOY, 99, TOY.make_config({"rounds": 3}), settings_, bots=[0, 1])
        rec = _record()
        store.create_match(rec, [])
        store.append_events("m1", played.log)
        stored = store.events("m1")
        inputs = [e for e in stored if e.kind in INPUT_KINDS]
        again = Match.replay(TOY, TOY.make_config({"rounds": 3}), 99, settings_, 0.0, inputs,
                             ManualClock(stored[-1].t), until=stored[-1].t)
        assert again.snapshot() == played.snapshot()
    finally:
        store.close()


@pytest.mark.parametrize("seed", [0, 2**63 - 1, 2**63, 2**64 - 1])
def test_g12_64_bit_seeds_round_trip(database_url: str, seed: int) -> None:
    from dataclasses import replace

    store = Store(database_url)
    try:
        store.migrate()
        rec = replace(_record(), seed=seed)
        store.create_match(rec, [])
        assert store.get_match("m1") == rec
    finally:
        store.close()


def test_spectator_tokens_in_one_query_match_the_tokens_of_each_match(database_url: str) -> None:
    """The lobby's batched look-up gives what ``tokens_for`` per match gave."""
    store = Store(database_url)
    try:
        ids = [f"m{i}" for i in range(5)]
        for i, mid in enumerate(ids):
            toks = [TokenRecord(f"{mid}s0", mid, "seat", 0), TokenRecord(f"{mid}h", mid, "host")]
            if i != 3:  # m3 has no spectator link at all
                toks.append(TokenRecord(f"{mid}sp", mid, "spectator"))
            store.create_match(_record(mid), toks)
        one_by_one = {mid: t.token for mid in ids for t in store.tokens_for(mid)
                      if t.role == "spectator"}
        assert store.spectator_tokens(ids) == one_by_one
        assert store.spectator_tokens(ids) == {m: f"{m}sp" for m in ids if m != "m3"}
        assert store.spectator_tokens(["m1", "nope"]) == {"m1": "m1sp"}
        assert store.spectator_tokens([]) == {}
    finally:
        store.close()


def test_the_scenario_library_keeps_unique_names(database_url: str) -> None:
    """LF-12: migration 0005 adds the library; a name is stored once."""
    from arena.store import ScenarioExists, ScenarioRecord

    store = Store(database_url)
    try:
        assert "scenarios" in set(inspect(store.engine).get_table_names())
        rec = ScenarioRecord("Jugs", "feather", "title = 'x'\n", "by Ann", 1795370000.25)
        store.save_scenario(rec)
        assert store.get_scenario("Jugs") == rec
        assert store.get_scenario("jugs") is None and store.get_scenario("nope") is None
        with pytest.raises(ScenarioExists):
            store.save_scenario(ScenarioRecord("Jugs", "feather", "other", "", 1.0))
        store.save_scenario(ScenarioRecord("Alpha", "feather", "t", "", 2.0))
        assert [r.name for r in store.list_scenarios()] == ["Alpha", "Jugs"]
        assert store.count_scenarios() == 2
        assert store.get_scenario("Jugs") == rec  # the refused save changed nothing
    finally:
        store.close()
