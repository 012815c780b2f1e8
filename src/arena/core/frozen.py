"""Making frozen dataclass values fast, in one place.

A frozen dataclass's ``__init__`` sets every field through ``object.__setattr__`` and
``dataclasses.replace`` walks the class's fields on every call; on the paths every decision
takes (the match runner's submissions and log entries, a game state copied a few times per
phase) that is a measurable share of a random playout (``bench/throughput.py``). This is the
one helper the engine and the games use instead: rules code never calls ``object.__new__``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

T = TypeVar("T")

_new_object = object.__new__


def frozen(cls: type[T], fields: Mapping[str, Any] | None = None, /, **values: Any) -> T:
    """``cls(**fields, **values)`` for a frozen dataclass, ``values`` winning over ``fields``:
    ``frozen(State, state.__dict__, stage="draft")`` is ``dataclasses.replace(state,
    stage="draft")``.

    Only for a class without ``__slots__``, with every field given, and either without
    ``__post_init__`` or with the fields already as it would leave them (a copy of a value
    that shares what it derived): the result is then the same value its constructor makes. A field left out is an ``AttributeError`` on first read, never a wrong
    default; a name that is no field is the caller's bug (each caller's tests compare with
    the constructor)."""
    obj = _new_object(cls)
    d = obj.__dict__
    if fields is not None:
        d.update(fields)
    d.update(values)
    return obj
