"""A whole match of random legal submissions through the full ``Match`` (shared by the tests
of the random policies, of the texts a match ends with, of the words a page is given, and of
each game's notation checker)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from arena.core.clock import ManualClock
from arena.core.errors import RuleError
from arena.core.match import Match, MatchSettings
from arena.core.registry import get_game


def random_steps(name: str, seed: int, config: Any = None, names: tuple[str, ...] = (),
                 ) -> Iterator[tuple[Match, int | None, str | None]]:
    """Plays a match of random legal submissions, yielding ``(match, None, None)`` whenever a
    phase has started (and once at the end) and ``(match, seat, text)`` just before each
    submission is sent. Every waiting seat submits its game's random move (each must be
    accepted, G-6); the clock jumps to the next deadline when nobody acted. A consumer that
    stops early (a host's end) simply stops iterating."""
    game = get_game(name)
    clock = ManualClock(1000.0)
    match = Match(game, game.default_config() if config is None else config, seed, clock,
                  MatchSettings(), names=names)
    rng = random.Random(seed)
    seen = -1
    while True:
        if match.phase_no != seen or match.finished:
            seen = match.phase_no
            yield match, None, None
        if match.finished:
            return
        acted = False
        for seat in sorted(match.waiting_for()):
            if match.finished or seat not in match.waiting_for():
                continue
            text = game.random_submission(match.state, seat, rng)
            if text is None:
                continue
            yield match, seat, text
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


def random_playout(name: str, seed: int, config: Any = None,
                   host_ends_after: int | None = None,
                   names: tuple[str, ...] = ()) -> tuple[Match, int]:
    """The whole match of :func:`random_steps`; with ``host_ends_after`` the host ends it once
    that many phases have passed. Returns the match and its decisions."""
    decisions = 0
    first: int | None = None
    match: Match | None = None
    for match, seat, _ in random_steps(name, seed, config, names):
        first = match.phase_no if first is None else first
        if seat is not None:
            decisions += 1
        elif host_ends_after is not None and not match.finished \
                and match.phase_no - first >= host_ends_after:
            match.end()
            break
    assert match is not None
    return match, decisions
