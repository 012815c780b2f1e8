"""Issue 20 defect 6: a store write that fails leaves memory and database in step. The
command is answered "nothing was applied" (503), the match in memory is the stored one, and
the next command works and is stored."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from arena.core.clock import SystemClock
from arena.core.match import Match
from arena.server.errors import ApiError
from arena.server.owner import MatchOwner
from arena.store import MatchRecord, Store
from arena.store.asyncstore import AsyncStore
from toygame import TOY


class FlakyStore(Store):
    fail_next = False

    def append_events(self, match_id: str, events: Any) -> None:
        if self.fail_next:
            self.fail_next = False
            raise OSError("disk full")
        super().append_events(match_id, events)


def test_a_failed_write_rolls_memory_back_and_the_next_command_is_stored(tmp_path: Path) -> None:
    store = FlakyStore(f"sqlite:///{tmp_path / 'f.db'}")
    match = Match(TOY, TOY.default_config(), 3, SystemClock())
    record = MatchRecord(id="m1", game="toy", config={}, seed=3,
                         settings=match.settings.to_json(), start=match.created_at,
                         seat_names=("A", "B"), bots=(False, False), status="running",
                         created=match.created_at)
    store.create_match(record, [])
    owner = MatchOwner(record, match, AsyncStore(store), persisted=0)

    async def run() -> None:
        await owner.command(lambda m: None)  # store the opening entries
        before = [(e.version, e.kind) for e in owner.match.log]
        store.fail_next = True
        with pytest.raises(ApiError) as err:
            await owner.command(lambda m: m.submit(0, "ready", final=True))
        assert err.value.status == 503 and "nothing was applied" in err.value.message
        assert [(e.version, e.kind) for e in owner.match.log] == before  # memory == store
        assert [(e.version, e.kind) for e in store.events("m1")] == before
        assert owner.match.standing(0) is None
        await owner.command(lambda m: m.submit(0, "ready", final=True))  # works again
        assert [e.kind for e in store.events("m1")][-3:] == ["submit", "accepted", "seat_acted"]

    try:
        asyncio.run(run())
    finally:
        store.close()
