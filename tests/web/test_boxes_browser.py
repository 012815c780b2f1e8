"""Box within a Box within a Box in a real browser: a human seat plays a whole match
against the instant bot at phone size using only the board (Ready, the bet builder, a card then
a landing, Pass when BX-7 allows it), with the notation drawer closed; the page checks of issue
14 hold at several moments; an illegal landing and an invalid bet are refused on the page with
the rule named and nothing is sent; the result equals the server's and that of the same moves
sent as notation. A second run at 1280x800 uses the keyboard only."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from web.checks import assert_page_ok
from web.keyboard import active_testid, await_focus, tab_to

pytestmark = pytest.mark.slow

SMALL = {"bouts": 1, "cards_per_bout": 4}  # the smallest match the rules allow (BX-6)
SEATS = [{"name": "Ada", "bot": False}, {"name": "Robo", "bot": True}]


def check_page(page: Any, where: str) -> None:
    assert_page_ok(page, where, with_axe=True)


def own_status(page: Any) -> str:
    return str(page.get_by_test_id("own-status").inner_text())


def server_view(base: str, match_id: str, token: str) -> dict[str, Any]:
    r = httpx.get(f"{base}/api/matches/{match_id}/view", params={"token": token})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def seat_texts(base: str, match_id: str, token: str) -> list[str]:
    """What seat 1 sent, in order (its own submit events)."""
    r = httpx.get(f"{base}/api/matches/{match_id}/events", params={"token": token, "since": 0})
    assert r.status_code == 200, r.text
    return [e["data"]["text"] for e in r.json()["events"]
            if e["kind"] == "submit" and e["data"].get("seat") == 0]


def replay_as_notation(base: str, new_match: Any, seed: int, texts: list[str]) -> dict[str, Any]:
    """The same match played by sending ``texts`` as notation over the API; its result."""
    m = new_match("boxes", seats=SEATS, config=SMALL, seed=seed)
    token = m["tokens"]["seats"][0]
    for text in texts:
        deadline = time.monotonic() + 20
        while True:  # wait until the phase wants this seat's move
            v = server_view(base, m["id"], token)
            if v["phase"] and 0 in v["phase"].get("waiting_for", []) and not v["seats"][0]["final"]:
                break
            assert time.monotonic() < deadline, "the replayed match did not ask for a move"
            time.sleep(0.05)
        r = httpx.post(f"{base}/api/matches/{m['id']}/submit", params={"token": token},
                       json={"text": text, "final": True, "phase": v["phase"]["no"]})
        assert r.status_code == 200, r.text
    deadline = time.monotonic() + 20
    while not (v := server_view(base, m["id"], token))["result"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    result: dict[str, Any] = v["result"]
    return result


def focus_ring(page: Any) -> str:
    """The focused control's outline: a keyboard player must see where the focus is."""
    return str(page.evaluate("() => { const s = getComputedStyle(document.activeElement);"
                             " return s.outlineStyle + ' ' + s.outlineWidth; }"))


def play_round_by_keyboard(page: Any, r: int) -> None:
    """One pick round with the keyboard alone: the page hands the focus to the round's first
    control; the cards are one Tab stop walked with the arrows, the board one more, its cells
    walked with the arrows; Enter chooses, Enter on the chosen landing (or Space on Play)
    sends."""
    page.get_by_test_id("bx-pick").wait_for()
    if page.get_by_test_id("bx-pass").is_enabled():
        assert "BX-7" in page.get_by_test_id("bx-pass-why").inner_text()
        await_focus(page, "bx-pass")  # no card can move the box: Pass is the first control
        page.keyboard.press("Enter")
        return
    first = await_focus(page, "bx-card-")
    enabled = page.locator("button.bx-card:not([disabled])")
    if enabled.count() > 1:  # the arrows walk the row of cards, and come back
        page.keyboard.press("ArrowRight")
        assert active_testid(page) != first
        page.keyboard.press("ArrowLeft")
        assert active_testid(page) == first
    page.keyboard.press("Enter")
    page.get_by_test_id("bx-pick-hint").filter(has_text="legal landing").wait_for()
    assert page.get_by_test_id(first).get_attribute("aria-pressed") == "true"
    page.keyboard.press("Tab")  # the board is the next Tab stop: its first legal landing
    cell = active_testid(page)
    assert cell.startswith("bx-cell-"), cell
    assert page.get_by_test_id(cell).get_attribute("data-dest") == "yes"
    assert focus_ring(page).startswith("solid"), focus_ring(page)
    for there, back in (("ArrowDown", "ArrowUp"), ("ArrowUp", "ArrowDown")):
        page.keyboard.press(there)
        if active_testid(page) != cell:  # not at that edge of the board
            page.keyboard.press(back)
            break
    assert active_testid(page) == cell
    page.keyboard.press("Enter")
    page.get_by_test_id("bx-preview").wait_for()
    assert active_testid(page) == cell  # the preview keeps the focus on the landing
    if r == 1:
        tab_to(page, "bx-play", 12)
        page.keyboard.press(" ")
    else:
        page.keyboard.press("Enter")  # the chosen landing again plays it


