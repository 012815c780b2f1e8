"""Every JSON request body of the API as one pydantic model, in one place.

Bodies used to be dicts each handler read with ``body.get``, so a handler took whatever it
could make sense of: ``"bot": "false"`` made a bot, a name given as ``5`` was stored as text, a
key nobody knew was ignored. Each model here is strict like the settings
(:data:`arena.core.settings.STRICT`): JSON types exactly (``"false"`` is not a boolean, ``5``
is not text), unknown keys refused, every length and range bounded, and each bound described
with the ruling it serves. Handlers receive the model (:func:`parse`), and the OpenAPI document
is drawn from these same models (:mod:`arena.server.openapi`), so what is documented is what is
enforced.

A refusal names the field and the rule, in the words of the settings' refusals
(``"G-8: seat 2 field 'level' must be 'easy', 'normal' or 'hard', not "expert""``):

- a field whose description starts with a rule id (``"G-8: ..."``) names that rule: a value of
  the wrong type or out of its bounds is a 422 naming it (the outermost such field, with the
  field's own rule in parentheses when it differs);
- otherwise a body of the wrong shape (not an object; a field missing, unknown or of the
  wrong JSON type) is a 400 ``request``, and a value out of its bounds a 422 ``request``: a
  phase number that never existed is a 422, a phase that is not a number a 400;
- a body whose :attr:`Body.shape_rule` is set answers a wrong shape 422 naming that rule: the
  create requests and the season's steps have always been refused so, and their pages show it.

Deeper checks that need the match or the season (is this seat a bot, is it this player's
step, does the game know this option) stay with the code that knows; a model only says what
any body of its kind must be.
"""

from __future__ import annotations

import json
import math
import re
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass, fields, is_dataclass
from typing import Annotated, Any, ClassVar, TypeVar

from annotated_types import Ge, Le, MaxLen
from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, ValidationError
from pydantic.fields import FieldInfo
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import ErrorDetails
from starlette.requests import Request

from arena.core import settings as schema
from arena.core.chat import MAX_CHARS
from arena.core.deadlines import MAX_CLOCK
from arena.core.errors import RuleError
from arena.core.game import BotLevel
from arena.core.match_settings import MatchSettings
from arena.core.rng import MAX_SEED
from arena.season import acts
from arena.season import state as season_state
from arena.server.clocktime import AT_WORDS, ClockTime
from arena.server.errors import ApiError
from arena.server.limits import MAX_TEXT, read_json
from arena.server.news import NewsLevel
from arena.server.webhook_url import MAX_URL

MAX_NAME = 40
"""Characters of a seat's display name (G-8) and of a season player's (SE-1)."""
MAX_GAME = 40
"""Characters of a game's registered name."""
MAX_SEED_TEXT = 40
"""Characters of a seed given as digits (G-7: 2^64 - 1 has 20)."""
MAX_SEATS = 64
"""Seat entries of a create request: more than any game seats (each game then checks its own
count, G-8, SE-1), so only a body that could never be right is refused here."""
MAX_CHANNEL = 40
"""Characters of a chat channel's id (G-13), as the match checks it."""
MAX_OPTION = 40
"""Characters of a host option's name."""
MAX_END_REASON = 200
"""Characters of the reason the host gives for ending a match, as its log keeps it."""
MAX_PHASE_NO = 10**9
"""A phase number the sender answers (G-2): far past :data:`schema.MAX_MATCH_PHASES`."""
MAX_BARS = 10**6
"""Gold bars of one player in a Main Match recorded by hand (SE-2): far past any real match."""
MAX_ADJUST = 1000
"""The largest one host adjustment of the ledger (SE-5), either way."""
MAX_DEPTH = 200
"""Levels a body may nest: the bound of pydantic's JSON reader. The deepest bodies the pages
send (a game's scenario as data, a page's notes) nest a handful."""
DAY = 86400.0
MAX_STEP_SECONDS = 30 * DAY
"""The longest step clock a season may be created with (SE-7), before the time scale."""
MAX_SEASON_NAME = 60
"""Characters of a season's name, as its page and its posts show it (G-14)."""

B = TypeVar("B", bound=BaseModel)


