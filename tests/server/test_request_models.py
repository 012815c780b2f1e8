"""Every request body is one strict model (server/requests.py), and the API holds to it.

The property: for every route that takes a body, values drawn from each field's edges (the
bounds its JSON Schema states) and just past them, wrong JSON types (``"false"`` for a flag,
``5``, ``["x"]`` or ``{"a": 1}`` for a name), unknown keys and missing fields are posted with
real links to a real match or season. Each answer is a 2xx or a 4xx, never a 500, and when the
schema says the body is wrong, a 4xx whose error names the field. What the schema accepts is
judged here by a small JSON Schema reader of its own, so a model that quietly took more (or
less) than its schema says fails too.

Also: the season creation cases that used to be guessed at (``"bot": "false"``, a name that is
not text, an unknown key in a cast entry, a step clock under G-5's 0.05 s), every POST route of
the app has a body model in the route table, and the OpenAPI document gives each route its
model's schema.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, TypeAdapter
from starlette.routing import Route

from arena.core.match_settings import MatchSettings
from arena.season.acts import DeathMatchSettings
from arena.season.game import SEASON
from arena.server import api, extras
from arena.server.app import create_app
from arena.server.limits import RateLimit
from arena.server.openapi import ACTION_ROUTES, REF, ROUTES, Op, document, route
from arena.server.requests import HostSettings
from arena.server.season_requests import MAX_STEP_SECONDS, SEASON_HOST_ACTIONS
from server.inprocess import TestClient, in_process_server

CAST = ["Ann", "Ben", "Cat", "Dan"]
UNKNOWN = "zz_unknown"
WRONG: list[Any] = ["false", "no", "", 0, 1, 5, 1.5, True, ["x"], {"a": 1}, math.inf]
"""Values of the wrong JSON type for some field or other: each is judged by the schema."""

BASES: dict[str, dict[str, Any]] = {
    "CreateMatch": {"game": "boxes"},
    "CreateSeason": {"cast": ["Ann", "Ben", "Cat"]},
    "Submit": {"text": "pass"},
    "Chat": {"text": "hello"},
    "Notes": {"notes": "kept"},
    "HostOption": {"name": "helper", "value": True},
    "Mute": {"channel": "table"},
    "PrivateChannel": {"seat": 0},
    "SeatPrivate": {"open": True},
    "MatchDeadline": {"at": time.time() + 86400},
    "Reissue": {"seat": 0},
    "SeatChange": {"seat": 1, "bot": True},
    "Spectators": {"open": True},
    "Broadcast": {"delay": 60},
    "Webhook": {"url": None},
    "SeasonWebhook": {"url": None},
    "Vote": {"ec": "Dan"},
    "Gift": {"to": "Ben"},
    "Nominate": {"dmo": "Ben"},
    "SeasonPrivate": {"text": "hello", "player": "Ann"},
    "StartDeath": {"game": "boxes"},
    "RecordMain": {"result": {"escaped": ["Ann", "Ben"], "trapped": ["Cat", "Dan"],
                              "bars": {"Ann": 3}}, "reason": "played on stage"},
    "NameEC": {"ec": "Ann", "reason": "a test"},
    "RecordDeath": {"loser": "Dan", "reason": "a test"},
    "Decide": {"loser": "Dan", "reason": "a test"},
    "Adjust": {"player": "Ann", "what": "garnets", "amount": 1, "reason": "a test"},
    "MainMatchRounds": {"max_rounds": 5},
    "SeasonReissue": {"player": "Ann"},
    "SaveScenario": {"name": "x", "text": ""},
}
"""A plain valid body of each model (else the least its schema takes). A season's is one
its route takes at the step :data:`STEP_OF` puts its season at."""


# --------------------------------------------------------------------------- the schema
def resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    return node


def members(node: dict[str, Any], defs: dict[str, Any]) -> list[dict[str, Any]]:
    node = resolve(node, defs)
    union = node.get("anyOf") or node.get("oneOf")
    if union:
        return [m for u in union for m in members(u, defs)]
    return [node]


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def finite(value: Any) -> bool:
    """JSON has no NaN or Infinity, so no schema accepts a value holding one."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(finite(v) for v in value)
    if isinstance(value, dict):
        return all(finite(v) for v in value.values())
    return True


def accepts(node: dict[str, Any], value: Any, defs: dict[str, Any]) -> bool:
    """Whether ``value`` is valid for the schema (the subset pydantic writes)."""
    return finite(value) and _accepts(node, value, defs)


