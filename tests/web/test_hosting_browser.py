"""Hosting in the browser: the lobby remembers the host's matches with their links; the host
page copies a seat link, reissues it (the old page shows the link error), hands a seat to a
bot and the match goes on; the rematch button moves the seats' pages to the new match; the
replay steps with the keyboard."""

from __future__ import annotations

from typing import Any

import pytest

from web.checks import assert_page_ok

pytestmark = pytest.mark.slow


def new_page(browser: Any, width: int = 1280, height: int = 800) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height},
                                  permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.on("dialog", lambda d: d.accept())
    return page


def open_panel(page: Any, testid: str) -> None:
    panel = page.get_by_test_id(testid)
    if not panel.evaluate("d => d.open"):
        panel.locator("summary").click()


def test_lobby_remembers_and_the_host_runs_the_match(browser: Any, live_server: str) -> None:
    host = new_page(browser)
    host.goto(live_server + "/")
    host.get_by_test_id("new-game").select_option("toy")
    host.get_by_test_id("seat-name-0").fill("Ada")
    host.get_by_test_id("seat-kind-0").select_option("human")
    host.get_by_test_id("seat-name-1").fill("Bo")
    host.get_by_test_id("seat-kind-1").select_option("human")
    host.get_by_test_id("new-time-scale").fill("20")
    host.get_by_test_id("new-bot-pace").select_option("instant")
    host.get_by_test_id("opt-rounds").fill("1")
    host.get_by_test_id("create").click()
    seat_link = host.get_by_test_id("link-seat-0").get_attribute("href")
    host.reload()
    mine = host.get_by_test_id("my-match-0")
    mine.wait_for()
    assert "High card" in mine.inner_text() or "Toy" in mine.inner_text()
    host.get_by_test_id("my-match-status-0").filter(has_text="running").wait_for()
    assert_page_ok(host, "lobby with my matches", with_axe=True)
    host.get_by_test_id("my-match-host-0").click()
    host.get_by_test_id("host-links").wait_for()

    # Copy the first seat's link.
    host.get_by_test_id("copy-seat-0").click()
    host.get_by_test_id("copy-seat-0").filter(has_text="Copied").wait_for()
    assert host.evaluate("() => navigator.clipboard.readText()") == seat_link

    # The seat's page is open; the host reissues its link: the old page shows the link error.
    ada = new_page(browser, 390, 844)
    ada.goto(seat_link)
    ada.locator("[data-testid=conn][data-state=live]").wait_for()
    host.bring_to_front()
    host.get_by_test_id("reissue-seat-0").click()
    ada.get_by_test_id("link-error").wait_for()
    fresh = host.locator(f"[data-testid=seat-link-0]:not([href='{seat_link}'])")
    fresh.wait_for()
    new_link = fresh.get_attribute("href")
    ada.goto(new_link)
    ada.locator("[data-testid=conn][data-state=live]").wait_for()

    # Bo never shows up: the host hands seat 2 to a bot and the match goes on.
    host.bring_to_front()
    host.get_by_test_id("replace-seat-1").click()
    host.get_by_test_id("host-seat-1").filter(has_text="(bot)").wait_for()
    ada.bring_to_front()
    open_panel(ada, "log-panel")  # folded on a phone
    ada.get_by_test_id("log").get_by_text("seat to a bot").wait_for()
    open_panel(ada, "chat-panel")
    ada.get_by_test_id("chat-input").fill("ready when you are")
    ada.get_by_test_id("chat-send").click()
    ada.get_by_test_id("chat-message").filter(has_text="ready when you are").wait_for()
    ada.get_by_test_id("notation-input").fill("ready")
    ada.get_by_test_id("submit-final").click()
    ada.get_by_test_id("phase-name").filter(has_text="Pick").wait_for()
    ada.get_by_test_id("notation-input").fill("3")
    ada.get_by_test_id("submit-final").click()
    ada.get_by_test_id("result").wait_for()

    # Replay by keyboard on the finished match.
    slider = ada.get_by_test_id("replay-slider")
    open_panel(ada, "replay-panel")
    slider.focus()
    ada.keyboard.press("Home")
    ada.get_by_test_id("replay-banner").wait_for()
    assert ada.get_by_test_id("chat-message").count() == 0  # nothing said yet at entry 1
    ada.keyboard.press("ArrowRight")
    ada.get_by_test_id("replay-caption").filter(has_text="Entry 2").wait_for()
    ada.keyboard.press("PageDown")  # a phase at a time
    ada.wait_for_function("() => { const s = window.Arena.state;"
                          " return s.events[s.replayIndex].kind === 'phase_started'; }")
    ada.get_by_test_id("replay-exit").click()
    ada.get_by_test_id("chat-message").filter(has_text="ready when you are").wait_for()

    # The host's rematch moves the seat's page to its own link in the new match.
    host.bring_to_front()
    host.get_by_test_id("result").wait_for()
    host.get_by_test_id("rematch").click()
    host.wait_for_url(lambda url: url != "" and "/m/" in url and "token=" in url
                      and new_link.split("/m/")[1].split("?")[0] not in url)
    ada.bring_to_front()
    ada.wait_for_url(lambda url: new_link.split("/m/")[1].split("?")[0] not in url)
    ada.get_by_test_id("role").filter(has_text="Seat 1").wait_for()
    ada.get_by_test_id("phase-name").filter(has_text="Study").wait_for()


def test_the_lobby_form_takes_its_bounds_and_help_from_the_schema(browser: Any,
                                                                 live_server: str) -> None:
    """The options' inputs carry the schema's bounds, so the browser itself refuses
    Locked Out!'s zero-length rounds; a bad value that gets through is answered with the
    server's 422 naming the field."""
    page = new_page(browser)
    page.goto(live_server + "/")
    page.get_by_test_id("new-game").select_option("lockedout")
    rounds = page.get_by_test_id("opt-round_seconds")
    assert rounds.get_attribute("min") == "0.05" and rounds.get_attribute("max") == "604800"
    assert "LO-11" in (page.locator("label", has=rounds).get_attribute("title") or "")
    assert page.get_by_test_id("opt-max_rounds").get_attribute("max") == "400"
    rounds.fill("0")
    assert rounds.evaluate("i => i.checkValidity()") is False
    # Past the browser's check (min removed, as a script could): the server names the field.
    rounds.evaluate("i => i.removeAttribute('min')")
    page.get_by_test_id("create").click()
    error = page.locator("#create-error")
    error.filter(has_text="round_seconds").wait_for()
    assert error.inner_text().startswith("G-5: setting 'round_seconds'")
    assert_page_ok(page, "lobby with a refused option", with_axe=True)
