"""A socket gets its view whole once and then only differences: the
differences must rebuild every view exactly, for any JSON and along every game's playouts,
and the server must send them, not the whole view, once a socket has a base."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.clock import ManualClock
from arena.core.match import HOST, SPECTATOR, Match, MatchSettings
from arena.core.registry import all_games
from arena.server import viewdiff

SCALARS = st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-2, 2, allow_nan=False) \
    | st.text(max_size=3)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=2), inner,
                                                                 max_size=4),
    max_leaves=20,
)


def exact(value: Any) -> str:
    """JSON text keeps ``True`` and ``1`` apart, as the page does."""
    return json.dumps(value, sort_keys=True)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=2), JSON, max_size=5),
       st.dictionaries(st.text(max_size=2), JSON, max_size=5))
def test_any_difference_rebuilds_the_new_value_and_leaves_the_old(old: dict[str, Any],
                                                                  new: dict[str, Any]) -> None:
    before = copy.deepcopy(old)
    ops = viewdiff.diff(old, new)
    assert exact(viewdiff.apply(old, ops)) == exact(new)
    assert exact(old) == exact(before), "the base a page still holds must not change"
    assert json.loads(json.dumps(ops)) == ops, "operations are plain JSON"
    if exact(old) == exact(new):
        assert ops == []


SMALLER: dict[str, dict[str, Any]] = {"boxes": {"cards_per_bout": 4}}
"""A legal config where the default one costs CPU that says nothing about differences: the
host's view carries Boxes' odds helper (BX-6, LO-12), an exact search over every order of the
bout's cards (20 s of CPU along the default deck's playout, 1 s with four cards a bout). The
playout still has every phase and every viewer gets every kind of operation."""


@pytest.mark.parametrize("name", sorted(all_games()))
def test_differences_along_a_playout_rebuild_every_view(name: str) -> None:
    game = all_games()[name]
    clock = ManualClock(0.0)
    match = Match(game, game.make_config(SMALLER.get(name, {})), 7, clock, MatchSettings())
    viewers: list[Any] = [SPECTATOR, HOST, *range(game.seats)]
    sent = {v: match.view(v) for v in viewers}
    rng = random.Random(7)
    whole = patched = steps = 0
    while not match.finished and steps < 400:
        steps += 1
        for seat in sorted(match.waiting_for()):
            text = game.random_submission(match.state, seat, rng)
            if text is not None and not match.finished and seat in match.waiting_for():
                match.submit(seat, text)
        when = match.next_deadline()
        if when is not None and (not match.waiting_for() or rng.random() < 0.5):
            clock.set(when)
            match.advance()
        for v in viewers:
            view = match.view(v)
            ops = viewdiff.diff(sent[v], view)
            assert exact(viewdiff.apply(sent[v], ops)) == exact(view), (name, v, steps)
            whole += len(json.dumps(view))
            patched += len(json.dumps(ops))
            sent[v] = view
    assert patched < whole, f"{name}: differences cost {patched} bytes against {whole} whole"


def test_a_socket_gets_its_view_once_then_differences(tmp_path: Any) -> None:
    """Through the server: the catch-up update carries the whole view, later ones only a
    difference, and the view rebuilt from them is the one GET /view answers."""
    from server.inprocess import in_process_server

    with in_process_server(tmp_path) as client:
        r = client.post("/api/matches", json={
            "game": "lockmaker", "seats": [{"name": "A", "bot": False}, {"name": "B", "bot": False}]})
        assert r.status_code == 201, r.text
        m = r.json()
        base = f"/api/matches/{m['id']}"
        t0, t1 = m["tokens"]["seats"]
        spectator = m["tokens"]["spectator"]
        with client.websocket_connect(f"/ws/{m['id']}?token={spectator}&since=0") as ws:
            assert ws.receive_json()["type"] == "hello"
            first = ws.receive_json()
            assert "view" in first and "patch" not in first
            view = first["view"]
            for t in (t0, t1):
                r = client.post(base + "/chat", params={"token": t},
                                json={"channel": "table", "text": f"hello from {t[:4]}"})
                assert r.status_code == 200, r.text
                message = ws.receive_json()
                assert message["type"] == "update"
                assert "view" not in message, "a socket with a base gets a difference"
                view = viewdiff.apply(view, message["patch"])
            now = client.get(base + "/view", params={"token": spectator}).json()
            view.pop("now")
            now.pop("now")
            assert exact(view) == exact(now)
