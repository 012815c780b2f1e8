"""The match builds its log entries and submissions without the frozen dataclasses'
``__init__`` (issue 29 point 4): they must be the very values the constructors make, with
every field present, so a field added later cannot go missing unnoticed."""

from __future__ import annotations

from dataclasses import fields

from arena.core.clock import ManualClock
from arena.core.game import PhaseOutcome, Submission, SubmitContext
from arena.core.match import Event, Match, MatchSettings
from toygame import TOY, ToyConfig


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
