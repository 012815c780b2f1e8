"""A small game that exercises every engine feature, for the conformance suite and core tests.

"High card": a study phase anyone may end by saying ``ready``; then ``rounds`` rounds in which
both seats secretly pick a number 1-3 (reserve allowed); the higher pick scores the difference.
Picks are private until the round resolves. A hidden secret number per seat, drawn from the
seed, is only ever shown to its own seat (to give the leak checks something to find).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Annotated

from pydantic import Field

from arena.core.errors import ParseError, RuleError
from arena.core.game import (
    JSON,
    READY,
    Game,
    GameConfig,
    GameEvent,
    PhaseOutcome,
    PhaseSpec,
    ReservePeriod,
    ReservePeriods,
    Result,
    SubmitContext,
    Word,
)
from arena.core.settings import count, seconds


@dataclass(frozen=True)
class Pick:
    """A round's pick (TOY-2): the number is its notation and its JSON form."""

    n: int

    def __str__(self) -> str:
        return str(self.n)

    def to_json(self) -> JSON:
        return self.n


@dataclass(frozen=True)
class ToyConfig(GameConfig):
    rounds: Annotated[int, count("TOY-3: how many rounds of picks", 1, 50)] = 3
    study: Annotated[float, seconds("TOY-1: seconds to study")] = 60.0
    pick: Annotated[float, seconds("TOY-2: seconds per pick")] = 30.0
    reserve_periods: ReservePeriods = 3
    reserve_period: ReservePeriod = 30.0
    use_reserve: Annotated[bool, Field(description="G-3: picks may use reserve")] = True


@dataclass(frozen=True)
class ToyState:
    config: ToyConfig
    round: int  # 0 = study
    scores: tuple[int, int]
    secrets: tuple[str, str]
    last: tuple[int, int] | None = None


class ToyGame(Game[ToyState, ToyConfig, Word | Pick]):
    name = "toy"
    title = "High card"
    summary = "pick 1-3 in secret; the higher pick scores the difference"
    seats = 2
    chance = True
    hidden_information = True
    rules_prefix = "TOY"
    config_type = ToyConfig

    def initial_state(self, config: ToyConfig, rng: random.Random) -> ToyState:
        secrets = (f"secret-{rng.randrange(10**9)}", f"secret-{rng.randrange(10**9)}")
        return ToyState(config, 0, (0, 0), secrets)

    def max_phases(self, config: ToyConfig) -> int:
        return config.rounds + 1

    def phase(self, state: ToyState) -> PhaseSpec | None:
        if state.round == 0:
            return PhaseSpec("study", state.config.study, may=frozenset({0, 1}), prompt="ready",
                             sealed=False)
        if state.round > state.config.rounds:
            return None
        return PhaseSpec("pick", state.config.pick, must=frozenset({0, 1}),
                         reserve=state.config.use_reserve,
                         prompt="a number from 1 to 3")

    def parse(self, state: ToyState, seat: int, text: str) -> Word | Pick:
        word = text.strip().lower()
        if state.round == 0:
            if word != "ready":
                raise ParseError("TOY-1", "say 'ready' to end the study time")
            return READY
        if not word.isdigit():
            raise ParseError("TOY-2", f"expected a number from 1 to 3, got {text!r}")
        return Pick(int(word))

    def check(self, state: ToyState, seat: int, move: Word | Pick,
              ctx: SubmitContext[Word | Pick]) -> Word | Pick:
        if isinstance(move, Pick) and not 1 <= move.n <= 3:
            raise RuleError("TOY-2", f"the pick must be 1, 2 or 3, not {move.n}")
        return move

    def resolve(self, state: ToyState, outcome: PhaseOutcome[Word | Pick], rng: random.Random
                ) -> tuple[ToyState, list[GameEvent]]:
        if state.round == 0:
            return replace(state, round=1), [GameEvent("study_over")]
        picks = [v.n if s in outcome.standing and isinstance(v := outcome.standing[s].value, Pick)
                 else 0 for s in (0, 1)]
        a, b = picks
        scores = (state.scores[0] + max(0, a - b), state.scores[1] + max(0, b - a))
        ev = GameEvent("picks", {"round": state.round, "picks": picks})
        return replace(state, round=state.round + 1, scores=scores, last=(a, b)), [ev]

    def scores(self, state: ToyState) -> tuple[float, ...]:
        return tuple(float(x) for x in state.scores)

    def result(self, state: ToyState) -> Result | None:
        if state.round <= state.config.rounds:
            return None
        a, b = state.scores
        winner = 0 if a > b else 1  # ties to the DMO (G-8)
        return Result(winner, (float(a), float(b)), "more points" if a != b else "tie: DMO")

    def view(self, state: ToyState, viewer: int | None) -> JSON:
        out: dict[str, JSON] = {"round": state.round, "scores": list(state.scores),
                                "last": None if state.last is None else list(state.last)}
        if viewer is not None:
            out["secret"] = state.secrets[viewer]
        return out

    def host_view(self, state: ToyState) -> JSON:
        return {**self.view(state, None), "secrets": list(state.secrets)}

    def private_facts(self, state: ToyState, seat: int) -> list[str]:
        return [state.secrets[seat]]

    def bot(self, state: ToyState, seat: int, rng: random.Random) -> str | None:
        return "ready" if state.round == 0 else str(rng.randint(1, 3))


TOY = ToyGame()


@dataclass(frozen=True)
class RushConfig(ToyConfig):
    """A plugin game's config that declares its phase lengths as plain numbers: the settings
    schema cannot tell they are durations, so nothing at creation stops zero-length phases
    and 2,000 rounds. The engine's own bound (G-5: too many deadlines a second pauses the
    match) is then what keeps the server serving."""

    rounds: int = 2000
    study: float = 0.0
    pick: float = 0.0
    use_reserve: bool = False


class RushToyGame(ToyGame):
    name = "rushtoy"
    title = "High card, unchecked"
    config_type = RushConfig


RUSH = RushToyGame()
