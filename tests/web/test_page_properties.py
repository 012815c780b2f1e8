"""Properties every match page holds, for all five games at phone size (390x844,
touch) and desktop size (1280x800). One parametrised test per property:

- steady: while a phase runs, no control the player can reach moves more than 4 px between
  updates, and a focused control keeps its focus; on a phone the header is opaque, at most
  120 px tall, its title one line, its chips clear of the title;
- one phase at a time: a new phase's first control is in view on a phone; once the match is
  over no control of its last phase is enabled and the result is in view; the header names the
  winner; the seed is shown with all its digits; no program-speak anywhere in the page;
- honest connection: a socket that goes silent (not closed) is said within 5 s, the clock
  stops claiming time, and the page catches up when the socket is back.

Each test awaits events (socket messages, redraws); none sleeps for a fixed time."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from web.checks import assert_page_ok

pytestmark = pytest.mark.slow

GAMES = ["lockmaker", "boxes", "paint", "feather", "lockedout"]
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
SEED = "17736693096229613593"  # the seed: a JavaScript number shows ...614000
PROGRAM_SPEAK = [
    re.compile(r"\bversion \d+", re.IGNORECASE),
    re.compile(r"'[a-z]+' when done|say '[a-z]+'", re.IGNORECASE),  # quoted commands
]

# The reachable controls of the board and header, in page coordinates.
CONTROLS_JS = """() => {
  const out = {};
  const els = document.querySelectorAll(
    "[data-testid=game-root] :is(button, input, select, textarea, a[href]), [data-testid=match-head] :is(button, a[href])");
  let n = 0;
  for (const el of els) {
    if (el.disabled || el.closest('[hidden], details:not([open])')) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const key = (el.dataset.testid || el.getAttribute('aria-label') || el.textContent.trim().slice(0, 30)) + '#' + (n++);
    out[key] = [Math.round(r.left + scrollX), Math.round(r.top + scrollY)];
  }
  return out;
}"""

HEADER_JS = """() => {
  const head = document.querySelector('[data-testid=match-head]');
  const h1 = document.querySelector('[data-testid=phase-name]');
  const hr = head.getBoundingClientRect(), tr = h1.getBoundingClientRect();
  const bg = getComputedStyle(head).backgroundColor;
  const line = parseFloat(getComputedStyle(h1).lineHeight) || tr.height;
  const overlaps = [];
  for (const el of head.querySelectorAll('.seat-clocks li, .badge, .conn, .head-menu > summary, .clock')) {
    const r = el.getBoundingClientRect();
    if (r.width && r.left < tr.right && r.right > tr.left && r.top < tr.bottom && r.bottom > tr.top)
      overlaps.push(el.textContent.trim());
  }
  return {height: hr.height, bg, titleHeight: tr.height, line, overlaps,
          cut: h1.scrollWidth > h1.clientWidth ? getComputedStyle(h1).textOverflow : 'none'};
}"""


@pytest.fixture(params=list(SIZES), ids=list(SIZES))
def sized(request: Any, browser: Any) -> Any:
    width, height = SIZES[request.param]
    phone = request.param == "phone"
    context = browser.new_context(viewport={"width": width, "height": height},
                                  is_mobile=phone, has_touch=phone)
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    pg.size_name = request.param  # type: ignore[attr-defined]
    try:
        yield pg
    finally:
        context.close()


def make_match(new_match: Any, game: str, *, scale: float = 1.0) -> dict[str, Any]:
    seats = [{"name": "Alice", "bot": False}] + [
        {"name": f"Bot {i + 1}", "bot": True} for i in range(1, 6 if game == "lockedout" else 2)]
    return new_match(game, seats=seats, settings={"time_scale": scale}, seed=SEED)  # type: ignore[no-any-return]


def open_seat(page: Any, m: dict[str, Any]) -> None:
    page.goto(m["links"]["seats"][0])
    page.locator("[data-testid=conn][data-state=live]").wait_for()
    page.get_by_test_id("game-root").locator("button, input").first.wait_for()


def await_redraws(page: Any, count: int) -> None:
    """Wait for ``count`` more redraws of the page (socket updates and clock ticks)."""
    start = page.evaluate("() => window.Arena.renders")
    page.wait_for_function("n => window.Arena.renders >= n", arg=start + count)


def header_problems(page: Any) -> list[str]:
    h = page.evaluate(HEADER_JS)
    problems = []
    if not re.fullmatch(r"rgb\(\d+, \d+, \d+\)", h["bg"]):
        problems.append(f"the header is see-through ({h['bg']})")
    if h["titleHeight"] > 1.6 * h["line"]:
        problems.append(f"the title wraps ({h['titleHeight']} px for {h['line']} px lines)")
    if h["overlaps"]:
        problems.append(f"chips overlap the title: {h['overlaps']}")
    if h["cut"] not in ("none", "ellipsis"):
        problems.append("a long title is cut without an ellipsis")
    if page.size_name == "phone" and h["height"] > 120:
        problems.append(f"the phone header is {h['height']} px tall")
    return problems


def speak_problems(page: Any) -> list[str]:
    """Program-speak in the player's text, outside the notation drawer and form fields."""
    text = page.evaluate("""() => {
      const parts = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      let n;
      while ((n = walker.nextNode())) {
        const el = n.parentElement;
        if (!el || el.closest("[data-testid=notation], textarea, input, script, style")) continue;
        parts.push(n.textContent);
      }
      return parts.join(' ');
    }""")
    return [f"program-speak: {m.group(0)!r}" for rx in PROGRAM_SPEAK for m in rx.finditer(text)]


