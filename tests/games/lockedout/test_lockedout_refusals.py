"""Bad submissions are refused in words, naming the rule (G-6, LO-10): random texts and
mutations of the rule text's own formats, in every phase (a round, the final bargaining, the
elimination vote, the winners' tie-break), are either a legal plan or a RuleError whose rule
is a rule id and whose message is a sentence; nothing else escapes, and the state is kept."""

from __future__ import annotations

import re
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.errors import RuleError
from arena.games.lockedout import GAME
from arena.games.lockedout.state import BARGAIN, TIE, VOTE, Bargain, LockedOutState, Seat
from games.lockedout.lockedout_helpers import NAMES, make_state

RULE_ID = re.compile(r"^(G|LO|SE)-\d+$")
NOT_WORDS = re.compile(r"\bNone\b|\{|\}|Traceback|<[a-z]|\bundefined\b")

FORMATS = ("Solo, Safe C, Left 3 Right 1", "Dual, Safe C, Left 4 with Bob",
           "Bargain, Safe C, Claim 1 Gold bars, 0 Keys", "Vote Bob", "Vote Dave", "pass")
PIECES = ("Solo", "Dual", "Bargain", "Vote", "Safe", "Left", "Right", "with", "Claim",
          "Gold bars", "Keys", ",", ":", "\n", ";", " ", "0", "5", "9", "Q", "Z", "Bob",
          "Zed", "seat 9", "for", "pass", "3", "-1", "é", "\x00")


def _phases() -> dict[str, tuple[LockedOutState, int]]:
    """A state of each phase and a seat that may act in it."""
    base = make_state()
    seats = list(base.seats)
    seats[0] = Seat(keys=3, bars=2, escaped=1)  # Alice escaped: she breaks a tie
    out = base
    escaped = replace(base, seats=tuple(seats))
    bargain = replace(escaped, stage=BARGAIN, opened=(True,) + (False,) * 15,
                      bargains=(Bargain(2, (1, 2), 1),))
    return {"round": (out, 1), "bargain": (bargain, 1),
            "vote": (replace(escaped, stage=VOTE), 1),
            "tie": (replace(escaped, stage=TIE, tied=(2, 3)), 0)}


PHASES = _phases()
ALPHABET = "abcdeklorsvwABCDLPRSVZ0123459 ,:;.\n\t-'é€\x00"


@st.composite
def texts(draw: st.DrawFn) -> str:
    """A format with pieces dropped, swapped or added, or text of any kind."""
    if draw(st.booleans()):
        return draw(st.text(alphabet=ALPHABET, max_size=60))
    words = re.findall(r"\w+|\W", draw(st.sampled_from(FORMATS)))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(words)))
        action = draw(st.sampled_from(["drop", "swap", "add"]))
        if action == "drop" and words:
            del words[min(i, len(words) - 1)]
        elif action == "swap" and words:
            words[min(i, len(words) - 1)] = draw(st.sampled_from(PIECES))
        else:
            words.insert(i, draw(st.sampled_from(PIECES)))
    return "".join(words)


@settings(max_examples=300, deadline=None)
@given(phase=st.sampled_from(sorted(PHASES)), text=texts())
def test_a_bad_text_is_refused_in_words_naming_its_rule(phase: str, text: str) -> None:
    state, seat = PHASES[phase]
    before = state
    try:
        GAME.validate(state, seat, text, None)  # type: ignore[arg-type]
    except RuleError as err:
        assert RULE_ID.match(err.rule), (phase, text, err.rule)
        assert re.search(r"[a-z]{3,} [a-z]{2,}", err.message), (phase, text, err.message)
        assert not NOT_WORDS.search(err.message), (phase, text, err.message)
    assert state == before  # a refusal changes nothing


def test_every_phase_refuses_what_it_does_not_take() -> None:
    """Each phase has texts it refuses, each with a rule id (a sample the property above may
    not draw)."""
    bad = {"round": ["Vote Bob", "Solo, Safe C, Left 5 Right 1", "Dual, Safe C, Left 4 with Zed",
                     "hello"],
           "bargain": ["Solo, Safe C, Left 3 Right 1", "Bargain, Safe C, Claim 3 Gold bars, "
                       "0 Keys", "Bargain, Safe D, Claim 1 Gold bars, 0 Keys"],
           "vote": ["", "Vote Alice", "Vote Zed", "Solo, Safe C, Left 3 Right 1"],
           "tie": ["", "Vote Erin", "Vote Bob\nVote Carol"]}
    for phase, items in bad.items():
        state, seat = PHASES[phase]
        for text in items:
            try:
                GAME.validate(state, seat, text, None)  # type: ignore[arg-type]
            except RuleError as err:
                assert RULE_ID.match(err.rule) and err.message, (phase, text)
                continue
            raise AssertionError(f"{phase}: {text!r} was accepted")
    assert NAMES[1] == "Bob"
