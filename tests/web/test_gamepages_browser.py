"""The per-game points where layout is the point, one test per game at both sizes
(390x844 touch, 1280x800), each with axe: Feather's controls stay put when an action is
queued and its buckets and objectives are in view at desktop size (point 11); Locked Out!
explains its lights beside the safes and puts a safe's actions one Tab press away, and gives a
spectator no notes grid (point 12); a tapped Lockmaker draft piece keeps its size and place
(point 13). Screenshots go to /work/shots/gamepages/ when that folder exists."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from web.checks import assert_page_ok

pytestmark = pytest.mark.slow

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
SHOTS = Path("/work/shots/gamepages")


def _page(browser: Any, size: str) -> tuple[Any, Any]:
    ctx = browser.new_context(viewport=SIZES[size], has_touch=size == "phone",
                              is_mobile=size == "phone")
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    return ctx, page


def _shot(page: Any, name: str) -> None:
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / f"{name}.png"))


# Every animation frame, the place of each control of the Feather board (relative to the
# board: the shell's banners above it are the shell's business) is compared with the frame
# before; a move of more than 4 px is written down with the status line of that frame.
RECORD_MOVES = """() => {
  window.__moves = []; window.__frames = 0; let prev = null;
  const snap = () => {
    const board = document.querySelector('[data-testid=feather-board]');
    if (!board) return null;
    const r0 = board.getBoundingClientRect(), out = {};
    for (const e of board.querySelectorAll('[data-testid]')) {
      if (!e.matches('button, summary, [tabindex], section')) continue;
      const r = e.getBoundingClientRect();
      out[e.dataset.testid] = [r.left - r0.left, r.top - r0.top];
    }
    return out;
  };
  const status = () => (document.querySelector('[data-testid=feather-status]') || {}).textContent;
  const loop = () => {
    const now = snap();
    if (now && prev) {
      for (const k in now) {
        const a = prev[k], b = now[k];
        if (a && (Math.abs(a[0] - b[0]) > 4 || Math.abs(a[1] - b[1]) > 4))
          window.__moves.push(k + ' ' + a.map(Math.round) + ' -> ' + b.map(Math.round) + ' at ' + status());
      }
    }
    if (now) prev = now;
    window.__frames += 1;
    requestAnimationFrame(loop);
  };
  loop();
}"""


# Point 11 at 1280x800: what a player looks at during a 10-second tick is all in the first
# screen, whole, with the page unscrolled: their buckets, the basins, the objectives and the
# action panel (before: the buckets started at y=765, the objectives below the fold).
FIRST_SCREEN = ("feather-seat-0", "feather-basins", "feather-objectives", "feather-controls",
                "feather-queued")


def assert_in_first_screen(page: Any) -> None:
    boxes = page.evaluate("""ids => ids.map((id) => {
        const r = document.querySelector(`[data-testid=${id}]`).getBoundingClientRect();
        return [id, Math.round(r.top + scrollY), Math.round(r.bottom + scrollY)]; })""",
                          list(FIRST_SCREEN))
    out = [f"{i} spans y={top}..{bottom}" for i, top, bottom in boxes if top < 0 or bottom > 800]
    assert not out, "below the fold of a 1280x800 screen: " + "; ".join(out)


def _tick(page: Any) -> int:
    return int(page.get_by_test_id("feather-status").inner_text().split("tick ")[1].split()[0])


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_feather_controls_stay_put_and_the_board_fits(browser: Any, new_match: Any,
                                                      size: str) -> None:
    """Point 11: composing an action, queueing it and the boundary that plays it move no
    control of the board by more than 4 px, on every frame (measured before the fix: the
    prompt shrank 21 px while a Fill was half made, a basin grew 18 px with "your action",
    the ankh wrapped the seat's head 26 px down, a completed objective slid the next card
    170 px left)."""
    m = new_match("feather", seats=[{"name": "Ada", "bot": False}, {"name": "Robo", "bot": True}],
                  settings={"time_scale": 1.0},
                  config={"scenario": "example", "tick": 4.0, "study": 0, "session_ticks": 4},
                  seed=5)
    ctx, page = _page(browser, size)
    try:
        page.goto(m["links"]["seats"][0])
        page.get_by_test_id("feather-queued-none").wait_for()
        if size == "desktop":
            assert_in_first_screen(page)
        page.evaluate(RECORD_MOVES)
        # A function, not a bare expression: Playwright evaluates an expression it has to
        # poll with eval(), which the pages' policy (no 'unsafe-eval') refuses.
        page.wait_for_function("() => window.__frames > 2")
        # Compose (basin, then bucket) and queue a Fill; then let a boundary play it.
        # A send that crosses a boundary is refused (G-2) and said in the message line: then
        # the Fill is made again for the new tick.
        for _ in range(3):
            page.get_by_test_id("feather-basin-Z").click()
            page.get_by_test_id("feather-prompt").and_(
                page.locator("[data-kind=bucket]")).wait_for()
            page.get_by_test_id("feather-tap-0-A").click()
            page.wait_for_function(
                "() => document.querySelector('[data-testid=feather-queued-action]')"
                " || document.querySelector('[data-testid=feather-msg]').textContent.trim()")
            if page.get_by_test_id("feather-queued-action").count():
                break
        page.get_by_test_id("feather-queued-action").wait_for()
        queued_in = _tick(page)
        page.wait_for_function(
            "t => { const m = document.querySelector('[data-testid=feather-status]')"
            ".textContent.match(/tick (\\d+)|over/); return !!m && (!m[1] || Number(m[1]) > t); }",
            arg=queued_in, timeout=20_000)
        page.get_by_test_id("feather-queued-none").wait_for()
        frames = page.evaluate("window.__frames")
        page.wait_for_function("n => window.__frames > n + 2", arg=frames)
        moves = page.evaluate("window.__moves")
        assert not moves, "controls moved: " + "; ".join(moves[:8])
        if size == "desktop":
            assert_in_first_screen(page)  # still, after the boundary played the Fill
        _shot(page, f"feather-queued-{size}")
        assert_page_ok(page, f"feather {size}", with_axe=True)
    finally:
        ctx.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_lockedout_lights_explained_and_actions_one_tab_away(browser: Any, new_match: Any,
                                                             size: str) -> None:
    seats = [{"name": "Hana", "bot": False}, {"name": "Dave", "bot": True},
             {"name": "Iris", "bot": True}]
    m = new_match("lockedout", seats=seats, settings={"time_scale": 1.0},
                  config={"max_rounds": 2, "round_seconds": 600, "vote_seconds": 60}, seed=19)
    ctx, page = _page(browser, size)
    try:
        page.goto(m["links"]["seats"][0])
        legend = page.get_by_test_id("lo-legend")
        legend.wait_for()
        assert "magenta" in legend.inner_text() and "red + blue" in legend.inner_text()
        # Point 12: from a safe to "Solo on Safe A" in one Tab press.
        page.get_by_test_id("lo-safe-A").focus()
        page.keyboard.press("Enter")
        page.get_by_test_id("lo-safe-detail").wait_for()
        # The page moves focus to the safe's detail after it is drawn: await that move (an
        # event of the page), or the Tab may land before it.
        page.wait_for_function("() => document.activeElement && "
                               "document.activeElement.dataset.testid === 'lo-safe-detail'")
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement && document.activeElement.dataset.testid")
        assert focused == "lo-solo-here"
        # At 1280x800 the page uses its width: the chosen safe sits beside the vault, under the
        # plan, not under the vault with the right half empty; on a phone it follows the vault.
        boxes = page.evaluate("""() => Object.fromEntries(['lo-safes', 'lo-safe-detail', 'lo-planner']
          .map((t) => { const r = document.querySelector(`[data-testid=${t}]`).getBoundingClientRect();
                        return [t, [r.left, r.right, r.top, r.bottom]]; }))""")
        vault, detail, plan = boxes["lo-safes"], boxes["lo-safe-detail"], boxes["lo-planner"]
        if size == "desktop":
            assert detail[0] >= vault[1] and detail[2] >= plan[3], boxes
        else:
            assert detail[2] >= vault[3] and detail[3] <= plan[2], boxes
        _shot(page, f"lockedout-safe-{size}")
        assert_page_ok(page, f"lockedout seat {size}", with_axe=True)
        # A spectator sees a safe's history but no notes grid "kept with your seat".
        page.goto(m["links"]["spectator"])
        page.get_by_test_id("lo-safe-A").click()
        page.get_by_test_id("lo-safe-detail").wait_for()
        assert page.get_by_test_id("lo-notes").count() == 0
        assert_page_ok(page, f"lockedout spectator {size}", with_axe=True)
    finally:
        ctx.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_lockmaker_chosen_draft_piece_keeps_its_size(browser: Any, new_match: Any,
                                                     size: str) -> None:
    m = new_match("lockmaker", seats=[{"name": "Ada", "bot": False}, {"name": "Bo", "bot": False}],
                  settings={"time_scale": 1.0}, config={"rounds": 1}, seed=3)
    ctx, page = _page(browser, size)
    other = ctx.new_page()
    try:
        page.goto(m["links"]["seats"][0])
        other.goto(m["links"]["seats"][1])
        for p in (page, other):
            p.get_by_test_id("lm-board").wait_for()
        # Ada says ready first, and her answer is awaited: the DMO's choice alone ends the
        # study phase (LM-13), which takes Ada's Ready button away with it. Bo (the DMO)
        # then drafts first, so Bo picks first.
        page.get_by_test_id("lm-ready").click()
        page.get_by_test_id("lm-msg-ok").filter(has_text="Sent").wait_for()
        other.get_by_test_id("lm-first").click()
        picker = other
        picker.get_by_test_id("lm-take").wait_for()
        boxes = [picker.get_by_test_id(f"lm-pool-{i}").bounding_box() for i in range(3)]
        picker.get_by_test_id("lm-pool-0").click()
        picker.locator("[data-testid=lm-pool-0][aria-pressed=true]").wait_for()
        again = [picker.get_by_test_id(f"lm-pool-{i}").bounding_box() for i in range(3)]
        for a, b in zip(boxes, again, strict=True):
            assert a is not None and b is not None
            assert abs(a["x"] - b["x"]) <= 1 and abs(a["y"] - b["y"]) <= 1
            assert abs(a["width"] - b["width"]) <= 1, "a chosen piece changed width"
        # The header's title is one whole line at both sizes: on a phone the
        # round goes from a one-round match's title instead of an ellipsis eating "your pick".
        title = picker.get_by_test_id("phase-name")
        assert title.inner_text().endswith("Draft · your pick")
        assert title.evaluate("h => h.scrollWidth <= h.clientWidth"), title.inner_text()
        _shot(picker, f"lockmaker-draft-{size}")
        assert_page_ok(picker, f"lockmaker draft {size}", with_axe=True)
    finally:
        ctx.close()
