"""G-15 in a real browser: a Locked Out! match of six bots with a broadcast one minute
behind (a few real seconds at this time scale). The broadcast page shows every seat's lights,
the bargains and their private channels once the delay has passed, and never anything newer:
a watcher in the page checks, at every redraw, that no entry it holds is younger than the
moment the broadcast stands at.

A seat's board on the broadcast is drawn from that seat's own view, but its reader is the
audience: it names the seat ("Ann is inside the vault", "Ann's grid") and never says "you",
while the seat's own page still does. A Paint match of two bots, started alongside, checks a
two-seat game the same way."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from web.checks import assert_page_ok

pytestmark = pytest.mark.slow

NAMES = ["Ann", "Bob", "Cleo", "Dmitri", "Eve", "Fatima"]
SCALE = 1 / 10  # one minute of match time is six seconds
SHOTS = Path("/work/notes/shots/broadcast")
# The reader spoken to as a seat: on a broadcast's seat board, never (its reader is the audience).
SPOKEN_TO = re.compile(r"\b(?:You|you|Your|your|Yours|yours)\b")

# At each redraw: every entry the page holds is at or before the moment the broadcast shows.
WATCH = """() => {
  window.__late = [];
  const check = () => {
    const S = window.Arena.state;
    const at = S.view && S.view.broadcast ? S.view.broadcast.as_of : null;
    if (at == null) return;
    for (const e of S.events) if (e.t > at + 1e-6) window.__late.push([e.kind, e.t, at]);
  };
  setInterval(check, 50);
}"""


def _open_broadcast(base: str, m: dict[str, Any]) -> str:
    r = httpx.post(f"{base}/api/matches/{m['id']}/host/broadcast",
                   params={"token": m["tokens"]["host"]}, json={"delay": 60}, timeout=10)
    assert r.status_code == 200, r.text
    link: str = r.json()["link"]
    return link


def _not_spoken_to(page: Any, seat: int, where: str) -> str:
    """The text of ``seat``'s board on the broadcast, asserted free of "you" and "your"."""
    text: str = page.get_by_test_id(f"broadcast-board-{seat}").inner_text()
    found = SPOKEN_TO.search(text)
    assert found is None, (f"{where}: {NAMES[seat]}'s broadcast board says "
                           f"{text[max(0, found.start() - 60):found.end() + 60]!r}")
    return text


def _events(base: str, m: dict[str, Any]) -> list[dict[str, Any]]:
    r = httpx.get(f"{base}/api/matches/{m['id']}/events",
                  params={"token": m["tokens"]["host"]}, timeout=10)
    r.raise_for_status()
    events: list[dict[str, Any]] = r.json()["events"]
    return events


