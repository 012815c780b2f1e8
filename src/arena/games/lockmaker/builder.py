"""The bot's lock builder: the project's hardest-lock search under a counted budget.

A strong builder makes the solver work, so the bot builds with the same search as ``arena
lockmaker generate`` (:mod:`arena.games.lockmaker.fast.generator`: cluster walks, restarts,
kicks). The search is stopped by counts, never by the wall clock: a match must replay exactly
from its seed (G-7), and a time budget would give a slower machine (or a busier one) a
different lock. Two counts bound it: cluster walks (:data:`BUILD_WALKS`) and work, the states
those walks visit (:data:`BUILD_WORK`). Work is what tracks time: a walk of a tight set on a
small board costs a hundredth of a loose one on a big board, so a walk budget alone left the
dense hands (most hands with an axis) with a fraction of the generator's search and gave the
sparse ones more. Both are calibrated on this project's reference machine so that a build
fits well inside the build phase's thinking budget (:func:`thinking_budget`) and reaches the
generator at its default (``bench/yardstick_lockmaker.py`` prints both figures).

The config's ``bot_placements`` is the walk budget, and the work budget scales with it (the
host may lower it for quick bots, LM-15 holds whatever it is); 0 skips the search, and a
hand the search cannot place falls back to the caller's simpler builder.
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

BUILD_WALKS = 8000
"""The default budget in cluster walks (the config's ``bot_placements`` default): high enough
that on most hands the work budget ends the search first (a dense hand walks about 500 sets
a CPU second)."""

BUILD_WORK = 2_000_000
"""States the default budget may visit (:class:`arena.games.lockmaker.fast.generator._Budget`
counts them), scaled by ``walks / BUILD_WALKS`` for another walk budget. Measured by
``bench/yardstick_lockmaker.py``: a few CPU seconds a build, up to about 25 on the slowest
hands, against the generator's 10 s by default."""

SEARCHES = 2
"""Independent searches the budget is shared by, best lock wins (ties to the first). Which
restart lands in the set of a hard lock is largely luck, and one search can spend its whole
budget kicking a lock it is stuck on; ``arena lockmaker generate`` runs one search per core
(two here) for the same reason (:mod:`arena.games.lockmaker.fast.jobs`)."""

MAX_WALKS = 40_000
"""The largest budget a host may set: five times the default, a minute or two a build."""


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
                  walks: int = BUILD_WALKS, searches: int = SEARCHES,
                  work: int | None = None) -> Built | None:
    """The hardest lock for ``hand`` on ``board`` the searches find in ``walks`` cluster walks
    and ``work`` states visited in all (legal for the hand, LM-15, and solvable; ``work``
    defaults to :data:`BUILD_WORK` scaled by ``walks / BUILD_WALKS``); a pure function of
    ``rng``'s state (G-7: each search's seed is drawn from it, never from the clock). None
    when the budget is 0 or no search finds a solvable placement of the hand. The walks stay
    within the budget once some lock is found (a search with no solvable lock yet walks on
    until it has one)."""
    if walks <= 0:
        return None
    if work is None:
        work = max(1, BUILD_WORK * walks // BUILD_WALKS)
    searches = max(1, min(searches, walks))
    seeds = [rng.getrandbits(63) for _ in range(searches)]
    best: Built | None = None
    spent = 0
    used = 0
    for i, seed in enumerate(seeds):
        share = (walks - spent) // (searches - i)  # what the earlier searches left, shared
        effort = max(1, (work - used) // (searches - i))
        if (share <= 0 or used >= work) and best is not None:
            break  # a search walks on past its share only until it has a lock at all
        try:
            res = generate(board, hand, seconds=None, rng=random.Random(seed), placements=share,
                           work=effort)
        except RuleError:
            continue
        spent += res.searched
        used += res.work
        if best is None or res.moves > best.moves:
            best = Built(res.lock, res.moves, 0)
    return None if best is None else Built(best.lock, best.moves, spent)
