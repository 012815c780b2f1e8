"""The OpenAPI description of the JSON API, served at ``/api/openapi.json``.

Drawn from the request models (:mod:`arena.server.requests`) and one table of routes
(:data:`BASE_ROUTES`: path, method, body model, summary, and each game's own endpoints from
its declaration, :mod:`arena.core.extras`; :func:`routes` is both): a body's schema is the
schema of the very model its handler parses, so the document cannot promise what the server
refuses, nor leave out a bound the server enforces. A test walks the app's routes against the
table, so a new endpoint cannot be added without its body's model. Each game's config is added
as a component from the schema that validates it (G-5).
"""

from __future__ import annotations

import copy
import functools
import re
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from arena.core import settings as schema
from arena.core.registry import all_games
from arena.server.requests import (
    MATCH_HOST_ACTIONS,
    Broadcast,
    Chat,
    Confirm,
    CreateMatch,
    Empty,
    Notes,
    Reissue,
    SeatChange,
    SeatPrivate,
    Spectators,
    Submit,
    Webhook,
)
from arena.server.season_requests import (
    SEASON_HOST_ACTIONS,
    CreateSeason,
    Gift,
    Nominate,
    SeasonPrivate,
    Vote,
)

REF = "#/components/schemas/{model}"

Token = Literal["required", "optional", "none"]


@dataclass(frozen=True)
class Op:
    """One route of the API: what the document says of it. ``body`` is the model its handler
    parses (None: it reads no body); ``token`` whether it takes a link's token; ``stale``
    whether it may answer 409 for a phase that has closed (G-2); ``public`` False for a
    route the document leaves out (a debugging aid that exists only when switched on)."""

    path: str
    method: Literal["get", "post"]
    summary: str
    body: type[BaseModel] | None = None
    token: Token = "none"
    query: tuple[tuple[str, str, str], ...] = ()
    stale: bool = False
    created: bool = False
    public: bool = True
    conflict: bool = False
    """Whether the route may answer 409 (a name taken)."""


MATCH_ACTION_WORDS = {
    "pause": "host only: pause the match's clock",
    "resume": "host only: run the match's clock again",
    "extend": "host only: give the current phase more time (up to 366 days)",
    "deadline": "host only: when the current phase ends, as a clock time (SE-7): epoch "
                "seconds or ISO 8601 with its UTC offset, at most 366 days on; a paused match "
                "runs again; in reserve, every running reserve period ends then",
    "end": "host only: end the match now; it is scored as it stands",
    "option": "host only: flip one of the game's live switches (LO-12's helper)",
    "mute": "host only: mute or open a chat channel (G-13)",
    "private": "host only: open or close a private channel with one seat (G-13: only the "
               "host and that seat read it, as channel 'host-private-<seat>')",
    "act": "host only: one of the game's own acts by 'name', with its 'data' (a season's "
           "steps: the same acts as /api/seasons/{match_id}/host/<act>)",
}
"""The summary of each match host action (every action of ``MATCH_HOST_ACTIONS``)."""

SEASON_ACTION_WORDS = {
    "start_main": "season host only: start the episode's Main Match here (SE-1)",
    "start_death": "season host only: start the episode's Death Match here (SE-4, SE-7)",
    "close_vault": "season host only: end the running Main Match now, scored as it stands "
                   "(SE-6)",
    "record_main": "season host only: record a Main Match's result by hand (SE-2)",
    "name_ec": "season host only: name the Elimination Candidate when nobody voted (SE-3)",
    "record_death": "season host only: record a Death Match played elsewhere (SE-4)",
    "decide": "season host only: decide a Death Match with no winner (SE-4)",
    "adjust": "season host only: correct the ledger with a written reason (SE-5)",
    "end": "season host only: end the season (SE-1)",
    "mm_rounds": "season host only: the round limit of the Main Matches to come (SE-6)",
    "pause": "season host only: hold the current step's clock (SE-7)",
    "resume": "season host only: run the current step's clock again (SE-7)",
    "extend": "season host only: more time for the current step (SE-7)",
    "deadline": "season host only: the current step's deadline as a clock time (SE-7); "
                "while a match is played, that match's",
    "webhook": "season host only: set or clear the season's webhook and its news level, which "
               "its running match follows (G-14)",
    "reissue": "season host only: a new season link for a player; the old one stops working",
}
"""The summary of each season host action (every action of ``SEASON_HOST_ACTIONS``)."""

