"""A deadline as the host gives it: a clock time (SE-7), as epoch seconds or ISO 8601 text.

The host of a match or a season sets when the current phase (a season's step) ends as a
moment, often typed in its own local time. The request models take it as :data:`ClockTime`,
so a body refuses text it cannot read as one moment before anything is applied, and every
route that takes a deadline reads it alike. Whether the moment is in reach (after now, within
366 days) is the match's rule (:meth:`arena.core.deadlines.Deadlines.set_deadline`), which
knows its own clock.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from annotated_types import MaxLen
from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

MAX_AT_TEXT = 64
"""Characters of a deadline given as an ISO 8601 time (SE-7)."""

AT_WORDS = ("epoch seconds, or ISO 8601 with its UTC offset (2030-05-17T20:00+02:00), after "
            "now and at most 366 days on")
"""How a deadline may be written, for the models' field help (and so the OpenAPI document)."""


def clock_time(value: float | str) -> float | str:
    """A deadline given as a clock time (SE-7): epoch seconds as they are, or ISO 8601 with
    its UTC offset read as that moment. A time without an offset is refused: the server cannot
    know which of the host's and the players' zones it meant."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if text[-1:] in ("Z", "z"):
        text = text[:-1] + "+00:00"
    try:
        when = datetime.fromisoformat(text)
        moment = None if when.utcoffset() is None else when.timestamp()
    except (ValueError, OverflowError):
        raise PydanticCustomError("clock_time", "must be epoch seconds or an ISO 8601 time "
                                  "with its UTC offset, like 2030-05-17T20:00+02:00") from None
    if moment is None:
        raise PydanticCustomError("clock_time", "needs its UTC offset (like +02:00 or Z), so "
                                  "every reader means the same moment")
    return moment


ClockTime = Annotated[float | Annotated[str, MaxLen(MAX_AT_TEXT)], AfterValidator(clock_time)]
"""A deadline as a clock time: a number, or text that :func:`clock_time` reads as one (the
validated value is always the number; the text form is what the schema and a sender see)."""
