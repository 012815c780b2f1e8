"""The create-match form of static/matchform.js, shared by the lobby's "New match" and the
season host's "Start the Death Match" (docs/season-engine.md 3).

Through the lobby: every field the host touches reaches the body POSTed to /api/matches,
exactly, and the match the server makes from it. With fixed seats (the season's use): the
module is rendered beside the lobby's own form on the lobby page, under its strict
Content-Security-Policy, with a testid prefix; only games of that many seats are offered,
only a bot's level can be chosen, and the body it hands over creates the same match when
forwarded. Both forms on one page share no element id or testid."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from web.checks import assert_page_ok

pytestmark = pytest.mark.slow

REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) => {
  window.cspViolation([e.violatedDirective, e.blockedURI, e.sample || ""].join(" | "));
}, true);
"""

# The season board's use, on the lobby page: the real module, loaded by the page's import map.
MOUNT_FIXED = """async (arg) => {
  const { html, render } = await import("/static/ui.js");
  const { MatchForm } = await import("/static/matchform.js");
  const all = await (await fetch("/api/games")).json();
  const games = all.filter((g) => arg.games.includes(g.name));
  window.dmBodies = [];
  window.dmCreated = null;
  const onSubmit = async (body) => {
    window.dmBodies.push(body);
    if (window.dmBodies.length === 1) return "SE-7: refused once by the test";
    const r = await fetch("/api/matches", { method: "POST", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", Accept: "application/json" } });
    const data = await r.json();
    if (!r.ok) return data.error;
    window.dmCreated = data.id;
    return null;
  };
  const root = document.createElement("section");
  root.className = "card";
  root.dataset.testid = "dm-root";
  document.querySelector("main").append(root);
  render(html`<${MatchForm} games=${games} fixedSeats=${arg.seats} testidPrefix="dm-"
    submitLabel="Start the Death Match" onSubmit=${onSubmit}/>`, root);
}"""

DUPLICATE_IDS = """() => {
  const ids = [...document.querySelectorAll("[id]")].map((e) => e.id);
  const testids = [...document.querySelectorAll("[data-testid]")].map((e) => e.dataset.testid);
  const twice = (xs) => xs.filter((x, i) => xs.indexOf(x) !== i);
  return twice(ids).concat(twice(testids));
}"""


def lobby(browser: Any, base: str, width: int, height: int) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport={"width": width, "height": height})
    ctx.set_default_timeout(20_000)
    violations: list[str] = []
    ctx.expose_function("cspViolation", lambda text: violations.append(text))
    ctx.add_init_script(REPORT_VIOLATIONS)
    page = ctx.new_page()
    page.goto(base + "/")
    page.get_by_test_id("new-game").wait_for()
    return ctx, page, violations