MATCH = "/api/matches/{match_id}"
SEASON = "/api/seasons/{match_id}"

BASE_ROUTES: tuple[Op, ...] = (
    Op("/api/games", "get", "the registered games and their options"),
    Op("/api/games/{name}", "get", "one game"),
    Op("/api/matches", "get", "running and finished matches (public facts only)"),
    Op("/api/matches", "post", "create a match; answers its id and one link per seat, a "
       "spectator link and a host link", CreateMatch, created=True),
    Op(MATCH, "get", "public facts of one match"),
    Op(f"{MATCH}/view", "get", "what the token's viewer sees now (a broadcast link: the "
       "host's view one delay ago, G-15)", token="required",
       query=(("as", "integer", "a broadcast link only: that seat's own view of the same "
               "moment, the seat counted from 0"),
              ("version", "integer", "with 'as': that seat's view at this entry of the "
               "broadcast (the host's numbering), not later than the broadcast's moment"))),
    Op(f"{MATCH}/events", "get", "the log entries the viewer may see, after 'since'",
       token="required", query=(("since", "integer", "the viewer's version last seen"),)),
    Op(f"{MATCH}/replay", "get", "the viewer's view right after log entry 'version'",
       token="required", query=(("version", "integer", "the viewer's own entry number"),)),
    Op(f"{MATCH}/review", "get", "after the match: each seat's decisions judged against "
       "the best one, the costliest first, as far as the viewer may see them (G-9); 409 "
       "while the match runs", token="required"),
    Op(f"{MATCH}/submit", "post", "submit text in the game's notation for the token's seat; "
       "'phase' is the phase number it answers (G-2): if that phase has closed, 409 and "
       "nothing is applied; without it, the phase open now takes it. The answer names the "
       "phase ('phase', 'phase_title')", Submit, token="required", stale=True),
    Op(f"{MATCH}/confirm", "post", "confirm the seat's standing submission as final (G-4); "
       "'phase' as for submit", Confirm, token="required", stale=True),
    Op(f"{MATCH}/chat", "post", "post a chat line in a channel the viewer may post in "
       "(G-13); the view's 'chat' lists them", Chat, token="required"),
    Op(f"{MATCH}/private", "post", "a seat's link opens its own private channel with the "
       "host (G-13: only the two of them read it, as channel 'host-private-<seat>'); only "
       "the host closes it", SeatPrivate, token="required"),
    Op(f"{MATCH}/host/links", "get", "host only: every human seat's link, the spectator's "
       "and the host's", token="required"),
    Op(f"{MATCH}/host/reissue", "post", "host only: a new link for a human seat; the old "
       "one stops working", Reissue, token="required"),
    Op(f"{MATCH}/host/seat", "post", "host only: a bot takes a seat (at 'level' easy, "
       "normal or hard, the default; G-8) or a person does (a new link); a bot seat given a "
       "new level keeps its bot", SeatChange, token="required"),
    Op(f"{MATCH}/host/spectators", "post", "host only: open or close the match to "
       "spectators", Spectators, token="required"),
    Op(f"{MATCH}/host/broadcast", "post", "host only: open (or reissue) the broadcast link, "
       "which sees the whole match one delay behind, or close it (G-15)", Broadcast,
       token="required"),
    Op(f"{MATCH}/host/webhook", "post", "host only: set or clear the webhook that hears the "
       "match's public news (G-14; allowed hosts only, ARENA_WEBHOOK_HOSTS)", Webhook,
       token="required"),
    Op(f"{MATCH}/host/rematch", "post", "host only, once the match is over: the same seats "
       "and options, a new seed", Empty, token="required"),
    Op(f"{MATCH}/next", "get", "this link's own link in the rematch", token="required"),
    Op(f"{MATCH}/notes", "get", "a seat's private notes (its own link only)",
       token="required"),
    Op(f"{MATCH}/notes", "post", "replace a seat's private notes (any JSON, no NaN or "
       "Infinity)", Notes, token="required"),
    *(Op(f"{MATCH}/host/{action}", "post", MATCH_ACTION_WORDS[action], model,
         token="required") for action, model in MATCH_HOST_ACTIONS.items()),
    Op("/api/seasons", "get", "every season (public facts only)"),
    Op("/api/seasons", "post", "create a season from a cast of 3 or more named players "
       "(SE-1); answers its id and one link per player and for the host", CreateSeason,
       created=True),
    Op(SEASON, "get", "the season as the link's holder may see it (public without a token), "
       "with the address of its public recap page (`recap`)", token="optional"),
    Op(f"{SEASON}/vote", "post", "a trapped player votes for the Elimination Candidate, or "
       "an escaped one chooses among the tied (LO-9, SE-6)", Vote, token="required"),
    Op(f"{SEASON}/gift", "post", "the solo winner gives the ToL to a player (SE-3)", Gift,
       token="required"),
    Op(f"{SEASON}/nominate", "post", "the elimination candidate nominates the opponent "
       "(SE-3)", Nominate, token="required"),
    Op(f"{SEASON}/private", "post", "the host's private channel with one player (G-13): the "
       "host names 'player'; the player answers once the host has written", SeasonPrivate,
       token="required"),
    *(Op(f"{SEASON}/host/{action}", "post", SEASON_ACTION_WORDS[action], model,
         token="required") for action, model in SEASON_HOST_ACTIONS.items()),
    Op("/api/debug/loop", "post", "the event loop's stalls so far, then a new window "
       "(only with ARENA_LOOP_MONITOR=1)", Empty, public=False),
)
"""Every route of the server's own JSON API. The host actions' routes are listed one per
action (each has its own body); the app serves them through one ``/host/{action}`` route each
for a match and a season, which the document lists too, with the bodies of all its actions."""


