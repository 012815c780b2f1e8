"""G-11: when a bot playing at human pace answers."""

from __future__ import annotations

from typing import Any

from arena.core import rng as rngmod
from arena.core.driver import BotMove
from arena.core.match import Match

BOT_SHARE = 0.6
"""The largest share of its phase (or of its own window) a human-pace bot waits (G-11)."""


def human_wait(match: Match, move: BotMove, state: Any) -> float:
    """G-11: when a bot at human pace answers, in seconds after the phase start: a think time
    drawn from the match's chance (so a replay or a restarted server agrees), scaled like the
    match's clocks, and never later than :data:`BOT_SHARE` of the phase's time limit, where it
    has one (or of the seat's own window inside it, :meth:`Game.bot_time_limit`) so a bot does
    not lose to its own pace. A solve time measured from the phase start (LM-16) charges the bot
    exactly this wait. Pure: it reads the match's seed, settings and current phase
    limits, and never a clock."""
    m = match
    low, high = m.game.bot_think_time(state, move.seat)
    draw = rngmod.derive(m.seed, "pace", move.phase_no, move.seat).uniform(low, high)
    wait = draw * m.settings.time_scale
    # A phase with no time limit caps nothing: the bot still waits its drawn think time.
    limit = 0.0 if m.deadline is None else m.deadline - m.phase_start
    own = m.game.bot_time_limit(state, move.seat)
    if own is not None and own > 0:
        limit = min(limit, own) if limit > 0 else own
    if limit > 0:
        wait = min(wait, BOT_SHARE * limit)
    return wait
