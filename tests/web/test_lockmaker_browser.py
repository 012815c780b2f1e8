"""Lockmaker in a real browser: a human seat plays a one-round match against the bot through
the page's own controls -- Ready, the draft buttons, the click-to-place lock editor, a refused
lock naming its rule (G-6, LM-15), the move builder on a copy of the bot's lock, the countersolve choice --
and the result shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
import pytest

from arena.games.lockmaker.lockfile import read_lock
from arena.games.lockmaker.moves import Rotate
from arena.games.lockmaker.notation import format_solution
from arena.games.lockmaker.solver import solve

pytestmark = pytest.mark.slow

SETUP = "......\n......\n......\npieces: H2,V2\n"


def test_human_plays_a_lockmaker_round_against_the_bot(page: Any, live_server: str,
                                                       new_match: Any,
                                                       screenshot_dir: Path) -> None:
    m = new_match("lockmaker", seats=[{"name": "Ada", "bot": False}, {"name": "Robo", "bot": True}],
                  settings={"time_scale": 1.0}, config={"rounds": 1, "setup": SETUP}, seed=5)
    url = m["links"]["seats"][0]
    token = parse_qs(urlparse(url).query)["token"][0]
    page.goto(url)
    page.get_by_test_id("lm-board").wait_for()
    page.get_by_test_id("lm-ready").click()  # the bot (DMO) chooses to draft first

    # Draft: the bot took a piece; our two-pick turn takes what is left.
    page.get_by_test_id("lm-pool-0").wait_for()
    page.get_by_test_id("lm-pool-0").click()
    page.get_by_test_id("lm-take").click()

    # Build with the editor: a refused lock first (no keyhole yet), then a legal one.
    page.get_by_test_id("lm-editor").wait_for()
    page.get_by_test_id("lm-tool-0").click()
    page.get_by_test_id("lm-cell-A2").click()
    page.get_by_test_id("lm-tool-key-h").click()
    page.get_by_test_id("lm-cell-B3").click()
    page.get_by_test_id("lm-submit-lock").click()
    page.get_by_test_id("lm-msg").filter(has_text="LM-10").wait_for()
    page.get_by_test_id("lm-tool-keyhole").click()
    page.get_by_test_id("lm-cell-F3").click()
    assert "@" in page.get_by_test_id("lm-lock-text").input_value()
    page.get_by_test_id("lm-submit-lock").click()

    # Solve the bot's lock: read it from our seat's view and type the optimal moves.
    page.get_by_test_id("lm-moves").wait_for(timeout=90_000)  # the bot builds meanwhile
    view = httpx.get(f"{live_server}/api/matches/{m['id']}/view", params={"token": token}).json()
    theirs = read_lock(view["state"]["locks"][1])
    res = solve(theirs)
    assert res.solvable
    # Play the solution on the page's copy of the lock: click the piece, then the move.
    texts = format_solution(theirs.board, res.solution)
    for move, text in zip(res.solution, texts, strict=True):
        cell = move.axis if isinstance(move, Rotate) else move.bar.cell
        page.get_by_test_id(f"lm-sim-{theirs.board.name(cell)}").click()
        page.get_by_test_id("lm-move-" + text.replace(" ", "_")).click()
    assert page.get_by_test_id("lm-moves").input_value() == ", ".join(texts)
    page.screenshot(path=str(screenshot_dir / "lockmaker_solve.png"), full_page=True)
    page.get_by_test_id("lm-submit-moves").click()

    # One solution each: nothing to pick, so the countersolve decision comes next.
    decide = page.get_by_test_id("lm-pass")
    decide.wait_for()
    decide.click()
    result = page.get_by_test_id("result")
    result.wait_for(state="visible")
    assert "wins" in result.inner_text()
    page.get_by_test_id("lm-history").filter(has_text="Round 1").wait_for()
    page.screenshot(path=str(screenshot_dir / "lockmaker_final.png"), full_page=True)
