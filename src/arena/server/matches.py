"""All matches one server process holds: which are in memory, loading, resuming or
quarantined, and when each may leave memory.

A new match comes from :mod:`arena.server.creating`; a stored one is rebuilt by
:mod:`arena.server.rebuild`. On start every running match is rebuilt in the background once
the server is serving (a match that took minutes to rebuild held the whole
start-up), one at a time, with other requests served between the slices of each; a match that
cannot be rebuilt is *quarantined*: its page and API say so, the log has one line for it, and
everything else goes on. On PostgreSQL, which process owns which match is
:mod:`arena.server.leases`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
import uuid
from typing import Any

from arena.core.match import Match
from arena.server import creating, extras, rebuild, season_import
from arena.server.children import Children
from arena.server.creating import Created, parse_request
from arena.server.envsetting import env_positive
from arena.server.leases import LEASE_SECONDS, Leases
from arena.server.owner import MatchOwner
from arena.server.rebuild import ResumeFailed, quarantine_error, quarantine_text
from arena.store import DamagedRow, MatchRecord, StoreUnavailable, TokenRecord
from arena.store.asyncstore import AsyncStore

log = logging.getLogger("arena.server")

KEEP_SECONDS = env_positive("ARENA_KEEP_SECONDS", 30.0)
"""How long a finished match (or a mirror) nobody watches stays in memory after its last use
(``ARENA_KEEP_SECONDS``). Past it, the match leaves memory and is rebuilt from its stored log
the next time someone asks for it: memory follows what is live, not how many matches the
server has ever run."""

SWEEP_SECONDS = env_positive("ARENA_SWEEP_SECONDS", 5.0)
"""How often the matches that may leave memory are looked for."""


def _current(owner: MatchOwner) -> MatchRecord:
    record = owner.record
    m = owner.match
    if m.finished and record.status != "finished":
        result = None if m.result is None else m.result.to_json()
        record = dataclasses.replace(record, status="finished", result=result)
    return record


class Matches:
    """The registry of match owners of one server process: on SQLite every match's owner;
    on a shared PostgreSQL database, the owners of the matches whose lease this process holds
    and read-only mirrors of the others (:class:`~arena.server.leases.Leases`)."""

    def __init__(self, store: AsyncStore, process_url: str | None = None) -> None:
        self.store = store
        self.owners: dict[str, MatchOwner] = {}
        self.creating: set[str] = set()
        """Matches being created: stored as running before their owner is in ``owners``, so
        the start-up resume (which lists the running matches) must leave them alone, or a
        second owner would write the same log entries (found by test_starve under load)."""
        self.loading = asyncio.Lock()
        """Held while a match is rebuilt, taken over or let go, so each happens once."""
        self.cluster = not store.is_sqlite
        self.process_id = uuid.uuid4().hex
        self.process_url = process_url
        self.tasks: list[asyncio.Task[None]] = []  # background work, cancelled at shutdown
        self.quarantined: dict[str, str] = {}  # match id -> why it could not be rebuilt
        self.resuming: asyncio.Task[None] | None = None  # the start-up's background rebuild
        self.converting: asyncio.Task[None] | None = None
        """The start-up's conversion of the seasons the old season engine stored."""
        self.creators: dict[str, str] = {}
        """Running matches created through this process -> the client address that created
        them (kept in memory only, never stored): bounds what one address keeps running."""
        self.evicted = 0  # how many matches left memory so far (for tests and benches)
        self.children = Children(self)
        self.leases = Leases(self)
        store.on_change(self._store_changed)

    # ------------------------------------------------------------------ outages
    def _store_changed(self, ok: bool) -> None:
        """Tell every open page whether commands are taken (the page shows or drops its
        banner); once the database is back, store what an outage left unwritten."""
        for owner in list(self.owners.values()):
            owner.broadcast({"type": "store", "ok": ok})
            if ok:
                owner.wake()
        if ok and any(o.unsaved_status for o in self.owners.values()):
            task = asyncio.get_running_loop().create_task(self._save_statuses())
            self.tasks.append(task)
            task.add_done_callback(self._forget_task)

    def _forget_task(self, task: asyncio.Task[None]) -> None:
        if task in self.tasks:
            self.tasks.remove(task)

    async def _save_statuses(self) -> None:
        for owner in list(self.owners.values()):
            if owner.unsaved_status:
                async with owner.lock:
                    with contextlib.suppress(Exception):  # down again: the next recovery tries
                        await owner._commit()

    def hold(self, owner: MatchOwner) -> None:
        """A match is now in this process's memory: a parent (a season) this process owns is
        followed, and its live child made sure of at once (after a restart, a takeover or a
        creation, whichever brought it here)."""
        if owner.mirror or not owner.match.game.has_children:
            return
        self.children.watch(owner)
        with contextlib.suppress(RuntimeError):  # no running loop: nothing to schedule
            self.children.schedule(owner.record.id)

    async def converted(self) -> None:
        """Return once the start-up has converted the seasons the old engine stored."""
        task = self.converting
        if task is not None and not task.done():
            await asyncio.shield(task)

    def in_memory(self, match_id: str) -> MatchRecord | None:
        """The record of a match this process holds, with its status as memory has it."""
        owner = self.owners.get(match_id)
        return None if owner is None else _current(owner)

    async def record(self, match_id: str) -> MatchRecord | None:
        """A match's record from the store, or (the database being down) from memory."""
        try:
            return await self.store.get_match(match_id)
        except StoreUnavailable:
            record = self.in_memory(match_id)
            if record is None:
                raise
            return record

    def listing(self, stored: list[MatchRecord], limit: int) -> list[MatchRecord]:
        """The lobby's matches while the database is down: the last listing read, brought up
        to date with the matches in memory (created since, or finished since)."""
        by_id = {r.id: r for r in stored}
        for owner in self.owners.values():
            by_id[owner.record.id] = _current(owner)
        return sorted(by_id.values(), key=lambda r: r.created, reverse=True)[:limit]

    async def create(self, body: Any, creator: str | None = None,
                     record_settings: dict[str, Any] | None = None) -> Created:
        """A new match from a create request; ``creator`` (the client's address, for a
        request from outside) is held to :data:`~arena.server.creating.LIVE_PER_ADDRESS` running
        matches.
        ``record_settings``: the record's own, no request's (a season's name, G-14)."""
        # The game's own step at creation (LF-12: a library scenario or a generated one is
        # copied into the config, so the record holds it).
        body = await extras.prepare_create(self.store, body)
        name, seed, seats, settings_json, config_raw = parse_request(body)
        settings_json.update(record_settings or {})
        new = creating.draft(name, seed, seats, settings_json, config_raw)
        match_id = new.record.id
        if creator is not None:
            # Checked and counted with no wait between, so requests arriving together
            # cannot all pass the check before any of them is counted.
            self.check_creator(creator)
            self.creators[match_id] = creator
        self.creating.add(match_id)
        try:
            return await self.store_new(new.record, new.tokens, new.match, new.seat_tokens,
                                        new.spectator, new.host)
        except BaseException:
            self.creators.pop(match_id, None)
            raise
        finally:
            self.creating.discard(match_id)

    async def store_new(self, record: MatchRecord, tokens: list[TokenRecord], match: Match,
                        seat_tokens: tuple[str, ...] = (), spectator: str = "",
                        host: str = "") -> Created:
        match_id = record.id
        # Held in memory, and locked, before its row exists: a season's child has links
        # anyone may read (and open) from the moment its row is stored, and a request that
        # came in between rebuilt a second owner, whose writes then collided with this one's.
        owner = MatchOwner(record, match, self.store, persisted=0)
        self.owners[match_id] = owner
        try:
            async with owner.lock:
                if self.cluster:
                    token = await self.store.create_match(
                        record, tokens, lease=(self.process_id, self.process_url,
                                               LEASE_SECONDS))
                    owner.fence = (self.process_id, token or 1)
                else:
                    await self.store.create_match(record, tokens)
                await owner._commit()
        except BaseException:
            if self.owners.get(match_id) is owner:
                del self.owners[match_id]
            raise
        self.hold(owner)
        owner.start()
        return Created(owner, seat_tokens, spectator, host)

    async def rebuild(self, record: MatchRecord) -> MatchOwner:
        """:func:`arena.server.rebuild.rebuild` over this registry's store."""
        return await rebuild.rebuild(self.store, record)

    def quarantine(self, match: MatchRecord | str, reason: str) -> None:
        """Keep a match that cannot be rebuilt out of the way: one log line, and its page and
        API say so instead of holding up the start-up or the rest of the server. ``match``
        is its record, or its id when its stored row itself cannot be read (a DamagedRow);
        the same reason met again is not logged again."""
        match_id = match if isinstance(match, str) else match.id
        if self.quarantined.get(match_id) == reason:
            return
        self.quarantined[match_id] = reason
        log.error("match %s could not be resumed: %s", match_id, reason)

    def refusal(self, match_id: str) -> str | None:
        """Why the match cannot be shown (it is quarantined), or None."""
        reason = self.quarantined.get(match_id)
        return None if reason is None else quarantine_text(reason)

    def check_quarantine(self, match_id: str) -> None:
        reason = self.quarantined.get(match_id)
        if reason is not None:
            raise quarantine_error(reason)

    def start_resuming(self) -> None:
        """Rebuild the running matches in the background: the server serves meanwhile; and
        from then on let the matches nobody needs leave memory (:meth:`sweep`)."""
        loop = asyncio.get_running_loop()
        # Old seasons become matches first, so the resume finds them among the running.
        self.converting = loop.create_task(season_import.convert_all(self),
                                           name="arena-convert")
        self.tasks.append(self.converting)
        self.resuming = loop.create_task(self.resume_all(), name="arena-resume")
        self.tasks.append(self.resuming)
        self.tasks.append(loop.create_task(self._sweep_loop(), name="arena-sweep"))

    # ------------------------------------------------------------------ memory
    def check_creator(self, address: str) -> None:
        """Refuse a new match to an address that already keeps
        :data:`~arena.server.creating.LIVE_PER_ADDRESS` matches running."""
        for match_id in [m for m, a in self.creators.items() if a == address]:
            owner = self.owners.get(match_id)
            if match_id in self.creating:
                continue  # being stored right now: counted
            if owner is None or owner.match.finished or owner.mirror:
                del self.creators[match_id]
        creating.refuse_past_limit(sum(1 for a in self.creators.values() if a == address))

    def touch(self, owner: MatchOwner) -> None:
        owner.last_used = time.monotonic()

    def evictable(self, owner: MatchOwner, now: float) -> bool:
        """Whether a match may leave memory now: nothing of it lives only here (finished
        and stored, or a mirror of another process's match), nobody watches it, nothing is
        using it, and nobody asked for it for :data:`KEEP_SECONDS`."""
        if owner.subscribers or owner.lock.locked():
            return False
        if now - owner.last_used < KEEP_SECONDS:
            return False
        if owner.mirror:
            return True
        return (owner.match.finished and not owner.unsaved_status
                and owner.persisted >= owner.match.version)

    async def sweep(self, now: float | None = None) -> int:
        """Let go of every match that :meth:`evictable` allows; how many left."""
        now = time.monotonic() if now is None else now
        gone = 0
        for match_id, owner in list(self.owners.items()):
            if not self.evictable(owner, now):
                continue
            async with self.loading:  # not while a request is rebuilding it
                if self.owners.get(match_id) is not owner or not self.evictable(owner, now):
                    continue
                del self.owners[match_id]
                self.creators.pop(match_id, None)
            await owner.stop()
            gone += 1
        self.evicted += gone
        return gone

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("letting finished matches leave memory failed")

    async def resume_all(self) -> None:
        """Rebuild and restart every running match (on server start); on PostgreSQL only
        those whose lease is free, lapsed, or held under this process's own address by a
        process that died (this one listens there now). One match at a time, each under
        the loading lock, so a request for a match rebuilds it at once or waits for it."""
        await self.converted()
        try:
            records = await self.store.running()
        except Exception as exc:  # the database at start-up: each match loads on demand
            log.error("listing the running matches failed (%s); each resumes when asked for",
                      exc)
            return
        # A row that cannot be read is that one match's problem: the others resume.
        for damaged in records.damaged:
            self.quarantine(damaged.key, damaged.reason)
        for record in records:
            try:
                async with self.loading:
                    await self._resume(record)
            except ResumeFailed as exc:
                self.quarantine(record, str(exc))
            except DamagedRow as exc:  # its stored log cannot be read
                self.quarantine(exc.key, exc.reason)
            except Exception as exc:  # not the match's fault (the store): a request retries
                log.error("match %s could not be resumed yet: %s: %s", record.id,
                          type(exc).__name__, exc)

    async def _resume(self, record: MatchRecord) -> None:
        """(Under :attr:`loading`.) Rebuild one running match and start its clock."""
        if (record.id in self.owners or record.id in self.quarantined
                or record.id in self.creating):
            return  # a request loaded it first, or it is being created right now
        if self.cluster:
            token = await self.leases.take(record.id)
            if token is not None:
                await self.leases.promote(record, token)
            return
        owner = await self.rebuild(record)
        if record.id in self.owners or record.id in self.creating:
            return  # created or loaded while this rebuild ran: that owner stands
        self.owners[record.id] = owner
        self.hold(owner)
        async with owner.lock:
            await owner._commit()
        owner.start()

    async def get(self, match_id: str) -> MatchOwner | None:
        """The owner of a match, rebuilding it from the store on first use (a finished one,
        or a running one the background resume has not reached yet); a quarantined match
        answers 503 saying why."""
        owner = self.owners.get(match_id)
        if owner is not None:
            self.touch(owner)
            return owner
        self.check_quarantine(match_id)
        async with self.loading:
            owner = self.owners.get(match_id)
            if owner is not None:
                self.touch(owner)
                return owner
            self.check_quarantine(match_id)
            record = await self.store.get_match(match_id)
            if record is None:
                return None
            if self.cluster:
                return await self.leases.load(record)
            try:
                owner = await self.rebuild(record)
            except ResumeFailed as exc:
                self.quarantine(record, str(exc))
                raise quarantine_error(str(exc)) from None
            self.owners[match_id] = owner
            self.hold(owner)
            async with owner.lock:
                await owner._commit()
            owner.start()
            return owner

    async def shutdown(self) -> None:
        for task in self.tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks.clear()
        self.leases.stop()
        for owner in list(self.owners.values()):
            await owner.stop()
        if self.cluster:
            # A clean stop hands its matches over at once instead of after the lease.
            with contextlib.suppress(Exception):
                await self.store.lease_release(self.process_id)
        self.leases.join()

    def start_cluster(self) -> None:
        """On PostgreSQL, start renewing leases, taking over lapsed ones, and following
        other processes' appends (:meth:`Leases.start`)."""
        if self.cluster:
            self.leases.start()

    # ------------------------------------------------------------------ many processes
