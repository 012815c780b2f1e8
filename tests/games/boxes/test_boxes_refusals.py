"""G-6: a bad submission in any phase of a Boxes match is refused with a RuleError that names
its rule (a rule id such as BX-4 or G-1) and says why in words: random texts, and legal texts
mutated (a character dropped, doubled or changed, words swapped or cut, a stake or a card
number changed), in the study phases, the betting and every pick round."""

from __future__ import annotations

import random
import re
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.errors import RuleError
from arena.core.game import SubmitContext
from arena.games.boxes import GAME
from arena.games.boxes.randomplay import random_legal
from arena.games.boxes.state import OVER, BoxesState
from games.boxes.boxes_helpers import new_state, step

RULE_ID = re.compile(r"^(BX|G)-\d{1,2}$")
ECHO = re.compile(r"'[^']*'")
"""A player's own text quoted back, or an example to type: kept out of the words check."""
CODE = re.compile(r"[{}\[\]<>\"\\]|\bNone\b|\bTrue\b|\bFalse\b|Traceback|\(\)")
"""What a message that leaked a Python value or markup would hold."""
CTX = SubmitContext(at=0.0)


@cache
def phases(seed: int) -> tuple[BoxesState, ...]:
    """One state of every phase of a short match played by random legal seats."""
    state = new_state(seed, bouts=2)
    rng = random.Random(seed)
    out = [state]
    while state.stage != OVER:
        spec = GAME.phase(state)
        assert spec is not None
        state, _ = step(state, {s: random_legal(state, s, rng) or "" for s in sorted(spec.actors)})
        out.append(state)
    return tuple(out)


def mutate(text: str, rng: random.Random) -> str:
    chars = "0123456789 :;,-UDLRudlrpathonedblackwhite#&|xyz?\n\t\x00é"
    kind = rng.randrange(7)
    words = text.split()
    if kind == 0 and text:
        i = rng.randrange(len(text))
        return text[:i] + text[i + 1:]
    if kind == 1 and text:
        i = rng.randrange(len(text))
        return text[:i] + rng.choice(chars) + text[i:]
    if kind == 2 and text:
        i = rng.randrange(len(text))
        return text[:i] + rng.choice(chars) + text[i + 1:]
    if kind == 3 and len(words) > 1:
        rng.shuffle(words)
        return " ".join(words)
    if kind == 4 and words:
        return " ".join(words[: rng.randrange(len(words))])
    if kind == 5:
        return re.sub(r"\d+", lambda m: str(rng.choice([0, 1, 9, 19, 39, 99, int(m.group(0)) + 1])),
                      text, count=rng.randint(1, 3))
    return text + rng.choice([" U", " pass", "; black: 1", " path D4", " to Z9", ":", " 7"])


def assert_refusal_in_words(exc: RuleError, text: str) -> None:
    where = f"{text!r} -> {exc}"
    assert RULE_ID.match(exc.rule), f"no rule id: {where}"
    assert str(exc).startswith(exc.rule + ": "), where
    message = exc.message
    assert message.isprintable(), f"unprintable: {where}"
    said = ECHO.sub("", message)
    assert len(re.findall(r"[A-Za-z]{2,}", said)) >= 3, f"too few words: {where}"
    hit = CODE.search(said)
    assert hit is None, f"code {hit.group(0) if hit else ''!r} in {where}"


GARBAGE = st.sampled_from(["", "   ", "???", "zz 99 qq", "\x00", "-1", "99999999999999999999",
                           "pass pass pass", "{json: 1}", "ready ready", "é" * 5, "none",
                           "black: 1", "1 U", "path", "to", "card", "#", ":", ";;", "<b>x</b>"]
                          ) | st.text(max_size=20)


@settings(deadline=None, max_examples=150)
@given(seed=st.integers(0, 3), where=st.integers(0, 10**6), seat=st.integers(0, 1),
       garbage=GARBAGE, mutations=st.integers(0, 3), salt=st.integers(0, 10**6))
def test_bad_texts_in_every_phase_are_refused_by_rule_in_words(
        seed: int, where: int, seat: int, garbage: str, mutations: int, salt: int) -> None:
    states = [s for s in phases(seed) if s.stage != OVER]
    state = states[where % len(states)]
    rng = random.Random(salt)
    legal = random_legal(state, seat, random.Random(salt)) or ""
    text = legal
    for _ in range(mutations):
        text = mutate(text, rng)
    for candidate in (garbage, text):
        try:
            move = GAME.validate(state, seat, candidate, CTX)
        except RuleError as exc:
            assert_refusal_in_words(exc, candidate)
        else:  # what is accepted is a legal move, said back by its notation
            assert GAME.validate(state, seat, str(move), CTX) == move


def test_every_phase_is_reached() -> None:
    stages = {s.stage for s in phases(0)}
    assert stages == {"study boards", "study cards", "bet", "pick", "over"}


def test_duplicate_bets_are_named() -> None:
    """The refusal names the two bets that repeat a condition, in words (BX-4)."""
    state = next(s for s in phases(0) if s.stage == "bet")
    try:
        GAME.validate(state, 0, "7 or 9: 1; black: 1; 9 | 7: 1", CTX)
    except RuleError as exc:
        assert exc.rule == "BX-4"
        assert "bets 1 and 3 are on the same condition, number 7 or number 9" in exc.message
    else:  # pragma: no cover - the finding
        raise AssertionError("a repeated condition was accepted")
