"""Clocks and restarts: SIGKILL the server in the middle of running matches of every
registered game (and the toy game), restart it on the same database, and check that every
match finishes with every accepted submission kept and a log identical to an uninterrupted
replay of its inputs with the same seed (G-7)."""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from arena.core.game import Game
from arena.core.registry import all_games, register
from arena.server.games import load_games
from server.serverproc import ServerProcess
from server.shadow import host_events, normalised, rebuild
from toygame import TOY

pytestmark = pytest.mark.slow

TIME_SCALE = 0.02
SHORTEN = {"rounds": 2, "max_rounds": 2, "bouts": 2, "practice": False, "sessions": 1}
"""Options that, where a game has them, keep its match short enough for a test (Feather's
ticks run on the wall clock: its practice and three sessions took 40 s; Locked Out!'s rounds
up to the vault's end took 150 s on a loaded machine)."""


def config_for(game: Game[Any, Any]) -> dict[str, Any]:
    """A deep reserve keeps a waiting human from forfeiting (G-3) before the kill."""
    fields = {f.name for f in dataclasses.fields(game.default_config())}
    config: dict[str, Any] = {"reserve_periods": 200}
    config.update({k: v for k, v in SHORTEN.items() if k in fields})
    return config


def seat_entries(game: Game[Any, Any]) -> list[dict[str, Any]]:
    """``normal`` bots (G-8): what a restart keeps does not depend on how well they play, and a
    hard Lockmaker bot's hardest-lock search costs seconds of CPU a lock (``easy`` would leave
    a lock it cannot solve to the phase's deadline, where ``normal`` answers at once)."""
    return [{"name": "Human", "bot": False}] + [
        {"name": f"Bot {i + 1}", "bot": True, "level": "normal"} for i in range(1, game.seats)]


def seat_names(game: Game[Any, Any]) -> list[str]:
    return [s["name"] for s in seat_entries(game)]


def stored_config(game: Game[Any, Any]) -> dict[str, Any]:
    """The config as the server stores it: adapted to the seats it was created with (LO-10)."""
    return game.config_for_seats(config_for(game), [s["name"] for s in seat_entries(game)])


def _games(base: str) -> dict[str, Game[Any, Any]]:
    load_games()
    register(TOY)
    local = all_games(include_extra=True)
    served = [g["name"] for g in httpx.get(base + "/api/games", timeout=30).json()]
    return {name: local[name] for name in served if name in local}


