"""The garbage collector kept off the event loop's critical path.

Every match keeps its log in memory and rebuilds its views each tick, so a server's heap
grows and churns by thousands of containers a second, and CPython's collections walk every
one that is still alive: with 600 real-time matches a full collection came every second or two
and held the event loop for 0.5 to 0.9 s, which alone put p99 tick lateness near a second at
half a core of CPU (``bench/README.md``). So what survives a collection of the middle or
oldest generation is frozen out of the collector's reach right after it (``gc.freeze``, on
the loop): the next collection walks only what was made since. Freezing changes nothing for
reference counting: a frozen object is freed the moment nothing refers to it, as always.
Only cycles among frozen objects (an ended match's owner and its tasks) wait: every
:data:`DEFAULT_REFREEZE` seconds everything is unfrozen, collected once and frozen again.
At 1,000 matches that one pause is about a second, once per interval; before, pauses of that
size came every few seconds.

``ARENA_GC_FREEZE=0`` turns all of it off; ``ARENA_GC_REFREEZE`` sets the interval in
seconds (``0``: never unfreeze).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import time

from arena.server.envsetting import env_number

log = logging.getLogger("arena.server")

FREEZE_ENV = "ARENA_GC_FREEZE"
REFREEZE_ENV = "ARENA_GC_REFREEZE"
DEFAULT_REFREEZE = 600.0
FREEZE_AFTER = 1
"""The youngest generation whose collection freezes its survivors (see the module's words)."""


def enabled() -> bool:
    return os.environ.get(FREEZE_ENV, "1") != "0"


def refreeze_seconds() -> float:
    """The interval from ``ARENA_GC_REFREEZE`` (a bad value stops the server at start-up)."""
    return env_number(REFREEZE_ENV, DEFAULT_REFREEZE, float, 0.0,
                      takes="a number of seconds, 0 or more (0: never unfreeze)")


def refreeze() -> float:
    """Collect everything once (the frozen objects too), then freeze what survived; returns
    the seconds it took (the one pause of the interval)."""
    started = time.perf_counter()
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    return time.perf_counter() - started


class FreezeSurvivors:
    """Freezes the survivors of every collection of generation :data:`FREEZE_AFTER` or
    older, on the loop (never inside the collector's own callback). ``install`` and
    ``remove`` bracket the app's life."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.pending = False
        self.frozen = 0  # freezes made: for tests and logs

    def _after(self, phase: str, info: dict[str, int]) -> None:
        if phase != "stop" or info.get("generation", 0) < FREEZE_AFTER or self.pending:
            return
        self.pending = True
        try:
            self.loop.call_soon_threadsafe(self._freeze)
        except RuntimeError:  # the loop is closed: the app is gone
            self.pending = False

    def _freeze(self) -> None:
        self.pending = False
        gc.freeze()
        self.frozen += 1

    def install(self) -> None:
        gc.callbacks.append(self._after)

    def remove(self) -> None:
        if self._after in gc.callbacks:
            gc.callbacks.remove(self._after)


def thaw() -> None:
    """Give every frozen object back to the collector (the app stopped)."""
    gc.unfreeze()


async def keep_frozen(interval: float) -> None:
    """The app's background task (with a :class:`FreezeSurvivors` installed): every
    ``interval`` seconds, refreeze, so the cycles among frozen objects are collected."""
    if interval <= 0:
        await asyncio.Event().wait()  # never: only cancelled
    while True:
        await asyncio.sleep(interval)
        took = refreeze()
        log.info("garbage collector: frozen objects collected and refrozen in %.0f ms",
                 took * 1000)
