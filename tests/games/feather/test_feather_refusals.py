"""Every text a seat may send in every phase (study, a tick, after the end) is either read or
refused with a RuleError that names its rule (LF-n or G-n) and says why in words (G-6):
random texts, and real actions mutated by a character or a word."""

from __future__ import annotations

import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.errors import RuleError
from arena.core.game import PhaseOutcome, Submission, SubmitContext
from arena.games.feather.match import GAME, FeatherState
from arena.games.feather.randomplay import random_legal

RULE = re.compile(r"^(LF|G)-\d+$")
WORDS = re.compile(r"[A-Za-z]{2,}[ ,:]+[A-Za-z]{2,}")
CODE = re.compile(r"[\"{}\[\]\\<>]|\bNone\b|Traceback|\b[a-z]+_[a-z_]+\b")
PIECES = ["fill", "drain", "transfer", "complete", "exchange", "modify", "sip", "lock",
          "accelerate", "pass", "ready", "opp", "->", "+", "A", "B", "Q", "Z", "Y", "X",
          "0", "3", "-2", "+7", "11", "#2", "to", "into", "", " ", "é", "\t", "]"]


def _states(seed: int) -> list[FeatherState]:
    """The states a match passes through: study, ticks with random play, the end."""
    rng = random.Random(seed)
    config = GAME.make_config({"scenario": "example", "session_ticks": 6, "practice_ticks": 3})
    state = GAME.initial_state(config, rng)
    out = [state]
    while state.stage != "over":
        standing: dict[int, Any] = {}
        if state.stage == "tick":
            for seat in (0, 1):
                text = random_legal(state.session, state.board, seat, rng)
                value = GAME.validate(state, seat, text, SubmitContext(at=0.0))
                standing[seat] = Submission(seat, text, value, 0.0)
        outcome = PhaseOutcome(standing=standing,
                               history={s: (sub,) for s, sub in standing.items()},
                               missing=frozenset(), ended_at=1.0)
        state, _ = GAME.resolve(state, outcome, rng)
        out.append(state)
    return out


def _mutate(text: str, rng: random.Random) -> str:
    tokens = text.split()
    how = rng.randrange(5)
    if how == 0 and tokens:
        tokens[rng.randrange(len(tokens))] = rng.choice(PIECES)
    elif how == 1 and tokens:
        del tokens[rng.randrange(len(tokens))]
    elif how == 2:
        tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(PIECES))
    elif how == 3 and text:
        i = rng.randrange(len(text))
        return text[:i] + chr(rng.randrange(32, 0x250)) + text[i + 1:]
    else:
        return " ".join(rng.choice(PIECES) for _ in range(rng.randrange(5)))
    return " ".join(tokens)


def _check(state: FeatherState, seat: int, text: str) -> None:
    try:
        GAME.validate(state, seat, text, SubmitContext(at=0.0))
    except RuleError as exc:
        assert RULE.match(exc.rule), (text, exc.rule, str(exc))
        assert WORDS.search(exc.message), (text, exc.message)
        assert not CODE.search(exc.message), (text, exc.message)
        assert str(exc) == f"{exc.rule}: {exc.message}"


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**16), junk=st.lists(st.text(max_size=20), max_size=5))
def test_bad_texts_in_every_phase_are_refused_with_a_rule_and_words(seed: int,
                                                                    junk: list[str]) -> None:
    rng = random.Random(seed)
    states = _states(seed)
    assert {s.stage for s in states} == {"study", "tick", "over"}
    for state in [*states[::max(1, len(states) // 8)], states[-1]]:
        for seat in (0, 1):
            base = (random_legal(state.session, state.board, seat, rng)
                    if state.stage == "tick" else "ready")
            for text in junk + [_mutate(base, rng) for _ in range(12)]:
                _check(state, seat, text)
