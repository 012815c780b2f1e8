"""Replay (G-7): rebuilding a match from the inputs of its log, in slices or to any entry.

The log's inputs and the stored seed rebuild a match exactly, deadlines included, since each
deadline is resolved at its own time. A server rebuilds its matches so at start-up, in slices
between requests; the replay viewer asks for the match as it stood after any entry, which
starts from the nearest checkpoint (a frozen copy kept every :data:`CHECKPOINT_EVERY` entries),
so its cost does not grow with the match's length. Kept apart because nothing here is a rule:
it only feeds recorded inputs back through the other parts. One part of
:class:`arena.core.match.Match`.
"""

from __future__ import annotations

import bisect
import copy
from collections import deque
from collections.abc import Generator, Iterable
from typing import TYPE_CHECKING, Any, Self

from arena.core.clock import Clock
from arena.core.eventlog import HOST, INPUT_KINDS, SPECTATOR, Event, Viewer
from arena.core.game import Game, GameConfig, PhaseSpec, Result, Submission
from arena.core.match_settings import MatchSettings

CHECKPOINT_EVERY = 32
"""Log entries between two checkpoints of a match: a replay view starts from the nearest one
before the asked version, so it costs at most this many entries' work whatever the match's
length."""


class Replay:
    """Rebuilding the match from its inputs, and the checkpoints that make it cheap."""

    game: Game[Any, Any]
    config: GameConfig
    seed: int
    clock: Clock
    settings: MatchSettings
    names: tuple[str, ...]
    created_at: float
    state: Any
    log: list[Event]
    result: Result | None
    paused_at: float | None
    phase_no: int
    spec: PhaseSpec | None
    phase_start: float
    deadline: float | None
    base_passed: bool
    reserve_left: list[int]
    reserve_end: dict[int, float]
    history: dict[int, list[Submission]]
    muted: set[str]
    private: set[int]
    _svg_state: Any
    _svg_cache: dict[object, str | None]
    _seen: dict[Viewer, tuple[int, bool, list[int]]]
    # (version, clock time, frozen copy): see :meth:`checkpoint` and :meth:`replay_to`.
    _checkpoints: list[tuple[int, float, Self]]

    if TYPE_CHECKING:  # the other parts of the match, and how it is made
        def __init__(self, game: Game[Any, Any], config: GameConfig, seed: int, clock: Clock,
                     settings: MatchSettings | None = None, *, start: float | None = None,
                     names: Iterable[str] = ()) -> None: ...
        @property
        def version(self) -> int: ...
        def advance(self, budget: int | None = None) -> bool: ...
        def submit(self, seat: int, text: str, *, final: bool = False, bot: bool = False,
                   phase: int | None = None) -> Submission: ...
        def confirm(self, seat: int, *, phase: int | None = None) -> None: ...
        def pause(self) -> None: ...
        def resume(self) -> None: ...
        def extend(self, seconds: float) -> None: ...
        def set_deadline(self, at: float) -> None: ...
        def end(self, reason: str = "ended by the host") -> None: ...
        def chat(self, sender: Viewer, channel: str, text: str) -> Event: ...
        def mute(self, channel: str, muted: bool) -> None: ...
        def host_note(self, data: dict[str, Any]) -> Event: ...
        def host_option(self, name: str, value: bool) -> Event: ...
        def set_private(self, seat: object, open_: bool, by: Viewer = HOST) -> Event: ...
        def act(self, name: str, data: Any, by: str) -> Event: ...
        def _process(self, limit: float, *, inclusive: bool,
                     budget: int | None = None) -> bool: ...

    def inputs(self) -> list[Event]:
        return [e for e in self.log if e.kind in INPUT_KINDS]

    @classmethod
    def replay(
        cls,
        game: Game[Any, Any],
        config: GameConfig,
        seed: int,
        settings: MatchSettings,
        start: float,
        inputs: Iterable[Event],
        clock: Clock,
        *,
        until: float | None = None,
        names: Iterable[str] = (),
    ) -> Self:
        """Rebuild a match from its inputs; then bring it to ``until`` (default: the clock).
        ``names`` are the seats' names it was created with (its messages name seats so)."""
        steps = cls.replaying(game, config, seed, settings, start, inputs, clock, until=until,
                              names=names)
        while True:
            try:
                next(steps)
            except StopIteration as done:
                match: Self = done.value
                return match

    @classmethod
    def replaying(
        cls,
        game: Game[Any, Any],
        config: GameConfig,
        seed: int,
        settings: MatchSettings,
        start: float,
        inputs: Iterable[Event],
        clock: Clock,
        *,
        until: float | None = None,
        step: int = 100,
        names: Iterable[str] = (),
    ) -> Generator[Self, None, Self]:
        """:meth:`replay` in slices: it yields the match so far after every ``step`` inputs
        or deadlines, so a server rebuilding matches at start-up can serve requests between
        slices and give up on a match that takes too long; it returns the rebuilt match."""
        from arena.core.clock import ManualClock

        manual = ManualClock(start)
        match = cls(game, config, seed, manual, settings, start=start, names=names)
        for n, event in enumerate(inputs, 1):
            if event.t > manual.now():
                manual.set(event.t)
            match.apply_input(event)
            match.checkpoint()
            if n % step == 0:
                yield match
        match.clock = clock
        if until is not None:
            manual.set(max(until, manual.now()))
            match.clock = manual
        while match.advance(budget=step):
            yield match
        match.clock = clock
        return match

    def checkpoint(self: Self) -> None:
        """Keep a frozen copy of the match as it is now, if :data:`CHECKPOINT_EVERY` entries
        were logged since the last one. Called between inputs (never inside one), where the
        match is exactly what a replay of its log so far would build."""
        last = self._checkpoints[-1][0] if self._checkpoints else 0
        if self.log and self.version - last >= CHECKPOINT_EVERY:
            self._checkpoints.append((self.version, self.log[-1].t, self._copy([])))

    def replay_to(self, version: int) -> Self:
        """The match as it stood right after log entry ``version`` (the replay viewer): the
        same as replaying the inputs up to it and resolving the deadlines up to its time,
        but started from the nearest checkpoint, so its cost does not grow with the log."""
        from arena.core.clock import ManualClock

        if not 1 <= version <= self.version:
            raise ValueError(f"no log entry {version}")
        t = self.log[version - 1].t
        at = bisect.bisect_right([c[0] for c in self._checkpoints], version) - 1
        if at >= 0:
            cp_version, cp_t, frozen = self._checkpoints[at]
            manual = ManualClock(cp_t)
            match = frozen._copy(self.log[:cp_version])
            match.clock = manual
        else:
            cp_version, manual = 0, ManualClock(self.created_at)
            match = type(self)(self.game, self.config, self.seed, manual, self.settings,
                               start=self.created_at, names=self.names)
        for event in self.log[cp_version:version]:
            if event.kind in INPUT_KINDS:
                if event.t > manual.now():
                    manual.set(event.t)
                match.apply_input(event)
        manual.set(max(t, manual.now()))
        match.advance()
        return match

    def as_of(self, t: float) -> Self | None:
        """The match exactly as it stood at time ``t`` (G-15, a broadcast one delay behind):
        every entry logged at or before ``t``, none after, or None if nothing was logged yet.

        The last entry at or before ``t`` is the cut: a deadline falling between it and
        ``t`` would have logged an entry at or before ``t`` itself, so the match after that
        entry is the whole match as of ``t``; only the clock differs, and a reader of this
        copy is told ``t`` as its time (its countdowns run one delay behind)."""
        version = bisect.bisect_right(self.log, t, key=lambda e: e.t)
        return None if version == 0 else self.replay_to(version)

    def _copy(self, log: list[Event]) -> Self:
        """An independent copy sharing only immutable values (the game state is immutable)
        with ``log`` as its log."""
        other = copy.copy(self)
        for name, value in vars(self).items():
            if name in ("log", "_checkpoints", "_seen", "_svg_cache"):
                continue
            if isinstance(value, dict):
                setattr(other, name, {k: list(v) if isinstance(v, list) else v
                                      for k, v in value.items()})
            elif isinstance(value, (list, set, deque)):
                setattr(other, name, copy.copy(value))
        other.log = log
        other._svg_state, other._svg_cache = None, {}
        other._seen = {}
        other._checkpoints = []
        return other

    def apply_input(self, event: Event) -> None:
        """Re-apply one recorded input at the clock's current time (its ``t``).

        A deadline and an input can share a timestamp; which came first is recorded in the
        version numbers. If the live match logged events before this input that the replay has
        not produced yet, they came from deadlines before this time (a live input resolves
        those first, but the replay of the previous input may have stopped short of them when
        they fell at *its* moment) and then, if some are still missing, from deadlines at
        exactly this time: resolve them in that order, and no further.
        """
        if self.version + 1 < event.version:
            self._process(self.clock.now(), inclusive=False)
        if self.version + 1 < event.version:
            self._process(self.clock.now(), inclusive=True)
        data = event.data
        if event.kind == "submit":
            self.submit(int(data["seat"]), str(data["text"]), final=bool(data["final"]),
                        bot=bool(data.get("bot", False)))
        elif event.kind == "confirm":
            self.confirm(int(data["seat"]))
        elif event.kind == "pause":
            self.pause()
        elif event.kind == "resume":
            self.resume()
        elif event.kind == "extend":
            self.extend(float(data["seconds"]))
        elif event.kind == "deadline":
            self.set_deadline(float(data["at"]))
        elif event.kind == "end":
            self.end(str(data.get("reason", "ended by the host")))
        elif event.kind == "chat":
            sender = data["from"]
            self.chat(sender if sender in (HOST, SPECTATOR) else int(sender),
                      str(data["channel"]), str(data["text"]))
        elif event.kind == "mute":
            self.mute(str(data["channel"]), bool(data["muted"]))
        elif event.kind == "host_note":
            self.host_note(dict(data))
        elif event.kind == "host_option":
            self.host_option(str(data["name"]), bool(data["value"]))
        elif event.kind == "private":
            # G-13: a seat may open its own channel; entries from before that say no "by".
            by = data.get("by", HOST)
            self.set_private(int(data["seat"]), bool(data["open"]),
                             by=HOST if by == HOST else int(by))
        elif event.kind == "act":
            self.act(str(data["name"]), data.get("data"), str(data["by"]))
        else:  # pragma: no cover - guarded by INPUT_KINDS
            raise ValueError(f"not an input: {event.kind}")

    def snapshot(self) -> tuple[Any, ...]:
        """Everything that defines the match now, for replay-equality checks."""
        return (
            self.state,
            self.phase_no,
            self.spec,
            self.phase_start,
            self.deadline,
            self.base_passed,
            tuple(self.reserve_left),
            tuple(sorted(self.reserve_end.items())),
            tuple(sorted((s, tuple(v)) for s, v in self.history.items())),
            self.result,
            self.paused_at,
            tuple(sorted(self.private)),
            tuple(sorted(self.muted)),
            tuple((e.version, e.kind, repr(e.data), e.to, e.t) for e in self.log),
        )
