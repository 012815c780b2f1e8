"""Browser-test fixtures (docs/CONTRACT.md): ``live_server`` is the base URL of a real
``arena serve`` on a temporary SQLite database; ``page`` is a Playwright page in Debian's
Chromium; ``new_match`` creates a match over the JSON API and returns its id and links."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from server.serverproc import ServerProcess

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


@pytest.fixture(scope="session")
def live_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("live")
    server = ServerProcess(f"sqlite:///{folder / 'arena.db'}", folder / "server.log").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def live_server(live_process: ServerProcess) -> str:
    """The base URL (no trailing slash) of a running server."""
    return live_process.url


@pytest.fixture
def new_match(live_process: ServerProcess) -> Callable[..., dict[str, Any]]:
    """``new_match(game, seats=[{"name", "bot"}], settings={...}, config={...}, seed=1)``
    returns the JSON of ``POST /api/matches`` (``id``, ``links``, ``tokens``)."""
    return live_process.create


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    try:
        yield pg
    finally:
        context.close()


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    path = Path("/tmp/arena-screens")
    path.mkdir(exist_ok=True)
    return path


@pytest.fixture(autouse=True)
def phase_shots(request: pytest.FixtureRequest) -> Iterator[None]:
    """With ``ARENA_PLAY_SHOTS=<folder>`` (scripts/play_shots.py), every browser context a
    test opens photographs each phase of its pages (tests/web/phaseshots.py); else nothing."""
    folder = os.environ.get("ARENA_PLAY_SHOTS")
    if not folder or "browser" not in request.fixturenames:
        yield
        return
    from playwright.sync_api import Browser

    from web.phaseshots import record

    original = Browser.new_context

    def new_context(self: Any, *args: Any, **kwargs: Any) -> Any:
        context = original(self, *args, **kwargs)
        record(context, Path(folder))
        return context

    Browser.new_context = new_context  # type: ignore[method-assign]
    try:
        yield
    finally:
        Browser.new_context = original  # type: ignore[method-assign]
