"""Paint Factory played on its board in a real browser.

At phone size a human seat designs its eight sets by tapping slots (a live PF-4 check refuses
two identical sets before anything is sent), then plays all 31 decisions against an instant bot
with the board alone: tapping an offered set twice (PF-5), tapping a row or column handle to
preview the shove and again to confirm it (PF-2, PF-3), and choosing the last colour. The page
passes the page checks at several moments, a spectator sees both grids as they stood at the last
showing (the set being played stays private, G-9) and then both final grids, and the result equals the server's and
that of the same moves sent as notation to a fresh match with the same seed."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
import pytest

from web.checks import assert_page_ok
from web.keyboard import active_testid, await_focus, tab_to

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}
# A valid design (PF-4), and the same with set 2 made equal to set 1.
DESIGN = ["RGBR", "GBRG", "BRGB", "RBGR", "GRBG", "BGRB", "RGRB", "GBGR"]
ORDER = "RGB"  # a slot starts empty; each tap moves it one colour along red, green, blue
HANDLES = ["1", "A", "B", "C", "D", "E", "2", "3", "4", "5"]
NEXT_PHASE = """([old]) => {
  const r = document.querySelector('[data-testid=result]');
  if (r) return true;
  const h = document.querySelector('[data-testid=phase-name]');
  return h && h.textContent !== old;
}"""


def check(page: Any, where: str, *, with_axe: bool = False) -> None:
    assert_page_ok(page, where, with_axe=with_axe)


def token_of(url: str) -> str:
    return parse_qs(urlparse(url).query)["token"][0]


def tap_set(page: Any, number: int, colours: str, have: str = "") -> None:
    """Tap the slots of set ``number`` until they read ``colours`` (from ``have``)."""
    for j, c in enumerate(colours):
        start = ORDER.index(have[j]) + 1 if have else 0
        taps = (ORDER.index(c) + 1 - start) % 3 if have else ORDER.index(c) + 1
        for _ in range(taps):
            page.get_by_test_id(f"pf-slot-{number}-{j + 1}").click()


def shove_on_board(page: Any, turn: int) -> None:
    """Clear A1 with the handles only: the first handle that starts a legal action, a second
    shove when the first one alone leaves A1 full, then the last handle again (or Confirm)."""
    confirm = page.get_by_test_id("pf-shove-confirm")
    for name in HANDLES:
        kind = "row" if name.isdigit() else "col"
        handle = page.get_by_test_id(f"pf-{kind}-{name}")
        # An idle handle is greyed and aria-disabled, yet a tap on it says why in words
        #: the tap is forced past Playwright's "enabled" wait.
        handle.click(force=handle.get_attribute("aria-disabled") == "true")
        if handle.get_attribute("aria-pressed") != "true":
            assert page.get_by_test_id("pf-hint").filter(has_text="PF-").count() == 1
            continue
        last = handle
        if not confirm.is_enabled():  # a column other than A, or a row other than 1
            last = page.get_by_test_id("pf-row-1" if kind == "col" else "pf-col-A")
            last.click()
        assert confirm.is_enabled()
        assert page.get_by_test_id("pf-preview").filter(has_text="A1 ends empty").count() == 1
        if turn % 5 == 0:
            confirm.click()
        else:
            last.click()
        return
    raise AssertionError("no handle started a legal action")


def test_whole_match_on_the_board_at_phone_size(browser: Any, live_server: str,
                                                new_match: Any) -> None:
    seats = [{"name": "Ada", "bot": False}, {"name": "Robo", "bot": True}]
    m = new_match("paint", seats=seats, seed=11)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        page.goto(m["links"]["seats"][0])
        page.get_by_test_id("pf-slot-1-1").wait_for()
        check(page, "design, empty", with_axe=True)

        # A design with two identical sets is refused on the page, naming PF-4; nothing is sent.
        tap_set(page, 1, DESIGN[0])
        tap_set(page, 2, DESIGN[0])
        for i in range(2, 8):
            tap_set(page, i + 1, DESIGN[i])
        problems = page.get_by_test_id("pf-design-check")
        problems.filter(has_text="identical").wait_for()
        assert problems.get_by_role("link", name="PF-4").count() >= 1
        assert page.get_by_test_id("pf-design-submit").is_disabled()
        assert page.get_by_test_id("pf-slot-2-1").inner_text().split() == ["R", "red"]
        check(page, "design refused")
        seat = httpx.get(f"{live_server}/api/matches/{m['id']}/view",
                         params={"token": token_of(m["links"]["seats"][0])}).json()["seats"][0]
        assert seat["acted"] is False
        tap_set(page, 2, DESIGN[1], have=DESIGN[0])
        page.get_by_test_id("pf-design-check").filter(has_text="follow every").wait_for()
        assert page.get_by_test_id("pf-design-notation").inner_text() == ",".join(DESIGN)
        page.get_by_test_id("pf-design-submit").click()

        decisions = 0
        spectator = None
        result = page.get_by_test_id("result")
        while decisions < 40:
            page.wait_for_selector("[data-testid=pf-pick-confirm], [data-testid=pf-shove-confirm],"
                                   " [data-testid=pf-last-confirm], [data-testid=result]")
            if result.count():
                break
            old = page.get_by_test_id("phase-name").inner_text()
            if page.get_by_test_id("pf-pick-confirm").count():
                offer = page.locator("[data-testid^=pf-pick-]:not([data-testid=pf-pick-confirm])")
                assert offer.count() == 3
                first = offer.nth(decisions % 3)
                first.click()
                assert first.get_attribute("aria-pressed") == "true"
                if decisions == 0:
                    check(page, "first pick", with_axe=True)
                first.click()
            elif page.get_by_test_id("pf-shove-confirm").count():
                turn = int(old.split()[1])
                if turn == 3:
                    page.get_by_test_id("pf-row-1").click()
                    check(page, "shove preview", with_axe=True)
                    page.get_by_test_id("pf-shove-clear").click()
                if turn == 12 and spectator is None:
                    spectator = context.new_page()
                    spectator.goto(m["links"]["spectator"])
                    spectator.get_by_test_id("pf-spectator-note").wait_for()
                    assert spectator.get_by_test_id("pf-status").filter(has_text="Turn 12").count()
                    # Both grids as they stood at the third showing (after turn 8), the same as
                    # the host's record of them; the set being played stays private (G-9).
                    seen = httpx.get(f"{live_server}/api/matches/{m['id']}/view",
                                     params={"token": m["tokens"]["host"]}).json()
                    for p in seen["state"]["progress"]:
                        assert p["turn"] == 8
                        board = spectator.get_by_test_id(f"pf-progress-grid-{p['seat']}")
                        colours = board.locator("[data-cell]").evaluate_all(
                            "cs => cs.map(c => c.dataset.colour).join('')")
                        assert colours == "".join(p["grid"])
                    assert spectator.get_by_test_id("pf-progress").filter(
                        has_text="Robo’s grid after turn 8").count() == 1
                    assert page.get_by_test_id("pf-opponent").filter(
                        has_text="Robo’s grid after turn 8").count() == 1
                    check(spectator, "spectator mid-match", with_axe=True)
                    page.bring_to_front()  # a page in the background gets no animation frames
                shove_on_board(page, turn)
            else:
                assert page.get_by_test_id("pf-incoming").count() == 0
                page.get_by_test_id("pf-last-G").click()
                check(page, "last colour", with_axe=True)
                page.get_by_test_id("pf-last-G").click()
            decisions += 1
            page.wait_for_function(NEXT_PHASE, arg=[old])
        result.wait_for()
        assert decisions == 31

        # Both grids are revealed with their scores; they match the server's result.
        page.get_by_test_id("pf-board-1").wait_for()
        host = httpx.get(f"{live_server}/api/matches/{m['id']}/view",
                         params={"token": m["tokens"]["host"]}).json()
        scores = host["result"]["scores"]
        for s in (0, 1):
            assert float(page.get_by_test_id(f"pf-score-{s}-value").inner_text()
                         .replace(",", "")) == scores[s]
        assert page.locator("[data-testid=pf-grid-0] .chain-length").count() >= 1
        winner = host["result"]["winner"]
        assert page.get_by_test_id("winner").inner_text() == ("You win" if winner == 0
                                                               else "Robo wins")
        check(page, "result", with_axe=True)
        assert spectator is not None
        spectator.get_by_test_id("pf-board-1").wait_for()
        check(spectator, "spectator after the end")

        # The same decisions sent as notation to a fresh match with the same seed: same result.
        sent = list(host["state"]["boards"][0]["decisions"])
        assert len(sent) == 31
        again = new_match("paint", seats=seats, seed=11)
        params = {"token": again["tokens"]["seats"][0]}
        base = f"{live_server}/api/matches/{again['id']}"
        done = 0
        for text in [",".join(DESIGN), *sent]:
            # Each decision goes to its own phase, named (G-2): wait until the seat is asked
            # again (the bot may still be thinking about the phase before).
            deadline = time.monotonic() + 60
            while True:
                view = httpx.get(base + "/view", params=params).json()
                phase = view["phase"]
                if phase and phase["no"] > done and 0 in phase["waiting_for"]:
                    break
                assert time.monotonic() < deadline, "the seat was not asked again"
                time.sleep(0.02)
            done = phase["no"]
            r = httpx.post(base + "/submit", params=params,
                           json={"text": text, "final": True, "phase": done})
            assert r.status_code == 200, r.text
        final = httpx.get(base + "/view", params={"token": again["tokens"]["host"]}).json()
        deadline = time.monotonic() + 60
        while final["result"] is None:
            assert time.monotonic() < deadline, "the replayed match did not end"
            time.sleep(0.05)
            final = httpx.get(base + "/view", params={"token": again["tokens"]["host"]}).json()
        assert final["result"]["scores"] == scores
        assert final["result"]["winner"] == winner
    finally:
        context.close()


def test_whole_match_by_keyboard_on_a_wide_screen(browser: Any, live_server: str,
                                                  new_match: Any) -> None:
    """The same match at 1280x800 with the keyboard alone: the test focuses
    nothing itself. R, G and B keys on the design slots, the arrows between slots, Tab and
    Shift+Tab to a control, Enter (twice where a tap previews first). After every decision
    the page hands the focus to the next phase's first usable control (measured before: the
    focus fell to <body>, one Tab from the next control here, 34 in Boxes' bet builder)."""
    m = new_match("paint", seats=[{"name": "Ada", "bot": False}, {"name": "Robo", "bot": True}],
                  seed=12)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        page.goto(m["links"]["seats"][0])
        page.get_by_test_id("pf-slot-1-1").wait_for()
        # The first Tab stop skips the site's links and the header to the board.
        page.keyboard.press("Tab")
        assert active_testid(page) == "skip-to-board"
        page.keyboard.press("Enter")
        tab_to(page, "pf-slot-1-1", 2)
        page.keyboard.press("ArrowDown")
        assert active_testid(page) == "pf-slot-2-1"
        page.keyboard.press("ArrowRight")
        assert active_testid(page) == "pf-slot-2-2"
        page.keyboard.press("ArrowUp")
        page.keyboard.press("ArrowLeft")
        assert active_testid(page) == "pf-slot-1-1"
        for i, s in enumerate(DESIGN):
            for j, c in enumerate(s):
                assert active_testid(page) == f"pf-slot-{i + 1}-{j + 1}"
                page.keyboard.press(c.lower())
                page.keyboard.press("Tab")
        page.get_by_test_id("pf-design-check").filter(has_text="follow every").wait_for()
        tab_to(page, "pf-design-submit", 3)
        page.keyboard.press("Enter")

        decisions = 0
        result = page.get_by_test_id("result")
        while decisions < 40:
            page.wait_for_selector("[data-testid=pf-pick-confirm], [data-testid=pf-shove-confirm],"
                                   " [data-testid=pf-last-confirm], [data-testid=result]")
            if result.count():
                break
            old = page.get_by_test_id("phase-name").inner_text()
            if page.get_by_test_id("pf-pick-confirm").count():
                await_focus(page, "pf-pick-")
                page.keyboard.press("Enter")
                page.keyboard.press("Enter")
            elif page.get_by_test_id("pf-shove-confirm").count():
                # The first handle that can start a way to clear A1 (greyed ones cannot).
                keyboard_shove(page, await_focus(page, "pf-"))
            else:
                await_focus(page, "pf-last-R")
                page.keyboard.press("Enter")
                tab_to(page, "pf-last-confirm", 4)
                page.keyboard.press("Enter")
            decisions += 1
            page.wait_for_function(NEXT_PHASE, arg=[old])
        result.wait_for()
        assert decisions == 31
        page.wait_for_function("() => document.activeElement"
                               " && document.activeElement.dataset.testid === 'result'")
        host = httpx.get(f"{live_server}/api/matches/{m['id']}/view",
                         params={"token": m["tokens"]["host"]}).json()
        assert host["state"]["boards"][0]["decisions"][-1] == "R"
        score = page.get_by_test_id("pf-score-0-value").inner_text().replace(",", "")
        assert float(score) == host["result"]["scores"][0]
        check(page, "keyboard result", with_axe=True)
    finally:
        context.close()


