"""A database outage in a real browser: while another connection holds
the write lock of the server's SQLite file, a move is refused with the plain sentence and
the page shows its banner; once the lock is let go the server says so over the socket, the
banner goes away, and the move goes through."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from server.serverproc import ServerProcess
from web.checks import assert_page_ok

pytestmark = pytest.mark.slow


def test_the_outage_banner_comes_and_goes(page: Any, live_process: ServerProcess,
                                          new_match: Any, screenshot_dir: Path) -> None:
    m = new_match("toy", seats=[{"name": "Ada", "bot": False}, {"name": "Robo", "bot": True}],
                  settings={"time_scale": 5.0}, seed=11)
    page.goto(m["links"]["seats"][0])
    page.get_by_test_id("phase-name").filter(has_text="Study").wait_for()
    page.locator("[data-testid=conn][data-state=live]").wait_for()
    assert page.get_by_test_id("outage-banner").count() == 0

    other = sqlite3.connect(live_process.database.split(":///", 1)[1], timeout=10,
                            isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        page.get_by_test_id("notation-input").fill("ready")
        page.get_by_test_id("submit").click()
        page.get_by_test_id("outage-banner").wait_for(state="visible")
        page.get_by_test_id("error").filter(has_text="nothing was applied").wait_for()
        page.screenshot(path=str(screenshot_dir / "outage_banner.png"), full_page=True)
        assert_page_ok(page, "the outage banner", with_axe=True)
    finally:
        other.execute("ROLLBACK")
        other.close()
    # The server finds the database back and tells the page; no reload, no new command.
    page.get_by_test_id("outage-banner").wait_for(state="hidden")
    page.get_by_test_id("notation-input").fill("ready")
    page.get_by_test_id("submit").click()
    page.get_by_test_id("status").filter(has_text="Sent: ready").wait_for()
