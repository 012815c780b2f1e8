"""A whole match of random legal submissions through the full ``Match`` (shared by the tests
of the random policies and of the texts a match ends with)."""

from __future__ import annotations

import random
from typing import Any

from arena.core.clock import ManualClock
from arena.core.errors import RuleError
from arena.core.match import Match, MatchSettings
from arena.core.registry import get_game


def random_playout(name: str, seed: int, config: Any = None,
                   host_ends_after: int | None = None,
                   names: tuple[str, ...] = ()) -> tuple[Match, int]:
    """Every waiting seat submits its game's random move (each must be accepted, G-6); the
    clock jumps to the next deadline when nobody acted. With ``host_ends_after`` the host ends
    the match once that many phases have passed. Returns the match and its decisions."""
    game = get_game(name)
    clock = ManualClock(1000.0)
    match = Match(game, game.default_config() if config is None else config, seed, clock,
                  MatchSettings(), names=names)
    rng = random.Random(seed)
    decisions = 0
    first = match.phase_no
    while not match.finished:
        if host_ends_after is not None and match.phase_no - first >= host_ends_after:
            match.end()
            break
        acted = False
        for seat in sorted(match.waiting_for()):
            if match.finished or seat not in match.waiting_for():
                continue
            text = game.random_submission(match.state, seat, rng)
            if text is None:
                continue
            decisions += 1
            try:
                match.submit(seat, text, final=True)
            except RuleError as exc:  # pragma: no cover - a failure is the finding
                raise AssertionError(f"{name}: random {text!r} of seat {seat + 1} refused: "
                                     f"{exc}") from exc
            acted = True
        if not acted and not match.finished:
            when = match.next_deadline()
            assert when is not None
            clock.set(max(clock.now(), when))
            match.advance()
    return match, decisions
