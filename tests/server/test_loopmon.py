"""The opt-in event-loop stall monitor of the load bench."""

from __future__ import annotations

import asyncio
import time
import warnings
from pathlib import Path

import pytest
from starlette.exceptions import StarletteDeprecationWarning

from arena.server import loopmon
from arena.server.app import create_app

with warnings.catch_warnings():
    # Starlette asks for httpx2 and warns when it falls back on httpx; the client works the same.
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient


def test_a_blocking_call_shows_as_a_stall() -> None:
    async def scenario() -> dict[str, float]:
        monitor = loopmon.LoopMonitor(interval=0.01)
        monitor.start()
        await asyncio.sleep(0.05)
        time.sleep(0.2)  # holds the loop, as a synchronous store call would
        await asyncio.sleep(0.05)
        await monitor.stop()
        return monitor.snapshot()

    figures = asyncio.run(scenario())
    # A beat was asleep across the 0.2 s hold, so it woke at least that much minus its
    # interval late. Only a lower bound: a loaded machine makes every beat later still.
    assert figures["beats"] >= 1
    assert figures["max_stall"] >= 0.2 - 0.01 - 0.005


def test_the_figures_are_the_longest_stall_its_median_and_99th_percentile() -> None:
    """The figures from recorded stalls, without timing the machine: one long stall among
    quick beats is the maximum and the 99th percentile, never the median."""
    monitor = loopmon.LoopMonitor(interval=0.01)
    for stall in [0.001] * 98 + [-0.002, 0.2]:  # a beat early by clock jitter counts as 0
        monitor.record(stall)
    figures = monitor.snapshot()
    assert figures["beats"] == 100
    assert figures["max_stall"] == figures["p99_stall"] == 0.2
    assert figures["p50_stall"] == 0.001
    monitor.reset()
    assert monitor.snapshot()["beats"] == 0 and monitor.snapshot()["max_stall"] == 0.0


def test_the_route_exists_only_when_asked_for(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(loopmon.ENV, raising=False)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}")) as client:
        assert client.get("/api/debug/loop").status_code == 404
    monkeypatch.setenv(loopmon.ENV, "1")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'b.db'}")) as client:
        r = client.get("/api/debug/loop")
        assert r.status_code == 200
        assert set(r.json()) >= {"max_stall", "p99_stall", "beats"}
        assert client.post("/api/debug/loop").status_code == 200  # a new window starts
        assert client.get("/api/debug/loop").json()["since"] > r.json()["since"]
