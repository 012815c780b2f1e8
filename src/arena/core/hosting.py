"""The host's inputs that are neither about time nor about chat: notes of the hosting kept in
the log, and the game's live switches (LO-12).

A note records a fact of the hosting (a seat handed to a bot or a person, a link reissued) so
that a replay and a restart rebuild the same log; it changes no rule state. A host option flips
one of the switches a game offers the host while the match runs. Both are inputs of the log.
The host's pause, extension and ending are :mod:`arena.core.deadlines`'s, the host's mute and
private channels :mod:`arena.core.channels`'s. One part of :class:`arena.core.match.Match`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.core.clock import Clock
from arena.core.errors import RuleError
from arena.core.eventlog import Event
from arena.core.game import JSON, Game


class Hosting:
    """The host's notes and the game's host options."""

    game: Game[Any, Any]
    clock: Clock
    state: Any

    if TYPE_CHECKING:  # the other parts of the match
        @property
        def finished(self) -> bool: ...
        def _process(self, limit: float, *, inclusive: bool,
                     budget: int | None = None) -> bool: ...
        def _emit(self, kind: str, data: JSON, to: frozenset[int] | None,
                  t: float) -> Event: ...

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
        return self._emit("host_option", {"name": name, "value": value}, None,
                          self.clock.now())
