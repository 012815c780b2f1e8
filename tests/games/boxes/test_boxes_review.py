"""The post-match review of Boxes: every bet and pick judged in expected points against the
expectimax (the seat's rounds its choice, the other seat's the deck's odds)."""

from __future__ import annotations

import random

import numpy as np

from arena.core.driver import simulate
from arena.core.registry import get_game
from arena.core.review import judge
from arena.games.boxes import bot
from arena.games.boxes.expectimax import Expectimax
from arena.games.boxes.odds import KINDS, Search, codes
from arena.games.boxes.review import own_pick_values
from arena.games.boxes.state import PICK
from games.boxes.boxes_helpers import at_bets

SHORT = {"bouts": 2}


def test_the_review_is_sound_and_links_each_decision_to_its_resolution() -> None:
    game = get_game("boxes")
    match = simulate(game, 3, game.make_config({"bouts": 1}))
    js = judge(match)
    resolved = {n for n, e in enumerate(match.log, 1) if e.kind == "phase_resolved"}
    assert js
    for j in js:
        assert j.cost >= 0 and j.value <= j.best
        assert j.cost == j.best - j.value
        assert j.version in resolved
        assert j.unit == "expected points"
        assert j.did and j.better
        assert j.exact == ("round" in j.phase)  # bets are searched among candidates
        assert j.public == ("round" in j.phase)  # bets are sealed (BX-13)
        assert " R2D1" not in j.did and "->" not in j.did  # words, not notation
    assert {j.seat for j in js} == {0, 1}
    assert [j.to_json() for j in judge(match)] == [j.to_json() for j in js]  # deterministic


def test_easy_gives_away_more_than_hard() -> None:
    """Over a couple of matches of an easy seat against a hard one, the easy seat's
    decisions cost it more expected points, for every point at stake, than hard's do."""
    game = get_game("boxes")
    for seed in (1, 2):
        match = simulate(game, seed, game.make_config(SHORT), levels={0: "easy"})
        js = judge(match)
        share = [sum(j.cost for j in js if j.seat == s)
                 / max(1e-9, sum(abs(j.best) for j in js if j.seat == s)) for s in (0, 1)]
        assert share[0] > share[1], (seed, share)


def test_the_columnwise_search_is_the_scalar_one() -> None:
    """Each column of the many-weightings search equals the odds module's search with that
    weighting and those roles, float for float up to rounding."""
    state = at_bets(5)
    cards = {n: state.card(n) for n in state.hand}
    rng = random.Random(5)
    ws = [[rng.choice((0.0, 0.0, 1.0, 2.5)) for _ in KINDS] for _ in range(3)]
    roles = [("random", "max", "random"), ("max", "random", "max"), ("min", "random", "min")]
    names = {"max": "self", "min": "opp", "random": "random"}
    many = Expectimax(cards, np.array(ws), roles)
    got = many.value(bytes(codes(state.boards[0])), state.boxes[0], tuple(sorted(state.hand)))
    for col, (w, r) in enumerate(zip(ws, roles, strict=True)):
        one = Search(cards, lambda t, w=w: w[KINDS.index(t)], [names[x] for x in r])
        e, _ = one.value(codes(state.boards[0]), state.boxes[0], tuple(sorted(state.hand)))
        assert abs(got[col] - e) < 1e-9 * max(1.0, abs(e))


def test_the_hard_bot_takes_the_expectimax_pick_on_its_own_box() -> None:
    """G-8: on its own box the hard bot's pick is worth what the yardstick's best is."""
    game = get_game("boxes")
    match = simulate(game, 11, game.make_config(SHORT))
    checked = 0
    for step_state in (e for e in _pick_states(match)):
        state, seat = step_state
        values = own_pick_values(state, seat)
        pick = bot.choose_pick(state, seat, random.Random(0))
        assert abs(values[pick] - max(values.values())) <= 1e-9 * max(1.0, max(values.values()))
        checked += 1
    assert checked >= 2


def _pick_states(match: object) -> list[tuple[object, int]]:
    from arena.core.review import steps

    out = []
    for step in steps(match):
        s = step.before
        if s.stage == PICK and s.round % 2 == 0:
            out += [(s, seat) for seat in (0, 1) if s.bets[seat]]
    return out
