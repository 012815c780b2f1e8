"""Locked Out! in a real browser: a human seat plays a whole two-round match against
five instant bots at phone size using only the board's controls (safe grid, notes, the plan's
Solo/Dual/claim pickers, the vote), with the page checks at several moments.

The test reads the host's view over the API only to know what the bots planned (so the human can
name a bot back for its Dual and open a safe with it, LO-3/LO-5); every move of the human goes
through the board, and the notation drawer stays closed."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from web.checks import assert_page_ok

pytestmark = pytest.mark.slow

NAMES = ["Ann", "Bob", "Cleo", "Dmitri", "Eve", "Fatima"]
COLOURS = ("black", "red", "green", "blue", "magenta", "yellow", "cyan", "white")


def assert_ok(page: Any, where: str) -> None:
    assert_page_ok(page, where, with_axe=True)


def host_view(base: str, match: dict[str, Any]) -> dict[str, Any]:
    r = httpx.get(f"{base}/api/matches/{match['id']}/view",
                  params={"token": match["tokens"]["host"]}, timeout=10)
    r.raise_for_status()
    data: dict[str, Any] = r.json()
    return data


def standing(view: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    subs = view["seats"][seat].get("submissions") or []
    return list(subs[-1]["value"]) if subs else []


def wait_phase(page: Any, text: str, timeout: float = 60_000) -> None:
    page.get_by_test_id("phase-name").filter(has_text=text).wait_for(timeout=timeout)


def test_whole_match_on_the_board_at_phone_size(page: Any, live_server: str, new_match: Any,
                                                screenshot_dir: Path, browser: Any) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    seats = [{"name": n, "bot": i > 0} for i, n in enumerate(NAMES)]
    m = new_match("lockedout", seats=seats, settings={"time_scale": 1.0},
                  config={"max_rounds": 2, "round_seconds": 14, "vote_seconds": 10}, seed=19)
    page.goto(m["links"]["seats"][0])
    wait_phase(page, "Round 1")
    page.get_by_test_id("lo-deadline").wait_for()
    # LO-12: the deduction helper is off for seats unless the host enables it.
    page.get_by_test_id("lo-helper-off").wait_for()
    assert page.get_by_test_id("lo-helper").count() == 0

    # What the bots planned (seed 19): Bob tries a Solo that is right; a bot names Ann for a
    # Dual on another safe (LO-3). Read once every bot has planned (their workers may still be
    # starting when the page is up).
    hv = host_view(live_server, m)
    deadline = time.monotonic() + 30
    while not all(standing(hv, s) for s in range(1, 6)):
        assert time.monotonic() < deadline, "the bots did not plan round 1"
        time.sleep(0.05)
        hv = host_view(live_server, m)
    combos = hv["state"]["combinations"]
    plans = {s: standing(hv, s) for s in range(1, 6)}
    target = next(c["safe"] for cs in plans.values() for c in cs
                  if c["kind"] == "solo" and [c["left"], c["right"]] == combos[c["safe"]])
    lock = combos[target]
    bot, dual = next((s, c) for s, cs in plans.items() for c in cs
                     if c["kind"] == "dual" and c["partner"] == 0)
    assert dual["safe"] != target
    card = next(v for v in (1, 2, 3, 4) if v not in lock)

    # The notes grid: strike a combination out; it survives a reload and follows the seat to a
    # second device (a fresh browser context: the server keeps the seat's notes).
    page.get_by_test_id(f"lo-safe-{target}").click()
    page.get_by_test_id(f"lo-note-{target}-1-1").click()
    assert page.get_by_test_id(f"lo-note-{target}-1-1").get_attribute("aria-pressed") == "true"
    page.get_by_test_id("lo-notes-saved").filter(has_text="saved").wait_for()
    page.reload()
    page.get_by_test_id(f"lo-safe-{target}").click()
    page.locator(f"[data-testid=lo-note-{target}-1-1][aria-pressed=true]").wait_for()
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        other = phone.new_page()
        other.goto(m["links"]["seats"][0])
        other.get_by_test_id(f"lo-safe-{target}").click()
        other.locator(f"[data-testid=lo-note-{target}-1-1][aria-pressed=true]").wait_for()
        assert other.get_by_test_id(f"lo-note-{target}-1-2").get_attribute("aria-pressed") \
            == "false"
    finally:
        phone.close()
    page.bring_to_front()

    # A Dual from the bot's safe's own panel, naming the bot but on the bot's own side: it
    # will not happen, and both partners are told (LO-3).
    page.get_by_test_id(f"lo-safe-{dual['safe']}").click()
    page.get_by_test_id("lo-dual-here").click()
    page.get_by_test_id(f"lo-dual-side-{dual['side']}").click()
    page.get_by_test_id(f"lo-dual-card-{card}").click()
    page.get_by_test_id("lo-dual-partner").select_option(label=NAMES[bot])
    # A Solo on the same safe is refused with the rule's name, beside the plan (LO-3, G-6).
    page.get_by_test_id("lo-solo-here").click()
    page.get_by_test_id(f"lo-solo-left-{lock[0]}").click()
    page.get_by_test_id(f"lo-solo-right-{lock[1]}").click()
    page.get_by_test_id("lo-submit").click()
    page.get_by_test_id("lo-msg").filter(has_text="LO-3").wait_for()
    assert page.get_by_test_id("lo-msg").locator("a").count() >= 1
    # The Solo goes on the safe the bots open too: Ann joins its bargain (LO-5).
    page.get_by_test_id("lo-solo-safe").select_option(target)
    preview = page.get_by_test_id("lo-preview").inner_text()
    assert f"Solo, Safe {target}, Left {lock[0]} Right {lock[1]}" in preview
    side_word = dual["side"].capitalize()
    assert f"Dual, Safe {dual['safe']}, {side_word} {card} with {NAMES[bot]}" in preview
    page.get_by_test_id("lo-submit").click()
    page.get_by_test_id("lo-submitted").filter(has_text="Submitted").wait_for()
    page.get_by_test_id("lo-msg-ok").filter(has_text=f"Safe {target}").wait_for()
    # Submitted, not final: the plan can still change (G-2) and nothing offers "final".
    assert "final" not in page.get_by_test_id("lo-board").inner_text().lower()
    assert_ok(page, "round 1, plan submitted")
    page.screenshot(path=str(screenshot_dir / "lockedout_round1_phone.png"), full_page=True)

    # Round 2: the failed Dual and the opening are in the safes' histories; Ann bargains.
    wait_phase(page, "Round 2")
    page.get_by_test_id(f"lo-safe-{dual['safe']}").click()
    assert "A dual try did not happen" in page.get_by_test_id("lo-history").inner_text()
    page.get_by_test_id(f"lo-safe-{target}").click()
    assert "you opened it" in page.get_by_test_id("lo-history").inner_text()
    page.get_by_test_id(f"lo-bargain-{target}").wait_for()
    assert NAMES[1] in page.get_by_test_id(f"lo-bargain-{target}").inner_text()
    assert "nobody gets anything" in page.get_by_test_id("lo-bargains").inner_text()
    # Claim what the other bargainers left over, so the claims add up (LO-5).
    hv = host_view(live_server, m)
    bars, keys = 2, 1
    bargainers = next(s["bargainers"] for s in hv["state"]["safes"] if s["safe"] == target)
    for s in bargainers:
        for c in standing(hv, s) if s != 0 else []:
            if c["kind"] == "claim" and c["safe"] == target:
                bars, keys = bars - c["bars"], keys - c["keys"]
    assert 0 <= bars <= 2 and 0 <= keys <= 1
    page.get_by_test_id(f"lo-claim-bars-{target}-{bars}").click()
    page.get_by_test_id(f"lo-claim-keys-{target}-{keys}").click()
    # And a Solo with a wrong guess on a closed safe, for a light.
    hand = hv["state"]["hands"][0]
    left, right = next((a, b) for a in (1, 2, 3, 4) for b in (1, 2, 3, 4)
                       if hand[a - 1] and hand[b - 1] and (a != b or hand[a - 1] > 1))
    other = next(s["safe"] for s in hv["state"]["safes"]
                 if s["status"] == "closed" and combos[s["safe"]] != [left, right])
    page.get_by_test_id(f"lo-safe-{other}").click()
    page.get_by_test_id("lo-solo-here").click()
    page.get_by_test_id(f"lo-solo-left-{left}").click()
    page.get_by_test_id(f"lo-solo-right-{right}").click()
    preview = page.get_by_test_id("lo-preview").inner_text()
    assert f"Bargain, Safe {target}, Claim {bars} Gold bars, {keys} Keys" in preview
    assert f"Solo, Safe {other}, Left {left} Right {right}" in preview
    page.get_by_test_id("lo-submit").click()
    page.get_by_test_id("lo-submitted").filter(has_text="Submitted").wait_for()
    assert_ok(page, "round 2, claim submitted")
    page.screenshot(path=str(screenshot_dir / "lockedout_round2_phone.png"), full_page=True)

    # The vote (LO-9), after a final bargaining phase if bots opened a safe together.
    wait_phase(page, "Elimination vote")
    page.get_by_test_id("lo-bargains-done").filter(has_text=f"Safe {target}").wait_for()
    assert "agreed" in page.get_by_test_id("lo-bargains-done").inner_text()
    page.get_by_test_id(f"lo-safe-{other}").click()
    history = page.get_by_test_id("lo-history").inner_text()
    assert f"Solo try of {left} on the left and {right} on the right" in history
    assert any(c in history for c in COLOURS), history
    page.get_by_test_id("lo-end").wait_for()
    page.get_by_test_id("lo-vote-1").click()
    page.get_by_test_id("lo-vote-submit").click()
    page.get_by_test_id("lo-submitted").filter(has_text=f"You voted for {NAMES[1]}").wait_for()
    assert_ok(page, "the vote")

    result = page.get_by_test_id("result")
    result.wait_for(state="visible", timeout=60_000)
    final = host_view(live_server, m)["result"]
    # The card is headed by who escaped and who is the EC (the game's resultTitle), not by
    # "No single winner"; the reason below it says the same first.
    heading = page.get_by_test_id("winner").inner_text()
    assert "Elimination Candidate" in heading and "escaped" in heading.lower()
    reason = page.get_by_test_id("result-reason").inner_text()
    assert "escaped" in reason.split(";")[0].lower()
    assert f"{NAMES[final['detail']['ec']]} is the Elimination Candidate" in reason
    assert "Elimination Candidate" in page.get_by_test_id("lo-end").inner_text()
    ec = final["detail"]["ec"]
    assert NAMES[ec] in page.get_by_test_id("lo-end").inner_text()
    # After the match every combination is shown (G-9), on the grid too.
    shut = combos[other]
    assert f"{shut[0]}–{shut[1]}" in page.get_by_test_id(f"lo-safe-{other}").inner_text()
    # Ann's seat shows what the agreed bargain paid.
    seat_text = page.get_by_test_id("lo-seat-0").inner_text()
    assert f"{keys} key" in seat_text and f"{bars} gold bar" in seat_text
    assert_ok(page, "the result")
    page.screenshot(path=str(screenshot_dir / "lockedout_final_phone.png"), full_page=True)


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_host_and_spectator_pages(browser: Any, live_server: str, new_match: Any,
                                  size: tuple[int, int]) -> None:
    """The host sees every combination on the grid; a spectator sees no lights (LO-4); both
    pages pass the page checks at phone and desk sizes; one name per seat everywhere."""
    seats = [{"name": n, "bot": i > 0} for i, n in enumerate(NAMES[:4])]
    m = new_match("lockedout", seats=seats, settings={"time_scale": 1.0}, seed=3)
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        pg = context.new_page()
        pg.set_default_timeout(20_000)
        pg.goto(m["links"]["host"])
        wait_phase(pg, "Round 1")
        pg.get_by_test_id("lo-safe-A").click()
        assert "Combination: Left" in pg.get_by_test_id("lo-safe-detail").inner_text()
        assert_ok(pg, f"host page at {size}")
        pg.goto(m["links"]["spectator"])
        wait_phase(pg, "Round 1")
        text = pg.get_by_test_id("lo-board").inner_text()
        assert all(n in text for n in NAMES[:4])
        assert "Combination" not in text
        pg.get_by_test_id("lo-safe-B").click()
        assert pg.get_by_test_id("lo-history").count() == 0
        assert_ok(pg, f"spectator page at {size}")
    finally:
        context.close()


def tab_to(page: Any, testid: str, limit: int = 250) -> None:
    """Press Tab until the element with ``testid`` has the keyboard focus."""
    for _ in range(limit):
        if page.evaluate("() => document.activeElement && document.activeElement.dataset"
                         " ? document.activeElement.dataset.testid || '' : ''") == testid:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {testid}")


def test_keyboard_only_match_at_desk_size(browser: Any, live_server: str, new_match: Any) -> None:
    """A whole one-round match at 1280x800 with the keyboard alone: a safe from the grid, a
    note struck out, a Solo planned with the card buttons and submitted, the vote; every control
    reached by Tab shows its focus."""
    seats = [{"name": n, "bot": i > 0} for i, n in enumerate(NAMES[:3])]
    m = new_match("lockedout", seats=seats, settings={"time_scale": 1.0},
                  config={"max_rounds": 1, "round_seconds": 15, "vote_seconds": 10}, seed=7)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(m["links"]["seats"][0])
        wait_phase(page, "Round 1")
        tab_to(page, "lo-safe-D")
        outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
        assert outline != "none"
        page.keyboard.press("Enter")
        tab_to(page, "lo-note-D-4-4")
        page.keyboard.press("Space")
        assert page.get_by_test_id("lo-note-D-4-4").get_attribute("aria-pressed") == "true"
        page.keyboard.press("Shift+Tab")
        tab_to(page, "lo-solo-here")
        page.keyboard.press("Enter")
        # The planner takes the focus to the Solo's first card.
        page.wait_for_function("() => document.activeElement.dataset.testid === 'lo-solo-left-1'")
        page.keyboard.press("Enter")
        tab_to(page, "lo-solo-right-3")
        page.keyboard.press("Enter")
        assert "Solo, Safe D, Left 1 Right 3" in page.get_by_test_id("lo-preview").inner_text()
        tab_to(page, "lo-submit")
        page.keyboard.press("Enter")
        page.get_by_test_id("lo-submitted").filter(has_text="Submitted").wait_for()

        wait_phase(page, "Elimination vote")
        page.keyboard.press("Shift+Tab")
        tab_to(page, "lo-vote-2")
        page.keyboard.press("Enter")
        tab_to(page, "lo-vote-submit")
        page.keyboard.press("Enter")
        page.get_by_test_id("lo-submitted").filter(has_text=f"You voted for {NAMES[2]}").wait_for()
        page.get_by_test_id("result").wait_for(state="visible", timeout=40_000)
        assert "Elimination Candidate" in page.get_by_test_id("lo-end").inner_text()
        assert_ok(page, "keyboard match, the result at 1280x800")
    finally:
        context.close()


def test_helper_only_where_the_host_allows_it(page: Any, live_server: str,
                                              new_match: Any) -> None:
    """LO-12: with the helper turned on, a seat sees what each safe can still be and the
    likeliest guesses; the notes grid marks what the helper rules out."""
    page.set_viewport_size({"width": 390, "height": 844})
    seats = [{"name": n, "bot": i > 0} for i, n in enumerate(NAMES[:3])]
    m = new_match("lockedout", seats=seats, settings={"time_scale": 1.0},
                  config={"helper": True}, seed=4)
    page.goto(m["links"]["seats"][0])
    wait_phase(page, "Round 1")
    page.get_by_test_id("lo-helper").wait_for()
    assert page.get_by_test_id("lo-helper-off").count() == 0
    page.get_by_test_id("lo-safe-F").click()
    assert "16 combinations still possible" in page.get_by_test_id("lo-helper-safe").inner_text()
    assert_ok(page, "helper on, phone")


def test_tie_phase_of_the_vote(page: Any, live_server: str, new_match: Any) -> None:
    """LO-9's tie-break as the board draws it, from a view in the tie stage (escapes take many
    rounds, so the view is the real one with the stage changed; the live link is held off): an
    escaped seat chooses among the tied players by name and sends 'Vote <name>'."""
    page.set_viewport_size({"width": 390, "height": 844})
    seats = [{"name": n, "bot": i > 0} for i, n in enumerate(NAMES[:3])]
    m = new_match("lockedout", seats=seats, settings={"time_scale": 1.0}, seed=4)
    view = httpx.get(f"{live_server}/api/matches/{m['id']}/view",
                     params={"token": m["tokens"]["seats"][0]}, timeout=10).json()
    st = view["state"]
    st.update(stage="tie", tied=[NAMES[1], NAMES[2]], winners=[0],
              end_reason="the host's limit of 5 rounds was reached (LO-8)")
    st["seats"][0].update(inside=False, escaped_round=4, keys=3, bars=2)
    view["phase"].update(name="winners break the tie", may=[0], waiting_for=[0])
    sent: list[str] = []

    def fulfil_view(route: Any) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(view))

    def fulfil_submit(route: Any) -> None:
        sent.append(json.loads(route.request.post_data or "{}").get("text", ""))
        route.fulfill(status=200, content_type="application/json", body='{"final": false}')

    page.route_web_socket("**/ws/**", lambda ws: None)
    page.route("**/view?*", fulfil_view)
    page.route("**/submit?*", fulfil_submit)
    page.goto(m["links"]["seats"][0])
    wait_phase(page, "Winners break the tie")
    tie = page.get_by_test_id("lo-tie").inner_text()
    assert NAMES[1] in tie and NAMES[2] in tie
    assert page.get_by_test_id("lo-vote-0").count() == 0  # only the tied players
    page.get_by_test_id("lo-vote-2").click()
    page.get_by_test_id("lo-vote-submit").click()
    page.get_by_test_id("lo-msg-ok").filter(has_text=f"Vote {NAMES[2]}").wait_for()
    assert sent == [f"Vote {NAMES[2]}"]
    assert "escaped in round 4" in page.get_by_test_id("lo-seat-0").inner_text()
    assert_ok(page, "the tie-break")
