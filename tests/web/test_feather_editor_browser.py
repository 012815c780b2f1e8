"""The Feather scenario editor in a real browser, at desktop and
phone sizes: a host opens it from the lobby, changes a bucket's capacity and an objective,
sees the problem of an impossible objective named with its rule, mends it, is refused (with
the rule id, nothing stored) for a negative capacity and a name that is a path, saves the
scenario under a name, starts a match with it and finds the edited values on the board; after
a reload the scenario is listed by the API, the editor and the lobby. axe: nothing serious."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from web.checks import assert_page_ok

SHOTS = Path("/work/shots/editor")


def problems_text(page: Any) -> str:
    return str(page.get_by_test_id("editor-problems").inner_text())


def wait_problem(page: Any, text: str) -> None:
    page.wait_for_function(
        "(t) => document.querySelector('[data-testid=editor-problems]').innerText.includes(t)",
        arg=text)


def wait_clean(page: Any) -> None:
    page.get_by_test_id("editor-no-problems").wait_for()


def library(live_server: str) -> list[str]:
    return [s["name"] for s in httpx.get(live_server + "/api/scenarios").json()]


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_a_host_edits_saves_and_plays_a_scenario(browser: Any, live_server: str, width: int,
                                                 height: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(20_000)
    name = f"Jugs at {width}"
    try:
        page.goto(live_server + "/")
        page.get_by_test_id("feather-editor-link").click()
        page.wait_for_url("**/feather/editor")
        cap = page.get_by_test_id("editor-bucket-cap-0-0")  # the practice session: the board
        cap.wait_for()                                        # a match shows first
        wait_clean(page)
        # The preview is the server's SVG drawn as page nodes: a whole picture, no markup text.
        preview = page.get_by_test_id("editor-preview")
        preview.locator("svg").first.wait_for()
        assert preview.locator("svg *").count() > 5
        assert "<svg" not in (preview.inner_text() or "")
        assert_page_ok(page, f"editor at {width}", with_axe=True)

        cap.fill("7")
        amount = page.get_by_test_id("editor-objective-0-0-amount")
        amount.fill("5")
        count = page.get_by_test_id("editor-objective-0-0-buckets")
        count.fill("4")  # more buckets than the session gives
        wait_problem(page, "objective 1 needs 4 buckets and the session gives each seat 3")
        assert "LF-6" in problems_text(page)
        assert page.get_by_test_id("editor-start").is_disabled()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"editor-problem-{width}x{height}.png"), full_page=True)
        count.fill("1")
        wait_clean(page)
        words = page.get_by_test_id("editor-objective-0-0-words").inner_text()
        assert "1 bucket holding exactly 5" in words

        # A negative capacity: named with LF-1 as typed, and refused by the library too.
        page.get_by_test_id("editor-bucket-cap-0-1").fill("-4")
        wait_problem(page, "bucket B's capacity is -4")
        before = library(live_server)
        page.get_by_test_id("editor-name").fill(name)
        page.get_by_test_id("editor-save").click()
        page.wait_for_function("() => document.querySelector('[data-testid=editor-message]')"
                               ".innerText.includes('LF-1')")
        assert library(live_server) == before
        page.get_by_test_id("editor-bucket-cap-0-1").fill("4")
        wait_clean(page)

        # A name that is a path: refused with LF-12, nothing stored.
        page.get_by_test_id("editor-name").fill("../../etc/passwd")
        page.get_by_test_id("editor-save").click()
        page.wait_for_function("() => document.querySelector('[data-testid=editor-message]')"
                               ".innerText.includes('LF-12')")
        assert library(live_server) == before

        page.get_by_test_id("editor-name").fill(name)
        page.get_by_test_id("editor-note").fill("a practice round with a bigger bucket")
        page.get_by_test_id("editor-save").click()
        page.wait_for_function("() => document.querySelector('[data-testid=editor-message]')"
                               ".innerText.includes('Saved as')")
        assert name in library(live_server)
        toml = page.get_by_test_id("editor-toml").input_value()
        assert "buckets = [7, 4, 3]" in toml
        page.screenshot(path=str(SHOTS / f"editor-{width}x{height}.png"), full_page=True)
        assert_page_ok(page, f"editor after saving at {width}", with_axe=True)

        page.get_by_test_id("editor-start").click()
        link = page.get_by_test_id("editor-link-seat-0")
        link.wait_for()
        page.goto(str(link.get_attribute("href")))
        bucket = page.get_by_test_id("feather-bucket-0-A")
        bucket.wait_for()
        assert "7" in bucket.inner_text()
        assert "exactly 5" in page.get_by_test_id("feather-objective-1").inner_text()

        # After a reload: listed by the API, in the editor's choices and in the lobby.
        page.goto(live_server + "/feather/editor")
        page.get_by_test_id("editor-bucket-cap-0-0").wait_for()
        # The library's names arrive with their own request, after the form: await the option.
        page.get_by_test_id("editor-from").locator(f"option[value='{name}']").wait_for(
            state="attached")
        page.goto(live_server + "/")
        assert name in page.get_by_test_id("feather-library").inner_text()
        # The new-match form offers it by name, after a new puzzle (the default, LF-12) and
        # the shipped ones; the difficulty is a choice, not a text box.
        page.locator("[data-new=feather]").click()
        select = page.get_by_test_id("opt-scenario")
        select.wait_for()
        values = select.locator("option").evaluate_all("els => els.map(e => e.value)")
        assert values[0] == "generated" and "default" in values and name in values, values
        assert select.input_value() == "generated"
        assert page.get_by_test_id("opt-difficulty").evaluate("e => e.tagName") == "SELECT"
    finally:
        context.close()


def test_pasted_toml_is_read_into_the_form(page: Any, live_server: str) -> None:
    page.goto(live_server + "/feather/editor?from=example")
    page.get_by_test_id("editor-bucket-cap-0-0").wait_for()
    wait_clean(page)
    toml = page.get_by_test_id("editor-toml")
    toml.fill(toml.input_value().replace("buckets = [10, 7]", "buckets = [12, 7]")
              .replace("add = 10\nevery = 6\nfrom = 0", "at = [[20, 10]]"))
    page.wait_for_function("() => document.querySelector("
                           "'[data-testid=editor-bucket-cap-0-0]').value === '12'")
    wait_problem(page, "LF-8")  # the example's session ends at tick 9
    assert "ends at tick 9" in problems_text(page)
