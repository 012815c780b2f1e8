"""Bots in seats, and whole matches on a simulated clock.

The same :class:`~arena.core.match.Match` a live server runs is driven here; the server's
scheduler calls :func:`bot_moves` too, so a simulated match and a live one differ only in
where time comes from.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from arena.core import rng as rngmod
from arena.core.clock import ManualClock
from arena.core.errors import RuleError
from arena.core.game import DEFAULT_LEVEL, BotLevel, Game, GameConfig
from arena.core.match import Match, MatchSettings
from arena.core.registry import get_game


class BotError(RuntimeError):
    """A bot offered a submission its own game rejects: a bug in the bot, never the player's."""


@dataclass
class BotTracker:
    """Remembers which (phase, seat) a bot has already acted in, so each acts once a phase."""

    acted: set[tuple[int, int]]

    def __init__(self) -> None:
        self.acted = set()


@dataclass(frozen=True)
class BotMove:
    """What a bot decided for one seat in one phase (``text`` None: it chose not to act)."""

    phase_no: int
    seat: int
    text: str | None


def bot_think(
    game: Game[Any, Any], seed: int, state: Any, phase_no: int, seats: Collection[int],
    levels: Mapping[int, BotLevel] | None = None,
) -> list[BotMove]:
    """Decide for every seat in ``seats`` from a frozen state, each at its level (``hard``
    where ``levels`` names none, G-8).

    Pure, so a server can run it in a worker thread *without* holding the match: a human's
    submission near a deadline is never held up by a bot that thinks for a minute.
    """
    levels = levels or {}
    return [
        BotMove(phase_no, seat, _decide(game, state, seat,
                                        rngmod.derive(seed, "bot", phase_no, seat),
                                        levels.get(seat, DEFAULT_LEVEL)))
        for seat in sorted(seats)
    ]


def _decide(game: Game[Any, Any], state: Any, seat: int, rng: random.Random,
            level: BotLevel) -> str | None:
    """One seat's decision: ``hard`` calls :meth:`Game.bot` itself (every game's own bot)."""
    if level == DEFAULT_LEVEL:
        return game.bot(state, seat, rng)
    return game.level_bot(state, seat, rng, level)


def bots_to_think(match: Match, bots: Collection[int], tracker: BotTracker) -> list[int]:
    """Bot seats the current phase waits for that have not acted in it yet."""
    if match.finished or match.paused_at is not None:
        return []
    waiting = match.waiting_for()
    return [s for s in sorted(bots) if s in waiting and (match.phase_no, s) not in tracker.acted]


def bot_apply(match: Match, moves: list[BotMove], tracker: BotTracker) -> list[tuple[int, str]]:
    """Submit decided moves (final) that still apply; a move for a phase that has since ended
    is dropped, and its seat will think again in the new phase."""
    done: list[tuple[int, str]] = []
    for move in moves:
        if match.finished or match.phase_no != move.phase_no:
            continue
        if move.seat not in match.waiting_for():
            continue
        tracker.acted.add((move.phase_no, move.seat))
        if move.text is None:
            continue
        try:
            # Sent as an answer to its own phase: if that phase's deadline passed while the bot
            # thought (and nothing has resolved it yet), the submission resolves it and is
            # refused as late, instead of being read as an answer to the next phase.
            match.submit(move.seat, move.text, final=True, bot=True, phase=move.phase_no)
        except RuleError as exc:
            if match.finished or match.phase_no != move.phase_no:
                continue  # stale: its seat thinks again in the new phase
            raise BotError(
                f"{match.game.name} bot in seat {move.seat + 1} submitted {move.text!r} in phase "
                f"{move.phase_no} and it was rejected: {exc}"
            ) from exc
        done.append((move.seat, move.text))
    return done


def bot_moves(match: Match, bots: Collection[int], tracker: BotTracker,
              levels: Mapping[int, BotLevel] | None = None) -> list[tuple[int, str]]:
    """Let every bot seat that the match waits for act once per phase, until none is left
    (a bot's move may close the phase and open one that waits for bots again).

    Returns what was submitted. A rejected bot submission raises :class:`BotError`.
    """
    done: list[tuple[int, str]] = []
    while seats := bots_to_think(match, bots, tracker):
        moves = bot_think(match.game, match.seed, match.state, match.phase_no, seats, levels)
        done.extend(bot_apply(match, moves, tracker))
    return done


def simulate(
    game: Game[Any, Any],
    seed: int,
    config: GameConfig | None = None,
    settings: MatchSettings | None = None,
    bots: Collection[int] | None = None,
    levels: Mapping[int, BotLevel] | None = None,
    children: Callable[[Match], bool] | None = None,
) -> Match:
    """Play a whole match with bots on a simulated clock, through the live engine; each bot
    seat plays at its level in ``levels`` (``hard`` where it names none). ``children``
    plays the matches the game starts (:func:`play_children`) where a server would.

    Bots act at once whatever ``settings.bot_pace`` says (G-11: a simulation has no wall
    clock to wait on); without settings the match is recorded as instant."""
    clock = ManualClock(0.0)
    settings = settings or MatchSettings(bot_pace="instant")
    match = Match(game, config or game.default_config(), seed, clock, settings)
    seats = range(match.seats) if bots is None else bots
    tracker = BotTracker()
    limit = game.max_phases(match.config) + 10
    while not match.finished:
        bot_moves(match, seats, tracker, levels)
        if match.finished:
            break
        if children is not None and children(match):
            continue
        when = match.next_deadline()
        if when is None:  # pragma: no cover - paused, or a phase with no time limit
            raise RuntimeError("simulation stalled: the match waits for a resume or an act")
        clock.set(max(when, clock.now()))
        match.advance()
        if match.phase_no > limit:
            raise RuntimeError(f"{game.name}: more than {limit} phases")
    return match


def play_children(match: Match) -> bool:
    """Play each match the game waits for (its live children) with bots at once and hand its
    result back as the ``match_result`` act, as the server does for a live parent; True if
    one was played."""
    played = False
    for spec in match.game.children(match.state):
        if not spec.live:
            continue
        game = get_game(spec.game)
        child = simulate(game, spec.seed, game.make_config(spec.config), children=play_children)
        assert child.result is not None
        match.act("match_result", {"key": spec.key, "result": child.result.to_json()},
                  "server")
        played = True
    return played