def test_a_broadcast_shows_every_seat_after_the_delay_and_not_before(
        page: Any, live_server: str, new_match: Any) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    m = new_match("lockedout", seats=[{"name": n, "bot": True} for n in NAMES],
                  settings={"time_scale": SCALE, "bot_pace": "instant", "early_close": False},
                  config={"max_rounds": 2, "round_seconds": 60, "vote_seconds": 30}, seed=1)
    # A two-seat game, started now so that its delay passes while Locked Out! is watched.
    paint = new_match("paint", seats=[{"name": n, "bot": True} for n in NAMES[:2]],
                      settings={"time_scale": SCALE, "bot_pace": "instant", "early_close": False},
                      config={"design_time": 60, "decision_time": 120}, seed=3)
    paint_link = _open_broadcast(live_server, paint)
    link = _open_broadcast(live_server, m)
    page.goto(link)
    page.evaluate(WATCH)
    page.get_by_test_id("role").filter(has_text="Broadcast").wait_for()
    page.get_by_test_id("conn-state").filter(has_text="1 min behind").wait_for()

    # The live match reaches its first lights; the broadcast shows them one minute later.
    page.wait_for_function(
        "() => (window.Arena.state.events || []).some((e) => e.kind === 'light')",
        timeout=60_000)
    live = _events(live_server, m)
    as_of, shown, over = page.evaluate(
        "() => [window.Arena.state.view.broadcast.as_of, "
        "window.Arena.state.events.map((e) => e.version), !!window.Arena.state.view.result]")
    # What the page holds is exactly the live log up to the moment it stands at (the seed,
    # which tells the chance still to come, once the match it shows is over).
    assert shown == [e["version"] for e in live
                     if e["t"] <= as_of and (over or e["kind"] != "seed")]
    # Meanwhile the match itself has gone on: the broadcast is behind it, not with it.
    assert not over and any(e["t"] > as_of for e in live)
    lit = sorted({e["to"][0] for e in live if e["kind"] == "light" and e["t"] <= as_of})
    assert len(lit) >= 2, "more than one seat's lights are shown"

    # Every seat's board, side by side, drawn from that seat's own view of the moment.
    page.get_by_test_id("broadcast-pick-side").click()
    for seat in range(6):
        page.get_by_test_id(f"broadcast-board-{seat}").get_by_test_id("lo-board").wait_for()
    # Each board names its seat where the seat's own page says "You are Ann", and never
    # speaks to the audience as that seat; nor does a safe's history opened on one of them.
    for seat, name in enumerate(NAMES):
        page.get_by_test_id(f"broadcast-board-{seat}").get_by_test_id("lo-status").filter(
            has_text=re.compile(rf"{name} (is inside the vault|escaped in round)")).wait_for()
        _not_spoken_to(page, seat, "Locked Out!")
    board = page.get_by_test_id("broadcast-board-1")
    board.get_by_test_id("lo-safe-D").click()
    board.get_by_test_id("lo-safe-detail").filter(has_text=f"{NAMES[1]}'s attempts on Safe D").wait_for()
    _not_spoken_to(page, 1, "Locked Out! with Safe D open")
    own = page.context.new_page()
    own.goto(m["links"]["seats"][1])
    own.get_by_test_id("lo-status").filter(has_text=f"You are {NAMES[1]}").wait_for()
    own.close()
    # The log speaks of every seat's lights, not only one reader's.
    log = page.get_by_test_id("log-panel")
    if not log.evaluate("(el) => el.open"):
        log.locator("summary").click()
    for seat in lit:
        log.filter(has_text=NAMES[seat]).wait_for()

    # The bargain (seed 1: Bob, Dmitri and Eve over Safe D) with its private channel, once
    # the broadcast reaches it.
    page.wait_for_function(
        "() => window.Arena.state.events.some((e) => e.kind === 'bargain_opened')",
        timeout=60_000)
    chat = page.get_by_test_id("chat-panel")
    if not chat.evaluate("(el) => el.open"):
        chat.locator("summary").click()
    page.get_by_test_id("broadcast-chat-note").wait_for()
    # The same page at both sizes: one seat's board, then all of them, on a phone too.
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        for pick in ("3", "side"):
            page.get_by_test_id(f"broadcast-pick-{pick}").click()
            page.get_by_test_id("broadcast-board-3").get_by_test_id("lo-board").wait_for()
            page.screenshot(path=str(SHOTS / f"lockedout-{pick}-{width}.png"), full_page=True)
            assert_page_ok(page, f"broadcast of {pick} at {width}", with_axe=True)
        # How far behind is read whole at each size, never cut by the header (G-15).
        assert page.get_by_test_id("conn-state").inner_text() == "1 min behind"
        assert page.get_by_test_id("conn").evaluate(
            "e => e.scrollWidth <= e.clientWidth && e.getBoundingClientRect().right <= innerWidth")

    # Paint's seat boards say "Ann's grid", where Ann's own page says "Your grid".
    watch = page.context.new_page()
    watch.set_viewport_size({"width": 1280, "height": 800})
    watch.goto(paint_link)
    watch.get_by_test_id("broadcast-pick-side").click()
    for seat in (0, 1):
        watch.get_by_test_id(f"broadcast-board-{seat}").get_by_text(
            f"{NAMES[seat]}’s grid", exact=True).wait_for(timeout=60_000)
        text = _not_spoken_to(watch, seat, "Paint")
        assert f"The sets {NAMES[seat]} designed for {NAMES[1 - seat]}" in text
    for width, height in ((1280, 800), (390, 844)):
        watch.set_viewport_size({"width": width, "height": height})
        watch.screenshot(path=str(SHOTS / f"paint-side-{width}.png"), full_page=True)
        assert_page_ok(watch, f"Paint's broadcast side by side at {width}", with_axe=True)
    watch.close()
    r = httpx.post(f"{live_server}/api/matches/{paint['id']}/host/end",
                   params={"token": paint["tokens"]["host"]}, json={}, timeout=10)
    assert r.status_code == 200, r.text
    own = page.context.new_page()
    own.goto(paint["links"]["seats"][0])
    own.get_by_text("Your grid", exact=True).wait_for()
    own.close()

    # The end arrives one delay late too, and nothing ever ran ahead of the broadcast.
    page.get_by_test_id("match-head").and_(
        page.locator("[data-finished=true]")).wait_for(timeout=90_000)
    assert page.evaluate("() => window.__late") == []
