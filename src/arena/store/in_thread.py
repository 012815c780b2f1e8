"""How a synchronous :class:`~arena.store.store.Store` call is awaited from the event loop.

:class:`~arena.store.asyncstore.AsyncStore` declares each plain store call once, as
``get_match = read(Store.get_match)`` or ``save_scenario = write(Store.save_scenario)``: the
attribute is then an awaitable with the store method's own parameters and result, typed from
it (``ParamSpec``), and every call of it goes through the one path of
:meth:`AsyncStore.run_job`: the writing or the reading threads, the outage guard, the damaged
rows reported, and a started call seen to its end (:func:`outcome`). Whether a call writes is
said where it is declared, once, and nowhere else.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Concatenate, Generic, ParamSpec, Protocol, TypeVar, overload

if TYPE_CHECKING:
    from arena.store.store import Store

P = ParamSpec("P")
T = TypeVar("T")
R = TypeVar("R")


async def outcome(future: asyncio.Future[T]) -> T:
    """A started call's outcome, even if the awaiting task is cancelled meanwhile: the call
    finishes first, and the cancellation is delivered at the caller's next ``await`` (see
    :mod:`arena.store.asyncstore`)."""
    task = asyncio.current_task()
    cancelled = False
    try:
        while True:
            try:
                return await asyncio.shield(future)
            except asyncio.CancelledError:
                if task is None or future.cancelled():
                    raise
                cancelled = True
                task.uncancel()
    finally:
        if cancelled and task is not None:
            task.cancel()


class Runner(Protocol):
    """What a declared call needs of its owner: the store, and the one way to run a job."""

    sync: Store

    def run_job(self, job: Callable[[], R], write: bool) -> Awaitable[R]: ...


class InThread(Generic[P, T]):
    """A store function (its first parameter the :class:`Store`) as an awaitable attribute
    of a :class:`Runner`; made by :func:`read` and :func:`write`."""

    def __init__(self, fn: Callable[Concatenate[Store, P], T], *, write: bool) -> None:
        self.fn = fn
        self.write = write

    @overload
    def __get__(self, runner: None, kind: type[Runner] | None = None) -> InThread[P, T]: ...

    @overload
    def __get__(self, runner: Runner, kind: type[Runner] | None = None
                ) -> Callable[P, Awaitable[T]]: ...

    def __get__(self, runner: Runner | None, kind: type[Runner] | None = None
                ) -> InThread[P, T] | Callable[P, Awaitable[T]]:
        if runner is None:
            return self
        fn, writes = self.fn, self.write

        async def call(*args: P.args, **kwargs: P.kwargs) -> T:
            return await runner.run_job(functools.partial(fn, runner.sync, *args, **kwargs),
                                        writes)

        return call


def read(fn: Callable[Concatenate[Store, P], T]) -> InThread[P, T]:
    """A call that only reads: on SQLite it runs on the reading threads, so a write waiting
    on another connection's lock holds up no read, and it is still tried while the database
    is down (WAL reads work under another connection's write lock)."""
    return InThread(fn, write=False)


def write(fn: Callable[Concatenate[Store, P], T]) -> InThread[P, T]:
    """A call that writes: on the store's writing thread (SQLite: the only one), refused at
    once while the database is down."""
    return InThread(fn, write=True)
