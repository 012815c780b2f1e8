"""The clairvoyant yardstick: its ceilings are bounds, it proves 8,748 where it reaches it, and
it scores at least the bots on the same sets and showings."""

from __future__ import annotations

import random

from arena.games.paint.bot import NORMAL
from arena.games.paint.designer import design_for
from arena.games.paint.episode import play_episode
from arena.games.paint.scoring import score_value
from arena.games.paint.yardstick import (
    CEILING,
    Yardstick,
    best_split,
    colour_bound,
    colour_ceiling,
    episode_oracle,
)

EXAMPLE = ("RRBG", "BBGR", "GGBR", "BRGB", "RGBR", "BGBR", "GRRB", "GBBR")
EXAMPLE_SEED = 859859908


def test_the_ceilings_are_the_best_splits() -> None:
    """PF-7: a product of chain lengths over 25 cells is at most 3^7 x 2^2; per colour, at
    most the best split of that colour's containers (a chain is one colour, PF-6)."""
    assert best_split(25) == CEILING == 3**7 * 2**2
    assert [best_split(n) for n in range(8)] == [1, 1, 2, 3, 4, 6, 9, 12]
    assert colour_bound((9, 8, 8)) == colour_bound((13, 6, 6)) == CEILING
    assert colour_bound((10, 10, 5)) == 36 * 36 * 6 == 7776  # two colours split badly
    assert colour_bound((17, 4, 4)) == 486 * 4 * 4 == 7776

def test_the_example_reaches_and_proves_the_ceiling() -> None:
    """The example of the bench's history (the hard bot of the time scored 6,912 on it): the
    yardstick's own search (no grid handed in) reaches 8,748 and so proves it best; no
    player scores more (the normal bot here, for speed)."""
    sol = Yardstick().solve(EXAMPLE, EXAMPLE_SEED)
    assert sol.score == score_value(sol.grid) == CEILING and sol.proven
    assert sol.source == "search" and sol.widths == (300,)
    assert "." not in sol.grid
    assert colour_ceiling(EXAMPLE, episode_oracle(EXAMPLE_SEED)) == CEILING
    bot = score_value(play_episode(NORMAL, EXAMPLE, EXAMPLE_SEED).grid)
    assert bot <= sol.score


def test_the_yardstick_scores_at_least_the_bot() -> None:
    """On a handful of designs the yardstick, handed the bot's grid, is never below it and
    never above its ceiling; a proven score is the ceiling (or the search was exhaustive)."""
    rng = random.Random(5)
    for _ in range(3):
        sets, seed = design_for(rng), rng.randrange(2**31)
        grid = play_episode(NORMAL, sets, seed).grid
        sol = Yardstick(widths=(60, 120)).solve(sets, seed, given=[grid])
        assert score_value(grid) <= sol.score == score_value(sol.grid) <= sol.ceiling
        assert sol.ceiling <= CEILING
        if sol.proven:
            assert sol.score == sol.ceiling
