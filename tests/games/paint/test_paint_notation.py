"""The notation checker (``paint_notation.notation_in``) finds every shape the parsers read,
as the moves of random matches print it, and nothing in the sentences the log and the server
say; and every bad submission text, in every phase, is refused with a RuleError naming its
rule in words (G-6)."""

from __future__ import annotations

import random
import re
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.clock import ManualClock
from arena.core.errors import RuleError
from arena.core.game import SubmitContext
from arena.core.match import Match
from arena.games.paint import GAME
from arena.games.paint.designer import random_design
from arena.games.paint.grid import COLOURS, legal_actions
from arena.games.paint.match import PaintState
from arena.games.paint.sets import format_design
from games.paint.paint_notation import notation_in

SENTENCES = [
    "Both seats have designed their sets for each other; the play begins.",
    "Showing 1 of 6 for you: set 2 (green, blue, blue, red), set 4 (red, green, blue, blue) "
    "and set 8 (green, red, blue, red).",
    "Bob picked set 3: red, green, blue, blue.",
    "Turn 5: a red container enters your grid at A1.",
    "Turn 12: a blue container enters Alice’s grid at A1.",
    "You shoved column A down, then row 2 right on turn 5.",
    "Bob shoved row 1 right on turn 1.",
    "Both grids are full: you score 48 and Bob scores 36 (PF-7).",
    "Nothing came from Bob in time; the rules chose a shove of column B down, then row 1 right.",
    "You sent eight sets (1: red, green, blue, red; 2: green, blue, red, green; 3: blue, red, "
    "green, blue) as final.",
    "You sent set 3 as final.",
    "You sent red for the last container.",
    "Time is up for shoving.",
    "Set design: it begins.",
    "Shoving column A down, then row 2 right pushes 3 containers. A1 ends empty. Tap the row 2 "
    "handle again or Confirm to send it.",
    "Column B cannot be shoved: there is no container on B1 (PF-2)",
    "A1 still holds a container after shoving column C down: add row 1 (PF-3)",
    "Shove a Column A container right, or a Row 1 container down.",
    "Tap a set to choose it, tap it again to take it.",
]


@cache
def states() -> tuple[PaintState, ...]:
    """A state of every phase of a random match (design, picks, shoves, the last colour and
    the end), each seen by both seats."""
    rng = random.Random(7)
    match = Match(GAME, GAME.default_config(), 7, ManualClock(0.0))
    out = []
    while not match.finished:
        out.append(match.state)
        for seat in (0, 1):
            text = GAME.random_submission(match.state, seat, rng)
            assert text is not None
            match.submit(seat, text, final=True)
    out.append(match.state)
    return tuple(out)


def legal_texts(state: PaintState, seat: int) -> list[str]:
    """Every text the seat may send now, as ``str`` prints its move."""
    board = state.boards[seat]
    if state.stage == "design":
        return [format_design(random_design(random.Random(n))) for n in range(3)]
    if state.stage == "pick":
        return [f"pick {i + 1}" for i in board.shown]
    if state.stage == "shove":
        return [str(a) for a, _ in legal_actions(board.grid)]
    if state.stage == "last":
        return list(COLOURS)
    return []


def test_finds_the_notation_of_every_legal_move() -> None:
    seen = 0
    for state in states():
        for seat in (0, 1):
            for text in legal_texts(state, seat):
                move = GAME.validate(state, seat, text, SubmitContext(0.0))
                assert notation_in(str(move)) == str(move)
                seen += 1
    assert seen > 100


@pytest.mark.parametrize("text, token", [
    ("You sent B then 1 today.", "B then 1"),
    ("Shove A then 2, said the text.", "Shove A then 2"),
    ("Preview of 1: 3 containers pushed.", "Preview of 1"),
    ("Confirm 1", "Confirm 1"),
    ("Cannot shove B: there is no container on B1", "shove B"),
    ("Alice designed GRBR,RGBB,BRGG,RRGB,GBRB,BGRR,GRGB,BBGR", "GRBR,RGBB,BRGG,RRGB,GBRB,BGRR,GRGB,BBGR"),
    ("Your grid: R..../.G.../...../...../.....", "R..../.G.../...../...../....."),
    ("took set 2 (RGBB)", "RGBB"),
    ("after '2' A1 is not empty", "'2'"),
    ("expected 'pick N': pick 5", "pick 5"),
])
def test_finds_notation_inside_a_sentence(text: str, token: str) -> None:
    assert notation_in(text) == token


@pytest.mark.parametrize("text", SENTENCES)
def test_finds_nothing_in_the_sentences_of_the_log(text: str) -> None:
    assert notation_in(text) is None


RULE_ID = re.compile(r"^(PF|G)-\d+$")
CODE = re.compile(r"[\"`{}\[\]<>\\]|(?<![A-Za-z])'|'(?![A-Za-z])")
"""Quotes (an apostrophe inside a word is a word's), brackets, markup and escapes."""


def assert_words(error: RuleError) -> None:
    """A refusal names a rule by its id and says what is wrong in words: no quoted or echoed
    input, no code, no notation."""
    assert RULE_ID.match(error.rule), error.rule
    message = error.message
    assert len(re.findall(r"[A-Za-z]{2,}", message)) >= 4, message
    assert not CODE.search(message), message
    assert notation_in(message) is None, message


def mutate(text: str, edits: list[tuple[int, int, str]]) -> str:
    """``text`` with each edit applied: 0 deletes, 1 inserts, 2 replaces one character."""
    chars = list(text)
    for kind, where, ch in edits:
        i = where % (len(chars) + 1)
        if kind == 0 and chars:
            del chars[min(i, len(chars) - 1)]
        elif kind == 1:
            chars.insert(i, ch)
        elif chars:
            chars[min(i, len(chars) - 1)] = ch
    return "".join(chars)


ALPHABET = st.sampled_from([*"RGBrgbABCDEF0123456789 ,;.-xQthenpickslast", "é", "²", "\n"])
EDITS = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 600), ALPHABET), max_size=6)


@settings(max_examples=400, deadline=None)
@given(data=st.data(), seat=st.integers(0, 1), edits=EDITS,
       noise=st.one_of(st.text(max_size=30), st.text(ALPHABET, max_size=40),
                       st.text(max_size=20).map(lambda t: t * 40)))
def test_bad_texts_in_every_phase_are_refused_in_words(data: st.DataObject, seat: int,
                                                        edits: list[tuple[int, int, str]],
                                                        noise: str) -> None:
    """G-6: random texts, and legal ones mutated, in every phase: each is a move the rules
    accept, or a RuleError naming a rule id, in words; the state is not touched."""
    state = data.draw(st.sampled_from(states()))
    legal = legal_texts(state, seat)
    base = data.draw(st.sampled_from(legal)) if legal else ""
    for text in (noise, mutate(base, edits)):
        try:
            GAME.validate(state, seat, text, SubmitContext(0.0))
        except RuleError as error:
            assert_words(error)


def test_every_phase_refuses_a_plain_bad_text() -> None:
    stages = set()
    for state in states():
        stages.add(state.stage)
        for text in ("", "xyz", "F then 9", "pick 99", "RRRR"):
            try:
                GAME.validate(state, 0, text, SubmitContext(0.0))
            except RuleError as error:
                assert_words(error)
            else:
                assert state.stage == "shove" and text == "", text  # never accepted
    assert stages == {"design", "pick", "shove", "last", "over"}