def _accepts(node: dict[str, Any], value: Any, defs: dict[str, Any]) -> bool:
    node = resolve(node, defs)
    union = node.get("anyOf") or node.get("oneOf")
    if union:
        return any(accepts(m, value, defs) for m in union)
    if "enum" in node or "const" in node:
        allowed = node.get("enum", [node.get("const")])
        return any(type(value) is type(a) and value == a for a in allowed)
    kind = node.get("type")
    if kind is None:
        return True
    if kind == "null":
        return value is None
    if kind == "boolean":
        return isinstance(value, bool)
    if kind in ("integer", "number"):
        if not is_number(value) or (kind == "integer" and not isinstance(value, int)):
            return False
        return (value >= node.get("minimum", -math.inf) and value <= node.get("maximum", math.inf)
                and value > node.get("exclusiveMinimum", -math.inf)
                and value < node.get("exclusiveMaximum", math.inf))
    if kind == "string":
        return isinstance(value, str) and node.get("minLength", 0) <= len(value) \
            <= node.get("maxLength", math.inf)
    if kind == "array":
        return isinstance(value, list) and node.get("minItems", 0) <= len(value) \
            <= node.get("maxItems", math.inf) \
            and all(accepts(node.get("items", {}), v, defs) for v in value)
    if kind == "object":
        if not isinstance(value, dict):
            return False
        props = node.get("properties", {})
        extra = node.get("additionalProperties", True)
        names = node.get("propertyNames", {})
        for key, v in value.items():
            if not accepts(names, key, defs):
                return False
            if key in props:
                if not accepts(props[key], v, defs):
                    return False
            elif extra is False or (isinstance(extra, dict) and not accepts(extra, v, defs)):
                return False
        return all(key in value for key in node.get("required", []))
    raise AssertionError(f"a schema this test cannot read: {node}")


def least(node: dict[str, Any], defs: dict[str, Any]) -> Any:
    """The plainest valid value of a schema."""
    first = members(node, defs)[0]
    if "enum" in first or "const" in first:
        return first.get("enum", [first.get("const")])[0]
    kind = first.get("type")
    if kind == "boolean":
        return False
    if kind in ("integer", "number"):
        low = first.get("minimum", first.get("exclusiveMinimum", 0) + 1)
        return int(low) if kind == "integer" else float(low)
    if kind == "string":
        return "x" * max(first.get("minLength", 0), 1)
    if kind == "array":
        return [least(first.get("items", {}), defs)] * first.get("minItems", 0)
    if kind == "object":
        props = first.get("properties", {})
        return {k: least(props[k], defs) for k in first.get("required", [])}
    return None


def edges(node: dict[str, Any], defs: dict[str, Any]) -> Iterator[Any]:
    """Each member's values at its bounds and just past them, then the wrong types."""
    for m in members(node, defs):
        if "enum" in m or "const" in m:
            yield from m.get("enum", [m.get("const")])
            yield "zz-not-one-of-them"
            continue
        kind = m.get("type")
        if kind in ("integer", "number"):
            step = 1 if kind == "integer" else None
            for key, sign in (("minimum", -1), ("maximum", 1)):
                if key in m:
                    bound = m[key]
                    yield bound
                    yield bound + sign * (step or max(abs(bound) * 1e-6, 1e-9))
            if "exclusiveMinimum" in m:
                bound = m["exclusiveMinimum"]
                yield bound
                yield bound + (step or max(abs(bound) * 1e-6, 1e-9))
        elif kind == "string":
            low, high = m.get("minLength", 0), m.get("maxLength")
            yield "x" * low
            if low:
                yield "x" * (low - 1)
            if high is not None:
                yield "x" * high
                yield "x" * (high + 1)
        elif kind == "array":
            item = least(m.get("items", {}), defs)
            low, high = m.get("minItems", 0), m.get("maxItems")
            yield [item] * low
            if low:
                yield [item] * (low - 1)
            if high is not None:
                yield [item] * high
                yield [item] * (high + 1)
            for bad in itertools.islice(edges(m.get("items", {}), defs), 12):
                yield [bad, *[item] * max(low - 1, 0)]
        elif kind == "object" and m.get("properties") is None:
            extra = m.get("additionalProperties", True)
            yield {}
            if isinstance(extra, dict):
                for v in itertools.islice(edges(extra, defs), 8):
                    yield {"Ann": v}
            else:
                yield {"a": 1}
        elif kind == "null":
            yield None
    yield from WRONG


