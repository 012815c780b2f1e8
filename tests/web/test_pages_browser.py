"""In a real browser: the pages that are not a game's board. The lobby, rules and
rulings pages pass the page checks (no sideways scroll, rule ids linked, axe-core) at phone and
desktop width; a bad link says so at once; a dropped socket shows the reconnecting banner and
resyncs from the last version; the tab title and the own-status line carry the state; the sound
preference sticks; errors name their rule as a link; everything works from the keyboard."""

from __future__ import annotations

import re
from typing import Any

import pytest

from web.checks import assert_page_ok

pytestmark = pytest.mark.slow

SIZES = [(390, 844), (1280, 800)]
GAMES = ["lockmaker", "boxes", "paint", "feather", "lockedout"]


@pytest.fixture(params=SIZES, ids=["phone", "desktop"])
def sized(request: Any, browser: Any) -> Any:
    width, height = request.param
    context = browser.new_context(viewport={"width": width, "height": height})
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    try:
        yield pg
    finally:
        context.close()


def test_lobby_rules_and_rulings_pass_the_page_checks(sized: Any, live_server: str) -> None:
    paths = ["/", "/rulings"] + [f"/games/{g}" for g in GAMES]
    for path in paths:
        sized.goto(live_server + path)
        sized.wait_for_load_state("networkidle")
        assert_page_ok(sized, path, with_axe=True)


def test_rules_pages_link_rule_ids_to_the_rulings(page: Any, live_server: str) -> None:
    page.goto(live_server + "/games/lockmaker")
    links = page.locator("main a[href^='/rulings#LM-']")
    assert links.count() > 0
    href = links.first.get_attribute("href") or ""
    page.goto(live_server + href)
    anchor = href.split("#", 1)[1]
    assert page.locator(f"[id='{anchor}']").count() == 1
    # Boxes' rules page carries the key to its cards, as the match page does.
    page.goto(live_server + "/games/boxes")
    assert page.get_by_test_id("bx-rules-legend").locator("dt").count() >= 12


def test_a_bad_link_says_so_within_two_seconds(page: Any, live_server: str,
                                               new_match: Any) -> None:
    m = new_match("toy", seats=[{"name": "A", "bot": False}, {"name": "B", "bot": True}],
                  settings={"time_scale": 5.0})
    page.goto(f"{live_server}/m/{m['id']}?token=not-a-real-token")
    error = page.get_by_test_id("link-error")
    error.wait_for(timeout=2_000)
    assert "Connecting" not in page.locator("body").inner_text()
    assert page.get_by_test_id("to-lobby").get_attribute("href") == "/"
    assert "link not valid" in page.title()
    # A match that does not exist at all is said the same way, by the page itself.
    page.goto(f"{live_server}/m/no-such-match?token=x")
    page.get_by_test_id("link-error").wait_for(timeout=2_000)


def test_dropped_socket_reconnects_and_resyncs_from_its_version(page: Any, live_server: str,
                                                                new_match: Any) -> None:
    m = new_match("toy", seats=[{"name": "Ada", "bot": False}, {"name": "Bo", "bot": False}],
                  settings={"time_scale": 5.0})
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(m["links"]["seats"][0])
    page.locator("[data-testid=conn][data-state=live]").wait_for()
    version = page.evaluate("() => window.Arena.state.version")
    assert version > 0
    # Drop the socket and keep it down while the host pauses the match.
    page.evaluate("() => { window.WebSocketHeld = window.WebSocket;"
                  " window.WebSocket = function () { throw new Error('offline'); };"
                  " window.Arena.state.ws.close(); }")
    page.get_by_test_id("reconnecting").wait_for()
    r = page.request.post(f"{live_server}/api/matches/{m['id']}/host/pause"
                          f"?token={m['tokens']['host']}", data={})
    assert r.ok, r.text()
    page.evaluate("() => { window.WebSocket = window.WebSocketHeld; }")
    # Retry now, unless the page's own timed retry got there first (on a loaded machine it
    # may, and then the button is gone): either way the socket comes back from its version.
    page.evaluate("() => { const b = document.querySelector('[data-testid=reconnect-now]');"
                  " if (b) b.click(); }")
    page.locator("[data-testid=conn][data-state=live]").wait_for()
    page.get_by_test_id("countdown").filter(has_text="Paused").wait_for()
    page.get_by_test_id("log").get_by_text("The host paused the match.").wait_for()
    assert page.get_by_test_id("reconnecting").count() == 0
    since = [int(re.search(r"since=(\d+)", url).group(1)) for url in sockets]  # type: ignore[union-attr]
    assert len(since) >= 2 and since[-1] >= version  # the reconnect asked from its version


