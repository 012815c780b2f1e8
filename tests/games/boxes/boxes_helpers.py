"""Helpers for the Box within a Box within a Box tests: states and phases without a clock."""

from __future__ import annotations

import random
from dataclasses import replace

from arena.core.game import GameEvent, PhaseOutcome, Submission, SubmitContext
from arena.games.boxes import GAME
from arena.games.boxes.state import BoxesConfig, BoxesState

BOARD = """\
3b 7w 0b 5w 9b 1w 2b
4w 2b 6w 8b 0w 3b 5w
1b 9w 7b 2w 6b 4w 8b
0w 5b 3w 9b 1w 7b 2w
6b 8w 2b 4w 5b 0w 9b
7w 1b 5w 3b 8w 2b 6w
2b 4w 9b 6w 7b 8w 0b
"""


def new_state(seed: int = 1, **config: object) -> BoxesState:
    cfg = GAME.make_config({"board": BOARD, **config})
    assert isinstance(cfg, BoxesConfig)
    return GAME.initial_state(cfg, random.Random(seed))


def step(state: BoxesState, texts: dict[int, str]) -> tuple[BoxesState, list[GameEvent]]:
    """Validate each seat's text and resolve the phase with them standing."""
    standing = {}
    for seat, text in texts.items():
        value = GAME.validate(state, seat, text, SubmitContext(at=1.0))
        standing[seat] = Submission(seat, text, value, 1.0, True)
    spec = GAME.phase(state)
    assert spec is not None
    missing = frozenset(s for s in spec.must if s not in standing)
    outcome = PhaseOutcome(standing, {s: (sub,) for s, sub in standing.items()}, missing, 2.0)
    return GAME.resolve(state, outcome, random.Random(0))


def at_bets(seed: int = 1, hand: tuple[int, ...] | None = None, **config: object) -> BoxesState:
    """A state in bout 1's betting phase (optionally with a chosen hand)."""
    state = new_state(seed, **config)
    state, _ = step(state, {0: "ready", 1: "ready"})
    state, _ = step(state, {0: "ready"})
    if hand is not None:
        state = replace(state, cards=hand, hand=hand)
    return state


def at_round1(hand: tuple[int, ...], bets: tuple[str, str] = ("black: 1; 6: 1; 7: 1",) * 2
              ) -> BoxesState:
    state = at_bets(hand=hand)
    state, _ = step(state, {0: bets[0], 1: bets[1]})
    return state