def in_view_below_header(page: Any, selector: str) -> bool:
    return bool(page.evaluate("""sel => {
      const el = document.querySelector(sel);
      if (!el) return false;
      const r = el.getBoundingClientRect();
      const head = document.querySelector('[data-testid=match-head]').getBoundingClientRect();
      return r.top >= head.bottom - 1 && r.top < innerHeight;
    }""", selector))


@pytest.mark.parametrize("game", GAMES)
def test_controls_stay_steady_and_the_header_holds(sized: Any, new_match: Any, game: str,
                                                   screenshot_dir: Path) -> None:
    page = sized
    m = make_match(new_match, game)
    open_seat(page, m)
    # A bot's move and a few clock ticks: updates the player did not cause.
    target = page.get_by_test_id("game-root").locator("button:enabled, input:enabled").first
    target.focus()  # the browser scrolls a control it focuses into view: measured after
    focused = page.evaluate("() => document.activeElement.outerHTML.slice(0, 120)")
    first = page.evaluate(CONTROLS_JS)
    await_redraws(page, 12)  # about three seconds of clock ticks and whatever the bots did
    second = page.evaluate(CONTROLS_JS)
    moved = {k: (first[k], second[k]) for k in first if k in second
             and max(abs(first[k][0] - second[k][0]), abs(first[k][1] - second[k][1])) > 4}
    assert not moved, f"{game}: controls moved by themselves: {moved}"
    assert page.evaluate("() => document.activeElement.outerHTML.slice(0, 120)") == focused
    problems = header_problems(page) + speak_problems(page)
    page.screenshot(path=str(screenshot_dir / f"props_{game}_{page.size_name}_play.png"))
    assert not problems, f"{game} at {page.size_name}: " + "; ".join(problems)


def first_move(server: Any, m: dict[str, Any]) -> None:
    """Make seat 0's move of the first phase over the API, with a move a bot made in it (its
    name swapped for the bot's where the move names a partner)."""
    base = f"{server.url}/api/matches/{m['id']}"
    host = {"token": m["tokens"]["host"]}
    for _ in range(300):
        events = server.http.get(base + "/events", params=host).json()["events"]
        sent = [e["data"] for e in events if e["kind"] == "submit" and e["data"].get("seat")]
        if sent:
            break
        time.sleep(0.05)  # polling the server for the bot's move, not the page
    assert sent, "no bot moved in the first phase"
    text = sent[0]["text"].replace("Alice", f"Bot {sent[0]['seat'] + 1}")
    for attempt in (text, "ready"):
        r = server.http.post(base + "/submit", params={"token": m["tokens"]["seats"][0]},
                             json={"text": attempt, "final": True})
        if r.status_code == 200:
            return
    raise AssertionError(f"seat 0 could not move: {r.text}")


@pytest.mark.parametrize("game", GAMES)
def test_one_phase_at_a_time_and_the_result_first(sized: Any, new_match: Any, live_process: Any,
                                                  game: str, screenshot_dir: Path) -> None:
    page = sized
    m = make_match(new_match, game)
    open_seat(page, m)
    # The player sits at the bottom of the page, where the last send was made.
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    before = page.evaluate("() => window.Arena.state.view.phase.no")
    first_move(live_process, m)
    page.wait_for_function("n => window.Arena.state.view.phase.no > n", arg=before)
    await_redraws(page, 2)
    mine = page.evaluate("""() => { const v = window.Arena.state.view;
      return (v.phase.waiting_for || []).includes(v.you) && !v.seats[v.you].acted; }""")
    if page.size_name == "phone" and mine:
        assert page.evaluate("""() => {
          const head = document.querySelector('[data-testid=match-head]').getBoundingClientRect();
          for (const el of document.querySelectorAll('[data-testid=game-root] :is(button, input, select, textarea)')) {
            if (el.disabled) continue;
            const r = el.getBoundingClientRect();
            if (!r.width) continue;
            return r.top >= head.bottom - 1 && r.bottom <= innerHeight + 1;
          }
          return false; }"""), f"{game}: the new phase's first control is out of view"

    # The host ends the match: the result names the winner, the board keeps no live control.
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    r = live_process.http.post(f"{live_process.url}/api/matches/{m['id']}/host/end",
                               params={"token": m["tokens"]["host"]})
    assert r.status_code == 200, r.text
    page.get_by_test_id("result").wait_for()
    page.get_by_test_id("result-seed").wait_for()
    live = page.evaluate("""() => [...document.querySelectorAll(
        '[data-testid=game-root] :is(button, input, select, textarea)')]
        .filter((el) => !el.matches(':disabled')).map((el) => el.outerHTML.slice(0, 80))""")
    assert not live, f"{game}: controls of the last phase still enabled: {live[:3]}"
    if page.size_name == "phone":
        assert in_view_below_header(page, "[data-testid=result]"), f"{game}: result out of view"
    winner = page.evaluate("() => window.Arena.state.view.result.winner")
    title = page.get_by_test_id("phase-name").inner_text()
    expected = ("You win" if winner == 0 else f"Bot {winner + 1} wins" if winner is not None
                else None)
    # The host ended it: without a winner the header says so, never "Draw".
    assert title == expected if expected else title == "Ended by the host"
    assert page.get_by_test_id("result-seed").inner_text() == SEED
    problems = header_problems(page) + speak_problems(page)
    page.screenshot(path=str(screenshot_dir / f"props_{game}_{page.size_name}_end.png"))
    assert not problems, f"{game} at {page.size_name}: " + "; ".join(problems)
    assert_page_ok(page, f"{game} result at {page.size_name}", with_axe=True)