@dataclass(frozen=True)
class Case:
    """One body to post, whether the schema takes it, and the name its refusal must say."""

    body: Any
    valid: bool
    name: str

    def __repr__(self) -> str:
        shown = repr(self.body)
        return f"Case({shown[:160]}{'...' if len(shown) > 160 else ''}, {self.valid})"


def cases_for(model: type[BaseModel]) -> list[Case]:
    """Every field's edges (and one level down, the fields of an object or of a list's
    objects), each field missing in turn, an unknown key, at the top and one level down."""
    root = model.model_json_schema()
    defs = root.get("$defs", {})
    base = BASES.get(model.__name__) or least(root, defs)
    assert accepts(root, base, defs), (model.__name__, base)
    out: list[Case] = [Case(base, True, ""), Case({**base, UNKNOWN: 1}, False, UNKNOWN)]
    for key in root.get("required", []):
        out.append(Case({k: v for k, v in base.items() if k != key}, False, key))
    for key, prop in root.get("properties", {}).items():
        for value in edges(prop, defs):
            body = {**base, key: value}
            out.append(Case(body, accepts(root, body, defs), wrong(prop, value, defs, key)))
        for m in members(prop, defs):
            for inner, wrap in objects_inside(m, defs):
                plain = least(inner, defs)
                out.append(Case({**base, key: wrap({**plain, UNKNOWN: 1})}, False, UNKNOWN))
                for sub, sub_prop in inner["properties"].items():
                    for value in edges(sub_prop, defs):
                        body = {**base, key: wrap({**plain, sub: value})}
                        out.append(Case(body, accepts(root, body, defs),
                                        wrong(sub_prop, value, defs, sub)))
    return out


def wrong(node: dict[str, Any], value: Any, defs: dict[str, Any], name: str) -> str:
    """The name a refusal of ``value`` (in field ``name``) must say: the innermost field that
    is wrong, as a person would look for it (a key that is not a field; a field missing or
    of the wrong kind inside an object, found through a list's items too)."""
    for m in members(node, defs):
        kind = m.get("type")
        if kind == "object" and m.get("properties") and isinstance(value, dict):
            props = m["properties"]
            unknown = [k for k in value if k not in props]
            if unknown:
                return unknown[0]
            missing = [k for k in m.get("required", []) if k not in value]
            if missing:
                return missing[0]
            bad = [k for k, v in value.items() if not accepts(props[k], v, defs)]
            if bad:
                return wrong(props[bad[0]], value[bad[0]], defs, bad[0])
        if kind == "array" and isinstance(value, list) and finite(value) \
                and m.get("minItems", 0) <= len(value) <= m.get("maxItems", math.inf):
            items = m.get("items", {})
            bad_items = [v for v in value if not accepts(items, v, defs)]
            if bad_items:
                inner = wrong(items, bad_items[0], defs, name)
                if inner != name:
                    return inner
    return name


def objects_inside(node: dict[str, Any], defs: dict[str, Any]
                   ) -> Iterator[tuple[dict[str, Any], Any]]:
    """The objects with fields a field holds (itself, or its list's items), each with how to
    put one such object back in the field's place."""
    if node.get("type") == "object" and node.get("properties"):
        yield node, lambda v: v
    elif node.get("type") == "array":
        items = node.get("items", {})
        rest = [least(items, defs)] * max(node.get("minItems", 1) - 1, 0)
        for inner in members(items, defs):
            if inner.get("type") == "object" and inner.get("properties"):
                yield inner, lambda v: [v, *rest]


# --------------------------------------------------------------------------- the server
POSTS = [op for op in ROUTES if op.method == "post" and op.body is not None and op.public]
SEASON_PATH = "/api/seasons/{match_id}/"

MAIN_WITH_VOTE = {"escaped": ["Ann", "Ben"], "trapped": ["Cat", "Dan"],
                  "bars": {"Ann": 5, "Ben": 3}}
