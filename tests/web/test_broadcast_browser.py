"""G-15 in a real browser: a Locked Out! match of six bots with a broadcast one minute
behind (a few real seconds at this time scale). The broadcast page shows every seat's lights,
the bargains and their private channels once the delay has passed, and never anything newer:
a watcher in the page checks, at every redraw, that no entry it holds is younger than the
moment the broadcast stands at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from web.checks import assert_page_ok

pytestmark = pytest.mark.slow

NAMES = ["Ann", "Bob", "Cleo", "Dmitri", "Eve", "Fatima"]
SCALE = 1 / 10  # one minute of match time is six seconds
SHOTS = Path("/work/notes/shots/broadcast")

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
    r = httpx.post(f"{live_server}/api/matches/{m['id']}/host/broadcast",
                   params={"token": m["tokens"]["host"]}, json={"delay": 60}, timeout=10)
    assert r.status_code == 200, r.text
    link = r.json()["link"]
    page.goto(link)
    page.evaluate(WATCH)
    page.get_by_test_id("role").filter(has_text="Broadcast").wait_for()
    assert "1 min behind" in page.get_by_test_id("role").inner_text()

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

    # The end arrives one delay late too, and nothing ever ran ahead of the broadcast.
    page.get_by_test_id("match-head").and_(
        page.locator("[data-finished=true]")).wait_for(timeout=90_000)
    assert page.evaluate("() => window.__late") == []