class Body(BaseModel):
    """A request body: strict JSON types, nothing unknown, no NaN or Infinity, immutable."""

    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False, frozen=True)

    shape_rule: ClassVar[str | None] = None
    """The rule a malformed body of this kind is refused under (422); None: a 400."""


def chars(help: str, most: int) -> Any:
    """The metadata of a text field: its help (a rule id first makes it the field's rule) and
    its longest length. (Not named ``text``: a field of that name would hide it.)"""
    return Field(description=help, max_length=most)


# --------------------------------------------------------------------------- matches
@dataclass(frozen=True)
class SeatEntry:
    """One entry of a create request's ``seats`` (G-8): strictly typed, so ``{"bot": "false"}``
    is refused instead of read as a true string."""

    __pydantic_config__: ClassVar[ConfigDict] = schema.STRICT

    name: Annotated[str | None, Field(
        max_length=MAX_NAME, description="G-8: the seat's display name (empty: a default)")
    ] = None
    bot: Annotated[bool, Field(description="G-8: a bot plays this seat")] = False
    level: Annotated[BotLevel, Field(
        description="G-8: how strongly the seat's bot plays: easy (a beginner's mistakes), "
                    "normal, or hard (the full bot)")] = "hard"


@dataclass(frozen=True)
class HostSettings(MatchSettings):
    """The host's settings of a create request: the engine's, and who may watch (the
    server's own)."""

    spectators: Annotated[bool, Field(
        description="G-9: the spectator link works (the lobby lists it)")] = True
    webhook: Annotated[str | None, schema.text(
        "G-14: a Discord webhook URL for the match's public news (the host's secret)",
        MAX_URL)] = None


Seed = Annotated[
    Annotated[int, Ge(0), Le(MAX_SEED)] | Annotated[str, MaxLen(MAX_SEED_TEXT)] | None,
    Field(description="G-7: the seed of every draw, 0 to 2^64-1, as a number or as digits "
                      "(empty or absent: 64 bits from a cryptographic source, G-12)")]


class CreateMatch(Body):
    """``POST /api/matches``: a new match of a registered game, its seats, the host's
    settings and the game's own options."""

    shape_rule = "api"

    game: Annotated[str, Field(max_length=MAX_GAME,
                               description="the game's name, as GET /api/games lists it")]
    seed: Seed = None
    seats: Annotated[list[SeatEntry] | None, Field(
        max_length=MAX_SEATS,
        description="G-8: one entry per seat, in seat order (absent: every seat a person, "
                    "named by the game)", json_schema_extra={"x-item": "seat"})] = None
    settings: Annotated[HostSettings | None, Field(
        description="G-5: the host's settings of the match",
        json_schema_extra={"x-what": "match setting"})] = None
    config: Annotated[dict[str, Any] | None, Field(
        description="G-5: the game's own options: the schema "
                    "components.schemas.<game>_config, every field typed and bounded, "
                    "refused naming the field")] = None


PhaseNo = Annotated[int, Field(
    ge=0, le=MAX_PHASE_NO,
    description="the number of the phase this answers, the view's phase.no (G-2): if that "
                "phase has closed the answer is 409 and nothing is applied; absent, the "
                "phase open now takes it")]


class Submit(Body):
    """``POST .../submit``: the seat's submission in the game's notation."""

    text: Annotated[str, Field(
        max_length=MAX_TEXT, description="G-6: the submission in the game's notation")]
    final: Annotated[bool, Field(
        description="confirm it as final at once (G-4)")] = False
    phase: PhaseNo | SkipJsonSchema[None] = None


class Confirm(Body):
    """``POST .../confirm``: confirm the seat's standing submission as final (G-4)."""

    phase: PhaseNo | SkipJsonSchema[None] = None


class Chat(Body):
    """``POST .../chat``: a line in a channel the link may post in (G-13)."""

    channel: Annotated[str, chars("G-13: the channel's id (the view's chat lists them)",
                                 MAX_CHANNEL)] = "table"
    text: Annotated[str, chars("G-13: the line, shown as typed (trimmed; never empty)",
                              MAX_CHARS)]


class Notes(Body):
    """``POST .../notes``: replace the seat's private notes (any JSON; the page's own
    shape). Their size is bounded by the handler, on the JSON text."""

    notes: Annotated[Any, Field(description="the notes: any JSON value")]


