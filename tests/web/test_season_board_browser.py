"""The season's page on the match shell (docs/season-engine.md 3), in Chromium at 390x844 and
1280x800: a whole episode with three people (the host, Ann and Ben; Cat, Dan and Eve are
bots at instant pace) and nothing but the page's own controls for what the page offers.

- The host starts the Main Match from its panel (its links show when the match runs here)
  and records it by hand; the confirmation dialog comes first.
- Ann and Ben vote with the step card's buttons; the card is at the top of their page with
  the step, the deadline and the buttons. The host's open panel, and what it typed in it,
  stay as they were while the votes come in.
- Ann nominates Ben; the host starts the Death Match with the lobby's form; Ann's and Ben's
  pages say their match is on and "Play your seat" leads to it, whose page links back.
  Their seats are handed to bots, the Death Match ends by itself and the season is at
  episode 2, with the elimination in the episode card and the ledger.
- A refusal reads in words with its rule linked; axe finds nothing serious and the pages
  report no Content-Security-Policy violation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arena.core.errors import RuleError
from arena.core.registry import get_game
from server.serverproc import ServerProcess
from web.checks import assert_page_ok

pytestmark = pytest.mark.slow

SHOTS = Path("/work/notes/shots")
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 800}
CAST = [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cat", "bot": True},
        {"name": "Dan", "bot": True}, {"name": "Eve", "bot": True}]
# Init scripts run before the page's own and are not under its policy (as test_csp_browser).
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) => {
  window.cspViolation([e.violatedDirective, e.blockedURI, e.sourceFile + ":" + e.lineNumber].join(" | "));
}, true);
"""


def main_matches_run_here() -> bool:
    """Whether Locked Out! takes the season's vote (SE-6), so a Main Match started from the
    season is made here and has links; until then the season waits for a hand record."""
    try:
        get_game("lockedout").make_config({"vote": "season"})
    except RuleError:
        return False
    return True


class Reader:
    """One person's browser: a page with its dialogs answered yes (and kept) and its policy
    violations and script errors collected."""

    def __init__(self, browser: Any, size: dict[str, int], url: str) -> None:
        self.context = browser.new_context(viewport=size)
        self.problems: list[str] = []
        self.dialogs: list[str] = []
        self.context.expose_function("cspViolation", lambda text: self.problems.append(text))
        self.context.add_init_script(REPORT_VIOLATIONS)
        self.page = self.context.new_page()
        self.page.set_default_timeout(30_000)
        self.page.on("pageerror", lambda exc: self.problems.append(f"page error: {exc}"))
        self.page.on("dialog", self._dialog)
        self.page.goto(url)
        self.page.get_by_test_id("season-standings").wait_for()

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.accept()

    def step(self, words: str) -> None:
        """Wait until the step card names this step."""
        self.page.get_by_test_id("season-step").locator("h2").filter(has_text=words).wait_for()

    def check(self, where: str) -> None:
        assert_page_ok(self.page, where, with_axe=True)
        assert not self.problems, f"{where}: {self.problems}"

    def shoot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"season-{name}.png"), full_page=True)


def open_panel(page: Any, panel: str) -> Any:
    box = page.get_by_test_id(f"season-panel-{panel}")
    if box.get_attribute("open") is None:
        box.locator("summary").first.click()
    page.wait_for_function(
        "id => document.querySelector(`[data-testid=season-panel-${id}]`).open", arg=panel)
    return box


def on_top(page: Any) -> None:
    """The step card is the board's first part and shows without scrolling."""
    page.evaluate("() => window.scrollTo(0, 0)")
    card = page.get_by_test_id("season-step").bounding_box()
    standings = page.get_by_test_id("season-standings").bounding_box()
    height = page.viewport_size["height"]
    assert card["y"] < standings["y"] and card["y"] + 60 < height, (card, height)


