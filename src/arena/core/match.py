"""The match runner: one owner per live match, one command at a time (the lichess habit).

It holds the game state and everything about time the game must not know: phase limits,
reserve banks (G-3), sealed submissions (G-2), early close (G-4), the host's pause and
extensions. Everything that changes the match enters through :meth:`Match.submit`,
:meth:`Match.confirm`, :meth:`Match.advance`, a game act (:meth:`Match.act`) or a host action, and is written to the event
log first-class; replaying the inputs of the log with the stored seed rebuilds the match
exactly (G-7). Deadlines are resolved *at the deadline's own time*, however late
:meth:`advance` is called, so a server that was down resolves a passed deadline at once and
still reaches the same state as one that never stopped.

:class:`Match` is one object made of parts, each in the module named for what it owns:

- :mod:`arena.core.phases`: the phase runner: submissions, early close, resolution (G-2, G-4);
- :mod:`arena.core.acts`: the host's or the server's acts that a game defines;
- :mod:`arena.core.deadlines`: phase limits, reserve periods, the host's pause, extension and
  ending, G-5's bound on how fast deadlines may fall due (G-3, G-5);
- :mod:`arena.core.visibility`: writing the log, who may see each entry, each viewer's own
  versions and view (G-9, G-10);
- :mod:`arena.core.channels`: chat, the host's mute and private channels (G-13, LO-12);
- :mod:`arena.core.hosting`: the host's notes and the game's host options;
- :mod:`arena.core.replay`: rebuilding a match from its inputs, and checkpoints (G-7);

and the values they share: the log's entries and readers (:mod:`arena.core.eventlog`) and the
match's own settings (:mod:`arena.core.match_settings`). This module puts the parts together
and sets up a match's state; every name the engine offers is importable from here.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from arena.core import rng as rngmod
from arena.core.acts import Acts
from arena.core.channels import Channels
from arena.core.clock import Clock
from arena.core.deadlines import DEADLINE_WINDOW, MAX_DEADLINES, TOO_FAST, Deadlines
from arena.core.eventlog import HOST, INPUT_KINDS, SPECTATOR, Event, Viewer
from arena.core.game import Game, GameConfig, PhaseSpec, Result, Submission, seat_label
from arena.core.hosting import Hosting
from arena.core.match_settings import BOT_PACES, MAX_TIME_SCALE, MIN_TIME_SCALE, MatchSettings
from arena.core.phases import Phases, phase_label
from arena.core.replay import CHECKPOINT_EVERY, Replay
from arena.core.visibility import Visibility

__all__ = [
    "BOT_PACES",
    "CHECKPOINT_EVERY",
    "DEADLINE_WINDOW",
    "HOST",
    "INPUT_KINDS",
    "MAX_DEADLINES",
    "MAX_TIME_SCALE",
    "MIN_TIME_SCALE",
    "SPECTATOR",
    "TOO_FAST",
    "Event",
    "Match",
    "MatchSettings",
    "Viewer",
    "phase_label",
]


class Match(Phases, Acts, Deadlines, Visibility, Channels, Hosting, Replay):
    """A live (or replayed) match of one game."""

    def __init__(
        self,
        game: Game[Any, Any],
        config: GameConfig,
        seed: int,
        clock: Clock,
        settings: MatchSettings | None = None,
        *,
        start: float | None = None,
        names: Iterable[str] = (),
    ) -> None:
        self.game = game
        self.config = config
        self.seed = seed
        self.clock = clock
        self.settings = settings or MatchSettings()
        self.log: list[Event] = []
        self.result: Result | None = None
        self.state: Any = game.initial_state(config, rngmod.derive(seed, "setup"))
        self.seats = game.seat_count(config)
        # The players' names, as the match was created with them: every message to people
        # names a seat by its player (LO-10, G-6). Not a rule input; none in a simulation.
        self.names: tuple[str, ...] = tuple(names)
        if self.names and len(self.names) != self.seats:
            raise ValueError(f"{len(self.names)} names for {self.seats} seats")
        if self.names:
            self.state = game.with_seat_names(self.state, self.names)
        self.reserve_left: list[int] = [config.reserve_periods] * self.seats
        self.paused_at: float | None = None
        # Why the server (not the host) paused the match, shown to the host; None otherwise.
        self.pause_reason: str | None = None
        # The times of the deadlines resolved within the last DEADLINE_WINDOW (G-5 bound).
        self._recent: deque[float] = deque()
        self.phase_no = 0
        self.spec: PhaseSpec | None = None
        self.phase_start = 0.0
        self.deadline: float | None = 0.0
        self.base_passed = False
        self.reserve_end: dict[int, float] = {}
        self.history: dict[int, list[Submission]] = {}
        self.reserve_pick: dict[int, Submission] = {}
        self.phase_ends: dict[int, tuple[str, float]] = {}
        # The phase (number, name) the last accepted submit or confirm was applied to, for the
        # API's answer: a client that sent no phase number learns which phase took it (G-2).
        self.answered: tuple[int, str] | None = None
        self.muted: set[str] = set()
        # The seats the host has a private channel open with (G-13): the channel's lines, its
        # opening and closing are logged for the host and that seat alone.
        self.private: set[int] = set()
        self._svg_state: Any = None
        self._svg_cache: dict[object, str | None] = {}
        # Per viewer: (entries scanned, finished then, the versions it may see), G-10.
        self._seen: dict[Viewer, tuple[int, bool, list[int]]] = {}
        # (version, clock time, frozen copy): see :meth:`checkpoint` and :meth:`replay_to`.
        self._checkpoints: list[tuple[int, float, Match]] = []
        t0 = clock.now() if start is None else start
        self.created_at = t0
        self._emit("match_started", {"game": game.name}, None, t0)
        # With the seed and the code a player could compute every hidden draw: host only.
        self._emit("seed", {"seed": seed}, frozenset(), t0)
        self._start_phase(t0)

    # ------------------------------------------------------------------ queries
    def seat_name(self, seat: int) -> str:
        """A seat in words: its player's name (LO-10, G-6); the game's own where the match was
        given none (a config that names its seats, LO-10)."""
        return seat_label(self.names, seat) if self.names else self.game.seat_name(self.state, seat)
