"""Issue 26 in a real browser (points 4, 5, 8 and the acceptance): the season page drawn by
``/static/season.js`` from the season's API at 390x844 and 1280x800, axe on every step.

- Step clocks (SE-7): the host pauses the gift's clock and it does not run out past its old
  deadline; the host sets the gift's deadline to a clock time and extends the nomination by
  10 minutes; the players' pages show both as their own clock time with the time left.
- The host's private channel in a season (G-13): the chosen player reads it and answers,
  another player's page has no trace of it.
- Endings (SE-6): the lobby's default season form, the Main Match started, the host presses
  "End match" on the match's page: the season goes on to the host's EC step, every season page
  answers 200 and draws, and a SIGKILL and restart change nothing; the same when the server is
  SIGKILLed during the Main Match and the host ends it after the restart.
- A screenshot of every season step (cast, Main Match, its vote, gift, nomination, Death
  Match, final) at both sizes, in /work/shots/season/.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.serverproc import ServerProcess
from web.checks import assert_page_ok

pytestmark = pytest.mark.slow

SHOTS = Path("/work/shots/season")
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 800}
FAST = {"time_scale": 0.01, "bot_pace": "instant"}
MAIN = {"escaped": ["Ann", "Ben"], "trapped": ["Cat", "Dan"], "bars": {"Ann": 5, "Ben": 3},
        "ec": "Cat", "opal": None}


def new_page(browser: Any, size: dict[str, int]) -> Any:
    context = browser.new_context(viewport=size)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.on("dialog", lambda d: d.accept())  # "End the match now?"
    return page


def drawn(page: Any) -> None:
    """The script drew the season from its view (the shell's 'Loading' is gone)."""
    page.get_by_test_id("se-cast").wait_for()


def shoot(page: Any, name: str) -> None:
    """The page at both sizes: checked (axe included, counts read too) and photographed."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    was = page.viewport_size
    for size in (PHONE, DESK):
        page.set_viewport_size(size)
        page.wait_for_function("w => window.innerWidth === w", arg=size["width"])
        assert_page_ok(page, f"{name} at {size['width']}", with_axe=True)
        page.screenshot(path=str(SHOTS / f"{name}-{size['width']}.png"), full_page=True)
    page.set_viewport_size(was)


def api(base: str, sid: str, token: str | None = None) -> dict[str, Any]:
    r = httpx.get(f"{base}/api/seasons/{sid}", params={"token": token} if token else {},
                  timeout=30)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def post(base: str, sid: str, path: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
    r = httpx.post(f"{base}/api/seasons/{sid}/{path}", params={"token": token}, json=body,
                   timeout=30)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def create(base: str, cast: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    r = httpx.post(f"{base}/api/seasons", json={"cast": cast, "seed": 7, **extra}, timeout=30)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def local_text(page: Any, epoch: float) -> str:
    """How this browser writes a moment in its own clock time (as the page does)."""
    text: str = page.evaluate(
        "t => new Date(t * 1000).toLocaleString([], {weekday: 'short', year: 'numeric', "
        "month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', "
        "timeZoneName: 'short'})", epoch)
    return text


def until(check: Any, timeout: float = 60) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError("timed out")


def test_step_clocks_and_a_private_channel_on_the_players_pages(browser: Any,
                                                                 live_server: str) -> None:
    # Ann and Cat are people; the gift (Ann's) and the nomination (Cat's) each have a 15 s
    # clock (1500 s at time scale 0.01).
    cast = [{"name": "Ann"}, {"name": "Ben", "bot": True}, {"name": "Cat"},
            {"name": "Dan", "bot": True}]
    created = create(live_server, cast, settings={"time_scale": 0.01, "bot_pace": "instant"},
                     step_seconds=1500)
    sid, tok = created["id"], created["tokens"]["host"]
    links = created["links"]
    host = new_page(browser, DESK)
    host.goto(links["host"])
    drawn(host)
    post(live_server, sid, "host/record_main", tok, {"result": MAIN, "reason": "on stage"})
    # The gift's clock: the host pauses it at once; it does not run out past its deadline.
    host.get_by_test_id("step-pause-submit").click()
    host.get_by_test_id("step-resume-submit").wait_for()
    data = api(live_server, sid)
    assert data["stage"] == "gift" and data["paused"], data
    old_deadline = data["now"] + data["paused_left"]
    ann = new_page(browser, PHONE)
    ann.goto(links["players"]["Ann"])
    ann.get_by_test_id("step-paused").wait_for()
    until(lambda: api(live_server, sid)["now"] > old_deadline + 1, 40)
    data = api(live_server, sid, created["tokens"]["players"]["Ann"])
    assert data["stage"] == "gift" and data["paused"] and not data["episodes"][0]["gift"]
    assert ann.get_by_test_id("se-gift").is_visible()
    shoot(ann, "gift-paused-ann")
    # Resumed, then set to a clock time: tomorrow at 20:00 of the host's clock.
    host.get_by_test_id("step-resume-submit").click()
    host.get_by_test_id("step-pause-submit").wait_for()
    at = (datetime.now() + timedelta(days=1)).replace(hour=20, minute=0, second=0,
                                                      microsecond=0)
    host.get_by_test_id("step-deadline").fill(at.strftime("%Y-%m-%dT%H:%M"))
    host.get_by_test_id("step-deadline-form-submit").click()
    until(lambda: api(live_server, sid)["deadline"] == at.timestamp(), 10)
    cat = new_page(browser, DESK)
    cat.goto(links["players"]["Cat"])
    for page in (ann, cat, host):
        shown = page.get_by_test_id("step-deadline-shown")
        shown.filter(has_text=local_text(page, at.timestamp())).wait_for()
        assert float(shown.get_attribute("data-at") or 0) == at.timestamp()
        assert "h" in page.get_by_test_id("se-step-clock").inner_text()  # hours left
    assert cat.get_by_test_id("se-step").filter(has_text="Waiting for Ann").count() == 1
    shoot(ann, "gift-ann")
    shoot(cat, "gift-cat-waiting")

    # G-13: the host talks with Ann alone; Ann answers; Cat's page has no trace of it.
    host.get_by_test_id("se-private-player").select_option("Ann")
    host.get_by_test_id("se-private-text").fill("Confessional: <b>how</b> do you feel?")
    host.get_by_test_id("se-private-form-submit").click()
    ann.get_by_test_id("se-private-line-0").filter(has_text="<b>how</b>").wait_for()
    ann.get_by_test_id("se-private-text").fill("Cat is lying.")
    ann.get_by_test_id("se-private-form-submit").click()
    host.get_by_test_id("se-private-line-1").filter(has_text="Cat is lying.").wait_for()
    cat.reload()
    drawn(cat)
    assert cat.get_by_test_id("se-private").count() == 0
    assert "Confessional" not in cat.content() and "lying" not in cat.content()
    shoot(host, "private-host")

    # Ann gives the token; the host extends Cat's nomination by ten minutes at once.
    ann.get_by_test_id("se-gift-option-0").check()
    ann.get_by_test_id("se-gift-submit").click()
    ann.get_by_test_id("se-ep1-gift").wait_for()
    host.get_by_test_id("step-extend-submit").wait_for()
    before = api(live_server, sid)
    assert before["stage"] == "nominate"
    host.get_by_test_id("step-extend-minutes").fill("10")
    host.get_by_test_id("step-extend-submit").click()
    until(lambda: api(live_server, sid)["deadline"] >= before["deadline"] + 600, 10)
    extended = api(live_server, sid)["deadline"]
    assert extended == pytest.approx(before["deadline"] + 600, abs=1)
    cat.get_by_test_id("se-nominate").wait_for()
    for page in (ann, cat):
        shown = page.get_by_test_id("step-deadline-shown")
        shown.filter(has_text=local_text(page, extended)).wait_for()
        page.get_by_test_id("se-step-clock").filter(has_text="min").wait_for()
        minutes = int(page.get_by_test_id("se-step-clock").inner_text().split(" min")[0])
        assert 9 <= minutes <= 10
    shoot(cat, "nomination-cat")
    shoot(ann, "nomination-ann-waiting")
    shoot(host, "nomination-host")

    # Issue 26 point 3: Cat lost her link; the host's page gives her a new one, and the old
    # one stops working at once.
    old_link = links["players"]["Cat"]
    host.locator("[data-testid=se-player-links] summary").click()
    row = host.get_by_test_id("se-player-links").locator("li").filter(has_text="Cat")
    row.get_by_role("button", name="New link for Cat").click()
    until(lambda: row.get_by_role("link").get_attribute("href") != old_link, 10)
    fresh = row.get_by_role("link").get_attribute("href")
    assert fresh and fresh != old_link
    cat.goto(old_link)
    cat.get_by_text("this link is not valid").first.wait_for()
    assert cat.get_by_test_id("se-nominate").count() == 0
    cat.goto(fresh)
    cat.get_by_test_id("se-nominate").wait_for()
    post(live_server, sid, "host/end", tok, {"reason": "the test is over"})


def test_every_season_step_drawn_at_both_sizes(browser: Any, live_server: str) -> None:
    """Cast, Main Match, its vote (LO-9, in the match), Death Match, final and the end, each
    on the host's and a player's page at both sizes (the gift and the nomination are in the
    test above)."""
    cast = [{"name": "Ann"}] + [{"name": n, "bot": True} for n in ("Ben", "Cat", "Dan")]
    created = create(live_server, cast, settings=FAST, step_seconds=100000, mm_config={
        "round_seconds": 300, "vote_seconds": 100000, "max_rounds": 1})
    sid, tok = created["id"], created["tokens"]["host"]
    host = new_page(browser, DESK)
    host.goto(created["links"]["host"])
    drawn(host)
    shoot(host, "cast-host")
    ann = new_page(browser, PHONE)
    ann.goto(created["links"]["players"]["Ann"])
    drawn(ann)
    shoot(ann, "cast-ann")
    host.get_by_test_id("se-start-main-submit").click()
    host.get_by_test_id("se-close-vault-submit").wait_for()
    shoot(host, "main-match-host")
    ann.get_by_test_id("se-ep1-mm-yours").wait_for()
    shoot(ann, "main-match-ann")
    # The vote: Ann's seat in the match once its one round ran out (3 s here).
    ann.get_by_test_id("se-ep1-mm-yours").click()
    ann.get_by_test_id("phase-name").filter(has_text="ote").wait_for(timeout=60_000)
    ann.screenshot(path=str(SHOTS / "vote-match-ann-390.png"), full_page=True)
    ann.go_back()
    drawn(ann)
    shoot(ann, "vote-season-ann")
    # The host ends the vote by closing the vault; the host names the EC (SE-6).
    host.get_by_test_id("se-close-vault-submit").click()
    host.get_by_test_id("se-name-ec").wait_for()
    shoot(host, "vote-closed-host")
    host.get_by_test_id("se-ec-name").select_option("Ben")
    host.get_by_test_id("se-ec-reason").fill("fewest keys")
    host.get_by_test_id("se-name-ec-submit").click()
    host.get_by_test_id("se-start-death").wait_for()  # Ben (a bot) nominated at once
    host.get_by_test_id("se-dm-game").select_option("boxes")
    host.get_by_test_id("dm-time-scale").fill("1")
    host.get_by_test_id("se-start-death-submit").click()
    host.get_by_test_id("se-ep1-dm-host").wait_for()
    shoot(host, "death-match-host")
    ann.reload()
    drawn(ann)
    shoot(ann, "death-match-ann")
    seats = api(live_server, sid)["episodes"][0]["death_match"]["seats"]
    post(live_server, sid, "host/record_death", tok, {"loser": seats[1], "reason": "stage"})
    # Episode 2 by hand, down to the final.
    still = [s["name"] for s in api(live_server, sid)["standings"] if s["in"]]
    post(live_server, sid, "host/record_main", tok, {"reason": "played elsewhere", "result": {
        "escaped": still[:1], "trapped": still[1:], "bars": {still[0]: 2},
        "ec": still[1]}})
    until(lambda: api(live_server, sid)["stage"] == "dm_pick", 30)
    data = api(live_server, sid)
    post(live_server, sid, "host/record_death", tok, {
        "loser": data["episodes"][1]["death_match"]["seats"][1]
        if data["episodes"][1].get("death_match") else data["episodes"][1]["dmo"],
        "reason": "stage"})
    until(lambda: api(live_server, sid)["episodes"][-1]["final"], 30)
    host.reload()
    host.get_by_test_id("se-start-death").wait_for()
    shoot(host, "final-host")
    ann.reload()
    drawn(ann)
    shoot(ann, "final-ann")
    final = api(live_server, sid)["episodes"][-1]["players"]
    post(live_server, sid, "host/record_death", tok, {"loser": final[1], "reason": "stage"})
    host.get_by_test_id("se-title").filter(has_text="won the season").wait_for()
    shoot(host, "over-host")


# ---------------------------------------------------------------------- SE-6 endings
def season_pages_answer(server: ServerProcess, links: dict[str, Any]) -> list[dict[str, Any]]:
    """Every season page and API read answers 200; the views of host, Ann and the public."""
    views = []
    for url in (links["host"], links["players"]["Ann"], links["public"]):
        assert server.http.get(url).status_code == 200
        sid, _, token = url.split("/s/", 1)[1].partition("?token=")
        r = server.http.get(f"{server.url}/api/seasons/{sid}",
                            params={"token": token} if token else {})
        assert r.status_code == 200, r.text
        views.append(r.json())
    assert server.http.get(server.url + "/api/seasons").status_code == 200
    return views


def same(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> None:
    for a, b in zip(before, after, strict=True):
        for key in ("stage", "episodes", "ledger", "standings", "version", "problem"):
            assert a[key] == b[key], key


def default_season(page: Any, server: ServerProcess) -> dict[str, Any]:
    """The lobby's season form as it comes (Ann a person, five bots, time scale 1, human
    pace, the default round limit), created."""
    page.goto(server.url + "/")
    page.get_by_test_id("season-create").click()
    page.get_by_test_id("season-created").wait_for()
    host_url = page.get_by_test_id("season-host-link").get_attribute("href")
    ann_url = page.get_by_test_id("season-player-link-0").get_attribute("href")
    sid = host_url.split("/s/", 1)[1].split("?", 1)[0]
    return {"id": sid, "host": host_url, "players": {"Ann": ann_url},
            "public": f"{server.url}/s/{sid}"}


def end_match_from_its_page(host: Any, links: dict[str, Any]) -> None:
    """The host opens the Main Match from the season page and presses "End match"; the
    season page then asks the host for the EC (nobody escaped, nobody voted: SE-6)."""
    host.goto(links["host"])
    host.get_by_test_id("se-ep1-mm-host").click()
    host.get_by_test_id("host-end").click()
    host.get_by_test_id("result").wait_for()
    host.goto(links["host"])
    host.get_by_test_id("se-name-ec").wait_for()
    assert "SE-6" in host.get_by_test_id("se-episode-1").inner_text()
    assert host.get_by_test_id("se-problem").count() == 0


def test_se6_end_match_from_the_default_form_and_sigkills(browser: Any,
                                                           tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'arena.db'}", tmp_path / "server.log").start()
    try:
        host = new_page(browser, DESK)
        ann = new_page(browser, PHONE)
        # 1. End match, then a SIGKILL.
        links = default_season(host, server)
        host.goto(links["host"])
        assert host.get_by_test_id("se-mm-rounds").get_attribute("value") == "20"
        host.get_by_test_id("se-start-main-submit").click()
        host.get_by_test_id("se-ep1-mm-host").wait_for()
        end_match_from_its_page(host, links)
        before = season_pages_answer(server, links)
        assert before[0]["stage"] == "name_ec"
        server.kill()
        server.start()
        after = season_pages_answer(server, links)
        same(before, after)
        for page, url in ((host, links["host"]), (ann, links["players"]["Ann"])):
            page.goto(url)
            page.get_by_test_id("se-waiting").filter(has_text="name the Elimination").wait_for()
            assert_page_ok(page, "after the restart", with_axe=True)
        # 2. A SIGKILL during the Main Match; the host ends it after the restart.
        links = default_season(host, server)
        host.goto(links["host"])
        host.get_by_test_id("se-start-main-submit").click()
        host.get_by_test_id("se-ep1-mm-host").wait_for()
        server.kill()
        server.start()
        assert season_pages_answer(server, links)[0]["stage"] == "mm"
        end_match_from_its_page(host, links)
        before = season_pages_answer(server, links)
        server.kill()
        server.start()
        same(before, season_pages_answer(server, links))
        ann.goto(links["players"]["Ann"])
        ann.get_by_test_id("se-waiting").filter(has_text="name the Elimination").wait_for()
        assert_page_ok(ann, "Ann after the second restart", with_axe=True)
        host.goto(links["host"])
        host.get_by_test_id("se-ec-reason").fill("fewest keys")
        host.get_by_test_id("se-name-ec-submit").click()
        host.get_by_test_id("se-ep1-ec").wait_for()
        assert "Traceback" not in server.log()
    finally:
        server.stop()
