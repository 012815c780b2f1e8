"""Game acts: the host's or the server's moves that a game itself defines.

A season starts its Main Match, records a result by hand or hears that a child match ended;
none of those is a seat's submission, and none is a host action every game shares (pause,
extend). A game declares such acts (:attr:`Game.acts`) and applies them (:meth:`Game.act`);
this part checks who makes one and its data, logs it as an input (so a replay applies it again
at the same place, G-7) and closes the phase when the game says the act ends it. One part of
:class:`arena.core.match.Match`.

The act's input entry is the host's alone (an empty audience): a seat's own version never
counts it (G-10), and the game's events carry whatever the seats may learn. Acts are taken
while the match is paused (submissions are not); an act that closes the phase ends the pause,
since a pause holds one phase's clock, never the next's. Nothing extra is logged for that: the
replay applies the same act to the same paused match and ends the pause the same way.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

import pydantic

from arena.core import rng as rngmod
from arena.core.clock import Clock
from arena.core.errors import RuleError
from arena.core.eventlog import Event
from arena.core.game import JSON, ActContext, Game, GameEvent, PhaseSpec, Result
from arena.core.match_settings import MatchSettings
from arena.core.settings import refusal

ACT_BY = ("host", "server")


class Acts:
    """Applying a game's acts (:meth:`act`)."""

    game: Game[Any, Any]
    seed: int
    clock: Clock
    settings: MatchSettings
    state: Any
    result: Result | None
    paused_at: float | None
    pause_reason: str | None
    _recent: deque[float]
    phase_no: int
    spec: PhaseSpec | None
    phase_ends: dict[int, tuple[str, float]]

    if TYPE_CHECKING:  # the other parts of the match
        @property
        def version(self) -> int: ...
        def _process(self, limit: float, *, inclusive: bool,
                     budget: int | None = None) -> bool: ...
        def _emit(self, kind: str, data: JSON, to: frozenset[int] | None,
                  t: float) -> Event: ...
        def _emit_game(self, ev: GameEvent, t: float) -> None: ...
        def _start_phase(self, t: float) -> None: ...

    def act(self, name: str, data: JSON, by: str) -> Event:
        """Apply the game's act ``name`` with ``data``, made by ``by`` ("host" or "server");
        return its logged input entry. Raise ``RuleError`` (the match unchanged, nothing
        logged but the deadlines that passed before it) when the game has no such act, ``by``
        may not make it, the data does not fit the act's model, or the game refuses it now."""
        t = self.clock.now()
        self._process(t, inclusive=False)  # deadlines before it first, as a replay does
        if self.result is not None or self.spec is None:
            raise RuleError("host", "the match is over")
        spec = self.game.acts.get(name)
        if spec is None:
            raise RuleError("host", f"this game has no act called {name!r}")
        if by not in spec.by:
            who = " or ".join(f"the {w}" for w in ACT_BY if w in spec.by) or "nobody"
            raise RuleError("host", f"the act {name!r} is made by {who}, not by the {by}")
        value = _validated(name, spec.model, data)
        ctx = ActContext(at=t, phase_no=self.phase_no, by=by,
                         rng=rngmod.deferred(self.seed, "act", self.version + 1),
                         scale=self.settings.time_scale)
        state, events, closes = self.game.act(self.state, name, value, ctx)
        # Accepted: from here on the match changes, and the input comes first in the log.
        self.state = state
        entry = self._emit("act", {"name": name, "data": data, "by": by}, frozenset(), t)
        for ev in events:
            self._emit_game(ev, t)
        if closes:
            self._close_by_act(name, t)
        return entry

    def _close_by_act(self, name: str, t: float) -> None:
        """End the current phase at ``t`` because act ``name`` closed it: its standing
        submissions are dropped (the act decided the phase), and the next phase starts, or the
        match ends with the game's result. A pause ends with it (a pause holds one phase's
        clock, never the next's); the host's resume would also restart G-5's count."""
        spec = self.spec
        assert spec is not None
        if self.paused_at is not None:
            self.paused_at = None
            self.pause_reason = None
            self._recent.clear()
        self.phase_ends[self.phase_no] = (spec.name, t)
        self._emit("phase_resolved",
                   {"no": self.phase_no, "name": spec.name, "missing": [], "by": name}, None, t)
        self._start_phase(t)


def _validated(name: str, model: type[pydantic.BaseModel] | None, data: JSON) -> Any:
    """The act's data as its model's instance (None for an act without data); a refusal names
    the field and the rule its help names, as a refused setting does; a model naming the
    rule its shape belongs to (``shape_rule``, as request bodies do) is refused under it."""
    rule = getattr(model, "shape_rule", None) or "host"
    if model is None:
        if data is None or data == {}:
            return None
        raise RuleError("host", f"the act {name!r} takes no data")
    if not isinstance(data, dict):
        raise RuleError("host", f"the data of the act {name!r} must be a JSON object")
    try:
        return model.model_validate(data, strict=True)
    except pydantic.ValidationError as exc:
        raise refusal(exc, rule, f"{name} field", model) from None