class Empty(Body):
    """A request that takes no fields (an empty object, or no body at all)."""


class MatchExtend(Body):
    """``POST .../host/extend``: give the current phase more time (the host's tool for a
    dropped connection)."""

    seconds: Annotated[float, Field(
        gt=0, le=MAX_CLOCK,
        description="seconds of wall-clock time added, up to 366 days")] = 60.0


class MatchDeadline(Body):
    """``POST .../host/deadline``: when the current phase ends, as a clock time (SE-7 made a
    season step's clock every match's clock)."""

    at: Annotated[ClockTime, Field(description=f"the phase's new end: {AT_WORDS}")]


class MatchEnd(Body):
    """``POST .../host/end``: end the match now; it is scored as it stands."""

    reason: Annotated[str | None, chars("the reason the log and the result show",
                                       MAX_END_REASON)] = None


class HostOption(Body):
    """``POST .../host/option``: flip one of the game's live switches (LO-12's helper)."""

    name: Annotated[str, chars("the option's name, as the view's host_options lists it",
                              MAX_OPTION)]
    value: Annotated[bool, Field(description="on or off")]


class Mute(Body):
    """``POST .../host/mute``: mute or open a chat channel (G-13)."""

    shape_rule = "G-13"

    channel: Annotated[str, chars("G-13: the channel's id", MAX_CHANNEL)]
    muted: Annotated[bool, Field(description="G-13: true mutes it, false opens it")] = True


class SeatPrivate(Body):
    """``POST .../private``: a seat opens its own private channel with the host (G-13: either
    of the two may open it; only the host closes it)."""

    shape_rule = "G-13"

    open: Annotated[bool, Field(description="G-13: true opens it (a seat may not close it)")
                    ] = True


class PrivateChannel(Body):
    """``POST .../host/private``: open or close the host's private channel with one seat
    (G-13: only the host and that seat read it, as channel 'host-private-<seat>')."""

    shape_rule = "G-13"

    seat: Annotated[int, Field(ge=0, lt=MAX_SEATS, description="G-13: the seat's number")]
    open: Annotated[bool, Field(description="G-13: true opens it, false closes it")] = True


SeatNo = Annotated[int, Field(
    ge=0, lt=MAX_SEATS, description="the seat's number, from 0 (the match has its own count)")]


class Reissue(Body):
    """``POST .../host/reissue``: a new link for a person's seat; the old one stops working."""

    seat: SeatNo


class SeatChange(Body):
    """``POST .../host/seat``: a bot takes the seat, or a person does (a new link); a bot seat
    given another level keeps its bot (G-8)."""

    seat: SeatNo
    bot: Annotated[bool, Field(description="true: a bot plays it; false: a person (G-8)")]
    level: Annotated[BotLevel, Field(
        description="G-8: how strongly the bot plays (easy, normal or hard)")] = "hard"


class Spectators(Body):
    """``POST .../host/spectators``: open or close the match to spectators (G-9)."""

    open: Annotated[bool, Field(description="true: the spectator link works (G-9)")]


class Webhook(Body):
    """``POST .../host/webhook`` of a match or a season: set or clear where its public news
    goes (G-14). The URL is checked against the allowed hosts, and never shown back."""

    url: Annotated[str | None, chars(
        "G-14: a webhook URL on an allowed host (ARENA_WEBHOOK_HOSTS), or null for none",
        MAX_URL)]


class SeasonWebhook(Webhook):
    """``POST /api/seasons/{id}/host/webhook``: a season's webhook, and how much of its
    matches it tells (G-14); the match it is playing follows both."""

    news: Annotated[NewsLevel | None, Field(
        description="G-14: 'steps' (the season's steps; its matches post nothing of their "
                    "own) or 'phases' (its matches post their phases too, summarised); "
                    "null keeps the level")] = None


# --------------------------------------------------------------------------- seasons
PlayerName = Annotated[str, Field(max_length=MAX_NAME)]


class CastPlayer(Body):
    """One player of a season's cast (SE-1)."""

    name: Annotated[str, chars("SE-1: the player's name (LO-10: names differ ignoring case "
                              "and spaces)", MAX_NAME)]
    bot: Annotated[bool, Field(description="SE-1: a bot plays this player's seats")] = False


