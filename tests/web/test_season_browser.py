"""Issue 19 in the browser: a host creates a season of six (five bots) from the lobby, starts
the first episode's Main Match (Ann's seat link leads to her Locked Out! seat, where she plans
an attempt on the board), the vote
happens in the match and the nomination appears on the EC's own season page (or is made by
the bot at once), the Death Match starts with the EC in seat 1 and the DMO in seat 2, and the
season page shows the elimination and the ledger with its causes."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from web.checks import assert_page_ok, page_problems

pytestmark = pytest.mark.slow

SHOTS = Path("/tmp/season-shots")


def new_page(browser: Any, width: int, height: int) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


def season_api(base: str, page_url: str) -> dict[str, Any]:
    sid, _, token = page_url.split("/s/", 1)[1].partition("?token=")
    data: dict[str, Any] = httpx.get(f"{base}/api/seasons/{sid}", params={"token": token},
                                     timeout=30).json()
    return data


def page_ok(page: Any, where: str) -> None:
    assert_page_ok(page, where, with_axe=True)


def test_a_season_from_the_lobby_to_the_first_elimination(browser: Any, live_server: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    host = new_page(browser, 1280, 800)
    host.goto(live_server + "/")
    host.get_by_test_id("season-name-0").fill("Ann")
    host.get_by_test_id("season-kind-0").select_option("human")
    for i, name in enumerate(["Ben", "Cat", "Dan", "Eve", "Fay"], start=1):
        host.get_by_test_id(f"season-name-{i}").fill(name)
        host.get_by_test_id(f"season-kind-{i}").select_option("bot")
    host.get_by_test_id("season-time-scale").fill("0.01")
    host.get_by_test_id("season-bot-pace").select_option("instant")
    host.get_by_test_id("season-seed").fill("5")
    host.get_by_test_id("season-round-seconds").fill("500")  # 5 s at time scale 0.01
    host.get_by_test_id("season-max-rounds").fill("3")
    host.get_by_test_id("season-step-hours").fill("10")
    host.get_by_test_id("season-create").click()
    host.get_by_test_id("season-created").wait_for()
    host.get_by_test_id("season-list").filter(has_text="Ann, Ben, Cat").wait_for()
    page_ok(host, "lobby after creating a season")
    host_url = host.get_by_test_id("season-host-link").get_attribute("href")
    ann_url = host.get_by_test_id("season-player-link-0").get_attribute("href")
    assert host.get_by_test_id("season-player-link-1").count() == 0  # bots need no link

    # The host's season page: the cast, and the button for the Main Match.
    host.goto(host_url)
    host.get_by_test_id("se-cast").wait_for()
    assert host.get_by_test_id("se-status-0").inner_text() == "In"
    page_ok(host, "host page before the first episode")
    host.screenshot(path=str(SHOTS / "host-start-1280.png"), full_page=True)
    host.get_by_test_id("se-start-main-submit").click()
    host.get_by_test_id("se-ep1-mm-host").wait_for()

    # Ann's season page leads to her seat in the Locked Out! match.
    ann = new_page(browser, 390, 844)
    ann.goto(ann_url)
    ann.get_by_test_id("se-ep1-mm-yours").click()
    ann.get_by_test_id("game-root").wait_for()
    assert ann.get_by_test_id("game-title").inner_text().lower().startswith("locked out")
    # She plays the Main Match from her seat: a Solo attempt on the board, in the first round
    # that leaves her time for it (rounds last 5 s here; plans are never final, so each round
    # runs to its deadline).
    ann.get_by_test_id("lo-board").wait_for()
    mm_url = ann.url
    mm_id = mm_url.split("/m/", 1)[1].split("?", 1)[0]
    planned = ""
    for _ in range(3):
        ann.get_by_test_id("phase-name").filter(has_text="Round").wait_for()
        phase = ann.get_by_test_id("phase-name").inner_text()
        ann.locator(".lo-safe.closed").first.click()
        ann.get_by_test_id("lo-solo-here").click()
        ann.get_by_test_id("lo-solo-left-1").click()
        ann.get_by_test_id("lo-solo-right-2").click()
        ann.get_by_test_id("lo-submit").click()
        ann.wait_for_function(
            "() => !!document.querySelector('[data-testid=lo-msg-ok], [data-testid=lo-msg]')"
            " || !!document.querySelector('[data-testid=result]')")
        if ann.get_by_test_id("lo-msg-ok").count():
            planned = phase
            break
        ann.wait_for_function("p => { const h = document.querySelector("
                              "'[data-testid=phase-name]'); return !h || h.textContent !== p; }",
                              arg=phase)
    assert planned, "no round left Ann the time to plan"
    ann.goto(ann_url)

    # The match (and its vote, LO-9) runs out; the season reads its result.
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        data = season_api(live_server, host_url)
        if data["stage"] not in ("main", "mm", "gift"):
            break
        time.sleep(0.3)
    assert data["stage"] in ("nominate", "dm_pick"), data["stage"]
    ec = data["episodes"][0]["ec"]
    # Ann's attempt is in the Main Match's record, as her own submission.
    mm = httpx.get(f"{live_server}/api/matches/{mm_id}", timeout=30).json()
    ann_seat = mm["names"].index("Ann")
    log = httpx.get(f"{live_server}/api/matches/{mm_id}/events",
                    params={"token": mm_url.split("?token=")[1]}, timeout=30).json()["events"]
    mine = [e for e in log if e["kind"] == "submit" and e["data"]["seat"] == ann_seat]
    assert mine and "solo" in str(mine[0]["data"]["text"]).lower(), mine
    if data["stage"] == "nominate":
        # The nomination appears on the EC's page only; the host sees whom it waits for.
        assert data["actor"] == ec == "Ann"
        ann.get_by_test_id("se-nominate").wait_for()
        host.reload()
        host.get_by_test_id("se-step").filter(has_text="Waiting for Ann").wait_for()
        assert host.get_by_test_id("se-nominate").count() == 0
        page_ok(ann, "Ann's nomination at 390x844")
        ann.screenshot(path=str(SHOTS / "ann-nominate-390.png"), full_page=True)
        ann.get_by_test_id("se-nominate-option-0").check()
        ann.get_by_test_id("se-nominate-submit").click()
        ann.get_by_test_id("se-ep1-dmo").wait_for()
    data = season_api(live_server, host_url)
    assert data["stage"] == "dm_pick"
    dmo = data["episodes"][0]["dmo"]

    # The host picks the Death Match; it starts with the EC in seat 1 and the DMO in seat 2.
    host.reload()
    host.get_by_test_id("se-dm-game").select_option("boxes")
    host.get_by_test_id("se-start-death-submit").click()
    dm_line = host.get_by_test_id("se-ep1-dm")
    dm_line.filter(has_text=f"seat 1: {ec}, seat 2: {dmo}").wait_for()
    data = season_api(live_server, host_url)
    match_id = data["episodes"][0]["death_match"]["match"]
    info = httpx.get(f"{live_server}/api/matches/{match_id}", timeout=30).json()
    assert info["names"] == [ec, dmo] and info["game"] == "boxes"
    page_ok(host, "host page with the Death Match running")

    # Ann's page now links to her Death Match seat (when she plays it).
    ann.reload()
    if "Ann" in (ec, dmo):
        ann.get_by_test_id("se-ep1-dm-yours").wait_for()

    # The Death Match is recorded by hand (SE-4, with a reason): the loser leaves.
    host.get_by_test_id("se-record-death").locator("xpath=..").locator("summary").click()
    host.get_by_test_id("se-rd-loser").select_option(dmo)
    host.get_by_test_id("se-rd-reason").fill("played on the stage")
    host.get_by_test_id("se-record-death-submit").click()
    host.get_by_test_id("se-ep1-out").filter(has_text=f"{dmo} was eliminated").wait_for()
    out_row = data["cast"].index(dmo)
    assert host.get_by_test_id(f"se-status-{out_row}").inner_text() == "Eliminated in episode 1"
    ledger = host.get_by_test_id("se-ledger").inner_text()
    assert "played on the stage" in ledger and "eliminated" in ledger
    assert host.get_by_test_id("se-ledger").locator("a[href='/rulings#SE-4']").count() >= 1
    page_ok(host, "host page after the elimination")
    host.screenshot(path=str(SHOTS / "host-after-1280.png"), full_page=True)

    # Everyone's view at phone size: the public page and Ann's.
    public = new_page(browser, 390, 844)
    public.goto(host_url.split("?")[0])
    public.get_by_test_id("se-ep1-out").wait_for()
    assert public.get_by_test_id("se-host").count() == 0
    page_ok(public, "public season page at 390x844")
    public.screenshot(path=str(SHOTS / "public-390.png"), full_page=True)
    ann.reload()
    ann.get_by_test_id("se-ep1-out").wait_for()
    assert not page_problems(ann, with_axe=True)


def test_host_closes_the_vault_now_and_the_season_goes_on(browser: Any, live_server: str
                                                           ) -> None:
    """Issue 26 (SE-6): the host's season page has "Close the vault now" while the Main
    Match runs and the round limit of the next ones; closing the vault scores the match as it
    stands and the season goes on to the host naming a trapped EC; a player's page says what
    happens and who waits for whom. Both sizes, with axe."""
    SHOTS.mkdir(exist_ok=True)
    cast = [{"name": "Ann", "bot": False}] + [{"name": n, "bot": True}
                                              for n in ("Ben", "Cat", "Dan")]
    created = httpx.post(f"{live_server}/api/seasons", timeout=30, json={
        "cast": cast, "seed": 3, "settings": {"time_scale": 0.01, "bot_pace": "instant"},
        "mm_config": {"round_seconds": 3600, "vote_seconds": 3600}}).json()
    host_url, ann_url = created["links"]["host"], created["links"]["players"]["Ann"]
    host = new_page(browser, 1280, 800)
    host.goto(host_url)
    assert host.get_by_test_id("se-mm-rounds").get_attribute("value") == "20"  # the default
    host.get_by_test_id("se-start-main-submit").click()
    host.get_by_test_id("se-close-vault-submit").wait_for()
    page_ok(host, "host page while the Main Match runs")
    ann = new_page(browser, 390, 844)
    ann.goto(ann_url)
    assert "playing the Main Match" in ann.get_by_test_id("se-waiting").inner_text()
    host.get_by_test_id("se-close-vault-submit").click()
    host.get_by_test_id("se-name-ec").wait_for()
    assert "closed the vault now" in host.get_by_test_id("se-episode-1").inner_text()
    page_ok(host, "host page after closing the vault")
    host.screenshot(path=str(SHOTS / "host-closed-vault-1280.png"), full_page=True)
    ann.reload()
    ann.get_by_test_id("se-waiting").filter(has_text="host to name the Elimination").wait_for()
    page_ok(ann, "player page while the host names the EC")
    ann.screenshot(path=str(SHOTS / "ann-waiting-390.png"), full_page=True)
