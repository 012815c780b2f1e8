"""One timer for every match owner on an event loop.

Each owner sleeps until its next deadline or due bot move; instead of a loop timer per owner
and tick, every owner puts its moment in one heap here, and the matches due within
:data:`BATCH_SECONDS` of each other wake in one go."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
import weakref

BATCH_SECONDS = 0.004
"""How long the shared timer waits after the earliest due owner for others due just after
it, so that they are woken in one go."""


class _Wait:
    """One owner's request to be woken at a moment; ``event`` is None once it is woken or
    no longer wants to be."""

    __slots__ = ("event",)

    def __init__(self, event: asyncio.Event) -> None:
        self.event: asyncio.Event | None = event

    def cancel(self) -> None:
        self.event = None


class Ticker:
    """One timer for every match owner on an event loop.

    Each owner used to wait for its next deadline with ``asyncio.wait_for``, which makes a
    task, a future and a timer per tick of each match: about 24 us of CPU per wake against
    7 us here (bench/tick_cost.py, a bare loop of 200 waiters). Owners now put their moment
    in one heap; a single loop timer fires :data:`BATCH_SECONDS` after the earliest and wakes
    every owner due by then, so matches whose ticks fall within a few milliseconds of each
    other are woken in one batch. Nobody is woken early; a tick is at most
    ``BATCH_SECONDS`` later than before, far inside what a page notices."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._heap: list[tuple[float, int, _Wait]] = []
        self._seq = itertools.count()
        self._handle: asyncio.TimerHandle | None = None
        self._armed: float | None = None
        self._cancelled = 0

    def wake_at(self, when: float, event: asyncio.Event) -> _Wait:
        """Set ``event`` once the wall clock (``time.time()``) reaches ``when``."""
        entry = _Wait(event)
        heapq.heappush(self._heap, (when, next(self._seq), entry))
        if self._armed is None or when < self._armed:
            self._arm(when)
        return entry

    def cancel(self, entry: _Wait) -> None:
        """An owner woken otherwise (a command) drops its request; dropped requests are
        swept out once they are the heap's majority, so a busy match never grows it."""
        if entry.event is None:
            return
        entry.cancel()
        self._cancelled += 1
        if self._cancelled > 64 and self._cancelled * 2 > len(self._heap):
            self._heap = [item for item in self._heap if item[2].event is not None]
            heapq.heapify(self._heap)
            self._cancelled = 0

    def _arm(self, when: float) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._armed = when
        delay = max(0.0, when - time.time()) + BATCH_SECONDS
        self._handle = self.loop.call_at(self.loop.time() + delay, self._fire)

    def _fire(self) -> None:
        self._handle = self._armed = None
        now = time.time()
        heap = self._heap
        while heap and (heap[0][0] <= now or heap[0][2].event is None):
            entry = heapq.heappop(heap)[2]
            if entry.event is None:
                self._cancelled = max(0, self._cancelled - 1)
                continue
            entry.event.set()
            entry.event = None
        if heap:
            self._arm(heap[0][0])


_tickers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Ticker] = \
    weakref.WeakKeyDictionary()


def ticker() -> Ticker:
    """The running loop's shared timer (one per loop: tests run many loops)."""
    loop = asyncio.get_running_loop()
    found = _tickers.get(loop)
    if found is None:
        found = _tickers[loop] = Ticker(loop)
    return found
