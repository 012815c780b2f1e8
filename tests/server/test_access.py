"""G-9: walk every endpoint and every socket message type as each seat,
another seat, a spectator, the host, no token and a token of another match, over every
registered game and the toy game, and find no private data where it does not belong
(``Game.private_facts``), no seat acting for another, and no 500."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from arena.core.game import Game
from arena.core.match import Match
from arena.core.registry import all_games, register
from arena.server.games import load_games
from server.serverproc import ServerProcess
from server.shadow import host_events, rebuild
from toygame import TOY

pytestmark = pytest.mark.slow

STEPS = 4


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("access")
    proc = ServerProcess(f"sqlite:///{folder / 'a.db'}", folder / "server.log").start()
    try:
        yield proc
    finally:
        proc.stop()


def _games() -> list[Game[Any, Any]]:
    load_games()
    register(TOY)
    # A season's privacy is the season engine's tests' (test_season_engine: sealed choices).
    return [g for g in all_games(include_extra=True).values() if g.listed]


class Walk:
    """Everything one viewer can fetch or receive about one match, as raw text."""

    def __init__(self, server: ServerProcess, created: dict[str, Any]) -> None:
        self.s = server
        self.id = created["id"]
        self.tokens: dict[str, str] = {f"seat{i}": t for i, t in enumerate(created["tokens"]["seats"])}
        self.tokens["spectator"] = created["tokens"]["spectator"]
        self.tokens["host"] = created["tokens"]["host"]

    def get(self, path: str, token: str | None, **params: Any) -> httpx.Response:
        if token is not None:
            params["token"] = token
        r = self.s.http.get(f"{self.s.url}{path}", params=params)
        assert r.status_code < 500, (path, r.text)
        return r

    def post(self, path: str, token: str | None, body: Any) -> httpx.Response:
        params = {} if token is None else {"token": token}
        r = self.s.http.post(f"{self.s.url}{path}", params=params, json=body)
        assert r.status_code < 500, (path, r.text)
        return r

    def read_all(self, token: str | None) -> list[tuple[str, int, str]]:
        """Every read endpoint and socket message, as (what, status, body)."""
        base = f"/api/matches/{self.id}"
        out = []
        for what, path, params in [
            ("view", base + "/view", {}), ("events", base + "/events", {"since": 0}),
            ("replay1", base + "/replay", {"version": 1}),
            ("replay-last", base + "/replay", {"version": self.version()}),
            ("info", base, {}), ("list", "/api/matches", {}), ("games", "/api/games", {}),
            ("page", f"/m/{self.id}", {}), ("openapi", "/api/openapi.json", {}),
        ]:
            r = self.get(path, token, **params)
            out.append((what, r.status_code, r.text))
        out.extend(self.socket(token))
        return out

    def version(self) -> int:
        r = self.get(f"/api/matches/{self.id}/view", self.tokens["host"])
        return int(r.json()["version"])

    def socket(self, token: str | None) -> list[tuple[str, int, str]]:
        url = self.s.url.replace("http://", "ws://") + f"/ws/{self.id}"
        if token is not None:
            url += f"?token={token}&since=0"
        try:
            with connect(url, open_timeout=10, close_timeout=2) as ws:
                hello = str(ws.recv(timeout=10))
                update = str(ws.recv(timeout=10))
                ws.send(json.dumps({"type": "ping"}))
                pong = str(ws.recv(timeout=10))
                assert json.loads(hello)["type"] == "hello"
                assert json.loads(update)["type"] == "update"
                assert json.loads(pong)["type"] == "pong"
                return [("ws-hello", 101, hello), ("ws-update", 101, update), ("ws-pong", 101, pong)]
        except InvalidStatus as exc:  # refused before the handshake
            return [("ws", exc.response.status_code, "")]
        except Exception as exc:  # closed with a 44xx code after accept
            return [("ws-closed", 403, str(exc))]


def _facts(match: Match, seat: int) -> list[str]:
    return [f for f in match.game.private_facts(match.state, seat) if f]


def _may_see(role: str, seat: int | None, e: dict[str, Any], finished: bool) -> bool:
    """Public entries, the seat's own, and the spectators' chat channel for spectators (and
    for everyone once the match is over, G-13)."""
    if e["kind"] == "chat" and e["data"]["channel"] == "spectators":
        return role == "spectator" or finished
    return e["to"] is None or (seat is not None and seat in e["to"])


def _check_privacy(walk: Walk, match: Match, game: Game[Any, Any]) -> None:
    """Nothing private of seat s reaches anyone but s and the host (G-9)."""
    viewers: dict[str, int | None] = {f"seat{i}": i for i in range(game.seats)}
    viewers.update({"spectator": None, "none": None})
    for role, seat in viewers.items():
        token = None if role == "none" else walk.tokens[role]
        responses = walk.read_all(token)
        others = [s for s in range(game.seats) if s != seat]
        for other in others:
            for fact in _facts(match, other):
                for what, _status, body in responses:
                    assert fact not in body, f"{game.name}: {role} sees seat {other}'s {fact!r} via {what}"
        for what, status, body in responses:
            if role == "none" and what in {"view", "events", "replay1", "replay-last"}:
                assert status == 401, (what, status)
            if role == "none":
                assert what != "ws-hello", "a socket without a token was accepted"
            if what == "events" and status == 200:
                for e in json.loads(body)["events"]:
                    assert _may_see(role, seat, e, match.finished), (role, e)
                    if e["kind"] == "match_started":
                        assert "seed" not in e["data"], "the seed would reveal every draw (G-7)"
            if what == "ws-update":
                for e in json.loads(body)["events"]:
                    assert _may_see(role, seat, e, match.finished), (role, e)


@pytest.mark.parametrize("game", _games(), ids=lambda g: g.name)
def test_no_private_data_where_it_does_not_belong(server: ServerProcess,
                                                  game: Game[Any, Any]) -> None:
    created = server.create(game.name, seats=[{"name": f"P{i}", "bot": False}
                                              for i in range(game.seats)],
                            settings={"time_scale": 1.0, "reveal_at_end": False}, seed=5)
    other = server.create("toy", seed=6)
    walk = Walk(server, created)
    names = [f"P{i}" for i in range(game.seats)]  # the texts name the seats by them (LO-10)
    rng = random.Random(1)
    base = f"/api/matches/{walk.id}"

    # No token, and another match's tokens, get nothing; no link acts beyond its role.
    stranger = other["tokens"]["seats"][0]
    assert walk.get(base + "/view", stranger).status_code == 403
    assert walk.get(base + "/events", other["tokens"]["host"]).status_code == 403
    assert walk.post(base + "/submit", None, {"text": "x"}).status_code == 401
    assert walk.post(base + "/submit", stranger, {"text": "x"}).status_code == 403
    assert walk.post(base + "/submit", walk.tokens["spectator"], {"text": "x"}).status_code == 403
    assert walk.post(base + "/submit", walk.tokens["host"], {"text": "x"}).status_code == 403
    assert walk.post(base + "/confirm", walk.tokens["spectator"], {}).status_code == 403
    for role in ["seat0", "spectator", "none"]:
        token = None if role == "none" else walk.tokens[role]
        for action in ["pause", "resume", "extend", "end", "mute", "option", "reissue", "seat",
                       "spectators", "rematch"]:
            assert walk.post(f"{base}/host/{action}", token, {"seat": 0, "bot": True,
                                                               "open": False}
                             ).status_code in (401, 403), action
        assert walk.get(f"{base}/host/links", token).status_code in (401, 403)
    # Notes belong to a seat's own link only; chat in a channel the link may not use is refused.
    for role in ["spectator", "host"]:
        assert walk.get(base + "/notes", walk.tokens[role]).status_code == 403
    assert walk.post(base + "/chat", walk.tokens["spectator"],
                     {"channel": "table", "text": "hi"}).status_code == 422
    assert walk.post(base + "/chat", walk.tokens["seat0"],
                     {"channel": "spectators", "text": "hi"}).status_code == 422
    assert walk.post(base + "/host/launch", walk.tokens["host"], {}).status_code == 404
    assert walk.post(base + "/submit", walk.tokens["seat0"], {"text": "x" * 70_000}).status_code == 413
    assert walk.post(base + "/submit", walk.tokens["seat0"], {"nope": 1}).status_code == 400

    for step in range(STEPS):
        # G-13: talk in every channel as the walk goes; no line may reach a viewer it is not for.
        if step % 5 == 0:
            for token, channel in ((walk.tokens["spectator"], "spectators"),
                                   (walk.tokens["seat0"], "table")):
                walk.post(base + "/chat", token, {"channel": channel, "text": f"line {step}"})
        match = rebuild(game, {}, {"time_scale": 1.0, "reveal_at_end": False},
                        host_events(server.http, server.url, walk.id, walk.tokens["host"]), names)
        if match.finished:
            break
        _check_privacy(walk, match, game)
        # Every seat the phase waits for acts; a seat token only ever acts for its own seat: a
        # body that claims another is refused ('seat' is no field of a submission).
        for seat in sorted(match.waiting_for()):
            text = game.random_submission(match.state, seat, rng)
            if text is None:
                continue
            claim = walk.post(base + "/submit", walk.tokens[f"seat{seat}"],
                              {"text": text, "final": True, "seat": (seat + 1) % game.seats})
            assert claim.status_code == 400 and "'seat'" in claim.json()["error"], claim.text
            r = walk.post(base + "/submit", walk.tokens[f"seat{seat}"],
                          {"text": text, "final": True})
            assert r.status_code in (200, 422), r.text
            if r.status_code == 200:
                last = host_events(server.http, server.url, walk.id, walk.tokens["host"])
                submits = [e for e in last if e.kind == "submit"]
                assert submits[-1].data["seat"] == seat
            else:
                assert r.json()["error"]

    # The host sees everything and may pause, extend, resume and end.
    match = rebuild(game, {}, {"time_scale": 1.0, "reveal_at_end": False},
                    host_events(server.http, server.url, walk.id, walk.tokens["host"]), names)
    host_text = walk.get(base + "/view", walk.tokens["host"]).text + \
        walk.get(base + "/events", walk.tokens["host"]).text
    for seat in range(game.seats):
        for fact in _facts(match, seat):
            assert fact in host_text or fact not in repr(match.game.host_view(match.state))
    if not match.finished:
        for action, body in [("pause", {}), ("extend", {"seconds": 5}), ("resume", {}),
                             ("end", {"reason": "test"})]:
            r = walk.post(f"{base}/host/{action}", walk.tokens["host"], body)
            assert r.status_code == 200, (action, r.text)
        # G-9 with reveal_at_end off: after the end, private data stays private.
        match = rebuild(game, {}, {"time_scale": 1.0, "reveal_at_end": False},
                        host_events(server.http, server.url, walk.id, walk.tokens["host"]), names)
        assert match.finished
        _check_privacy(walk, match, game)
