"""What a player knows at a decision, and the simple players (greedy, random).

A :class:`Situation` holds exactly what a seat may see (G-9): its own grid (with the container
waiting on A1 at a shove), the rest of the set it picked (a set is known once picked), the sets shown now, every set it
has been shown so far, and how many showings are still to come. Every player, the planning
bot included, decides from a Situation alone; the match builds one from the state.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from arena.games.paint.grid import COLOURS, Action, legal_actions, next_grids, place
from arena.games.paint.scoring import score_value


@dataclass(frozen=True)
class Situation:
    grid: str
    queue: str = ""
    shown: tuple[str, ...] = ()
    seen: tuple[str, ...] = ()
    used: tuple[str, ...] = ()
    showings_left: int = 0


class Player(Protocol):
    def shove(self, s: Situation) -> Action: ...

    def pick(self, s: Situation) -> int:
        """Index into ``s.shown``."""
        ...

    def last(self, grid: str) -> str: ...


def best_last(grid: str) -> str:
    """The colour for A1 on turn 25 that scores most (PF-5); ties go to R, G, B in order."""
    return max(COLOURS, key=lambda c: (score_value(place(grid, c)), -COLOURS.index(c)))


class GreedyPlayer:
    """One step ahead: the action whose resulting grid scores most now (PF-7 on the partial
    grid); a pick plays each shown set greedily and keeps the best end score."""

    def shove(self, s: Situation) -> Action:
        options = next_grids(s.grid)
        return max(options, key=lambda ag: score_value(ag[1]))[0]

    def _play(self, grid: str, containers: str) -> int:
        for colour in containers:
            g = place(grid, colour)
            options = next_grids(g)
            if not options:
                return score_value(g)
            grid = max((o[1] for o in options), key=score_value)
        return score_value(grid)

    def pick(self, s: Situation) -> int:
        values = [self._play(s.grid, shown) for shown in s.shown]
        return values.index(max(values))

    def last(self, grid: str) -> str:
        return best_last(grid)


class RandomPlayer:
    """Uniformly random legal decisions (for tests and the conformance suite)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def shove(self, s: Situation) -> Action:
        return self.rng.choice(legal_actions(s.grid))[0]

    def pick(self, s: Situation) -> int:
        return self.rng.randrange(len(s.shown))

    def last(self, grid: str) -> str:
        return self.rng.choice(COLOURS)
