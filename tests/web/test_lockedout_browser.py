"""Locked Out! in a real browser: a human seat plays a one-round match (max_rounds=1) against
five bots through the page's own controls (Solo/Dual rows, the vote), a refused submission
names its rule (G-6, LO-2), and the result shows."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"]


def test_human_plays_lockedout_against_five_bots(page: Any, live_server: str, new_match: Any,
                                                  screenshot_dir: Path) -> None:
    seats = [{"name": n, "bot": i > 0} for i, n in enumerate(NAMES)]
    m = new_match("lockedout", seats=seats, settings={"time_scale": 1.0},
                  config={"names": NAMES, "max_rounds": 1}, seed=5)
    page.goto(m["links"]["seats"][0])
    page.get_by_test_id("phase-name").filter(has_text="Round 1").wait_for()
    page.get_by_test_id("lo-board").locator("svg").wait_for()
    # LO-12: the deduction helper is off for seats unless the host enables it.
    page.get_by_test_id("lo-helper-off").wait_for()
    assert "Deduction helper" not in page.get_by_test_id("game-root").inner_text()

    # Two 1s on the Solo and a third 1 on the Dual: one physical card per safe (LO-2).
    page.get_by_test_id("lo-solo-safe").select_option("C")
    page.get_by_test_id("lo-solo-left").select_option("1")
    page.get_by_test_id("lo-solo-right").select_option("1")
    page.get_by_test_id("lo-dual-safe").select_option("D")
    page.get_by_test_id("lo-dual-value").select_option("1")
    page.get_by_test_id("lo-send").click()
    page.get_by_test_id("lo-msg").filter(has_text="LO-2").wait_for()
    page.screenshot(path=str(screenshot_dir / "lockedout_round1.png"), full_page=True)

    page.get_by_test_id("lo-dual-on").uncheck()
    page.get_by_test_id("lo-send").click()

    deadline = time.monotonic() + 60
    voted = False
    result = page.get_by_test_id("result")
    while not result.is_visible():
        assert time.monotonic() < deadline, "the match did not finish"
        name = page.get_by_test_id("phase-name").inner_text()
        if "Elimination vote" in name and not voted:
            page.get_by_test_id("lo-vote-target").select_option("Bob")
            page.get_by_test_id("lo-send").click()
            voted = True
        elif "Final bargaining" in name and page.get_by_test_id("lo-send").count():
            page.get_by_test_id("lo-send").click()
        page.wait_for_timeout(300)
    text = result.inner_text()
    assert "result" in text.lower() and ("wins" in text or "No single winner" in text)
    assert "Alice" in page.get_by_test_id("lo-seats").inner_text()
    assert "Elimination Candidate" in page.get_by_test_id("lo-end").inner_text()
    page.screenshot(path=str(screenshot_dir / "lockedout_final.png"), full_page=True)
