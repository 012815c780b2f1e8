"""Time sources. The engine never reads the wall clock itself (the lichess habit): a test
injects a :class:`ManualClock` and drives a 24-hour round in microseconds."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on an arbitrary but monotonic-enough scale (epoch seconds for the server)."""
        ...


class SystemClock:
    """Wall-clock seconds since the epoch, so deadlines survive a process restart."""

    def now(self) -> float:
        return time.time()


class ManualClock:
    """A clock that only moves when told to."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def set(self, t: float) -> None:
        if t < self._now:
            raise ValueError("a manual clock does not run backwards")
        self._now = t

    def advance(self, seconds: float) -> None:
        self.set(self._now + seconds)
