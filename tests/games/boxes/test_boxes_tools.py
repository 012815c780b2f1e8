"""The odds helper, the bots, the renderer and the ``arena boxes`` command."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from arena.cli import main
from arena.core.driver import simulate
from arena.core.errors import RuleError
from arena.core.game import SubmitContext
from arena.games.boxes import GAME
from arena.games.boxes import bot as botmod
from arena.games.boxes.bets import parse_bets
from arena.games.boxes.board import parse_board, parse_cell
from arena.games.boxes.conditions import parse_condition
from arena.games.boxes.deck import default_deck
from arena.games.boxes.match import BoxesGame
from arena.games.boxes.odds import condition_odds, roles_for_round
from arena.games.boxes.render import render_boards
from arena.games.boxes.state import BoxesState
from games.boxes.boxes_helpers import BOARD, at_round1, new_state, step

D4 = parse_cell("D4")


def odds(cards: list[int], condition: str, roles: tuple[str, ...]) -> tuple[float, float]:
    deck = default_deck()
    o = condition_odds(parse_board(BOARD), D4, [deck.card(n) for n in cards],
                       parse_condition(condition).matches, roles)
    return o.expected, o.p_any


def test_odds_worked_examples() -> None:
    # Card 1 (A, 1 Orthogonal) from D4: D3 2w, D5 4w, C4 3w, E4 1w.
    assert odds([1], "white", ("random",)) == (1.0, 1.0)
    assert odds([1], "black", ("random",)) == (0.0, 0.0)
    assert odds([1], "2", ("random",)) == (0.25, 0.25)
    assert odds([1], "2", ("self",)) == (1.0, 1.0)
    assert odds([1], "2", ("opp",)) == (0.0, 0.0)
    # Two copies, two random rounds: round 1 hits 2 from D4 with 1/4 (D3); round 2 from D5
    # or C4 reaches C5 (2b) with 1/4 each, from D3 or E4 never: 1/4 + 1/8.
    e, p = odds([1, 1], "2", ("random", "random"))
    assert e == pytest.approx(0.375) and p == pytest.approx(0.375)
    # Adversarial: the opponent moves first to E4 (1w), from where no 2 is one step away.
    assert odds([1, 1], "2", ("opp", "self")) == (0.0, 0.0)
    assert roles_for_round(1) == ("opp", "self", "opp", "self")
    assert roles_for_round(4) == ("self",)


def test_bot_bets_are_legal_and_its_last_pick_maximises_its_landings() -> None:
    state = at_round1((1, 2, 3, 4, 5, 6, 7, 8), bets=("2: 5; 6: 1; 7: 1", "black: 1; 6: 1; 7: 1"))
    state = replace(state, round=4, hand=(1, 2, 3))
    pick = botmod.decide(state, 0, random.Random(1))
    # Card 1 U lands D3 (2w), card 3 R lands G4 (2w): both pay; card 2 reaches no 2.
    assert pick in ("1 U", "3 R")
    bets_state = new_state()
    bets_state, _ = step(bets_state, {0: "ready", 1: "ready"})
    bets_state, _ = step(bets_state, {})
    text = botmod.decide(bets_state, 1, random.Random(3))
    assert text is not None
    assert len(parse_bets(text, bets_state.points[1], bets_state.usage[1])) == 3


def test_bot_on_the_opponents_box_prefers_few_landings() -> None:
    state = at_round1((8, 21, 1, 2, 3, 4, 5, 6))
    state = replace(state, round=3, hand=(8, 1, 2, 2))
    pick = botmod.decide(state, 0, random.Random(1))
    assert pick is not None and pick.split()[0] in ("1", "2")  # A cards, not 3 B landings


class Mixed(BoxesGame):
    def bot(self, state: BoxesState, seat: int, rng: random.Random) -> str | None:
        return botmod.decide(state, 0, rng) if seat == 0 else botmod.random_legal(state, seat, rng)


def test_bot_beats_the_random_bot_on_seeded_matches() -> None:
    wins = 0
    for seed in (1, 2, 3):
        match = simulate(Mixed(), seed)
        assert match.result is not None
        wins += match.result.winner == 0
    assert wins >= 2


def test_random_submissions_are_legal() -> None:
    state = at_round1((1, 2, 3, 4, 5, 6, 7, 8))
    rng = random.Random(4)
    for _ in range(20):
        text = botmod.random_legal(state, 0, rng)
        assert text is not None
        GAME.validate(state, 0, text, SubmitContext(at=0.0))


def test_render_shows_both_boards_boxes_and_last_landings() -> None:
    state = at_round1((8, 12, 1, 2, 3, 4, 5, 6))
    state, _ = step(state, {0: "12 L", 1: "8 U"})
    svg = render_boards(state)
    assert svg.count("<rect") >= 98 + 1 and svg.count('class="box"') == 2
    assert svg.count('class="landed"') == 3 + 2  # B: 3 tiles on board A; C: 2 on board B
    assert "Board A" in svg and "Board B" in svg


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_odds_moves_board_deck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "board.txt"
    board.write_text(BOARD)
    code, out, _ = run(["boxes", "odds", "--board", str(board), "--box", "D4", "--cards", "1",
                        "--condition", "2", "--model", "random", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["expected"] == 0.25 and data["p_at_least_one"] == 0.25
    code, out, _ = run(["boxes", "odds", "--board", str(board), "--cards", "1,5,17",
                        "--condition", "black and 2", "--json"], capsys)
    assert code == 0 and json.loads(out)["roles"] == ["opp", "self", "opp", "self"]
    code, _, err = run(["boxes", "odds", "--board", str(board), "--cards", "1,99",
                        "--condition", "black"], capsys)
    assert code == 2 and "BX-10" in err
    code, _, err = run(["boxes", "odds", "--board", str(board), "--cards", "1",
                        "--condition", "black or white"], capsys)
    assert code == 2 and "BX-3" in err
    code, out, _ = run(["boxes", "moves", "--card", "38", "--box", "A4", "--json"], capsys)
    assert code == 0 and len(json.loads(out)["moves"]) == 4
    code, out, _ = run(["boxes", "board", "--seed", "2"], capsys)
    assert code == 0 and len(parse_board(out)) == 49
    bad = tmp_path / "deck.toml"
    bad.write_text("[[card]]\nnumber = 7\ntype = 'Z'\nmove = '1 Orthogonal'\n")
    code, _, err = run(["boxes", "deck", str(bad)], capsys)
    assert code == 2 and "card 7" in err
    code, out, _ = run(["boxes", "deck", "--json"], capsys)
    assert code == 0 and json.loads(out)["pile"] == 56


@pytest.mark.parametrize(("cards", "rule", "words"), [
    ([99], "BX-10", "no card 99"),
    ([1, 1, 1], "BX-10", "2 time(s), not 3"),
    ([19, 19], "BX-10", "1 time(s), not 2"),
    ([1, 2, 3, 4, 5, 6, 7, 8, 9], "BX-6", "8 cards"),
])
def test_odds_refuse_hands_that_cannot_exist(cards: list[int], rule: str, words: str) -> None:
    from arena.games.boxes.deck import default_deck
    from arena.games.boxes.odds import check_hand

    with pytest.raises(RuleError) as err:
        check_hand(default_deck(), cards)
    assert err.value.rule == rule and words in str(err.value)
    assert [c.number for c in check_hand(default_deck(), [1, 1, 19, 2])] == [1, 1, 19, 2]
