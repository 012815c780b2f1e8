"""The store as the server's event loop sees it: every call runs on a small thread pool, so
the loop never waits on the database.

The :class:`Store` stays synchronous SQLAlchemy; :class:`AsyncStore` hands each call to its
own :class:`~concurrent.futures.ThreadPoolExecutor` and awaits the result. SQLite gets one
thread: it writes one transaction at a time anyway, and a second writing thread would only
meet ``database is locked`` retries. PostgreSQL gets a few, one pooled connection each.

A call that does nothing but reach the store is declared once, ``get_match =
read(Store.get_match)``, typed from the store method (:mod:`arena.store.in_thread`); the
methods written out here are the ones that also keep a cache or tell listeners. Every call,
declared or written out, runs through :meth:`AsyncStore.run_job`.

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

Outages: when a call meets an unreachable, shut-down or locked database
(:func:`~arena.store.failures.is_outage`) the store is *down*: one log line says so, every write
is refused at once with :class:`StoreUnavailable` (nothing waits on a dead connection or a
held lock), and a probe every :data:`PROBE_SECONDS` tries a write; when one goes through, one
more line says the database is back. Meanwhile reads answer from what this process already
knows: cached tokens (even past their time to live), the last lobby listing, spectator links
and notes. On SQLite, reads run on threads of their own, so a write waiting on a lock another
connection holds never queues a read behind it; WAL readers do not wait for writers.

Damaged rows: a row that cannot be read raises :class:`~arena.store.rows.DamagedRow` from the
store thread, and it reaches the caller as it is (it is not an outage: the database works, one
row of one match or season is wrong). A listing (the lobby, the resume, a match's links) skips
such rows instead; each one it skipped is handed to the listeners of :meth:`on_damaged`, so the
server quarantines that match or season however the listing was reached.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from arena.core.match import Event
from arena.store import legacy
from arena.store.failures import StoreUnavailable, describe_failure, is_outage
from arena.store.group_commit import GroupCommit
from arena.store.in_thread import outcome, read, write
from arena.store.records import MatchRecord, TokenRecord
from arena.store.rows import DamagedRow, Rows
from arena.store.store import Store

P = ParamSpec("P")
T = TypeVar("T")

POSTGRES_THREADS = 4
"""Threads (and so at most as many busy connections) for PostgreSQL."""

TOKEN_TTL = 5.0
"""On PostgreSQL, how long a cached token is trusted without a notification (a missed one
costs at most this long of a replaced link still working for reads on another process)."""

TOKEN_CACHE_SIZE = 20_000

LISTING_TTL = 1.0
"""Seconds a lobby listing is reused (changes made by this process are seen at once)."""

PROBE_SECONDS = 0.5
"""While the database is down, how often a write is tried to learn that it is back."""

SQLITE_READ_THREADS = 2

log = logging.getLogger("arena.server")


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


class AsyncStore:
    """Awaitable versions of the :class:`Store` methods the server uses."""

    def __init__(self, store: Store, threads: int | None = None) -> None:
        self.sync = store
        self.is_sqlite = store.is_sqlite
        n = threads or (1 if store.is_sqlite else POSTGRES_THREADS)
        self._pool = ThreadPoolExecutor(max_workers=n, thread_name_prefix="arena-store")
        # SQLite: one writing thread (above) and reading threads of their own, so a write
        # waiting on another connection's lock holds up no read. A memory database has one
        # shared connection, which two threads must not use at once.
        memory = getattr(store, "is_memory", False)
        self._reads = self._pool if not store.is_sqlite or memory else ThreadPoolExecutor(
            max_workers=SQLITE_READ_THREADS, thread_name_prefix="arena-store-read")
        # Outage state: ``down`` is set by the thread that met the failure (so the writes
        # queued behind it give up at once), the rest on the event loop.
        self.down = False
        self.reason = ""
        self.probe_seconds = PROBE_SECONDS
        self._down_since: float | None = None
        self._probe: asyncio.Task[None] | None = None
        self._up = asyncio.Event()
        self._up.set()
        self._listeners: list[Callable[[bool], None]] = []
        self._damage_listeners: list[Callable[[DamagedRow], object]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._flag = threading.Lock()
        self._listing: list[MatchRecord] | None = None
        self._listing_at = float("-inf")
        self._listing_limit = 0
        self._listing_epoch = 0
        self._watch: dict[str, str] = {}
        self._notes: dict[tuple[str, int], tuple[Any, float]] = {}
        self._tokens: dict[str, tuple[TokenRecord, float]] = {}
        # Bumped whenever tokens are forgotten: a lookup that started before does not put
        # back what it read (it may be the replaced token).
        self._epoch = 0
        self._ttl = float("inf") if store.is_sqlite else TOKEN_TTL
        self._appends = GroupCommit(self._pool, self._append_many)

    async def close(self) -> None:
        """Let running calls finish, then stop the threads (the store itself stays open)."""
        probe, self._probe = self._probe, None
        if probe is not None:
            probe.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await probe
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, functools.partial(self._pool.shutdown, wait=True))
        if self._reads is not self._pool:
            await loop.run_in_executor(None, functools.partial(self._reads.shutdown, wait=True))

    # ------------------------------------------------------------------ outages
    def on_change(self, listener: Callable[[bool], None]) -> None:
        """Call ``listener(ok)`` on the event loop when an outage starts (False) or ends."""
        self._listeners.append(listener)

    async def until_up(self) -> None:
        """Return once the database takes writes again (at once if it does now)."""
        await self._up.wait()

    def note_failure(self, exc: BaseException) -> bool:
        """Any thread: if ``exc`` is an outage, mark the store down (the loop logs it once)
        and return True; otherwise False (the caller reports it as it would)."""
        if not is_outage(exc):
            return False
        with self._flag:
            first = not self.down
            self.down = True
            if first:
                self.reason = describe_failure(exc, self.sync.url)
        loop = self._loop
        if first and loop is not None and not loop.is_closed():
            if _on_loop(loop):
                self._outage_started()
            else:
                loop.call_soon_threadsafe(self._outage_started)
        return True

    def _outage_started(self) -> None:
        if self._down_since is not None or not self.down:
            return
        self._down_since = time.monotonic()
        self._up.clear()
        log.warning("the database cannot be used: %s; reads are served from memory and "
                    "commands are refused until it is back", self.reason)
        self._tell(False)
        if self._probe is None:
            self._probe = asyncio.get_running_loop().create_task(self._probe_until_up(),
                                                                 name="arena-store-probe")

    async def _probe_until_up(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                await asyncio.sleep(self.probe_seconds)
                try:
                    await loop.run_in_executor(self._pool, self.sync.probe)
                except Exception as exc:  # still down (or down for another reason)
                    if not is_outage(exc):
                        log.warning("the database probe failed: %s", describe_failure(exc))
                    continue
                break
        finally:
            self._probe = None
        since = self._down_since or time.monotonic()
        with self._flag:
            self.down = False
        self._down_since = None
        self._up.set()
        log.warning("the database is back after %.1f s: commands are accepted again",
                    time.monotonic() - since)
        self._tell(True)

    def on_damaged(self, listener: Callable[[DamagedRow], object]) -> None:
        """Call ``listener(damaged)`` (on the event loop) for each damaged row a listing
        skipped, before the listing is returned."""
        self._damage_listeners.append(listener)

    def _report(self, damaged: list[DamagedRow]) -> None:
        for row in damaged:
            for listener in list(self._damage_listeners):
                try:
                    listener(row)
                except Exception:  # a listener's bug must not fail the listing
                    log.exception("damaged-row listener failed")

    def _tell(self, ok: bool) -> None:
        for listener in list(self._listeners):
            try:
                listener(ok)
            except Exception:  # a listener's bug must not stop the others
                log.exception("store listener failed")

    def _guard(self, fn: Callable[[], T], write: bool) -> T:
        """(In a store thread.) Refuse a write at once while the database is down (also a
        read on PostgreSQL, whose server is then unreachable; SQLite's WAL reads still work
        under another connection's write lock); turn an outage into StoreUnavailable."""
        if self.down and (write or not self.is_sqlite):
            raise StoreUnavailable(self.reason)
        try:
            return fn()
        except Exception as exc:
            if self.note_failure(exc):
                raise StoreUnavailable(self.reason or describe_failure(exc)) from exc
            raise

    async def run_job(self, job: Callable[[], T], write: bool) -> T:
        """Every store call goes this one way: ``job`` on the writing thread (``write``) or
        a reading one, behind the outage guard, seen to its end even if the caller is
        cancelled, and the damaged rows of a listing reported before it is returned."""
        loop = asyncio.get_running_loop()
        self._loop = loop
        guarded = functools.partial(self._guard, job, write)
        result = await outcome(loop.run_in_executor(self._pool if write else self._reads,
                                                    guarded))
        if isinstance(result, Rows) and result.damaged:
            self._report(result.damaged)
        return result

    async def _call(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """A write made by a method of this class that does more than call the store."""
        return await self.run_job(functools.partial(fn, *args, **kwargs), True)

    async def _read(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """A read made by a method of this class that does more than call the store."""
        return await self.run_job(functools.partial(fn, *args, **kwargs), False)

    # ------------------------------------------------------------------ plain calls
    # Each of these is the Store method of the same name, awaited in a store thread
    # (arena.store.in_thread); the methods below them keep a cache or tell listeners too.
    get_match = read(Store.get_match)
    matches_of = read(Store.matches_of)
    running = read(Store.running)
    tokens_for = read(Store.tokens_for)
    save_scenario = write(Store.save_scenario)
    get_scenario = read(Store.get_scenario)
    list_scenarios = read(Store.list_scenarios)
    count_scenarios = read(Store.count_scenarios)
    events = read(Store.events)
    lease_acquire = write(Store.lease_acquire)
    lease_renew = write(Store.lease_renew)
    lease_release = write(Store.lease_release)
    lease = read(Store.lease)
    lapsed_running = read(Store.lapsed_running)
    notify = write(Store.notify)
    unconverted_seasons = read(legacy.unconverted)
    old_season = read(legacy.read)
    create_season = write(Store.create_season)
    get_season = read(Store.get_season)
    append_season_entry = write(Store.append_season_entry)
    season_entries_after = read(Store.season_entries_after)
    list_seasons = read(Store.list_seasons)
    running_seasons = read(Store.running_seasons)
    season_token = read(Store.season_token)
    season_tokens = read(Store.season_tokens)
    replace_season_token = write(Store.replace_season_token)

    def listen_url(self) -> str:
        return self.sync.listen_url()

    # ------------------------------------------------------------------ matches
    async def create_match(self, record: MatchRecord, tokens: Sequence[TokenRecord],
                           lease: tuple[str, str | None, float] | None = None) -> int | None:
        token = await self._call(self.sync.create_match, record, tokens, lease)
        self._forget_listing()
        # What this process made it knows: its links resolve, and the lobby lists it, even
        # if the database goes away next.
        expires = time.monotonic() + self._ttl
        for tok in tokens:
            self._keep_token(tok, expires)
            if tok.role == "spectator":
                self._watch.setdefault(tok.match_id, tok.token)
        return token

    async def list_matches(self, limit: int = 200) -> list[MatchRecord]:
        """The lobby's listing, read at most once per :data:`LISTING_TTL`: every
        open lobby asks for it every few seconds, and each read built 200 records (their
        configs hold generated puzzles' text), a tenth of the server's CPU at 100 matches.
        A change made through this store is seen at once (it forgets the listing); one made
        by another process on the same PostgreSQL database within ``LISTING_TTL``."""
        fresh = (self._listing is not None and self._listing_limit >= limit
                 and time.monotonic() - self._listing_at < LISTING_TTL)
        if fresh and self._listing is not None:
            return self._listing[:limit]
        epoch = self._listing_epoch
        started = time.monotonic()
        try:
            listing = await self._read(self.sync.list_matches, limit)
        except StoreUnavailable:
            if self._listing is None:
                raise
            return self._listing[:limit]
        if epoch == self._listing_epoch:  # no change of ours came during the read
            self._listing, self._listing_limit, self._listing_at = listing, limit, started
        return listing

    def _forget_listing(self) -> None:
        """A match was created or changed here: the next listing is read afresh (the one
        kept still answers while the database is down)."""
        self._listing_epoch += 1
        self._listing_at = float("-inf")

    async def set_status(self, match_id: str, status: str, result: dict[str, Any] | None,
                         fence: tuple[str, int] | None = None) -> None:
        await self._call(self.sync.set_status, match_id, status, result, fence)
        self._forget_listing()

    async def set_bots(self, match_id: str, bots: Sequence[bool],
                       fence: tuple[str, int] | None = None,
                       levels: Sequence[str] = ()) -> None:
        await self._call(self.sync.set_bots, match_id, bots, fence, levels)
        self._forget_listing()

    async def set_settings(self, match_id: str, settings: dict[str, Any],
                           fence: tuple[str, int] | None = None) -> None:
        await self._call(self.sync.set_settings, match_id, settings, fence)
        self._forget_listing()

    # ------------------------------------------------------------------ tokens
    async def replace_seat_token(self, match_id: str, seat: int, token: str | None,
                                 fence: tuple[str, int] | None = None) -> list[str]:
        try:
            return await self._call(self.sync.replace_seat_token, match_id, seat, token, fence)
        finally:
            self.forget_tokens(match_id)

    async def replace_broadcast(self, match_id: str, token: str | None, delay: float,
                                fence: tuple[str, int] | None = None) -> list[str]:
        try:
            return await self._call(self.sync.replace_broadcast, match_id, token, delay, fence)
        finally:
            self.forget_tokens(match_id)

    async def token(self, token: str) -> TokenRecord | None:
        cached = self._tokens.get(token)
        if cached is not None and cached[1] > time.monotonic():
            return cached[0]
        epoch = self._epoch
        try:
            record = await self._read(self.sync.token, token)
        except StoreUnavailable:
            # The database is down: a link this process knew still works for reads (a
            # replacement meanwhile cannot have been stored, since writes are refused).
            if cached is None:
                raise
            return cached[0]
        # Unknown tokens are not kept (a flood of them must not fill memory), nor one read
        # while a replacement was under way.
        if record is None or epoch != self._epoch:
            return record
        self._keep_token(record, time.monotonic() + self._ttl)
        return record

    def _keep_token(self, record: TokenRecord, expires: float) -> None:
        if len(self._tokens) >= TOKEN_CACHE_SIZE:
            self._tokens.clear()
        self._tokens[record.token] = (record, expires)

    def forget_tokens(self, match_id: str) -> None:
        """Stop trusting the cached tokens of ``match_id`` (one of its links was replaced,
        here or, on PostgreSQL, by another process)."""
        self._epoch += 1
        for token in [t for t, (r, _) in self._tokens.items() if r.match_id == match_id]:
            del self._tokens[token]

    async def spectator_tokens(self, match_ids: Sequence[str]) -> dict[str, str]:
        try:
            found = await self._read(self.sync.spectator_tokens, match_ids)
        except StoreUnavailable:
            return {m: self._watch[m] for m in match_ids if m in self._watch}
        if len(self._watch) >= TOKEN_CACHE_SIZE:
            self._watch.clear()
        self._watch.update(found)
        return found

    # ------------------------------------------------------------------ notes
    async def notes(self, match_id: str, seat: int) -> tuple[Any, float]:
        try:
            found = await self._read(self.sync.notes, match_id, seat)
        except StoreUnavailable:
            if (match_id, seat) not in self._notes:
                raise
            return self._notes[(match_id, seat)]
        self._remember_notes(match_id, seat, found)
        return found

    async def save_notes(self, match_id: str, seat: int, data: Any, when: float) -> None:
        await self._call(self.sync.save_notes, match_id, seat, data, when)
        self._remember_notes(match_id, seat, (data, when))

    def _remember_notes(self, match_id: str, seat: int, notes: tuple[Any, float]) -> None:
        if len(self._notes) >= TOKEN_CACHE_SIZE:
            self._notes.clear()
        self._notes[(match_id, seat)] = notes

    # ------------------------------------------------------------------ events
    async def append_events(self, match_id: str, events: Sequence[Event],
                            fence: tuple[str, int] | None = None) -> None:
        """Queued for the next group commit (:mod:`arena.store.group_commit`): appends that
        arrive while one is being written go together in the next transaction. Awaited as
        any call: the caller learns its own outcome, and a cancelled caller still waits for
        it (module docstring)."""
        if not events:
            return
        loop = asyncio.get_running_loop()
        self._loop = loop
        await self._appends.append(loop, match_id, events, fence)

    def _append_many(self, items: list[tuple[str, Sequence[Event], tuple[str, int] | None]]
                     ) -> None:
        """(In the writing thread.) One transaction of a group commit, behind the guard."""
        self._guard(functools.partial(self.sync.append_many, items), True)

    # ------------------------------------------------------------------ old seasons
    async def convert_season(self, record: MatchRecord, tokens: Sequence[TokenRecord],
                             events: Sequence[Event],
                             lease: tuple[str, str | None, float] | None,
                             children: dict[str, dict[str, Any]]) -> tuple[bool, int | None]:
        """``legacy.convert``: an old season stored as the match of the same id."""
        done = await self._call(legacy.convert, self.sync, record, tokens, events, lease,
                                children)
        self._forget_listing()
        return done