def _cast_tag(value: Any) -> str | None:
    """A cast entry is a name or an object; anything else matches neither (refused)."""
    if isinstance(value, str):
        return "plain-name"  # tags name no field: an error's place never mistakes one
    return "player-object" if isinstance(value, dict | CastPlayer) else None


CastEntry = Annotated[
    Annotated[PlayerName, Tag("plain-name")] | Annotated[CastPlayer, Tag("player-object")],
    Discriminator(_cast_tag, custom_error_type="cast_entry",
                  custom_error_message="must be a name or an object {name, bot}")]


class MainMatchOptions(Body):
    """The options of a season's Main Matches (SE-6), kept for every episode; each is
    the game's own field, checked again by the game's schema when a match starts."""

    round_seconds: Annotated[float, schema.seconds("LO-11: seconds per round")] = 86400.0
    vote_seconds: Annotated[float, schema.seconds(
        "LO-9: seconds for the elimination vote and its tie-break")] = 86400.0
    max_rounds: Annotated[int, Field(
        ge=acts.MIN_MM_ROUNDS, le=acts.MAX_MM_ROUNDS,
        description=f"SE-6: the round limit (0: LO-8's none; {season_state.DEFAULT_MM_ROUNDS} by "
                    "default)")] = season_state.DEFAULT_MM_ROUNDS
    helper: Annotated[bool, Field(description="LO-12: seats see the deduction helper")] = False


class CreateSeason(Body):
    """``POST /api/seasons``: a season from a cast of 3 or more named players (SE-1)."""

    shape_rule = "api"

    cast: Annotated[list[CastEntry], Field(
        min_length=3, max_length=season_state.MAX_CAST,
        description=f"SE-1: 3 to {season_state.MAX_CAST} players, each a name or {{name, bot}}",
        json_schema_extra={"x-item": "player"})]
    seed: Seed = None
    settings: Annotated[MatchSettings | None, Field(
        description="G-5: the settings of every match of the season",
        json_schema_extra={"x-what": "match setting"})] = None
    step_seconds: Annotated[float, Field(
        ge=1, le=MAX_STEP_SECONDS,
        description="SE-7: seconds of each step's clock (the gift, the nomination), from 1 "
                    "second to 30 days, times the time scale; G-5: at least 0.05 s after "
                    "it")] = DAY
    mm_config: Annotated[MainMatchOptions | None, Field(
        description="G-5: the options of the season's Main Matches",
        json_schema_extra={"x-what": "setting"})] = None
    webhook: Annotated[str | None, chars(
        "G-14: a webhook URL for the season's public news (allowed hosts only)",
        MAX_URL)] = None
    name: Annotated[str | None, Field(
        max_length=MAX_SEASON_NAME, pattern=r"^[^\x00-\x1f\x7f]*$",
        description="G-14: the season's name on its page and in each of its posts (no "
                    "control characters; empty: 'Season' and the start of its id)")] = None
    news: Annotated[NewsLevel, Field(
        description="G-14: what its webhook hears: 'steps' (the season's steps; its matches "
                    "post nothing of their own) or 'phases' (its matches' phases too, "
                    "summarised)")] = "steps"


class Vote(Body):
    """``POST /api/seasons/{id}/vote``: a trapped player's vote for the Elimination Candidate,
    or an escaped player's choice among the tied (LO-9, SE-6)."""

    shape_rule = "LO-9"

    ec: Annotated[str, chars("LO-9: the player voted for", MAX_NAME)]


class HostAct(Body):
    """``POST .../host/act``: one of the game's own acts (a season's steps), with its data;
    the game's model for that act checks the data, naming the field."""

    shape_rule = "host"

    name: Annotated[str, chars("the act's name, one the game declares", MAX_OPTION)]
    data: Annotated[dict[str, Any], Field(
        default_factory=dict, description="the act's data, as its model asks")]


class Gift(Body):
    """``POST /api/seasons/{id}/gift``: the solo winner gives the Token of Life (SE-3)."""

    shape_rule = "SE-3"

    to: Annotated[str, chars("SE-3: the escaped player who gets it", MAX_NAME)]


