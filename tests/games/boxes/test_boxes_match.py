"""The match flow, ruling by ruling (BX-1, BX-2, BX-6, BX-7, BX-9, BX-11 to BX-13)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from fractions import Fraction

import pytest

from arena.core.driver import simulate
from arena.core.errors import RuleError
from arena.core.game import SubmitContext
from arena.games.boxes import GAME
from arena.games.boxes.board import Tile, parse_board, parse_cell
from arena.games.boxes.conditions import LIMIT, TRAITS
from arena.games.boxes.match import final_result
from arena.games.boxes.state import BET, PICK, STUDY_CARDS
from games.boxes.boxes_helpers import BOARD, at_bets, at_round1, new_state, step

CTX = SubmitContext(at=1.0)


def test_bx1_two_identical_boards_boxes_on_d4_nothing_landed() -> None:
    state = new_state()
    assert state.boards[0] == state.boards[1] == parse_board(BOARD)
    assert state.boxes == (parse_cell("D4"), parse_cell("D4"))
    assert state.landed == ((), ())
    drawn = GAME.initial_state(GAME.default_config(), random.Random(9))
    assert drawn.boards[0] == drawn.boards[1]


def test_bx2_points_start_at_20_and_get_3_from_bout_2() -> None:
    state = new_state()
    assert state.points == (20, 20)
    state, events = step(state, {0: "ready", 1: "ready"})
    assert state.bout == 1 and state.points == (20, 20) and state.stage == STUDY_CARDS
    assert events[0].kind == "bout_started" and events[0].data["bonus"] == 0
    state = replace(state, round=4, stage=PICK)
    state, events = step(state, {s: GAME.bot(state, s, random.Random(1)) or "" for s in (0, 1)})
    assert state.bout == 2 and state.points == (23, 23)
    assert [e.kind for e in events][-1] == "bout_started" and events[-1].data["bonus"] == 3


def test_bx10_each_bout_draws_8_of_the_56_cards_from_the_seed() -> None:
    a, b = new_state(seed=3), new_state(seed=3)
    assert a.order == b.order and a.order != new_state(seed=4).order
    assert sorted(a.order) == sorted(a.deck.pile())
    state, _ = step(a, {0: "ready", 1: "ready"})
    assert state.hand == a.order[:8]


def test_bx6_round_1_moves_the_opponents_box_round_2_your_own() -> None:
    state = at_round1((1, 2, 3, 4, 5, 6, 7, 8))
    assert state.stage == PICK and state.round == 1
    state, events = step(state, {0: "1 U", 1: "2 D"})
    assert state.boxes == (parse_cell("D6"), parse_cell("D3"))  # A moved by seat 2, B by 1
    assert 1 not in state.hand and 2 not in state.hand
    plays = events[0].data["plays"]
    assert plays[0]["board"] == "B" and plays[1]["board"] == "A"
    state, _ = step(state, {0: "3 L", 1: "4 UR"})
    assert state.boxes == (parse_cell("A6"), parse_cell("E2"))


def test_bx6_same_card_is_played_twice_and_removed_once() -> None:
    state = at_round1((19, 20, 21, 22, 23, 24, 25, 26))
    state, events = step(state, {0: "19 U R", 1: "19 D L"})
    assert state.hand == (20, 21, 22, 23, 24, 25, 26)
    # Seat 1 moves board B: D4 -U1-> D3 -R2-> F3; seat 2 moves board A: D4 -D1-> D5 -L2-> B5.
    assert state.boxes == (parse_cell("B5"), parse_cell("F3"))
    assert [p["card"] for p in events[0].data["plays"]] == [19, 19]
    assert [x["cell"] for x in events[0].data["plays"][0]["landed"]] == ["D3", "F3"]


def test_bx6_two_copies_named_by_both_are_both_used() -> None:
    state = at_round1((1, 1, 2, 3, 4, 5, 6, 7))
    state, _ = step(state, {0: "1 U", 1: "1 U"})
    assert state.hand == (2, 3, 4, 5, 6, 7)


def test_bx6_a_card_not_in_hand_is_refused() -> None:
    state = at_round1((1, 2, 3, 4, 5, 6, 7, 8))
    with pytest.raises(RuleError, match="BX-6"):
        GAME.validate(state, 0, "9 U", CTX)
    with pytest.raises(RuleError, match="BX-6"):
        GAME.validate(state, 0, "U", CTX)


def test_bx7_pass_only_without_any_legal_movement() -> None:
    state = at_round1((1, 21, 22, 2, 3, 4, 5, 6))
    with pytest.raises(RuleError, match="BX-7"):
        GAME.validate(state, 0, "pass", CTX)
    stuck = replace(state, hand=(21, 22))  # 4 Orthogonal cannot move from D4
    assert str(GAME.validate(stuck, 0, "pass", CTX)) == "pass"
    after, events = step(stuck, {0: "pass", 1: "pass"})
    assert after.boxes == stuck.boxes and after.hand == (21, 22)
    assert events[0].data["plays"][0]["card"] is None and events[0].data["plays"][0]["legs"] == []


def test_bx9_traits_read_on_landing_specials_after_and_carried_over() -> None:
    # Card 29 (B, 2 Orthogonal, Increase 2) on board B from D4 up: D3 (2w), D2 (8b).
    state = at_round1((29, 30, 3, 4, 5, 6, 7, 8))
    state, _ = step(state, {0: "29 U", 1: "30 D"})
    assert state.landed[1] == (Tile(2, False), Tile(8, True))  # read before the increase
    assert state.boards[1][parse_cell("D3")] == Tile(4, False)
    assert state.boards[1][parse_cell("D2")] == Tile(0, True)  # 8 + 2 modulo 10
    # Card 30 (Decrease 1) on board A from D4 down: D5 4w -> 3w, D6 3b -> 2b.
    assert state.landed[0] == (Tile(4, False), Tile(3, True))
    assert state.boards[0][parse_cell("D5")] == Tile(3, False)
    assert state.boards[0][parse_cell("D6")] == Tile(2, True)
    assert state.boards[0][parse_cell("D3")] == Tile(2, False)  # boards change apart
    state, _ = step(state, {0: "3 U", 1: "4 DR"})   # A: D6 -> D3; B: D2 -> E3
    state, _ = step(state, {0: "5 DL", 1: "6 L"})   # B: E3 -> C5; A: D3 -> C3
    state, _ = step(state, {0: "7 U", 1: "8 U"})    # A: C3 -> C1; B: C5 -> C2
    assert state.bout == 2 and state.stage == STUDY_CARDS
    assert state.boxes == (parse_cell("C1"), parse_cell("C2"))  # positions carry over
    assert state.boards[1][parse_cell("D3")] == Tile(4, False)  # changes persist
    assert state.boards[0][parse_cell("D5")] == Tile(3, False)


def test_bx5_bx13_bets_sealed_then_revealed_and_paid() -> None:
    state = at_bets(hand=(8, 12, 1, 2, 3, 4, 5, 6))
    state, events = step(state, {0: "black: 5; 0: 1; 7 or 9: 2", 1: "white: 3; 8: 1; 2: 1"})
    assert state.stage == PICK
    private = [e for e in events if e.kind == "your_bets"]
    assert [e.to for e in private] == [frozenset({0}), frozenset({1})]
    view1 = json.dumps(GAME.view(state, 1))
    fact0 = GAME.private_facts(state, 0)[0]
    assert fact0 in json.dumps(GAME.view(state, 0)) and fact0 not in view1
    assert fact0 not in json.dumps(GAME.view(state, None))
    # Round 1: seat 2 plays card 8 (B, 3 Orthogonal) up on board A: D3 2w, D2 8b, D1 5w.
    state, events = step(state, {0: "12 L", 1: "8 U"})
    assert events[0].to is None  # the landings of a round are public at its end (BX-13)
    assert [x["tile"] for x in events[0].data["plays"][1]["landed"]] == [
        {"number": 2, "colour": "white"}, {"number": 8, "colour": "black"},
        {"number": 5, "colour": "white"}]
    assert events[0].data["plays"][1]["legs"] == [{"dir": "U", "squares": 3}]
    assert "sealed" not in json.dumps(events[0].data)
    state, _ = step(state, {0: "1 D", 1: "2 D"})   # A: D1 -> D2 (8b); B: A4 -> A6
    state, _ = step(state, {0: "3 R", 1: "4 UL"})  # B: A6 -> D6; A: D2 -> C1 (0b)
    state, events = step(state, {0: "5 DR", 1: "6 U"})  # A: C1 -> E3 (6b); B: D6 -> D5
    settled = next(e for e in events if e.kind == "bout_settled").data
    # Board A (seat 1's) landed 2w, 8b, 5w, 8b, 0b, 6b: 'black' x4 pays 2*5*4 = 40,
    # '0' x1 pays 2, '7 or 9' misses; net 40 + 2 - 8 = 34.
    assert [b["hits"] for b in settled["bets"][0]] == [4, 1, 0]
    assert settled["points"][0] == 20 + 34
    assert state.points[0] == 54 + 3  # bout 2's bonus is already added
    assert GAME.view(state, 1)["bouts_done"][0]["bets"][0][0]["traits"] == ["black"]
    assert GAME.private_facts(state, 0) == []  # nothing sealed between bouts


def test_bx5_fractional_points() -> None:
    state = at_bets(hand=(8, 12, 1, 2, 3, 4, 5, 6))
    state, _ = step(state, {0: "8 or 5: 3; 1: 1; 2: 1", 1: "white: 3; 8: 1; 2: 1"})
    state, _ = step(state, {0: "12 L", 1: "8 U"})   # A lands 2w 8b 5w
    state, _ = step(state, {0: "1 L", 1: "2 D"})    # A: D1 -> C1 (0b)
    state, _ = step(state, {0: "3 R", 1: "4 DR"})   # A: C1 -> D2 (8b)
    state, _ = step(state, {0: "5 DR", 1: "6 U"})   # A: D2 -> F4 (7b)
    # '8 or 5' x3 pays 1.5 x 3 x 3 = 13.5; '2' x1 pays 2; stakes 5: 20 + 10.5.
    assert state.records[0].points[0] == Fraction(61, 2)
    state2 = at_bets(hand=(8, 12, 1, 2, 3, 4, 5, 6))
    state2, _ = step(state2, {0: "8 or 5: 1; 1: 1; 2: 1", 1: "white: 3; 8: 1; 2: 1"})
    for picks in ({0: "12 L", 1: "8 U"}, {0: "1 R", 1: "2 D"}, {0: "3 R", 1: "4 DL"},
                  {0: "5 DR", 1: "6 U"}):
        state2, _ = step(state2, picks)
    # A landed 2w 8b 5w, E1 9b, D2 8b, F4 7b: '8 or 5' x3 pays 4.5, '2' x1 pays 2:
    # 20 + 4.5 + 2 - 3 = 23.5
    assert state2.records[0].points[0] == Fraction(47, 2)
    assert GAME.view(state2, None)["bouts_done"][0]["bets"][0][0]["payout"] == 4.5


def test_bx11_more_points_then_best_bout_then_dmo() -> None:
    state = replace(new_state(), stage="over")
    win = replace(state, points=(Fraction(30), Fraction(29)))
    assert final_result(win).winner == 0
    tied = replace(state, points=(Fraction(30), Fraction(30)),
                   gains=((Fraction(5), Fraction(-2)), (Fraction(4), Fraction(1))))
    r = final_result(tied)
    assert r.winner == 0 and "single-bout" in r.reason
    level = replace(tied, gains=((Fraction(5),), (Fraction(5),)))
    assert final_result(level).winner == 1 and "DMO" in final_result(level).reason
    assert GAME.result(level) is not None and GAME.phase(level) is None


def test_bx12_phase_times_and_reserve() -> None:
    state = new_state()
    spec = GAME.phase(state)
    assert spec is not None and spec.duration == 120 and not spec.must and not spec.reserve
    state, _ = step(state, {0: "ready"})
    spec = GAME.phase(state)
    assert spec is not None and spec.duration == 120 and not spec.must
    state, _ = step(state, {})
    spec = GAME.phase(state)
    assert state.stage == BET and spec is not None
    assert spec.duration == 150 and spec.reserve and spec.must == {0, 1}
    state, _ = step(state, {0: "black: 1; 6: 1; 7: 1", 1: "white: 1; 6: 1; 7: 1"})
    spec = GAME.phase(state)
    assert spec is not None and spec.duration == 60 and spec.reserve and "opponent" in spec.prompt
    config = GAME.default_config()
    assert (config.reserve_periods, config.reserve_period) == (16, 30.0)
    with pytest.raises(RuleError, match="BX-12"):
        GAME.validate(new_state(), 0, "black: 1", CTX)


def test_whole_match_through_the_engine() -> None:
    match = simulate(GAME, 7, GAME.make_config({"board": BOARD}))
    assert match.result is not None and match.phase_no == GAME.max_phases(match.config)
    state = match.state
    assert len(state.records) == 7 and state.stage == "over"
    for usage in state.usage:  # the careful bot keeps within BX-3 too
        assert all(n <= LIMIT[t] for t, n in zip(TRAITS, usage, strict=True))
    assert match.result.scores == (float(state.points[0]), float(state.points[1]))
    svg = GAME.render_svg(state, None)
    assert svg is not None and svg.startswith("<svg") and svg.count('class="box"') == 2


def test_host_config_errors_name_the_rule() -> None:
    with pytest.raises(RuleError, match="BX-1"):
        new_state(board="1b 2b")
    with pytest.raises(RuleError, match="BX-10"):
        new_state(bouts=8)
    small = new_state(bouts=1)
    assert GAME.max_phases(small.config) == 7


def test_bx11_single_bout_gain_is_payouts_minus_stakes_without_the_three() -> None:
    """BX-11: the tiebreak's gain is what the bets paid minus what they staked in that bout;
    the +3 every seat gets at the start of bouts 2-7 (BX-2) is not part of it."""
    state = at_round1((29, 30, 3, 4, 5, 6, 7, 8))
    for texts in ({0: "29 U", 1: "30 D"}, {0: "3 U", 1: "4 DR"}, {0: "5 DL", 1: "6 L"},
                  {0: "7 U", 1: "8 U"}):
        state, _ = step(state, texts)
    assert state.bout == 2
    record = state.records[-1]
    for s in (0, 1):
        paid = sum((x.net for x in record.settled[s]), Fraction(0))
        assert state.gains[s] == (paid,)
        assert state.points[s] == 20 + paid + 3  # the +3 is in the points, not the gain


def test_lo12_odds_helper_host_always_seats_only_when_enabled() -> None:
    """LO-12 (the same as Locked Out!'s helper): in a live match the host sees the odds
    helper for both boxes; a seat sees it, for its own box only, when the host enabled it."""
    hand = (1, 2, 3, 4)
    off = at_bets(hand=hand)
    assert "odds" not in GAME.view(off, 0) and GAME.view(off, 0)["odds_helper"] is False
    assert "odds" not in GAME.view(off, None)
    host = GAME.host_view(off)
    assert set(host["odds"]) == {"A", "B"}
    on = at_bets(hand=hand, odds_helper=True)
    mine = GAME.view(on, 1)["odds"]
    assert set(mine) == {"B"} and set(mine["B"]) == set(TRAITS)
    assert mine["B"] == host["odds"]["B"]
    for odds in mine["B"].values():
        assert 0 <= odds["p_any"] <= 1 and odds["expected"] >= 0
    assert "odds" not in GAME.view(step(on, {0: "black: 1; 2: 1; 3: 1",
                                              1: "black: 1; 2: 1; 3: 1"})[0], 0)