def routes() -> tuple[Op, ...]:
    """:data:`BASE_ROUTES` and each game's own endpoints (:mod:`arena.core.extras`), as the
    games installed now declare them."""
    found: list[Op] = []
    for game in all_games(include_extra=True).values():
        extras = game.extras()
        found += [Op(e.path, e.method, e.summary, e.body, query=e.query, created=e.created,
                     conflict=e.conflict)
                  for e in (extras.endpoints if extras is not None else ())]
    return (*BASE_ROUTES, *found)

ACTION_ROUTES: dict[str, dict[str, type[BaseModel]]] = {
    f"{MATCH}/host/{{action}}": dict(MATCH_HOST_ACTIONS),
                 f"{SEASON}/host/{{action}}": SEASON_HOST_ACTIONS}
"""The app's ``/host/{action}`` routes and the body of each of their actions."""

_TOKEN_DOC = ("the secret token of a seat, the spectator or the host (or send "
              "'Authorization: Bearer <token>')")
_ERR = {"description": "refused; the body is {\"ok\": false, \"error\": \"<rule>: <message>\"} "
                       "(a 422 adds \"rule\")"}
_STALE = {"description": "made for a phase that has closed (G-2); nothing was applied. The "
                         "body adds 'stale': true, 'phase', 'phase_title' and 'current_phase'"}


def route(path: str, method: str) -> Op | None:
    """The table's entry for one route (a concrete ``/host/<action>`` path included)."""
    return next((op for op in routes() if op.path == path and op.method == method), None)


def _parameters(op: Op) -> list[dict[str, Any]]:
    params: list[dict[str, Any]] = []
    for name in re.findall(r"{(\w+)}", op.path):
        params.append({"name": name, "in": "path", "required": True,
                       "schema": {"type": "string"}})
    if op.token != "none":
        params.append({"name": "token", "in": "query", "required": op.token == "required",
                       "schema": {"type": "string"}, "description": _TOKEN_DOC})
    for name, kind, words in op.query:
        params.append({"name": name, "in": "query", "schema": {"type": kind},
                       "description": words})
    return params


