"""Hypothesis properties: shoves conserve containers (PF-2), A1 is empty after every accepted
action and some action is always legal (PF-3), and the score ignores colour names (PF-7)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.paint.grid import (
    CANDIDATES,
    COLOURS,
    EMPTY,
    EMPTY_GRID,
    apply_action,
    legal_actions,
    place,
    shove,
    shove_error,
)
from arena.games.paint.scoring import score_grid

cells = st.sampled_from("RGB.")
grids = st.lists(cells, min_size=25, max_size=25).map("".join)
names = st.sampled_from(list("12345ABCDE"))


@settings(deadline=None, max_examples=300)
@given(grids, names)
def test_pf2_shove_conserves_containers(grid: str, name: str) -> None:
    if shove_error(grid, name) is None:
        after = shove(grid, name)
        assert Counter(after) == Counter(grid)
        assert after != grid


@settings(deadline=None, max_examples=60)
@given(st.lists(st.tuples(st.sampled_from(COLOURS), st.integers(0, 99)), min_size=24,
                max_size=24))
def test_pf3_a1_empty_after_every_action_and_an_action_always_exists(
        moves: list[tuple[str, int]]) -> None:
    grid = EMPTY_GRID
    for turn, (colour, choice) in enumerate(moves, start=1):
        grid = place(grid, colour)
        options = legal_actions(grid)
        assert options, f"no legal action on turn {turn}"
        action, after = options[choice % len(options)]
        assert after[0] == EMPTY and apply_action(grid, action) == after
        assert Counter(after) == Counter(grid)
        # every action not listed is rejected
        listed = {a for a, _ in options}
        for other in CANDIDATES:
            if other not in listed:
                try:
                    apply_action(grid, other)
                except ValueError:
                    continue
                raise AssertionError(f"{other} accepted but not listed")
        grid = after
    assert grid.count(EMPTY) == 1 and grid[0] == EMPTY


@settings(deadline=None, max_examples=200)
@given(st.lists(st.sampled_from(COLOURS), min_size=25, max_size=25).map("".join),
       st.permutations(COLOURS))
def test_pf7_score_invariant_under_recolouring(grid: str, perm: list[str]) -> None:
    table = str.maketrans(COLOURS, "".join(perm))
    a, b = score_grid(grid), score_grid(grid.translate(table))
    assert (a.score, a.non_connected) == (b.score, b.non_connected)
    assert sorted(c.length for c in a.chains) == sorted(c.length for c in b.chains)
