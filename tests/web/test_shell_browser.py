"""The match shell in a real browser, with the toy game (no page script of its own): a human
seat plays a whole match against a bot through the notation box, sees a rule-naming error
next to the control (G-6), and the result; the replay viewer steps through the log."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from server.serverproc import ServerProcess
from web.checks import assert_page_ok

pytestmark = pytest.mark.slow


def test_lobby_lists_games_and_creates_a_match(page: Any, live_server: str,
                                               screenshot_dir: Path) -> None:
    page.goto(live_server + "/")
    page.get_by_test_id("game-toy").wait_for()
    page.get_by_test_id("new-game").select_option("toy")
    page.get_by_test_id("seat-name-0").fill("Ada")
    page.get_by_test_id("seat-kind-1").select_option("bot")
    page.get_by_test_id("new-time-scale").fill("0.2")
    page.get_by_test_id("opt-rounds").fill("2")
    page.get_by_test_id("create").click()
    link = page.get_by_test_id("link-seat-0")
    link.wait_for()
    assert "/m/" in (link.get_attribute("href") or "")
    page.get_by_test_id("matches").get_by_text("Ada").first.wait_for()
    page.screenshot(path=str(screenshot_dir / "lobby.png"), full_page=True)


def test_human_plays_toy_match_against_bot(page: Any, live_server: str, new_match: Any,
                                          screenshot_dir: Path) -> None:
    m = new_match("toy", seats=[{"name": "Ada", "bot": False}, {"name": "Robo", "bot": True}],
                  settings={"time_scale": 0.2}, config={"rounds": 2}, seed=7)
    page.goto(m["links"]["seats"][0])
    page.get_by_test_id("role").filter(has_text="Seat 1").wait_for()
    page.get_by_test_id("phase-name").filter(has_text="Study").wait_for()
    # The first view comes over HTTP; the socket opens just after it.
    page.locator("[data-testid=conn][data-state=live]").wait_for()

    # G-6: a bad submission is refused next to the control, naming the rule.
    page.get_by_test_id("notation-input").fill("go")
    page.get_by_test_id("submit").click()
    page.get_by_test_id("error").filter(has_text="TOY-1").wait_for()

    page.get_by_test_id("notation-input").fill("ready")
    page.get_by_test_id("submit-final").click()
    page.get_by_test_id("phase-name").filter(has_text="Pick").wait_for()

    page.get_by_test_id("notation-input").fill("7")
    page.get_by_test_id("submit").click()
    page.get_by_test_id("error").filter(has_text="TOY-2").wait_for()

    for _ in range(2):
        page.get_by_test_id("notation-input").fill("3")
        page.get_by_test_id("submit").click()
        page.get_by_test_id("status").filter(has_text="Sent: 3").wait_for()
        page.get_by_test_id("private").get_by_text("3").first.wait_for()
        page.screenshot(path=str(screenshot_dir / "shell_toy.png"), full_page=True)
        before = page.evaluate("() => window.Arena.state.view.phase.no")
        page.get_by_test_id("confirm").click()
        # Confirming ends the phase (the bot is final already, G-4); the "Confirmed" note
        # belongs to the phase that just ended, so the page moves on instead of keeping it.
        page.wait_for_function("n => { const v = window.Arena.state.view;"
                               " return !!v.result || (v.phase && v.phase.no > n); }", arg=before)
    result = page.get_by_test_id("result")
    result.wait_for(state="visible")
    assert "wins" in result.inner_text()
    assert page.get_by_test_id("countdown").inner_text() == "Final"
    log = page.get_by_test_id("log").inner_text()
    assert "Match over" in log and "Pick is over" in log  # phases by name, never "Phase 3"

    # The replay viewer steps back to the start and forward again.
    page.get_by_test_id("replay-first").click()
    page.get_by_test_id("replay-banner").wait_for(state="visible")
    page.get_by_test_id("replay-next").click()
    page.get_by_test_id("replay-caption").filter(has_text="Entry 2").wait_for()
    page.get_by_test_id("replay-exit").click()
    page.get_by_test_id("replay-banner").wait_for(state="hidden")
    page.screenshot(path=str(screenshot_dir / "shell_toy_final.png"), full_page=True)


def test_spectator_sees_no_controls_and_no_secret(page: Any, live_server: str,
                                                 new_match: Any) -> None:
    m = new_match("toy", seats=[{"name": "A", "bot": False}, {"name": "B", "bot": True}],
                  settings={"time_scale": 5.0}, seed=3)
    page.goto(m["links"]["spectator"])
    page.get_by_test_id("role").filter(has_text="Spectator").wait_for()
    assert page.get_by_test_id("controls").is_hidden()
    assert "secret-" not in page.content()


def test_host_pauses_and_resumes(page: Any, live_server: str, new_match: Any) -> None:
    m = new_match("toy", seats=[{"name": "A", "bot": False}, {"name": "B", "bot": False}],
                  settings={"time_scale": 5.0}, seed=4)
    page.goto(m["links"]["host"])
    page.get_by_test_id("role").filter(has_text="Host").wait_for()
    page.get_by_test_id("host-pause").click()
    page.get_by_test_id("countdown").filter(has_text="Paused").wait_for()
    page.get_by_test_id("host-pause").click()
    page.get_by_test_id("host-error").filter(has_text="not running").wait_for()
    page.get_by_test_id("host-resume").click()
    page.get_by_test_id("countdown").filter(has_text=":").wait_for()


def test_host_sets_a_deadline_in_local_time(browser: Any, live_process: ServerProcess) -> None:
    """SE-7 made the match clock: the host picks a date and time in its own zone (here
    Kolkata, +05:30) and the match's deadline is that moment; a paused match runs again, and
    the log says so."""
    m = live_process.create("toy", seats=[{"name": "A", "bot": False},
                                          {"name": "B", "bot": False}],
                            settings={"time_scale": 5.0}, seed=5)
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  timezone_id="Asia/Kolkata")
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        page.goto(m["links"]["host"])
        page.get_by_test_id("role").filter(has_text="Host").wait_for()
        page.get_by_test_id("host-pause").click()
        page.get_by_test_id("countdown").filter(has_text="Paused").wait_for()
        zone = ZoneInfo("Asia/Kolkata")
        local = (datetime.now(zone) + timedelta(days=2)).replace(hour=20, minute=30, second=0,
                                                                 microsecond=0)
        page.get_by_test_id("host-deadline-input").fill(local.strftime("%Y-%m-%dT%H:%M"))
        page.get_by_test_id("host-set-deadline").click()
        page.get_by_test_id("log").filter(has_text="The host set the deadline to").wait_for()
        view = live_process.http.get(f"{live_process.url}/api/matches/{m['id']}/view",
                                     params={"token": m["tokens"]["host"]}).json()
        assert view["paused"] is False
        assert view["phase"]["deadline"] == local.timestamp()
        assert page.get_by_test_id("host-error").inner_text().strip() == ""
        assert_page_ok(page, "host page after setting a deadline", with_axe=True)
    finally:
        context.close()


def test_a_match_paused_by_the_server_says_why(
        page: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """G-5: zero-length rounds pause the match; the host's page says why (a banner
    and a log line), and the page still passes its checks."""
    # The schema refuses such settings for every real game now; a plugin
    # game whose config hides its durations from the schema still gets them through.
    folder = tmp_path_factory.mktemp("rush")
    server = ServerProcess(f"sqlite:///{folder / 'rush.db'}", folder / "server.log",
                           env={"ARENA_EXTRA_GAMES": "toygame:TOY,toygame:RUSH"}).start()
    try:
        m = server.create("rushtoy")
        page.goto(m["links"]["host"])
        _paused_banner(page)
    finally:
        server.stop()


def test_a_phase_with_no_time_limit_says_so_in_the_clock(
        page: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A phase with no deadline (the view's ``next_deadline`` null) shows "no time limit",
    never a countdown of NaN or a clock stuck at its placeholder."""
    folder = tmp_path_factory.mktemp("untimed")
    server = ServerProcess(f"sqlite:///{folder / 'wait.db'}", folder / "server.log",
                           env={"ARENA_EXTRA_GAMES": "toygame:TOY,core.toygames:WAIT"}).start()
    try:
        m = server.create("waittoy", seats=[{"name": "Ada", "bot": False},
                                            {"name": "Ben", "bot": False}])
        page.goto(m["links"]["seats"][0])
        page.get_by_test_id("clock-note").filter(has_text="no time limit").wait_for()
        countdown = page.get_by_test_id("countdown")
        assert countdown.get_attribute("data-state") == "untimed"
        assert countdown.get_attribute("data-deadline") == ""
        assert countdown.inner_text() == "—"
        assert_page_ok(page, "seat page of a phase with no time limit", with_axe=True)
    finally:
        server.stop()


