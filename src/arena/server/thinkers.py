"""Bots think in worker processes, so their search never holds the event loop.

A bot's search is pure Python: run in a thread, it holds the GIL against the event loop that
runs every match's clock, store writes and sockets (at 100 real-time matches with bots, tick
lateness p50 was 617 ms against 42 ms with idle seats, ``bench/README.md``). Here it runs in a
:class:`~concurrent.futures.ProcessPoolExecutor` shared by every match of the process: the
owner sends :func:`~arena.core.driver.bot_think`'s arguments (the game, the seed, the frozen
state, the phase number, the seats; all of them pickle, ``tests/server/test_thinkers.py``)
and gets the moves back. ``bot_think`` is pure and draws its chance from the seed, so a worker
decides exactly what the server's own process would (G-7, G-11).

The pool is made on the first decision and kept for the life of the process (its workers
start once, not per match); the app holds it while it runs and the last app to stop shuts it
down. Workers come from a *forkserver* (``spawn`` where there is none), never from ``fork``:
the server has threads, and a forked copy of a lock some thread held would never be released.
The forkserver imports the games once, so each worker starts in milliseconds.

``ARENA_BOT_WORKERS`` sets the number of workers; ``0`` thinks in the event loop's default
thread pool, as before this module. If a worker dies (the pool is then broken), the decision
is made in a thread instead, logged, and the next decision gets a new pool: a match never
waits on a dead worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
from collections.abc import Collection, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from arena.core.driver import BotMove, bot_think
from arena.core.game import BotLevel, Game
from arena.server.envsetting import env_number

log = logging.getLogger("arena.server")

ENV = "ARENA_BOT_WORKERS"


def configured_workers() -> int:
    """Workers from ``ARENA_BOT_WORKERS``; by default one fewer than the cores, but at least
    two, so one long search (a bot may think ten seconds over a lock, LM-13) does not hold
    up every other match's bots."""
    return env_number(ENV, max(2, (os.cpu_count() or 2) - 1), int, 0,
                      takes="a whole number of worker processes, 0 or more (0 thinks in a "
                            "thread)")


NICE_ENV = "ARENA_BOT_NICE"
DEFAULT_NICE = 10
"""How much lower than the server's the bot workers' CPU priority is (``nice``). The event
loop runs every match's clock and socket: when the cores are busy, a tick that waits behind
a bot's search is late for everyone watching, while a bot has the rest of its phase to
answer. With the workers at nice 10 the kernel gives the loop the core whenever it has work
(bench/load.py, 300 real-time matches with bots on 2 cores)."""


def configured_nice() -> int:
    return env_number(NICE_ENV, DEFAULT_NICE, int, 0, 19,
                      takes="a whole number from 0 to 19 (how much lower the bot workers' "
                            "CPU priority is)")