def test_title_own_status_and_error_links(page: Any, live_server: str, new_match: Any) -> None:
    m = new_match("toy", seats=[{"name": "Ada", "bot": False}, {"name": "Bo", "bot": False}],
                  settings={"time_scale": 5.0}, config={"rounds": 1})
    base = f"{live_server}/api/matches/{m['id']}"
    page.goto(m["links"]["seats"][0])
    page.get_by_test_id("phase-name").filter(has_text="Study").wait_for()
    page.wait_for_function("() => / · your study · \\d+:\\d\\d$/.test(document.title)")
    page.get_by_test_id("own-status").filter(has_text="Your move").wait_for()
    for token in m["tokens"]["seats"]:
        page.request.post(f"{base}/submit?token={token}", data={"text": "ready", "final": True})
    page.get_by_test_id("phase-name").filter(has_text="Pick").wait_for()

    # An error names its rule as a link to the game's rules page.
    # The toy game has no board, so its notation drawer starts open.
    assert page.get_by_test_id("notation").evaluate("d => d.open")
    page.get_by_test_id("notation-input").fill("7")
    page.get_by_test_id("submit").click()
    link = page.get_by_test_id("error").locator("a", has_text="TOY-2")
    link.wait_for()
    assert link.get_attribute("href") == "/games/toy#TOY-2"

    # The next action clears it; a sealed submission says it can still change (G-10).
    page.get_by_test_id("notation-input").fill("3")
    page.get_by_test_id("submit").click()
    page.get_by_test_id("status").filter(has_text="Sent: 3").wait_for()
    assert page.get_by_test_id("error").inner_text() == ""
    page.get_by_test_id("own-status").filter(
        has_text="Submitted — you can change it until the phase ends").wait_for()
    page.wait_for_function("() => / · pick · \\d+:\\d\\d$/.test(document.title)")

    # The other seat's submission is not shown on this page (G-10; the server test compares
    # the streams).
    r = page.request.post(f"{base}/submit?token={m['tokens']['seats'][1]}", data={"text": "2", "final": True})
    assert r.ok
    page.get_by_test_id("private").get_by_text("3").first.wait_for()
    assert "submitted" not in page.get_by_test_id("seat-1").inner_text()
    r = page.request.post(f"{base}/submit?token={m['tokens']['seats'][0]}",
                          data={"text": "3", "final": True})
    assert r.ok
    page.get_by_test_id("result").wait_for()