def _paused_banner(page: Any) -> None:
    banner = page.get_by_test_id("server-paused")
    banner.wait_for()
    assert "faster than the server allows" in banner.inner_text()
    page.get_by_text("Paused by the server:").first.wait_for()
    assert_page_ok(page, "host page of a match paused by the server", with_axe=True)


def test_a_double_clicked_send_goes_once(page: Any, live_server: str, new_match: Any) -> None:
    """The second click of a double click sent the same move again, and its
    refusal (already final) reached only the console. The same send made while the first is
    on its way is that send: one submission reaches the match, and the page says it went."""
    m = new_match("toy", seats=[{"name": "Ada", "bot": False}, {"name": "Bo", "bot": False}],
                  settings={"time_scale": 5.0}, seed=5)
    page.goto(m["links"]["seats"][0])
    page.locator("[data-testid=conn][data-state=live]").wait_for()
    page.get_by_test_id("notation-input").fill("ready")
    page.get_by_test_id("submit-final").dblclick()
    page.get_by_test_id("status").filter(has_text="Sent as final").wait_for()
    assert page.get_by_test_id("error").inner_text() == ""
    # A fast server can answer between the two clicks: the second click then comes after the
    # first send's answer. It is still the same send (this is what a dblclick raced into).
    page.get_by_test_id("submit-final").click()
    page.get_by_test_id("status").filter(has_text="Sent as final").wait_for()
    assert page.get_by_test_id("error").inner_text() == ""
    events = page.request.get(f"{live_server}/api/matches/{m['id']}/events"
                              f"?token={m['tokens']['host']}").json()["events"]
    assert [e["data"]["seat"] for e in events if e["kind"] == "submit"] == [0]
