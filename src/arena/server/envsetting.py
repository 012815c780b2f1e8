"""A server setting read from the environment at start-up, refused with the variable named.

The settings that trade resources (``ARENA_BOT_WORKERS``, ``ARENA_BOT_NICE``,
``ARENA_GC_REFREEZE``) stop the server when they are malformed, instead of starting it with
a default the operator did not ask for: the message names the variable and what it takes.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import TypeVar

N = TypeVar("N", int, float)


def env_number(name: str, default: N, kind: Callable[[str], N], low: N,
               high: N | None = None, *, takes: str) -> N:
    """``name``'s value as ``kind`` (``int`` or ``float``) from ``low`` to ``high``, or
    ``default`` when it is unset or blank; ``takes`` says what it takes, for the error."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = kind(raw)
    except ValueError:
        raise ValueError(f"{name} must be {takes}, not {raw!r}") from None
    if math.isnan(value) or math.isinf(value) or value < low or (
            high is not None and value > high):
        raise ValueError(f"{name} must be {takes}, not {raw!r}")
    return value


def env_positive(name: str, default: float) -> float:
    """``name``'s value as a positive number, or ``default`` when it is unset, not a number,
    or not above zero: for settings where falling back beats refusing to start (a zero keep
    time would sweep every match at once; a bad one must not stop the server)."""
    raw = os.environ.get(name, "")
    try:
        value = float(raw) if raw else default
    except ValueError:
        return default
    return value if value > 0 else default
