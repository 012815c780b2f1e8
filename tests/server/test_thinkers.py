"""Bots think in worker processes (``arena.server.thinkers``): everything a decision
needs pickles, for every game mid-match; a worker decides exactly what the server's own process
would (G-7, G-11: ``bot_think`` draws its chance from the seed alone); a dead worker costs one
decision in a thread, never a stalled match."""

from __future__ import annotations

import asyncio
import os
import pickle
from collections.abc import Iterator
from typing import Any

import pytest

from arena.core.clock import ManualClock
from arena.core.driver import BotMove, BotTracker, bot_apply, bot_think, bots_to_think
from arena.core.game import Game
from arena.core.match import Match, MatchSettings
from arena.core.registry import get_game
from arena.server import thinkers
from arena.server.thinkers import Thinkers
from server.crashgame import CRASHING_TOY
from toygame import TOY

GAMES = ["lockmaker", "boxes", "paint", "feather", "lockedout"]
SEED = 7


@pytest.fixture
def pool() -> Iterator[Thinkers]:
    """A pool of its own with one worker (the process's shared one is left alone)."""
    own = Thinkers()
    own.configure(1)
    try:
        yield own
    finally:
        own.shutdown()


Decision = tuple[Any, int, list[int]]  # the frozen state, the phase number, the seats
_PLAYED: dict[tuple[str, int], list[tuple[Decision, list[BotMove]]]] = {}


def played(game: Game[Any, Any], count: int) -> list[tuple[Decision, list[BotMove]]]:
    """The first ``count`` bot decisions of an all-bot match (into its middle; the toy game's
    whole match is shorter), each as the server's owner freezes it, on a simulated clock, with
    the moves ``bot_think`` made of it in this process. Kept for the module's other tests: a
    hard Lockmaker bot builds its lock in these decisions, seconds of CPU each time."""
    key = (game.name, count)
    if key in _PLAYED:
        return _PLAYED[key]
    clock = ManualClock(0.0)
    match = Match(game, game.default_config(), SEED, clock, MatchSettings(bot_pace="instant"))
    tracker = BotTracker()
    found: list[tuple[Decision, list[BotMove]]] = []
    while not match.finished and len(found) < count:
        seats = bots_to_think(match, range(match.seats), tracker)
        if seats:
            moves = bot_think(game, SEED, match.state, match.phase_no, seats)
            found.append(((match.state, match.phase_no, seats), moves))
            bot_apply(match, moves, tracker)
            continue
        when = match.next_deadline()
        assert when is not None
        clock.set(max(when, clock.now()))
        match.advance()
    assert len(found) >= min(count, 3), f"{game.name}: only {len(found)} decisions"
    _PLAYED[key] = found
    return found


def decisions(game: Game[Any, Any], count: int) -> list[Decision]:
    return [decision for decision, _ in played(game, count)]


def all_games() -> list[Game[Any, Any]]:
    return [*(get_game(name) for name in GAMES), TOY]


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_every_game_and_its_state_mid_match_pickle(game: Game[Any, Any]) -> None:
    back = pickle.loads(pickle.dumps(game))
    assert type(back) is type(game)
    for state, _, _ in decisions(game, 8):
        copy = pickle.loads(pickle.dumps(state))
        assert copy == state


def test_a_worker_decides_what_the_server_process_decides(pool: Thinkers) -> None:
    async def main() -> None:
        for game in all_games():
            for (state, phase_no, seats), here in played(game, 8):
                there = await pool.think(game, SEED, state, phase_no, seats)
                assert there == here, (game.name, phase_no)

    asyncio.run(main())
    assert pool.replaced == 0


def test_a_dead_worker_costs_one_decision_in_a_thread_and_the_next_gets_a_new_pool(
        pool: Thinkers, caplog: pytest.LogCaptureFixture) -> None:
    state, phase_no, seats = decisions(TOY, 1)[0]

    async def main() -> tuple[list[BotMove], list[BotMove]]:
        fallback = await pool.think(CRASHING_TOY, SEED, state, phase_no, seats)
        after = await pool.think(TOY, SEED, state, phase_no, seats)
        return fallback, after

    fallback, after = asyncio.run(main())
    expected = bot_think(TOY, SEED, state, phase_no, seats)
    assert fallback == expected  # decided in a thread of this process
    assert after == expected  # decided in the new pool's worker
    assert pool.replaced == 1
    assert "a bot worker process died" in caplog.text


def test_no_workers_thinks_in_a_thread() -> None:
    own = Thinkers()
    own.configure(0)
    state, phase_no, seats = decisions(TOY, 1)[0]
    moves = asyncio.run(own.think(TOY, SEED, state, phase_no, seats))
    assert moves == bot_think(TOY, SEED, state, phase_no, seats)
    assert own.pool() is None


@pytest.mark.parametrize(("env", "raw"), [
    (thinkers.ENV, "two"), (thinkers.ENV, "-1"), (thinkers.ENV, "1.5"),
    (thinkers.NICE_ENV, "low"), (thinkers.NICE_ENV, "-5"), (thinkers.NICE_ENV, "20"),
])
def test_a_bad_worker_setting_is_refused_at_start_up_with_the_variable_named(
        env: str, raw: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(env, raw)
    with pytest.raises(ValueError, match=env):
        Thinkers().hold()


def test_the_worker_count_defaults_to_the_cores_less_one_but_at_least_two(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(thinkers.ENV, raising=False)
    monkeypatch.setattr(thinkers.os, "cpu_count", lambda: 8)
    assert thinkers.configured_workers() == 7
    monkeypatch.setattr(thinkers.os, "cpu_count", lambda: 2)
    assert thinkers.configured_workers() == 2
    monkeypatch.setenv(thinkers.ENV, "0")
    assert thinkers.configured_workers() == 0


def _niceness() -> int:
    return os.getpriority(os.PRIO_PROCESS, 0)


def test_workers_think_at_a_lower_cpu_priority_than_the_server(pool: Thinkers) -> None:
    """On busy cores the event loop (every clock and socket) goes before a bot's
    search; the workers run ARENA_BOT_NICE (default 10) lower than the server."""
    mine = _niceness()
    worker = pool.pool()
    assert worker is not None
    # A builtin, so the worker needs no test module to unpickle it (a worker that cannot
    # unpickle its task dies, and the pool breaks).
    theirs = worker.submit(os.getpriority, os.PRIO_PROCESS, 0).result(timeout=60)
    assert theirs == min(19, mine + thinkers.DEFAULT_NICE)