"""A Main Match recorded by hand with two trapped and no EC: the trapped vote (LO-9)."""
STEP_OF: dict[str, str] = {
    "vote": "vote", "gift": "gift", "nominate": "nominate", "host/name_ec": "name_ec",
    "host/start_death": "dm_next", "host/record_death": "dm_next", "host/decide": "dm_decide",
    "host/close_vault": "mm_play", "host/resume": "paused",
}
"""The step a season route's target season is at, so the bodies it takes are applied (the
rest post at the first step, the Main Match next)."""
PLAYER_OF = {"vote": "Cat", "gift": "Ann", "nominate": "Cat"}
"""Whose link a player's route is posted with: the one the step waits for."""
FRESH = {"host/start_main", "host/record_main", "host/name_ec", "host/start_death",
         "host/record_death", "host/decide", "host/close_vault"}
"""Season routes whose accepted body moves the season on: each body the schema takes gets a
season of its own at the route's step, so every edge is applied, not refused as late."""


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    patch = pytest.MonkeyPatch()
    for module in (api, extras.limits_of("feather")):  # every write limit lifted: this test posts thousands
        for value in vars(module).values():
            if isinstance(value, RateLimit):
                patch.setattr(value, "burst", 10**9)
                # And a full budget: what earlier modules spent from the same test address
                # would still be owed at the old rate.
                patch.setattr(value, "buckets", {})
    patch.setenv("ARENA_HOST_ENTRIES_MAX", str(10**9))
    with in_process_server(tmp_path_factory.mktemp("requests"), patch) as c:
        yield c


def season_at(c: TestClient, step: str) -> tuple[str, str, dict[str, str]]:
    """A new season of CAST at ``step`` (SE-1..SE-4): its id, host token and players'
    tokens."""
    r = c.post("/api/seasons", json={"cast": CAST, "seed": 3,
                                     "settings": {"bot_pace": "instant"}})
    assert r.status_code == 201, r.text
    s = r.json()
    sid, host, players = s["id"], s["tokens"]["host"], s["tokens"]["players"]

    def post(path: str, body: Any, token: str = host) -> None:
        r = c.post(f"/api/seasons/{sid}/{path}", params={"token": token}, json=body)
        assert r.status_code == 200, (path, r.text)

    main = {"vote": MAIN_WITH_VOTE, "gift": {**MAIN_WITH_VOTE, "ec": "Cat"},
            "name_ec": {"escaped": CAST, "trapped": [], "bars": {}}}.get(step)
    if step in ("nominate", "dm_next", "dm_decide"):
        main = {"escaped": ["Ann", "Ben", "Dan"], "trapped": ["Cat"], "bars": {}}
    if main is not None:
        post("host/record_main", {"result": main, "reason": "played on stage"})
    if step in ("dm_next", "dm_decide"):
        post("nominate", {"dmo": "Dan"}, players["Cat"])
    if step == "dm_decide":  # a Death Match its host ends: no winner, the host decides (SE-4)
        post("host/start_death", {"game": "boxes"})
        link = wait_for(lambda: c.get(f"/api/seasons/{sid}", params={"token": host}).json()[
            "links"].get("e1-dm", {}).get("host"))
        child, token = link.split("/m/", 1)[1].split("?token=")
        r = c.post(f"/api/matches/{child}/host/end", params={"token": token}, json={})
        assert r.status_code == 200, r.text
    if step == "mm_play":
        post("host/start_main", {})
    if step == "paused":
        post("host/pause", {})
    want = "main_next" if step == "paused" else step

    def there() -> bool:
        at = c.get(f"/api/seasons/{sid}", params={"token": host}).json()["state"]["step"]
        assert at in (want, "dm_play"), (step, at)  # only a Death Match may still be ending
        return bool(at == want)

    wait_for(there)
    return sid, host, players


def wait_for(check: Any) -> Any:
    """A condition of the server once it holds (a child match is made and ends on the
    server's own loop): polled, never a fixed sleep; the suite's timeout guards a hang."""
    while not (value := check()):
        time.sleep(0.01)
    return value


