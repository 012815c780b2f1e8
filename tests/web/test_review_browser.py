"""The post-match review in the browser, after a whole match of every game, on a phone and on
a wide screen: a seat's costliest decisions head it with their values, each opens the replay
at the phase it was decided in; a spectator of a match whose secrets the host kept sees none
of the sealed decisions (G-9); axe finds nothing serious.

The matches are bots from start to end (seat 1 plays the beginner's level, so there is
something to judge), all created at once so they play side by side."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.serverproc import ServerProcess
from web.checks import assert_page_ok

pytestmark = pytest.mark.slow

SHOTS = Path("/tmp/arena-screens/review")
SIZES = [(390, 844), (1280, 800)]
GAMES = ["boxes", "paint", "lockedout", "feather", "lockmaker"]
PAIR = [{"name": "Ann", "bot": True, "level": "easy"}, {"name": "Bob", "bot": True}]
SIX = [{"name": n, "bot": True, "level": "easy" if i % 2 else "hard"}
       for i, n in enumerate(["Ann", "Bob", "Cleo", "Dev", "Eve", "Fay"])]


def _create(server: ServerProcess, game: str, **settings: Any) -> dict[str, Any]:
    if game == "lockedout":
        return server.create(game, seats=SIX, settings=settings, config={"max_rounds": 4},
                             seed=3)
    # a real-time game's ticks are match time: short ticks and sessions play it in seconds;
    # Lockmaker's countersolve window waits out its clock when nobody countersolves (LM-17)
    scale = {"time_scale": 0.1} if game in ("feather", "lockmaker") else {}
    config = {"feather": {"tick": 2.0, "study": 0, "practice": False, "session_ticks": 20},
              "boxes": {"bouts": 2}, "lockmaker": {"rounds": 1}}.get(game, {})
    return server.create(game, seats=PAIR, settings={**scale, **settings}, config=config,
                         seed=3)


@pytest.fixture(scope="module")
def played(live_process: ServerProcess) -> Iterator[dict[str, dict[str, Any]]]:
    made = {g: _create(live_process, g) for g in GAMES}
    made["kept"] = _create(live_process, "lockedout", reveal_at_end=False)
    yield made


def _finished(server: ServerProcess, m: dict[str, Any]) -> None:
    """Polls until the bots have played it out; the suite's timeout guards a hang."""
    while server.http.get(f"{server.url}/api/matches/{m['id']}").json()["status"] != "finished":
        time.sleep(0.1)


def _review(server: ServerProcess, m: dict[str, Any], token: str) -> dict[str, Any]:
    r = server.http.get(f"{server.url}/api/matches/{m['id']}/review", params={"token": token},
                        timeout=120)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


@pytest.mark.parametrize("game", GAMES)
def test_the_review_leads_to_the_costliest_moments(
        live_process: ServerProcess, browser: Any, played: dict[str, dict[str, Any]],
        game: str) -> None:
    server, m = live_process, played[game]
    _finished(server, m)
    # the seat whose review has the most to show, read with its own link
    reviews = [_review(server, m, t)["seats"][s] for s, t in enumerate(m["tokens"]["seats"])]
    seat = max(range(len(reviews)), key=lambda s: (len(reviews[s]["costliest"]), -s))
    mine = reviews[seat]
    assert mine["costliest"], f"{game}: no seat lost anything to judge"
    top = [mine["decisions"][i] for i in mine["costliest"]]
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.set_default_timeout(60_000)
        try:
            page.goto(m["links"]["seats"][seat])
            items = page.get_by_test_id("review-costly-item")
            items.first.wait_for()
            assert items.count() == len(top)
            assert page.get_by_test_id("review-seat").input_value() == str(seat)
            for item, d in zip(items.all(), top, strict=True):
                text = item.inner_text()
                assert d["did"].split(":")[0][:30] in text
                values = item.get_by_test_id("review-value").inner_text()
                assert "Yours" in values and "best" in values and d["unit"].split()[0] in values
            page.get_by_test_id("review").screenshot(path=str(SHOTS / f"{game}-{width}.png"))
            assert_page_ok(page, f"{game} review at {width}", with_axe=True)
            # the costliest decision's link opens the replay where its phase began
            items.first.get_by_test_id("review-goto").click()
            page.get_by_test_id("replay-banner").wait_for()
            page.wait_for_function(
                "name => { const r = window.Arena.state.replay;"
                " return r && r.phase && r.phase.name === name; }", arg=top[0]["phase"])
            # ... with its banner in view, not behind the sticky header
            page.wait_for_function(
                "() => { const b = document.querySelector('[data-testid=replay-banner]');"
                " const h = document.querySelector('[data-testid=match-head]');"
                " const r = b.getBoundingClientRect();"
                " return r.top >= h.getBoundingClientRect().bottom"
                " && r.bottom <= window.innerHeight; }")
            page.screenshot(path=str(SHOTS / f"{game}-{width}-replay.png"))
        finally:
            context.close()


def test_a_spectator_sees_only_what_the_end_revealed(
        live_process: ServerProcess, browser: Any, played: dict[str, dict[str, Any]]) -> None:
    server = live_process
    for key, shown in (("kept", False), ("lockedout", True)):
        m = played[key]
        _finished(server, m)
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.set_default_timeout(60_000)
        try:
            page.goto(m["links"]["spectator"])
            page.get_by_test_id("review-summary").wait_for()
            summary = page.get_by_test_id("review-summary").inner_text()
            goto = page.get_by_test_id("review-goto")
            if shown:
                assert goto.count() > 0 and "private" not in summary
            else:
                # Locked Out!'s attempts are sealed: with the secrets kept, none is shown
                assert goto.count() == 0 and "stay private" in summary
                assert page.get_by_test_id("review-seat").locator("option").count() == 6
            assert_page_ok(page, f"spectator review ({key})", with_axe=True)
        finally:
            context.close()
