"""The bot a match seat uses: the set-design bot for the design phase, then a quick planner.

A bot-vs-bot match has 62 playing decisions, and the engine (and the server's scheduler) asks
bots synchronously, so the match bot is the planner in its narrow, short-budget form; the full
planner (``Planner()``) is what ``bench/paint_bots.py`` measures.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from arena.games.paint.designer import design_for
from arena.games.paint.planner import Planner
from arena.games.paint.sets import format_design

if TYPE_CHECKING:
    from arena.games.paint.match import PaintState

QUICK = Planner(samples=1, width=6, budget=None)


def match_bot(state: PaintState, seat: int, rng: random.Random) -> str | None:
    """What the bot in ``seat`` submits now; it decides from its own seat's knowledge only."""
    from arena.games.paint.match import DESIGN, decide

    if state.stage == DESIGN:
        return format_design(design_for(rng))
    return decide(QUICK, state, seat)