def _start_worker(nice: int = DEFAULT_NICE) -> None:
    """A worker leaves Ctrl-C to the server, which stops it (no traceback per worker), and
    exits when the server does, even when the server was killed and shut nothing down: the
    pool's workers would otherwise wait for work forever, holding the forkserver too. It
    thinks at a lower CPU priority than the server (:data:`DEFAULT_NICE`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice and hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(nice)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent.sentinel,), daemon=True,
                         name="exit with the server").start()


def _ready() -> None:
    """A first task for a new pool: its worker is running once this returns."""


def _exit_with(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])  # ready once the server's end is closed
    os._exit(0)


def _context() -> multiprocessing.context.BaseContext:
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    # Only heeded before the forkserver starts: the games (the registered extra games too)
    # are imported there once, and every worker is a fork of that process.
    from arena.core.registry import all_games

    modules = sorted({type(g).__module__ for g in all_games(include_extra=True).values()})
    ctx.set_forkserver_preload(["arena.core.driver", *modules])
    return ctx


class Thinkers:
    """The process's pool of bot workers, made on first use (None: think in a thread)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._workers: int | None = None
        self._holders = 0
        self.replaced = 0  # pools found broken and replaced: for tests and logs

    @property
    def workers(self) -> int:
        if self._workers is None:
            self._workers = configured_workers()
        return self._workers

    def configure(self, workers: int | None) -> None:
        """Set the number of workers (None: from the environment again); the current pool,
        if any, is shut down and the next decision makes one of the new size."""
        self.shutdown()
        self._workers = workers

    def pool(self) -> ProcessPoolExecutor | None:
        """The pool, made and started if there is none. Called in a thread: starting the
        forkserver (it imports every game) and the first worker takes up to a second on a
        busy machine, which on the event loop stalled every request (bench)."""
        with self._lock:
            if self._pool is None and self.workers > 0:
                pool = ProcessPoolExecutor(self.workers, mp_context=_context(),
                                           initializer=_start_worker,
                                           initargs=(configured_nice(),))
                try:
                    pool.submit(_ready).result()
                except Exception:
                    pool.shutdown(wait=False, cancel_futures=True)
                    raise
                self._pool = pool
            return self._pool

    def _discard(self, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is not broken:
                return  # another decision already replaced it
            self._pool = None
            self.replaced += 1
        broken.shutdown(wait=False, cancel_futures=True)

    async def think(self, game: Game[Any, Any], seed: int, state: Any, phase_no: int,
                    seats: Collection[int],
                    levels: Mapping[int, BotLevel] | None = None) -> list[BotMove]:
        """:func:`bot_think` in a worker process (in a thread when there are none, or when
        the pool broke under this decision); each seat at its level (G-8)."""
        loop = asyncio.get_running_loop()
        chosen = {s: levels[s] for s in seats if levels and s in levels}
        # Only what the bots read crosses to the worker (Game.bot_state).
        args = (game, seed, game.bot_state(state), phase_no, sorted(seats), chosen)
        pool = self._pool
        if pool is None and self.workers > 0:
            try:
                pool = await asyncio.to_thread(self.pool)
            except Exception as exc:  # no worker could start: think in a thread this time
                log.warning("bot workers could not start (%s); thinking in a thread", exc)
        if pool is not None:
            try:
                return await loop.run_in_executor(pool, bot_think, *args)
            except BrokenProcessPool as exc:
                log.warning("a bot worker process died (%s); %s bot in seats %s of phase %d "
                            "thinks in a thread, and the next decision gets a new pool",
                            exc, game.name, args[4], phase_no)
                self._discard(pool)
            except RuntimeError as exc:
                if "shutdown" not in str(exc):  # the pool was shut down under this decision
                    raise
        return await loop.run_in_executor(None, bot_think, *args)

    def warm(self) -> None:
        """Start the workers now, in a thread, rather than on the first decision: starting
        the forkserver imports every game, which on a busy machine took seconds and made the
        first bot of a fresh server (or of one just restarted) late for its drawn moment
        (G-11). A decision that comes first simply waits on the same start."""
        if self.workers <= 0:
            return

        def start() -> None:
            with self._lock:
                if self._holders == 0:  # the app stopped before this thread ran
                    return
            try:
                self.pool()
            except Exception:  # the first decision will try again and say why
                log.warning("bot workers could not be started ahead of use", exc_info=True)

        threading.Thread(target=start, name="arena-bot-workers", daemon=True).start()

    def hold(self) -> None:
        """An app starts using the pool (it is still made on the first decision); a bad
        ``ARENA_BOT_WORKERS`` or ``ARENA_BOT_NICE`` stops the app here, at start-up."""
        _ = self.workers
        configured_nice()
        with self._lock:
            self._holders += 1

    async def release(self) -> None:
        """An app stopped; the last one shuts the workers down (without blocking the loop
        while a search under way finishes)."""
        with self._lock:
            self._holders = max(0, self._holders - 1)
            last = self._holders == 0
        if last:
            await asyncio.to_thread(self.shutdown)

    def shutdown(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


THINKERS = Thinkers()
"""The one pool of the process: every match's owner thinks through it."""


async def think(game: Game[Any, Any], seed: int, state: Any, phase_no: int,
                seats: Collection[int],
                levels: Mapping[int, BotLevel] | None = None) -> list[BotMove]:
    """Decide for ``seats`` from a frozen state, in a worker process (:class:`Thinkers`)."""
    return await THINKERS.think(game, seed, state, phase_no, seats, levels)
