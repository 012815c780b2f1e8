"""Bots in seats, and whole matches on a simulated clock.

The same :class:`~arena.core.match.Match` a live server runs is driven here; the server's
scheduler calls :func:`bot_moves` too, so a simulated match and a live one differ only in
where time comes from.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from arena.core import rng as rngmod
from arena.core.clock import ManualClock
from arena.core.errors import RuleError
from arena.core.game import Game, GameConfig
from arena.core.match import Match, MatchSettings


class BotError(RuntimeError):
    """A bot offered a submission its own game rejects: a bug in the bot, never the player's."""


@dataclass
class BotTracker:
    """Remembers which (phase, seat) a bot has already acted in, so each acts once a phase."""

    acted: set[tuple[int, int]]

    def __init__(self) -> None:
        self.acted = set()


def bot_moves(match: Match, bots: Collection[int], tracker: BotTracker) -> list[tuple[int, str]]:
    """Let every bot seat that the current phase waits for submit once (final).

    Returns what was submitted. A rejected bot submission raises :class:`BotError`.
    """
    done: list[tuple[int, str]] = []
    progressed = True
    while progressed and not match.finished:
        progressed = False
        for seat in sorted(bots):
            if match.finished or seat not in match.waiting_for():
                continue
            key = (match.phase_no, seat)
            if key in tracker.acted:
                continue
            tracker.acted.add(key)
            rng = rngmod.derive(match.seed, "bot", match.phase_no, seat)
            text = match.game.bot(match.state, seat, rng)
            if text is None:
                continue
            try:
                match.submit(seat, text, final=True, bot=True)
            except RuleError as exc:
                raise BotError(
                    f"{match.game.name} bot in seat {seat + 1} submitted {text!r} in phase "
                    f"{match.phase_no} and it was rejected: {exc}"
                ) from exc
            done.append((seat, text))
            progressed = True
    return done


def simulate(
    game: Game[Any, Any],
    seed: int,
    config: GameConfig | None = None,
    settings: MatchSettings | None = None,
    bots: Collection[int] | None = None,
) -> Match:
    """Play a whole match with bots on a simulated clock, through the live engine."""
    clock = ManualClock(0.0)
    match = Match(game, config or game.default_config(), seed, clock, settings)
    seats = range(game.seats) if bots is None else bots
    tracker = BotTracker()
    limit = game.max_phases(match.config) + 10
    while not match.finished:
        bot_moves(match, seats, tracker)
        if match.finished:
            break
        when = match.next_deadline()
        if when is None:  # pragma: no cover - only when paused
            raise RuntimeError("simulation stalled")
        clock.set(max(when, clock.now()))
        match.advance()
        if match.phase_no > limit:
            raise RuntimeError(f"{game.name}: more than {limit} phases")
    return match
