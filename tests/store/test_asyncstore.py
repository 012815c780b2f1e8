"""The event loop never waits on the database.

A store write is held in its thread here (a stand-in store that waits for the test), and the
loop is seen to go on meanwhile; the command is answered only once its entries are stored,
viewers hear nothing until then (nor of a change that is then rolled back), and a command
whose task is cancelled during the write still ends with memory and database in step."""

from __future__ import annotations

import asyncio
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.clock import SystemClock
from arena.core.match import HOST, Match
from arena.server.errors import ApiError
from arena.server.owner import MatchOwner
from arena.server.views import Subscriber
from arena.store import MatchRecord, Store, TokenRecord
from arena.store.asyncstore import LISTING_TTL, AsyncStore
from toygame import TOY


class HeldStore(Store):
    """Appends wait in the store's thread until the test lets them go (or makes them fail)."""

    hold = False
    fail = False

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.entered = threading.Event()
        self.go = threading.Event()

    def append_many(self, items: Any) -> None:
        if self.hold:
            self.entered.set()
            self.go.wait(30)
        if self.fail:
            raise OSError("disk full")
        super().append_many(items)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[HeldStore]:
    s = HeldStore(f"sqlite:///{tmp_path / 'h.db'}")
    yield s
    s.go.set()
    s.close()


def _owner(store: HeldStore) -> MatchOwner:
    match = Match(TOY, TOY.default_config(), 3, SystemClock())
    record = MatchRecord(id="m1", game="toy", config={}, seed=3,
                         settings=match.settings.to_json(), start=match.created_at,
                         seat_names=("A", "B"), bots=(False, False), status="running",
                         created=match.created_at)
    store.create_match(record, [TokenRecord("seat-a", "m1", "seat", 0)])
    return MatchOwner(record, match, AsyncStore(store), persisted=0)


async def _held(store: HeldStore) -> None:
    """Until the append has reached the store's thread (awaited there, not on the loop)."""
    assert await asyncio.to_thread(store.entered.wait, 10)


def _kinds(store: Store) -> list[str]:
    return [e.kind for e in store.events("m1")]


async def _opened(owner: MatchOwner) -> Subscriber:
    await owner.command(lambda m: None)  # the opening entries, stored
    async with owner.lock:
        sub = owner.subscribe(HOST, owner.match.version)
    sub.queue.get_nowait()  # the catch-up message
    return sub


def test_the_loop_runs_while_a_command_is_stored_and_the_answer_waits_for_it(
        store: HeldStore) -> None:
    owner = _owner(store)

    async def run() -> None:
        sub = await _opened(owner)
        store.hold = True
        task = asyncio.create_task(owner.command(lambda m: m.submit(0, "ready", final=True)))
        await _held(store)  # the loop went on while the write waits in its thread
        assert not task.done()
        assert "submit" not in _kinds(store)
        # A broadcast that comes due meanwhile (say, from an earlier commit) holds back the
        # entries that are not stored yet.
        owner._schedule_notify()
        await asyncio.sleep(0)  # let the scheduled broadcast run (call_soon comes first)
        assert sub.queue.empty()
        store.go.set()
        await task
        assert _kinds(store)[-3:] == ["submit", "accepted", "seat_acted"]
        update = await asyncio.wait_for(sub.queue.get(), 5)
        assert isinstance(update, str) and '"submit"' in update

    asyncio.run(run())


def test_viewers_never_hear_of_a_change_that_failed_to_be_stored(store: HeldStore) -> None:
    owner = _owner(store)

    async def run() -> None:
        sub = await _opened(owner)
        before = [(e.version, e.kind) for e in owner.match.log]
        store.hold = store.fail = True
        task = asyncio.create_task(owner.command(lambda m: m.submit(0, "ready", final=True)))
        await _held(store)
        owner._schedule_notify()
        await asyncio.sleep(0)
        store.go.set()
        with pytest.raises(ApiError) as err:
            await task
        assert err.value.status == 503
        assert [(e.version, e.kind) for e in owner.match.log] == before
        await asyncio.sleep(0)  # the broadcast the failed commit scheduled again
        while not sub.queue.empty():
            assert '"submit"' not in str(sub.queue.get_nowait())

    asyncio.run(run())


