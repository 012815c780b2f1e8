"""The match page's own mechanics, for every game at phone size (390x844, touch) and desktop
size (1280x800):

- the page stays where the player put it: no scroll and no focus move on a tick or an update,
  only when the seat's own task changes (Light as a Feather's ticks are phases of one task);
- every refusal is shown whenever it arrives, also a late one (G-2), until it is dismissed;
- every seat's clock is in the phone's header, also Locked Out!'s six;
- back within 5 s of the network's return, whatever happened before (a 20 s silent socket).

Each test awaits events (socket messages, redraws); none sleeps for a fixed time. Where a bound
is the point (the reconnect), it is the timeout of the wait."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from web.checks import assert_page_ok
from web.test_page_properties import (
    GAMES,
    SIZES,
    await_redraws,
    first_move,
    header_problems,
    make_match,
    open_seat,
)

pytestmark = pytest.mark.slow

SHOTS = Path("/work/notes/shots/s38")


def shot(page: Any, name: str) -> None:
    """A picture for the lead's review (only where the notes folder exists)."""
    if SHOTS.parent.exists():
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}_{page.size_name}.png"))


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


def steady_match(new_match: Any, game: str) -> dict[str, Any]:
    """A match whose first task lasts: long phases, except Feather's ticks, which are the
    updates under test (a second each, no study time, enough ticks for the test)."""
    if game == "feather":
        return new_match(  # type: ignore[no-any-return]
            game, seats=[{"name": "Alice", "bot": False}, {"name": "Bot 2", "bot": True}],
            config={"study": 0, "practice": False, "sessions": 1, "tick": 1.0,
                    "session_ticks": 40})
    return make_match(new_match, game, scale=20.0)


PLACE_JS = """() => {
  // The player scrolls part way down and focuses a control of the board that is in view.
  const max = document.documentElement.scrollHeight - innerHeight;
  window.scrollTo(0, Math.max(0, Math.min(300, max)));
  const head = document.querySelector('[data-testid=match-head]').getBoundingClientRect();
  const els = [...document.querySelectorAll('[data-testid=game-root] :is(button, input, select)')]
    .filter((el) => !el.disabled && el.getBoundingClientRect().width > 0);
  const seen = els.find((el) => { const r = el.getBoundingClientRect();
    return r.top >= head.bottom && r.bottom <= innerHeight; }) || els[0];
  if (seen) seen.focus({ preventScroll: true });
  window.__placed = document.activeElement;
  return { y: scrollY, task: window.Arena.taskKey(), phase: window.Arena.state.view.phase.no,
           focused: document.activeElement.outerHTML.slice(0, 100) };
}"""


@pytest.mark.parametrize("game", GAMES)
def test_the_page_stays_where_the_player_put_it(sized: Any, new_match: Any, game: str) -> None:
    page = sized
    m = steady_match(new_match, game)
    open_seat(page, m)
    if game == "feather":  # its ticks have started: the board is the one of the session
        page.wait_for_function("() => window.Arena.state.view.phase.name === 'tick'")
    placed = page.evaluate(PLACE_JS)
    assert placed["task"].startswith("ask:"), f"{game}: the seat is asked nothing: {placed}"
    await_redraws(page, 10)
    if game == "feather":  # ten ticks, each a phase of the same task
        page.wait_for_function("n => window.Arena.state.view.phase.no >= n",
                               arg=placed["phase"] + 10, timeout=40_000)
    after = page.evaluate("""() => ({ y: scrollY, task: window.Arena.taskKey(),
      same: document.activeElement === window.__placed,
      focused: document.activeElement.outerHTML.slice(0, 100) })""")
    assert after["task"] == placed["task"], f"{game}: the task changed meanwhile: {after}"
    assert after["y"] == placed["y"], f"{game}: the page scrolled from {placed['y']} to {after['y']}"
    assert after["same"], f"{game}: the focus moved from {placed['focused']} to {after['focused']}"
    shot(page, f"steady_{game}")


