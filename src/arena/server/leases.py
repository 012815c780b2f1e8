"""Which process owns each live match, on a PostgreSQL database shared by several.

On SQLite one process owns every match and nothing here runs. On PostgreSQL each live match
has one owner, holding a lease (``match_leases``) that it renews every :data:`RENEW_SECONDS`
and whose fencing token every append checks; the other processes keep read-only mirrors,
refreshed from the event table when PostgreSQL notifies an append, and send commands on to
the owner (:mod:`arena.server.cluster`). A lapsed lease (its process died) is taken over by
whichever process sees it first.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from typing import TYPE_CHECKING

from arena.core.errors import RuleError
from arena.server import rebuild
from arena.server.errors import ApiError
from arena.server.owner import MatchOwner
from arena.store import CHANNEL, DamagedRow, Lease, MatchRecord, StoreUnavailable

if TYPE_CHECKING:
    from arena.server.matches import Matches

log = logging.getLogger("arena.server")

LEASE_SECONDS = float(os.environ.get("ARENA_LEASE_SECONDS", "4"))
"""How long a process owns a match without renewing (PostgreSQL): the longest a
dead process's matches wait before another process takes them over."""

RENEW_SECONDS = float(os.environ.get("ARENA_RENEW_SECONDS", "1"))
"""How often leases are renewed and lapsed ones looked for."""