class Nominate(Body):
    """``POST /api/seasons/{id}/nominate``: the Elimination Candidate names the Death Match
    Opponent (SE-3)."""

    shape_rule = "SE-3"

    dmo: Annotated[str, chars("SE-3: the nominee", MAX_NAME)]


class SeasonPrivate(Body):
    """``POST /api/seasons/{id}/private``: a line in the host's private channel with one player
    (G-13): the host names the player; the player answers once the host has written."""

    shape_rule = "G-13"

    text: Annotated[str, chars("G-13: the line (trimmed; never empty)", MAX_CHARS)]
    player: Annotated[str | None, chars("G-13: the player (the host's link only)",
                                       MAX_NAME)] = None


class EndSeason(Body):
    """``host/end``: the host ends the season (SE-1), with a reason."""

    shape_rule = "SE-1"

    reason: Annotated[str | None, chars("the written reason the season's record shows",
                                        MAX_END_REASON)] = None


class CloseVault(Body):
    """``host/close_vault``: end the running Main Match now; it is scored as it stands
    (SE-6, LO-8)."""

    shape_rule = "SE-6"


class SeasonReissue(Body):
    """``host/reissue``: a new season link for a player of the cast; the old one stops
    working."""

    player: Annotated[str, chars("SE-1: the player's name", MAX_NAME)]


# --------------------------------------------------------------------------- actions
MATCH_HOST_ACTIONS: dict[str, type[Body]] = {
    "pause": Empty, "resume": Empty, "extend": MatchExtend, "end": MatchEnd,
    "option": HostOption, "mute": Mute, "private": PrivateChannel, "act": HostAct, "deadline": MatchDeadline,
}
"""``POST /api/matches/{id}/host/{action}``: the body of each action; no other is taken."""

SEASON_HOST_ACTIONS: dict[str, type[BaseModel]] = {
    "start_main": acts.StartMain, "record_main": acts.RecordMain, "name_ec": acts.NameEC,
    "start_death": acts.StartDeath, "record_death": acts.RecordDeath, "decide": acts.Decide,
    "adjust": acts.Adjust, "mm_rounds": acts.MainMatchRounds, "close_vault": CloseVault,
    "end": EndSeason, "pause": Empty, "resume": Empty, "extend": MatchExtend,
    "deadline": MatchDeadline, "webhook": SeasonWebhook, "reissue": SeasonReissue,
}
"""``POST /api/seasons/{id}/host/{action}``: the body of each action; no other is taken."""


# --------------------------------------------------------------------------- reading
async def parse(model: type[B], request: Request) -> B:
    """The request's body as ``model``, read within the bounds of ``read_json`` (size,
    time), or the refusal naming the field and the rule."""
    return validate(model, await read_json(request))


def validate(model: type[B], body: object) -> B:
    """``body`` (JSON-like values, or already a ``model``) as ``model``, strictly.

    The values go through JSON, so a Python caller (a rematch, a season starting its matches)
    gets exactly what a JSON body would: a list where the model keeps a tuple."""
    if isinstance(body, model):
        return body
    if not isinstance(body, dict):
        raise _shape(model, "the request body must be a JSON object")
    bad = _non_finite(body)
    if bad is not None:
        where, value = bad
        raise _refusal(model, {"type": "finite_number", "loc": where, "input": value,
                               "msg": "must be a finite number (JSON has no NaN or Infinity)",
                               "ctx": {}})
    try:
        raw = json.dumps(body)
    except (TypeError, ValueError, RecursionError):
        raise _shape(model, "the request body is not plain JSON") from None
    try:
        return model.model_validate_json(raw)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        if any(e["type"] == "json_invalid" for e in errors):  # the JSON is ours: only depth
            raise _shape(model, f"the request body nests more than {MAX_DEPTH} levels"
                         ) from None
        raise _refusal(model, _first(errors), errors) from None


