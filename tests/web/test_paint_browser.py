"""Paint Factory in a real browser: a human seat designs sets (a refused design names PF-4),
then plays all 31 decisions against the bot through the page's buttons (pick, shove, last
colour), and the result shows with the chains marked on the grid."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow

CHANGED = """([old]) => {
  const r = document.querySelector('[data-testid=result]');
  if (r && !r.hidden) return true;
  const s = document.querySelector('[data-testid=paint-status]');
  return s && s.textContent !== old;
}"""


def test_human_plays_paint_against_the_bot(page: Any, live_server: str, new_match: Any,
                                           screenshot_dir: Path) -> None:
    m = new_match("paint", seats=[{"name": "Ada", "bot": False}, {"name": "Robo", "bot": True}],
                  settings={"time_scale": 1.0}, seed=7)
    page.goto(m["links"]["seats"][0])
    page.get_by_test_id("paint-design").wait_for()
    page.get_by_test_id("paint-design").fill("RGBR,RGBR,BRGB,RBGR,GRBG,BGRB,RGRB,GBGR")
    page.get_by_test_id("paint-design-submit").click()
    page.get_by_test_id("paint-msg").filter(has_text="PF-4").wait_for()
    assert "identical" in page.get_by_test_id("paint-msg").inner_text()
    page.get_by_test_id("paint-design-example").click()
    page.get_by_test_id("paint-design-submit").click()

    decisions = 0
    result = page.get_by_test_id("result")
    while decisions < 40:
        page.wait_for_selector("[data-testid^='paint-pick-'], [data-testid^='paint-shove-'], "
                               "[data-testid^='paint-last-'], [data-testid=result]:not([hidden])")
        if result.is_visible():
            break
        status = page.get_by_test_id("paint-status").inner_text()
        button = page.locator("[data-testid^='paint-pick-'], [data-testid^='paint-shove-'], "
                              "[data-testid='paint-last-G']").first
        if decisions == 3:
            page.screenshot(path=str(screenshot_dir / "paint_play.png"), full_page=True)
        button.click()
        decisions += 1
        page.wait_for_function(CHANGED, arg=[status])
    result.wait_for(state="visible")
    assert decisions == 31
    assert "wins" in result.inner_text()
    board = page.get_by_test_id("paint-board")
    assert board.locator(".chain-length").count() >= 1
    page.screenshot(path=str(screenshot_dir / "paint_final.png"), full_page=True)
