"""Settings valid by construction.

Every game's config and the host's match settings are frozen dataclasses whose fields carry
their type, bounds and help text (``Annotated[..., Field(...)]``); pydantic validates them
strictly: unknown names are refused, ``"false"`` is not a boolean, ``1.5`` or ``"3"`` is not
a count, NaN and Infinity are not numbers. The same schema draws the lobby form
(:func:`options`), the OpenAPI document (:func:`json_schema`) and the command line
(:func:`config_from_strings`).

On top of the fields, one rule bounds the work of a whole match (:func:`check_match_work`):
no phase (or reserve period, or tick) lasts less than :data:`MIN_PHASE_SECONDS` of wall-clock
time after the time scale, and no match can run more than :data:`MAX_MATCH_PHASES` phases.
Together they bound how fast deadlines can fall due and how many ever will: the audit's
``{"round_seconds": 0}`` made the server resolve zero-length rounds for ever.
"""

from __future__ import annotations

import json
import random
import typing
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError

from arena.core.errors import RuleError

if TYPE_CHECKING:
    from arena.core.game import Game, GameConfig

STRICT = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False, frozen=True)
"""The pydantic config of every settings dataclass: JSON types exactly, nothing unknown."""

MIN_PHASE_SECONDS = 0.05
"""The shortest wall-clock time any phase, reserve period or tick may last after the time scale
(G-5). At most 20 deadlines a second per match: a bot or a person can still act in such a
phase in tests, and a server resolves them without falling behind (pauses a
match whose deadlines come faster than 50 a second)."""

MAX_PHASE_SECONDS = 7 * 24 * 3600.0
"""The longest any one duration may be: a week, seven times the longest phase in the texts
(a 48-hour design, PF-8; a 24-hour round, LO-11) and the longest extension
the host may give."""

MAX_MATCH_PHASES = 5000
"""The most phases (ticks included) any match may ever run. Far above every game's default
(an engine cap of 400 rounds, LO-8; 60-tick sessions, LF-1; seven bouts), so it refuses
only settings that would make a match a denial of service."""

MAX_RESERVE_PERIODS = 256
"""G-3: the texts give sixteen periods at most (LM-21). 256 lets a host (or a test) give a
waiting person a deep reserve, while a seat's reserve deadlines stay far below
:data:`MAX_MATCH_PHASES`."""


@dataclass(frozen=True)
class Duration:
    """What the whole-match rule knows of a duration field (from its ``x-`` schema keys).

    ``scaled``: multiplied by the match's time scale (G-5); False for real seconds.
    ``zero_is_off``: 0 means the phase does not happen at all (a study, LF-1), so 0 is
    allowed even though it is shorter than :data:`MIN_PHASE_SECONDS`.
    ``when``: the field counts only while this other (count) field is above 0 (a reserve
    period matters only if there are reserve periods)."""

    scaled: bool = True
    zero_is_off: bool = False
    when: str | None = None


def seconds(help: str, *, zero_is_off: bool = False, scaled: bool = True,
            when: str | None = None, high: float = MAX_PHASE_SECONDS,
            label: str | None = None) -> Any:
    """The metadata of a duration field (``Annotated[float, seconds("...")]``): bounds, help
    and what the whole-match rule needs, as ``x-`` keys of its JSON Schema.

    The lower bound is the wall-clock floor at time scale 1 (or 0 where 0 turns the phase
    off); the scaled value is checked again by :func:`check_match_work`. ``label`` is the
    few words a form shows for the field (the JSON Schema's ``title``): a host reads
    "Shortest countersolve window", never the field's name."""
    low = 0.0 if zero_is_off else MIN_PHASE_SECONDS
    extra: dict[str, Any] = {"x-unit": "seconds", "x-scaled": scaled}
    if zero_is_off:
        extra["x-zero-is-off"] = True
    if when:
        extra["x-counts-when"] = when
    return Field(ge=low, le=high, description=help, title=label, json_schema_extra=extra)


def count(help: str, low: int, high: int, *, label: str | None = None) -> Any:
    """The metadata of a whole-number field (a count, a size, a seat): bounds, help, label."""
    return Field(ge=low, le=high, description=help, title=label)


def text(help: str, high: int, *, label: str | None = None, choices_from: str | None = None,
         default_words: str | None = None) -> Any:
    """The metadata of a text field: its longest length, help and label. ``choices_from``:
    the API address whose JSON list (``[{"name", "title", "note"}, ...]``) names the values
    a form offers as a select, the default first (in ``default_words``) — the game's own
    endpoint (:mod:`arena.core.extras`), so a page never names a game."""
    extra: dict[str, Any] = {}
    if choices_from:
        extra["x-choices-from"] = choices_from
    if default_words:
        extra["x-default-words"] = default_words
    return Field(max_length=high, description=help, title=label,
                 json_schema_extra=extra or None)


# --------------------------------------------------------------------------- validation
_ADAPTERS: dict[type[Any], TypeAdapter[Any]] = {}


