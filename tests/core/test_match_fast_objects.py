"""The match builds its log entries and submissions with the fast ``__init__`` of
:func:`arena.core.frozen.fast_init`, and the games copy their states with
:func:`arena.core.frozen.evolve`: they must be the very values the ordinary constructor and
``dataclasses.replace`` make, with every field present, so a field added later cannot go
missing unnoticed."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import fields

import pytest

from arena.core.clock import ManualClock
from arena.core.frozen import evolve, fast_init
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


def test_the_fast_copy_is_what_dataclasses_replace_makes() -> None:
    """``evolve(old, **changes)``, the games' copy of a state with some fields changed, is the
    value ``dataclasses.replace`` makes, and leaves the old one as it was."""
    old = TOY.initial_state(ToyConfig(), random.Random(3))
    new = evolve(old, round=2, scores=(1, 0))
    assert new == dataclasses.replace(old, round=2, scores=(1, 0))
    assert vars(new).keys() == _names(ToyState)
    assert old.round == 0 and old.scores == (0, 0) and new is not old
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.round = 3  # type: ignore[misc]


@fast_init
@dataclasses.dataclass(frozen=True)
class _Fast:
    a: int
    b: str = "b"
    c: tuple[int, ...] = dataclasses.field(default_factory=tuple)


@dataclasses.dataclass(frozen=True)
class _Slow:
    a: int
    b: str = "b"
    c: tuple[int, ...] = dataclasses.field(default_factory=tuple)


def test_fast_init_keeps_the_signature_and_defaults() -> None:
    """The generated ``__init__`` takes what the dataclass's took, positionally or by name,
    with its defaults and default factories, and the value stays frozen."""
    for args, kwargs in (((1,), {}), ((1, "x"), {}), ((), {"a": 1, "c": (2,)}),
                         ((1, "x", (3,)), {})):
        fast, slow = _Fast(*args, **kwargs), _Slow(*args, **kwargs)  # type: ignore[arg-type]
        assert dataclasses.astuple(fast) == dataclasses.astuple(slow)
        assert vars(fast).keys() == _names(_Fast)
    assert _Fast(1) == _Fast(1, "b", ()) and hash(_Fast(1)) == hash(_Fast(1, "b"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        _Fast(1).a = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        _Fast()  # type: ignore[call-arg]


def test_fast_init_refuses_what_it_would_skip() -> None:
    @dataclasses.dataclass(frozen=True)
    class Derived:
        a: int

        def __post_init__(self) -> None: ...

    @dataclasses.dataclass(frozen=True, slots=True)
    class Slotted:
        a: int

    for cls in (Derived, Slotted):
        with pytest.raises(TypeError):
            fast_init(cls)