def test_a_new_task_still_shows_its_first_control_but_the_first_view_does_not_scroll(
        browser: Any, new_match: Any, live_process: Any) -> None:
    """The page opens at its top (Boxes' "Study the boards" was scrolled past both boards to
    its Ready button); the next task of the seat is still brought into view on a phone."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.size_name = "phone"  # type: ignore[attr-defined]
    try:
        m = make_match(new_match, "boxes", scale=20.0)
        open_seat(page, m)
        await_redraws(page, 4)
        assert page.evaluate("() => scrollY") == 0, "the first view scrolled the page"
        shot(page, "boxes_study")
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        before = page.evaluate("() => window.Arena.taskKey()")
        first_move(live_process, m)
        page.wait_for_function("t => window.Arena.taskKey() !== t", arg=before)
        await_redraws(page, 2)
        assert page.evaluate("""() => {
          const head = document.querySelector('[data-testid=match-head]').getBoundingClientRect();
          const el = [...document.querySelectorAll('[data-testid=game-root] button')]
            .find((b) => !b.disabled && b.getBoundingClientRect().width);
          const r = el.getBoundingClientRect();
          return r.top >= head.bottom - 1 && r.bottom <= innerHeight + 1; }"""), \
            "the new task's first control is out of view"
    finally:
        context.close()


def test_a_late_refusal_is_kept_in_view_until_dismissed(sized: Any, new_match: Any,
                                                        live_process: Any) -> None:
    """G-2: a send held while offline goes when the network is back; by then its phase has
    closed, and the 409 that answers it is shown with its words and rule, wherever the page
    is, until the player dismisses it."""
    page = sized
    m = make_match(new_match, "lockmaker", scale=20.0)
    open_seat(page, m)
    phase = page.evaluate("() => window.Arena.state.view.phase.no")
    page.context.set_offline(True)
    page.get_by_test_id("conn-state").filter(has_text="Reconnecting").wait_for()
    drawer = page.get_by_test_id("notation")
    if not drawer.evaluate("d => d.open"):
        drawer.locator("summary").click()
    page.get_by_test_id("notation-input").fill("ready")
    page.get_by_test_id("submit-final").click()
    page.get_by_test_id("error").filter(has_text="will be sent when the connection is back").wait_for()
    first_move(live_process, m)  # the phase closes while the page is away
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.context.set_offline(False)
    refusal = page.get_by_test_id("refusal")
    refusal.filter(has_text="closed before").wait_for()
    # The page reads the view again after the refusal; the new phase arrives with it.
    page.wait_for_function("p => window.Arena.state.view.phase.no > p", arg=phase)
    link = refusal.locator("a", has_text="G-2")
    assert link.count() == 1, refusal.inner_html()
    box = page.get_by_test_id("refusals").bounding_box()
    size = page.viewport_size
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], "refusal out of view"
    shot(page, "refusal")
    assert_page_ok(page, f"late refusal at {page.size_name}", with_axe=True)
    page.get_by_test_id("refusal-dismiss").click()
    page.get_by_test_id("refusals").wait_for(state="detached")


CLOCK_JS = """seat => {
  const head = document.querySelector('[data-testid=match-head]').getBoundingClientRect();
  const el = document.querySelector('[data-testid=seat-clock-' + seat + ']');
  if (!el) return 'no clock for seat ' + seat;
  const r = el.getBoundingClientRect();
  const time = [...el.querySelectorAll('.sc-time')].find((t) => t.getBoundingClientRect().width > 0);
  const t = time.getBoundingClientRect();
  if (r.left < 0 || r.right > innerWidth) return 'the clock box is off the screen: ' + r.left + '..' + r.right;
  if (r.top < head.top || r.bottom > head.bottom) return 'the clock box is outside the header';
  if (t.left < r.left - 1 || t.right > r.right + 1 || time.scrollWidth > time.clientWidth + 1)
    return 'the time is cut: ' + time.textContent;
  return '';
}"""


@pytest.mark.parametrize("game", ["lockmaker", "lockedout"])
def test_every_seat_clock_is_in_the_phone_header(sized: Any, new_match: Any, game: str) -> None:
    page = sized
    m = make_match(new_match, game)
    open_seat(page, m)
    page.get_by_test_id("countdown").filter(has_text=re.compile(r"\d")).wait_for()
    shot(page, f"header_{game}")
    seats = page.evaluate("() => window.Arena.state.view.seats.length")
    for seat in range(seats):
        problem = page.evaluate(CLOCK_JS, seat)
        assert not problem, f"{game} at {page.size_name}, seat {seat + 1}: {problem}"
    problems = header_problems(page)
    assert not problems, f"{game} at {page.size_name}: " + "; ".join(problems)
    # Sound and alerts are in the header's menu.
    page.get_by_test_id("header-menu").locator("summary").click()
    page.get_by_test_id("sound-toggle").wait_for()
    shot(page, f"header_menu_{game}")
    assert_page_ok(page, f"{game} header at {page.size_name}", with_axe=True)


def test_live_again_within_5_s_after_a_20_s_silent_socket(browser: Any, new_match: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    silent = {"on": False}

    def handle(ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(lambda msg: None if silent["on"] else server.send(msg))
        server.on_message(lambda msg: None if silent["on"] else ws.send(msg))

    page.route_web_socket(re.compile(r"/ws/"), handle)
    try:
        m = make_match(new_match, "lockmaker", scale=20.0)
        open_seat(page, m)
        silent["on"] = True  # open and saying nothing, as a dead network is
        page.get_by_test_id("conn-state").filter(has_text="Reconnecting").wait_for()
        start = page.evaluate("() => Date.now()")
        # 20 s of silence: the page tries again and again meanwhile (the retries it made are
        # what grew the back-off before).
        page.wait_for_function("t0 => Date.now() - t0 >= 20000", arg=start, timeout=40_000,
                               polling=500)
        assert page.evaluate("() => window.Arena.state.retry") >= 3
        silent["on"] = False
        page.get_by_test_id("conn-state").filter(has_text="Live").wait_for(timeout=5_000)
    finally:
        context.close()


def test_a_host_ended_match_is_said_so_and_a_seat_has_one_name(sized: Any, new_match: Any,
                                                               live_process: Any) -> None:
    """Ended by the host is no draw; the reader's own seat is "You" on the whole card."""
    page = sized
    m = make_match(new_match, "lockmaker", scale=20.0)
    open_seat(page, m)
    r = httpx.post(f"{live_process.url}/api/matches/{m['id']}/host/end",
                   params={"token": m["tokens"]["host"]}, json={}, timeout=10)
    assert r.status_code == 200, r.text
    page.get_by_test_id("result").wait_for()
    if page.evaluate("() => window.Arena.state.view.result.winner") is None:
        page.get_by_test_id("winner").filter(has_text="Ended by the host").wait_for()
        assert page.get_by_test_id("phase-name").inner_text() == "Ended by the host"
    table = page.get_by_test_id("result-table").inner_text()
    assert "Alice" not in table and "You" in table, table
    shot(page, "result_host_end")
    assert_page_ok(page, f"host-ended result at {page.size_name}", with_axe=True)