class Driver:
    """Plays seat 0 of one match like a human: a random legal submission, as final."""

    def __init__(self, server: ServerProcess, game: Game[Any, Any],
                 created: dict[str, Any]) -> None:
        self.server = server
        self.base = server.url
        self.game = game
        self.id = created["id"]
        self.seat_token = created["tokens"]["seats"][0]
        self.host_token = created["tokens"]["host"]
        self.accepted: list[str] = []
        self.rng = random.Random(self.id)
        self.done_phase = -1

    def status(self) -> str:
        r = self.server.http.get(f"{self.base}/api/matches/{self.id}", timeout=30)
        return str(r.json()["status"])

    def play(self, until_accepted: int | None, timeout: float) -> None:
        """Act until ``until_accepted`` submissions were accepted, or the match is over."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if until_accepted is not None and len(self.accepted) >= until_accepted:
                return
            if self.step():
                return
            time.sleep(0.01)

    def step(self) -> bool:
        """Act once if seat 0 is waited for; returns True once the match is over."""
        view = self.server.http.get(f"{self.base}/api/matches/{self.id}/view",
                         params={"token": self.seat_token}, timeout=30).json()
        if view["result"] is not None:
            return True
        phase = view["phase"]
        if phase is None or 0 not in phase["waiting_for"] or phase["no"] == self.done_phase:
            return False
        match = rebuild(self.game, stored_config(self.game), {"time_scale": TIME_SCALE},
                        host_events(self.server.http, self.base, self.id, self.host_token),
                        names=seat_names(self.game))
        if match.finished or 0 not in match.waiting_for():
            return False
        text = self.game.random_submission(match.state, 0, self.rng)
        if text is None:
            self.done_phase = phase["no"]
            return False
        r = self.server.http.post(f"{self.base}/api/matches/{self.id}/submit",
                       params={"token": self.seat_token},
                       json={"text": text, "final": True}, timeout=30)
        assert r.status_code in (200, 422), r.text  # 422: the phase moved on meanwhile
        if r.status_code == 200:
            self.accepted.append(text)
            self.done_phase = phase["no"]
        return False


def _in_parallel(drivers: list[Driver], fn: Callable[[Driver], None]) -> None:
    with ThreadPoolExecutor(len(drivers)) as pool:
        for future in [pool.submit(fn, d) for d in drivers]:
            future.result()


def test_sigkill_mid_match_loses_nothing(tmp_path: Path) -> None:
    _kill_and_finish(f"sqlite:///{tmp_path / 'arena.db'}", tmp_path, only=None)


def test_sigkill_on_postgresql(postgres_url: str, tmp_path: Path) -> None:
    """The same on a real PostgreSQL (the toy game only, to keep the suite quick)."""
    _kill_and_finish(postgres_url, tmp_path, only={"toy"})


def _kill_and_finish(database: str, tmp_path: Path, only: set[str] | None) -> None:
    server = ServerProcess(database, tmp_path / "server.log").start()
    try:
        games = _games(server.url)
        if only is not None:
            games = {k: v for k, v in games.items() if k in only}
        assert "toy" in games
        drivers = []
        for name, game in games.items():
            seats = seat_entries(game)
            created = server.create(name, seats=seats, settings={"time_scale": TIME_SCALE},
                                    config=config_for(game), seed=11)
            drivers.append(Driver(server, game, created))

        # Each human plays until one submission of its own is accepted and then stops, so
        # every match is running (waiting on its human) when the server dies.
        _in_parallel(drivers, lambda d: d.play(until_accepted=1, timeout=60))
        running = {d.game.name: (d.status(), len(d.accepted)) for d in drivers}
        assert all(s == "running" and n >= 1 for s, n in running.values()), running

        server.kill()
        time.sleep(0.5)  # deadlines pass while the server is down
        server.start()

        _in_parallel(drivers, lambda d: d.play(until_accepted=None, timeout=150))
        unfinished = [d.game.name for d in drivers if d.status() != "finished"]
        assert not unfinished, f"unfinished after restart: {unfinished}"

        for d in drivers:
            log = host_events(server.http, server.url, d.id, d.host_token)
            assert log[-1].kind == "match_ended", d.game.name
            human = [str(e.data["text"]) for e in log
                     if e.kind == "submit" and e.data["seat"] == 0]
            assert human == d.accepted, d.game.name
            replayed = rebuild(d.game, stored_config(d.game), {"time_scale": TIME_SCALE}, log,
                               names=seat_names(d.game))
            ours, theirs = normalised(replayed.log), normalised(log)
            first = next((i for i, (a, b) in enumerate(zip(ours, theirs, strict=False))
                          if a != b), min(len(ours), len(theirs)))
            assert ours == theirs, (d.game.name, ours[first - 2:first + 2],
                                    theirs[first - 2:first + 2])
            assert replayed.result is not None
            final = server.http.get(f"{server.url}/api/matches/{d.id}/view",
                              params={"token": d.host_token}, timeout=30).json()
            assert final["result"] == replayed.result.to_json()
    finally:
        server.stop()


def test_a_deadline_passed_while_down_resolves_at_its_own_time(tmp_path: Path) -> None:
    """The study phase ends while the server is down; on restart it resolves
    at once, stamped with its own deadline, and the clocks of the next phase run from there."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'd.db'}", tmp_path / "server.log").start()
    try:
        # The study lasts 6 s: room for a loaded machine to kill the server before it ends.
        m = server.create("toy", seats=[{"name": "A", "bot": False}, {"name": "B", "bot": False}],
                          settings={"time_scale": 0.1}, seed=8)
        host = m["tokens"]["host"]
        r = server.http.post(f"{server.url}/api/matches/{m['id']}/submit",
                             params={"token": m["tokens"]["seats"][0]}, json={"text": "ready"})
        assert r.status_code == 200
        before = host_events(server.http, server.url, m["id"], host)
        deadline = next(e for e in before if e.kind == "phase_started").data["deadline"]
        server.kill()
        down_at = time.time()
        assert down_at < deadline, "the server was killed after the study had ended"
        while time.time() <= deadline:  # the deadline passes while the server is down
            time.sleep(0.05)
        server.start()
        up_at = time.time()
        log = host_events(server.http, server.url, m["id"], host)
        study = next(e for e in log if e.kind == "phase_started" and e.data["name"] == "study")
        passed = next(e for e in log if e.kind == "limit_passed")
        assert passed.t == study.data["deadline"] == deadline and down_at < passed.t < up_at
        pick = next(e for e in log if e.kind == "phase_started" and e.data["name"] == "pick")
        assert pick.t == passed.t and pick.data["deadline"] == passed.t + 30 * 0.1
        assert [e.data["text"] for e in log if e.kind == "submit"] == ["ready"]
    finally:
        server.stop()