@pytest.mark.parametrize("game", GAMES)
def test_a_silent_socket_is_said_and_caught_up(sized: Any, new_match: Any, live_process: Any,
                                               game: str) -> None:
    page = sized
    m = make_match(new_match, game)
    silent = {"on": False}

    def handle(ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(lambda msg: None if silent["on"] else server.send(msg))
        server.on_message(lambda msg: None if silent["on"] else ws.send(msg))

    page.route_web_socket(re.compile(r"/ws/"), handle)
    open_seat(page, m)
    page.get_by_test_id("countdown").filter(has_text=re.compile(r"\d")).wait_for()
    silent["on"] = True  # the socket stays open and says nothing, as a dead network does
    # Said once HEARTBEAT_SILENCE has passed; the wait is the page's default, not a latency
    # bound, so a loaded machine's slow timers cannot fail it.
    page.get_by_test_id("conn-state").filter(has_text="Reconnecting").wait_for()
    assert page.get_by_test_id("countdown").get_attribute("data-state") == "unknown"
    assert not re.search(r"\d", page.get_by_test_id("countdown").inner_text())
    # Meanwhile the host pauses the match; the page learns it on return.
    r = live_process.http.post(f"{live_process.url}/api/matches/{m['id']}/host/pause",
                               params={"token": m["tokens"]["host"]})
    assert r.status_code == 200, r.text
    silent["on"] = False
    page.evaluate("() => { const b = document.querySelector('[data-testid=reconnect-now]');"
                  " if (b) b.click(); }")
    page.get_by_test_id("conn-state").filter(has_text="Live").wait_for()
    page.get_by_test_id("countdown").filter(has_text="Paused").wait_for()


def test_back_after_a_long_silence_without_waiting_out_the_back_off(browser: Any,
                                                                   new_match: Any) -> None:
    """After a long silence (many retries) a player whose network came back must not wait out
    a long back-off: the waits between tries stay capped, and the page is live again within
    5 s of the network's return, whether a retry finds it or the tab is shown again (a phone
    wakes a hidden tab). The bound is the timeout of the wait."""
    m = make_match(new_match, "lockmaker")
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    down = {"ws": False, "http": False}

    def socket(ws: Any) -> None:
        if down["ws"]:
            ws.close()
            return
        server = ws.connect_to_server()
        ws.on_message(lambda msg: None if down["ws"] else server.send(msg))
        server.on_message(lambda msg: None if down["ws"] else ws.send(msg))

    def http(route: Any) -> None:
        if down["http"]:
            route.abort()
        else:
            route.continue_()

    page.route_web_socket(re.compile(r"/ws/"), socket)
    page.route(re.compile(r"/(api|static)/"), http)
    try:
        open_seat(page, m)
        for way in ("retry", "shown again"):
            # A long silence: many tries made already.
            page.evaluate("() => { window.Arena.state.retry = 8; }")
            down["ws"] = down["http"] = True
            page.get_by_test_id("conn-state").filter(has_text="Reconnecting").wait_for()
            page.wait_for_function("() => window.Arena.state.retry >= 11")
            wait = page.evaluate("() => window.Arena.state.reconnectAt - Date.now() / 1000")
            assert wait <= 1.6, f"the retry waits {wait:.1f} s after a long silence"
            down["ws"] = False
            if way == "retry":
                down["http"] = False
            else:
                page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
            page.get_by_test_id("conn-state").filter(has_text="Live").wait_for(timeout=5_000)
            down["http"] = False
    finally:
        context.close()
