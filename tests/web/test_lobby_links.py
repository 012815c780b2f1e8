"""In the browser: "Your matches and seasons" keeps every link a browser has
used. A host and two players (three browser contexts) start from a season made with the
lobby's default form; every tab is closed and the lobby reopened in each: each finds its
season and its matches. The host gives a player a new season link: the player's old entry is
marked, and once the player opens the new link it takes the old one's place. A rematch the
host starts appears in the host's list without any page of it having been opened. The lobby
names every seat as its page does, sends a bot seat's level, and passes axe at 390x844 and
1280x800."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
import pytest

from web.checks import assert_page_ok

pytestmark = pytest.mark.slow

SHOTS = Path("/tmp/arena-screens")


def context(browser: Any, width: int, height: int) -> Any:
    ctx = browser.new_context(viewport={"width": width, "height": height})
    ctx.set_default_timeout(20_000)
    return ctx


def open_page(ctx: Any, url: str) -> Any:
    page = ctx.new_page()
    page.on("dialog", lambda d: d.accept())
    page.goto(url)
    return page


def token(url: str) -> str:
    return parse_qs(urlparse(url).query)["token"][0]


def item(page: Any, kind: str, role: str, text: str = "") -> Any:
    found = page.locator(f"[data-testid=your-item][data-kind={kind}][data-role={role}]")
    return found.filter(has_text=text) if text else found


def lobby(ctx: Any, base: str) -> Any:
    """A fresh tab on the lobby, its list checked with the server."""
    page = open_page(ctx, base + "/")
    page.get_by_test_id("your-list").wait_for()
    page.locator("[data-testid=my-matches][aria-busy=false]").wait_for()
    return page


def test_links_are_kept_across_closed_tabs_reissues_and_rematches(browser: Any,
                                                                  live_server: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    base = live_server
    host_ctx, ann_ctx, ben_ctx = (context(browser, 1280, 800), context(browser, 390, 844),
                                  context(browser, 390, 844))
    try:
        # The season, from the lobby's default form: Ann and Ben play, the other four are bots.
        host = lobby(host_ctx, base)
        host.get_by_test_id("season-kind-1").select_option("human")
        host.get_by_test_id("season-create").click()
        host.get_by_test_id("season-created").wait_for()
        host_url = host.get_by_test_id("season-host-link").get_attribute("href")
        ann_url = host.get_by_test_id("season-player-link-0").get_attribute("href")
        ben_url = host.get_by_test_id("season-player-link-1").get_attribute("href")
        sid = host_url.split("/s/")[1].split("?")[0]
        r = httpx.post(f"{base}/api/seasons/{sid}/host/start_main",
                       params={"token": token(host_url)}, json={}, timeout=30)
        assert r.status_code == 200, r.text

        # Each player opens their season link; Ann opens her Main Match seat from it too.
        ann = open_page(ann_ctx, ann_url)
        ben = open_page(ben_ctx, ben_url)
        # The season makes its Main Match on its own loop (the suite's timeout guards a hang).
        while not (ann_seat := httpx.get(f"{base}/api/seasons/{sid}",
                                         params={"token": token(ann_url)}, timeout=30
                                         ).json()["links"].get("e1-mm", {}).get("play")):
            time.sleep(0.2)
        ann.goto(ann_seat)
        ann.get_by_test_id("game-root").wait_for()

        # The host also runs a quick match of two bots, one of them easy.
        host.get_by_test_id("new-game").select_option("toy")
        host.get_by_test_id("seat-kind-0").select_option("bot")
        assert host.get_by_test_id("seat-level-1").input_value() == "normal"
        host.get_by_test_id("seat-level-1").select_option("easy")
        host.get_by_test_id("new-time-scale").fill("0.01")
        host.get_by_test_id("new-bot-pace").select_option("instant")
        host.get_by_test_id("opt-rounds").fill("1")
        with host.expect_request(lambda q: q.url.endswith("/api/matches")
                                 and q.method == "POST") as sent:
            host.get_by_test_id("create").click()
        seats = json.loads(sent.value.post_data or "{}")["seats"]
        assert seats[1] == {"name": "", "bot": True, "level": "easy"}
        assert seats[0]["level"] == "normal"
        # One name per seat: the lobby says what the match page says.
        created = host.get_by_test_id("created")
        created.wait_for()
        assert "Bot 1" in created.inner_text() and "Bot 2" in created.inner_text()
        assert "Seat 1 ·" not in created.inner_text()
        quick = host.get_by_test_id("link-host").get_attribute("href")
        quick_id = quick.split("/m/")[1].split("?")[0]

        # Every tab is closed; each reopens the lobby.
        for ctx in (host_ctx, ann_ctx, ben_ctx):
            for page in list(ctx.pages):
                page.close()
        host = lobby(host_ctx, base)
        mine = item(host, "season", "host")
        mine.filter(has_text="Episode 1: Main Match").wait_for()
        assert mine.locator("a.open").get_attribute("href") == host_url
        item(host, "match", "host", "High card").wait_for()

        ann = lobby(ann_ctx, base)
        item(ann, "season", "player", "you are Ann").filter(
            has_text="Episode 1: Main Match").wait_for()
        assert item(ann, "match", "seat", "you play Ann").locator("a.open").get_attribute(
            "href") == ann_seat
        ben = lobby(ben_ctx, base)
        bens = item(ben, "season", "player", "you are Ben")
        bens.filter(has_text="Episode 1: Main Match").wait_for()
        assert bens.locator("a.open").get_attribute("href") == ben_url

        # The host gives Ben a new season link from the lobby's list.
        seasons = item(host, "season", "host")
        seasons.locator("summary", has_text="Players' season links").click()
        ben_row = seasons.locator("li", has=host.get_by_role("button", name="New season link for Ben"))
        assert ben_row.locator("a").get_attribute("href") == ben_url
        ben_row.get_by_role("button").click()
        ben_row.locator(f"a:not([href='{ben_url}'])").wait_for()
        ben_new = ben_row.locator("a").get_attribute("href")
        assert ben_new.startswith(f"{base}/s/{sid}?token=")
        # Ben's lobby marks the old link; opening the new one files it in the old one's place.
        ben.reload()
        item(ben, "season", "player", "you are Ben").filter(
            has_text="link no longer works").wait_for()
        ben.goto(ben_new)
        ben = lobby(ben_ctx, base)
        bens = item(ben, "season", "player", "you are Ben")
        bens.filter(has_text="running").wait_for()
        assert bens.count() == 1
        assert bens.locator("a.open").get_attribute("href") == ben_new
        assert ben.get_by_text("link no longer works").count() == 0

        # A rematch of the quick match appears in the host's list (no page of it opened).
        deadline = time.monotonic() + 30
        while httpx.get(f"{base}/api/matches/{quick_id}", timeout=30).json()["status"] != "finished":
            assert time.monotonic() < deadline, "the quick match did not finish"
            time.sleep(0.2)
        host.reload()
        item(host, "match", "host", "High card").filter(has_text="finished").wait_for()
        r = httpx.post(f"{base}/api/matches/{quick_id}/host/rematch",
                       params={"token": token(quick)}, json={}, timeout=30)
        assert r.status_code == 200, r.text
        rematch = r.json()["id"]
        host.reload()
        host.locator(f"[data-testid=your-item][data-id='{rematch}'][data-role=host]").wait_for()
        host.locator("[data-testid=my-matches][aria-busy=false]").wait_for()

        for page, where in ((host, "host's lobby at 1280x800"), (ann, "Ann's lobby at 390x844")):
            page.evaluate("() => window.scrollTo(0, 0)")
            assert_page_ok(page, where, with_axe=True)
        host.get_by_test_id("my-matches-section").screenshot(path=str(SHOTS / "lobby-yours-1280.png"))
        ann.get_by_test_id("my-matches-section").screenshot(path=str(SHOTS / "lobby-yours-390.png"))
        host.screenshot(path=str(SHOTS / "lobby-1280.png"), full_page=True)
        ann.screenshot(path=str(SHOTS / "lobby-390.png"), full_page=True)
    finally:
        for ctx in (host_ctx, ann_ctx, ben_ctx):
            ctx.close()
