"""The log-words checker for Lockmaker (``lockmaker_notation.notation_in``) finds the notation
of real moves, written as the game writes them (``str(move)`` of random legal submissions of
whole matches), and nothing in the sentences a host says of a match."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from arena.core.registry import get_game
from arena.games.lockmaker.submissions import Lock, Solve, Take
from arena.games.lockmaker.words import WHYS, Award, award_words, result_reason
from games.lockmaker.lockmaker_notation import notation_in
from playouts import random_steps

SENTENCES = [
    "Study time: the round's board and pool are shown, 1:30 to look at them (LM-13).",
    "Bob (the DMO) chose to draft second: you draft first (LM-13).",
    "Bob drafted two pieces: a horizontal bar of three cells and an axis.",
    "You drafted a vertical bar of two cells, then stopped drafting.",
    "The draft is over: you hold two horizontal bars of two cells and an axis; Bob holds "
    "nothing, besides the key and the keyhole (LM-22).",
    "You built a lock with the key, the keyhole, three bars and an axis on a board of 8 by 7 "
    "cells.",
    "Both locks are shown (LM-16): your is a lock with the key and the keyhole.",
    "Your solutions: number 1 in 5 moves at 12 s; number 2 in 4 moves at 1:05.",
    "Final solutions (LM-16): you opened Bob's lock in 5 moves and 1:12; Bob declared your "
    "lock impossible.",
    "Countersolving (LM-17): you countersolve, Bob does not.",
    "Countersolve is off: Bob opened your lock in 0.4 s, so you would get the shortest window, "
    "1 s (LM-17), too little to move a piece. Pass instead.",
    "Round 1 scored: you +5, Bob +5; the score is 5 to 5.",
    "Match over: You win with more points after the last round (LM-20).",
    "Time is up for draft turn.", "The host paused the match.", "Wait... e.g. it is open.",
]


def test_plain_sentences_hold_no_notation() -> None:
    who = ("Alice", "Bob").__getitem__
    said = [*SENTENCES]
    said += [award_words(Award(s, p, "LM-19", why, lock), who)
             for why in WHYS for s in (0, 1) for lock in (0, 1) for p in (-3, 1, 5)]
    said += [result_reason(d, who) for d in (
        {"decided": "points", "after": "target"}, {"decided": "leader", "seat": 0},
        {"decided": "dmo", "after": "last_round"}, {"decided": "reserve", "seat": 1})]
    assert [(t, notation_in(t)) for t in said if notation_in(t)] == []


def test_handwritten_notation_is_found() -> None:
    for text, token in [("BC1 L1, K R1", "BC1 L1"), ("then E5 CW", "E5 CW"),
                        ("take H2,V3,X", "H2,V3,X"), ("c34 d2", "c34 d2"), ("V2", "V2"),
                        ("a lock ###.K.../..AAA.", "###.K.../..AAA."), ("C9-11", "C9-11")]:
        assert notation_in(text) == token, text


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 2**20))
@example(38094)  # a lock with a row full of pieces ("DDDBCK")
def test_the_notation_of_random_legal_moves_is_found(seed: int) -> None:
    game = get_game("lockmaker")
    found = 0
    for match, seat, text in random_steps("lockmaker", seed):
        if seat is None or text is None:
            continue
        move = game.parse(match.state, seat, text)
        if (isinstance(move, Take) and move.pieces) or isinstance(move, Lock | Solve):
            written = str(move)
            assert notation_in(written), f"no notation found in {written!r}"
            for line in written.splitlines():
                if len(line.strip()) >= 5:  # a short row may read as a word
                    assert notation_in(line), f"no notation found in row {line!r}"
            found += 1
    assert found
