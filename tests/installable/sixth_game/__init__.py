"""Last Stone (Nim): a sixth game, installed the way a game from another distribution is.

Nothing in ``src/arena`` names it. It is a package of its own (this folder) with its rules
page (``rules.html``), its rulings (``rulings.json``, NIM-1..NIM-3), its command-line tools
(``tools.py``: ``arena nim best``) and every fact the host needs declared on the game: its
place in the lobby, its ruling prefix, the short config of a Death Match. The distribution's
metadata beside it (``sixth_game-1.0.dist-info``) names it in the ``arena.games`` entry-point
group, which is how the registry finds it once that folder is on the path
(``tests/installed_games.py``).

Two seats take turns on one pile: the seat to move takes 1 to ``take_most`` stones; whoever
takes the last one wins (NIM-1, NIM-2). A turn whose time runs out takes one stone (NIM-3).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Annotated, Any, ClassVar

from arena.core.errors import ParseError, RuleError
from arena.core.game import (
    JSON,
    Game,
    GameConfig,
    GameEvent,
    PhaseOutcome,
    PhaseSpec,
    Result,
    SubmitContext,
)
from arena.core.settings import count, seconds


@dataclass(frozen=True)
class NimConfig(GameConfig):
    stones: Annotated[int, count("NIM-1: stones in the pile at the start", 1, 100,
                                 label="Stones")] = 15
    take_most: Annotated[int, count("NIM-2: the most stones one turn may take", 1, 10,
                                    label="Most stones a turn")] = 3
    turn: Annotated[float, seconds("NIM-3: seconds per turn", label="Turn length")] = 60.0


@dataclass(frozen=True)
class NimState:
    config: NimConfig
    stones: int
    to_move: int = 0
    last: tuple[int, int] | None = None
    """(seat, stones) of the last turn."""


@dataclass(frozen=True)
class Take:
    """One turn's move: how many stones (NIM-2); ``take N`` is its notation, N its JSON."""

    stones: int

    def __str__(self) -> str:
        return f"take {self.stones}"

    def to_json(self) -> JSON:
        return self.stones


def best_take(stones: int, take_most: int) -> int | None:
    """The take that leaves the opponent a losing pile (a multiple of ``take_most + 1``), or
    None when every take loses against best play."""
    take = stones % (take_most + 1)
    return take or None


class NimGame(Game[NimState, NimConfig, Take]):
    name = "nim"
    title = "Last Stone"
    summary = "take one to three stones a turn; whoever takes the last one wins"
    seats = 2
    chance = False
    hidden_information = False
    rules_prefix = "NIM"
    config_type = NimConfig
    order = 60
    death_match: ClassVar[dict[str, Any] | None] = {"stones": 7}

    def initial_state(self, config: NimConfig, rng: random.Random) -> NimState:
        return NimState(config, config.stones)

    def max_phases(self, config: NimConfig) -> int:
        return config.stones  # every turn takes one stone at least

    def _most(self, state: NimState) -> int:
        return min(state.config.take_most, state.stones)

    def phase(self, state: NimState) -> PhaseSpec | None:
        if state.stones == 0:
            return None
        return PhaseSpec("turn", state.config.turn, must=frozenset({state.to_move}),
                         prompt=f"take 1 to {self._most(state)} stones")

    def parse(self, state: NimState, seat: int, text: str) -> Take:
        words = text.strip().lower().split()
        if words[:1] == ["take"]:
            words = words[1:]
        if len(words) != 1 or not words[0].isdigit() or len(words[0]) > 3:
            raise ParseError("NIM-2", f"write 'take N' with N from 1 to {self._most(state)}")
        return Take(int(words[0]))

    def check(self, state: NimState, seat: int, move: Take,
              ctx: SubmitContext[Take]) -> Take:
        if not 1 <= move.stones <= self._most(state):
            raise RuleError("NIM-2", f"a turn takes 1 to {self._most(state)} stones, "
                                     f"not {move.stones}")
        return move

    def resolve(self, state: NimState, outcome: PhaseOutcome[Take], rng: random.Random
                ) -> tuple[NimState, list[GameEvent]]:
        seat = state.to_move
        standing = outcome.standing.get(seat)
        take = standing.value.stones if standing is not None else 1  # NIM-3
        left = state.stones - take
        event = GameEvent("took", {"seat": seat, "stones": take, "left": left,
                                   "timed_out": standing is None})
        return replace(state, stones=left, to_move=1 - seat, last=(seat, take)), [event]

    def result(self, state: NimState) -> Result | None:
        if state.stones > 0 or state.last is None:
            return None
        winner = state.last[0]
        scores = tuple(1.0 if s == winner else 0.0 for s in range(2))
        return Result(winner, scores, f"{self.seat_name(state, winner)} took the last stone "
                                      "(NIM-1)")

    def scores(self, state: NimState) -> tuple[float, ...]:
        return (0.0, 0.0)

    def view(self, state: NimState, viewer: int | None) -> JSON:
        return {"stones": state.stones, "to_move": state.to_move,
                "take_most": state.config.take_most,
                "last": None if state.last is None else list(state.last)}

    def bot(self, state: NimState, seat: int, rng: random.Random) -> str | None:
        if state.stones == 0 or seat != state.to_move:
            return None
        take = best_take(state.stones, self._most(state)) or 1
        return f"take {min(take, self._most(state))}"

    def random_submission(self, state: NimState, seat: int, rng: random.Random) -> str | None:
        if state.stones == 0 or seat != state.to_move:
            return None
        return f"take {rng.randint(1, self._most(state))}"


GAME = NimGame()
