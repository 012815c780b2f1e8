"""The bot a match seat uses: the set-design bot for the design phase, then the planner.

The ``hard`` bot (:data:`HARD`) plans against the showings to come as the seat knows them
: every pick plays each shown set out and then a sampled next showing, every
shove weighs its grids over the same sampled futures. Its work is fixed by counts (samples,
beam width), never by the clock, so a state and its chance always give the same decision
(G-7); it takes under a second a decision on a loaded machine, far inside PF-8's two
minutes (``bench/strength.py --game paint`` prints the p99).
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

HARD = Planner(samples=4, width=32, budget=None, faithful=True, pick_futures=True)
"""The ``hard`` player. Before (``samples=1, width=6``, picks blind to the next showing,
showings drawn from seen sets only) it reached about 0.8 of the clairvoyant beam's mean score;
the figures before and after are in bench/README.md. Against the clairvoyant yardstick
(:class:`arena.games.paint.yardstick.Yardstick`, ``bench/yardstick_paint.py``) the beam's
width is what counts: 32 grids per sampled future fall short of the yardstick by about a tenth
of its score; 96 reached 0.92 of it (24 designs, interval 0.88-0.96) at three times the work
of every decision, which every simulated season, Death Match and test pays too; more samples
(8) at width 64 measured weaker than 4 at 96. Kept at 32: with the evaluation's new weights
(:class:`arena.games.paint.planner.Weights`) a beam of 64 measured no better than 32, and the
bot reaches 0.91 of a yardstick that now proves 8,748 on every design measured."""


def match_bot(state: PaintState, seat: int, rng: random.Random) -> str | None:
    """What the bot in ``seat`` submits now; it decides from its own seat's knowledge only."""
    from arena.games.paint.match import DESIGN, decide

    if state.stage == DESIGN:
        return format_design(design_for(rng))
    return decide(HARD, state, seat)


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