class Targets:
    """A fresh match or season for each route, and the link that route is posted with."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.made: dict[str, tuple[str, str]] = {}

    def url(self, op: Op, fresh: bool = False) -> tuple[str, dict[str, str]]:
        """The route's target; ``fresh``: a new one, for a body the route would apply."""
        if fresh:
            path, token = self._make(op)
        else:
            if op.path not in self.made:
                self.made[op.path] = self._make(op)
            path, token = self.made[op.path]
        return path, ({"token": token} if token else {})

    def _make(self, op: Op) -> tuple[str, str]:
        c = self.client
        if op.path.startswith(SEASON_PATH):
            suffix = op.path[len(SEASON_PATH):]
            sid, host, players = season_at(c, STEP_OF.get(suffix, "main_next"))
            player = PLAYER_OF.get(suffix)
            return op.path.replace("{match_id}", sid), players[player] if player else host
        if "{match_id}" in op.path:
            r = c.post("/api/matches", json={"game": "boxes", "settings": {
                "time_scale": 1000, "bot_pace": "instant"}})
            assert r.status_code == 201, r.text
            m = r.json()
            seat = op.path.rsplit("/", 1)[-1] in ("submit", "confirm", "chat", "notes") \
                or op.path.endswith("}/private")  # a seat opens its own (not host/private)
            token = m["tokens"]["seats"][0] if seat else m["tokens"]["host"]
            return op.path.replace("{match_id}", m["id"]), token
        return op.path, ""


@pytest.fixture(scope="module")
def targets(client: TestClient) -> Targets:
    return Targets(client)


def fresh(op: Op) -> bool:
    return op.path.startswith(SEASON_PATH) and op.path[len(SEASON_PATH):] in FRESH


def check(client: TestClient, targets: Targets, op: Op, case: Case) -> None:
    path, params = targets.url(op, fresh=case.valid and fresh(op))
    raw = json.dumps(case.body)  # with NaN and Infinity, which Python's JSON reads
    r = client.post(path, params=params, content=raw.encode(),
                    headers={"content-type": "application/json"})
    assert r.status_code < 500, (op.path, case, r.text)
    if case.valid:
        return
    assert 400 <= r.status_code < 500, (op.path, case, r.status_code, r.text)
    error = r.json()["error"]
    # The field by its key ('result'), or, for a key inside it, by its words: "unknown
    # result field 'a'" names both.
    assert f"'{case.name}'" in error or f"{case.name} field '" in error, (op.path, case, error)


# --------------------------------------------------------------------------- the property
@pytest.mark.parametrize("op", POSTS, ids=lambda op: op.path)
def test_every_edge_of_every_field_is_taken_or_refused_naming_it(
        client: TestClient, targets: Targets, op: Op) -> None:
    assert op.body is not None
    cases = cases_for(op.body)
    assert any(c.valid for c in cases) and any(not c.valid for c in cases)
    for case in cases:
        check(client, targets, op, case)
    r = client.post(targets.url(op)[0], params=targets.url(op)[1], json=[1, 2])
    assert 400 <= r.status_code < 500 and "JSON object" in r.json()["error"], r.text


@st.composite
def mixed_bodies(draw: st.DrawFn) -> tuple[Op, Case]:
    """A route, and a body with any of its fields at an edge (or, now and then, one field
    past it): the edges of several fields at once."""
    op = draw(st.sampled_from(POSTS))
    assert op.body is not None
    root = op.body.model_json_schema()
    defs = root.get("$defs", {})
    body = dict(BASES.get(op.body.__name__) or least(root, defs))
    props = root.get("properties", {})
    for key, prop in props.items():
        good = [v for v in edges(prop, defs) if accepts(prop, v, defs)]
        if good and draw(st.booleans()):
            body[key] = draw(st.sampled_from(good))
    name = ""
    bad_keys = [k for k, p in props.items()
                if any(not accepts(p, v, defs) for v in edges(p, defs))]
    if bad_keys and draw(st.booleans()):
        name = draw(st.sampled_from(bad_keys))
        body[name] = draw(st.sampled_from([v for v in edges(props[name], defs)
                                           if not accepts(props[name], v, defs)]))
    valid = accepts(root, body, defs)
    assert valid == (name == ""), (body, name)
    # The refusal names the innermost wrong field, as in cases_for: an unknown key inside a
    # Death Match's settings is "unknown Death Match setting 'a'".
    return op, Case(body, valid, name and wrong(props[name], body[name], defs, name))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=mixed_bodies())
def test_bodies_with_many_fields_at_their_edges(client: TestClient, targets: Targets,
                                                drawn: tuple[Op, Case]) -> None:
    op, case = drawn
    check(client, targets, op, case)


# --------------------------------------------------------------------------- seasons
def create_season(client: TestClient, cast: list[Any], **extra: Any) -> Any:
    return client.post("/api/seasons", json={"cast": cast, **extra})


