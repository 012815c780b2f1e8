"""The OpenAPI description of the JSON API, served at ``/api/openapi.json``.

Written by hand: Starlette has no model layer to derive it from, and the API is small. The
settings of a match (each game's config, the host's settings, a seat entry) are the schemas
that validate them (issue 25): :func:`document` adds them as components from pydantic.
"""

from __future__ import annotations

import copy
from typing import Any

from arena.core import settings as schema
from arena.core.game import BOT_LEVELS
from arena.core.registry import all_games
from arena.server.matches import HostSettings, SeatEntry

_TOKEN = {"name": "token", "in": "query", "required": True, "schema": {"type": "string"},
          "description": "the secret token of a seat, the spectator or the host "
                         "(or send 'Authorization: Bearer <token>')"}
_SEASON = {"name": "season_id", "in": "path", "required": True, "schema": {"type": "string"}}
_ID = {"name": "match_id", "in": "path", "required": True, "schema": {"type": "string"}}
_ERR = {"description": "refused; the body is {\"ok\": false, \"error\": \"<rule>: <message>\"}"}

_PHASE = {"type": "integer", "minimum": 0,
          "description": "the number of the phase this answers (the view's phase.no)"}
_STALE = {"description": "made for a phase that has closed (G-2); nothing was applied. The "
                         "body adds 'stale': true, 'phase', 'phase_title' and 'current_phase'"}


def _op(summary: str, params: list[dict[str, Any]], body: dict[str, Any] | None = None,
        extra: dict[str, Any] | None = None, *, stale: bool = False) -> dict[str, Any]:
    op: dict[str, Any] = {"summary": summary, "parameters": params,
                          "responses": {"200": {"description": "ok"}, "400": _ERR,
                                        "401": _ERR, "403": _ERR, "404": _ERR, "422": _ERR}}
    if stale:
        op["responses"]["409"] = _STALE
    if body is not None:
        op["requestBody"] = {"required": True,
                             "content": {"application/json": {"schema": body}}}
    if extra:
        op.update(extra)
    return op


SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Arena", "version": "1",
             "description": "Create matches, read a seat's view, submit and confirm. "
                            "Live updates: WebSocket /ws/{match_id}?token=T&since=V."},
    "paths": {
        "/api/games": {"get": _op("the registered games and their options", [])},
        "/api/games/{name}": {"get": _op("one game", [{"name": "name", "in": "path",
                                                      "required": True,
                                                      "schema": {"type": "string"}}])},
        "/api/matches": {
            "get": _op("running and finished matches (public facts only)", []),
            "post": _op("create a match; answers its id and one link per seat, a spectator "
                        "link and a host link", [], {
                            "type": "object",
                            "properties": {
                                "game": {"type": "string"},
                                # Answers carry it as a string (64 bits, issue 27).
                                "seed": {"type": ["integer", "string"]},
                                "seats": {"type": "array", "items": {
                                    "$ref": "#/components/schemas/SeatEntry"}},
                                "settings": {"$ref": "#/components/schemas/HostSettings"},
                                "config": {"type": "object",
                                           "description": "the game's own options: the "
                                           "schema components.schemas.<game>_config (every "
                                           "field typed and bounded; refused with 422 "
                                           "naming the field, G-5)"},
                            },
                            "required": ["game"]}),
        },
        "/api/matches/{match_id}": {"get": _op("public facts of one match", [_ID])},
        "/api/matches/{match_id}/view": {"get": _op("what the token's viewer sees now",
                                                    [_ID, _TOKEN])},
        "/api/matches/{match_id}/events": {"get": _op(
            "the log entries the viewer may see, after 'since'",
            [_ID, _TOKEN, {"name": "since", "in": "query", "schema": {"type": "integer"}}])},
        "/api/matches/{match_id}/replay": {"get": _op(
            "the viewer's view right after log entry 'version'",
            [_ID, _TOKEN, {"name": "version", "in": "query", "schema": {"type": "integer"}}])},
        "/api/matches/{match_id}/submit": {"post": _op(
            "submit text in the game's notation for the token's seat; 'phase' is the phase "
            "number it answers (G-2): if that phase has closed, 409 and nothing is applied; "
            "without it, the phase open now takes it. The answer names the phase ('phase', "
            "'phase_title')", [_ID, _TOKEN],
            {"type": "object", "properties": {"text": {"type": "string"},
                                              "final": {"type": "boolean"},
                                              "phase": _PHASE},
             "required": ["text"]}, stale=True)},
        "/api/matches/{match_id}/confirm": {"post": _op(
            "confirm the seat's standing submission as final (G-4); 'phase' as for submit",
            [_ID, _TOKEN], None, {"requestBody": {"required": False, "content": {
                "application/json": {"schema": {"type": "object",
                                                "properties": {"phase": _PHASE}}}}}},
            stale=True)},
        "/api/matches/{match_id}/chat": {"post": _op(
            "post a chat line in a channel the viewer may post in (G-13); the view's 'chat' "
            "lists them", [_ID, _TOKEN],
            {"type": "object", "properties": {"channel": {"type": "string"},
                                              "text": {"type": "string", "maxLength": 500}},
             "required": ["text"]})},
        "/api/matches/{match_id}/host/{action}": {"post": _op(
            "host only: pause, resume, extend ({\"seconds\": n}), end ({\"reason\": s}) or "
            "mute ({\"channel\": c, \"muted\": true|false}) or open a private channel with one "
            "seat ({\"seat\": n, \"open\": true|false}; G-13: only the host and that seat "
            "read it, as channel 'host-private-n')",
            [_ID, _TOKEN, {"name": "action", "in": "path", "required": True,
                           "schema": {"enum": ["pause", "resume", "extend", "end", "mute",
                                                "option", "private"]}}],
            {"type": "object"})},
        "/api/matches/{match_id}/host/links": {"get": _op(
            "host only: every human seat's link, the spectator's and the host's", [_ID, _TOKEN])},
        "/api/matches/{match_id}/host/reissue": {"post": _op(
            "host only: a new link for a human seat; the old one stops working", [_ID, _TOKEN],
            {"type": "object", "properties": {"seat": {"type": "integer"}},
             "required": ["seat"]})},
        "/api/matches/{match_id}/host/seat": {"post": _op(
            "host only: a bot takes a seat (true, at 'level': easy, normal or hard, the "
            "default; G-8) or a person does (false, a new link); a bot seat given a new "
            "level keeps its bot",
            [_ID, _TOKEN],
            {"type": "object", "properties": {"seat": {"type": "integer"},
                                              "bot": {"type": "boolean"},
                                              "level": {"enum": list(BOT_LEVELS)}},
             "required": ["seat", "bot"]})},
        "/api/matches/{match_id}/host/spectators": {"post": _op(
            "host only: open or close the match to spectators", [_ID, _TOKEN],
            {"type": "object", "properties": {"open": {"type": "boolean"}},
             "required": ["open"]})},
        "/api/matches/{match_id}/host/webhook": {"post": _op(
            "host only: set or clear the webhook that hears the match's public news (G-14; "
            "allowed hosts only, ARENA_WEBHOOK_HOSTS)", [_ID, _TOKEN],
            {"type": "object", "properties": {"url": {"type": ["string", "null"],
                                                      "maxLength": 512}},
             "required": ["url"]})},
        "/api/matches/{match_id}/host/rematch": {"post": _op(
            "host only, once the match is over: the same seats and options, a new seed",
            [_ID, _TOKEN])},
        "/api/matches/{match_id}/next": {"get": _op(
            "this link's own link in the rematch", [_ID, _TOKEN])},
        "/api/matches/{match_id}/notes": {
            "get": _op("a seat's private notes (its own link only)", [_ID, _TOKEN]),
            "post": _op("replace a seat's private notes (any JSON, no NaN or Infinity)",
                        [_ID, _TOKEN], {"type": "object", "properties": {"notes": {}},
                                        "required": ["notes"]})},
        "/api/scenarios": {
            "get": _op("Feather's scenarios by name: the shipped ones and the library's "
                       "(LF-12), each with its title, author note and source", []),
            "post": _op("save a host's Feather scenario in the library under a new name "
                        "(LF-12: letters, digits, spaces, - and _, at most 40 characters, "
                        "never a path); refused 422 naming the rule of every problem of "
                        "the text (LF-1..LF-9), 409 if the name is taken; nothing is "
                        "stored when refused", [], {
                            "type": "object",
                            "properties": {"name": {"type": "string", "maxLength": 40},
                                           "note": {"type": "string", "maxLength": 500},
                                           "text": {"type": "string", "maxLength": 50000,
                                                    "description": "the scenario's TOML "
                                                    "(LF-7)"}},
                            "required": ["name", "text"]},
                        {"responses": {"201": {"description": "saved"}, "400": _ERR,
                                       "409": _ERR, "413": _ERR, "422": _ERR,
                                       "429": _ERR}})},
        "/api/scenarios/check": {"post": _op(
            "the scenario editor's checker: every problem of a scenario (given as TOML "
            "'text' or as plain 'data') with its rule id and place, the TOML, each "
            "objective in words, and an SVG preview of session 'session' as a player "
            "first sees it; stores nothing", [],
            {"type": "object", "properties": {
                "text": {"type": "string", "maxLength": 50000},
                "data": {"type": "object"},
                "session": {"type": "integer", "minimum": 0}}})},
        "/api/scenarios/{name}": {"get": _op(
            "one Feather scenario (shipped or from the library) with its TOML text",
            [{"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}])},
        "/api/seasons": {
            "get": _op("every season (public facts only)", []),
            "post": _op("create a season from a cast of 3 or more named players (SE-1); "
                        "answers its id and one link per player and for the host", [], {
                            "type": "object",
                            "properties": {
                                "cast": {"type": "array", "items": {
                                    "type": "object",
                                    "properties": {"name": {"type": "string"},
                                                   "bot": {"type": "boolean"}}}},
                                "seed": {"type": "integer"},
                                "settings": {"type": "object"},
                                "step_seconds": {"type": "number"},
                                "mm_config": {"type": "object"},
                                "webhook": {"type": ["string", "null"], "maxLength": 512}},
                            "required": ["cast"]})},
        "/api/seasons/{season_id}": {"get": _op(
            "the season as the link's holder may see it (public without a token)",
            [_SEASON, {**_TOKEN, "required": False}])},
        "/api/seasons/{season_id}/gift": {"post": _op(
            "the solo winner gives the ToL to a player (SE-3)", [_SEASON, _TOKEN],
            {"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"]})},
        "/api/seasons/{season_id}/nominate": {"post": _op(
            "the elimination candidate nominates the opponent (SE-3)", [_SEASON, _TOKEN],
            {"type": "object", "properties": {"dmo": {"type": "string"}},
             "required": ["dmo"]})},
        "/api/seasons/{season_id}/host/{action}": {"post": _op(
            "season host only: start a match, record a result, name the EC, adjust, end, "
            "give a player a new season link (reissue, {\"player\": name})",
            [_SEASON, _TOKEN, {"name": "action", "in": "path", "required": True,
                               "schema": {"enum": ["start_main", "start_death",
                                                   "record_main", "name_ec", "record_death",
                                                   "decide", "adjust", "end",
                                                   "close_vault", "mm_rounds", "pause",
                                                   "resume", "extend", "deadline",
                                                   "webhook", "reissue"]}}],
            {"type": "object"})},
        "/api/seasons/{season_id}/private": {"post": _op(
            "the host's private channel with one player (G-13): the host names 'player'; the "
            "player answers once the host has written", [_SEASON, _TOKEN],
            {"type": "object", "properties": {"text": {"type": "string", "maxLength": 500},
                                              "player": {"type": "string"}},
             "required": ["text"]})},
    },
}


def document() -> dict[str, Any]:
    """The OpenAPI document with the settings schemas as components, built from the same
    pydantic schemas that validate a create request (so the two cannot disagree)."""
    doc = copy.deepcopy(SPEC)
    schemas: dict[str, Any] = {"SeatEntry": schema.json_schema(SeatEntry),
                               "HostSettings": schema.json_schema(HostSettings)}
    refs = []
    for name, game in all_games(include_extra=True).items():
        key = f"{name}_config"
        schemas[key] = schema.json_schema(game.config_type)
        refs.append({"$ref": f"#/components/schemas/{key}"})
    doc["components"] = {"schemas": schemas}
    create = doc["paths"]["/api/matches"]["post"]["requestBody"]["content"]["application/json"]
    create["schema"]["properties"]["config"]["anyOf"] = refs
    return doc
