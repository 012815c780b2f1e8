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

HARD = Planner(samples=4, width=32, budget=None, faithful=True, pick_futures=True,
               exact_end=True, deep_from=3)
"""The ``hard`` player. Before (``samples=1, width=6``, picks blind to the next showing,
showings drawn from seen sets only) it reached about 0.8 of the clairvoyant beam's mean score;
the figures before and after are in bench/README.md. Against the clairvoyant yardstick
(:class:`arena.games.paint.yardstick.Yardstick`, ``bench/yardstick_paint.py``) it reached
0.91 looking one showing ahead; the yardstick's search from each of the bot's decisions
(tracing where 8,748 went out of reach) showed the losses in showings 4 and 5, where the sets
left are few and all known: four samples repeated the one or four showings still possible
and the search stopped a showing short of the end. Now (``exact_end``) those showings are
taken each once and followed to the last one, and from three showings left (``deep_from``)
each sampled set is followed by a sampled showing after it: 0.98 of the yardstick on the
tuning designs and 0.97 on fresh ones, at about 2.7 times the work of an episode (the
slowest decisions take a few seconds; PF-8 allows two minutes). A wider beam (64) and more samples (8) had
measured no better, so the horizon, not the width, was what was missing."""


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
