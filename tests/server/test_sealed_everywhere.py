"""G-10 on every endpoint: while a sealed phase is open, nothing another seat, a spectator or
the lobby can read tells whether (or when) a seat acted.

For each of the five games, two matches with the same seed and seats are played the same way
up to a sealed phase; then, in one of them only, seat A acts (submits, confirms, changes its
mind). Every byte seat B and a spectator obtain from every endpoint (view, events with any
cursor, replay of every version and the out-of-range errors, the command answers of B's own
submission and chat, the socket's messages, the match page, the public record, the lobby) must
be the same in both matches, once the match's id and links are put aside. The clock is frozen
so the two matches share every timestamp.
"""

from __future__ import annotations

import json
import random
import re
import time
import types
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.exceptions import StarletteDeprecationWarning

from arena.core.clock import ManualClock
from arena.core.errors import RuleError
from arena.core.game import Game
from arena.core.match import Match, MatchSettings
from arena.core.registry import get_game
from arena.server import api, creating, rebuild
from arena.server.app import create_app
from arena.server.limits import RateLimit

with warnings.catch_warnings():
    # Starlette asks for httpx2 and warns when it falls back on httpx; the client works the same.
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

GAMES = ("lockmaker", "boxes", "paint", "feather", "lockedout")
FROZEN = float(int(time.time()))
CLOCK = ManualClock(FROZEN)
"""The server's clock: it stands still within an example, and moves a second between
examples (so the lobby, newest first, shows the example's matches first)."""
ACTIONS = ("submit", "submit_final", "submit_confirm", "change_mind")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder: Path = tmp_path_factory.mktemp("sealed")
    clock = CLOCK
    patch = pytest.MonkeyPatch()
    for module in (creating, rebuild):
        patch.setattr(module, "SystemClock", lambda: clock)
        # A match's start is the wall clock at creation: frozen too, so both matches share it.
        patch.setattr(module, "time", types.SimpleNamespace(
            time=clock.now, monotonic=time.monotonic, sleep=time.sleep,
            perf_counter=time.perf_counter))
    unlimited = RateLimit(burst=10**9, per_second=10**9, what="requests")
    for name in ("CREATE_LIMIT", "ACT_LIMIT", "CHAT_LIMIT", "REPLAY_LIMIT"):
        patch.setattr(api, name, unlimited, raising=False)
    patch.setattr(creating, "LIVE_PER_ADDRESS", 10**9)
    try:
        with TestClient(create_app(f"sqlite:///{folder / 'sealed.db'}")) as c:
            yield c
    finally:
        patch.undo()


def _names(game: Game[Any, Any]) -> list[str]:
    return ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"][: game.seats]


def _shadow(game: Game[Any, Any], seed: int) -> Match:
    """The same match in process, to know the state when choosing legal submissions."""
    config = game.make_config(game.config_for_seats({}, _names(game)))
    return Match(game, config, seed, ManualClock(CLOCK.now()), MatchSettings())


def _legal(game: Game[Any, Any], shadow: Match, seat: int, rng: random.Random) -> str | None:
    """A submission the rules accept from ``seat`` now (checked on a copy of the shadow)."""
    for _ in range(30):
        text = game.random_submission(shadow.state, seat, rng)
        if text is None:
            return None
        try:
            Match.replay(game, shadow.config, shadow.seed, shadow.settings, shadow.created_at,
                         shadow.inputs(), ManualClock(CLOCK.now())).submit(seat, text)
        except RuleError:
            continue
        return text
    return None


class World:
    """One of the two matches, driven through the HTTP API."""

    def __init__(self, client: TestClient, game: str, seed: int) -> None:
        self.client = client
        names = _names(get_game(game))
        r = client.post("/api/matches", json={
            "game": game, "seed": seed, "seats": [{"name": n} for n in names]})
        assert r.status_code == 201, r.text
        created = r.json()
        self.id: str = created["id"]
        self.seats: list[str] = created["tokens"]["seats"]
        self.spectator: str = created["tokens"]["spectator"]
        self.host: str = created["tokens"]["host"]

    def post(self, path: str, token: str, body: dict[str, Any]) -> tuple[int, Any]:
        r = self.client.post(f"/api/matches/{self.id}/{path}", params={"token": token},
                             json=body)
        return r.status_code, r.json()

    def get(self, path: str, token: str, **params: Any) -> tuple[int, str]:
        r = self.client.get(f"/api/matches/{self.id}{path}", params={"token": token, **params})
        return r.status_code, r.text

    def normalise(self, text: str) -> str:
        for secret in (self.id, *self.seats, self.spectator, self.host):
            text = text.replace(secret, "<id>")
        return text


