"""Replay from checkpoints: the match rebuilt from the nearest checkpoint to
any version is the match rebuilt from the start, in every game and at any version, and a
checkpoint is never changed by what follows it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.core.clock import ManualClock
from arena.core.errors import RuleError
from arena.core.game import Game
from arena.core.match import CHECKPOINT_EVERY, INPUT_KINDS, Match, MatchSettings
from arena.core.registry import all_games
from toygame import TOY

GAMES: dict[str, Game[Any, Any]] = {"toy": TOY, **all_games()}


def _played(game: Game[Any, Any], seed: int, steps: int) -> Match:
    """A random match as a live owner runs it: commands, chat, pauses, the clock moving on,
    and a checkpoint offered after each."""
    clock = ManualClock(1000.0)
    m = Match(game, game.default_config(), seed, clock, MatchSettings(time_scale=0.2))
    rng = random.Random(seed)
    for _ in range(steps):
        if m.finished:
            break
        spec = m.spec
        assert spec is not None
        seat = rng.choice(sorted(spec.actors)) if spec.actors else 0
        roll = rng.random()
        try:
            if roll < 0.55:
                text = game.random_submission(m.state, seat, rng)
                if text is not None:
                    m.submit(seat, text, final=rng.random() < 0.5)
            elif roll < 0.65:
                m.confirm(seat)
            elif roll < 0.75:
                m.chat(seat, "table", f"hi {m.version}")
            elif roll < 0.8:
                m.pause() if m.paused_at is None else m.resume()
        except RuleError:
            pass
        m.checkpoint()
        clock.set(clock.now() + rng.random() * 3)
        if m.paused_at is None:
            m.advance()
        m.checkpoint()
    return m


def _from_start(m: Match, version: int) -> Match:
    t = m.log[version - 1].t
    inputs = [e for e in m.log if e.kind in INPUT_KINDS and e.version <= version]
    return Match.replay(m.game, m.config, m.seed, m.settings, m.created_at, inputs,
                        ManualClock(t), until=t)


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), picks=st.lists(st.floats(0, 1), min_size=3, max_size=6))
def test_a_replay_from_a_checkpoint_is_the_replay_from_the_start(
        name: str, seed: int, picks: list[float]) -> None:
    game = GAMES[name]
    m = _played(game, seed, 400)
    versions = {1, m.version, *(max(1, round(p * m.version)) for p in picks)}
    for v in sorted(versions):
        assert m.replay_to(v).snapshot() == _from_start(m, v).snapshot(), (name, v)


def test_checkpoints_are_taken_and_stay_as_they_were() -> None:
    m = _played(all_games()["lockedout"], 3, 600)
    assert len(m._checkpoints) >= m.version // (3 * CHECKPOINT_EVERY)
    version, _, frozen = m._checkpoints[0]
    before = frozen.snapshot()
    m.replay_to(m.version)
    m.replay_to(version + 1)
    assert frozen.snapshot() == before and frozen.log == []
    # Between two checkpoints there are at least CHECKPOINT_EVERY entries.
    gaps = [b[0] - a[0] for a, b in zip(m._checkpoints, m._checkpoints[1:], strict=False)]
    assert all(g >= CHECKPOINT_EVERY for g in gaps)
