"""G-13 in the browser: two seats and a spectator chat; each page shows exactly its channels;
markup in a message is shown as text and runs nothing; the host mutes the table; the host and
one seat talk privately, the host or the seat writing first."""

from __future__ import annotations

from typing import Any

import pytest

from web.checks import assert_page_ok

pytestmark = pytest.mark.slow


def open_page(browser: Any, url: str, width: int = 390, height: int = 844) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(20_000)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.dialogs = dialogs
    page.goto(url)
    page.locator("[data-testid=conn][data-state=live]").wait_for()
    chat = page.get_by_test_id("chat-panel")
    if not chat.evaluate("d => d.open"):
        chat.locator("summary").click()
    return page


def say(page: Any, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-send").click()


def messages(page: Any) -> list[str]:
    return [t.strip() for t in page.get_by_test_id("chat-message").all_inner_texts()]


def test_seats_and_spectator_see_exactly_their_channels(browser: Any, new_match: Any) -> None:
    m = new_match("toy", seats=[{"name": "Ada", "bot": False}, {"name": "Bo", "bot": False}],
                  settings={"time_scale": 50.0})
    ada = open_page(browser, m["links"]["seats"][0])
    bo = open_page(browser, m["links"]["seats"][1], 1280, 800)
    fan = open_page(browser, m["links"]["spectator"])
    host = open_page(browser, m["links"]["host"], 1280, 800)

    evil = "<img src=x onerror=alert(1)>"
    say(ada, evil)
    for page in (ada, bo, fan, host):
        page.get_by_test_id("chat-message").filter(has_text=evil).wait_for()
    assert bo.locator(".chat-list img").count() == 0
    say(bo, "good luck, Ada")
    ada.get_by_test_id("chat-message").filter(has_text="good luck, Ada").wait_for()

    # The spectator cannot post at the table; it talks in its own channel, which seats lack.
    assert fan.get_by_test_id("chat-send").is_disabled()
    fan.get_by_test_id("chat-why-not").filter(has_text="G-13").wait_for()
    fan.get_by_test_id("chat-tab-spectators").click()
    say(fan, "Bo bluffs")
    fan.get_by_test_id("chat-message").filter(has_text="Bo bluffs").wait_for()
    host.get_by_test_id("chat-tab-spectators").click()
    host.get_by_test_id("chat-message").filter(has_text="Bo bluffs").wait_for()
    for seat in (ada, bo):
        assert seat.get_by_test_id("chat-tab-spectators").count() == 0
        assert "Bo bluffs" not in " ".join(messages(seat))

    # The host mutes the table: seats cannot post, and the page says why.
    host.get_by_test_id("chat-tab-table").click()
    host.get_by_test_id("chat-mute").click()
    ada.get_by_test_id("chat-why-not").filter(has_text="muted").wait_for()
    assert ada.get_by_test_id("chat-send").is_disabled()

    for page in (ada, bo, fan, host):
        assert page.dialogs == []
    assert_page_ok(ada, "seat page with chat", with_axe=True)
    assert_page_ok(fan, "spectator page with chat", with_axe=True)


def test_host_talks_privately_with_one_seat(browser: Any, new_match: Any) -> None:
    """G-13 as extended: the host opens a private channel with Ada; Ada reads it as "Host
    (private)"; Bo and a spectator have no such tab and never see its lines."""
    m = new_match("toy", seats=[{"name": "Ada", "bot": False}, {"name": "Bo", "bot": False}],
                  settings={"time_scale": 50.0})
    host = open_page(browser, m["links"]["host"], 1280, 800)
    ada = open_page(browser, m["links"]["seats"][0])
    bo = open_page(browser, m["links"]["seats"][1], 1280, 800)
    fan = open_page(browser, m["links"]["spectator"])

    host.get_by_test_id("private-open-0").click()
    host.get_by_test_id("private-close-0").wait_for()
    tab = host.get_by_test_id("chat-tab-host-private-0")
    tab.filter(has_text="Private: Ada").wait_for()
    host.locator("[data-testid=chat-tab-host-private-0][aria-selected=true]").wait_for()
    say(host, "how are you holding up?")
    host.get_by_test_id("chat-message").filter(has_text="holding up").wait_for()

    ada.get_by_test_id("chat-tab-host-private-0").filter(has_text="Host (private)").click()
    ada.get_by_test_id("chat-message").filter(has_text="holding up").wait_for()
    say(ada, "fine, thanks")
    host.get_by_test_id("chat-message").filter(has_text="fine, thanks").wait_for()

    # A public line afterwards: once Bo and the spectator have it, they have everything.
    host.get_by_test_id("chat-tab-table").click()
    say(host, "round two soon")
    for page in (bo, fan):
        page.get_by_test_id("chat-message").filter(has_text="round two soon").wait_for()
        assert page.get_by_test_id("chat-tab-host-private-0").count() == 0
        assert page.get_by_test_id("private-open-0").count() == 0
        body = page.locator("body").inner_text()
        assert "holding up" not in body and "fine, thanks" not in body
        assert "private channel" not in body.lower()
    assert_page_ok(ada, "seat page with a private channel", with_axe=True)
    assert_page_ok(host, "host page with a private channel", with_axe=True)


def test_a_player_writes_to_the_host_first(browser: Any, new_match: Any) -> None:
    """G-13: either of the two may open the channel. Ada opens hers with "Write to the host"
    and it is selected at once; the host's page then lists it and reads her line; Bo and a
    spectator have no such tab and never see its lines."""
    m = new_match("toy", seats=[{"name": "Ada", "bot": False}, {"name": "Bo", "bot": False}],
                  settings={"time_scale": 50.0})
    host = open_page(browser, m["links"]["host"], 1280, 800)
    ada = open_page(browser, m["links"]["seats"][0])
    bo = open_page(browser, m["links"]["seats"][1], 1280, 800)
    fan = open_page(browser, m["links"]["spectator"])
    assert fan.get_by_test_id("chat-open-host").count() == 0

    ada.get_by_test_id("chat-open-host").click()
    ada.locator("[data-testid=chat-tab-host-private-0][aria-selected=true]").filter(
        has_text="Host (private)").wait_for()
    ada.get_by_test_id("chat-open-host").wait_for(state="detached")  # it is open now
    say(ada, "may I ask something?")
    ada.get_by_test_id("chat-message").filter(has_text="ask something").wait_for()

    # The host's page lists the new channel (from the match's events) and reads the line.
    host.get_by_test_id("chat-tab-host-private-0").filter(has_text="Private: Ada").click()
    host.get_by_test_id("chat-message").filter(has_text="ask something").wait_for()
    host.get_by_test_id("private-close-0").wait_for()  # the host's links know it is open
    host.get_by_test_id("log").filter(has_text="Ada opened a private channel with you").wait_for()
    say(host, "of course")
    ada.get_by_test_id("chat-message").filter(has_text="of course").wait_for()

    # A public line afterwards: once Bo and the spectator have it, they have everything.
    host.get_by_test_id("chat-tab-table").click()
    say(host, "round two soon")
    for page in (bo, fan):
        page.get_by_test_id("chat-message").filter(has_text="round two soon").wait_for()
        assert page.get_by_test_id("chat-tab-host-private-0").count() == 0
        body = page.locator("body").inner_text()
        assert "ask something" not in body and "of course" not in body
        assert "private channel" not in body.lower()
    for page in (ada, bo, fan, host):
        assert page.dialogs == []
    assert_page_ok(ada, "seat page that wrote to the host first", with_axe=True)
    assert_page_ok(host, "host page with a channel a seat opened", with_axe=True)


def test_a_line_over_the_limit_is_counted_and_refused_in_words_never_cut(
        browser: Any, new_match: Any) -> None:
    """A pasted 800-character line was cut to 500 silently (the input's
    maxlength). It is kept whole, counted as typed, and refused in words naming G-13."""
    m = new_match("toy", seats=[{"name": "Ada", "bot": False}, {"name": "Bo", "bot": False}],
                  settings={"time_scale": 5.0})
    ada = open_page(browser, m["links"]["seats"][0])
    try:
        line = "x" * 800
        say(ada, line)
        assert len(ada.get_by_test_id("chat-input").input_value()) == 800
        ada.get_by_test_id("chat-count").filter(has_text="300 characters over the limit of 500").wait_for()
        error = ada.get_by_test_id("chat-error")
        error.filter(has_text="at most 500 characters").wait_for()
        assert error.locator("a", has_text="G-13").count() == 1
        assert messages(ada) == []
        ada.get_by_test_id("chat-input").fill("x" * 450)  # counted down, and the words go
        ada.get_by_test_id("chat-count").filter(has_text="50 characters left").wait_for()
        assert error.inner_text() == ""
    finally:
        ada.context.close()


def test_a_folded_chat_on_a_phone_counts_what_came_unread(browser: Any, new_match: Any) -> None:
    """On a phone the chat panel starts folded, and a message from another
    seat must show there as a count on the panel's summary; opening the panel reads them, and
    the player's own lines never count."""
    m = new_match("toy", seats=[{"name": "Ada", "bot": False}, {"name": "Bo", "bot": False}],
                  settings={"time_scale": 50.0})
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    ada = context.new_page()
    ada.set_default_timeout(20_000)
    ada.goto(m["links"]["seats"][0])
    ada.locator("[data-testid=conn][data-state=live]").wait_for()
    bo = open_page(browser, m["links"]["seats"][1], 1280, 800)
    panel = ada.get_by_test_id("chat-panel")
    assert not panel.evaluate("d => d.open")
    badge = ada.get_by_test_id("chat-unread")
    assert badge.count() == 0

    say(bo, "good luck")
    badge.filter(has_text="1 new").wait_for()
    say(bo, "you will need it")
    badge.filter(has_text="2 new").wait_for()
    assert badge.get_attribute("aria-label") == "2 unread messages"
    assert_page_ok(ada, "phone page with an unread chat count", with_axe=True)

    panel.locator("summary").tap()
    ada.get_by_test_id("chat-message").filter(has_text="you will need it").wait_for()
    badge.wait_for(state="detached")
    say(ada, "thanks")  # her own line, read as she writes it
    say(bo, "while you look")
    ada.get_by_test_id("chat-message").filter(has_text="while you look").wait_for()
    assert badge.count() == 0

    panel.locator("summary").tap()  # folded again: only what comes now counts
    say(bo, "one more")
    badge.filter(has_text="1 new").wait_for()
    context.close()