def test_a_command_cancelled_during_its_write_leaves_memory_and_database_in_step(
        store: HeldStore) -> None:
    owner = _owner(store)

    async def run() -> None:
        await _opened(owner)
        store.hold = True
        task = asyncio.create_task(owner.command(lambda m: m.submit(0, "ready", final=True)))
        await _held(store)
        task.cancel()
        store.go.set()
        with pytest.raises(asyncio.CancelledError):
            await task  # the cancellation arrives, but only after the write ended
        assert owner.persisted == owner.match.version == store.last_version("m1")
        assert _kinds(store)[-3:] == ["submit", "accepted", "seat_acted"]
        store.hold = False
        await owner.command(lambda m: m.submit(1, "ready", final=True))  # no version clash
        assert store.last_version("m1") == owner.match.version

    asyncio.run(run())


def test_a_replaced_link_stops_working_at_once_despite_the_token_cache(
        store: HeldStore) -> None:
    async def run() -> None:
        db = AsyncStore(store)
        _owner(store)
        assert await db.token("seat-a") == TokenRecord("seat-a", "m1", "seat", 0)
        assert await db.token("seat-a") is not None  # from the cache now
        assert await db.replace_seat_token("m1", 0, "seat-a2") == ["seat-a"]
        assert await db.token("seat-a") is None
        assert await db.token("seat-a2") == TokenRecord("seat-a2", "m1", "seat", 0)
        # Another process replaced it (here: the store directly): this one learns of it
        # from the match's notification, which makes it forget the match's tokens.
        store.replace_seat_token("m1", 0, "seat-a3")
        db.forget_tokens("m1")
        assert await db.token("seat-a2") is None
        await db.close()

    asyncio.run(run())


class CountingStore(HeldStore):
    """Counts the group commits: how many appends each transaction carried."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.batches: list[list[str]] = []

    def append_many(self, items: Any) -> None:
        self.batches.append([item[0] for item in items])
        super().append_many(items)


def _record(match_id: str) -> MatchRecord:
    return MatchRecord(id=match_id, game="toy", config={}, seed=1, settings={}, start=0.0,
                       seat_names=("A", "B"), bots=(False, False), status="running",
                       created=0.0)


def _queued_behind_a_held_write(sync: CountingStore, held: str, ids: list[str],
                                kind: str) -> list[BaseException | None]:
    """An append of ``held`` is held inside its write; appends of ``ids`` (one event of
    ``kind``, version 1) queue behind it; then the write goes on. Every caller's outcome, the
    held one's first."""
    from arena.core.match import Event

    async def main() -> list[BaseException | None]:
        store = AsyncStore(sync)
        sync.hold = True
        first = asyncio.create_task(store.append_events(held, [Event(1, "a", None, None, 0.0)]))
        await asyncio.to_thread(sync.entered.wait, 10)
        sync.hold = False
        rest = [asyncio.create_task(store.append_events(m, [Event(1, kind, None, None, 0.0)]))
                for m in ids]
        await asyncio.sleep(0)
        sync.go.set()
        out = await asyncio.gather(first, *rest, return_exceptions=True)
        await store.close()
        return list(out)

    return asyncio.run(main())


