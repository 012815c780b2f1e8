"""A request body read as its model, strictly, or refused naming the field and the rule.

Each model of :mod:`arena.server.requests` (and :mod:`arena.server.season_requests`) says what
a body of its kind must be; this module reads a body as one and words the refusal of one that
is not (the rules are in the words of :mod:`arena.server.requests`'s docstring):

- a field whose description starts with a rule id (``"G-8: ..."``) names that rule: a value of
  the wrong type or out of its bounds is a 422 naming it (the outermost such field, with the
  field's own rule in parentheses when it differs);
- otherwise a body of the wrong shape is a 400 ``request``, and a value out of its bounds a
  422 ``request``;
- a body whose ``shape_rule`` is set answers a wrong shape 422 naming that rule.
"""

from __future__ import annotations

import json
import math
import re
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass, fields, is_dataclass
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, Tag, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails
from starlette.requests import Request

from arena.core import settings as schema
from arena.core.errors import RuleError
from arena.server.errors import ApiError
from arena.server.limits import read_json

MAX_DEPTH = 200
"""Levels a body may nest: the bound of pydantic's JSON reader. The deepest bodies the pages
send (a game's scenario as data, a page's notes) nest a handful."""

B = TypeVar("B", bound=BaseModel)


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