def _non_finite(body: object) -> tuple[tuple[str | int, ...], float] | None:
    """Where the body holds NaN or Infinity (Python's JSON reads them; JSON has none), so no
    field typed as any JSON (notes, a game's options) stores what cannot be sent back."""
    stack: list[tuple[tuple[str | int, ...], object]] = [((), body)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            return where, value
        if isinstance(value, dict):
            stack.extend(((*where, str(k)), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend(((*where, i), v) for i, v in enumerate(value))
    return None


def _first(errors: list[ErrorDetails]) -> ErrorDetails:
    """The problem to name: the first field's, and among that field's the one that got
    deepest (a union's member that nearly matched says more than the one that did not)."""
    head = errors[0]["loc"][:1]
    same = [e for e in errors if e["loc"][:1] == head]
    return max(same, key=lambda e: len(e["loc"]))


def _shape(model: type[BaseModel], message: str) -> Exception:
    rule = getattr(model, "shape_rule", None)
    if isinstance(rule, str):
        return RuleError(rule, message)
    return ApiError(400, "request", message)


# --------------------------------------------------------------------------- refusals
UNKNOWN = frozenset({"extra_forbidden", "unexpected_keyword_argument"})
"""An unknown key: of a model, or of a settings dataclass."""
SHAPE_ERRORS = frozenset({"missing", *UNKNOWN, "finite_number", "cast_entry",
                          "union_tag_invalid", "union_tag_not_found", "none_required"})
"""Errors of a body's shape (besides a wrong JSON type, ``*_type``): the request is not one
of the API's, rather than one a rule refuses."""

_NOUNS = {"bool_type": "true or false", "string_type": "text",
          "int_type": "a whole number", "float_type": "a number", "list_type": "a list",
          "tuple_type": "a list", "dict_type": "a JSON object", "model_type": "a JSON object",
          "model_attributes_type": "a JSON object", "dataclass_type": "a JSON object",
          "dataclass_exact_type": "a JSON object", "none_required": "null"}
"""A wrong JSON type in the words a person reads: 'must be true or false'."""


@dataclass
class _Step:
    """One step of an error's place: a field (with its help and container words) or an
    index or key inside a list or a map."""

    name: str | int
    rule: str | None = None
    item: str | None = None
    what: str | None = None


def _rule_of(description: str | None) -> str | None:
    """The rule id a field's help starts with (``"G-8: ..."``), as the settings read it."""
    head = str(description or "").split(":", 1)[0]
    ok = 0 < len(head) <= 12 and "-" in head and " " not in head.strip(",")
    return head if ok else None


def _strip(tp: Any) -> Any:
    """``tp`` without its ``Annotated`` metadata and without a ``None`` member."""
    while typing.get_origin(tp) is Annotated:
        tp = typing.get_args(tp)[0]
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        members = [m for m in typing.get_args(tp) if m is not type(None)]
        if len(members) == 1:
            return _strip(members[0])
    return tp


def _tag(member: Any) -> str:
    """The name pydantic gives a union's member in an error's place."""
    if typing.get_origin(member) is Annotated:
        for meta in typing.get_args(member)[1:]:
            if isinstance(meta, Tag):
                return meta.tag
        return _tag(typing.get_args(member)[0])
    return getattr(member, "__name__", str(member))


def _field_of(tp: Any, name: str) -> tuple[FieldInfo, Any] | None:
    """A field of a model or a settings dataclass: its metadata and its type."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        info = tp.model_fields.get(name)
        return None if info is None else (info, info.annotation)
    if isinstance(tp, type) and is_dataclass(tp) and name in {f.name for f in fields(tp)}:
        hint = typing.get_type_hints(tp, include_extras=True)[name]
        metas = typing.get_args(hint)[1:] if typing.get_origin(hint) is Annotated else ()
        info = next((m for m in metas if isinstance(m, FieldInfo)), FieldInfo())
        return info, hint
    return None


def _walk(model: type[BaseModel], loc: tuple[str | int, ...]) -> list[_Step]:
    """The error's place as steps: union members' tags dropped, each field with its rule and
    the words that name what is inside it (``x-item``: "seat 2"; ``x-what``: "setting")."""
    steps: list[_Step] = []
    tp: Any = model
    for part in loc:
        tp = _strip(tp)
        union = typing.get_origin(tp) in (typing.Union, types.UnionType)
        members = typing.get_args(tp) if union else ()
        if members and isinstance(part, str):
            tagged = next((m for m in members if _tag(m) == part), None)
            if tagged is not None:  # a union's tag in pydantic's place: not a field
                tp = tagged
                continue
            # A place of our own (NaN found inside a union's value): the member with it.
            tp = next((m for m in members if _field_of(_strip(m), part) is not None), None)
            tp = _strip(tp) if tp is not None else None
        found = _field_of(tp, part) if isinstance(part, str) else None
        if found is not None:
            info, tp = found
            extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
            item, what = extra.get("x-item"), extra.get("x-what")
            steps.append(_Step(part, _rule_of(info.description),
                               item if isinstance(item, str) else None,
                               what if isinstance(what, str) else None))
            continue
        origin = typing.get_origin(tp)
        if isinstance(part, int) and origin in (list, tuple):
            tp = typing.get_args(tp)[0]
        elif origin is dict:
            tp = typing.get_args(tp)[1]
        else:
            tp = None
        steps.append(_Step(part))
    return steps


def _words(err: ErrorDetails) -> str:
    """The problem in a person's words: 'must be true or false', 'must have at most 40
    characters' (pydantic's message with its subject dropped)."""
    kind = err["type"]
    if kind == "missing":
        return "is required"
    if kind in _NOUNS:
        return "must be " + _NOUNS[kind]
    msg = str(err["msg"])
    msg = re.sub(r"^\w+ should ", "must ", msg)
    msg = msg.replace(" after validation", "")
    return msg[0].lower() + msg[1:] if msg else "is not valid"


def _refusal(model: type[BaseModel], err: ErrorDetails,
             errors: Sequence[ErrorDetails] = ()) -> Exception:
    """The refusal of one problem: the field named as the settings name it, the rule its
    place gives (see the module's words), a 422 or a 400. ``errors``: all of the body's, so
    a value of none of a union's types says every type it may be ("a number or text")."""
    steps = _walk(model, tuple(err["loc"]))
    rules = [s.rule for s in steps if s.rule]
    kind = err["type"]
    shape = kind in SHAPE_ERRORS or kind.endswith("_type")
    top_shape = (kind == "missing" or kind in UNKNOWN) and len(steps) <= 1
    what, where = _place(steps)
    if rules and rules[-1] != rules[0]:  # the field's own rule too, as the settings show it
        if where:
            where += f" ({rules[-1]})"
        else:
            what += f" ({rules[-1]})"
    if kind in UNKNOWN:
        message = f"unknown {what} {where}"
    else:
        quiet = kind in ("missing", "string_too_long", "string_too_short", "too_long",
                         "too_short", "finite_number", "cast_entry")
        got = "" if quiet else f", not {schema.described(err.get('input'))}"
        words = _words(err)
        if err["type"] in _NOUNS:
            place = [s.name for s in steps]
            nouns = [_NOUNS[e["type"]] for e in errors if e["type"] in _NOUNS
                     and [s.name for s in _walk(model, tuple(e["loc"]))] == place]
            words = "must be " + " or ".join(dict.fromkeys(nouns or [_NOUNS[err["type"]]]))
        message = f"{what} {where} {words}{got}" if where else f"{what} {words}{got}"
    if top_shape or (shape and not rules):
        return _shape(model, message)
    return RuleError(rules[0] if rules else getattr(model, "shape_rule", None) or "request",
                     message)


def _place(steps: list[_Step]) -> tuple[str, str]:
    """What holds the problem ("field", "seat 2 field", "match setting") and where in it
    ("'level'", "'bars'[Ann]"); where is "" for a whole list item ("player 1 of 'cast'")."""
    what, start = "field", 0
    for i, step in enumerate(steps):
        inner = steps[i + 1:]
        if step.item and inner and isinstance(inner[0].name, int):
            n = inner[0].name + 1
            if len(inner) == 1:
                return f"{step.item} {n} of {step.name!r}", ""
            what, start = f"{step.item} {n} field", i + 2
        elif step.what and inner:
            what, start = step.what, i + 1
    rest = steps[start:]
    if not rest:
        return what, ""
    head = rest[0].name
    where = (repr(head) if isinstance(head, str) else f"[{head}]") + \
        "".join(f"[{s.name}]" for s in rest[1:])
    return what, where

