"""The bot a match seat uses: the set-design bot for the design phase, then a quick planner.

A bot-vs-bot match has 62 playing decisions, and the engine (and the server's scheduler) asks
bots synchronously, so the match bot is the planner in its narrow, short-budget form; the full
planner (``Planner()``) is what ``bench/paint_bots.py`` measures.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from arena.games.paint.designer import design_for, random_design
from arena.games.paint.planner import Planner
from arena.games.paint.players import GreedyPlayer
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


NORMAL = Planner(beam=3, lookahead=False, budget=None, samples=0)
"""The ``normal`` player: plans the containers it knows, but not the showings to come."""


def level_bot(state: PaintState, seat: int, rng: random.Random, level: str) -> str | None:
    """The bot at ``easy`` or ``normal`` (``hard`` is :func:`match_bot`), G-8.

    ``easy`` is a beginner: it designs sets at random (an easy design for its opponent, PF-4)
    and plays one step ahead, each shove for the score it makes now (:class:`GreedyPlayer`).
    ``normal`` designs as the full bot does and plans the containers it knows, with no
    thought of the showings to come."""
    from arena.games.paint.match import DESIGN, decide

    if state.stage == DESIGN:
        design = random_design(rng) if level == "easy" else design_for(rng)
        return format_design(design)
    return decide(GreedyPlayer() if level == "easy" else NORMAL, state, seat)
