"""The log and who may see it (G-9, G-10, G-13): writing entries, each viewer's own sequence
of them, and the view of the match now.

Every entry of the log names its audience; a seat, the host and the spectators each read only
what they may, and every version a reader is shown counts only what it sees, so no answer
tells a seat that a hidden entry was written (G-10). The same rules shape :meth:`view`: in a
sealed phase only the host and the seat itself learn whether it acted, and the end of the match
reveals the game's secrets (G-9) but never a private conversation (G-13). Kept apart from what
the runner does so that every rule about reading is in one place. One part of
:class:`arena.core.match.Match`.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING, Any

from arena.core import chat as chatmod
from arena.core.clock import Clock
from arena.core.eventlog import HOST, SPECTATOR, Event, Viewer
from arena.core.game import JSON, Game, PhaseSpec, Result, Submission
from arena.core.match_settings import MatchSettings


class Visibility:
    """The match's log: appending to it, and reading it as one viewer may."""

    game: Game[Any, Any]
    clock: Clock
    settings: MatchSettings
    state: Any
    seats: int
    log: list[Event]
    result: Result | None
    paused_at: float | None
    pause_reason: str | None
    phase_no: int
    spec: PhaseSpec | None
    phase_start: float
    deadline: float | None
    base_passed: bool
    reserve_left: list[int]
    reserve_end: dict[int, float]
    history: dict[int, list[Submission]]
    _svg_state: Any
    _svg_cache: dict[object, str | None]
    # Per viewer: (entries scanned, finished then, the versions it may see), G-10.
    _seen: dict[Viewer, tuple[int, bool, list[int]]]

    if TYPE_CHECKING:  # the other parts of the match
        @property
        def finished(self) -> bool: ...
        def standing(self, seat: int) -> Submission | None: ...
        def waiting_for(self) -> frozenset[int]: ...
        def next_deadline(self) -> float | None: ...
        def chat_channels(self, viewer: Viewer) -> list[dict[str, Any]]: ...

    @property
    def version(self) -> int:
        return self.log[-1].version if self.log else 0

    # ------------------------------------------------------------------ writing
    def _emit(self, kind: str, data: JSON, to: frozenset[int] | None, t: float) -> Event:
        # Versions count from 1 without gaps, so the next is the length.
        event = Event(len(self.log) + 1, kind, data, to, t)
        self.log.append(event)
        return event

    @staticmethod
    def _activity_to(spec: PhaseSpec) -> frozenset[int] | None:
        """Who learns that a seat acted: everyone in an unsealed phase, the host alone (an
        empty audience) in a sealed one (G-10)."""
        return frozenset() if spec.sealed else None

    # ------------------------------------------------------------------ reading
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
        board does not need 5 KB of picture on every tick of a real-time game."""
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
                    {"text": x.text, "value": x.value.to_json(), "at": x.at, "final": x.final}
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