def play_round(page: Any, r: int) -> None:
    """One pick round on the board: Pass when BX-7 allows it, else a card then a landing."""
    page.get_by_test_id("bx-pick").wait_for()
    if page.get_by_test_id("bx-pass").is_enabled():
        assert "BX-7" in page.get_by_test_id("bx-pass-why").inner_text()
        page.get_by_test_id("bx-pass").click()
        return
    card = page.locator("button.bx-card:not([disabled])").first
    dest = page.locator("button.bx-cell[data-dest=yes]").first
    card.click()
    assert card.get_attribute("aria-pressed") == "true"
    # An illegal landing is refused on the page with the rule named; nothing is sent (BX-9).
    before = own_status(page)
    page.locator("button.bx-cell[data-dest=no]").first.click()
    page.get_by_test_id("bx-local-error").filter(has_text="BX-9").wait_for()
    assert own_status(page) == before
    dest.click()
    page.get_by_test_id("bx-preview").wait_for()
    assert "path" in page.get_by_test_id("bx-preview").inner_text()
    if r == 1:
        check_page(page, "round 1 with a landing previewed")
    dest.click()  # tapping the chosen landing again plays it


def test_whole_boxes_match_on_the_board_at_phone_size(browser: Any, live_server: str,
                                                      new_match: Any, screenshot_dir: Path
                                                      ) -> None:
    seed = 11
    m = new_match("boxes", seats=SEATS, config=SMALL, seed=seed)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        page.goto(m["links"]["seats"][0])
        page.get_by_test_id("phase-name").filter(has_text="Study the boards").wait_for()
        page.get_by_test_id("bx-board-A").wait_for()
        assert page.get_by_test_id("bx-cell-A-D4").get_attribute("aria-label").endswith(
            "the box is here")
        check_page(page, "study boards")
        page.get_by_test_id("bx-ready").click()

        page.get_by_test_id("phase-name").filter(has_text="Study the cards").wait_for()
        assert page.locator("[data-testid^=bx-card-]").count() >= 1
        assert "Type A+" in page.get_by_test_id("bx-legend").inner_text()
        check_page(page, "study cards")
        page.get_by_test_id("bx-ready").click()

        # Bets: the builder shows uses left, payouts and points left; an invalid draft is
        # refused on the page (BX-4) and the button stays off.
        page.get_by_test_id("phase-name").filter(has_text="Bets").wait_for()
        assert "2 uses left" in page.get_by_test_id("bx-trait-0").inner_text()
        page.get_by_test_id("bx-trait-0").select_option("black")
        page.get_by_test_id("bx-trait-1").select_option("black")
        page.get_by_test_id("bx-bet-problem").filter(has_text="BX-4").wait_for()
        assert page.get_by_test_id("bx-bet-submit").is_disabled()
        page.get_by_test_id("bx-trait-1").select_option("7")
        page.get_by_test_id("bx-op-1").select_option("or")
        page.get_by_test_id("bx-trait2-1").select_option("9")
        page.get_by_test_id("bx-trait-2").select_option("3")
        page.get_by_test_id("bx-stake-up-0").click()
        assert "pays 4 per landing" in page.get_by_test_id("bx-pay-0").inner_text()
        assert "pays 1.5 per landing" in page.get_by_test_id("bx-pay-1").inner_text()
        assert "16 left" in page.get_by_test_id("bx-points-left").inner_text()
        assert page.get_by_test_id("bx-bet-text").inner_text() == "black: 2; 7 or 9: 1; 3: 1"
        assert page.get_by_test_id("bx-odds-off").is_visible()  # LO-12: off for seats
        check_page(page, "bets")
        page.get_by_test_id("bx-bet-submit").click()

        for r in range(1, 5):
            page.get_by_test_id("phase-name").filter(has_text=f"Round {r} of 4").wait_for()
            if r == 2:
                check_page(page, "round 2")
                page.screenshot(path=str(screenshot_dir / "boxes_round2.png"), full_page=True)
            play_round(page, r)

        result = page.get_by_test_id("result")
        result.wait_for(state="visible")
        page.get_by_test_id("bx-bouts").wait_for()
        assert "black" in page.get_by_test_id("bx-bouts").inner_text()
        assert page.locator("[data-testid=notation][open]").count() == 0  # never opened
        check_page(page, "match over")
        page.screenshot(path=str(screenshot_dir / "boxes_final.png"), full_page=True)

        view = server_view(live_server, m["id"], m["tokens"]["seats"][0])
        winner = view["result"]["winner"]
        assert page.get_by_test_id("winner").inner_text() == ("You win" if winner == 0
                                                              else "Robo wins")
        points = view["state"]["points"]
        status = page.get_by_test_id("bx-bouts").inner_text()
        assert f"Ada {points[0]}" in status and f"Robo {points[1]}" in status

        texts = seat_texts(live_server, m["id"], m["tokens"]["seats"][0])
        assert texts[:3] == ["ready", "ready", "black: 2; 7 or 9: 1; 3: 1"]
        again = replay_as_notation(live_server, new_match, seed, texts)
        assert again["winner"] == winner and again["scores"] == view["result"]["scores"]
    finally:
        context.close()


