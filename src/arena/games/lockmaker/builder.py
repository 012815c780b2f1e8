"""The bot's lock builder: the project's hardest-lock search under a counted budget.

A strong builder makes the solver work, so the bot builds with the same search as ``arena
lockmaker generate`` (:mod:`arena.games.lockmaker.fast.generator`: cluster walks, restarts,
kicks). The search is stopped by a count of cluster walks, never by the wall clock: a match
must replay exactly from its seed (G-7), and a time budget would give a slower machine (or a
busier one) a different lock. :data:`BUILD_WALKS` is calibrated on this project's reference
machine so that a build fits well inside the build phase's thinking budget
(:func:`thinking_budget`), and ``bench/lockmaker_builder.py`` prints both the walk count and
the build times it costs, next to the locks the timed generator finds for the same pieces.

The config's ``bot_placements`` is this budget (the host may lower it for quick bots, LM-15
holds whatever it is); 0 skips the search, and a hand the search cannot place falls back to
the caller's simpler builder.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from arena.core.errors import RuleError
from arena.games.lockmaker.board import Board
from arena.games.lockmaker.fast.generator import generate
from arena.games.lockmaker.pieces import PieceKind
from arena.games.lockmaker.position import Position

BUILD_WALKS = 600
"""The default budget in cluster walks (the config's ``bot_placements`` default). Measured
by ``bench/lockmaker_builder.py``: enough to reach at least 90 % of the moves of a 10-second
generator run on the same pieces (median over 50 hands) in well under the thinking budget."""

SEARCHES = 2
"""Independent searches the budget is shared by, best lock wins (ties to the first). Which
restart lands in the set of a hard lock is largely luck, and one search can spend its whole
budget kicking a lock it is stuck on; ``arena lockmaker generate`` runs one search per core
(two here) for the same reason (:mod:`arena.games.lockmaker.fast.jobs`)."""

MAX_WALKS = 5000
"""The largest budget a host may set: about ten times the default, tens of seconds a build."""


@dataclass(frozen=True)
class Built:
    """A lock the search found, its optimal move count (LM-9), and the walks it cost."""

    lock: Position
    moves: int
    walks: int


def thinking_budget(build_seconds: float, think_low: float) -> float:
    """Seconds (at time scale 1) a bot may think over its lock without its answer coming
    later than a human-paced bot would give it anyway: the shorter of the low end of the
    human think time for a build (G-11; a bot at human pace never answers before it) and
    the build phase itself (LM-15)."""
    return min(build_seconds, think_low)


def build_hardest(board: Board, hand: Sequence[PieceKind], rng: random.Random,
                  walks: int = BUILD_WALKS, searches: int = SEARCHES) -> Built | None:
    """The hardest lock for ``hand`` on ``board`` the searches find in ``walks`` cluster walks
    in all (legal for the hand, LM-15, and solvable); a pure function of ``rng``'s state
    (G-7: each search's seed is drawn from it, never from the clock). None when the budget is
    0 or no search finds a solvable placement of the hand. The walks stay within the budget
    once some lock is found (a search with no solvable lock yet walks on until it has one)."""
    if walks <= 0:
        return None
    searches = max(1, min(searches, walks))
    seeds = [rng.getrandbits(63) for _ in range(searches)]
    best: Built | None = None
    spent = 0
    for i, seed in enumerate(seeds):
        share = (walks - spent) // (searches - i)  # what the earlier searches left, shared
        if share <= 0 and best is not None:
            break  # a search walks on past its share only until it has a lock at all
        try:
            res = generate(board, hand, seconds=None, rng=random.Random(seed), placements=share)
        except RuleError:
            continue
        spent += res.searched
        if best is None or res.moves > best.moves:
            best = Built(res.lock, res.moves, 0)
    return None if best is None else Built(best.lock, best.moves, spent)
