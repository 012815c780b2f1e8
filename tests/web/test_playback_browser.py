"""Playback in the browser: a finished match is watched as it unfolded, on a phone and on a
wide screen. Nothing plays on load; Play, the speed, the phase jump and the elapsed time are
controls a keyboard reaches; entries, log lines and chat lines appear in the order of their
match time, never before it; the board and the view are asked for one request at a time; the
end stops on the last entry with the result; axe finds nothing serious.

Order, never speed, is what is checked: a recorder in the page notes after every redraw what
the log and chat show and the elapsed time the controls say, and every note must agree."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from server.serverproc import ServerProcess
from web.checks import assert_page_ok

pytestmark = pytest.mark.slow

SHOTS = Path("/work/notes/shots/playback")
CHAT = "good luck, Robo"
SIZES = [(390, 844), (1280, 800)]


def _token(link: str) -> str:
    return parse_qs(urlparse(link).query)["token"][0]


def _await_view(server: ServerProcess, match_id: str, token: str, test: Any
                ) -> dict[str, Any]:
    """The view once ``test(view)`` holds: the match moves on by its own deadlines (the
    suite's timeout guards a hang, never the wall clock)."""
    while True:
        view: dict[str, Any] = server.http.get(
            f"{server.url}/api/matches/{match_id}/view", params={"token": token}).json()
        if test(view):
            return view
        time.sleep(0.05)  # polling the server for a condition, not a wait of fixed length


@pytest.fixture(scope="module")
def finished(live_process: ServerProcess) -> dict[str, Any]:
    """A toy match of a study and three rounds against an instant bot, played through the API:
    Ada lets the study run out (the clock's gap), says a line in round 1, then picks."""
    server = live_process
    m = server.create("toy", seats=[{"name": "Ada", "bot": False}, {"name": "Robo", "bot": True}],
                      settings={"time_scale": 0.1}, config={"rounds": 3}, seed=11)
    mid, token = m["id"], _token(m["links"]["seats"][0])
    base = f"{server.url}/api/matches/{mid}"
    view = _await_view(server, mid, token, lambda v: v["phase"] and v["phase"]["name"] == "pick")
    r = server.http.post(f"{base}/chat", params={"token": token},
                         json={"channel": "table", "text": CHAT})
    assert r.status_code == 200, r.text
    for pick in ("2", "3", "1"):
        no = view["phase"]["no"]
        r = server.http.post(f"{base}/submit", params={"token": token},
                             json={"text": pick, "final": True, "phase": no})
        assert r.status_code == 200, r.text
        view = _await_view(server, mid, token,
                           lambda v, no=no: v["result"] or v["phase"]["no"] > no)
    assert view["result"], view
    return {"id": mid, "link": m["links"]["seats"][0]}


def _open(page: Any, testid: str) -> None:
    panel = page.get_by_test_id(testid)
    if not panel.evaluate("d => d.open"):
        panel.locator("summary").click()


# After every redraw: the elapsed time the controls say, the entry shown, the log's entries and
# the chat's lines, with the match time of each.
RECORDER = """() => {
  window.__notes = [];
  const note = () => {
    const s = window.Arena.state;
    const time = document.querySelector('[data-testid=playback-time]');
    if (!time || !s.events.length) return;
    const t0 = s.events[0].t;
    const byVersion = new Map(s.events.map((e) => [e.version, e]));
    const shown = s.replayIndex == null ? null : s.events[s.replayIndex];
    const log = [...document.querySelectorAll('[data-testid=log] li')].map((li) => Number(li.dataset.version));
    const chat = s.events.filter((e) => e.kind === 'chat');
    const button = document.querySelector('[data-testid=playback-play]');
    window.__notes.push({
      label: button.textContent.trim(),
      pressed: button.getAttribute('aria-pressed'),
      elapsed: Number(time.dataset.elapsed),
      playing: time.dataset.playing === 'true',
      shown: shown ? { version: shown.version, at: shown.t - t0 } : null,
      log: log.map((v) => ({ version: v, at: byVersion.get(v).t - t0 })),
      chat: document.querySelectorAll('[data-testid=chat-message]').length,
      chatAt: chat.map((e) => e.t - t0),
    });
  };
  new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
}"""


def _check_notes(notes: list[dict[str, Any]]) -> None:
    """Every note agrees with the order of match time; the shown entry never goes back while
    playing."""
    assert notes, "the recorder saw no redraw"
    # Playing began before the line's time and the line came later: the order was seen.
    first = next(i for i, n in enumerate(notes) if n["playing"] and n["chat"] == 0)
    assert any(n["chat"] for n in notes[first:]), "the chat line never came while playing"
    eps = 1e-3
    last_version = 0
    for n in notes:
        for entry in n["log"]:
            assert entry["at"] <= n["elapsed"] + eps, f"a log line before its time: {n}"
            if n["shown"]:
                assert entry["version"] <= n["shown"]["version"], f"a log line after the shown entry: {n}"
        if n["shown"]:
            assert n["shown"]["at"] <= n["elapsed"] + eps, f"an entry shown before its time: {n}"
            if n["playing"]:  # a jump (paused) may go back; playing never does
                assert n["shown"]["version"] >= last_version, f"playback stepped back: {n}"
            last_version = n["shown"]["version"]
        due = sum(1 for at in n["chatAt"] if at <= n["elapsed"] + eps)
        assert n["chat"] <= due, f"a chat line before its time: {n}"
        # The button says what it does and its state: Pause while playing, Play while not.
        assert (n["label"], n["pressed"]) == (("Pause", "true") if n["playing"] else ("Play", "false")), n
        log = [e["version"] for e in n["log"]]
        assert log == sorted(log, reverse=True), f"the log is out of order: {n}"


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_finished_match_plays_back_in_order(browser: Any, finished: dict[str, Any],
                                              size: tuple[int, int]) -> None:
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(20_000)
    # One replay request at a time: counted as the browser sends and finishes them.
    flight = {"now": 0, "most": 0, "all": 0}

    def sent(req: Any) -> None:
        if "/replay?" in req.url:
            flight["now"] += 1
            flight["all"] += 1
            flight["most"] = max(flight["most"], flight["now"])

    def done(req: Any) -> None:
        if "/replay?" in req.url:
            flight["now"] -= 1

    SHOTS.mkdir(parents=True, exist_ok=True)
    page.on("request", sent)
    page.on("requestfinished", done)
    page.on("requestfailed", done)
    try:
        page.goto(finished["link"])
        page.get_by_test_id("result").wait_for()
        for panel in ("replay-panel", "log-panel", "chat-panel"):
            _open(page, panel)
        play = page.get_by_test_id("playback-play")
        play.wait_for()
        # No autoplay: nothing moves until the reader presses Play.
        assert play.inner_text() == "Play" and play.get_attribute("aria-pressed") == "false"
        assert page.evaluate("() => window.Arena.state.replayIndex") is None
        page.get_by_test_id("chat-message").filter(has_text=CHAT).wait_for()  # the live chat

        # The phases by their names, each with its moment.
        phase = page.get_by_test_id("playback-phase")
        labels = phase.locator("option").all_inner_texts()
        names = [t for t in labels if t != "Choose a phase"]
        assert [t.split(" · ")[0] for t in names] == ["Study", "Pick", "Pick", "Pick"], labels
        page.evaluate(RECORDER)

        # Jump to the study: its name is said, the chat line (said in round 1) is not shown.
        phase.select_option(label=names[0])
        page.get_by_test_id("playback-now").filter(has_text="Study").wait_for()
        page.get_by_test_id("replay-banner").wait_for()
        assert page.get_by_test_id("chat-message").count() == 0
        assert page.get_by_test_id("playback-time").inner_text().startswith("00:00 of ")
        # Jump to round 1 (the second phase): still before the line.
        phase.select_option(label=names[1])
        page.get_by_test_id("playback-now").filter(has_text="Pick").wait_for()
        assert page.get_by_test_id("chat-message").count() == 0
        assert page.get_by_test_id("playback-time").get_attribute("data-playing") == "false"
        page.screenshot(path=str(SHOTS / f"playback-phase-{width}x{height}.png"), full_page=False)

        # Play at 1x from round 1 by the keyboard (Space on the button): the line comes at its
        # time, after the entries before it, and the end stops on the last entry.
        total = page.evaluate("() => window.Arena.state.events.length")
        before = page.evaluate("() => window.Arena.playback.status().elapsed")
        play.focus()
        page.keyboard.press("Space")
        page.wait_for_function("e => window.Arena.playback.status().elapsed > e", arg=before)
        page.get_by_test_id("chat-message").filter(has_text=CHAT).wait_for()
        page.get_by_test_id("replay-caption").filter(has_text=f"Entry {total} of {total}").wait_for()
        page.wait_for_function("() => !window.Arena.playback.status().playing")

        # Space again pauses: from the study (six seconds of match time at 1x), played and
        # paused at once, playback stops short of the end.
        phase.select_option(label=names[0])
        page.get_by_test_id("playback-now").filter(has_text="Study").wait_for()
        play.focus()
        page.keyboard.press("Space")
        page.keyboard.press("Space")
        page.wait_for_function("() => !window.Arena.playback.status().playing")
        st = page.evaluate("() => window.Arena.playback.status()")
        assert st["elapsed"] < st["total"], st
        assert play.inner_text() == "Play" and play.get_attribute("aria-pressed") == "false"
        assert page.get_by_test_id("chat-message").count() == 0

        # From the start at 60x, by a click: to the end, where the result shows.
        page.get_by_test_id("playback-speed").select_option("60")
        phase.select_option(label=names[0])
        play.click()
        page.get_by_test_id("replay-caption").filter(has_text=f"Entry {total} of {total}").wait_for()
        page.wait_for_function("() => !window.Arena.playback.status().playing"
                               " && window.Arena.state.replay && !!window.Arena.state.replay.result")
        page.get_by_test_id("result").wait_for()
        page.get_by_test_id("playback-now").filter(has_text="The match is over").wait_for()
        assert play.inner_text() == "Play" and play.get_attribute("aria-pressed") == "false"
        time_text = page.get_by_test_id("playback-time").inner_text()
        elapsed, _, whole = time_text.partition(" of ")
        assert elapsed == whole, time_text
        page.get_by_test_id("chat-message").filter(has_text=CHAT).wait_for()

        _check_notes(page.evaluate("() => window.__notes"))
        assert flight["most"] == 1 and flight["all"] >= 1, flight

        page.get_by_test_id("playback").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"playback-end-{width}x{height}.png"), full_page=False)
        page.screenshot(path=str(SHOTS / f"playback-full-{width}x{height}.png"), full_page=True)
        assert_page_ok(page, f"playback at {width}x{height}", with_axe=True)

        # Back to live: playback forgets its place, the whole log is back.
        page.get_by_test_id("replay-exit").click()
        page.get_by_test_id("replay-banner").wait_for(state="hidden")
        assert page.evaluate("() => window.Arena.playback.upTo()") is None
    finally:
        context.close()