def test_the_lobby_posts_every_field_of_the_shared_form(browser: Any, live_server: str) -> None:
    ctx, page, violations = lobby(browser, live_server, 1280, 800)
    try:
        # A game card's "New match" button still chooses the form's game.
        page.locator("[data-new=boxes]").click()
        assert page.get_by_test_id("new-game").input_value() == "boxes"
        page.get_by_test_id("new-game").select_option("toy")
        page.get_by_test_id("seat-name-0").fill("Ada")
        assert page.get_by_test_id("seat-kind-1").input_value() == "bot"
        page.get_by_test_id("seat-level-1").select_option("hard")
        page.get_by_test_id("new-seed").fill("7")
        page.get_by_test_id("new-time-scale").fill("0.5")
        page.get_by_test_id("new-early-close").uncheck()
        page.get_by_test_id("new-reveal").uncheck()
        page.get_by_test_id("new-bot-pace").select_option("instant")
        page.get_by_test_id("opt-rounds").fill("2")
        page.get_by_test_id("opt-use_reserve").uncheck()
        with page.expect_request(lambda q: q.url.endswith("/api/matches")
                                 and q.method == "POST") as sent:
            page.get_by_test_id("create").click()
        # Only the changed options travel; a seat left blank is named by the server.
        assert json.loads(sent.value.post_data or "{}") == {
            "game": "toy",
            "seats": [{"name": "Ada", "bot": False}, {"name": "", "bot": True, "level": "hard"}],
            "config": {"rounds": 2, "use_reserve": False},
            "settings": {"time_scale": 0.5, "early_close": False, "reveal_at_end": False,
                         "bot_pace": "instant"},
            "seed": "7"}
        page.get_by_test_id("created").wait_for()
        host = page.get_by_test_id("link-host").get_attribute("href")
        assert page.get_by_test_id("link-seat-0").get_attribute("href")
        match_id = host.split("/m/")[1].split("?")[0]
        made = httpx.get(f"{live_server}/api/matches/{match_id}", timeout=30).json()
        assert made["game"] == "toy" and made["names"][0] == "Ada"
        assert made["bots"] == [False, True] and made["levels"] == [None, "hard"]
        assert page.get_by_test_id("create-error").inner_text() == ""
        assert not violations, violations
    finally:
        ctx.close()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_fixed_seats_leave_only_the_bot_level(browser: Any, live_server: str, width: int,
                                              height: int, screenshot_dir: Any) -> None:
    ctx, page, violations = lobby(browser, live_server, width, height)
    try:
        page.evaluate(MOUNT_FIXED, {"games": ["toy", "boxes", "lockedout"],
                                    "seats": [{"name": "Ann", "bot": False},
                                              {"name": "Ben", "bot": True}]})
        form = page.get_by_test_id("dm-new-match")
        form.wait_for()
        # Locked Out! has six seats: a two-seat Death Match cannot be played on it.
        offered = page.get_by_test_id("dm-new-game").locator("option").evaluate_all(
            "os => os.map((o) => o.value)")
        assert sorted(offered) == ["boxes", "toy"]
        # Who plays is fixed: names as text, no "played by" choice, a level for the bot only.
        assert form.locator("input[name^=seat-name]").count() == 0
        assert form.locator("[data-testid^=dm-seat-kind]").count() == 0
        assert "Ann" in page.get_by_test_id("dm-seat-name-0").inner_text()
        assert "Ben" in page.get_by_test_id("dm-seat-name-1").inner_text()
        assert page.get_by_test_id("dm-seat-level-0").count() == 0
        page.get_by_test_id("dm-seat-level-1").select_option("hard")
        # The level the host chose stays when the game changes: the players did not.
        page.get_by_test_id("dm-new-game").select_option("toy")
        assert page.get_by_test_id("dm-seat-level-1").input_value() == "hard"
        page.get_by_test_id("dm-opt-rounds").fill("1")
        page.get_by_test_id("dm-new-bot-pace").select_option("instant")
        # The lobby's form is untouched and the two share no id or testid.
        assert page.get_by_test_id("create").count() == 1
        assert page.evaluate(DUPLICATE_IDS) == []
        assert page.get_by_test_id("dm-create").inner_text() == "Start the Death Match"

        # A refusal the page returns is shown beside the button, its rule linked.
        page.get_by_test_id("dm-create").click()
        error = page.get_by_test_id("dm-create-error")
        error.get_by_role("link", name="SE-7").wait_for()
        assert page.get_by_test_id("create-error").inner_text() == ""
        page.get_by_test_id("dm-create").click()
        page.wait_for_function("() => window.dmCreated !== null")
        bodies = page.evaluate("() => window.dmBodies")
        assert bodies[0] == bodies[1] == {
            "game": "toy",
            "seats": [{"name": "Ann", "bot": False}, {"name": "Ben", "bot": True, "level": "hard"}],
            "config": {"rounds": 1},
            "settings": {"time_scale": 1, "early_close": True, "reveal_at_end": True,
                         "bot_pace": "instant"}}
        assert error.inner_text() == ""
        # Forwarded as it is, the body makes the match the form describes.
        made = httpx.get(f"{live_server}/api/matches/{page.evaluate('() => window.dmCreated')}",
                         timeout=30).json()
        assert made["names"] == ["Ann", "Ben"] and made["levels"] == [None, "hard"]

        page.get_by_test_id("dm-root").screenshot(
            path=str(screenshot_dir / f"matchform-fixed-{width}x{height}.png"))
        assert_page_ok(page, f"lobby with a fixed-seat form at {width}x{height}", with_axe=True)
        assert not violations, violations
    finally:
        ctx.close()
