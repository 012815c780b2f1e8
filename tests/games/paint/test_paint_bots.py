"""The bots: legal decisions, a sensible evaluation, valid designs, the benchmark players."""

from __future__ import annotations

import itertools
import math
import random

from arena.games.paint.bot import HARD
from arena.games.paint.designer import (
    DEFAULT_DESIGN,
    HARD_DESIGNS,
    design_for,
    mutate,
    recolour,
    search_design,
)
from arena.games.paint.episode import play_episode
from arena.games.paint.grid import EMPTY_GRID, legal_actions, parse_grid, place
from arena.games.paint.planner import (
    DEFAULT_WEIGHTS,
    LEGACY_WEIGHTS,
    BeamClairvoyant,
    Planner,
    colour_odds,
    evaluate,
)
from arena.games.paint.players import GreedyPlayer, Situation
from arena.games.paint.scoring import score_grid, score_value
from arena.games.paint.sets import is_valid


def test_evaluation_prefers_pairs_to_walled_in_singles_and_avoids_loops() -> None:
    pair = parse_grid("RR...\n.....\n.....\n.....\n.....")
    apart = parse_grid("R.R..\n.....\n.....\n.....\n.....")
    assert evaluate(pair) > evaluate(apart)
    walled = parse_grid("RG...\nG....\n.....\n.....\n.....")
    free = parse_grid(".GR..\nG....\n.....\n.....\n.....")
    assert evaluate(free) > evaluate(walled)
    square = parse_grid("RRG..\nRRB..\n.....\n.....\n.....")
    line = parse_grid("RRRRG\n..B..\n.....\n.....\n.....")
    assert evaluate(line) > evaluate(square)


def test_evaluation_prefers_threes_to_pairs_of_the_same_containers() -> None:
    # 3 x 3 beats 2 x 2 x 2 (PF-7): the bias that stopped grids at 7,776 where 8,748 was open
    threes = parse_grid("RRR..\n.....\nRRR..\n.....\n.....")
    pairs = parse_grid("RR.RR\n.....\nRR...\n.....\n.....")
    assert evaluate(threes) > evaluate(pairs)
    # ... and an open pair beats the same two containers kept apart, both still open
    for weights in (DEFAULT_WEIGHTS, LEGACY_WEIGHTS):
        assert 2 * weights.single_open < math.log(2) + weights.open_pair
        pair = parse_grid(".....\n.RR..\n.....\n.....\n.....")
        apart = parse_grid(".....\n.R.R.\n.....\n.....\n.....")
        assert evaluate(pair, weights) > evaluate(apart, weights)


def test_colour_odds_follow_unused_seen_sets() -> None:
    s = Situation(EMPTY_GRID, seen=("RRGB", "RGBR", "GBRG"), used=("GBRG",))
    odds = colour_odds(s)
    assert abs(sum(odds.values()) - 1) < 1e-9 and odds["R"] > odds["G"]


def test_planner_decisions_are_legal() -> None:
    grid = place(parse_grid(".G...\n.BR..\n.....\n.....\n....."), "R")
    planner = Planner(beam=3)
    action = planner.shove(Situation(grid, queue="GB", seen=("RGBR",), used=("RGBR",)))
    assert action in {a for a, _ in legal_actions(grid)}
    assert planner.pick(Situation(EMPTY_GRID, shown=("RGBR", "GBRG", "BRGB"))) in (0, 1, 2)


def test_planner_beats_greedy_on_a_fixed_sample() -> None:
    rng = random.Random(4)
    games = [(design_for(rng), rng.randrange(2**31)) for _ in range(3)]
    planner = sum(score_value(play_episode(Planner(samples=1, width=6), s, seed).grid)
                  for s, seed in games)
    greedy = sum(score_value(play_episode(GreedyPlayer(), s, seed).grid) for s, seed in games)
    assert planner > greedy


def test_clairvoyant_fills_the_grid() -> None:
    grid = BeamClairvoyant(width=4).play(DEFAULT_DESIGN, 3)
    assert "." not in grid and score_grid(grid).score >= 1


def test_design_bot_stays_within_pf4() -> None:
    rng = random.Random(1)
    for design in HARD_DESIGNS:
        assert is_valid(design)
    for _ in range(20):
        assert is_valid(design_for(rng))
        assert is_valid(mutate(DEFAULT_DESIGN, rng))
    assert recolour(("RGBR",), "GBR") == ("GBRG",)
    design, value = search_design(random.Random(2), GreedyPlayer(), steps=2, episodes=1)
    assert is_valid(design) and value > 0


