"""Deadlines: phase limits, reserve periods (G-3), the host's hold on time, and G-5's bound.

Everything about *when*: a phase's limit and each seat's reserve period fall due at times the
match computes from the rule texts' durations and its time scale (G-5), and each is resolved at
its own time, however late :meth:`Deadlines.advance` is called, so a server that was down
reaches the same state as one that never stopped. The host pauses, resumes, extends and ends
the match here, since each of those moves or stops the deadlines. Kept apart from the phase
runner (:mod:`arena.core.phases`), which asks this part to catch up before every input, so
that the timing rules read in one place. One part of :class:`arena.core.match.Match`.
"""

from __future__ import annotations

import math
from collections import deque
from typing import TYPE_CHECKING, Any

from arena.core.clock import Clock
from arena.core.errors import RuleError
from arena.core.eventlog import Event
from arena.core.game import JSON, Game, GameConfig, PhaseSpec, Result, Submission
from arena.core.match_settings import MatchSettings

MAX_DEADLINES = 50
DEADLINE_WINDOW = 1.0
"""G-5's bound on how fast a match may run: at most :data:`MAX_DEADLINES` deadlines (phase
limits, reserve periods: each is one resolution) within :data:`DEADLINE_WINDOW` seconds of the
match's clock. Settings that get past validation but make deadlines fall due faster (a zero
round in a game without a round limit) pause the match instead of looping the server. It is
measured on the deadlines' own times, which the log records, so a replay pauses at the same
entry as the live match did."""

MAX_CLOCK = 366 * 24 * 3600.0
"""The farthest the host may move a phase's end: 366 days from now, so a deadline set to the
same date next year is always within reach. SE-7 made a season step's clock this, and the
season's steps are matches' phases, so every match's clock takes the same bound."""

TOO_FAST = ("deadlines fell due faster than the server allows (G-5: at most "
            f"{MAX_DEADLINES} within {DEADLINE_WINDOW:g} s); the host may resume the match "
            "or end it")


