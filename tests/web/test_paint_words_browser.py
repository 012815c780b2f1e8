"""Paint Factory's board says what it shows in words, from the views of real matches rendered
by the page's own component in Chromium (no server round trip):

- a match lost on reserve during the design no longer reads "Set design: both seats write
  eight sets for the other", and the empty grids score 0, as the result says (PF-7, G-3);
- the shove hints, the preview and the Confirm button name rows and columns ("column B cannot
  be shoved", "Confirm: row 1 right"), never the notation ("Cannot shove B", "Confirm 1")."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from arena.core.clock import ManualClock
from arena.core.match import HOST, Match, Viewer
from arena.games.paint import GAME
from arena.games.paint.grid import legal_actions
from arena.server.views import view_for
from arena.store import MatchRecord
from games.paint.paint_notation import notation_in

pytestmark = pytest.mark.slow

D1 = "RGBR,GBRG,BRGB,RBGR,GRBG,BGRB,RGRB,GBGR"
NAMES = ("Alice", "Bob")

RENDER = """async ({ view, seat }) => {
  const ui = await import("/static/ui.js");
  await import("/static/games/paint.js");
  const box = document.getElementById("pf-words") || document.body.appendChild(
    Object.assign(document.createElement("div"), { id: "pf-words" }));
  const api = { seat, role: seat == null ? "host" : "seat", replay: false,
                seatName: (s) => view.match.names[s], submit: async () => ({}), setNotation: () => {} };
  ui.render(null, box);
  ui.render(ui.html`<${ui.games.paint.Board} view=${view} api=${api}/>`, box);
}"""


@pytest.fixture(scope="module")
def page(browser: Any, live_server: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    pg.goto(live_server + "/")
    try:
        yield pg
    finally:
        context.close()


def view_of(match: Match, viewer: Viewer) -> dict[str, Any]:
    record = MatchRecord(id="words", game="paint", config={}, seed=1, settings={}, start=0.0,
                         seat_names=NAMES, bots=(False, False))
    return view_for(record, match, viewer, svg=False)


def show(page: Any, match: Match, viewer: Viewer) -> None:
    page.evaluate(RENDER, {"view": view_of(match, viewer),
                           "seat": viewer if isinstance(viewer, int) else None})


def test_a_match_lost_in_the_design_says_so_and_scores_its_empty_grids_zero(page: Any) -> None:
    clock = ManualClock(0.0)
    match = Match(GAME, GAME.default_config(), 1, clock, names=NAMES)
    match.submit(1, D1, final=True)
    clock.set(48 * 3600 + 10 * 30 + 1)  # seat 1 never designs: out of reserve (G-3)
    match.advance()
    assert match.result is not None and match.result.scores == (0.0, 0.0)
    show(page, match, HOST)
    status = page.get_by_test_id("pf-status").inner_text()
    assert "write eight sets" not in status and "ended during set design" in status
    for seat in (0, 1):
        assert page.get_by_test_id(f"pf-score-{seat}-value").inner_text() == "0"
    assert "no container yet" in page.get_by_test_id("pf-score-0").inner_text()
    show(page, match, 0)  # the end reveals both grids to the seats too (G-9)
    assert "ended during set design" in page.get_by_test_id("pf-status").inner_text()
    assert page.get_by_test_id("pf-score-1-value").inner_text() == "0"


def shove_turn() -> Match:
    """A match at a shove of turn 3 or later (some column's top cell is empty then)."""
    rng = random.Random(4)
    match = Match(GAME, GAME.default_config(), 4, ManualClock(0.0), names=NAMES)
    while match.state.stage != "shove" or match.state.turn < 3:
        for seat in (0, 1):
            text = GAME.random_submission(match.state, seat, rng)
            assert text is not None
            match.submit(seat, text, final=True)
    return match


def test_the_shove_hints_and_buttons_name_rows_and_columns(page: Any) -> None:
    match = shove_turn()
    grid = match.state.boards[0].grid
    show(page, match, 0)
    texts = []
    # A column whose top cell is empty cannot be shoved: the hint says so in words (PF-2).
    empty = next(c for i, c in enumerate("ABCDE") if grid[i] == ".")
    page.get_by_test_id(f"pf-col-{empty}").click(force=True)
    hint = page.get_by_test_id("pf-hint").inner_text()
    assert hint.startswith(f"Column {empty} cannot be shoved: there is no container on {empty}1")
    texts.append(hint)
    # A legal shove: the preview and the Confirm button say it as rows and columns.
    first = str(legal_actions(grid)[0][0]).split(" then ")
    for name in first:
        kind = "row" if name.isdigit() else "col"
        page.get_by_test_id(f"pf-{kind}-{name}").click()
    preview = page.get_by_test_id("pf-preview").inner_text()
    confirm = page.get_by_test_id("pf-shove-confirm").inner_text()
    assert "A1 ends empty" in preview and preview.startswith("Shoving ")
    assert confirm.startswith("Confirm: ") and ("right" in confirm or "down" in confirm)
    texts += [preview, confirm, page.get_by_test_id("pf-legal").inner_text()]
    for text in texts:
        assert notation_in(text) is None, text
