"""One in-process server for a test module: a Starlette TestClient over a fresh SQLite file,
bots thinking in a thread (no worker processes to start), and the creation and submission
limits lifted so a module may create as many matches and seasons as it needs."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.exceptions import StarletteDeprecationWarning

from arena.server import api, creating, extras
from arena.server.app import create_app
from arena.server.limits import RateLimit

with warnings.catch_warnings():
    # Starlette asks for httpx2 and warns when it falls back on httpx; the client works the same.
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient


@contextlib.contextmanager
def in_process_server(folder: Path, patch: pytest.MonkeyPatch | None = None
                      ) -> Iterator[TestClient]:
    """``patch`` (undone at the end) may carry the module's own settings, set before start."""
    patch = patch or pytest.MonkeyPatch()
    patch.setenv("ARENA_BOT_WORKERS", "0")
    for limit in (api.CREATE_LIMIT, api.ACT_LIMIT):
        patch.setattr(limit, "burst", 10**6)
    # What an earlier module spent from the same address ("testclient") must not be owed
    # here: every limit starts with a fresh, full budget.
    for module in (api, extras.limits_of("feather")):
        for value in vars(module).values():
            if isinstance(value, RateLimit):
                patch.setattr(value, "buckets", {})
    patch.setattr(creating, "LIVE_PER_ADDRESS", 10**6)
    try:
        app = create_app(f"sqlite:///{folder / 'arena.db'}")
        with TestClient(app, raise_server_exceptions=False) as client:
            yield client
    finally:
        patch.undo()