def test_sound_preference_sticks_and_the_page_works_from_the_keyboard(
        page: Any, live_server: str, new_match: Any) -> None:
    m = new_match("toy", seats=[{"name": "Ada", "bot": False}, {"name": "Bo", "bot": True}],
                  settings={"time_scale": 5.0}, config={"rounds": 1})
    page.goto(m["links"]["seats"][0])
    page.locator("[data-testid=conn][data-state=live]").wait_for()
    # Sound and alerts live in the header's menu, opened from the keyboard too.
    menu = page.get_by_test_id("header-menu").locator("summary")
    menu.focus()
    page.keyboard.press("Enter")
    toggle = page.get_by_test_id("sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.focus()
    page.keyboard.press("Enter")
    page.locator("[data-testid=sound-toggle][aria-pressed=true]").wait_for()
    page.reload()
    page.get_by_test_id("header-menu").locator("summary").click()
    page.locator("[data-testid=sound-toggle][aria-pressed=true]").wait_for()

    # Keyboard only: open the notation drawer, type, send with Ctrl+Enter.
    summary = page.get_by_test_id("notation").locator("summary")
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement && document.activeElement.tagName") \
                == "SUMMARY":
            break
    else:
        pytest.fail("the notation drawer cannot be reached with Tab")
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "focus is not visible"
    was_open = summary.evaluate("s => s.parentElement.open")
    page.keyboard.press("Enter")
    assert summary.evaluate("s => s.parentElement.open") != was_open
    if was_open:  # the toy game has no board, so the drawer started open: open it again
        page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    page.keyboard.type("ready")
    page.keyboard.press("Control+Enter")
    page.get_by_test_id("status").filter(has_text="Sent: ready").wait_for()


@pytest.mark.parametrize("game", GAMES)
def test_every_match_page_passes_the_checks_as_every_role(sized: Any, game: str,
                                                          new_match: Any) -> None:
    """Each game's page as a seat, the host and a spectator, with
    bots at a human pace so the match stands still long enough to look at."""
    seats = 6 if game == "lockedout" else 2
    m = new_match(game, seats=[{"name": f"Player {i + 1}", "bot": i > 0} for i in range(seats)],
                  settings={"bot_pace": "human"})
    for role, link in [("seat", m["links"]["seats"][0]), ("host", m["links"]["host"]),
                       ("spectator", m["links"]["spectator"])]:
        sized.goto(link)
        sized.locator("[data-testid=conn][data-state=live]").wait_for()
        sized.get_by_test_id("game-root").wait_for()
        assert_page_ok(sized, f"{game} as {role}", with_axe=True)


@pytest.mark.parametrize("game", GAMES)
def test_results_screen_explains_the_result(page: Any, game: str, new_match: Any,
                                            live_process: Any) -> None:
    """The winner in words, every seat's score, how it was decided (the
    rounds, bouts or vote in words), a replay from the start; all checks pass."""
    seats = 6 if game == "lockedout" else 2
    config: dict[str, Any] = {"max_rounds": 2} if game == "lockedout" else {}
    # Feather runs on its clock whatever the bots do: shrink its ticks (G-5), and play one
    # session without the practice (three and a practice took 40 s of ticks).
    settings = {"time_scale": 0.02} if game == "feather" else {}
    if game == "feather":
        config = {"practice": False, "sessions": 1}
    # ``normal`` bots (G-8) end the match the way hard ones do (Lockmaker's locks built,
    # solved and scored), without the hardest-lock search: half a minute of CPU a match.
    m = new_match(game, seats=[{"name": f"Bot {i + 1}", "bot": True, "level": "normal"}
                               for i in range(seats)],
                  config=config, settings=settings)
    info: dict[str, Any] = {}
    for _ in range(1800):  # a hang guard (3 min), not a timing: bots build and solve for real
        info = live_process.http.get(f"{live_process.url}/api/matches/{m['id']}").json()
        if info["status"] == "finished":
            break
        page.wait_for_timeout(100)  # polling the server, not the page
    assert info["status"] == "finished"
    page.goto(m["links"]["spectator"])
    result = page.get_by_test_id("result")
    result.wait_for()
    winner = info["result"]["winner"]
    expected = "No single winner" if winner is None else f"Bot {winner + 1} wins"
    heading = page.get_by_test_id("winner").inner_text()
    if game == "lockedout":  # headed by who escaped and who is the EC (its resultTitle)
        assert "escaped" in heading.lower() and "Elimination Candidate" in heading, heading
    else:
        assert heading in (expected, "Both seats lose", "Draw")
    rows = page.get_by_test_id("result-table").locator("tbody tr")
    assert rows.count() == seats
    if game != "feather":  # the breakdown is drawn once the log has arrived over the socket
        page.get_by_test_id("result-breakdown").locator("li").first.wait_for()
    if game == "paint":  # everything hidden is revealed as pictures: the sets each designed
        for seat in (0, 1):
            assert page.get_by_test_id(f"pf-designs-{seat}").locator("li").count() == 8
    assert_page_ok(page, f"{game} results", with_axe=True)
    page.get_by_test_id("result-replay").click()
    page.get_by_test_id("replay-banner").wait_for()


def test_a_link_revoked_while_the_page_was_away_says_so(page: Any, live_server: str,
                                                        new_match: Any) -> None:
    """The socket of a revoked link is refused before it opens (the browser sees only 1006);
    the page asks the API and shows the link error instead of retrying for ever."""
    m = new_match("toy", seats=[{"name": "Ada", "bot": False}, {"name": "Bo", "bot": False}],
                  settings={"time_scale": 5.0})
    page.goto(m["links"]["seats"][0])
    page.locator("[data-testid=conn][data-state=live]").wait_for()
    page.evaluate("() => { window.WebSocketHeld = window.WebSocket;"
                  " window.WebSocket = function () { throw new Error('offline'); };"
                  " window.Arena.state.ws.close(); }")
    page.get_by_test_id("reconnecting").wait_for()
    r = page.request.post(f"{live_server}/api/matches/{m['id']}/host/reissue"
                          f"?token={m['tokens']['host']}", data={"seat": 0})
    assert r.ok, r.text()
    page.evaluate("() => { window.WebSocket = window.WebSocketHeld; }")
    # Retry now, unless the page's own timed retry got there first (on a loaded machine it
    # may, and then the button is gone): either way the socket comes back from its version.
    page.evaluate("() => { const b = document.querySelector('[data-testid=reconnect-now]');"
                  " if (b) b.click(); }")
    page.get_by_test_id("link-error").wait_for()


def test_a_game_cards_new_match_pressed_while_the_games_load_is_kept(
        page: Any, live_server: str) -> None:
    """A card's "New match" is drawn by the server and can be pressed before the lobby has
    its games and the form: the form then opens on that game (the click was lost before,
    and a browser test raced into it on a loaded machine)."""
    held: list[Any] = []
    page.route("**/api/games", lambda route: held.append(route))
    with page.expect_request("**/api/games"):  # the lobby asks for its games, and waits
        page.goto(live_server + "/")
    page.locator("[data-new=feather]").click()
    assert held, "the games' request was held"
    held[0].continue_()
    page.unroute("**/api/games")
    page.get_by_test_id("opt-scenario").wait_for()
    assert page.get_by_test_id("new-game").input_value() == "feather"
