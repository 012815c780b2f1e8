"""Shared builders for the Locked Out! tests: a state with chosen combinations and mapping,
and one deadline resolved from the seats' submission texts."""

from __future__ import annotations

import random
from dataclasses import replace

from arena.core.game import GameEvent, PhaseOutcome, Submission
from arena.games.lockedout import GAME
from arena.games.lockedout.safes import COMBOS, SAFE_NAMES, Combo
from arena.games.lockedout.state import LockedOutState

NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")


def make_state(combos: dict[str, Combo] | None = None, mapping: str = "RGB") -> LockedOutState:
    """A fresh match; ``combos`` pins some safes (the others take the remaining pairs)."""
    state = GAME.initial_state(GAME.default_config(), random.Random(0))
    pinned = {SAFE_NAMES.index(k): v for k, v in (combos or {}).items()}
    rest = [c for c in COMBOS if c not in pinned.values()]
    full = tuple(pinned[i] if i in pinned else rest.pop(0) for i in range(16))
    return replace(state, combos=full, mapping=mapping)


def step(state: LockedOutState, texts: dict[int, str]
         ) -> tuple[LockedOutState, list[GameEvent]]:
    """Validate every text as the engine would and resolve the phase."""
    standing = {}
    for seat, text in texts.items():
        value = GAME.validate(state, seat, text, ctx=None)  # type: ignore[arg-type]
        standing[seat] = Submission(seat, text, value, 0.0)
    outcome = PhaseOutcome(standing, {s: (sub,) for s, sub in standing.items()}, frozenset(), 1.0)
    return GAME.resolve(state, outcome, random.Random(1))
