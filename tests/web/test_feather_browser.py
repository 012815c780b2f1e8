"""Light as a Feather in a real browser: a human seat plays the text's example opening
against the bot through the page's composer (Ready, verb/basin/bucket selects, Send), a Fill
in cooldown is refused naming LF-4, ticks run on the clock (LF-2), and the result shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow


def test_human_plays_feather_against_the_bot(page: Any, live_server: str, new_match: Any,
                                             screenshot_dir: Path) -> None:
    # The human holds the ankh (LF-5), so its Fill from Z at tick 0 goes before the bot's.
    m = new_match("feather", seats=[{"name": "Ada", "bot": False}, {"name": "Robo", "bot": True}],
                  settings={"time_scale": 1.0},
                  config={"scenario": "example", "tick": 3.0, "study": 60, "ankh": 0,
                          "session_ticks": 5}, seed=5)
    page.goto(m["links"]["seats"][0])
    page.get_by_test_id("feather-board").wait_for()
    page.get_by_test_id("feather-ready").click()
    status = page.get_by_test_id("feather-status")
    status.filter(has_text="tick 0 of 5").wait_for()

    page.get_by_test_id("feather-verb").select_option("fill")
    page.get_by_test_id("feather-basin").select_option("Z")
    page.get_by_test_id("feather-bucket-1").select_option("A")
    assert page.get_by_test_id("feather-preview").inner_text() == "fill Z A"
    page.get_by_test_id("feather-send").click()
    page.get_by_test_id("feather-msg-ok").filter(has_text="fill Z A").wait_for()

    status.filter(has_text="tick 1 of 5").wait_for()
    assert page.get_by_test_id("feather-bucket-0-A").text_content() == "A 10/10"
    # A second Fill inside the cooldown is refused with the rule's name (LF-4, G-6).
    page.get_by_test_id("feather-basin").select_option("Y")
    page.get_by_test_id("feather-bucket-1").select_option("B")
    page.get_by_test_id("feather-send").click()
    page.get_by_test_id("feather-msg").filter(has_text="LF-4").wait_for()
    page.get_by_test_id("feather-verb").select_option("transfer")
    page.get_by_test_id("feather-bucket-1").select_option("A")
    page.get_by_test_id("feather-bucket-2").select_option("B")
    page.get_by_test_id("feather-send").click()
    page.get_by_test_id("feather-msg-ok").filter(has_text="transfer A -> B").wait_for()

    status.filter(has_text="tick 2 of 5").wait_for()
    assert page.get_by_test_id("feather-bucket-0-A").text_content() == "A 3/10"
    page.get_by_test_id("feather-verb").select_option("complete")
    page.get_by_test_id("feather-pick-A").check()
    page.get_by_test_id("feather-objective").select_option("1")
    assert page.get_by_test_id("feather-preview").inner_text() == "complete A 1"
    page.get_by_test_id("feather-send").click()
    page.get_by_test_id("feather-msg-ok").filter(has_text="complete A 1").wait_for()

    status.filter(has_text="tick 3 of 5").wait_for()
    assert page.get_by_test_id("feather-points-0").text_content() == "1 point"
    page.screenshot(path=str(screenshot_dir / "feather_tick3.png"), full_page=True)

    result = page.get_by_test_id("result")
    result.wait_for(state="visible", timeout=30_000)
    assert "Ada" in result.inner_text() or "Seat 1" in result.inner_text()
    assert "You win" in result.inner_text()
    page.screenshot(path=str(screenshot_dir / "feather_final.png"), full_page=True)


def test_typing_survives_ticks(page: Any, live_server: str, new_match: Any) -> None:
    """Issue 14 point 2: the page is diffed, not rebuilt. Text typed into the notation field and
    a composer choice keep their value, focus and caret while at least five ticks redraw the
    board around them."""
    m = new_match("feather", seats=[{"name": "Ada", "bot": False}, {"name": "Robo", "bot": True}],
                  settings={"time_scale": 1.0},
                  config={"scenario": "example", "tick": 1.0, "study": 1, "session_ticks": 40},
                  seed=5)
    page.goto(m["links"]["seats"][0])
    status = page.get_by_test_id("feather-status")
    status.filter(has_text="tick 1 of").wait_for()
    page.get_by_test_id("feather-verb").select_option("transfer")
    page.get_by_test_id("notation").locator("summary").click()
    field = page.get_by_test_id("notation-input")
    field.click()
    field.press_sequentially("transfer A -", delay=20)
    start_tick = int(status.inner_text().split("tick ")[1].split(" ")[0])
    page.wait_for_function(
        "t => /tick (\\d+) of/.test(document.querySelector('[data-testid=feather-status]').textContent)"
        " && Number(document.querySelector('[data-testid=feather-status]').textContent"
        ".match(/tick (\\d+) of/)[1]) >= t", arg=start_tick + 5, timeout=30_000)
    field.press_sequentially("> B", delay=20)
    assert field.input_value() == "transfer A -> B"
    assert page.evaluate("document.activeElement.dataset.testid") == "notation-input"
    assert page.get_by_test_id("feather-verb").input_value() == "transfer"
