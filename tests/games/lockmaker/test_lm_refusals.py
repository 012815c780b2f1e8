"""G-6: a bad submission in any Lockmaker phase (a random text, or a legal one mutated) is
refused with a RuleError that names a rule (LM-*, G-*) and says why in words, and the match
is left as it was; a mutation that happens to be legal is simply accepted."""

from __future__ import annotations

import random
import re
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.clock import ManualClock
from arena.core.errors import RuleError
from arena.core.match import Match, MatchSettings
from arena.core.registry import get_game

RULE_ID = re.compile(r"^[A-Z]{1,4}-\d{1,3}$")
WORDS = re.compile(r"[A-Za-z]{2,}\W+(?:\S+\W+)*?[A-Za-z]{2,}")
"""Words: two of them at least, not a bare code or number."""
ALPHABET = string.ascii_letters + string.digits + " ,.;#@+/-\n\t"


def _mutate(legal: str, rng: random.Random) -> str:
    """A text near the legal one (a character dropped, swapped or added, cut short, moves
    repeated), or random characters."""
    op = rng.randrange(7)
    if op == 0 or not legal:
        return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 30)))
    i = rng.randrange(len(legal))
    if op == 1:
        return legal[:i] + legal[i + 1:]
    if op == 2:
        return legal[:i] + rng.choice(ALPHABET) + legal[i + 1:]
    if op == 3:
        return legal[:i] + rng.choice(ALPHABET) + legal[i:]
    if op == 4:
        return legal[:i]
    if op == 5:
        return legal + ", " + legal
    return rng.choice(["", " ", "stop", "impossible", "countersolve", "pass", "0", "99",
                       "first", "ready", "K R1", "H9", "X,X,X", "#", "@K"])


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**20), tries=st.integers(1, 4))
def test_bad_texts_in_every_phase_are_refused_with_a_rule_and_words(seed: int,
                                                                    tries: int) -> None:
    game = get_game("lockmaker")
    clock = ManualClock(1000.0)
    match = Match(game, game.default_config(), seed, clock, MatchSettings(),
                  names=("Alice", "Bob"))
    rng = random.Random(seed)
    probed: set[str] = set()
    while not match.finished:
        acted = False
        for seat in sorted(match.waiting_for()):
            if match.finished or seat not in match.waiting_for():
                continue
            legal = game.random_submission(match.state, seat, rng)
            if legal is None:
                continue
            for _ in range(tries):
                text = _mutate(legal, rng)
                before = len(match.log)
                stage = match.state.stage
                try:
                    match.submit(seat, text, final=False)
                except RuleError as exc:
                    assert RULE_ID.match(exc.rule), (stage, text, str(exc))
                    assert WORDS.search(exc.message), (stage, text, exc.message)
                    assert "Traceback" not in exc.message and "None" not in exc.message
                    assert len(match.log) == before, "a refusal changed the match"
                    probed.add(stage)
            try:
                match.submit(seat, legal, final=True)
                acted = True
            except RuleError as exc:  # a mutation accepted first may rule the legal text out
                assert RULE_ID.match(exc.rule), str(exc)
        if not acted and not match.finished:
            when = match.next_deadline()
            assert when is not None
            clock.set(max(clock.now(), when))
            match.advance()
    assert {"study", "draft", "build", "solve"} <= probed, probed


def test_each_phase_refuses_nonsense_by_its_rule() -> None:
    """The rule each phase names for a text it cannot read at all."""
    game = get_game("lockmaker")
    state = game.initial_state(game.default_config(), random.Random(1))
    from arena.games.lockmaker.match import replace

    expected = {"study": "LM-13", "draft": "LM-22", "build": "LM-10", "solve": "LM-11"}
    for stage, rule in expected.items():
        s = replace(state, stage=stage)
        for seat in (0, 1):
            try:
                game.parse(s, seat, "zz top?")
            except RuleError as exc:
                assert RULE_ID.match(exc.rule) and WORDS.search(exc.message)
                if stage != "study" or seat == 1:
                    assert exc.rule.startswith(rule[:3]), (stage, exc)
            else:
                raise AssertionError(f"{stage}: nonsense accepted")
