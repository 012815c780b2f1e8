"""The notation checker finds every form of the game's notation (from ``str()`` of random legal
moves and the help's forms) and nothing in the plain sentences the log says."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.game import SubmitContext
from arena.core.moves import Word
from arena.games.boxes import GAME
from arena.games.boxes.board import cell_name
from arena.games.boxes.movement import movements
from arena.games.boxes.randomplay import random_legal
from arena.games.boxes.state import BET, OVER, PICK
from games.boxes.boxes_helpers import new_state, step
from games.boxes.boxes_notation import notation_in


def _notations(seed: int) -> list[str]:
    """``str()`` of the random legal bets and picks of a whole match, plus the other forms
    a pick may take (by its path, by its destination)."""
    state = new_state(seed, bouts=2)
    rng = random.Random(seed)
    out: list[str] = []
    while state.stage != OVER:
        spec = GAME.phase(state)
        assert spec is not None
        texts = {s: random_legal(state, s, rng) or "" for s in sorted(spec.actors)}
        for s, text in texts.items():
            move = GAME.validate(state, s, text, SubmitContext(at=0.0))
            if state.stage in (BET, PICK) and not isinstance(move, Word) and str(move) != "none":
                out.append(str(move))
            if state.stage == PICK and not isinstance(move, Word):
                m = move.movement  # type: ignore[union-attr]
                out.append(f"{m.card} path {m.path_text()}")
                out.append(f"{m.card} to {cell_name(m.final)}")
        state, _ = step(state, texts)
    return out


@settings(deadline=None, max_examples=5)
@given(seed=st.integers(0, 10**6))
def test_every_legal_move_of_a_random_match_is_found(seed: int) -> None:
    texts = _notations(seed)
    assert texts
    for text in texts:
        assert notation_in(text) is not None, text
        assert notation_in(f"Alice sent {text} just now.") is not None, text


def test_every_card_face_and_leg_is_found() -> None:
    state = new_state(1)
    for card in state.deck.cards:
        assert notation_in(f"card {card.number} ({card.move})") is not None, card.move
        for m in movements(card, 24)[:4]:
            for leg in m.legs:
                assert notation_in(f"the box moved ({leg}) today") == leg


@pytest.mark.parametrize("text", [
    "card 8 (D)", "(L2D1 D1L2)", "cards #1, #2 and #5", "D3 (2w)", "black and 2: 3; 6: 1",
    "7 or 9: 2", "2 Orthogonal", "1+1 Knightwise", "D4 → D3 → D2", "17 path D4-E4-F4",
    "3 to D1", "14 U L", "36 R2D1 U1L2",
])
def test_old_log_notation_is_found(text: str) -> None:
    assert notation_in(text) is not None


@pytest.mark.parametrize("text", [
    "The match begins.",
    "Both seats study the boards before bout 1; the cards come next.",
    "Bout 2 begins: each seat gets 3 points, Alice has 23 points and You have 26 points. "
    "Its cards are 1, 5, 8 and 17.",
    "Betting opens for bout 1: each seat bets on three different conditions (BX-4).",
    "Bob bet 2 on black, 1 on number 6 and 3 on number 7 or 9 in bout 1.",
    "You bet 3 on black and number 2, 1 on white or number 4 and 1 on number 0 in bout 2.",
    "Round 1 of bout 1 begins: your card moves your opponent's box (BX-6).",
    "Round 1 of bout 1: You played card 8 on board B, moving the box down three squares "
    "from D4 to D7, landing on a white 2 at D5, a black 8 at D6 and a white 5 at D7; Bob "
    "played card 17 on board A, moving the box a knight's jump, two right then one down from "
    "D4 to F5, landing on a black 0 at E4; Alice moved no box on board A this round.",
    "You sent card 14 for board A, moving the box up one square, then left one square from "
    "D4 to C3.",
    "You sent bets of 3 on black and number 2, 1 on number 6 and 2 on number 7 or 9.",
    "You sent a pass, as no card could move the box.",
    "Bout 1 is settled (BX-5). Alice: 5 on black landed four times and paid 40 points; 1 on "
    "number 0 landed once and paid 2 points; 2 on number 7 or 9 never landed and paid "
    "nothing. Bob: no bets. Points now: Alice 54 and Bob 20.5.",
    "Time is up for round 3 of bout 2.", "You are ready.", "Match over: Alice wins.",
    "The host turned odds helper for the players on.",
])
def test_plain_sentences_hold_no_notation(text: str) -> None:
    assert notation_in(text) is None