def _reader_bytes(w: World, token: str, seat: int | None, legal_b: str | None) -> list[Any]:
    """Everything one reader can obtain, in a fixed order, normalised."""
    out: list[Any] = []
    status, view = w.get("/view", token)
    out.append((status, view))
    last = json.loads(view)["version"]
    for since in (0, 1, 2, last - 1, last, last + 1, 10**6):
        out.append(w.get("/events", token, since=since))
    for version in (0, *range(1, last + 2), 10**6):
        out.append(w.get("/replay", token, version=version))
    # Every GET the API documents for a match, whatever is added later.
    spec = w.client.get("/api/openapi.json").json()
    paths = sorted(path for path, ops in spec["paths"].items()
                   if "get" in ops and path.startswith("/api/matches/{match_id}"))
    assert "/api/matches/{match_id}/view" in paths and len(paths) >= 5
    for path in paths:
        r = w.client.get(path.replace("{match_id}", w.id), params={"token": token})
        out.append((path, r.status_code, r.text))
    page = w.client.get(f"/m/{w.id}", params={"token": token})
    out.append((page.status_code, page.text))
    with w.client.websocket_connect(f"/ws/{w.id}?token={token}&since=1") as ws:
        out.append(ws.receive_text())  # hello
        out.append(ws.receive_text())  # the update bringing it from its version 1
        channel = "table" if seat is not None else "spectators"
        out.append(w.post("chat", token, {"channel": channel, "text": "hello"}))
        out.append(ws.receive_text())  # the chat line
        if seat is not None and legal_b is not None:
            out.append(w.post("submit", token, {"text": legal_b}))
            out.append(ws.receive_text())
    out.append(w.get("/events", token, since=0))
    out.append(w.get("/view", token))
    return [w.normalise(json.dumps(x, sort_keys=True)) for x in out]


def _lobby_entry(w: World) -> str:
    for entry in w.client.get("/api/matches").json():
        if entry["id"] == w.id:
            entry.pop("created")  # the wall clock of creation
            return w.normalise(json.dumps(entry, sort_keys=True))
    raise AssertionError("the match is not in the lobby")


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(game_name=st.sampled_from(GAMES), seed=st.integers(0, 2**32),
       prefix=st.integers(0, 3), action=st.sampled_from(ACTIONS), pick=st.integers(0, 5))
def test_nobody_learns_that_a_seat_acted_in_a_sealed_phase(
        client: TestClient, game_name: str, seed: int, prefix: int, action: str,
        pick: int) -> None:
    CLOCK.set(CLOCK.now() + 1)
    game = get_game(game_name)
    shadow = _shadow(game, seed)
    rng = random.Random(seed)
    acted, quiet = World(client, game_name, seed), World(client, game_name, seed)
    # The same prefix in both: whole phases in which every seat submits as final.
    for _ in range(prefix):
        spec = shadow.spec
        if spec is None or not spec.early_close or shadow.finished:
            break
        before = shadow.phase_no
        for seat in sorted(spec.actors):
            text = _legal(game, shadow, seat, rng)
            if text is None:
                continue
            shadow.submit(seat, text, final=True)
            for w in (acted, quiet):
                assert w.post("submit", w.seats[seat], {"text": text, "final": True})[0] == 200
            if shadow.phase_no != before:
                break
        if shadow.phase_no == before:
            break
    spec = shadow.spec
    assert spec is not None and not shadow.finished
    actors = sorted(spec.actors)
    if not spec.sealed or len(actors) < 2:
        return
    a = actors[pick % len(actors)]
    b = actors[(pick + 1) % len(actors)]
    first = _legal(game, shadow, a, rng)
    if first is None:
        return
    # Seat A acts in one match only.
    if action in ("submit", "submit_final", "change_mind", "submit_confirm"):
        code, _ = acted.post("submit", acted.seats[a], {
            "text": first, "final": action == "submit_final"})
        assert code == 200
        shadow.submit(a, first)
    if action == "submit_confirm":
        assert acted.post("confirm", acted.seats[a], {})[0] == 200
    if action == "change_mind":
        second = _legal(game, shadow, a, rng) or first
        assert acted.post("submit", acted.seats[a], {"text": second})[0] == 200
    legal_b = _legal(game, shadow, b, rng)
    assert _lobby_entry(acted) == _lobby_entry(quiet)
    assert _reader_bytes(acted, acted.spectator, None, None) == \
        _reader_bytes(quiet, quiet.spectator, None, None)
    seen_acted = _reader_bytes(acted, acted.seats[b], b, legal_b)
    seen_quiet = _reader_bytes(quiet, quiet.seats[b], b, legal_b)
    for x, y in zip(seen_acted, seen_quiet, strict=True):
        assert x == y, _first_difference(x, y)
    assert _lobby_entry(acted) == _lobby_entry(quiet)


def _first_difference(x: str, y: str) -> str:
    at = next((i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q),
              min(len(x), len(y)))
    return f"differs at {at}: ...{x[max(0, at - 80):at + 80]}... vs ...{y[max(0, at - 80):at + 80]}..."


def test_the_check_sees_a_difference_when_there_is_one(client: TestClient) -> None:
    """The comparison is not blind: seat A's own reads do differ once it has acted."""
    game = get_game("paint")
    shadow = _shadow(game, 5)
    acted, quiet = World(client, "paint", 5), World(client, "paint", 5)
    text = _legal(game, shadow, 0, random.Random(5))
    assert text is not None
    code, body = acted.post("submit", acted.seats[0], {"text": text})
    assert code == 200, body
    assert _reader_bytes(acted, acted.seats[0], 0, None) != \
        _reader_bytes(quiet, quiet.seats[0], 0, None)
    assert re.search(r'"version"', acted.get("/view", acted.seats[0])[1])
