"""Box within a Box within a Box in a real browser: a human seat plays a one-bout match
against the bot through the page's own controls (Ready, the bet rows, card and movement
buttons), a refused bet names its rule (G-6, BX-3), and the result shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow


def test_human_plays_a_boxes_bout_against_the_bot(page: Any, live_server: str, new_match: Any,
                                                  screenshot_dir: Path) -> None:
    m = new_match("boxes", seats=[{"name": "Ada", "bot": False}, {"name": "Robo", "bot": True}],
                  settings={"time_scale": 1.0}, config={"bouts": 1}, seed=11)
    page.goto(m["links"]["seats"][0])
    page.get_by_test_id("phase-name").filter(has_text="Study boards").wait_for()
    page.get_by_test_id("boxes-board").wait_for()
    page.get_by_test_id("boxes-ready").click()
    page.get_by_test_id("phase-name").filter(has_text="Study cards").wait_for()
    page.get_by_test_id("boxes-ready").click()
    page.get_by_test_id("phase-name").filter(has_text="Bet").wait_for()

    # A refused bet names the rule next to the controls (G-6).
    for i, (cond, stake) in enumerate([("black or white", "2"), ("6", "1"), ("7 or 9", "1")]):
        page.get_by_test_id(f"boxes-cond-{i}").fill(cond)
        page.get_by_test_id(f"boxes-stake-{i}").fill(stake)
    page.get_by_test_id("boxes-bet").click()
    page.get_by_test_id("boxes-msg").filter(has_text="BX-3").wait_for()
    page.get_by_test_id("boxes-cond-0").fill("black")
    page.get_by_test_id("boxes-bet").click()
    page.get_by_test_id("phase-name").filter(has_text="Round 1").wait_for()
    page.screenshot(path=str(screenshot_dir / "boxes_round1.png"), full_page=True)

    for r in range(1, 5):
        page.get_by_test_id("phase-name").filter(has_text=f"Round {r}").wait_for()
        page.locator("[data-testid^='boxes-card-']:not([disabled])").first.click()
        page.get_by_test_id("boxes-moves").locator("button").first.click()
        if r < 4:
            page.get_by_test_id("phase-name").filter(has_text=f"Round {r + 1}").wait_for()
    result = page.get_by_test_id("result")
    result.wait_for(state="visible")
    assert "wins" in result.inner_text()
    page.get_by_test_id("boxes-bouts").filter(has_text="Bout 1").wait_for()
    assert "black: 2" in page.get_by_test_id("boxes-bouts").inner_text()
    page.screenshot(path=str(screenshot_dir / "boxes_final.png"), full_page=True)
