"""The store as the server's event loop sees it: every call runs on a small thread pool, so
the loop never waits on the database (issue 20 point 3).

The :class:`Store` stays synchronous SQLAlchemy; :class:`AsyncStore` hands each call to its
own :class:`~concurrent.futures.ThreadPoolExecutor` and awaits the result. SQLite gets one
thread: it writes one transaction at a time anyway, and a second writing thread would only
meet ``database is locked`` retries. PostgreSQL gets a few, one pooled connection each.

Order: the appends of one match are awaited one after the other under its owner's lock, so
they reach the database in version order; nothing else needs an order across calls.

A call, once started, is seen to its end. If the awaiting task is cancelled meanwhile, the
call still finishes in its thread, so its caller waits for the outcome (and acts on it, say
marks the events as stored) and the cancellation is delivered at the caller's next
``await``. Otherwise a cancelled append could be stored without the owner knowing it, and
the owner's memory and the database would part.

Token lookups (one per request) are cached in memory: a token only ever disappears through
:meth:`replace_seat_token`, which forgets the match's cached tokens here; another process on
the same PostgreSQL database learns of a replacement from the notification of the
``host_note`` appended with it (:meth:`forget_tokens`), and a cached token is trusted for at
most :data:`TOKEN_TTL` seconds there in case a notification was missed.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from arena.core.match import Event
from arena.store.store import Lease, MatchRecord, Store, TokenRecord

P = ParamSpec("P")
T = TypeVar("T")

POSTGRES_THREADS = 4
"""Threads (and so at most as many busy connections) for PostgreSQL."""

TOKEN_TTL = 5.0
"""On PostgreSQL, how long a cached token is trusted without a notification (a missed one
costs at most this long of a replaced link still working for reads on another process)."""

TOKEN_CACHE_SIZE = 20_000


class AsyncStore:
    """Awaitable versions of the :class:`Store` methods the server uses."""

    def __init__(self, store: Store, threads: int | None = None) -> None:
        self.sync = store
        self.is_sqlite = store.is_sqlite
        n = threads or (1 if store.is_sqlite else POSTGRES_THREADS)
        self._pool = ThreadPoolExecutor(max_workers=n, thread_name_prefix="arena-store")
        self._tokens: dict[str, tuple[TokenRecord, float]] = {}
        # Bumped whenever tokens are forgotten: a lookup that started before does not put
        # back what it read (it may be the replaced token).
        self._epoch = 0
        self._ttl = float("inf") if store.is_sqlite else TOKEN_TTL

    async def close(self) -> None:
        """Let running calls finish, then stop the threads (the store itself stays open)."""
        await asyncio.get_running_loop().run_in_executor(
            None, functools.partial(self._pool.shutdown, wait=True))

    async def _call(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._pool, functools.partial(fn, *args, **kwargs))
        task = asyncio.current_task()
        cancelled = False
        try:
            while True:
                try:
                    return await asyncio.shield(future)
                except asyncio.CancelledError:
                    if task is None or future.cancelled():
                        raise
                    # See the module's words: finish first, deliver the cancellation after.
                    cancelled = True
                    task.uncancel()
        finally:
            if cancelled and task is not None:
                task.cancel()

    # ------------------------------------------------------------------ matches
    async def create_match(self, record: MatchRecord, tokens: Sequence[TokenRecord],
                           lease: tuple[str, str | None, float] | None = None) -> int | None:
        return await self._call(self.sync.create_match, record, tokens, lease)

    async def get_match(self, match_id: str) -> MatchRecord | None:
        return await self._call(self.sync.get_match, match_id)

    async def list_matches(self, limit: int = 200) -> list[MatchRecord]:
        return await self._call(self.sync.list_matches, limit)

    async def running(self) -> list[MatchRecord]:
        return await self._call(self.sync.running)

    async def set_status(self, match_id: str, status: str, result: dict[str, Any] | None,
                         fence: tuple[str, int] | None = None) -> None:
        await self._call(self.sync.set_status, match_id, status, result, fence)

    async def set_bots(self, match_id: str, bots: Sequence[bool],
                       fence: tuple[str, int] | None = None) -> None:
        await self._call(self.sync.set_bots, match_id, bots, fence)

    async def set_settings(self, match_id: str, settings: dict[str, Any],
                           fence: tuple[str, int] | None = None) -> None:
        await self._call(self.sync.set_settings, match_id, settings, fence)

    # ------------------------------------------------------------------ tokens
    async def replace_seat_token(self, match_id: str, seat: int, token: str | None,
                                 fence: tuple[str, int] | None = None) -> list[str]:
        try:
            return await self._call(self.sync.replace_seat_token, match_id, seat, token, fence)
        finally:
            self.forget_tokens(match_id)

    async def token(self, token: str) -> TokenRecord | None:
        cached = self._tokens.get(token)
        if cached is not None and cached[1] > time.monotonic():
            return cached[0]
        epoch = self._epoch
        record = await self._call(self.sync.token, token)
        # Unknown tokens are not kept (a flood of them must not fill memory), nor one read
        # while a replacement was under way.
        if record is None or epoch != self._epoch:
            return record
        if len(self._tokens) >= TOKEN_CACHE_SIZE:
            self._tokens.clear()
        self._tokens[token] = (record, time.monotonic() + self._ttl)
        return record

    def forget_tokens(self, match_id: str) -> None:
        """Stop trusting the cached tokens of ``match_id`` (one of its links was replaced,
        here or, on PostgreSQL, by another process)."""
        self._epoch += 1
        for token in [t for t, (r, _) in self._tokens.items() if r.match_id == match_id]:
            del self._tokens[token]

    async def tokens_for(self, match_id: str) -> list[TokenRecord]:
        return await self._call(self.sync.tokens_for, match_id)

    async def spectator_tokens(self, match_ids: Sequence[str]) -> dict[str, str]:
        return await self._call(self.sync.spectator_tokens, match_ids)

    # ------------------------------------------------------------------ notes
    async def notes(self, match_id: str, seat: int) -> tuple[Any, float]:
        return await self._call(self.sync.notes, match_id, seat)

    async def save_notes(self, match_id: str, seat: int, data: Any, when: float) -> None:
        await self._call(self.sync.save_notes, match_id, seat, data, when)

    # ------------------------------------------------------------------ events
    async def append_events(self, match_id: str, events: Sequence[Event],
                            fence: tuple[str, int] | None = None) -> None:
        if fence is None:  # a test's stand-in store may take no fence
            await self._call(self.sync.append_events, match_id, events)
        else:
            await self._call(self.sync.append_events, match_id, events, fence)

    async def events(self, match_id: str, since: int = 0) -> list[Event]:
        return await self._call(self.sync.events, match_id, since)

    # ------------------------------------------------------------------ leases (PostgreSQL)
    async def lease_acquire(self, match_id: str, owner: str, url: str | None, ttl: float,
                            *, steal_from_url: bool = False) -> int | None:
        return await self._call(self.sync.lease_acquire, match_id, owner, url, ttl,
                                steal_from_url=steal_from_url)

    async def lease_renew(self, owner: str, ttl: float) -> dict[str, int]:
        return await self._call(self.sync.lease_renew, owner, ttl)

    async def lease_release(self, owner: str, match_ids: Sequence[str] | None = None) -> None:
        await self._call(self.sync.lease_release, owner, match_ids)

    async def lease(self, match_id: str) -> Lease | None:
        return await self._call(self.sync.lease, match_id)

    async def lapsed_running(self, limit: int = 100) -> list[str]:
        return await self._call(self.sync.lapsed_running, limit)

    async def notify(self, match_id: str, what: str) -> None:
        await self._call(self.sync.notify, match_id, what)

    def listen_url(self) -> str:
        return self.sync.listen_url()

    # ------------------------------------------------------------------ seasons
    async def create_season(self, season_id: str, head: dict[str, Any],
                            record: dict[str, Any], created: float,
                            tokens: Sequence[tuple[str, str, str | None]]) -> None:
        await self._call(self.sync.create_season, season_id, head, record, created, tokens)

    async def get_season(self, season_id: str
                         ) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        return await self._call(self.sync.get_season, season_id)

    async def append_season_entry(self, season_id: str, version: int, data: dict[str, Any],
                                  record: dict[str, Any], status: str) -> None:
        await self._call(self.sync.append_season_entry, season_id, version, data, record,
                         status)

    async def season_entries_after(self, season_id: str, version: int) -> list[dict[str, Any]]:
        return await self._call(self.sync.season_entries_after, season_id, version)

    async def list_seasons(self, limit: int = 100) -> list[tuple[str, str, dict[str, Any]]]:
        return await self._call(self.sync.list_seasons, limit)

    async def running_seasons(self) -> list[str]:
        return await self._call(self.sync.running_seasons)

    async def season_token(self, token: str) -> tuple[str, str, str | None] | None:
        return await self._call(self.sync.season_token, token)

    async def season_tokens(self, season_id: str) -> list[tuple[str, str, str | None]]:
        return await self._call(self.sync.season_tokens, season_id)