def test_appends_that_queue_behind_a_write_go_in_one_transaction_and_fail_alone(
        tmp_path: Path) -> None:
    """While one append is being written, the appends of other matches queue and go
    together in the next transaction. If one of them cannot be stored (here a version the
    log already has), only its caller hears of it; the others are stored."""
    from arena.core.match import Event

    sync = CountingStore(f"sqlite:///{tmp_path / 'g.db'}")
    ids = [f"m{i}" for i in range(5)]
    for match_id in ids:
        sync.create_match(_record(match_id), [])
    sync.append_events("m4", [Event(1, "a", None, None, 0.0)])

    outcomes = _queued_behind_a_held_write(sync, "m0", ids[1:], "b")
    assert outcomes[:4] == [None, None, None, None]
    assert outcomes[4] is not None  # m4 already has version 1
    # (single appends also pass through append_many, one item each)
    assert [b for b in sync.batches if len(b) > 1] == [ids[1:]], \
        "the queued appends went in one transaction"
    for match_id in ids[:4]:
        assert [e.version for e in sync.events(match_id)] == [1]
    assert [e.kind for e in sync.events("m4")] == ["a"]
    sync.close()


class ListingStore(Store):
    """Counts the lobby's reads of the listing."""

    reads = 0

    def list_matches(self, limit: int = 200) -> list[MatchRecord]:
        self.reads += 1
        return super().list_matches(limit)


def test_the_lobby_listing_is_read_once_a_second_and_a_change_here_is_seen_at_once(
        tmp_path: Path) -> None:
    """Lobbies poll the listing; it is read from the database at most once per
    LISTING_TTL, but a match created or finished through this store shows at once."""
    sync = ListingStore(f"sqlite:///{tmp_path / 'l.db'}")

    async def main() -> None:
        store = AsyncStore(sync)
        await store.create_match(_record("a"), [])
        assert [r.id for r in await store.list_matches()] == ["a"]
        for _ in range(20):
            assert [r.id for r in await store.list_matches()] == ["a"]
        assert sync.reads == 1
        await store.create_match(_record("b"), [])
        assert {r.id for r in await store.list_matches()} == {"a", "b"}
        await store.set_status("a", "finished", None)
        assert {r.id: r.status for r in await store.list_matches()}["a"] == "finished"
        assert sync.reads == 3
        # Every write of a match's row (create, status, bots, settings: the store's only
        # writers of it) is seen by the next listing at once.
        await store.set_bots("a", (False, True))
        assert {r.id: r.bots for r in await store.list_matches()}["a"] == (False, True)
        await store.set_settings("a", {"spectators": False})
        assert {r.id: r.settings for r in await store.list_matches()}["a"] == \
            {"spectators": False}
        assert sync.reads == 5
        # A change made behind this store's back (another process) shows within the TTL.
        sync.set_status("b", "finished", None)
        await asyncio.sleep(LISTING_TTL + 0.05)
        assert {r.id: r.status for r in await store.list_matches()}["b"] == "finished"
        await store.close()

    asyncio.run(main())
    sync.close()


@settings(max_examples=25, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=6))
def test_any_mix_of_appends_queued_together_each_gets_its_own_outcome(clash: list[bool]) -> None:
    """The group commit over every mix: appends of several matches queue behind a
    held write and go in one transaction; whichever of them clash with the stored log (a
    version already there), exactly those callers hear of it, and every other append is
    stored, as if each had been written alone."""
    from arena.core.match import Event

    with tempfile.TemporaryDirectory() as folder:
        sync = CountingStore(f"sqlite:///{folder}/p.db")
        ids = [f"m{i}" for i in range(len(clash))]
        sync.create_match(_record("held"), [])
        for match_id, bad in zip(ids, clash, strict=True):
            sync.create_match(_record(match_id), [])
            if bad:
                sync.append_events(match_id, [Event(1, "stored", None, None, 0.0)])

        outcomes = _queued_behind_a_held_write(sync, "held", ids, "new")
        assert outcomes[0] is None
        for match_id, bad, outcome in zip(ids, clash, outcomes[1:], strict=True):
            assert (outcome is not None) == bad, (match_id, outcome)
            assert [e.kind for e in sync.events(match_id)] == (["stored"] if bad else ["new"])
        assert ids in sync.batches, "the queued appends went in one transaction"
        sync.close()