def _responses(op: Op) -> dict[str, Any]:
    out: dict[str, Any] = {"201" if op.created else "200": {"description": "ok"}}
    codes = ["400", "401", "403", "404", "422", "503"]
    if op.method == "post":
        codes += ["413", "429"]  # every body is bounded, every write rate-limited
    if op.conflict:
        codes.append("409")  # a name taken
    out.update({code: _ERR for code in sorted(codes)})
    if op.stale:
        out["409"] = _STALE
    return out


def _body_schema(model: type[BaseModel], defs: dict[str, Any]) -> dict[str, Any]:
    """A model's schema as a request body shows it: its own fields inline (a client reads
    them there), the models inside it by reference to the components."""
    body: dict[str, Any] = copy.deepcopy(defs[model.__name__])
    return body


@functools.cache
def _document(table: tuple[Op, ...]) -> dict[str, Any]:
    """The document from the route table and the models (built once per table: the games
    installed decide it, and they change only in a test)."""
    models = list(dict.fromkeys(op.body for op in table if op.body is not None))
    _, top = models_json_schema([(m, "validation") for m in models], ref_template=REF)
    defs: dict[str, Any] = top.get("$defs", {})
    paths: dict[str, dict[str, Any]] = {}
    for op in table:
        if not op.public:
            continue
        entry: dict[str, Any] = {"summary": op.summary, "parameters": _parameters(op),
                                 "responses": _responses(op)}
        if op.body is not None:
            entry["requestBody"] = {
                "required": bool(defs[op.body.__name__].get("required")),
                "content": {"application/json": {"schema": _body_schema(op.body, defs)}}}
        paths.setdefault(op.path, {})[op.method] = entry
    for path, actions in ACTION_ROUTES.items():
        op = Op(path, "post", "host only: one of the actions listed as their own paths "
                "(/host/<action>), each with its own body", token="required")
        params = [dict(p, schema={"enum": list(actions)}) if p["name"] == "action" else p
                  for p in _parameters(op)]  # the action: one of the table's
        bodies = [{"$ref": REF.format(model=m.__name__)} for m in dict.fromkeys(actions.values())]
        paths[path] = {"post": {
            "summary": op.summary, "parameters": params, "responses": _responses(op),
            "requestBody": {"required": False, "content": {"application/json": {
                "schema": {"anyOf": bodies}}}},
            "x-action-bodies": {a: {"$ref": REF.format(model=m.__name__)}
                                for a, m in actions.items()}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Arena", "version": "1",
                 "description": "Create matches, read a seat's view, submit and confirm. "
                                "Live updates: WebSocket /ws/{match_id}?token=T&since=V. "
                                "Every request body is strict: JSON types exactly, no "
                                "unknown keys, every bound as its schema says; a refusal "
                                "names the field and the rule."},
        "paths": paths,
        "components": {"schemas": defs},
    }


def document() -> dict[str, Any]:
    """The OpenAPI document, with each registered game's config as a component
    (``<game>_config``) from the schema that validates it, and the create request's
    ``config`` as one of them."""
    doc = copy.deepcopy(_document(routes()))
    schemas = doc["components"]["schemas"]
    refs: list[dict[str, Any]] = []
    for name, game in all_games(include_extra=True).items():
        if not game.listed:
            continue  # made from a cast at /api/seasons, never by the create request
        key = f"{name}_config"
        schemas[key] = schema.json_schema(game.config_type)
        refs.append({"$ref": REF.format(model=key)})
    for where in (doc["paths"]["/api/matches"]["post"]["requestBody"]["content"]
                  ["application/json"]["schema"], schemas[CreateMatch.__name__]):
        config = where["properties"]["config"]
        config["anyOf"] = [*refs, {"type": "null"}]
    return doc


def __getattr__(name: str) -> Any:
    """``SPEC``: the document as the server serves it now, and ``ROUTES``: its table (built
    on each use, so they list the games registered by then)."""
    if name == "SPEC":
        return document()
    if name == "ROUTES":
        return routes()
    raise AttributeError(name)