@pytest.mark.parametrize("size", [PHONE, DESK], ids=["390", "1280"])
def test_a_whole_episode_on_the_season_page(browser: Any, live_process: ServerProcess,
                                            size: dict[str, int]) -> None:
    base, http = live_process.url, live_process.http
    created = http.post(base + "/api/seasons", json={
        "cast": CAST, "seed": 11, "settings": {"time_scale": 0.01, "bot_pace": "instant"},
        "step_seconds": 360000, "mm_config": {"round_seconds": 360000, "vote_seconds": 360000}})
    assert created.status_code == 201, created.text
    links = created.json()["links"]
    sid = created.json()["id"]
    width = size["width"]
    host = Reader(browser, size, links["host"])
    ann = Reader(browser, size, links["players"]["Ann"])
    ben = Reader(browser, size, links["players"]["Ben"])
    try:
        # Episode 1 waits for the host; Ann reads what it waits for.
        ann.page.get_by_test_id("season-waiting").filter(has_text="The host starts episode 1").wait_for()
        # G-13 in a season: Ann writes to the host first, in a channel only the two read.
        for reader in (ann, host):  # folded on a phone
            summary = reader.page.get_by_test_id("chat-panel").locator("summary")
            if reader.page.get_by_test_id("chat-panel").get_attribute("open") is None:
                summary.click()
        ann.page.get_by_test_id("chat-open-host").click()
        ann.page.locator("[data-testid=chat-tab-host-private-0][aria-selected=true]").wait_for()
        ann.page.get_by_test_id("chat-input").fill("may I swap my seat tonight?")
        ann.page.get_by_test_id("chat-send").click()
        host.page.get_by_test_id("chat-tab-host-private-0").click()
        host.page.get_by_test_id("chat-message").filter(has_text="swap my seat").wait_for()
        assert ben.page.get_by_test_id("chat-tab-host-private-0").count() == 0
        assert host.page.get_by_test_id("host-end").count() == 0  # the season ends from its panel
        open_panel(host.page, "start-main")
        host.page.get_by_test_id("season-start-main").click()
        host.step("Episode 1 · Main Match in play")
        ann.step("Main Match in play")
        if main_matches_run_here():
            host.page.get_by_test_id("season-host-link").wait_for()
            assert host.page.get_by_test_id("season-watch-link").count() == 1
            ann.page.get_by_test_id("season-play-link").wait_for()
            on_top(ann.page)

        # Refusals in words, their rule linked: the page's own (no reason written) and the
        # server's (Ann has no Token of Life to spend). Then the hand record, confirmed first.
        adjust = open_panel(host.page, "adjust")
        host.page.get_by_test_id("season-adjust").click()
        error = host.page.get_by_test_id("season-adjust-error")
        error.filter(has_text="Write the reason").locator("a[href='/rulings#SE-5']").wait_for()
        adjust.get_by_test_id("season-adj-reason").fill("spent on a clue")
        host.page.get_by_test_id("season-adjust").click()
        error.filter(has_text="Ann has 0, so cannot lose 1").locator("a[href='/rulings#SE-5']").wait_for()
        record = open_panel(host.page, "record-main")
        for i, bars in ((2, 4), (4, 2)):  # Cat and Eve escaped; Ann, Ben and Dan are trapped
            record.get_by_test_id(f"season-rm-escaped-{i}").check()
            record.get_by_test_id(f"season-rm-bars-{i}").fill(str(bars))
        record.get_by_test_id("season-rm-reason").fill("played on the stage")
        record.get_by_test_id("season-record-main").click()
        host.step("Elimination vote")
        assert any("cannot be undone" in d for d in host.dialogs), host.dialogs

        # The vote: Ann's call to act is at the top, with the deadline and the buttons.
        ann.step("Elimination vote")
        assert "yours" in (ann.page.get_by_test_id("season-step").get_attribute("class") or "")
        ann.page.get_by_test_id("season-deadline").filter(has_text="left").wait_for()
        for name in ("Ann", "Ben", "Dan"):
            ann.page.get_by_test_id(f"season-choice-{name}").wait_for()
        on_top(ann.page)
        assert ann.page.get_by_test_id("season-host").count() == 0
        ann.check(f"Ann's vote at {width}")
        ann.shoot(f"player-vote-{width}")
        # The host's adjust panel is open with a half-typed reason; votes come in meanwhile.
        adjust.get_by_test_id("season-adj-reason").fill("half typed")
        host.check(f"the host during the vote at {width}")
        host.shoot(f"host-vote-{width}")
        ann.page.get_by_test_id("season-choice-Ann").click()
        ann.page.get_by_test_id("season-waiting").filter(has_text="Your vote is in").wait_for()
        host.page.get_by_test_id("season-progress").filter(has_text="Ann").wait_for()
        ben.page.get_by_test_id("season-choice-Ann").click()

        # Ann is the Elimination Candidate (three votes of three) and nominates Ben.
        ann.step("Nomination")
        assert host.page.get_by_test_id("season-panel-adjust").get_attribute("open") is not None
        assert adjust.get_by_test_id("season-adj-reason").input_value() == "half typed"
        ann.page.get_by_test_id("season-choice-Ben").click()

        # The host starts the Death Match with the lobby's form, the seats fixed.
        host.step("Death Match next")
        start = open_panel(host.page, "start-death")
        assert start.get_by_test_id("dm-seat-name-0").inner_text().startswith("Ann")
        assert start.get_by_test_id("dm-seat-name-1").inner_text().startswith("Ben")
        assert start.get_by_test_id("dm-new-time-scale").input_value() == "0.01"
        host.check(f"the host before the Death Match at {width}")
        host.shoot(f"host-death-{width}")
        start.get_by_test_id("dm-new-game").select_option("boxes")
        start.get_by_test_id("dm-create").click()
        host.step("Death Match in play")
        child_host = host.page.get_by_test_id("season-host-link")
        child_host.wait_for()

        # Ann's and Ben's matches are on: the call to act at the top leads to their seats.
        for reader in (ann, ben):
            reader.page.get_by_test_id("season-play-link").wait_for()
            reader.page.get_by_test_id("own-status").filter(has_text="Your Death Match is on").wait_for()
            on_top(reader.page)
        ann.check(f"Ann's Death Match on at {width}")
        ann.shoot(f"player-death-{width}")
        ann.page.get_by_test_id("season-play-link").click()
        back = ann.page.get_by_test_id("back-to-season")
        back.wait_for()
        assert back.get_attribute("href") == f"/s/{sid}"
        assert ann.page.get_by_test_id("game-title").inner_text().lower().startswith("box")
        ann.page.go_back()
        ann.page.get_by_test_id("season-standings").wait_for()

        # Both seats go to bots; the Death Match ends by itself (or the host decides a
        # double loss) and the season goes on to episode 2.
        url = child_host.get_attribute("href") or ""
        child, token = url.split("/m/", 1)[1].split("?token=")
        for seat in (0, 1):
            r = http.post(f"{base}/api/matches/{child}/host/seat", params={"token": token},
                          json={"seat": seat, "bot": True})
            assert r.status_code == 200, r.text
        # How long the bots take depends on the machine's load, not on the page: no limit
        # here but the suite's own timeout, which turns a hang into a failure.
        host.page.wait_for_function(
            "() => /Episode 2|decides/.test(document.querySelector('[data-testid=season-step] h2').textContent)",
            timeout=0)
        # ("Episode 1 · The host decides the Death Match": bots short of time under load may
        # both run out of reserve at once, a double loss the host decides, SE-4)
        if "decides" in host.page.get_by_test_id("season-step").locator("h2").inner_text():
            decide = open_panel(host.page, "decide")
            decide.get_by_test_id("season-decide-loser").select_option("Ben")
            decide.get_by_test_id("season-decide-reason").fill("both ran out of time")
            decide.get_by_test_id("season-decide").click()
        host.step("Episode 2 · Main Match next")
        out = host.page.get_by_test_id("season-ep1-out")
        out.wait_for(state="attached")  # in episode 1's card, folded now that episode 2 began
        loser = (out.text_content() or "").split(" was eliminated")[0]
        assert loser in ("Ann", "Ben")
        row = ["Ann", "Ben"].index(loser)
        assert host.page.get_by_test_id(f"season-status-{row}").inner_text() == "Eliminated in episode 1"
        assert "eliminated" in host.page.get_by_test_id("season-ledger").inner_text()
        # The newest episode is open, the one before folded; the log says it in words.
        assert host.page.get_by_test_id("season-episode-2").get_attribute("open") is not None
        assert host.page.get_by_test_id("season-episode-1").get_attribute("open") is None
        log = host.page.get_by_test_id("log").text_content() or ""  # folded on a phone
        assert f"{loser} is eliminated" in log and "Elimination Candidate" in log
        ann.step("Episode 2 · Main Match next")
        host.check(f"the host in episode 2 at {width}")
        ann.check(f"Ann in episode 2 at {width}")
        assert not ben.problems, ben.problems
    finally:
        for reader in (host, ann, ben):
            reader.context.close()


