"""One owner per live match: one command at a time, persisted before it is answered.

The owner holds the :class:`~arena.core.match.Match`, an asyncio lock (the lichess habit of one
actor per game), the store, the viewers connected over WebSocket, and the scheduler task that
calls :meth:`Match.advance` at :meth:`Match.next_deadline` and lets bots act. Every command ends
with :meth:`_commit`, which appends the new log entries to the store (so no accepted
submission is ever lost) and then notifies the viewers.

The append is awaited in the store's thread with the lock still held: the
next command of the match waits for it, so appends stay in order and a command is answered
only once its entries are stored, while other matches go on meanwhile. During that wait the
match in memory is ahead of the database, so nothing is sent to viewers then (:meth:`_notify`
waits for the commit to end, which rolls memory back if the write failed).

While the database is down a command is refused before it touches the
match (503, :class:`~arena.server.errors.StoreDown`), the clock and the bots wait (the
deadlines that pass meanwhile resolve at their own times once it is back, as after a
restart), and reads go on from memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, NoReturn, TypeVar

from arena.core.clock import ManualClock
from arena.core.driver import BotError, BotMove, BotTracker, bot_apply, bots_to_think
from arena.core.game import BOT_LEVELS, DEFAULT_LEVEL, BotLevel
from arena.core.match import INPUT_KINDS, Event, Match, Viewer
from arena.server import announce, thinkers
from arena.server.errors import Moved, StoreDown
from arena.server.pace import human_wait
from arena.server.replay_cache import ReplayCache
from arena.server.tasks import stop_task
from arena.server.ticker import ticker
from arena.server.views import Subscriber, fan_out, update_for
from arena.store import LeaseLost, MatchRecord, StoreUnavailable
from arena.store.asyncstore import AsyncStore

log = logging.getLogger("arena.server")

T = TypeVar("T")

STEP_DEADLINES = 100
"""The most deadlines one scheduler step resolves before it lets other work run."""


def _level(name: str) -> BotLevel:
    """A stored level as the engine's type (a name the store does not know plays ``hard``)."""
    for level in BOT_LEVELS:
        if level == name:
            return level
    return DEFAULT_LEVEL