class Leases:
    """The leases of one process's :class:`~arena.server.matches.Matches`: taking matches
    over, losing them, and keeping the mirrors of the others' matches up to date."""

    def __init__(self, matches: Matches) -> None:
        self.matches = matches
        self._dirty: dict[str, bool] = {}  # mirrors to refresh; True: reload the record too
        self._dirty_event = asyncio.Event()
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        self.takeovers: list[tuple[str, float]] = []  # (match id, when): for tests and logs

    def stop(self) -> None:
        """Tell the listening thread to stop (:meth:`join` waits for it)."""
        self._stop.set()

    def join(self) -> None:
        if self._listener is not None:
            self._listener.join(timeout=3)

    async def take(self, match_id: str) -> int | None:
        """The match's lease for this process if it is free, lapsed, or held under this
        process's address by one that died: the new fencing token, or None."""
        return await self.matches.store.lease_acquire(
            match_id, self.matches.process_id, self.matches.process_url, LEASE_SECONDS,
            steal_from_url=True)

    async def load(self, record: MatchRecord) -> MatchOwner | None:
        """(Under the registry's ``loading``.) A running match whose lease is free becomes ours; any other
        is mirrored (a finished one too: a later command takes its lease)."""
        try:
            if record.status == "running":
                token = await self.take(record.id)
                if token is not None:
                    return await self.promote(record, token)
            owner = await rebuild.mirror(self.matches.store, record)
        except RuleError:
            return None
        except rebuild.ResumeFailed as exc:
            self.matches.quarantine(record, str(exc))
            raise rebuild.quarantine_error(str(exc)) from None
        owner.on_lost = self.lost
        self.matches.owners[record.id] = owner
        self.matches.hold(owner)
        return owner

    async def promote(self, record: MatchRecord, token: int) -> MatchOwner:
        """Own a match whose lease we just took: rebuild it from the store (deadlines that
        passed meanwhile resolve at their own times), store what that resolved, start its
        clock. A mirror keeps its sockets: it becomes the owner in place."""
        try:
            fresh = await self.matches.rebuild(record)
        except Exception:
            # Hold no lease on a match this process cannot run (another may, or an operator
            # will see the logged reason); renewing it would freeze the match forever.
            await self.matches.store.lease_release(self.matches.process_id, [record.id])
            raise
        fence = (self.matches.process_id, token)
        owner = self.matches.owners.get(record.id)
        if owner is None:
            owner = fresh
            owner.fence = fence
            owner.on_lost = self.lost
            self.matches.owners[record.id] = owner
            self.matches.hold(owner)
            async with owner.lock:
                await owner._commit()
        else:
            await owner.stop()
            async with owner.lock:
                owner.record = record
                owner.match = fresh.match
                owner.persisted = fresh.persisted
                owner.bots = fresh.bots
                owner.levels = fresh.levels
                owner.tracker = fresh.tracker
                owner.pending.clear()
                owner._status = record.status
                owner.fence = fence
                owner.mirror = False
                await owner._commit()
                owner._schedule_notify()
            self.matches.hold(owner)  # a mirror is not followed: as an owner, its children are
        owner.start()
        self.takeovers.append((record.id, time.time()))
        log.info("process %s owns match %s (token %d)", self.matches.process_id[:8], record.id,
                 token)
        return owner

    def lost(self, owner: MatchOwner) -> None:
        self.mark_dirty(owner.record.id, record=True)

    async def ensure_owner(self, match_id: str) -> MatchOwner | Lease | None:
        """For a command: this process's owner of the match (taking the lease if it is free
        or lapsed), else the lease of the live process that owns it (to forward to), else
        None (no such match)."""
        owner = await self.matches.get(match_id)
        if owner is None or not self.matches.cluster or not owner.mirror:
            return owner
        async with self.matches.loading:
            owner = self.matches.owners.get(match_id)
            if owner is not None and not owner.mirror:
                return owner
            token = await self.take(match_id)
            if token is None:
                return await self.matches.store.lease(match_id)
            record = await self.matches.store.get_match(match_id)
            if record is None:
                return None
            try:
                return await self.promote(record, token)
            except rebuild.ResumeFailed as exc:
                self.matches.quarantine(record, str(exc))
                raise rebuild.quarantine_error(str(exc)) from None

    def start(self) -> None:
        """Start renewing leases, taking over lapsed ones, and following other processes'
        appends (PostgreSQL only)."""
        loop = asyncio.get_running_loop()
        self.matches.tasks.append(loop.create_task(self._lease_loop(), name="arena-leases"))
        self.matches.tasks.append(loop.create_task(self._refresh_loop(), name="arena-mirrors"))
        self._listener = threading.Thread(target=self._listen, args=(loop,), daemon=True,
                                          name="arena-listen")
        self._listener.start()

    async def _lease_loop(self) -> None:
        while True:
            try:
                await self._lease_round()
            except asyncio.CancelledError:
                raise
            except StoreUnavailable:
                pass  # logged once by the store; leases are renewed once it is back
            except Exception:
                log.exception("lease round failed")
            await asyncio.sleep(RENEW_SECONDS)

    async def _lease_round(self) -> None:
        held = await self.matches.store.lease_renew(self.matches.process_id, LEASE_SECONDS)
        done: list[str] = []
        for match_id, owner in list(self.matches.owners.items()):
            if owner.mirror:
                if owner.subscribers:
                    self.mark_dirty(match_id)  # a missed notification costs one second
                continue
            if owner.fence is not None and held.get(match_id) != owner.fence[1]:
                log.warning("match %s: the lease went to another process", match_id)
                async with owner.lock:
                    owner.lose()
            elif owner.match.finished:
                done.append(match_id)
                async with owner.lock:
                    owner.lose()
        if done:
            await self.matches.store.lease_release(self.matches.process_id, done)
        for match_id in await self.matches.store.lapsed_running():
            if match_id in self.matches.quarantined:
                continue  # logged once; a restart tries again
            try:
                await self.ensure_owner(match_id)
            except ApiError:
                continue  # quarantined just now (logged there)
            except DamagedRow as exc:  # its stored row or log cannot be read
                self.matches.quarantine(exc.key, exc.reason)
            except Exception:
                log.exception("taking over match %s failed", match_id)

    def mark_dirty(self, match_id: str, *, record: bool = False) -> None:
        self._dirty[match_id] = self._dirty.get(match_id, False) or record
        self._dirty_event.set()

    def _on_notify(self, payload: str) -> None:
        match_id, _, what = payload.rpartition(":")
        owner = self.matches.owners.get(match_id)
        if owner is None or not owner.mirror:
            return
        if what == "record":
            self.mark_dirty(match_id, record=True)
        elif what.isdigit() and int(what) > owner.persisted:
            self.mark_dirty(match_id)

    async def _refresh_loop(self) -> None:
        while True:
            await self._dirty_event.wait()
            self._dirty_event.clear()
            dirty, self._dirty = self._dirty, {}
            for match_id, record in dirty.items():
                owner = self.matches.owners.get(match_id)
                if owner is None or not owner.mirror:
                    continue
                try:
                    await self.refresh(owner, record=record)
                except asyncio.CancelledError:
                    raise
                except StoreUnavailable:
                    self._dirty[match_id] = self._dirty.get(match_id, False) or record
                except Exception:
                    log.exception("refreshing the mirror of match %s failed", match_id)

    async def refresh(self, owner: MatchOwner, *, record: bool = False) -> None:
        """Bring a mirror to the stored log and tell its viewers; after a host's change also
        reload the match row and close the pages of links that stopped working."""
        async with owner.lock:
            if not owner.mirror:
                return
            new = await self.matches.store.events(owner.record.id, since=owner.persisted)
            if any(e.kind == "host_note" for e in new):
                record = True
            if record:
                await self._reload_record(owner)
            if not new:
                return
            try:
                owner.absorb(new)
            except ValueError:
                fresh = await rebuild.mirror(self.matches.store, owner.record)
                owner.match, owner.persisted = fresh.match, fresh.persisted
                owner._schedule_notify()

    async def _reload_record(self, owner: MatchOwner) -> None:
        # A host's change may have replaced a link: stop trusting cached tokens of the match
        # (its owner process did so itself when it replaced the link).
        self.matches.store.forget_tokens(owner.record.id)
        record = await self.matches.store.get_match(owner.record.id)
        if record is None:
            return
        rematch = record.settings.get("rematch")
        if rematch and rematch != owner.record.settings.get("rematch"):
            owner.broadcast({"type": "rematch", "match": rematch})
        owner.record = record
        owner.set_seats(record)
        closed = record.settings.get("spectators") is False
        for sub in list(owner.subscribers):
            if not sub.token or sub.revoked:
                continue
            tok = await self.matches.store.token(sub.token)
            if tok is None:
                owner.revoke({sub.token}, "this link was replaced by the host")
            elif tok.role == "spectator" and closed:
                owner.revoke({sub.token}, "the host closed this match to spectators")

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """A thread: LISTEN on the store's channel and hand each notification to the loop."""
        import psycopg

        url = self.matches.store.listen_url()
        while not self._stop.is_set():
            try:
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            loop.call_soon_threadsafe(self._on_notify, note.payload)
            except Exception as exc:  # the database restarting: listen again
                if self._stop.is_set() or loop.is_closed():
                    return
                # An outage is logged once, by the store.
                if not self.matches.store.note_failure(exc):
                    log.warning("listening for match changes failed (%s); retrying", exc)
                time.sleep(1.0)
