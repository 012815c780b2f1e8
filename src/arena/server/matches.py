"""All matches the server knows: creating them, and rebuilding them from the store.

On start every running match is rebuilt with :meth:`Match.replay` from its stored input
events; a deadline that passed while the server was down resolves at once, at its own time
(the runner guarantees that), so the rebuilt match is the one that would have run uninterrupted.

That rebuilding runs in the background once the server is serving (issue 25 point 2: a match
that took minutes to rebuild held the whole start-up), in slices with other requests served
between them; a match that fails to rebuild, or takes longer than :data:`RESUME_SECONDS` of
work or more than :data:`RESUME_EVENTS` new entries, is *quarantined*: its page and API say so,
the log has one line for it, and everything else goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import secrets
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Any

from arena.core import rng as rngmod
from arena.core import settings as schema
from arena.core.clock import SystemClock
from arena.core.errors import RuleError
from arena.core.match import INPUT_KINDS, Match, MatchSettings
from arena.core.registry import get_game
from arena.server import announce, extras, season_import
from arena.server.children import Children
from arena.server.errors import ApiError
from arena.server.owner import MatchOwner
from arena.server.requests import CreateMatch, HostSettings, SeatEntry, validate
from arena.store import CHANNEL, DamagedRow, Lease, MatchRecord, StoreUnavailable, TokenRecord
from arena.store.asyncstore import AsyncStore

log = logging.getLogger("arena.server")

LEASE_SECONDS = float(os.environ.get("ARENA_LEASE_SECONDS", "4"))
"""How long a process owns a match without renewing (PostgreSQL, issue 20): the longest a
dead process's matches wait before another process takes them over."""

RENEW_SECONDS = float(os.environ.get("ARENA_RENEW_SECONDS", "1"))
"""How often leases are renewed and lapsed ones looked for."""

RESUME_SECONDS = float(os.environ.get("ARENA_RESUME_SECONDS", "10"))
"""The most work (seconds of the event loop, the requests served between slices not counted)
that rebuilding one match may take; past it the match is quarantined."""

RESUME_EVENTS = int(os.environ.get("ARENA_RESUME_EVENTS", "100000"))
"""The most entries rebuilding a match may add to its stored log (the deadlines that passed
while the server was down); past it the match is quarantined."""


def _positive(name: str, default: float) -> float:
    raw = os.environ.get(name, "")
    try:
        value = float(raw) if raw else default
    except ValueError:
        return default
    return value if value > 0 else default


KEEP_SECONDS = _positive("ARENA_KEEP_SECONDS", 30.0)
"""How long a finished match (or a mirror) nobody watches stays in memory after its last use
(``ARENA_KEEP_SECONDS``). Past it, the match leaves memory and is rebuilt from its stored log
the next time someone asks for it: memory follows what is live, not how many matches the
server has ever run."""

SWEEP_SECONDS = _positive("ARENA_SWEEP_SECONDS", 5.0)
"""How often the matches that may leave memory are looked for."""

LIVE_PER_ADDRESS = int(_positive("ARENA_LIVE_PER_ADDRESS", 30))
"""Running matches one client address may have created and not yet finished
(``ARENA_LIVE_PER_ADDRESS``): a club's host runs a few tables at once, not hundreds. The
creation rate limit alone let one client keep a hundred matches running."""

LIVE_RETRY_SECONDS = 30


class ResumeFailed(Exception):
    """A match could not be rebuilt from its stored log; the message says why, plainly."""


def quarantine_text(reason: str) -> str:
    """What a request for a quarantined match answers, and its page shows."""
    return (f"this match could not be resumed: {reason}. The rest of the server goes on; a "
            "restart tries again")


def quarantine_error(reason: str) -> ApiError:
    return ApiError(503, "", quarantine_text(reason))


@dataclass(frozen=True)
class Created:
    """A new match and its secret tokens."""

    owner: MatchOwner
    seat_tokens: tuple[str, ...]
    spectator_token: str
    host_token: str


def new_token() -> str:
    return secrets.token_urlsafe(18)