def test_the_hosts_other_panels_and_a_spectator(browser: Any, live_process: ServerProcess
                                                 ) -> None:
    """Seven players, all bots but Ann, at phone size: the host picks three for the Main Match
    (SE-1), sets the round limit, declines closing the vault (nothing is sent), records a
    Main Match nobody was trapped in, names the EC, records the Death Match by hand and ends
    the season; a spectator's page has no control and passes the same checks."""
    base, http = live_process.url, live_process.http
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
    created = http.post(base + "/api/seasons", json={
        # Ann is a person, so the Main Match she plays waits for her (its bots would
        # otherwise finish it before the host's panels are tried).
        "cast": [{"name": n, "bot": n != "Ann"} for n in names], "seed": 5,
        "settings": {"time_scale": 0.01, "bot_pace": "instant"}, "step_seconds": 360000,
        "mm_config": {"round_seconds": 360000, "vote_seconds": 360000}})
    assert created.status_code == 201, created.text
    links = created.json()["links"]
    host = Reader(browser, PHONE, links["host"])
    public = Reader(browser, DESK, links["public"])
    try:
        # SE-1: more than six still in, so the host picks who plays.
        start = open_panel(host.page, "start-main")
        for i in (0, 1, 2):
            start.get_by_test_id(f"season-sm-player-{i}").check()
        start.get_by_test_id("season-start-main").click()
        host.step("Main Match in play")
        rounds = open_panel(host.page, "mm-rounds")
        rounds.get_by_test_id("season-mm-rounds-input").fill("5")
        rounds.get_by_test_id("season-mm-rounds").click()
        rounds.locator("summary").filter(has_text="round limit: 5").wait_for()
        # Declined, closing the vault sends nothing: the step stays.
        host.page.remove_listener("dialog", host._dialog)
        asked: list[str] = []
        host.page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
        host.page.get_by_test_id("season-close-vault").click()
        assert asked and "Close the vault" in asked[0]
        host.page.on("dialog", host._dialog)
        assert host.page.get_by_test_id("season-close-vault-ok").inner_text() == ""
        host.step("Main Match in play")

        # Everyone escaped: nobody was trapped, so the host names the EC (SE-6).
        record = open_panel(host.page, "record-main")
        for i in (0, 1, 2):
            record.get_by_test_id(f"season-rm-escaped-{i}").check()
            record.get_by_test_id(f"season-rm-bars-{i}").fill("2")
        record.get_by_test_id("season-rm-reason").fill("played on the stage")
        record.get_by_test_id("season-record-main").click()
        host.step("names the Elimination Candidate")
        # The shell's clock controls take the season's route (SE-7): pause, then resume.
        host.page.get_by_test_id("host-pause").click()
        host.page.locator("[data-testid=countdown][data-state=paused]").wait_for()
        host.page.get_by_test_id("season-deadline").filter(has_text="paused").wait_for()
        host.page.get_by_test_id("host-resume").click()
        host.page.locator("[data-testid=countdown][data-state=running]").wait_for()
        name_ec = host.page.get_by_test_id("season-panel-name-ec")
        name_ec.get_by_test_id("season-ec-name").select_option("Ben")
        name_ec.get_by_test_id("season-ec-reason").fill("last out of the vault")
        name_ec.get_by_test_id("season-name-ec").click()
        host.step("Death Match next")  # Ben, a bot, nominated at once
        assert host.page.get_by_test_id("season-ep1-ec").inner_text().startswith(
            "Elimination Candidate: Ben")
        public.step("Death Match next")
        assert public.page.get_by_test_id("season-host").count() == 0
        assert public.page.locator("[data-testid^=season-choice-]").count() == 0
        public.check("a spectator at 1280")
        public.shoot("spectator-1280")

        # The Death Match played elsewhere, recorded by hand; its loser leaves.
        death = open_panel(host.page, "record-death")
        dmo = host.page.get_by_test_id("season-ep1-dmo").inner_text().split(": ")[1].split(" — ")[0]
        death.get_by_test_id("season-rd-winner").select_option("Ben")
        death.get_by_test_id("season-rd-game").select_option("paint")
        death.get_by_test_id("season-rd-reason").fill("played on the stage")
        death.get_by_test_id("season-record-death").click()
        host.step("Episode 2 · Main Match next")
        out = host.page.get_by_test_id("season-ep1-out")
        out.wait_for(state="attached")
        assert (out.text_content() or "").startswith(f"{dmo} was eliminated")
        host.check("the host in episode 2 at 390")

        # The host ends the season, confirmed first: the result, and no panel left.
        end = open_panel(host.page, "end")
        end.get_by_test_id("season-end-reason").fill("the venue closed")
        end.get_by_test_id("season-end").click()
        host.page.get_by_test_id("result").wait_for()
        assert any("End the season" in d for d in host.dialogs), host.dialogs
        assert host.page.get_by_test_id("season-host").count() == 0
        public.page.get_by_test_id("result").wait_for()
        host.check("the host after the end at 390")
        host.shoot("host-over-390")
        assert not public.problems, public.problems
    finally:
        host.context.close()
        public.context.close()
