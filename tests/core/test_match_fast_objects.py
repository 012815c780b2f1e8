"""The match builds its log entries and submissions by the engine's fast helper
(:func:`arena.core.frozen.frozen`), without the frozen dataclasses' ``__init__``: they must be
the very values the constructors make, with every field present, so a field added later
cannot go missing unnoticed."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import fields

import pytest

from arena.core.clock import ManualClock
from arena.core.frozen import frozen
from arena.core.game import PhaseOutcome, Submission, SubmitContext
from arena.core.match import Event, Match, MatchSettings
from toygame import TOY, ToyConfig, ToyState


def _names(cls: type) -> set[str]:
    return {f.name for f in fields(cls)}


def test_log_entries_and_submissions_are_whole_frozen_values() -> None:
    clock = ManualClock(1000.0)
    match = Match(TOY, ToyConfig(), 7, clock, MatchSettings())
    seen: list[SubmitContext] = []
    validate = TOY.validate

    def spy(state: object, seat: int, text: str, ctx: SubmitContext) -> object:
        seen.append(ctx)
        return validate(state, seat, text, ctx)  # type: ignore[arg-type]

    outcomes: list[PhaseOutcome] = []
    resolve = TOY.resolve

    def spy_resolve(state: object, outcome: PhaseOutcome, rng: object) -> object:
        outcomes.append(outcome)
        return resolve(state, outcome, rng)  # type: ignore[arg-type]

    TOY.validate = spy  # type: ignore[method-assign]
    TOY.resolve = spy_resolve  # type: ignore[method-assign,assignment]
    try:
        match.submit(0, "ready", final=True)
        match.submit(1, "ready", final=True)
        sub = match.submit(0, "2")
    finally:
        del TOY.validate, TOY.resolve
    assert outcomes and all(vars(o).keys() == _names(PhaseOutcome) for o in outcomes)
    first = outcomes[0]
    assert first == PhaseOutcome(first.standing, first.history, first.missing, first.ended_at,
                                 first.scale)
    assert vars(sub).keys() == _names(Submission)
    assert sub == Submission(0, "2", sub.value, sub.at, False, False)
    assert seen and all(vars(ctx).keys() == _names(SubmitContext) for ctx in seen)
    assert seen[-1] == SubmitContext(at=seen[-1].at, previous=(), scale=1.0)
    for i, event in enumerate(match.log, start=1):
        assert vars(event).keys() == _names(Event)
        assert event == Event(i, event.kind, event.data, event.to, event.t)


def test_the_fast_helper_copies_as_dataclasses_replace_does() -> None:
    """``frozen(cls, old.__dict__, **changes)``, the games' copy of a state with some fields
    changed, is the value ``dataclasses.replace`` makes, and leaves the old one as it was."""
    old = TOY.initial_state(ToyConfig(), random.Random(3))
    new = frozen(ToyState, old.__dict__, round=2, scores=(1, 0))
    assert new == dataclasses.replace(old, round=2, scores=(1, 0))
    assert vars(new).keys() == _names(ToyState)
    assert old.round == 0 and old.scores == (0, 0) and new is not old
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.round = 3  # type: ignore[misc]