def adapter(cls: type[Any]) -> TypeAdapter[Any]:
    """The (cached: building one compiles a validator) pydantic adapter of ``cls``."""
    found = _ADAPTERS.get(cls)
    if found is None:
        found = _ADAPTERS[cls] = TypeAdapter(cls)
    return found


def described(value: object) -> str:
    """A refused value as a refusal shows it: as JSON, a huge number by its digits, cut short
    (the request bodies' refusals word it the same, server/refusals.py)."""
    shown = json.dumps(value) if isinstance(value, (str, int, float, bool)) else repr(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**15:
        shown = "a number of " + str(len(str(abs(value)))) + " digits"
    return shown[:60]


def _field_rule(cls: type[Any] | None, name: str) -> str:
    """The rule id a field's help starts with (``"LO-8: ..."``), or ""."""
    if cls is None:
        return ""
    prop = adapter(cls).json_schema().get("properties", {}).get(name, {})
    head = str(prop.get("description", "")).split(":", 1)[0]
    return head if 0 < len(head) <= 12 and "-" in head and " " not in head.strip(",") else ""


def refusal(exc: ValidationError, rule: str, what: str = "setting",
            cls: type[Any] | None = None) -> RuleError:
    """The first problem of a failed validation as a ``RuleError`` naming the field (and the
    rule the field belongs to, where its help names one)."""
    err = exc.errors(include_url=False)[0]
    loc = [str(p) for p in err["loc"]]
    msg = err["msg"]
    msg = msg[0].lower() + msg[1:]
    if err["type"] == "unexpected_keyword_argument" or err["type"] == "extra_forbidden":
        return RuleError(rule, f"unknown {what} {loc[0]!r}")
    name = loc[0] if loc else "?"
    where = f"{name!r}" + "".join(f"[{p}]" for p in loc[1:])
    own = _field_rule(cls, name)
    if own and own != rule:
        where += f" ({own})"
    # A text too long is not echoed: its length is the whole problem.
    quiet = err["type"] in ("missing", "string_too_long", "too_long")
    got = "" if quiet else f", not {described(err.get('input'))}"
    return RuleError(rule, f"{what} {where}: {msg}{got}")


def validate(cls: type[Any], values: Mapping[str, Any], *, rule: str = "G-5",
             what: str = "setting", stored: bool = False) -> Any:
    """An instance of settings dataclass ``cls`` from JSON-like ``values``, strictly.

    The values go through JSON so a Python caller gets exactly what a JSON body would
    (a list for a tuple). ``stored``: a record written before the schema was strict is read in
    pydantic's lax mode, so ``"3"`` still loads as 3; bounds still hold."""
    if not isinstance(values, Mapping):
        raise RuleError(rule, f"the {what}s must be a JSON object")
    try:
        raw = json.dumps(dict(values), allow_nan=True)
    except (TypeError, ValueError) as exc:
        raise RuleError(rule, f"the {what}s are not plain JSON values ({exc})") from None
    try:
        if stored:
            return adapter(cls).validate_python(_split_lists(cls, json.loads(raw)),
                                                 strict=False)
        return adapter(cls).validate_json(raw)
    except ValidationError as exc:
        raise refusal(exc, rule, what, cls) from None


def _tuple_fields(cls: type[Any]) -> set[str]:
    hints = typing.get_type_hints(cls)
    return {f.name for f in fields(cls) if typing.get_origin(hints[f.name]) is tuple}


def _split_lists(cls: type[Any], values: dict[str, Any]) -> dict[str, Any]:
    """A list given as ``"a,b,c"`` (a form, a command line, an old record) as a list."""
    tuples = _tuple_fields(cls)
    return {k: [x.strip() for x in v.split(",")] if k in tuples and isinstance(v, str) else v
            for k, v in values.items()}


def config_from_strings(cls: type[Any], values: Mapping[str, str], *,
                        rule: str = "G-5") -> Any:
    """Settings from text (``arena simulate --set NAME=VALUE``): each value is read as its
    field's type says (pydantic's string mode: ``"3"`` for a count, ``"false"`` for a flag;
    ``"a,b"`` for a list), then the whole is checked like a JSON body, same bounds."""
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise RuleError(rule, f"unknown setting {unknown[0]!r} (known: "
                              f"{', '.join(sorted(known))})")
    hints = typing.get_type_hints(cls, include_extras=True)
    typed: dict[str, Any] = {}
    for name, raw in values.items():
        hint = hints[name]
        bare = typing.get_args(hint)[0] if typing.get_origin(hint) is typing.Annotated else hint
        try:
            if typing.get_origin(bare) is tuple:
                item = TypeAdapter(typing.get_args(bare)[0])
                parts = [x.strip() for x in raw.split(",")] if raw.strip() else []
                typed[name] = [item.validate_strings(x) for x in parts]
            else:
                typed[name] = TypeAdapter(bare).validate_strings(raw)
        except ValidationError as exc:
            msg = exc.errors(include_url=False)[0]["msg"]
            raise RuleError(rule, f"setting {name!r}: {msg[0].lower() + msg[1:]}, "
                                  f"not {described(raw)}") from None
    return validate(cls, typed, rule=rule)


# --------------------------------------------------------------------------- the whole match
def durations(cls: type[Any]) -> dict[str, Duration]:
    """The duration fields of a settings dataclass, with their markers."""
    hints = typing.get_type_hints(cls, include_extras=True)
    out: dict[str, Duration] = {}
    for f in fields(cls):
        for meta in getattr(hints[f.name], "__metadata__", ()):
            extra = getattr(meta, "json_schema_extra", None)
            if isinstance(extra, dict) and extra.get("x-unit") == "seconds":
                when = extra.get("x-counts-when")
                out[f.name] = Duration(scaled=bool(extra["x-scaled"]),
                                       zero_is_off=bool(extra.get("x-zero-is-off")),
                                       when=when if isinstance(when, str) else None)
    return out


def check_match_work(game: Game[Any, Any], config: GameConfig, time_scale: float,
                     phase_fields: tuple[str, ...] = ()) -> None:
    """The rule that bounds the work of a whole match, checked at creation.

    (a) every duration the match can use lasts at least :data:`MIN_PHASE_SECONDS` of wall
    time after the time scale (G-5), unless 0 means that phase is off; (b) the game's bound
    on its phases (``Game.max_phases``, which the conformance suite holds every game to) is
    at most :data:`MAX_MATCH_PHASES`. Refusals name the field."""
    for name, d in durations(type(config)).items():
        raw = getattr(config, name)
        if raw is None:  # a duration a game leaves unset: that phase has no time limit
            continue
        value = float(raw)
        if d.when is not None and not getattr(config, d.when):
            continue
        if d.zero_is_off and value == 0:
            continue
        wall = value * time_scale if d.scaled else value
        if wall < MIN_PHASE_SECONDS:
            scaled = f" x time scale {time_scale:g} = {wall:.4g} s" if d.scaled else " s"
            off = " (or 0 for none)" if d.zero_is_off else ""
            raise RuleError("G-5", f"setting {name!r}: {value:g}{scaled}; every phase must "
                                   f"last at least {MIN_PHASE_SECONDS} s of wall-clock time"
                                   f"{off}")
    phases = game.max_phases(config)
    if phases > MAX_MATCH_PHASES:
        which = ", ".join(repr(f) for f in phase_fields) or "the settings"
        raise RuleError("G-5", f"setting {which}: a match could run {phases:,} phases; at most "
                               f"{MAX_MATCH_PHASES:,} are allowed")


def check_game_config(game: Game[Any, Any], config: GameConfig, time_scale: float) -> None:
    """Everything a creation checks of a game's config: the whole-match rule, and the game's
    own checks that need several fields at once (``initial_state`` raises naming the rule)."""
    game.initial_state(config, random.Random(0))
    check_match_work(game, config, time_scale, getattr(game, "phase_fields", ()))


# --------------------------------------------------------------------------- describing
def label_of(cls: type[Any], name: str) -> str:
    """The human label of field ``name``: the ``title`` its metadata gives (``label=`` of the
    helpers above), else the name in words ("min counter"), which a test keeps out of every
    shipped game's form."""
    hint = typing.get_type_hints(cls, include_extras=True).get(name)
    for meta in getattr(hint, "__metadata__", ()):
        title = getattr(meta, "title", None)
        if isinstance(title, str) and title:
            return title
    words = name.replace("_", " ")
    return words[:1].upper() + words[1:]


def options(cls: type[Any]) -> list[dict[str, Any]]:
    """The fields of a settings dataclass for a form: name, label, type, default, bounds,
    help, and for a list the type of its items (so a form can take "Ann, Ben" for one)."""
    schema = adapter(cls).json_schema()
    props: dict[str, Any] = schema.get("properties", {})
    defaults = cls()
    marks = durations(cls)
    out = []
    for f in fields(cls):
        prop = props.get(f.name, {})
        value = getattr(defaults, f.name)
        kind = ("bool" if isinstance(value, bool) else "int" if isinstance(value, int)
                else "float" if isinstance(value, float) else "str" if isinstance(value, str)
                else "list" if isinstance(value, tuple) else "json")
        entry: dict[str, Any] = {"name": f.name, "label": label_of(cls, f.name), "type": kind,
                                 "default": list(value) if isinstance(value, tuple) else value,
                                 "help": prop.get("description", "")}
        for key, to in (("minimum", "min"), ("maximum", "max"), ("maxLength", "max_length"),
                        ("maxItems", "max_items"), ("enum", "choices")):
            if key in prop:
                entry[to] = prop[key]
        for key, to in (("x-choices-from", "choices_from"), ("x-default-words", "default_words")):
            if key in prop:
                entry[to] = prop[key]
        if kind == "list" and isinstance(prop.get("items"), dict) and "type" in prop["items"]:
            entry["item_type"] = prop["items"]["type"]
        if f.name in marks:
            entry["unit"] = "s"
            entry["scaled"] = marks[f.name].scaled
        out.append(entry)
    return out


def json_schema(cls: type[Any]) -> dict[str, Any]:
    """The JSON Schema of a settings dataclass, for the OpenAPI document."""
    schema: dict[str, Any] = adapter(cls).json_schema()
    return schema
