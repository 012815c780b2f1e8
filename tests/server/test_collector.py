"""The survivors of a collection of the middle or oldest generation are frozen, so
the next collection walks only what was made since (at 600 Feather matches a full collection
held the event loop for 0.5-0.9 s, and p99 tick lateness was near a second, bench/README.md)."""

from __future__ import annotations

import asyncio
import gc

import pytest

from arena.server import collector


def test_the_survivors_of_a_full_collection_are_frozen_on_the_loop() -> None:
    async def main() -> tuple[int, int, bool, bool]:
        freezer = collector.FreezeSurvivors(asyncio.get_running_loop())
        freezer.install()
        gc.disable()  # only this test's own collections, none the allocations set off
        try:
            gc.unfreeze()
            kept = [[i] for i in range(5000)]  # long-lived containers
            gc.collect(0)  # a collection of the youngest generation freezes nothing
            await asyncio.sleep(0)
            young = freezer.frozen
            walked_before = any(x is kept[0] for x in gc.get_objects())
            gc.collect(1)  # an older one: its survivors go out of the collector's reach
            await asyncio.sleep(0)
            await asyncio.sleep(0)
            walked_after = any(x is kept[0] for x in gc.get_objects())
            return young, freezer.frozen, walked_before, walked_after
        finally:
            gc.enable()
            freezer.remove()
            gc.unfreeze()

    young, frozen, walked_before, walked_after = asyncio.run(main())
    assert young == 0
    assert frozen == 1
    assert walked_before and not walked_after


def test_refreeze_collects_then_freezes_everything_left() -> None:
    gc.unfreeze()
    try:
        took = collector.refreeze()
        assert took >= 0
        assert gc.get_freeze_count() > 0
        assert gc.get_objects(generation=2) == []
    finally:
        gc.unfreeze()


@pytest.mark.parametrize("raw", ["soon", "-1", "nan", "inf"])
def test_a_bad_refreeze_interval_stops_the_server_with_the_variable_named(
        raw: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(collector.REFREEZE_ENV, raw)
    with pytest.raises(ValueError, match=collector.REFREEZE_ENV):
        collector.refreeze_seconds()


def test_the_refreeze_interval_defaults_and_reads_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(collector.REFREEZE_ENV, raising=False)
    assert collector.refreeze_seconds() == collector.DEFAULT_REFREEZE
    monkeypatch.setenv(collector.REFREEZE_ENV, "0")
    assert collector.refreeze_seconds() == 0.0
