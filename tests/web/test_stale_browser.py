"""A plan made offline across a Locked Out! deadline (G-2), in a real browser.

The audit's case: the page went offline in round 1, the round's deadline passed, the player
pressed Submit and came back online; the round-1 plan was lost and "pass" was recorded in round
2 with "Submitted" shown. Now the send names its round: the server refuses it as late and applies
nothing, the page says the round closed before the plan was sent, and the plan stays in the form
for round 2.

The timing comes from the host's own tools, not from sleeps: the match is paused while the page
loads and the plan is made, resumed so round 1's deadline passes while the page is offline (the
test awaits round 2 on a socket of its own), and round 2 is extended so it stays open.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from arena.server import viewdiff
from web.checks import assert_page_ok

pytestmark = pytest.mark.slow

SEATS = [{"name": "Ann", "bot": False}, {"name": "Bob", "bot": True},
         {"name": "Cleo", "bot": True}]


def host(base: str, m: dict[str, Any], action: str, **body: Any) -> None:
    r = httpx.post(f"{base}/api/matches/{m['id']}/host/{action}",
                   params={"token": m["tokens"]["host"]}, json=body, timeout=10)
    assert r.status_code == 200, r.text


def api_get(base: str, m: dict[str, Any], what: str, token: str) -> dict[str, Any]:
    r = httpx.get(f"{base}/api/matches/{m['id']}/{what}", params={"token": token}, timeout=10)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def await_phase(ws: Any, no: int) -> None:
    """Read the host's socket until phase ``no`` has started (an event, not a sleep). The
    socket sends its view whole once and then differences: the view is rebuilt."""
    view: dict[str, Any] = {}
    while True:
        data = json.loads(ws.recv(timeout=60))
        if data.get("type") != "update":
            continue
        view = data["view"] if "view" in data else viewdiff.apply(view, data["patch"])
        if (view.get("phase") or {}).get("no") == no:
            return


def test_a_plan_sent_offline_across_the_deadline_is_refused_kept_and_never_recorded(
        page: Any, live_server: str, new_match: Any) -> None:
    m = new_match("lockedout", seats=SEATS, settings={"time_scale": 1.0},
                  config={"round_seconds": 6, "vote_seconds": 600}, seed=3)
    host(live_server, m, "pause")  # round 1 waits while the page loads and the plan is made
    ann = m["tokens"]["seats"][0]
    view = api_get(live_server, m, "view", ann)
    hand = view["state"]["you"]["hand"]
    left, right = sorted(int(v) for v, n in hand.items() for _ in range(n))[:2]
    safe = next(s["safe"] for s in view["state"]["safes"] if s["status"] == "closed")

    ws_url = live_server.replace("http", "ws", 1) + f"/ws/{m['id']}?token={m['tokens']['host']}"
    with connect(ws_url) as ws:
        page.goto(m["links"]["seats"][0])
        page.get_by_test_id("phase-name").filter(has_text="Round 1").wait_for()
        page.locator("[data-testid=conn][data-state=live]").wait_for()
        page.context.set_offline(True)

        # The plan, made offline (the form needs no server).
        page.get_by_test_id("lo-solo-on").check()
        page.get_by_test_id("lo-solo-safe").select_option(safe)
        page.get_by_test_id(f"lo-solo-left-{left}").click()
        page.get_by_test_id(f"lo-solo-right-{right}").click()
        plan = f"Solo, Safe {safe}, Left {left} Right {right}"
        assert plan in page.get_by_test_id("lo-preview").inner_text()

        # Round 1's deadline passes while the page is offline; round 2 is kept open.
        host(live_server, m, "resume")
        await_phase(ws, 2)
        host(live_server, m, "extend", seconds=600)
        assert "Round 1" in page.get_by_test_id("phase-name").inner_text()  # the page lags

        page.get_by_test_id("lo-submit").click()
        page.get_by_test_id("lo-msg").filter(has_text="could not be reached").wait_for()
        assert "Submitted" not in page.get_by_test_id("lo-submitted").inner_text()

        page.context.set_offline(False)  # the held plan goes, for round 1, and is refused
        page.get_by_test_id("lo-msg").filter(
            has_text="Round 1 closed before your plan was sent; nothing was sent").wait_for()
        page.get_by_test_id("phase-name").filter(has_text="Round 2").wait_for()
        page.get_by_test_id("own-status").filter(has_text="Round 1 closed").wait_for()

    # The plan is still in the form, for round 2; nothing says it was submitted.
    assert page.get_by_test_id("lo-solo-on").is_checked()
    assert plan in page.get_by_test_id("lo-preview").inner_text()
    assert "Submitted" not in page.get_by_test_id("lo-submitted").inner_text()
    assert "Round 1 closed" in page.get_by_test_id("lo-msg").inner_text()
    # Nothing was recorded for Ann, neither in the closed round nor in round 2 (G-2).
    events = api_get(live_server, m, "events", m["tokens"]["host"])["events"]
    assert not [e for e in events if e["kind"] in ("submit", "confirm")
                and e["data"].get("seat") == 0]
    hv = api_get(live_server, m, "view", m["tokens"]["host"])
    assert hv["phase"]["no"] == 2 and hv["seats"][0]["acted"] is False
    assert_page_ok(page, "Locked Out!, a plan refused as late", with_axe=True)

    # The kept plan goes to round 2 with one press.
    page.get_by_test_id("lo-submit").click()
    page.get_by_test_id("lo-submitted").filter(has_text="Submitted").wait_for()
    hv = api_get(live_server, m, "view", m["tokens"]["host"])
    assert hv["seats"][0]["submissions"][-1]["text"] == plan


def test_a_double_clicked_final_send_goes_once(page: Any, live_server: str,
                                              new_match: Any) -> None:
    """The first "Submit as final" closes the phase (the other seat was final already). The
    second click of the double click used to send again and be refused as late (G-2, G-4);
    now the same send made while the first is on its way is that send, so
    the page moves on with nothing refused. The notation drawer is the shared send path of
    every game."""
    m = new_match("toy", seats=[{"name": "Ada", "bot": False}, {"name": "Bo", "bot": False}],
                  config={"rounds": 1, "study": 600, "pick": 600})
    r = httpx.post(f"{live_server}/api/matches/{m['id']}/submit",
                   params={"token": m["tokens"]["seats"][1]},
                   json={"text": "ready", "final": True, "phase": 1}, timeout=10)
    assert r.status_code == 200, r.text
    page.goto(m["links"]["seats"][0])
    page.get_by_test_id("phase-name").filter(has_text="Study").wait_for()
    page.get_by_test_id("notation-input").fill("ready")
    page.get_by_test_id("submit-final").dblclick()
    page.get_by_test_id("phase-name").filter(has_text="Pick").wait_for()
    page.get_by_test_id("own-status").filter(has_text="Your move").wait_for()
    assert "closed before" not in page.get_by_test_id("own-status").inner_text()
    events = api_get(live_server, m, "events", m["tokens"]["host"])["events"]
    assert [e["data"]["text"] for e in events
            if e["kind"] == "submit" and e["data"]["seat"] == 0] == ["ready"]
    assert_page_ok(page, "a double-clicked send", with_axe=True)