@pytest.mark.parametrize("flag", ["false", "no", "true", 0, 1, None, [], {}])
def test_a_cast_entrys_bot_flag_must_be_true_or_false(client: TestClient, flag: Any) -> None:
    """``"bot": "false"`` and ``"bot": "no"`` made bots; now any flag that is not a JSON
    boolean is refused, naming the field (SE-1)."""
    r = create_season(client, [{"name": "Ann", "bot": flag}, "Ben", "Cat"])
    assert r.status_code == 422 and r.json()["rule"] == "SE-1", r.text
    assert r.json()["error"].startswith("SE-1: player 1 field 'bot' must be true or false")


@pytest.mark.parametrize("name", [5, ["x"], {"a": 1}, True, None])
def test_a_cast_name_that_is_not_text_is_refused(client: TestClient, name: Any) -> None:
    """Names given as ``5``, ``["x"]`` or ``{"a": 1}`` were stored as text."""
    r = create_season(client, ["Ann", {"name": name}, "Cat"])
    assert r.status_code == 422, r.text
    assert r.json()["error"].startswith("SE-1: player 2 field 'name' must be text"), r.text
    r = create_season(client, ["Ann", "Ben", name])
    said = "player 3 field 'name'" if isinstance(name, dict) else "player 3 of 'cast'"
    assert r.status_code == 422 and said in r.json()["error"], r.text


def test_an_unknown_key_in_a_cast_entry_is_refused(client: TestClient) -> None:
    r = create_season(client, [{"name": "Ann", "robot": True}, "Ben", "Cat"])
    assert r.status_code == 422, r.text
    assert r.json()["error"] == "SE-1: unknown player 1 field 'robot'"


@pytest.mark.parametrize(("step", "scale"), [(1, 0.001), (49, 0.001), (1, 0.049)])
def test_no_step_clock_under_g5s_floor(client: TestClient, step: float, scale: float) -> None:
    """``step_seconds: 1`` with ``time_scale: 0.001`` made a 1 ms step clock (G-5: 0.05 s)."""
    r = create_season(client, CAST, step_seconds=step, settings={"time_scale": scale})
    assert r.status_code == 422 and r.json()["rule"] == "G-5", r.text
    assert "'step_seconds'" in r.json()["error"] and "0.05 s" in r.json()["error"]


def test_a_step_clock_at_the_floor_is_taken(client: TestClient) -> None:
    r = create_season(client, CAST, step_seconds=50, settings={"time_scale": 0.001,
                                                               "bot_pace": "instant"},
                      mm_config={"round_seconds": 60, "vote_seconds": 60})
    assert r.status_code == 201, r.text
    sid, host = r.json()["id"], r.json()["tokens"]["host"]
    # The first step (the Main Match next) runs on the step clock: 0.05 s of wall time.
    events = client.get(f"/api/matches/{sid}/events", params={"token": host}).json()["events"]
    first = next(e for e in events if e["kind"] == "phase_started")
    assert first["data"]["deadline"] - first["t"] == pytest.approx(0.05)
    end_season(client, sid, host)


def end_season(client: TestClient, sid: str, host: str) -> None:
    """End a season a test made, so its clocks stop drawing steps on the shared server."""
    r = client.post(f"/api/seasons/{sid}/host/end", params={"token": host}, json={})
    assert r.status_code in (200, 422), r.text  # 422: it had ended already


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(step=st.one_of(st.floats(1, 100), st.sampled_from([1.0, 49.0, 50.0, 51.0])),
       scale=st.one_of(st.floats(0.001, 0.1), st.sampled_from([0.001, 0.049, 0.05])))
def test_a_step_clock_is_taken_exactly_when_it_lasts_g5s_floor(client: TestClient,
                                                                step: float,
                                                                scale: float) -> None:
    """G-5 over the step clock and the time scale: a season is made exactly when its step
    clock lasts 0.05 s of wall time or more, and a shorter one is refused naming the field."""
    r = create_season(client, CAST, step_seconds=step,
                      settings={"time_scale": scale, "bot_pace": "instant"},
                      mm_config={"round_seconds": 86400, "vote_seconds": 86400})
    if step * scale < 0.05:
        assert r.status_code == 422 and r.json()["rule"] == "G-5", r.text
        assert r.json()["error"].startswith("G-5: setting 'step_seconds'"), r.text
    else:
        assert r.status_code == 201, r.text
        end_season(client, r.json()["id"], r.json()["tokens"]["host"])


