"""One seat's game played outside the engine, for benchmarks, tests and bot tuning.

It follows the match exactly (PF-3, PF-5: six showings, four shoves per set, the free last
colour) but draws each showing from its own generator derived from ``(seed, showing number)``,
so that the clairvoyant benchmark player can compute in advance what any sequence of picks
would be shown.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from arena.core import rng as rngmod
from arena.games.paint.grid import EMPTY_GRID, apply_action, place
from arena.games.paint.players import Player, Situation
from arena.games.paint.presentation import SHOWINGS, showing


def showing_for(seed: int, number: int, used: tuple[int, ...],
                first: tuple[int, ...]) -> tuple[int, ...]:
    return showing(rngmod.derive(seed, "paint-showing", number), number, used, first)


@dataclass(frozen=True)
class Played:
    grid: str
    picks: tuple[int, ...]
    decisions: int


class Clairvoyant(Protocol):
    def play(self, sets: tuple[str, ...], seed: int) -> str: ...


def play_episode(player: Player, sets: tuple[str, ...], seed: int) -> Played:
    grid = EMPTY_GRID
    used: tuple[int, ...] = ()
    first: tuple[int, ...] = ()
    seen: set[int] = set()
    decisions = 0
    for number in range(1, SHOWINGS + 1):
        shown = showing_for(seed, number, used, first)
        if number == 1:
            first = shown
        seen |= set(shown)
        sit = Situation(grid, shown=tuple(sets[i] for i in shown),
                        seen=tuple(sets[i] for i in sorted(seen)),
                        used=tuple(sets[i] for i in used), showings_left=SHOWINGS - number)
        index = shown[player.pick(sit)]
        decisions += 1
        used = (*used, index)
        chosen = sets[index]
        for j, colour in enumerate(chosen):
            grid = place(grid, colour)
            sit = Situation(grid, queue=chosen[j + 1:],
                            seen=tuple(sets[i] for i in sorted(seen)),
                            used=tuple(sets[i] for i in used), showings_left=SHOWINGS - number)
            grid = apply_action(grid, player.shove(sit))
            decisions += 1
    grid = place(grid, player.last(grid))
    return Played(grid, used, decisions + 1)


def random_seed(rng: random.Random) -> int:
    return rng.randrange(2**31)
