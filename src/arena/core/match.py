"""The match runner: one owner per live match, one command at a time (the lichess habit).

It holds the game state and everything about time the game must not know: phase limits,
reserve banks (G-3), sealed submissions (G-2), early close (G-4), the host's pause and
extensions. Everything that changes the match enters through :meth:`Match.submit`,
:meth:`Match.confirm`, :meth:`Match.advance` or a host action, and is written to the event
log first-class; replaying the inputs of the log with the stored seed rebuilds the match
exactly (G-7). Deadlines are resolved *at the deadline's own time*, however late
:meth:`advance` is called, so a server that was down resolves a passed deadline at once and
still reaches the same state as one that never stopped.
"""

from __future__ import annotations

import bisect
import copy
import dataclasses
from collections import deque
from collections.abc import Generator, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import ConfigDict, Field

from arena.core import chat as chatmod
from arena.core import rng as rngmod
from arena.core import settings as schema
from arena.core.clock import Clock
from arena.core.errors import RuleError, StalePhase
from arena.core.game import (
    JSON,
    Game,
    GameConfig,
    GameEvent,
    PhaseOutcome,
    PhaseSpec,
    Result,
    Submission,
    SubmitContext,
    seat_label,
)

_new_object = object.__new__
_T = TypeVar("_T")


def _frozen(cls: type[_T], **values: Any) -> _T:
    """``cls(**values)`` for a frozen dataclass with no ``__post_init__`` and every field
    given, without the per-field ``object.__setattr__`` of its ``__init__``: the match makes
    several such objects per decision (issue 29 point 4). The result is the same value; a
    field left out is an AttributeError on first read, never a wrong default."""
    obj = _new_object(cls)
    obj.__dict__.update(values)
    return obj

HOST: Literal["host"] = "host"
SPECTATOR: Literal["spectator"] = "spectator"
Viewer = int | Literal["host", "spectator"]

INPUT_KINDS = frozenset({"submit", "confirm", "pause", "resume", "extend", "end", "chat", "mute", "host_note", "host_option",
                         "private"})
"""Event kinds that are inputs: replaying just these rebuilds every other event."""


CHECKPOINT_EVERY = 32
"""Log entries between two checkpoints of a match: a replay view starts from the nearest one
before the asked version, so it costs at most this many entries' work whatever the match's
length (issue 25 point 5)."""

MIN_TIME_SCALE = 0.001
MAX_TIME_SCALE = 1000.0

MAX_DEADLINES = 50
DEADLINE_WINDOW = 1.0
"""G-5's bound on how fast a match may run: at most :data:`MAX_DEADLINES` deadlines (phase
limits, reserve periods: each is one resolution) within :data:`DEADLINE_WINDOW` seconds of the
match's clock. Settings that get past validation but make deadlines fall due faster (a zero
round in a game without a round limit) pause the match instead of looping the server. It is
measured on the deadlines' own times, which the log records, so a replay pauses at the same
entry as the live match did."""

TOO_FAST = ("deadlines fell due faster than the server allows (G-5: at most "
            f"{MAX_DEADLINES} within {DEADLINE_WINDOW:g} s); the host may resume the match "
            "or end it")


BOT_PACES = ("human", "instant")


@dataclass(frozen=True)
class MatchSettings:
    """Settings of one match that are not the game's: G-4 early close, G-5 time scale, G-9,
    G-11 bot pace. Typed and bounded like a game's config (:mod:`arena.core.settings`)."""

    __pydantic_config__: ClassVar[ConfigDict] = schema.STRICT

    # A time scale near zero turns a whole match into a burst of deadlines that the server
    # must resolve at once; the whole-match rule also holds every scaled phase to a floor.
    time_scale: Annotated[float, Field(
        ge=MIN_TIME_SCALE, le=MAX_TIME_SCALE,
        description="G-5: multiplies every duration: 2 doubles each one, 0.5 halves it, 1 "
                    "keeps the rule texts' durations (0.05 for fast practice)",
        title="Time scale")] = 1.0
    early_close: Annotated[bool, Field(
        description="G-4: a phase ends once every seat that must act has confirmed",
        title="Early close")] = True
    reveal_at_end: Annotated[bool, Field(
        description="G-9: everything private becomes public when the match ends",
        title="Reveal at the end")] = True
    # G-11: "human" bots wait a plausible, seeded time before acting (and are charged it);
    # "instant" bots act at once, for simulations and tests.
    bot_pace: Annotated[Literal["human", "instant"], Field(
        description="G-11: bots act at a human pace, or at once", title="Bot pace")] = "human"

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchSettings:
        """Settings from JSON, strictly (issue 25); keys that are not the engine's (the
        server's ``spectators``) are left to their owner."""
        known = {f.name for f in dataclasses.fields(cls)}
        ours = {k: v for k, v in data.items() if k in known} if isinstance(data, dict) else data
        settings: MatchSettings = schema.validate(cls, ours, what="match setting")
        return settings


