"""A bot worker gets only what the Feather bot reads (``Game.bot_state``). The
decisions must be exactly those made on the whole state, at every level and in every stage,
and the state sent must be a fraction of the whole (the scenario's text and the other
sessions stay with the server)."""

from __future__ import annotations

import pickle
import random

from arena.core.clock import ManualClock
from arena.core.driver import bot_think
from arena.core.match import Match, MatchSettings
from arena.games.feather.match import GAME, scenario_source


def test_bots_decide_the_same_on_the_state_a_worker_gets() -> None:
    base = GAME.make_config({"tick": 1.0, "study": 1, "practice": True, "session_ticks": 30,
                             "practice_ticks": 8})
    # As the server records a generated puzzle: its text in the match's config.
    text = scenario_source(base, random.Random(5))[1]
    config = GAME.make_config({"tick": 1.0, "study": 1, "practice": True, "session_ticks": 30,
                               "practice_ticks": 8, "scenario_text": text})
    clock = ManualClock(0.0)
    match = Match(GAME, config, 5, clock, MatchSettings(bot_pace="instant"))
    rng = random.Random(5)
    compared = 0
    while not match.finished:
        state = match.state
        slim = GAME.bot_state(state)
        for level in ("easy", "normal", "hard"):
            full = bot_think(GAME, 5, state, match.phase_no, [0, 1], {0: level, 1: level})
            sent = bot_think(GAME, 5, pickle.loads(pickle.dumps(slim)), match.phase_no,
                             [0, 1], {0: level, 1: level})
            assert sent == full, (match.phase_no, level)
            compared += 1
        assert len(pickle.dumps(slim)) * 3 < len(pickle.dumps(state))
        for seat in (0, 1):  # random play reaches boards the bots would not
            move = GAME.random_submission(state, seat, rng)
            if move is not None and seat in match.waiting_for():
                match.submit(seat, move)
        deadline = match.next_deadline()
        assert deadline is not None
        clock.set(deadline)
        match.advance()
    assert compared > 100