def test_a_step_clock_past_its_longest_is_refused_naming_it(client: TestClient) -> None:
    r = create_season(client, CAST, step_seconds=MAX_STEP_SECONDS + 1)
    assert r.status_code == 422 and "'step_seconds'" in r.json()["error"], r.text


def test_every_season_host_act_has_its_route_and_its_model() -> None:
    """Each act the host makes in a season (the game's own) is a route whose body is the
    act's model; the server's own acts (a match's result, an old season's import) are no
    route."""
    host_acts = {name: spec.model for name, spec in SEASON.acts.items() if "host" in spec.by}
    assert host_acts and all(SEASON_HOST_ACTIONS[n] is m for n, m in host_acts.items())
    server_acts = {name for name, spec in SEASON.acts.items() if "host" not in spec.by}
    assert "match_result" in server_acts and not server_acts & set(SEASON_HOST_ACTIONS)
    for name in SEASON_HOST_ACTIONS:
        assert route(f"/api/seasons/{{match_id}}/host/{name}", "post") is not None, name


SEASON_POSTS = [op for op in POSTS if op.path.startswith(SEASON_PATH)]


@pytest.mark.parametrize("op", SEASON_POSTS, ids=lambda op: op.path)
def test_every_season_route_takes_its_plain_body_at_its_step(client: TestClient,
                                                             targets: Targets, op: Op) -> None:
    """The bodies above reach the season's rules: each route applies its plain body at its
    step (so the edges posted there are judged by the rules too, not all refused as late)."""
    assert op.body is not None
    body = BASES.get(op.body.__name__) or least(op.body.model_json_schema(),
                                               op.body.model_json_schema().get("$defs", {}))
    path, params = targets.url(op, fresh=True)
    r = client.post(path, params=params, json=body)
    assert r.status_code == 200, (op.path, body, r.text)


HOST_ACTS = [name for name, spec in SEASON.acts.items() if "host" in spec.by]


@pytest.mark.parametrize("name", HOST_ACTS)
def test_a_season_act_through_the_match_route_is_judged_the_same(
        client: TestClient, targets: Targets, name: str) -> None:
    """``/api/matches/{id}/host/act`` takes the same acts of a season (its game's): every
    edge of the act's model is taken or refused naming the field, as on the season's route."""
    model = SEASON.acts[name].model
    assert model is not None
    season_route = route(f"/api/seasons/{{match_id}}/host/{name}", "post")
    assert season_route is not None
    for case in cases_for(model):
        url, params = targets.url(season_route, fresh=case.valid and fresh(season_route))
        sid = url.split("/")[3]
        r = client.post(f"/api/matches/{sid}/host/act", params=params,
                        content=json.dumps({"name": name, "data": case.body}).encode(),
                        headers={"content-type": "application/json"})
        assert r.status_code < 500, (name, case, r.text)
        if case.valid:
            continue
        assert 400 <= r.status_code < 500, (name, case, r.status_code, r.text)
        error = r.json()["error"]
        assert f"'{case.name}'" in error or f"{case.name} field '" in error, (name, case, error)


# --------------------------------------------------------------------------- the table
def app_routes() -> list[Route]:
    """Every route of the app, its debugging route included."""
    patch = pytest.MonkeyPatch()
    patch.setenv("ARENA_LOOP_MONITOR", "1")
    try:
        app = create_app("sqlite://")
    finally:
        patch.undo()
    return [r for r in app.routes if isinstance(r, Route)]


def test_every_post_route_of_the_app_has_a_body_model_in_the_table() -> None:
    routes = app_routes()
    posts = [r.path for r in routes if "POST" in (r.methods or ())]
    assert "/api/debug/loop" in posts and "/api/seasons" in posts
    for path in posts:
        if path in ACTION_ROUTES:
            for action, model in ACTION_ROUTES[path].items():
                op = route(path.replace("{action}", action), "post")
                assert op is not None and op.body is model, (path, action)
            continue
        op = route(path, "post")
        assert op is not None and op.body is not None, path
    # And nothing in the table that the app does not serve.
    for op in ROUTES:
        if op.method == "post":
            template = op.path.rsplit("/", 1)[0] + "/{action}"
            assert op.path in posts or template in posts, op.path
    # And every route of the JSON API is in the document.
    paths = document()["paths"]
    for r in routes:
        if r.path.startswith("/api/") and r.path not in ("/api/openapi.json",
                                                         "/api/debug/loop"):
            for method in (r.methods or set()) - {"HEAD"}:
                assert method.lower() in paths[r.path], (method, r.path)


