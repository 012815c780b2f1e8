"""A match's generated puzzle on its page (LF-12), in a real browser at desktop and
phone sizes: anyone may download the scenario the match plays as TOML (named after the seed
when the viewer may see it), and the host opens it in the scenario editor, which reads the very
same puzzle into its form, keeps it over a reload and finds no problem. axe: nothing serious."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from arena.core import rng as rngmod
from arena.games.feather import generate as gen
from arena.games.feather.scenario import parse_scenario
from web.checks import assert_page_ok

SHOTS = Path("/work/shots/editor")
SEED = 28


def download(page: Any) -> tuple[str, str]:
    """Click the download link; the file's suggested name and its text."""
    with page.expect_download() as info:
        page.get_by_test_id("feather-download").click()
    got = info.value
    return str(got.suggested_filename), Path(got.path()).read_text(encoding="utf-8")


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_anyone_downloads_the_puzzle_and_the_host_opens_it_in_the_editor(
        browser: Any, live_server: str, new_match: Any, width: int, height: int) -> None:
    m = new_match("feather", seats=[{"name": "Ada", "bot": False}, {"name": "Robo", "bot": True}],
                  config={"difficulty": "hard", "tick": 60, "study": 600}, seed=SEED)
    expected = gen.for_match(rngmod.derive(SEED, "setup"), "hard")
    view = httpx.get(f"{live_server}/api/matches/{m['id']}/view",
                     params={"token": m["tokens"]["host"]}).json()
    assert view["state"]["scenario"]["toml"] == expected

    context = browser.new_context(viewport={"width": width, "height": height},
                                  accept_downloads=True)
    try:
        # A seat: the file is the match's puzzle, named by the match (the seed stays hidden
        # until the end, G-7); only the host is offered the editor.
        seat = context.new_page()
        seat.set_default_timeout(20_000)
        seat.goto(m["links"]["seats"][0])
        seat.get_by_test_id("feather-download").wait_for()
        assert download(seat) == (f"feather-{m['id']}.toml", expected)
        assert seat.get_by_test_id("feather-open-editor").count() == 0
        assert_page_ok(seat, f"seat page at {width}", with_axe=True)

        host = context.new_page()
        host.set_default_timeout(20_000)
        host.goto(m["links"]["host"])
        host.get_by_test_id("feather-download").wait_for()
        assert download(host) == (f"feather-{SEED}.toml", expected)
        assert_page_ok(host, f"host page at {width}", with_axe=True)

        with context.expect_page() as opened:
            host.get_by_test_id("feather-open-editor").click()
        editor = opened.value
        editor.set_default_timeout(20_000)
        editor.wait_for_url("**/feather/editor?from=match")
        editor.get_by_test_id("editor-no-problems").wait_for()
        assert editor.get_by_test_id("editor-from").input_value() == "match"
        assert "The puzzle of match " + m["id"] in editor.get_by_test_id(
            "editor-message").inner_text()
        first = parse_scenario(expected).sessions[0]
        assert editor.get_by_test_id("editor-bucket-cap-0-0").input_value() == str(
            first.capacities[0])
        shown = parse_scenario(editor.get_by_test_id("editor-toml").input_value())
        assert [s.capacities for s in shown.sessions] == [
            s.capacities for s in parse_scenario(expected).sessions]
        SHOTS.mkdir(parents=True, exist_ok=True)
        editor.screenshot(path=str(SHOTS / f"editor-from-match-{width}x{height}.png"),
                          full_page=True)
        assert_page_ok(editor, f"editor from the match at {width}", with_axe=True)

        # A reload keeps the puzzle: the hand-over moved into this tab's own storage.
        editor.reload()
        editor.get_by_test_id("editor-no-problems").wait_for()
        assert editor.get_by_test_id("editor-bucket-cap-0-0").input_value() == str(
            first.capacities[0])
    finally:
        context.close()
