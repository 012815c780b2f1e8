"""A toy game with a phase that has no time limit and with game acts, for the core's tests.

"Wait and pick": each of ``rounds`` rounds opens with a *wait* phase that has no time limit
(``PhaseSpec.duration`` None): the seats may say ``ready`` (G-4's early close ends it when
both confirm), and the host's act ``go {n}`` (n from 1 to 5, ACT-1) ends it, adding n to the
pot and drawing a number from the act's chance. A timed *pick* phase follows (both seats pick
1 to 3, reserve allowed), as in the ordinary toy. The server's act ``note`` (no data) may
come in any phase and closes nothing: it counts, and tells seat 0 alone (so a test sees that
a seat's versions count the game's events, never the act's host-only entry).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from arena.core.errors import ParseError, RuleError
from arena.core.game import (
    JSON,
    READY,
    ActContext,
    ActSpec,
    Game,
    GameConfig,
    GameEvent,
    PhaseOutcome,
    PhaseSpec,
    ReservePeriod,
    ReservePeriods,
    Result,
    Word,
)
from arena.core.settings import count, seconds
from toygame import Pick


@dataclass(frozen=True)
class WaitConfig(GameConfig):
    rounds: Annotated[int, count("ACT-3: how many rounds", 1, 20)] = 3
    pick: Annotated[float, seconds("ACT-2: seconds per pick")] = 30.0
    reserve_periods: ReservePeriods = 2
    reserve_period: ReservePeriod = 20.0


@dataclass(frozen=True)
class WaitState:
    config: WaitConfig
    round: int = 1
    picking: bool = False
    pot: int = 0
    scores: tuple[int, int] = (0, 0)
    draws: tuple[int, ...] = ()
    notes: int = 0


class Go(BaseModel):
    """The host's ``go``: how much goes into the pot."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    n: Annotated[int, Field(ge=1, le=5, description="ACT-1: what the host adds to the pot")]


class WaitGame(Game[WaitState, WaitConfig, Word | Pick]):
    name = "waittoy"
    title = "Wait and pick"
    summary = "a wait with no time limit, ended by the host; then a timed pick"
    seats = 2
    chance = True
    hidden_information = False
    rules_prefix = "ACT"
    config_type = WaitConfig
    acts: ClassVar[Mapping[str, ActSpec]] = {
        "go": ActSpec(by=frozenset({"host"}), model=Go, phases=frozenset({"wait"})),
        "note": ActSpec(by=frozenset({"server"})),
    }

    def initial_state(self, config: WaitConfig, rng: random.Random) -> WaitState:
        return WaitState(config)

    def max_phases(self, config: WaitConfig) -> int:
        return 2 * config.rounds

    def phase(self, state: WaitState) -> PhaseSpec | None:
        if state.round > state.config.rounds:
            return None
        if not state.picking:
            return PhaseSpec("wait", None, may=frozenset({0, 1}), prompt="ready", sealed=False)
        return PhaseSpec("pick", state.config.pick, must=frozenset({0, 1}), reserve=True,
                         prompt="a number from 1 to 3")

    def parse(self, state: WaitState, seat: int, text: str) -> Word | Pick:
        word = text.strip().lower()
        if not state.picking:
            if word != "ready":
                raise ParseError("ACT-1", "say 'ready' while waiting for the host")
            return READY
        if word not in ("1", "2", "3"):
            raise RuleError("ACT-2", f"the pick must be 1, 2 or 3, not {text!r}")
        return Pick(int(word))

    def resolve(self, state: WaitState, outcome: PhaseOutcome[Word | Pick],
                rng: random.Random) -> tuple[WaitState, list[GameEvent]]:
        if not state.picking:
            return replace(state, picking=True), [GameEvent("ready_all")]
        a, b = (v.n if s in outcome.standing and isinstance(v := outcome.standing[s].value, Pick)
                else 0 for s in (0, 1))
        scores = (state.scores[0] + max(0, a - b), state.scores[1] + max(0, b - a))
        return (replace(state, picking=False, round=state.round + 1, scores=scores),
                [GameEvent("picks", {"picks": [a, b]})])

    def act(self, state: WaitState, name: str, value: Any,
            ctx: ActContext) -> tuple[WaitState, list[GameEvent], bool]:
        if name == "go":
            if state.picking or state.round > state.config.rounds:
                raise RuleError("ACT-1", "the host says go only in the wait phase")
            assert isinstance(value, Go)
            draw = ctx.rng.randrange(100)
            new = replace(state, picking=True, pot=state.pot + value.n,
                          draws=(*state.draws, draw))
            return new, [GameEvent("went", {"n": value.n, "draw": draw, "by": ctx.by})], True
        assert name == "note" and value is None
        return (replace(state, notes=state.notes + 1),
                [GameEvent("noted", {"notes": state.notes + 1}, frozenset({0}))], False)

    def scores(self, state: WaitState) -> tuple[float, ...]:
        return tuple(float(x) for x in state.scores)

    def result(self, state: WaitState) -> Result | None:
        if state.round <= state.config.rounds:
            return None
        a, b = state.scores
        return Result(0 if a > b else 1, (float(a), float(b)), "more points")

    def view(self, state: WaitState, viewer: int | None) -> JSON:
        return {"round": state.round, "picking": state.picking, "pot": state.pot,
                "scores": list(state.scores)}

    def bot(self, state: WaitState, seat: int, rng: random.Random) -> str | None:
        return str(rng.randint(1, 3)) if state.picking else None


WAIT = WaitGame()
