"""Fast frozen dataclass values, in one place.

A frozen dataclass's ``__init__`` sets every field through ``object.__setattr__``, and
``dataclasses.replace`` walks the class's fields on every call. On the paths every decision
takes (the match runner's submissions and log entries, the games' events, a game state copied
a few times per phase) that is a measurable share of a random playout (``bench/throughput.py``;
counted in instructions, the ordinary ``__init__`` costs about twice :func:`fast_init`'s).
This module is the one place that knows how to avoid it; the rules only use its two names:

- :func:`fast_init`, a class decorator giving a frozen dataclass an ``__init__`` of the same
  signature that stores the fields straight into the instance's dict, so the hot paths build
  their values with the ordinary constructor call;
- :func:`evolve`, ``dataclasses.replace`` without the field walk, for a state copied with a
  few fields changed.

Both make the very value the ordinary ways make: the same fields, the same defaults, still
frozen against assignment (``tests/core/test_match_fast_objects.py``).
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")

_new_object = object.__new__


def fast_init(cls: type[T]) -> type[T]:
    """Replace the ``__init__`` of frozen dataclass ``cls`` by one with the same parameters
    (names, order, defaults, default factories) that writes the fields into the instance's
    dict directly. Only for a class that has a ``__dict__`` (no ``__slots__``), no
    ``__post_init__``, no keyword-only or init-only fields: the generated ``__init__`` would
    skip what those do, so such a class is refused."""
    if not dataclasses.is_dataclass(cls) or "__slots__" in vars(cls):
        raise TypeError(f"{cls.__name__}: fast_init is for dataclasses with a __dict__")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: fast_init would skip __post_init__")
    params: list[str] = []
    body: list[str] = []
    scope: dict[str, Any] = {"_MISSING": dataclasses.MISSING}
    for f in dataclasses.fields(cls):
        if f.kw_only or not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: fast_init takes positional fields only")
        if f.default is not dataclasses.MISSING:
            scope[f"_d_{f.name}"] = f.default
            params.append(f"{f.name}=_d_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            scope[f"_f_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_MISSING")
            body.append(f"    if {f.name} is _MISSING: {f.name} = _f_{f.name}()")
        else:
            params.append(f.name)
        body.append(f"    d[{f.name!r}] = {f.name}")
    source = (f"def __init__(self, {', '.join(params)}):\n    d = self.__dict__\n"
              + "\n".join(body) + "\n")
    exec(source, scope)
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = f"The fields of {cls.__name__}, stored directly (arena.core.frozen)."
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


def evolve(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace(obj, **changes)`` for a frozen dataclass without ``__slots__``,
    by copying its instance dict: nothing is re-derived, so it suits a class without
    ``__post_init__``, or one whose derived fields stay right for these changes (a lock
    position with its pieces moved keeps its board's key targets). A name that is no field is
    the caller's bug; each caller's tests compare with the constructor."""
    new = _new_object(type(obj))
    d = new.__dict__
    d.update(obj.__dict__)
    d.update(changes)
    return new