def test_the_next_showing_is_drawn_as_pf5_draws_it() -> None:
    """PF-5: the second showing holds none of the first's sets, so the hard planner draws it
    from the five unseen sets alone; later showings come from the unused sets, seen or not
    (an unseen one is None: the seat does not know it)."""
    first = ("RGBR", "GBRG", "BRGB")
    s1 = Situation(EMPTY_GRID, queue="GBR", seen=first, used=("RGBR",), showings_left=5)
    assert HARD._pool(s1) == [None] * 5
    seen = (*first, "RBGR", "GRBG", "BGRB")
    s3 = Situation(EMPTY_GRID, seen=seen, used=("RGBR", "RBGR"), showings_left=4)
    assert HARD._pool(s3, exclude="GBRG") == ["BRGB", "GRBG", "BGRB", None, None]


def test_once_every_set_left_is_known_the_futures_are_the_showings_pf5_allows() -> None:
    """PF-5: with two showings left and four unused sets, all seen, the next showing is one
    of the four triples of them and the last is the three left after its pick; the hard
    planner takes each once (none repeated, none missed) and follows each set to the end.
    With one showing left there is one future: the three sets left."""
    seen = ("RGBR", "GBRG", "BRGB", "RBGR", "GRBG", "BGRB", "RRGB", "GGBR")
    used = seen[:4]
    s = Situation(EMPTY_GRID, seen=seen, used=used, showings_left=2)
    rng = random.Random(0)
    futures = HARD._scenarios(s, rng, "")
    left = set(seen[4:])
    assert sorted(tuple(sorted(x for x, _ in f)) for f in futures) == sorted(
        tuple(sorted(c)) for c in itertools.combinations(left, 3))
    for future in futures:
        for picked, after in future:
            assert {y for y, _ in after} == left - {picked}
            assert all(not rest for _, rest in after)  # nothing after the last showing
    last = Situation(EMPTY_GRID, seen=seen, used=seen[:5], showings_left=1)
    assert HARD._scenarios(last, rng, "") == [tuple((x, ()) for x in seen[5:])]
    # an unseen set left: the showings are sampled, each set followed by a sampled one
    unseen = Situation(EMPTY_GRID, seen=seen[:7], used=used, showings_left=2)
    sampled = HARD._scenarios(unseen, random.Random(1), "")
    assert len(sampled) == HARD.samples
    for future in sampled:
        assert len(future) == 3 and all(len(after) == 3 for _, after in future)


def test_three_showings_left_looks_two_showings_ahead() -> None:
    """Three showings left: each sampled set is followed by a sampled showing of the sets
    left after it (PF-5: a set picked is not shown again), so a pick that spoils the showing
    after the next is seen to; earlier, one showing ahead."""
    seen = ("RGBR", "GBRG", "BRGB", "RBGR", "GRBG", "BGRB", "RRGB", "GGBR")
    s = Situation(EMPTY_GRID, seen=seen, used=seen[:3], showings_left=3)
    for future in HARD._scenarios(s, random.Random(2), ""):
        assert len(future) == 3 and len({x for x, _ in future}) == 3
        for picked, after in future:
            assert len(after) == 3 and picked not in {y for y, _ in after}
            assert set(y for y, _ in after) <= set(seen[3:])
    early = Situation(EMPTY_GRID, seen=seen, used=seen[:2], showings_left=4)
    for future in HARD._scenarios(early, random.Random(2), ""):
        assert all(not after for _, after in future)


def test_hard_decisions_depend_on_the_situation_alone() -> None:
    """G-7: a warm planner (its memo filled by earlier decisions) and fresh ones with the
    same settings decide alike over the first two sets of an episode, and every decision
    is legal (PF-3, PF-5); the rest of the episode is played at random, for speed."""
    sets, seed = design_for(random.Random(9)), 11
    rng = random.Random(1)

    def fresh() -> Planner:
        return Planner(samples=HARD.samples, width=HARD.width, budget=None, faithful=True,
                       pick_futures=True, exact_end=HARD.exact_end, deep_from=HARD.deep_from)

    class Both:
        def __init__(self) -> None:
            self.fresh = fresh()
            self.checked = 0

        def shove(self, s: Situation):  # type: ignore[no-untyped-def]
            if self.checked >= 10:
                return rng.choice(legal_actions(s.grid))[0]
            a = HARD.shove(s)
            assert a == self.fresh.shove(s)
            if self.checked % 4 == 0:
                assert a == fresh().shove(s)  # an empty memo
            assert a in {x for x, _ in legal_actions(s.grid)}
            self.checked += 1
            return a

        def pick(self, s: Situation) -> int:
            if self.checked >= 10:
                return 0
            i = HARD.pick(s)
            assert i == self.fresh.pick(s) == fresh().pick(s) and 0 <= i < len(s.shown)
            self.checked += 1
            return i

        def last(self, grid: str) -> str:
            return HARD.last(grid)

    both = Both()
    played = play_episode(both, sets, seed)
    assert both.checked == 10 and "." not in played.grid