@pytest.mark.parametrize("path", sorted(ACTION_ROUTES))
def test_an_action_not_in_the_table_is_not_found(client: TestClient, targets: Targets,
                                                path: str) -> None:
    pause = route(path.replace("{action}", "pause"), "post")
    assert pause is not None
    url, params = targets.url(pause)
    r = client.post(url.replace("/pause", "/frobnicate"), params=params, json={})
    assert r.status_code == 404 and "frobnicate" in r.json()["error"], r.text


def test_the_openapi_document_gives_every_route_its_models_schema(client: TestClient) -> None:
    doc = client.get("/api/openapi.json").json()
    schemas = doc["components"]["schemas"]
    for op in ROUTES:
        if not op.public:
            assert op.path not in doc["paths"]
            continue
        entry = doc["paths"][op.path][op.method]
        assert entry["summary"] == op.summary
        if op.body is None:
            assert "requestBody" not in entry, op.path
            continue
        own = TypeAdapter(op.body).json_schema(ref_template=REF)
        defs = own.pop("$defs", {})
        body = entry["requestBody"]["content"]["application/json"]["schema"]
        if op.path == "/api/matches":  # each game's config is named in the document
            body = {**body, "properties": {**body["properties"],
                                           "config": own["properties"]["config"]}}
            schemas = {**schemas, "CreateMatch": own}
        assert body == own, op.path
        assert schemas[op.body.__name__] == own, op.path
        for name, inner in defs.items():
            assert schemas[name] == inner, (op.path, name)
    for path, actions in ACTION_ROUTES.items():
        entry = doc["paths"][path]["post"]
        refs = {a: b["$ref"] for a, b in entry["x-action-bodies"].items()}
        assert refs == {a: REF.format(model=m.__name__) for a, m in actions.items()}
    config = doc["paths"]["/api/matches"]["post"]["requestBody"]["content"][
        "application/json"]["schema"]["properties"]["config"]
    assert {"$ref": REF.format(model="boxes_config")} in config["anyOf"]


def test_what_a_death_match_may_set_is_what_any_match_may() -> None:
    """SE-7: the Death Match's settings are typed apart (only those given apply, null or
    absent: the season's own, so no default of their own); their bounds are the match
    settings' own. Who may watch is the season's (its children inherit it)."""
    mine = DeathMatchSettings.model_json_schema()["properties"]
    theirs = TypeAdapter(HostSettings).json_schema()["properties"]
    names = [f.name for f in dataclasses.fields(MatchSettings)]
    assert list(mine) == names
    for name in names:
        given_ = [m for m in mine[name].get("anyOf", [mine[name]]) if m.get("type") != "null"]
        assert len(given_) == 1 and mine[name].get("default") is None, name
        keep = ("type", "minimum", "maximum", "enum")
        assert {k: v for k, v in given_[0].items() if k in keep} == \
            {k: v for k, v in theirs[name].items() if k in keep}, name


def test_a_death_match_is_one_of_the_death_match_games_with_its_options_bounded(
        client: TestClient) -> None:
    """SE-4: the Death Match's game is one of the season's Death Matches; its options and
    settings are refused as any match's (G-5), naming the field, before anything starts."""
    sid, host, _ = season_at(client, "dm_next")
    url = f"/api/seasons/{sid}/host/start_death"
    for body, rule, said in (
            ({"game": "lockedout"}, "SE-4", "Death Match is one of"),
            ({"game": "chess"}, "SE-4", "Death Match is one of"),
            ({"game": "boxes", "config": {"zz": 1}}, "G-5", "'zz'"),
            ({"game": "boxes", "settings": {"time_scale": 0.0001}}, "SE-7", "'time_scale'"),
            ({"game": "boxes", "levels": ["expert"]}, "G-8", "'levels'")):
        r = client.post(url, params={"token": host}, json=body)
        assert r.status_code == 422 and r.json()["rule"] == rule, (body, r.text)
        assert said in r.json()["error"], (body, r.text)
    view = client.get(f"/api/seasons/{sid}", params={"token": host}).json()
    assert view["state"]["step"] == "dm_next"  # nothing started
    assert client.post(url, params={"token": host}, json={"game": "boxes"}).status_code == 200
