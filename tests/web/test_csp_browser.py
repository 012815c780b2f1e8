"""Every kind of page under the server's Content-Security-Policy, in Chromium: the lobby (and
a match made with its form and played a move), each game's rules page, /rulings, a match
page of each game as a seat, a spectator and the host, a season page as host and as a
player, the Feather scenario editor and an error page. Each must draw what the tests of that
page wait for (so its scripts ran), with its stylesheets applied and, on a match page, its
socket live (the policy lets the page reach its own server's ``ws:``), and not one violation
of the policy may be reported, neither as a ``securitypolicyviolation`` event nor as a
console message."""

from __future__ import annotations

from typing import Any

import pytest

from server.serverproc import ServerProcess

pytestmark = pytest.mark.slow

GAMES = ("boxes", "feather", "lockedout", "lockmaker", "paint")
BOARD = {"boxes": "bx-root", "feather": "feather-board", "lockedout": "lo-board",
         "lockmaker": "lm-board", "paint": "pf-root"}
"""What each game's tests wait for: its own board, drawn by its own module."""

# Init scripts run before any of the page's own and are not subject to its policy; the
# event is reported to the test at once, so a violation during a navigation is not lost.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) => {
  window.cspViolation([e.violatedDirective, e.blockedURI, e.sample || "",
                       e.sourceFile + ":" + e.lineNumber].join(" | "));
}, true);
"""

SHEET_RULES = """path => {
  const sheet = [...document.styleSheets].find((s) => s.href && s.href.endsWith(path));
  return sheet ? sheet.cssRules.length : -1;
}"""
"""How many rules of the stylesheet at ``path`` the page holds (-1: none is loaded)."""


def test_every_page_kind_renders_with_no_csp_violation(browser: Any,
                                                       live_process: ServerProcess) -> None:
    base = live_process.url
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    violations: list[str] = []
    context.expose_function("cspViolation", lambda text: violations.append(text))
    context.add_init_script(REPORT_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(20_000)
    console: list[str] = []
    page.on("console", lambda msg: console.append(msg.text))
    page.on("pageerror", lambda exc: console.append(f"page error: {exc}"))
    seen: list[str] = []

    def visit(url: str, selector: str, where: str, *, game: str | None = None) -> None:
        seen.append(where)
        response = page.goto(url)
        assert response is not None and response.ok, (where, response and response.status)
        policy = response.headers.get("content-security-policy", "")
        assert "frame-ancestors 'none'" in policy, (where, policy)
        page.locator(selector).first.wait_for()
        sheets = ["/static/arena.css"] + ([f"/static/games/{game}.css"] if game else [])
        for sheet in sheets:
            rules = page.evaluate(SHEET_RULES, sheet)
            assert rules > 10, f"{where}: {sheet} is not applied ({rules} rules)"
        problems = [*violations, *(c for c in console if "Content Security Policy" in c
                                   or "Refused to" in c or c.startswith("page error"))]
        assert not problems, f"{where}: {problems}"

    try:
        visit(base + "/", "[data-testid=new-game]", "the lobby")  # drawn by lobby.js
        # And played: a match made with the lobby's form, and a move sent from its page.
        page.get_by_test_id("new-game").select_option("toy")
        page.get_by_test_id("seat-kind-1").select_option("bot")
        page.get_by_test_id("create").click()
        seat = page.get_by_test_id("link-seat-0").get_attribute("href")
        assert seat and "/m/" in seat
        visit(seat, "[data-testid=phase-name]", "a toy match made in the lobby")
        page.get_by_test_id("phase-name").filter(has_text="Study").wait_for()
        page.get_by_test_id("notation-input").fill("ready")
        page.get_by_test_id("submit-final").click()
        page.get_by_test_id("phase-name").filter(has_text="Pick").wait_for()
        games = live_process.http.get(base + "/api/games").json()
        for g in games:
            visit(f"{base}/games/{g['name']}", "main.rules h1", f"the rules of {g['name']}")
        visit(base + "/rulings", "[data-testid=rulings-G]", "/rulings")
        for game in GAMES:
            links = live_process.create(game, settings={"time_scale": 50.0})["links"]
            for role, url in (("seat", links["seats"][0]), ("spectator", links["spectator"]),
                              ("host", links["host"])):
                visit(url, f"[data-testid={BOARD[game]}]", f"{game} as {role}", game=game)
                # The socket's handshake is a fetch the policy governs (connect-src).
                page.locator("[data-testid=conn][data-state=live]").wait_for()
        season = live_process.http.post(base + "/api/seasons", json={
            "cast": [{"name": n, "bot": i > 0} for i, n in enumerate(["Ann", "Ben", "Cat"])],
            "seed": 3})
        assert season.status_code == 201, season.text
        s_links = season.json()["links"]
        visit(s_links["host"], "[data-testid=season-standings]", "the season as host",
              game="season")
        visit(s_links["players"]["Ann"], "[data-testid=season-standings]",
              "the season as a player", game="season")
        visit(base + "/feather/editor", "[data-testid=editor-no-problems]", "the Feather editor")
        seen.append("an error page")
        response = page.goto(base + "/m/nosuchmatch")
        assert response is not None and response.status == 404
        assert "frame-ancestors 'none'" in response.headers.get("content-security-policy", "")
        page.get_by_test_id("link-error").wait_for()
    finally:
        context.close()
    assert not violations and not [c for c in console if "Refused to" in c], (violations, console)
    assert len(seen) == 2 + len(games) + 1 + 3 * len(GAMES) + 4, seen
