"""A season's recap in Chromium at 390x844 and 1280x800: a season of five two episodes in
(results recorded by hand, every choice made from the players' links).

The recap page shows the chart (its three panels, each player's name at a line's end) and the
timeline without a script; it scrolls nowhere sideways, every ruling id is a link, and axe
finds nothing serious or critical. The season's page links the recap for the host to share,
with a copy button. The pictures are kept in /work/notes/shots/recap/ for a person to look at.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from server.seasonkit import FAST, FIVE, Season, two_recorded_episodes
from server.serverproc import ServerProcess
from web.checks import assert_page_ok

pytestmark = pytest.mark.slow

SHOTS = Path("/work/notes/shots/recap")
SIZES = {"390": {"width": 390, "height": 844}, "1280": {"width": 1280, "height": 800}}


@pytest.fixture(scope="module")
def season(live_process: ServerProcess) -> Season:
    s = Season.create(live_process.http, {"cast": FIVE, "seed": 5, "settings": FAST,
                                          "name": "Summer of Locks"}, live_process.url)
    two_recorded_episodes(s)
    return s


def shoot(page: Any, name: str) -> None:
    if SHOTS.parent.exists():
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_recap_reads_on_a_phone_and_a_desk(browser: Any, season: Season,
                                               size: str) -> None:
    context = browser.new_context(viewport=SIZES[size], java_script_enabled=False)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        r = page.goto(f"{season.base}/s/{season.id}/recap")
        assert r is not None and r.status == 200
        chart = page.locator("svg.recap-chart")
        chart.scroll_into_view_if_needed()
        assert chart.is_visible()
        box = chart.bounding_box()
        assert box is not None and box["width"] > 0.8 * min(SIZES[size]["width"] - 48, 500)
        # Every player's name at its line's end, in each of the three panels.
        labels = page.locator("svg.recap-chart text.chart-label")
        assert labels.count() == 3 * len(FIVE)
        for i in range(labels.count()):
            label = labels.nth(i).bounding_box()
            assert label is not None and label["x"] + label["width"] <= box["x"] + box["width"] + 1
        timeline = page.get_by_test_id("recap-episode-1").locator("ol.recap-timeline")
        timeline.scroll_into_view_if_needed()
        assert timeline.is_visible() and timeline.locator("li").count() == 6
        assert page.get_by_test_id("recap-episode-2").is_visible()
        shoot(page, f"recap-{size}")
        page.get_by_test_id("recap-numbers").locator("summary").click()
        assert page.get_by_test_id("recap-table-garnets").is_visible()
        shoot(page, f"recap-numbers-{size}")
    finally:
        context.close()
    # The checks need a script of the test's own (axe): a page with scripts on, the page's
    # own still runs none.
    context = browser.new_context(viewport=SIZES[size])
    try:
        page = context.new_page()
        page.goto(f"{season.base}/s/{season.id}/recap")
        assert page.evaluate("() => document.scripts.length") == 0
        assert_page_ok(page, f"recap at {size}", with_axe=True)
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_season_page_links_the_recap_to_share(browser: Any, season: Season,
                                                  size: str) -> None:
    context = browser.new_context(viewport=SIZES[size])
    try:
        page = context.new_page()
        page.goto(f"{season.base}/s/{season.id}?token={season.host}")
        link = page.get_by_test_id("recap-link")
        link.wait_for()
        assert link.get_attribute("href") == f"{season.base}/s/{season.id}/recap"
        assert page.get_by_test_id("recap-copy").is_visible()
        shoot(page, f"season-page-{size}")
        link.click()
        page.get_by_test_id("recap-chart").wait_for()
    finally:
        context.close()
