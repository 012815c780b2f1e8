"""Appends of many matches stored in one transaction (a group commit).

At hundreds of ticks a second the transaction, not the rows, was most of a tick's store cost:
appends that arrive while one batch is being written go together in the next transaction, so
a burst of ticks of many matches costs the writing thread one transaction, not one each. Each
caller still learns its own outcome: a batch that fails as a whole is written again one match
at a time, so only the match whose fence or version failed hears of it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from arena.core.match import Event
from arena.store.failures import StoreUnavailable
from arena.store.in_thread import outcome

Fence = tuple[str, int] | None
Item = tuple[str, Sequence[Event], Fence]
"""One match's append: its id, its new entries, and the lease fence they are written under."""

_Queued = tuple[str, Sequence[Event], Fence, "asyncio.Future[None]"]


def _settle(items: list[_Queued], outcomes: list[BaseException | None]) -> None:
    """(On the loop.) Answer each queued append with its own outcome."""
    for item, result in zip(items, outcomes, strict=True):
        future = item[3]
        if future.done():
            continue
        if result is None:
            future.set_result(None)
        else:
            future.set_exception(result)


class GroupCommit:
    """The appends waiting for the next transaction, written on ``pool`` (the store's
    writing thread) by ``write_many``, which raises if the transaction failed."""

    def __init__(self, pool: ThreadPoolExecutor,
                 write_many: Callable[[list[Item]], None]) -> None:
        self._pool = pool
        self._write_many = write_many
        self._batch: list[_Queued] = []
        self._lock = threading.Lock()
        self._flushing = False

    async def append(self, loop: asyncio.AbstractEventLoop, match_id: str,
                     events: Sequence[Event], fence: Fence) -> None:
        """Queue one match's entries and wait for their transaction (a cancelled caller
        still waits for it: :func:`~arena.store.in_thread.outcome`)."""
        future: asyncio.Future[None] = loop.create_future()
        with self._lock:
            self._batch.append((match_id, events, fence, future))
            start = not self._flushing
            self._flushing = True
        if start:
            # At the end of this turn of the loop, so that the appends of every owner the
            # timer woke together (server/ticker.py) go in this one transaction.
            loop.call_soon(self._start_flush, loop)
        await outcome(future)

    def _start_flush(self, loop: asyncio.AbstractEventLoop) -> None:
        try:
            loop.run_in_executor(self._pool, self._flush, loop)
        except RuntimeError as exc:  # the store was closed: nothing will run the batch
            with self._lock:
                items, self._batch = self._batch, []
                self._flushing = False
            _settle(items, [exc] * len(items))

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        """(In the store's writing thread.) Write what is queued, then what queued meanwhile,
        until nothing is left; each batch's callers are answered in one wake of the loop."""
        while True:
            with self._lock:
                items, self._batch = self._batch, []
                if not items:
                    self._flushing = False
                    return
            try:
                outcomes = self._write_batch(items)
            except BaseException as exc:  # a bug here must not leave its callers waiting
                outcomes = [exc] * len(items)
            if not loop.is_closed():
                loop.call_soon_threadsafe(_settle, items, outcomes)

    def _write_batch(self, items: list[_Queued]) -> list[BaseException | None]:
        def write(batch: list[_Queued]) -> BaseException | None:
            try:
                self._write_many([(m, events, fence) for m, events, fence, _ in batch])
            except Exception as exc:
                return exc
            return None

        failed = write(items)
        if failed is None or len(items) == 1 or isinstance(failed, StoreUnavailable):
            return [failed] * len(items)
        # One match's fence or version failed the whole transaction: each alone, so only
        # its owner hears of it and the others are stored.
        return [write([item]) for item in items]
