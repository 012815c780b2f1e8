"""An opt-in measure of event-loop stalls, for the load bench.

With ``ARENA_LOOP_MONITOR=1`` the server runs a heartbeat that sleeps 50 ms at a time and
records how much later than asked each sleep ended: that lateness is the time the loop spent
on something else without yielding (a synchronous store call, a view with its SVG, a bot's
move). ``GET /api/debug/loop`` gives the figures since start (or since the last
``POST /api/debug/loop``, which starts a new window); the maximum is also logged at shutdown.
Without the variable neither the task nor the routes exist.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections import deque
from typing import Any

from arena.server.tasks import stop_task

log = logging.getLogger("arena.server")

ENV = "ARENA_LOOP_MONITOR"


def enabled() -> bool:
    return os.environ.get(ENV, "") == "1"


class LoopMonitor:
    """A heartbeat every ``interval`` seconds; a stall is how late a beat woke up."""

    def __init__(self, interval: float = 0.05, keep: int = 100_000) -> None:
        self.interval = interval
        self.stalls: deque[float] = deque(maxlen=keep)
        self.max_stall = 0.0
        self.since = time.time()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._beat(), name="loopmon")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            await stop_task(task)
            log.info("event loop: longest stall %.1f ms over %d beats",
                     self.max_stall * 1000, len(self.stalls))

    async def _beat(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(self.interval)
            self.record(loop.time() - before - self.interval)

    def record(self, stall: float) -> None:
        stall = max(0.0, stall)
        self.stalls.append(stall)
        self.max_stall = max(self.max_stall, stall)

    def reset(self) -> None:
        self.stalls.clear()
        self.max_stall = 0.0
        self.since = time.time()

    def snapshot(self) -> dict[str, Any]:
        """Seconds: the longest stall, its median and 99th percentile, and the beats counted."""
        ordered = sorted(self.stalls)

        def pct(q: float) -> float:
            return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0

        return {"interval": self.interval, "beats": len(ordered), "since": self.since,
                "max_stall": self.max_stall, "p50_stall": pct(0.5), "p99_stall": pct(0.99)}
