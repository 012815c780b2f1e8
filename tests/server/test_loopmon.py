"""The opt-in event-loop stall monitor of the load bench (issue 20 point 3)."""

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
    assert figures["beats"] >= 3
    assert 0.15 <= figures["max_stall"] < 1.0
    assert figures["p50_stall"] < 0.15


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