def test_boxes_match_by_keyboard_at_desktop_size(browser: Any, live_server: str,
                                                 new_match: Any) -> None:
    """A whole match at 1280x800 by the keyboard alone: no control is focused by
    the test, only Tab, Shift+Tab, the arrows, Enter and Space. After each send the page
    hands the focus to the new phase's first control (without it Chromium left the focus on
    <body> and the next Tab skipped the bet builder above the removed Ready button)."""
    m = new_match("boxes", seats=SEATS, config=SMALL, seed=5)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        page.goto(m["links"]["seats"][0])
        page.get_by_test_id("phase-name").filter(has_text="Study the boards").wait_for()
        # The first Tab stop skips the site's links and the header to the board.
        page.keyboard.press("Tab")
        assert active_testid(page) == "skip-to-board"
        page.keyboard.press("Enter")
        tab_to(page, "bx-ready", 2)
        assert focus_ring(page).startswith("solid"), focus_ring(page)
        page.keyboard.press("Enter")
        page.get_by_test_id("phase-name").filter(has_text="Study the cards").wait_for()
        await_focus(page, "bx-ready")
        page.keyboard.press("Enter")
        page.get_by_test_id("phase-name").filter(has_text="Bets").wait_for()
        await_focus(page, "bx-trait-0")
        tab_to(page, "bx-trait-2", 12)
        page.keyboard.press("ArrowDown")  # 0 -> 1: still three different traits
        assert page.get_by_test_id("bx-bet-text").inner_text() == "black: 1; white: 1; 1: 1"
        tab_to(page, "bx-stake-up-1", 12, key="Shift+Tab")
        page.keyboard.press("Enter")
        assert page.get_by_test_id("bx-bet-text").inner_text() == "black: 1; white: 2; 1: 1"
        tab_to(page, "bx-bet-submit", 12)
        page.keyboard.press("Enter")
        for r in range(1, 5):
            page.get_by_test_id("phase-name").filter(has_text=f"Round {r} of 4").wait_for()
            play_round_by_keyboard(page, r)
        page.get_by_test_id("result").wait_for(state="visible")
        # The last round's controls are gone: the focus is on the result, not on <body>.
        page.wait_for_function("() => document.activeElement"
                               " && document.activeElement.dataset.testid === 'result'")
        check_page(page, "desktop, match over")
        # How the bout was settled reads as a host says it: each bet's stake and condition
        # ("1 on black"), how often the box landed on it and what it paid (not "1 0× paid 0
        # for 1").
        decided = page.get_by_test_id("result").inner_text()
        assert "×" not in decided, decided
        assert re.search(r"\b\d+ on (black|white|number \d)", decided), decided
        assert "landed" in decided, decided
    finally:
        context.close()


def test_boxes_host_sees_the_odds_helper_and_seats_only_when_allowed(
        browser: Any, live_server: str, new_match: Any) -> None:
    """LO-12: the host always has the odds helper; a seat only when the host enabled it."""
    m = new_match("boxes", seats=SEATS, config={**SMALL, "odds_helper": True}, seed=3)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        page.goto(m["links"]["seats"][0])
        page.get_by_test_id("bx-ready").click()
        page.get_by_test_id("phase-name").filter(has_text="Study the cards").wait_for()
        page.get_by_test_id("bx-ready").click()
        page.get_by_test_id("phase-name").filter(has_text="Bets").wait_for()
        page.get_by_test_id("bx-odds").wait_for()
        assert "at least one" in page.get_by_test_id("bx-pay-0").inner_text()
        check_page(page, "seat with the odds helper")
        page.goto(m["links"]["host"])
        page.get_by_test_id("bx-odds").wait_for()
        assert "Board B" in page.get_by_test_id("bx-odds").inner_text()
        check_page(page, "host during bets")
        page.goto(m["links"]["spectator"])
        page.get_by_test_id("bx-board-A").wait_for()
        assert page.get_by_test_id("bx-odds").count() == 0
        check_page(page, "spectator during bets")
    finally:
        context.close()