@dataclass(frozen=True)
class Event:
    """An entry of the append-only log. ``to=None`` is public; a set names the seats that may
    see it (the host sees everything; an empty set is for the host alone)."""

    version: int
    kind: str
    data: JSON
    to: frozenset[int] | None
    t: float

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "kind": self.kind,
            "data": self.data,
            "to": None if self.to is None else sorted(self.to),
            "t": self.t,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        to = data.get("to")
        return cls(
            version=int(data["version"]),
            kind=str(data["kind"]),
            data=data.get("data"),
            to=None if to is None else frozenset(int(s) for s in to),
            t=float(data["t"]),
        )


def phase_label(no: int, name: str) -> str:
    """A phase in words: its own name where the game numbers it ("round 1", "bout 2: bet"),
    otherwise its number and name ("phase 4 (draft)"), since a draft or a pick recurs."""
    return name if any(c.isdigit() for c in name) else f"phase {no} ({name})"


class Match:
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
        self.deadline = 0.0
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
    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def version(self) -> int:
        return self.log[-1].version if self.log else 0

    def scaled(self, seconds: float, spec: PhaseSpec | None = None) -> float:
        if spec is not None and not spec.scaled:
            return seconds
        return seconds * self.settings.time_scale

    def next_deadline(self) -> float | None:
        """When the match next needs :meth:`advance`, or None (finished or paused)."""
        if self.finished or self.paused_at is not None or self.spec is None:
            return None
        if not self.base_passed:
            return self.deadline
        return min(self.reserve_end.values()) if self.reserve_end else self.deadline

    def seat_name(self, seat: int) -> str:
        """A seat in words: its player's name (LO-10, G-6); the game's own where the match was
        given none (Locked Out!'s config names its seats)."""
        return seat_label(self.names, seat) if self.names else self.game.seat_name(self.state, seat)

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
        # after it): read directly, as this is asked around every decision (issue 29 point 4).
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
        ctx = _frozen(SubmitContext, at=at, previous=previous, scale=self.settings.time_scale)
        value = self.game.validate(self.state, seat, text, ctx)
        self.answered = answered
        in_reserve = seat in self.reserve_end
        sub = _frozen(Submission, seat=seat, text=text, value=value, at=at,
                      final=final or in_reserve, in_reserve=in_reserve)
        self.history.setdefault(seat, []).append(sub)
        data = {"seat": seat, "text": text, "final": sub.final, "bot": bot}
        self._emit("submit", data, frozenset({seat}), t)
        self._emit(
            "accepted",
            {"seat": seat, "phase": spec.name, "value": value, "at": at, "in_reserve": in_reserve},
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

    def advance(self, budget: int | None = None) -> bool:
        """Resolve every deadline that has passed by now, each at its own time.

        With ``budget``, stop after that many deadlines and return True if more are due: the
        server resolves a long backlog in slices, letting other work run between them (the
        outcome is the same, since each deadline resolves at its own time whenever it is
        reached)."""
        return self._process(self.clock.now(), inclusive=True, budget=budget)

    def pause(self) -> None:
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
        self.deadline += shift
        self.reserve_end = {s: e + shift for s, e in self.reserve_end.items()}
        self._emit("resume", {"shifted": shift, "deadline": self.deadline}, None, t)

    def extend(self, seconds: float) -> None:
        """Give the current phase more time (the host's tool for a dropped connection)."""
        t = self.clock.now()
        self._process(t, inclusive=True)
        if self.finished:
            raise RuleError("host", "the match is over")
        if not 0 < seconds <= 7 * 24 * 3600:
            raise RuleError("host", "an extension must be between 0 and one week of seconds")
        if self.base_passed:
            self.reserve_end = {s: e + seconds for s, e in self.reserve_end.items()}
        else:
            self.deadline += seconds
        self._emit("extend", {"seconds": seconds, "deadline": self.next_deadline()}, None, t)

    def end(self, reason: str = "ended by the host") -> None:
        t = self.clock.now()
        self._process(t, inclusive=False)  # deadlines before it first, as a replay does
        if self.finished:
            raise RuleError("host", "the match is already over")
        self._emit("end", {"reason": reason}, None, t)
        self._finish(Result(None, self.game.scores(self.state), reason), t)

    # ------------------------------------------------------------------ views
    @staticmethod
    def private_seat_of(event: Event) -> int | None:
        """The seat whose private channel with the host ``event`` belongs to (its opening or
        closing, a line in it, its muting), or None (G-13)."""
        data = event.data
        if not isinstance(data, dict):
            return None
        if event.kind == "private":
            seat = data.get("seat")
            return seat if isinstance(seat, int) else None
        if event.kind in ("chat", "mute"):
            return chatmod.private_seat(data.get("channel"))
        return None

    def can_see(self, viewer: Viewer, event: Event) -> bool:
        private = self.private_seat_of(event)
        if private is not None:
            # G-13: only the host and that seat, ever: the end of the match (G-9) reveals the
            # game's secrets, not a conversation the others never knew of.
            return viewer in (HOST, private)
        if event.kind == "chat" and isinstance(event.data, dict) \
                and event.data.get("channel") == chatmod.SPECTATORS:
            # G-13: the spectators' channel is hidden from the seats while the match runs.
            return viewer in (HOST, SPECTATOR) or self.finished
        if viewer == HOST or event.to is None:
            return True
        if self.finished and self.settings.reveal_at_end:
            return True
        return isinstance(viewer, int) and viewer in event.to

    def visible_versions(self, viewer: Viewer) -> list[int]:
        """The log versions of the entries ``viewer`` may see, in order (kept up to date as
        the log grows; rebuilt when the end of the match reveals more, G-9)."""
        scanned, finished, versions = self._seen.get(viewer, (0, self.finished, []))
        if finished != self.finished or scanned > len(self.log):
            scanned, versions = 0, []
        if scanned < len(self.log):
            versions.extend(e.version for e in self.log[scanned:] if self.can_see(viewer, e))
            self._seen[viewer] = (len(self.log), self.finished, versions)
        return versions

    def version_for(self, viewer: Viewer) -> int:
        """The viewer's own version: how many log entries it may see (G-10).

        A viewer counts only what it sees. The log's own numbers would tell a seat that hidden
        entries (another seat's sealed submission) were written, and when; so every version a
        reader is shown, in any answer, is a position in its own sequence. The host sees every
        entry, so for the host (and for everyone once a finished match reveals its log) this
        is the log's version."""
        return len(self.visible_versions(viewer))

    def seq_of(self, viewer: Viewer, version: int) -> int:
        """The viewer's version that log version ``version`` corresponds to: how many entries
        up to it the viewer may see."""
        return bisect.bisect_right(self.visible_versions(viewer), version)

    def log_version_of(self, viewer: Viewer, seq: int) -> int:
        """The log version of the viewer's ``seq``-th visible entry (0 for 0); ``seq`` past
        the viewer's last is taken as its last."""
        versions = self.visible_versions(viewer)
        seq = min(max(seq, 0), len(versions))
        return versions[seq - 1] if seq else 0

    def events_for(self, viewer: Viewer, since: int = 0) -> list[Event]:
        """The entries ``viewer`` may see after log version ``since`` (engine-side: every
        number a reader is shown goes through :meth:`events_seen` instead)."""
        return [e for e in self.log if e.version > since and self.can_see(viewer, e)]

    def events_seen(self, viewer: Viewer, since: int = 0) -> list[tuple[int, Event]]:
        """The entries ``viewer`` may see after its own version ``since``, each with its
        position in the viewer's sequence."""
        versions = self.visible_versions(viewer)
        since = max(since, 0)
        # Versions are the log's positions plus one (the log is append-only from 1).
        return [(i + 1, self.log[v - 1]) for i, v in enumerate(versions[since:], start=since)]

    def view(self, viewer: Viewer, *, svg: bool = True) -> dict[str, Any]:
        """What ``viewer`` sees now: the engine's part (phase, clocks) and the game's (G-9).
        ``svg=False`` leaves the board picture out (``None``): a page that draws its own
        board does not need 5 KB of picture on every Feather tick (issue 29 point 1)."""
        reveal = viewer == HOST or (self.finished and self.settings.reveal_at_end)
        if reveal:
            game_view = self.game.host_view(self.state)
        else:
            game_view = self.game.view(self.state, viewer if isinstance(viewer, int) else None)
        spec = self.spec if not self.finished else None
        # G-10: in a sealed phase only the host and the seat itself learn whether it acted.
        sealed = spec is not None and spec.sealed and viewer != HOST
        seats: list[dict[str, Any]] = []
        for s in range(self.seats):
            sub = self.standing(s)
            own = not sealed or viewer == s
            entry: dict[str, Any] = {
                "seat": s,
                "acted": sub is not None if own else None,
                "final": (sub is not None and sub.final) if own else None,
                "reserve_left": self.reserve_left[s],
                "in_reserve_until": self.reserve_end.get(s),
            }
            if sub is not None and (reveal or viewer == s):
                entry["submissions"] = [
                    {"text": x.text, "value": x.value, "at": x.at, "final": x.final}
                    for x in self.history.get(s, [])
                ]
            seats.append(entry)
        picture = self._svg(reveal, viewer) if svg else None
        return {
            "game": self.game.name,
            "version": self.version_for(viewer),
            "now": self.clock.now(),
            "paused": self.paused_at is not None,
            "pause_reason": self.pause_reason,
            "phase": None
            if spec is None
            else {
                "no": self.phase_no,
                "name": spec.name,
                "prompt": spec.prompt,
                "must": sorted(spec.must),
                "may": sorted(spec.may),
                "started": self.phase_start,
                "deadline": self.deadline,
                "base_passed": self.base_passed,
                "reserve": spec.reserve,
                "next_deadline": self.next_deadline(),
                "waiting_for": sorted(
                    w for w in self.waiting_for()
                    if not sealed or viewer == w or w in self.reserve_end),
            },
            "seats": seats,
            "state": game_view,
            "svg": picture,
            "result": None if self.result is None else self.result.to_json(),
            "chat": self.chat_channels(viewer),
            "host_options": None if viewer != HOST or self.finished else {
                k: {"value": v, "label": label}
                for k, (v, label) in self.game.host_options(self.state).items()},
        }

    def _svg(self, reveal: bool, viewer: Viewer) -> str | None:
        """The board picture for a viewer, drawn once per state and kind of viewer: a broadcast
        to many spectators draws it once, and a chat line (no new state) never redraws it."""
        if self._svg_state is not self.state:
            self._svg_state, self._svg_cache = self.state, {}
        key: object = "host" if reveal else (viewer if isinstance(viewer, int) else None)
        if key not in self._svg_cache:
            self._svg_cache[key] = (self.game.host_svg(self.state) if reveal else
                                    self.game.render_svg(self.state, key if isinstance(key, int)
                                                         else None))
        return self._svg_cache[key]

    # ------------------------------------------------------------------ chat (G-13, LO-12)
    def _game_channels(self) -> dict[str, chatmod.ChatChannel]:
        if self.finished:
            return {}
        return {c.id: c for c in self.game.chat_channels(self.state)}

    def chat_channels(self, viewer: Viewer) -> list[dict[str, Any]]:
        """The channels ``viewer`` reads and whether it may post in each now (a closed private
        channel's old messages stay in the viewer's log; only open ones are listed)."""
        out: list[dict[str, Any]] = []

        def add(cid: str, title: str) -> None:
            refusal = self._chat_refusal(viewer, cid)
            out.append({"id": cid, "title": title, "muted": cid in self.muted,
                        "can_post": refusal is None, "why_not": refusal})

        add(chatmod.TABLE, "Table")
        if viewer in (HOST, SPECTATOR) or self.finished:
            add(chatmod.SPECTATORS, "Spectators")
        for c in self._game_channels().values():
            if viewer == HOST or (isinstance(viewer, int) and viewer in c.seats):
                add(c.id, c.title)
        if not self.finished:
            for s in sorted(self.private):
                if viewer == HOST:
                    add(chatmod.private_channel(s), f"Private: {self.seat_name(s)}")
                elif viewer == s:
                    add(chatmod.private_channel(s), "Host (private)")
        return out

    def _chat_refusal(self, sender: Viewer, channel: str) -> str | None:
        """Why ``sender`` may not post in ``channel`` now (with the rule), or None."""
        if self.finished:
            return "G-13: the match is over, so its chat is closed"
        private = chatmod.private_seat(channel)
        if private is not None:
            # Anyone but the host and that seat gets the answer for a channel that does not
            # exist, so a refusal never tells that it does (G-13).
            if private not in self.private or sender not in (HOST, private):
                return f"G-13: there is no open channel called {channel!r}"
            if sender != HOST and channel in self.muted:
                return "G-13: the host has muted this channel"
            return None
        game_channels = self._game_channels()
        if channel not in (chatmod.TABLE, chatmod.SPECTATORS) and channel not in game_channels:
            return f"G-13: there is no open channel called {channel!r}"
        if sender == HOST:
            return None
        if channel in self.muted:
            return "G-13: the host has muted this channel"
        if channel == chatmod.SPECTATORS:
            return None if sender == SPECTATOR else \
                "G-13: the spectators' channel is for spectators while the match runs"
        if sender == SPECTATOR:
            return "G-13: spectators read the table but post in the spectators' channel"
        assert isinstance(sender, int)
        if channel in game_channels and sender not in game_channels[channel].seats:
            return "G-13: that channel is for other seats"
        return self.game.chat_refusal(self.state, sender, channel)

    def chat(self, sender: Viewer, channel: str, text: str) -> Event:
        """Post ``text`` in ``channel``: an input of the log, seen as the channel says."""
        channel = chatmod.check_channel_id(channel)
        text = chatmod.clean_text(text)
        t = self.clock.now()
        self._process(t, inclusive=False)
        refusal = self._chat_refusal(sender, channel)
        if refusal is not None:
            rule, _, words = refusal.partition(": ")
            raise RuleError(rule, words)
        to: frozenset[int] | None
        if channel == chatmod.TABLE:
            to = None
        elif channel == chatmod.SPECTATORS:
            to = frozenset()  # the host, and spectators by can_see (G-13)
        elif (private := chatmod.private_seat(channel)) is not None:
            to = frozenset({private})
        else:
            to = self._game_channels()[channel].seats
        return self._emit("chat", {"channel": channel, "from": sender, "text": text}, to, t)

    def mute(self, channel: str, muted: bool) -> None:
        """The host mutes or opens a channel (G-13); the host may still post in it."""
        channel = chatmod.check_channel_id(channel)
        self._process(self.clock.now(), inclusive=False)  # deadlines before it first
        if (channel in self.muted) == muted:
            raise RuleError("G-13", f"the channel is already {'muted' if muted else 'open'}")
        private = chatmod.private_seat(channel)
        if private is not None and private not in self.private:
            raise RuleError("G-13", f"there is no open channel called {channel!r}")
        if muted:
            self.muted.add(channel)
        else:
            self.muted.discard(channel)
        # Muting the host's private channel is news for that seat alone (G-13).
        to = None if private is None else frozenset({private})
        self._emit("mute", {"channel": channel, "muted": muted}, to, self.clock.now())

    def set_private(self, seat: object, open_: bool) -> Event:
        """The host opens (or closes) a private channel with one seat (G-13): an input of the
        log, logged for the host and that seat alone, so replay and restart rebuild it and
        nobody else learns it exists. A closed channel's lines stay in the two readers' logs."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise RuleError("G-13", f"name a seat from 0 to {self.seats - 1} to talk to "
                                    "privately")
        t = self.clock.now()
        self._process(t, inclusive=False)  # deadlines before it first, as a replay does
        if self.finished:
            raise RuleError("G-13", "the match is over, so its chat is closed")
        if (seat in self.private) == open_:
            raise RuleError("G-13", f"the private channel with {self.seat_name(seat)} is "
                                    f"already {'open' if open_ else 'closed'}")
        if open_:
            self.private.add(seat)
        else:
            self.private.discard(seat)
        return self._emit("private", {"seat": seat, "open": open_,
                                      "channel": chatmod.private_channel(seat)},
                          frozenset({seat}), t)

    def host_note(self, data: dict[str, Any]) -> Event:
        """A fact of the hosting kept in the log: a seat handed to a bot or to a person
        (public), a seat's link reissued (host only). It changes no rule state; it is an input
        so that a replay and a restart rebuild the same log."""
        public = bool(data.get("public", False))
        t = self.clock.now()
        self._process(t, inclusive=False)  # deadlines before it first, as a replay does
        return self._emit("host_note", data, None if public else frozenset(), t)

    def host_option(self, name: str, value: bool) -> Event:
        """The host flips one of the game's live switches (LO-12's helper for seats)."""
        self._process(self.clock.now(), inclusive=False)  # deadlines before it first
        if self.finished:
            raise RuleError("host", "the match is over")
        options = self.game.host_options(self.state)
        if name not in options:
            raise RuleError("host", f"this game has no option called {name!r}")
        if options[name][0] == value:
            raise RuleError("host", f"{options[name][1]} is already {'on' if value else 'off'}")
        self.state = self.game.set_host_option(self.state, name, value)
        return self._emit("host_option", {"name": name, "value": value,
                                          "label": options[name][1]}, None, self.clock.now())

    # ------------------------------------------------------------------ replay
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
    ) -> Match:
        """Rebuild a match from its inputs; then bring it to ``until`` (default: the clock).
        ``names`` are the seats' names it was created with (its messages name seats so)."""
        steps = cls.replaying(game, config, seed, settings, start, inputs, clock, until=until,
                              names=names)
        while True:
            try:
                next(steps)
            except StopIteration as done:
                match: Match = done.value
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
    ) -> Generator[Match, None, Match]:
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

    def checkpoint(self) -> None:
        """Keep a frozen copy of the match as it is now, if :data:`CHECKPOINT_EVERY` entries
        were logged since the last one. Called between inputs (never inside one), where the
        match is exactly what a replay of its log so far would build."""
        last = self._checkpoints[-1][0] if self._checkpoints else 0
        if self.log and self.version - last >= CHECKPOINT_EVERY:
            self._checkpoints.append((self.version, self.log[-1].t, self._copy([])))

    def replay_to(self, version: int) -> Match:
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
            match = Match(self.game, self.config, self.seed, manual, self.settings,
                          start=self.created_at, names=self.names)
        for event in self.log[cp_version:version]:
            if event.kind in INPUT_KINDS:
                if event.t > manual.now():
                    manual.set(event.t)
                match.apply_input(event)
        manual.set(max(t, manual.now()))
        match.advance()
        return match

    def _copy(self, log: list[Event]) -> Match:
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
            self.set_private(int(data["seat"]), bool(data["open"]))
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

    @staticmethod
    def _activity_to(spec: PhaseSpec) -> frozenset[int] | None:
        """Who learns that a seat acted: everyone in an unsealed phase, the host alone (an
        empty audience) in a sealed one (G-10)."""
        return frozenset() if spec.sealed else None

    def _emit(self, kind: str, data: JSON, to: frozenset[int] | None, t: float) -> Event:
        # The same frozen Event its constructor makes, without the five object.__setattr__
        # calls of a frozen dataclass's __init__: a match writes several entries per decision
        # (issue 29 point 4). Versions count from 1 without gaps, so the next is the length.
        event: Event = _new_object(Event)
        event.__dict__.update(version=len(self.log) + 1, kind=kind, data=data, to=to, t=t)
        self.log.append(event)
        return event

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
            self.deadline = t + self.scaled(spec.duration, spec)
            self.base_passed = False
            self.reserve_end = {}
            self.history = {}
            self.reserve_pick = {}
            self._emit(
                "phase_started",
                {
                    "no": self.phase_no,
                    "name": spec.name,
                    "prompt": spec.prompt,
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

    def _process(self, limit: float, *, inclusive: bool, budget: int | None = None) -> bool:
        """Resolve the deadlines up to ``limit``, each at its own time; True if ``budget``
        ran out with some still due. The G-5 bound keeps the loop finite: a match whose
        deadlines come faster than :data:`MAX_DEADLINES` a :data:`DEADLINE_WINDOW` pauses."""
        done = 0
        while True:
            if self.finished or self.paused_at is not None or self.spec is None:
                return False
            when = self.next_deadline()
            assert when is not None
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
        self._emit("server_pause", {"rule": "G-5", "reason": TOO_FAST,
                                    "deadlines": MAX_DEADLINES, "within": DEADLINE_WINDOW},
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

    def _resolve(self, t: float) -> None:
        spec = self.spec
        assert spec is not None
        standing = {s: sub for s in range(self.seats) if (sub := self.standing(s)) is not None}
        outcome = _frozen(
            PhaseOutcome,
            standing=standing,
            history={s: tuple(v) for s, v in self.history.items()},
            missing=frozenset(s for s in spec.must if s not in standing),
            ended_at=t - self.phase_start,
            scale=self.settings.time_scale,
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
        self._emit("match_ended", result.to_json(), None, t)
