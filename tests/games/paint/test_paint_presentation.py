"""PF-5: six showings of three unused sets; the second avoids the first; drawn from the seed."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.paint.episode import showing_for
from arena.games.paint.presentation import SHOWINGS, showing


@settings(deadline=None, max_examples=100)
@given(st.integers(0, 2**31 - 1), st.lists(st.integers(0, 2), min_size=6, max_size=6))
def test_pf5_six_showings_never_repeat_used_sets(seed: int, choices: list[int]) -> None:
    rng = random.Random(seed)
    used: tuple[int, ...] = ()
    first: tuple[int, ...] = ()
    for number in range(1, SHOWINGS + 1):
        shown = showing(rng, number, used, first)
        assert len(shown) == 3 and len(set(shown)) == 3
        assert not set(shown) & set(used)
        if number == 1:
            first = shown
        if number == 2:
            assert not set(shown) & set(first)
        used = (*used, shown[choices[number - 1]])
    assert len(set(used)) == 6


def test_pf5_same_seed_same_showings_g7() -> None:
    a = showing(random.Random(5), 1, (), ())
    assert a == showing(random.Random(5), 1, (), ())
    assert showing_for(9, 3, (0, 1), (0, 2, 4)) == showing_for(9, 3, (0, 1), (0, 2, 4))
    # the last showing is exactly the three sets left
    assert showing(random.Random(1), 6, (0, 1, 2, 3, 4), (0, 1, 2)) == (5, 6, 7)