PURE = """async () => {
  const pb = await import("/static/playback.js");
  const ev = (version, t, kind, name) => ({ version, t, kind: kind || "note", data: name ? { name } : {} });
  // Entries at 0, 1, 1, 100 (a quiet stretch of 99 s), 101.
  const log = [ev(1, 0, "phase_started", "study"), ev(2, 1), ev(3, 1), ev(4, 100, "phase_started", "pick"), ev(5, 101)];
  const ticks = [];
  for (let i = 0; i < 500; i++) ticks.push(ev(i + 1, i, "phase_started", "tick"));
  return {
    reached: [pb.reached(log, 0, 0.5), pb.reached(log, 0, 1), pb.reached(log, 3, 1), pb.reached(log, 0, 1e9)],
    quiet: [pb.skipQuiet(log, 2, 3), pb.skipQuiet(log, 2, 7), pb.skipQuiet(log, 2, 96), pb.skipQuiet(log, 0, 0.7)],
    elapsed: [pb.fmtElapsed(0), pb.fmtElapsed(187.9), pb.fmtElapsed(3723), pb.fmtElapsed(-4)],
    starts: pb.phaseStarts(log, null, null).map((s) => [s.index, s.label]),
    ticks: pb.phaseStarts(ticks, null, null).length,
    speeds: pb.SPEEDS,
    available: [pb.playbackAvailable({ result: { winner: 0 } }), pb.playbackAvailable({ role: "broadcast", result: null }),
                pb.playbackAvailable({ role: "seat", result: null }), pb.playbackAvailable(null)],
  };
}"""


def test_the_playback_clock_steps_forward_only(page: Any, live_server: str) -> None:
    """The clock's arithmetic, run in the page's own module: entries logged at one instant are
    reached together and never passed back; a quiet stretch (with the box ticked) keeps five
    seconds after an entry and five before the next; a run of 500 ticks lists a dozen."""
    page.goto(live_server + "/")
    got = page.evaluate(PURE)
    assert got["reached"] == [0, 2, 3, 4]
    assert got["quiet"] == [3, 95, 96, 0.7]
    assert got["elapsed"] == ["00:00", "03:07", "1:02:03", "00:00"]
    assert got["starts"] == [[0, "Study · 00:00"], [3, "Pick · 01:40"]]
    assert got["ticks"] <= 13
    assert got["speeds"] == [1, 2, 5, 10, 30, 60]
    assert got["available"] == [True, True, False, False]