# The handles in the page's tab order: the column handles above the grid, then each row's.
TAB_ORDER = ["A", "B", "C", "D", "E", "1", "2", "3", "4", "5"]


def keyboard_shove(page: Any, first: str) -> None:
    """Clear A1 by keyboard from the handle the page focused: Enter on a handle to preview (a
    handle that cannot help says why), Tab to the next; a second handle of the other kind when
    needed (Tab forward to row 1, Shift+Tab back to column A); Enter again sends."""
    start = TAB_ORDER.index(first.rsplit("-", 1)[1])
    for k, name in enumerate(TAB_ORDER[start:]):
        kind = "row" if name.isdigit() else "col"
        testid = f"pf-{kind}-{name}"
        if k:
            page.keyboard.press("Tab")
        assert active_testid(page) == testid
        page.keyboard.press("Enter")
        if page.get_by_test_id(testid).get_attribute("aria-pressed") != "true":
            assert page.get_by_test_id("pf-hint").filter(has_text="PF-").count() == 1
            continue
        if not page.get_by_test_id("pf-shove-confirm").is_enabled():
            if kind == "col":
                tab_to(page, "pf-row-1", 6)
            else:
                tab_to(page, "pf-col-A", 12, key="Shift+Tab")
            page.keyboard.press("Enter")
        assert page.get_by_test_id("pf-shove-confirm").is_enabled()
        page.keyboard.press("Enter")  # the focused handle again confirms
        return
    raise AssertionError("no handle started a legal action")
