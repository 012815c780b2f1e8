"""Bot levels over the API, in process: a seat's bot level (G-8) is taken at creation,
listed in the match's record, view and host links, handed to the bot workers, changed by the
host, and kept across a restart; an unknown level is refused with 422 naming G-8."""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

import pytest

from arena.core.driver import BotMove, bot_think
from arena.core.game import Game
from arena.core.registry import register
from arena.server import thinkers
from server.inprocess import in_process_server
from toygame import TOY

register(TOY)

SEATS = [{"name": "Ann", "bot": True, "level": "easy"}, {"name": "Ben", "bot": False}]
SLOW = {"bot_pace": "instant", "time_scale": 100.0}


class Seen:
    """What the server asked the bot workers: the levels of every decision."""

    def __init__(self) -> None:
        self.levels: list[dict[int, str]] = []

    async def think(self, game: Game[Any, Any], seed: int, state: Any, phase_no: int,
                    seats: Collection[int],
                    levels: Mapping[int, Any] | None = None) -> list[BotMove]:
        self.levels.append(dict(levels or {}))
        return bot_think(game, seed, state, phase_no, seats, levels)

    def wait(self, count: int) -> None:
        deadline = time.monotonic() + 10
        while len(self.levels) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(self.levels) >= count, "the bot never thought"


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> Seen:
    spy = Seen()
    monkeypatch.setattr(thinkers, "think", spy.think)
    return spy


def test_a_level_is_taken_used_changed_and_kept_across_a_restart(
        tmp_path: Path, seen: Seen) -> None:
    with in_process_server(tmp_path) as client:
        r = client.post("/api/matches", json={"game": "toy", "seats": SEATS,
                                              "settings": SLOW, "config": {"rounds": 50}})
        assert r.status_code == 201, r.text
        mid, host = r.json()["id"], r.json()["tokens"]["host"]
        ben = r.json()["tokens"]["seats"][1]
        seen.wait(1)
        assert seen.levels[0] == {0: "easy"}
        info = client.get(f"/api/matches/{mid}").json()
        assert info["bots"] == [True, False] and info["levels"] == ["easy", None]
        links = client.get(f"/api/matches/{mid}/host/links?token={host}").json()
        assert [s["level"] for s in links["seats"]] == ["easy", None]
        # The host changes the bot's level: the same bot, now at normal.
        r = client.post(f"/api/matches/{mid}/host/seat?token={host}",
                        json={"seat": 0, "bot": True, "level": "normal"})
        assert r.status_code == 200, r.text
        assert r.json()["level"] == "normal" and r.json()["link"] is None
        r = client.post(f"/api/matches/{mid}/host/seat?token={host}",
                        json={"seat": 0, "bot": True, "level": "expert"})
        assert r.status_code == 422 and r.json()["error"].startswith("G-8"), r.text
    seen.levels.clear()
    with in_process_server(tmp_path) as client:  # the same database: a restart
        info = client.get(f"/api/matches/{mid}").json()
        assert info["status"] == "running" and info["levels"] == ["normal", None]
        view = client.get(f"/api/matches/{mid}/view?token={host}").json()
        assert view["match"]["levels"] == ["normal", None]
        # Ben answers: the next phase asks the rebuilt match's bot, at its stored level.
        for text in ("ready", "2", "2"):
            client.post(f"/api/matches/{mid}/submit?token={ben}",
                        json={"text": text, "final": True})
        seen.wait(1)
        assert seen.levels[-1] == {0: "normal"}


def test_an_unknown_level_is_refused_naming_g8(tmp_path: Path) -> None:
    with in_process_server(tmp_path) as client:
        for level in ("expert", "", 3, None, "Easy"):
            r = client.post("/api/matches", json={
                "game": "toy", "seats": [{"bot": True, "level": level}, {}]})
            assert r.status_code == 422, (level, r.text)
            error = r.json()["error"]
            assert error.startswith("G-8: seat 1 field 'level'"), error
        doc = client.get("/api/openapi.json").json()
        level = doc["components"]["schemas"]["SeatEntry"]["properties"]["level"]
        assert level["enum"] == ["easy", "normal", "hard"] and level["default"] == "hard"