def parse_request(body: CreateMatch | Any
                  ) -> tuple[str, int, list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    """Check a create-match request and normalise it: the model of ``POST /api/matches``, or
    its JSON as a dict (a rematch, a season's match), checked by the same model. The model has
    checked each field's type and bounds; what needs the game is checked here: its seat
    count, its options and the whole match's work."""
    request = validate(CreateMatch, body)
    name = request.game
    game = get_game(name)
    if request.seed is None or request.seed == "":
        seed = rngmod.fresh_seed()  # G-12: 64 bits from a cryptographic source
    else:
        try:
            seed = rngmod.parse_seed(request.seed)
        except ValueError as exc:
            raise RuleError("G-7", str(exc)) from None
    entries = request.seats if request.seats is not None else [SeatEntry()] * game.seats
    if game.seat_range is not None:
        low, high = game.seat_range
        if not low <= len(entries) <= high:
            raise RuleError("SE-1", f"{game.title} has {low} to {high} seats; give one entry "
                                    "for each")
    elif len(entries) != game.seats:
        raise RuleError("G-8", f"{game.title} has {game.seats} seats; give one entry for each")
    seats: list[dict[str, Any]] = []
    for i, seat in enumerate(entries):
        seat_name = " ".join((seat.name or "").split()) or game.default_seat_name(i, seat.bot)
        seats.append({"name": seat_name, "bot": seat.bot,
                      "level": seat.level if seat.bot else "hard"})
    host = request.settings or HostSettings()
    # The game sees the seats it is created with: their count and names (SE-1, LO-10).
    config_raw = game.config_for_seats(dict(request.config or {}), [s["name"] for s in seats])
    config = game.make_config(config_raw)  # raises RuleError naming G-5 and the field
    # The whole match's work is bounded: every phase lasts long enough after the time scale
    # and the phases are few enough (issue 25 point 1).
    schema.check_game_config(game, config, host.time_scale)
    settings_json = host.to_json()  # ``spectators`` is the server's, not the engine's
    settings_json["webhook"] = announce.webhook_setting(host.webhook)  # G-14: allowed hosts
    return name, seed, seats, settings_json, dict(config_raw)


def _current(owner: MatchOwner) -> MatchRecord:
    record = owner.record
    m = owner.match
    if m.finished and record.status != "finished":
        result = None if m.result is None else m.result.to_json()
        record = dataclasses.replace(record, status="finished", result=result)
    return record


class Matches:
    """The registry of match owners of one server process.

    On SQLite one process owns every match. On PostgreSQL several processes may share the
    database (issue 20): each live match has one owner, holding a lease (``match_leases``)
    that it renews every :data:`RENEW_SECONDS` and whose fencing token every append checks;
    the other processes keep read-only mirrors, refreshed from the event table when
    PostgreSQL notifies an append, and send commands on to the owner (:mod:`cluster`). A
    lapsed lease (its process died) is taken over by whichever process sees it first.
    """

    def __init__(self, store: AsyncStore, process_url: str | None = None) -> None:
        self.store = store
        self.owners: dict[str, MatchOwner] = {}
        self.creating: set[str] = set()
        """Matches being created: stored as running before their owner is in ``owners``, so
        the start-up resume (which lists the running matches) must leave them alone, or a
        second owner would write the same log entries (found by test_starve under load)."""
        self._loading = asyncio.Lock()
        self.cluster = not store.is_sqlite
        self.process_id = uuid.uuid4().hex
        self.process_url = process_url
        self._tasks: list[asyncio.Task[None]] = []
        self._dirty: dict[str, bool] = {}  # mirrors to refresh; True: reload the record too
        self._dirty_event = asyncio.Event()
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        self.takeovers: list[tuple[str, float]] = []  # (match id, when): for tests and logs
        self.quarantined: dict[str, str] = {}  # match id -> why it could not be rebuilt
        self.resuming: asyncio.Task[None] | None = None  # the start-up's background rebuild
        self.converting: asyncio.Task[None] | None = None
        """The start-up's conversion of the seasons the old season engine stored."""
        self.creators: dict[str, str] = {}
        """Running matches created through this process -> the client address that created
        them (kept in memory only, never stored): bounds what one address keeps running."""
        self.evicted = 0  # how many matches left memory so far (for tests and benches)
        self.children = Children(self)
        store.on_change(self._store_changed)

    # ------------------------------------------------------------------ outages (issue 25)
    def _store_changed(self, ok: bool) -> None:
        """Tell every open page whether commands are taken (the page shows or drops its
        banner); once the database is back, store what an outage left unwritten."""
        for owner in list(self.owners.values()):
            owner.broadcast({"type": "store", "ok": ok})
            if ok:
                owner.wake()
        if ok and any(o.unsaved_status for o in self.owners.values()):
            task = asyncio.get_running_loop().create_task(self._save_statuses())
            self._tasks.append(task)
            task.add_done_callback(self._forget_task)

    def _forget_task(self, task: asyncio.Task[None]) -> None:
        if task in self._tasks:
            self._tasks.remove(task)

    async def _save_statuses(self) -> None:
        for owner in list(self.owners.values()):
            if owner.unsaved_status:
                async with owner.lock:
                    with contextlib.suppress(Exception):  # down again: the next recovery tries
                        await owner._commit()

    def _held(self, owner: MatchOwner) -> None:
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
        request from outside) is held to :data:`LIVE_PER_ADDRESS` running matches.
        ``record_settings``: the record's own, no request's (a season's name, G-14)."""
        # The game's own step at creation (LF-12: a library scenario or a generated one is
        # copied into the config, so the record holds it).
        body = await extras.prepare_create(self.store, body)
        name, seed, seats, settings_json, config_raw = parse_request(body)
        settings_json.update(record_settings or {})
        game = get_game(name)
        config = game.make_config(config_raw)
        settings = MatchSettings.from_json(settings_json)
        match_id = secrets.token_hex(6)
        start = time.time()
        match = Match(game, config, seed, SystemClock(), settings, start=start,
                      names=[s["name"] for s in seats])
        record = MatchRecord(
            id=match_id, game=name, config=config_raw, seed=seed, settings=settings_json,
            start=start, seat_names=tuple(s["name"] for s in seats),
            bots=tuple(s["bot"] for s in seats), status="running", created=start,
            levels=tuple(s["level"] for s in seats),
        )
        seat_tokens = tuple(new_token() for _ in seats)
        spectator, host = new_token(), new_token()
        tokens = [TokenRecord(tok, match_id, "seat", i) for i, tok in enumerate(seat_tokens)]
        tokens += [TokenRecord(spectator, match_id, "spectator"),
                   TokenRecord(host, match_id, "host")]
        if creator is not None:
            # Checked and counted with no wait between, so requests arriving together
            # cannot all pass the check before any of them is counted.
            self.check_creator(creator)
            self.creators[match_id] = creator
        self.creating.add(match_id)
        try:
            return await self.store_new(record, tokens, match, seat_tokens, spectator, host)
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
        self._held(owner)
        owner.start()
        return Created(owner, seat_tokens, spectator, host)

    async def rebuild(self, record: MatchRecord) -> MatchOwner:
        """A match from its stored inputs, brought to now (passed deadlines resolve at once).

        Rebuilt in slices, yielding to other requests between them; raises
        :class:`ResumeFailed` (naming the reason) when it cannot be rebuilt, or not within
        :data:`RESUME_SECONDS` of work and :data:`RESUME_EVENTS` new entries."""
        try:
            game = get_game(record.game)
            config = game.config_from_record(record.config)
            settings = MatchSettings.from_json(record.settings)
        except (RuleError, TypeError, ValueError, KeyError) as exc:
            raise ResumeFailed(f"its stored settings are not valid ({exc})") from None
        stored = await self.store.events(record.id)
        inputs = [e for e in stored if e.kind in INPUT_KINDS]
        steps = Match.replaying(game, config, record.seed, settings, record.start, inputs,
                                SystemClock(), names=record.seat_names)
        most = len(stored) + RESUME_EVENTS
        spent = 0.0
        while True:
            began = time.perf_counter()
            try:
                so_far = next(steps)
            except StopIteration as done:
                match: Match = done.value
                break
            except Exception as exc:
                raise ResumeFailed(f"replaying its stored log failed "
                                   f"({type(exc).__name__}: {exc})"[:300]) from None
            finally:
                spent += time.perf_counter() - began
            if spent > RESUME_SECONDS:
                raise ResumeFailed(f"rebuilding it took more than {RESUME_SECONDS:g} s of work")
            if len(so_far.log) > most:
                raise ResumeFailed(f"rebuilding it added more than {RESUME_EVENTS} entries "
                                   "to its log")
            await asyncio.sleep(0)
        for old, new in zip(stored, match.log, strict=False):
            if (old.version, old.kind, old.t) != (new.version, new.kind, new.t):
                log.warning("match %s: replay differs from the stored log at version %d",
                            record.id, old.version)
                break
        persisted = stored[-1].version if stored else 0
        if persisted > match.version:
            raise ResumeFailed("its replay is shorter than its stored log")
        return MatchOwner(record, match, self.store, persisted)

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

    async def _mirror(self, record: MatchRecord) -> MatchOwner:
        """A read-only copy of a match another process owns: the stored log exactly."""
        game = get_game(record.game)
        stored = await self.store.events(record.id)
        inputs = [e for e in stored if e.kind in INPUT_KINDS]
        until = stored[-1].t if stored else record.start
        match = Match.replay(game, game.config_from_record(record.config), record.seed,
                             MatchSettings.from_json(record.settings), record.start, inputs,
                             SystemClock(), until=until, names=record.seat_names)
        persisted = stored[-1].version if stored else 0
        if match.version != persisted:
            log.warning("match %s: the mirror's replay has %d entries, the store %d",
                        record.id, match.version, persisted)
        return MatchOwner(record, match, self.store, persisted, mirror=True)

    def start_resuming(self) -> None:
        """Rebuild the running matches in the background: the server serves meanwhile; and
        from then on let the matches nobody needs leave memory (:meth:`sweep`)."""
        loop = asyncio.get_running_loop()
        # Old seasons become matches first, so the resume finds them among the running.
        self.converting = loop.create_task(season_import.convert_all(self),
                                           name="arena-convert")
        self._tasks.append(self.converting)
        self.resuming = loop.create_task(self.resume_all(), name="arena-resume")
        self._tasks.append(self.resuming)
        self._tasks.append(loop.create_task(self._sweep_loop(), name="arena-sweep"))

    # ------------------------------------------------------------------ memory
    def check_creator(self, address: str) -> None:
        """Refuse a new match to an address that already keeps :data:`LIVE_PER_ADDRESS`
        matches running (429, with when to try again)."""
        for match_id in [m for m, a in self.creators.items() if a == address]:
            owner = self.owners.get(match_id)
            if match_id in self.creating:
                continue  # being stored right now: counted
            if owner is None or owner.match.finished or owner.mirror:
                del self.creators[match_id]
        live = sum(1 for a in self.creators.values() if a == address)
        if live >= LIVE_PER_ADDRESS:
            refused = ApiError(429, "rate",
                               f"this address already has {live} matches running (at most "
                               f"{LIVE_PER_ADDRESS}); end or finish one first")
            refused.retry_after = LIVE_RETRY_SECONDS
            raise refused

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
            async with self._loading:  # not while a request is rebuilding it
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
                async with self._loading:
                    await self._resume(record)
            except ResumeFailed as exc:
                self.quarantine(record, str(exc))
            except DamagedRow as exc:  # its stored log cannot be read
                self.quarantine(exc.key, exc.reason)
            except Exception as exc:  # not the match's fault (the store): a request retries
                log.error("match %s could not be resumed yet: %s: %s", record.id,
                          type(exc).__name__, exc)

    async def _resume(self, record: MatchRecord) -> None:
        """(Under ``_loading``.) Rebuild one running match and start its clock."""
        if (record.id in self.owners or record.id in self.quarantined
                or record.id in self.creating):
            return  # a request loaded it first, or it is being created right now
        if self.cluster:
            token = await self.store.lease_acquire(
                record.id, self.process_id, self.process_url, LEASE_SECONDS,
                steal_from_url=True)
            if token is not None:
                await self._promote(record, token)
            return
        owner = await self.rebuild(record)
        if record.id in self.owners or record.id in self.creating:
            return  # created or loaded while this rebuild ran: that owner stands
        self.owners[record.id] = owner
        self._held(owner)
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
        async with self._loading:
            owner = self.owners.get(match_id)
            if owner is not None:
                self.touch(owner)
                return owner
            self.check_quarantine(match_id)
            record = await self.store.get_match(match_id)
            if record is None:
                return None
            if self.cluster:
                return await self._load_clustered(record)
            try:
                owner = await self.rebuild(record)
            except ResumeFailed as exc:
                self.quarantine(record, str(exc))
                raise quarantine_error(str(exc)) from None
            self.owners[match_id] = owner
            self._held(owner)
            async with owner.lock:
                await owner._commit()
            owner.start()
            return owner

    async def shutdown(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        self._stop.set()
        for owner in list(self.owners.values()):
            await owner.stop()
        if self.cluster:
            # A clean stop hands its matches over at once instead of after the lease.
            with contextlib.suppress(Exception):
                await self.store.lease_release(self.process_id)
        if self._listener is not None:
            self._listener.join(timeout=3)

    # ------------------------------------------------------------------ many processes
    async def _load_clustered(self, record: MatchRecord) -> MatchOwner | None:
        """(Under ``_loading``.) A running match whose lease is free becomes ours; any other
        is mirrored (a finished one too: a later command takes its lease)."""
        try:
            if record.status == "running":
                token = await self.store.lease_acquire(
                    record.id, self.process_id, self.process_url, LEASE_SECONDS,
                    steal_from_url=True)
                if token is not None:
                    return await self._promote(record, token)
            owner = await self._mirror(record)
        except RuleError:
            return None
        except ResumeFailed as exc:
            self.quarantine(record, str(exc))
            raise quarantine_error(str(exc)) from None
        owner.on_lost = self._lost
        self.owners[record.id] = owner
        self._held(owner)
        return owner

    async def _promote(self, record: MatchRecord, token: int) -> MatchOwner:
        """Own a match whose lease we just took: rebuild it from the store (deadlines that
        passed meanwhile resolve at their own times), store what that resolved, start its
        clock. A mirror keeps its sockets: it becomes the owner in place."""
        try:
            fresh = await self.rebuild(record)
        except Exception:
            # Hold no lease on a match this process cannot run (another may, or an operator
            # will see the logged reason); renewing it would freeze the match forever.
            await self.store.lease_release(self.process_id, [record.id])
            raise
        fence = (self.process_id, token)
        owner = self.owners.get(record.id)
        if owner is None:
            owner = fresh
            owner.fence = fence
            owner.on_lost = self._lost
            self.owners[record.id] = owner
            self._held(owner)
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
            self._held(owner)  # a mirror is not followed: as an owner, its children are
        owner.start()
        self.takeovers.append((record.id, time.time()))
        log.info("process %s owns match %s (token %d)", self.process_id[:8], record.id, token)
        return owner

    def _lost(self, owner: MatchOwner) -> None:
        self.mark_dirty(owner.record.id, record=True)

    async def ensure_owner(self, match_id: str) -> MatchOwner | Lease | None:
        """For a command: this process's owner of the match (taking the lease if it is free
        or lapsed), else the lease of the live process that owns it (to forward to), else
        None (no such match)."""
        owner = await self.get(match_id)
        if owner is None or not self.cluster or not owner.mirror:
            return owner
        async with self._loading:
            owner = self.owners.get(match_id)
            if owner is not None and not owner.mirror:
                return owner
            token = await self.store.lease_acquire(match_id, self.process_id,
                                                   self.process_url, LEASE_SECONDS,
                                                   steal_from_url=True)
            if token is None:
                return await self.store.lease(match_id)
            record = await self.store.get_match(match_id)
            if record is None:
                return None
            try:
                return await self._promote(record, token)
            except ResumeFailed as exc:
                self.quarantine(record, str(exc))
                raise quarantine_error(str(exc)) from None

    def start_cluster(self) -> None:
        """Start renewing leases, taking over lapsed ones, and following other processes'
        appends (PostgreSQL only)."""
        if not self.cluster:
            return
        loop = asyncio.get_running_loop()
        self._tasks.append(loop.create_task(self._lease_loop(), name="arena-leases"))
        self._tasks.append(loop.create_task(self._refresh_loop(), name="arena-mirrors"))
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
        held = await self.store.lease_renew(self.process_id, LEASE_SECONDS)
        done: list[str] = []
        for match_id, owner in list(self.owners.items()):
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
            await self.store.lease_release(self.process_id, done)
        for match_id in await self.store.lapsed_running():
            if match_id in self.quarantined:
                continue  # logged once; a restart tries again
            try:
                await self.ensure_owner(match_id)
            except ApiError:
                continue  # quarantined just now (logged there)
            except DamagedRow as exc:  # its stored row or log cannot be read
                self.quarantine(exc.key, exc.reason)
            except Exception:
                log.exception("taking over match %s failed", match_id)

    def mark_dirty(self, match_id: str, *, record: bool = False) -> None:
        self._dirty[match_id] = self._dirty.get(match_id, False) or record
        self._dirty_event.set()

    def _on_notify(self, payload: str) -> None:
        match_id, _, what = payload.rpartition(":")
        owner = self.owners.get(match_id)
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
                owner = self.owners.get(match_id)
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
            new = await self.store.events(owner.record.id, since=owner.persisted)
            if any(e.kind == "host_note" for e in new):
                record = True
            if record:
                await self._reload_record(owner)
            if not new:
                return
            try:
                owner.absorb(new)
            except ValueError:
                fresh = await self._mirror(owner.record)
                owner.match, owner.persisted = fresh.match, fresh.persisted
                owner._schedule_notify()

    async def _reload_record(self, owner: MatchOwner) -> None:
        # A host's change may have replaced a link: stop trusting cached tokens of the match
        # (its owner process did so itself when it replaced the link).
        self.store.forget_tokens(owner.record.id)
        record = await self.store.get_match(owner.record.id)
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
            tok = await self.store.token(sub.token)
            if tok is None:
                owner.revoke({sub.token}, "this link was replaced by the host")
            elif tok.role == "spectator" and closed:
                owner.revoke({sub.token}, "the host closed this match to spectators")

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """A thread: LISTEN on the store's channel and hand each notification to the loop."""
        import psycopg

        url = self.store.listen_url()
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
                if not self.store.note_failure(exc):  # an outage is logged once, by the store
                    log.warning("listening for match changes failed (%s); retrying", exc)
                time.sleep(1.0)