class Deadlines:
    """When the match next needs advancing, resolving what fell due, and the host's pause."""

    game: Game[Any, Any]
    config: GameConfig
    clock: Clock
    settings: MatchSettings
    state: Any
    reserve_left: list[int]
    paused_at: float | None
    pause_reason: str | None
    _recent: deque[float]
    spec: PhaseSpec | None
    phase_start: float
    deadline: float | None
    base_passed: bool
    reserve_end: dict[int, float]

    if TYPE_CHECKING:  # the other parts of the match
        @property
        def finished(self) -> bool: ...
        def standing(self, seat: int) -> Submission | None: ...
        def _resolve(self, t: float) -> None: ...
        def _finish(self, result: Result, t: float) -> None: ...
        def _emit(self, kind: str, data: JSON, to: frozenset[int] | None,
                  t: float) -> Event: ...

    # ------------------------------------------------------------------ queries
    def scaled(self, seconds: float, spec: PhaseSpec | None = None) -> float:
        if spec is not None and not spec.scaled:
            return seconds
        return seconds * self.settings.time_scale

    def next_deadline(self) -> float | None:
        """When the match next needs :meth:`advance`, or None (finished, paused, or a phase
        with no time limit: nothing falls due until someone acts)."""
        if self.finished or self.paused_at is not None or self.spec is None:
            return None
        if not self.base_passed:
            return self.deadline
        return min(self.reserve_end.values()) if self.reserve_end else self.deadline

    # ------------------------------------------------------------------ inputs
    def advance(self, budget: int | None = None) -> bool:
        """Resolve every deadline that has passed by now, each at its own time.

        With ``budget``, stop after that many deadlines and return True if more are due: the
        server resolves a long backlog in slices, letting other work run between them (the
        outcome is the same, since each deadline resolves at its own time whenever it is
        reached)."""
        return self._process(self.clock.now(), inclusive=True, budget=budget)

    def pause(self) -> None:
        """Hold the match's clock. A phase with no time limit may be paused too: nothing of
        its time runs, but the pause still stops the seats' submissions (acts go on)."""
        t = self.clock.now()
        self._process(t, inclusive=True)
        if self.finished or self.paused_at is not None:
            raise RuleError("host", "the match is not running")
        self.paused_at = t
        self._emit("pause", {}, None, t)

    def resume(self) -> None:
        t = self.clock.now()
        if self.paused_at is None:
            raise RuleError("host", "the match is not paused")
        shift = t - self.paused_at
        self.paused_at = None
        self.pause_reason = None
        # The host chose to go on: the G-5 bound counts afresh from here.
        self._recent.clear()
        self.phase_start += shift
        if self.deadline is not None:
            self.deadline += shift
        self.reserve_end = {s: e + shift for s, e in self.reserve_end.items()}
        self._emit("resume", {"shifted": shift, "deadline": self.deadline}, None, t)

    def extend(self, seconds: float) -> None:
        """Give the current phase more time (the host's tool for a dropped connection)."""
        t = self.clock.now()
        self._process(t, inclusive=True)
        if self.finished:
            raise RuleError("host", "the match is over")
        if not 0 < seconds <= MAX_CLOCK:
            raise RuleError("host", f"an extension must be more than 0 and at most "
                                    f"{MAX_CLOCK:.0f} seconds (366 days)")
        if self.deadline is None:
            raise RuleError("host", "this phase has no time limit")
        if self.base_passed:
            self.reserve_end = {s: e + seconds for s, e in self.reserve_end.items()}
        else:
            self.deadline += seconds
        self._emit("extend", {"seconds": seconds, "deadline": self.next_deadline()}, None, t)

    def set_deadline(self, at: float) -> None:
        """The host sets when the current phase ends, as a clock time (SE-7: a season's step
        clock, which is every match's clock). A paused match runs again: the host has given
        it a new end, and a pause holds a clock the host just replaced (as resume, the time
        paused does not count for the phase, and G-5's count starts afresh).

        Before the phase's limit has passed, ``at`` is its new limit. Once it has (the seats
        that still owe a move are in their reserve periods, G-3) every running period ends
        at ``at`` instead: those periods are all the phase waits for, so "the phase ends
        then" means each of them does; a period ending then runs on into the seat's next
        one or its forfeit as it would have, and no period is given back."""
        t = self.clock.now()
        self._process(t, inclusive=False)  # deadlines before it first, as a replay does
        if self.finished:
            raise RuleError("host", "the match is over")
        if self.spec is not None and self.spec.duration is None:
            raise RuleError("host", "this phase has no time limit")
        if not (math.isfinite(at) and t < at <= t + MAX_CLOCK):
            raise RuleError("host", "a deadline must be after now and at most 366 days from "
                                    "now")
        resumed = self.paused_at is not None
        if self.paused_at is not None:
            self.phase_start += t - self.paused_at
            self.paused_at = None
            self.pause_reason = None
            self._recent.clear()
        if self.base_passed:
            self.reserve_end = dict.fromkeys(self.reserve_end, at)
        else:
            self.deadline = at
        self._emit("deadline", {"at": at, "deadline": self.next_deadline(),
                                "resumed": resumed}, None, t)

    def end(self, reason: str = "ended by the host") -> None:
        t = self.clock.now()
        self._process(t, inclusive=False)  # deadlines before it first, as a replay does
        if self.finished:
            raise RuleError("host", "the match is already over")
        self._emit("end", {"reason": reason}, None, t)
        self._finish(self.game.ended_early(self.state, reason), t)

    # ------------------------------------------------------------------ internals
    def _process(self, limit: float, *, inclusive: bool, budget: int | None = None) -> bool:
        """Resolve the deadlines up to ``limit``, each at its own time; True if ``budget``
        ran out with some still due. The G-5 bound keeps the loop finite: a match whose
        deadlines come faster than :data:`MAX_DEADLINES` a :data:`DEADLINE_WINDOW` pauses."""
        done = 0
        while True:
            if self.finished or self.paused_at is not None or self.spec is None:
                return False
            when = self.next_deadline()
            if when is None:  # a phase with no time limit: never due
                return False
            if when > limit or (when == limit and not inclusive):
                return False
            if budget is not None and done >= budget:
                return True
            done += 1
            recent = self._recent
            while recent and recent[0] <= when - DEADLINE_WINDOW:
                recent.popleft()
            if len(recent) >= MAX_DEADLINES:
                self._pause_too_fast(when)
                return False
            recent.append(when)
            if not self.base_passed:
                self._base_deadline(when)
            else:
                # Every seat whose period ends now at once: two running out together is a
                # double loss, not a win for whichever seat comes first (LM-21).
                ending = sorted(s for s, e in self.reserve_end.items() if e == when)
                out = frozenset(s for s in ending if self.reserve_left[s] == 0)
                if out:
                    for s in out:
                        del self.reserve_end[s]
                    self._run_out(out, when)
                    continue
                for seat in ending:
                    self._begin_period(seat, when)

    def _pause_too_fast(self, t: float) -> None:
        """G-5: pause at the deadline that broke the bound, at that deadline's own time (so a
        replay pauses at the same entry), telling the host why. Not an input: the replay
        reaches it by itself."""
        self.paused_at = t
        self.pause_reason = TOO_FAST
        # Facts only: the page and the webhook say it in their own words.
        self._emit("server_pause", {"rule": "G-5", "deadlines": MAX_DEADLINES,
                                    "within": DEADLINE_WINDOW},
                   None, t)

    def _base_deadline(self, t: float) -> None:
        spec = self.spec
        assert spec is not None
        self.base_passed = True
        self._emit("limit_passed", {"phase": spec.name}, None, t)
        lacking = [s for s in sorted(spec.must) if self.standing(s) is None and spec.reserve]
        out = frozenset(s for s in lacking if self.reserve_left[s] == 0)
        if out:
            self._run_out(out, t)
            return
        for seat in lacking:
            self._begin_period(seat, t)
        if not self.reserve_end:
            self._resolve(t)

    def _begin_period(self, seat: int, t: float) -> None:
        # G-3: a period is spent whole as soon as it begins.
        self.reserve_left[seat] -= 1
        self.reserve_end[seat] = t + self.scaled(self.config.reserve_period)
        used = self.config.reserve_periods - self.reserve_left[seat]
        self._emit(
            "reserve_period",
            {"seat": seat, "period": used, "left": self.reserve_left[seat],
             "until": self.reserve_end[seat]},
            None,
            t,
        )

    def _run_out(self, seats: frozenset[int], t: float) -> None:
        for seat in sorted(seats):
            self._emit("reserve_exhausted", {"seat": seat}, None, t)
        if len(seats) == 1:
            self._finish(self.game.forfeit(self.state, next(iter(seats))), t)
        else:
            self._finish(self.game.forfeit_together(self.state, seats), t)
