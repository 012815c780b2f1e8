"""G-15: a broadcast sees a match exactly as it stood one delay ago. ``Match.as_of(t)`` is
checked against the definition, over random whole matches of every game and random cut times:
its log is the live log's entries at or before ``t`` (every field), and its host view equals
that of a fresh replay of those entries' inputs run to ``t`` (the clock apart)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.clock import ManualClock
from arena.core.match import HOST, INPUT_KINDS, Match
from playouts import random_playout

GAMES = ["lockmaker", "boxes", "paint", "feather", "lockedout"]


def _without_clock(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "now"}


@pytest.mark.parametrize("game", GAMES)
def test_a_match_as_of_a_moment_is_its_log_cut_there(game: str) -> None:
    @settings(max_examples=5, deadline=None)
    @given(seed=st.integers(0, 2**16), where=st.floats(0.0, 1.0))
    def check(seed: int, where: float) -> None:
        match, _ = random_playout(game, seed)
        first, last = match.log[0].t, match.log[-1].t
        t = first + (last - first) * where
        cut = match.as_of(t)
        assert cut is not None
        expected = [e.to_json() for e in match.log if e.t <= t]
        assert [e.to_json() for e in cut.log] == expected
        inputs = [e for e in match.log if e.t <= t and e.kind in INPUT_KINDS]
        fresh = Match.replay(match.game, match.config, match.seed, match.settings,
                             match.created_at, inputs, ManualClock(t), until=t)
        assert [e.to_json() for e in fresh.log] == expected
        assert _without_clock(cut.view(HOST, svg=False)) == \
            _without_clock(fresh.view(HOST, svg=False))

    check()


def test_before_anything_was_logged_there_is_nothing_to_see() -> None:
    match, _ = random_playout("lockmaker", 1)
    assert match.as_of(match.log[0].t - 1.0) is None
