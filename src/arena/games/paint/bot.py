"""The bots a match seat uses (quick) — the strong planner lives in :mod:`planner`."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from arena.games.paint.designer import design_for
from arena.games.paint.players import GreedyPlayer
from arena.games.paint.sets import format_design

if TYPE_CHECKING:
    from arena.games.paint.match import PaintState


def match_bot(state: PaintState, seat: int, rng: random.Random) -> str | None:
    from arena.games.paint.match import DESIGN, decide

    if state.stage == DESIGN:
        return format_design(design_for(rng))
    return decide(GreedyPlayer(), state, seat)
