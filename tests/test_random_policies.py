"""The random players at engine speed keep the old policies' meaning:
every draw is legal (Hypothesis playouts through the full ``Match``), and the draws cover
the whole legal move space, uniformly enough that every legal move turns up."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.core.clock import ManualClock
from arena.core.match import Match, MatchSettings
from arena.games.boxes import randomplay as boxes_random
from arena.games.boxes.conditions import NO_USAGE, add_usage, over_limit
from arena.games.feather import bot as feather_bot
from arena.games.feather import randomplay as feather_random
from arena.games.feather.match import GAME as FEATHER
from playouts import random_playout


def playout(name: str, seed: int) -> int:
    """A whole match of random submissions; each must be accepted (G-6). Returns decisions."""
    return random_playout(name, seed)[1]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["boxes", "feather", "lockmaker"]), st.integers(0, 10_000))
def test_random_playouts_are_always_legal(name: str, seed: int) -> None:
    assert playout(name, seed) > 0


def test_boxes_random_bets_cover_every_allowed_condition() -> None:
    """BX-3: every condition the usage allows is drawn, and none it forbids."""
    usage = NO_USAGE
    for cond in boxes_random.CONDITIONS[:30]:  # a used-up match: many traits spent
        if not over_limit(add_usage(usage, cond)):
            usage = add_usage(usage, cond)
    allowed = {c for c in boxes_random.CONDITIONS if not over_limit(add_usage(usage, c))}
    rng = random.Random(3)
    seen: Counter[object] = Counter()
    for _ in range(3000):
        bets = boxes_random.random_bets(Fraction(5), usage, rng)
        after = usage
        for b in bets:
            after = add_usage(after, b.condition)
        assert not over_limit(after), bets
        assert len({b.condition for b in bets}) == len(bets)
        seen.update(b.condition for b in bets)
    assert set(seen) == allowed


def test_feather_random_actions_cover_the_legal_set() -> None:
    """LF-4, LF-6, LF-9: draws are legal and reach every action ``legal_actions`` lists."""
    clock = ManualClock(0.0)
    match = Match(FEATHER, FEATHER.default_config(), 5, clock, MatchSettings())
    rng = random.Random(2)
    checked = 0
    while not match.finished and checked < 40:
        state = match.state
        if state.stage == "tick":
            legal = {str(a) for a in feather_bot.legal_actions(state.session, state.board, 0)}
            drawn = {feather_random.random_legal(state.session, state.board, 0, rng)
                     for _ in range(40 * len(legal))}
            assert drawn == legal
            checked += 1
        for seat in sorted(match.waiting_for()):
            text = FEATHER.random_submission(state, seat, rng)
            if text is not None:
                match.submit(seat, text, final=True)
        when = match.next_deadline()
        assert when is not None
        clock.set(max(clock.now(), when))
        match.advance()
    assert checked == 40
