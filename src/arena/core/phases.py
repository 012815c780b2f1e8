"""The phase runner: submissions, early close and resolution, phase after phase (G-2, G-4).

A phase opens when the game names one, takes submissions from the seats that must or may act,
and resolves when every actor has confirmed (G-4, if the phase and the match allow early close)
or when its time runs out; resolving hands the standing submissions to the game and opens the
next phase, or ends the match with the game's result. This is the path every decision takes,
so it is kept apart from the rarer work around it: when deadlines fall due is
:mod:`arena.core.deadlines`'s, who may read what the runner logs is
:mod:`arena.core.visibility`'s. One part of :class:`arena.core.match.Match`.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from arena.core import rng as rngmod
from arena.core.clock import Clock
from arena.core.errors import RuleError, StalePhase
from arena.core.eventlog import Event
from arena.core.game import (
    JSON,
    Game,
    GameEvent,
    PhaseOutcome,
    PhaseSpec,
    Result,
    Submission,
    SubmitContext,
)
from arena.core.match_settings import MatchSettings


def phase_label(no: int, name: str) -> str:
    """A phase in words: its own name where the game numbers it ("round 1", "bout 2: bet"),
    otherwise its number and name ("phase 4 (draft)"), since a draft or a pick recurs."""
    return name if any(c.isdigit() for c in name) else f"phase {no} ({name})"


class Phases:
    """The match's phases: what is open, who has submitted what, and resolving it."""

    game: Game[Any, Any]
    seed: int
    clock: Clock
    settings: MatchSettings
    seats: int
    state: Any
    result: Result | None
    paused_at: float | None
    pause_reason: str | None
    phase_no: int
    spec: PhaseSpec | None
    phase_start: float
    deadline: float | None
    base_passed: bool
    reserve_end: dict[int, float]
    history: dict[int, list[Submission]]
    reserve_pick: dict[int, Submission]
    phase_ends: dict[int, tuple[str, float]]
    answered: tuple[int, str] | None

    if TYPE_CHECKING:  # the other parts of the match
        def seat_name(self, seat: int) -> str: ...
        def scaled(self, seconds: float, spec: PhaseSpec | None = None) -> float: ...
        def _process(self, limit: float, *, inclusive: bool,
                     budget: int | None = None) -> bool: ...
        def _emit(self, kind: str, data: JSON, to: frozenset[int] | None,
                  t: float) -> Event: ...
        @staticmethod
        def _activity_to(spec: PhaseSpec) -> frozenset[int] | None: ...

    # ------------------------------------------------------------------ queries
    @property
    def finished(self) -> bool:
        return self.result is not None

    def standing(self, seat: int) -> Submission | None:
        if seat in self.reserve_pick:
            return self.reserve_pick[seat]
        subs = self.history.get(seat)
        return subs[-1] if subs else None

    def is_final(self, seat: int) -> bool:
        sub = self.standing(seat)
        return sub is not None and sub.final

    def waiting_for(self) -> frozenset[int]:
        """Seats whose action the phase is still open for."""
        if self.spec is None or self.finished:
            return frozenset()
        if self.base_passed:
            return frozenset(self.reserve_end)
        if self.reserve_pick:  # never before the limit; kept general all the same
            return frozenset(s for s in self.spec.actors if not self.is_final(s))
        # Before the limit a seat's standing submission is its last one (reserve picks come
        # after it): read directly, as this is asked around every decision.
        history = self.history
        return frozenset(s for s in self.spec.actors
                         if not ((subs := history.get(s)) and subs[-1].final))

    # ------------------------------------------------------------------ inputs
    def submit(self, seat: int, text: str, *, final: bool = False, bot: bool = False,
               phase: int | None = None) -> Submission:
        """Offer a submission; raise ``RuleError`` (state unchanged) if it is not accepted.

        ``phase`` is the phase number the sender was answering; when that phase has closed
        meanwhile, the submission is refused as late instead of being read as an answer to
        the next phase."""
        t = self.clock.now()
        self._process(t, inclusive=False)
        self._check_phase(phase)
        spec = self._open_for(seat)
        answered = (self.phase_no, spec.name)
        previous = tuple(self.history.get(seat, ()))
        at = t - self.phase_start
        ctx = SubmitContext(at, previous, self.settings.time_scale)
        value = self.game.validate(self.state, seat, text, ctx)
        self.answered = answered
        in_reserve = seat in self.reserve_end
        sub = Submission(seat, text, value, at, final or in_reserve, in_reserve)
        self.history.setdefault(seat, []).append(sub)
        data = {"seat": seat, "text": text, "final": sub.final, "bot": bot}
        self._emit("submit", data, frozenset({seat}), t)
        self._emit(
            "accepted",
            {"seat": seat, "phase": spec.name, "value": value.to_json(), "at": at,
             "final": sub.final, "in_reserve": in_reserve},
            frozenset({seat}),
            t,
        )
        self._emit("seat_acted", {"seat": seat, "final": sub.final}, self._activity_to(spec), t)
        if in_reserve:
            # G-2: in reserve the first valid submission stands and ends the reserve use.
            self.reserve_pick[seat] = sub
            del self.reserve_end[seat]
            if not self.reserve_end:
                self._resolve(t)
        else:
            self._maybe_close(t)
        return sub

    def confirm(self, seat: int, *, phase: int | None = None) -> None:
        """Mark the seat's standing submission as final (G-4)."""
        t = self.clock.now()
        self._process(t, inclusive=False)
        self._check_phase(phase)
        spec = self._open_for(seat)
        subs = self.history.get(seat)
        if not subs:
            raise RuleError("G-4", "there is no submission to confirm")
        self.answered = (self.phase_no, spec.name)
        subs[-1] = dataclasses.replace(subs[-1], final=True)
        self._emit("confirm", {"seat": seat}, frozenset({seat}), t)
        self._emit("seat_acted", {"seat": seat, "final": True}, self._activity_to(spec), t)
        self._maybe_close(t)

    # ------------------------------------------------------------------ internals
    def _open_for(self, seat: int) -> PhaseSpec:
        if not 0 <= seat < self.seats:
            raise RuleError("G-8", f"there is no seat {seat + 1}")
        if self.finished or self.spec is None:
            raise RuleError("G-2", "the match is over")
        if self.paused_at is not None:
            if self.pause_reason is not None:
                raise RuleError("G-5", f"the match is paused: {self.pause_reason}")
            raise RuleError("G-2", "the match is paused by the host")
        spec = self.spec
        if seat not in spec.actors:
            raise RuleError("G-2", f"{self.seat_name(seat)} has nothing to do in the "
                                   f"{spec.name} phase")
        if self.base_passed and seat not in self.reserve_end:
            raise RuleError("G-2", f"the time limit of the {spec.name} phase has passed")
        if not self.base_passed and self.is_final(seat):
            raise RuleError("G-4", "your submission is already confirmed as final")
        return spec

    def _check_phase(self, phase: int | None) -> None:
        """G-2: a submission meant for a phase that has closed is late, not an answer to the
        phase that followed it; it is refused (:class:`StalePhase`) and nothing is applied."""
        if phase is None or (phase == self.phase_no and not self.finished):
            return
        ended = self.phase_ends.get(phase)
        if ended is None:
            if self.finished and phase == self.phase_no and self.result is not None:
                raise RuleError("G-2", "the match is over")
            raise RuleError("G-2", f"there is no phase {phase} to answer (this is phase "
                                   f"{self.phase_no})")
        name, when = ended
        stamp = datetime.fromtimestamp(when, UTC).strftime("%H:%M:%S")
        raise StalePhase(f"{phase_label(phase, name)} closed at {stamp} UTC, before this was "
                         "sent; nothing was applied", phase=phase, title=name,
                         current=None if self.finished else self.phase_no)

    def _start_phase(self, t: float) -> None:
        spec = self.game.phase(self.state)
        if spec is None:
            result = self.game.result(self.state)
            if result is None:
                raise RuntimeError(f"{self.game.name}: no phase and no result")
            self._finish(result, t)
            return
        if True:
            self.phase_no += 1
            self.spec = spec
            self.phase_start = t
            # None: the phase has no time limit; an act or G-4's early close ends it.
            duration = spec.duration
            self.deadline = None if duration is None else t + self.scaled(duration, spec)
            self.base_passed = False
            self.reserve_end = {}
            self.history = {}
            self.reserve_pick = {}
            self._emit(
                "phase_started",
                {
                    "no": self.phase_no,
                    "name": spec.name,
                    "must": sorted(spec.must),
                    "may": sorted(spec.may),
                    "deadline": self.deadline,
                },
                None,
                t,
            )
            return

    def _maybe_close(self, t: float) -> None:
        spec = self.spec
        if spec is None or self.finished or self.base_passed:
            return
        if not (spec.early_close and self.settings.early_close):
            return
        history = self.history
        if spec.actors and all((subs := history.get(s)) and subs[-1].final
                               for s in spec.actors):
            # (before the limit, no reserve pick stands: a seat's last submission does)
            self._resolve(t)

    def _resolve(self, t: float) -> None:
        spec = self.spec
        assert spec is not None
        standing = {s: sub for s in range(self.seats) if (sub := self.standing(s)) is not None}
        outcome = PhaseOutcome(
            standing,
            {s: tuple(v) for s, v in self.history.items()},
            frozenset(s for s in spec.must if s not in standing),
            t - self.phase_start,
            self.settings.time_scale,
        )
        rng = rngmod.deferred(self.seed, "phase", self.phase_no)  # seeded if drawn from
        self.phase_ends[self.phase_no] = (spec.name, t)
        self.state, events = self.game.resolve(self.state, outcome, rng)
        self._emit(
            "phase_resolved",
            {"no": self.phase_no, "name": spec.name, "missing": sorted(outcome.missing)},
            None,
            t,
        )
        for ev in events:
            self._emit_game(ev, t)
        self._start_phase(t)

    def _emit_game(self, ev: GameEvent, t: float) -> None:
        self._emit(ev.kind, ev.data, ev.to, t)

    def _finish(self, result: Result, t: float) -> None:
        if self.spec is not None:
            self.phase_ends.setdefault(self.phase_no, (self.spec.name, t))
        self.result = result
        self.spec = None
        self.reserve_end = {}
        # The event holds the result's facts; its reason is words, which the view and the
        # texts the server writes take from the result itself.
        self._emit("match_ended", result.facts(), None, t)