class MatchOwner:
    """The single owner of a live match, or (on a shared PostgreSQL database) a
    read-only *mirror* of a match another process owns: a mirror never runs the clock or
    writes; it follows the stored log (:meth:`absorb`) and serves reads and sockets."""

    def __init__(self, record: MatchRecord, match: Match, store: AsyncStore, persisted: int, *,
                 fence: tuple[str, int] | None = None, mirror: bool = False) -> None:
        self.record = record
        # The lease this process holds on the match (owner id, fencing token), checked by
        # every append; None on SQLite (one process) and for mirrors.
        self.fence = fence
        self.mirror = mirror
        self.on_lost: Callable[[MatchOwner], None] | None = None
        # A parent match's follower (server.children): told after each stored change; and a
        # child's parent's, told once the child has finished.
        self.after_commit: Callable[[MatchOwner], None] | None = None
        self.on_finished: Callable[[MatchOwner], None] | None = None
        self.match = match
        self.store = store
        self.persisted = persisted
        self.bots: frozenset[int] = frozenset()
        self.levels: dict[int, BotLevel] = {}
        self.set_seats(record)
        self.lock = asyncio.Lock()
        self.subscribers: set[Subscriber] = set()
        self.tracker = BotTracker()
        self.bot_errors: list[str] = []
        # G-11: decided bot moves waiting for their drawn human time, by seat: (wait, move),
        # the wait in real seconds after the phase start. Kept relative, so a pause (which
        # shifts the phase start) holds the bot for as long as it holds the clock; never
        # stored, since a restarted owner draws the same wait again from the match's chance.
        self.pending: dict[int, tuple[float, BotMove]] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._status = record.status
        self._notify_pending = False
        self.replay_cache = ReplayCache()
        # When a request last asked for this match (monotonic): a finished match leaves
        # memory some time after its last use (Matches.sweep).
        self.last_used = time.monotonic()

    # ------------------------------------------------------------------ commands
    async def command(self, fn: Callable[[Match], T]) -> T:
        """Run ``fn`` on the match under the lock; persist and broadcast whatever it logged,
        even when it raised (a submission may resolve a passed deadline before failing)."""
        async with self.lock:
            self.check_owned()
            if self.store.down:  # nothing is applied that could not be stored
                raise StoreDown()
            try:
                return fn(self.match)
            finally:
                await self._commit()
                self._wake.set()

    def check_owned(self) -> None:
        """Refuse a change on a mirror: the caller sends it on to the owner."""
        if self.mirror:
            raise Moved(self.record.id)

    async def read(self, fn: Callable[[Match], T]) -> T:
        """Read under the lock, so no reader sees a half-applied command or bot move."""
        async with self.lock:
            return fn(self.match)

    async def _commit(self) -> None:
        """(Under the lock.) Store what the match logged since the last commit, then let the
        viewers know; on a failed write put the match back as the store has it."""
        if self.mirror:  # never written from a mirror: the owner process writes
            if self.match.version > self.persisted:
                self._roll_back()
            raise Moved(self.record.id)
        new = self.match.log[self.persisted:]
        if new:
            try:
                await self.store.append_events(self.record.id, new, self.fence)
            except LeaseLost:
                # Another process took the match over (this one stalled past its lease): the
                # log it continues is the stored one; this process becomes a mirror.
                self._roll_back()
                self._schedule_notify()
                self._taken_over()
            except StoreUnavailable:
                # The database is down: the store logged it once; no traceback per command.
                self._roll_back()
                self._schedule_notify()
                raise StoreDown() from None
            except Exception as exc:
                # Memory must not run ahead of the database: put the
                # match back as the store has it, and answer that nothing was applied.
                log.exception("match %s: storing %d events failed", self.record.id, len(new))
                self._roll_back()
                self._schedule_notify()  # a broadcast held back meanwhile goes out now
                raise StoreDown() from exc
            self.persisted = new[-1].version
            self.match.checkpoint()  # replay views start near any version
            # G-14: the public news of these entries, now that they are stored, to the host's
            # webhook (queued: a slow webhook never holds the match).
            announce.announce_match(self.record.settings.get("webhook"), self.record.id,
                                    self.match, self.record.seat_names, new, self.record.settings)
            for e in new:
                if e.kind == "server_pause":  # G-5: the match ran too fast; the host is told
                    log.warning("match %s paused: %s", self.record.id, self.match.pause_reason)
        if self.match.finished and self._status != "finished":
            result = None if self.match.result is None else self.match.result.to_json()
            try:
                await self.store.set_status(self.record.id, "finished", result, self.fence)
            except LeaseLost:
                # The events are stored (the command stands); the new owner rebuilds the
                # match from them and marks it finished itself.
                self.lose()
                return
            except StoreUnavailable:
                # The events are stored (the command stands); the status is written by the
                # next commit, which :meth:`Matches` runs when the database is back.
                if new:
                    self._schedule_notify()
                return
            self._status = "finished"
            if self.on_finished is not None:
                self.on_finished(self)
        if new:
            self._schedule_notify()
            if self.after_commit is not None:
                self.after_commit(self)

    async def write(self, fn: Callable[[tuple[str, int] | None], Awaitable[T]]) -> T:
        """A store write outside the log (links, bot seats, settings) made under this
        process's lease: ``fn`` gets the fence. If another process has taken the match over,
        nothing is written and the caller's request goes on to the new owner (Moved)."""
        self.check_owned()
        try:
            return await fn(self.fence)
        except LeaseLost:
            self._taken_over()

    def _taken_over(self) -> NoReturn:
        """A fenced write found the lease in another process's hands: follow it as a mirror,
        and send the request on to the new owner."""
        log.warning("match %s: the lease was taken over; following the new owner",
                    self.record.id)
        self.lose()
        raise Moved(self.record.id) from None

    def lose(self) -> None:
        """Stop owning the match (its lease went to another process): no clock, no bots."""
        if self.mirror:
            return
        self.mirror = True
        self.fence = None
        self.pending.clear()
        task, self._task = self._task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        if self.on_lost is not None:
            self.on_lost(self)

    def absorb(self, stored: list[Event]) -> None:
        """Mirror: bring the match to the stored log, by re-applying the new inputs at their
        times and resolving the deadlines up to the last entry (as :meth:`Match.replay`)."""
        if not stored:
            return
        m = self.match
        if stored[0].version != self.persisted + 1 or m.version > self.persisted:
            raise ValueError("not the continuation of the mirrored log")
        live_clock = m.clock
        manual = ManualClock(m.log[-1].t if m.log else m.created_at)
        m.clock = manual
        try:
            for e in stored:
                if e.kind in INPUT_KINDS:
                    if e.t > manual.now():
                        manual.set(e.t)
                    m.apply_input(e)
            if stored[-1].t > manual.now():
                manual.set(stored[-1].t)
            if m.version < stored[-1].version:
                m.advance()
        finally:
            m.clock = live_clock
        mine = [(e.version, e.kind) for e in m.log[self.persisted:]]
        if mine != [(e.version, e.kind) for e in stored]:
            raise ValueError("the mirrored log differs from the stored one")
        self.persisted = stored[-1].version
        m.checkpoint()
        self._status = "finished" if m.finished else self._status
        self._schedule_notify()

    def _roll_back(self) -> None:
        """Rebuild the match from its persisted entries alone (G-7: the inputs and the seed
        rebuild everything), as it stood after the last successful write."""
        m = self.match
        kept = m.log[: self.persisted]
        inputs = [e for e in kept if e.kind in INPUT_KINDS]
        until = kept[-1].t if kept else m.created_at
        rebuilt = Match.replay(m.game, m.config, m.seed, m.settings, m.created_at, inputs,
                               m.clock, until=until, names=m.names)
        if [(e.version, e.kind) for e in rebuilt.log[: len(kept)]] != [
                (e.version, e.kind) for e in kept]:
            log.warning("match %s: the rebuilt log differs from the stored one", self.record.id)
        # Entries past the stored log (a deadline at that very moment) are real and are
        # stored by the next commit, since ``persisted`` still points at the stored end.
        self.match = rebuilt
        # Bot moves of the rolled-back entries are gone with them: those seats act again
        # (a bot's stored final move leaves its seat no longer waiting, so none acts twice).
        # Without this a bot whose move met an outage never acted again in that phase.
        self.tracker.acted = {(p, s) for p, s in self.tracker.acted if p < rebuilt.phase_no}

    # ------------------------------------------------------------------ viewers
    def subscribe(self, viewer: Viewer, since: int, token: str = "", *, svg: bool = True
                  ) -> Subscriber:
        """``since`` is the viewer's own version (what its page last saw, G-10)."""
        since = self.match.log_version_of(viewer, since)
        sub = Subscriber(viewer, since, token=token, svg=svg)
        self.subscribers.add(sub)
        message = update_for(self.record, self.match, viewer, since, svg=svg)
        sub.queue.put_nowait(message)
        sub.since = self.match.version
        sub.sent = message["view"]
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        self.subscribers.discard(sub)

    def revoke(self, tokens: set[str], reason: str) -> None:
        """Tell the open pages of these links that they stopped working (a reissued or
        replaced seat, spectating closed); their sockets then close."""
        for sub in list(self.subscribers):
            if sub.token in tokens and not sub.revoked:
                sub.revoked = True
                with contextlib.suppress(asyncio.QueueFull):
                    sub.queue.put_nowait({"type": "revoked", "reason": reason})

    def broadcast(self, message: dict[str, Any]) -> None:
        """A message with no secret in it for every open page (say, a rematch exists)."""
        for sub in list(self.subscribers):
            if not sub.revoked:
                with contextlib.suppress(asyncio.QueueFull):
                    sub.queue.put_nowait(message)

    def set_seats(self, record: MatchRecord) -> None:
        """Who plays which seat, and at what level (G-8), as the record says."""
        self.bots = frozenset(i for i, b in enumerate(record.bots) if b)
        self.levels = {i: _level(record.level(i)) for i in self.bots}

    def set_bots(self, bots: tuple[bool, ...], levels: tuple[str, ...] | None = None) -> None:
        self.record = dataclasses.replace(
            self.record, bots=bots, levels=self.record.levels if levels is None else levels)
        self.set_seats(self.record)
        for seat in [s for s in self.pending if s not in self.bots]:
            del self.pending[seat]
        self._wake.set()

    def _schedule_notify(self) -> None:
        """Broadcast after the command has answered: the sender does not wait for the views of
        every viewer. Several commits in a row make one broadcast."""
        if self._notify_pending:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a script): broadcast now
            self._notify()
            return
        self._notify_pending = True
        loop.call_soon(self._notify)

    def _notify(self) -> None:
        """Send each viewer what changed since it was last sent anything (:func:`fan_out`)."""
        self._notify_pending = False
        if self.match.version > self.persisted:
            # A commit is storing these entries right now: they may yet be rolled back, so
            # the viewers hear of them when it ends (it schedules the broadcast again).
            return
        fan_out(self.record, self.match, self.subscribers)

    # ------------------------------------------------------------------ scheduler
    def start(self) -> None:
        if self._task is None and not self.match.finished and not self.mirror:
            self._task = asyncio.get_running_loop().create_task(self._run(), name=self.record.id)

    async def stop(self) -> None:
        task, self._task = self._task, None
        await stop_task(task)

    def wake(self) -> None:
        self._wake.set()

    @property
    def unsaved_status(self) -> bool:
        """The match ended but its row still says running (the database went down then)."""
        return self.match.finished and self._status != "finished" and not self.mirror

    async def _run(self) -> None:
        while not self.match.finished and not self.mirror:
            self._wake.clear()
            if self.store.down:
                # Nothing can be stored: the clock and the bots wait for the database.
                await self.store.until_up()
                continue
            try:
                await self._step()
            except asyncio.CancelledError:
                raise
            except Moved:  # the lease went to another process: it runs the clock now
                break
            except StoreDown:
                # The database went down meanwhile: wait for it (above); a write that failed
                # for another reason (logged by the commit) is tried again a little later.
                if not self.store.down:
                    await asyncio.sleep(0.5)
                continue
            except Exception:  # a bug must not stop the clock of the match
                log.exception("scheduler step of match %s failed", self.record.id)
                await asyncio.sleep(0.5)
            if self.match.finished:
                break
            if self._bots_pending():
                continue
            moment = self.next_moment()
            if moment is None:
                await self._wake.wait()
                continue
            timer = ticker()
            entry = timer.wake_at(moment + 0.002, self._wake)
            try:
                await self._wake.wait()
            finally:
                timer.cancel(entry)

    async def _step(self) -> None:
        async with self.lock:
            if self.mirror or self.store.down:
                return
            try:
                # A slice at a time: a backlog of deadlines (a match rebuilt after a long
                # stop) never holds the event loop for long; _run comes straight back for
                # the rest, since those deadlines are already due.
                self.match.advance(budget=STEP_DEADLINES)
            finally:
                await self._commit()
            due = self._due_moves()
            if due:
                try:
                    self._bots_act(due)
                finally:
                    await self._commit()
            seats = self._seats_to_think()
            frozen = (self.match.state, self.match.phase_no)
        if not seats:
            return
        # Bots think on a frozen state outside the lock, so humans' commands (and reads) go on
        # meanwhile; a decision for a phase that has ended by then is dropped (bot_apply). The
        # search runs in a worker process, off the event loop's GIL (thinkers).
        moves = await thinkers.think(
            self.match.game, self.match.seed, frozen[0], frozen[1], seats, self.levels
        )
        async with self.lock:
            if self.mirror or self.store.down:
                return
            if self.match.settings.bot_pace == "instant":
                try:
                    self._bots_act(moves)
                finally:
                    await self._commit()
            else:
                for move in moves:
                    self.pending[move.seat] = (human_wait(self.match, move, frozen[0]), move)

    def next_moment(self) -> float | None:
        """When the scheduler next has work without a command, on the match's clock: the
        match's next deadline or the earliest due waiting bot move; None if neither."""
        moments = [t for t in (self.match.next_deadline(), *self._pending_dues())
                   if t is not None]
        return min(moments) if moments else None

    def _pending_dues(self) -> list[float]:
        """When the waiting bot moves are due; none while the match is paused (the resume
        wakes the scheduler, and shifts the phase start the waits count from)."""
        m = self.match
        if m.paused_at is not None:
            return []
        return [m.phase_start + wait for wait, move in self.pending.values()
                if move.phase_no == m.phase_no]

    def _due_moves(self) -> list[BotMove]:
        m = self.match
        now = m.clock.now()  # the server's clock is the wall clock; a test's is simulated
        stale = [seat for seat, (_, move) in self.pending.items() if move.phase_no != m.phase_no]
        for seat in stale:
            del self.pending[seat]
        if m.paused_at is not None or m.finished:
            return []
        due = [move for wait, move in self.pending.values() if m.phase_start + wait <= now]
        for move in due:
            del self.pending[move.seat]
        return due

    def _seats_to_think(self) -> list[int]:
        return [s for s in bots_to_think(self.match, self.bots, self.tracker)
                if s not in self.pending]

    def _bots_pending(self) -> bool:
        return bool(self._seats_to_think())

    def _bots_act(self, moves: list[BotMove]) -> None:
        try:
            bot_apply(self.match, moves, self.tracker)
        except BotError as exc:
            # A bot bug must not stall the match: its seat falls back on the clock.
            log.warning("%s", exc)
            self.bot_errors.append(str(exc))
