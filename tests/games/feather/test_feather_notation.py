"""The notation checker (``feather_notation.notation_in``) finds Feather's notation, every
action a seat could write, and nothing in the words the log and the server say (LF-9)."""

from __future__ import annotations

import random

from feather_notation import notation_in
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.feather.match import GAME
from arena.games.feather.randomplay import candidates, random_action
from arena.games.feather.words import action_words, outcome_words, void_words
from playouts import random_playout

SENTENCES = [
    "You filled bucket A with 10 from basin Z.",
    "Robo poured 3 from bucket A into bucket B.",
    "You completed objective 2 with A and B and won 2 points and 1 modify.",
    "Both filled from basin Z: the ankh let you go first and passed to Robo (LF-5).",
    "Alice tried to lock your bucket A: nothing happened, bucket A was locked (LF-9).",
    "Bob sped basin Y up by 5 ticks (12 water).",
    "Session 1 of 3 begins. Practice session over: Alice 0 points, Bob 1 point.",
    "You pass. Nothing queued: you pass.",
]


def _all_actions() -> list[str]:
    state = GAME.initial_state(GAME.make_config({"scenario": "example"}), random.Random(1))
    spec = state.session
    texts = [str(a) for a in candidates(spec, (True,) * 5)]
    texts += ["complete A 1", "complete A+B 2", "exchange A B"]
    return texts


def test_every_action_a_seat_could_write_is_found() -> None:
    texts = _all_actions()
    assert len(texts) > 30
    for text in texts:
        assert notation_in(text) == text, text
        if text != "pass":  # the one bare word: notation only when it is the whole text
            assert notation_in(f"You sent {text} just now.") is not None, text


def test_the_words_hold_no_notation() -> None:
    for sentence in SENTENCES:
        assert notation_in(sentence) is None, sentence


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**20))
def test_random_actions_are_found_and_their_words_are_not(seed: int) -> None:
    match, _ = random_playout("feather", seed, names=("Alice", "Bob"))
    rng = random.Random(seed)
    for e in match.log:
        if e.kind == "submit" and e.data.get("text") not in ("ready", None):
            assert notation_in(e.data["text"]) is not None, e.data["text"]
        if e.kind == "tick":
            for o in e.data["outcomes"]:
                words = outcome_words(o)
                assert notation_in(words) is None, words
                assert notation_in(action_words(o["action"])) is None
                if "void" in o:
                    assert notation_in(void_words(o["void"])) is None
    state = GAME.initial_state(GAME.make_config({"scenario": "example", "study": 0}), rng)
    for _ in range(20):
        action = random_action(state.session, state.board, 0, rng)
        assert notation_in(str(action)) == str(action)
