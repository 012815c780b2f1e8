"""Every example a game's help shows is accepted where the help shows it.

The help line (``notation_help``, the page's "what to type") quotes its examples: at every
phase of bot-played matches of every game, each seat the phase waits for submits each quoted
example of its help, on a copy of the match, and the game must take it. An example offered
with "e.g." must be quoted, so that it is among those checked. (Box within a Box's help said
that a path's start may be left out, and refused ``1 path D2`` as a leg of 2.)
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from arena.core.clock import ManualClock
from arena.core.driver import BotTracker, bot_apply, bot_think, bots_to_think, play_children
from arena.core.errors import RuleError
from arena.core.game import BotLevel, Game
from arena.core.match import Match, MatchSettings
from arena.core.registry import all_games
from arena.games.boxes import GAME as BOXES
from arena.games.boxes.board import cell_name
from arena.games.boxes.movement import movements
from arena.season.game import SEASON

GAMES: dict[str, Game[Any, Any]] = {**all_games(), SEASON.name: SEASON}
"""Every game, the season too (its vote, gift and nomination help, SE-3, LO-9)."""
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
QUOTED = re.compile(r"(?<!\w)'([^']+)'(?!\w)")
"""A quoted example; an apostrophe inside a word ("this bout's cards") is not a quote."""
UNQUOTED_EXAMPLE = re.compile(r"\be\.g\.\s+[^'\s]")
PHASES = {"lockmaker": 30, "boxes": 40, "paint": 40, "feather": 12, "lockedout": 30,
          "season": 40}
LEVELS: dict[str, BotLevel] = {"lockmaker": "normal", "paint": "normal"}
"""Bots that walk the same phases as ``hard`` at a fraction of the CPU (G-8): on these seeds
Lockmaker's ``normal`` (hard but for the hardest-lock search, 14 s a seed) meets the same
phases and help lines, and Paint's ``normal`` at least every form of example hard shows."""


def examples(help_text: str) -> list[str]:
    return [x.replace("\\n", "\n") for x in QUOTED.findall(help_text)]


def refused(match: Match, seat: int, text: str) -> str | None:
    probe = match.replay_to(match.version)
    try:
        probe.submit(seat, text)
    except RuleError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_example_of_the_help_is_accepted_where_it_is_shown(name: str) -> None:
    game = GAMES[name]
    count = game.seat_range[1] if game.seat_range else game.seats
    names = list(NAMES[:count])
    bad: list[str] = []
    checked = 0
    level = LEVELS.get(name)
    for seed in (1, 2):
        clock = ManualClock(1000.0)
        match = Match(game, game.make_config(game.config_for_seats({}, names)), seed, clock,
                      MatchSettings(bot_pace="instant"), names=names)
        levels = None if level is None else dict.fromkeys(range(match.seats), level)
        tracker = BotTracker()
        seen = -1
        while not match.finished and match.phase_no <= PHASES[name]:
            if match.phase_no != seen:
                seen = match.phase_no
                for seat in sorted(match.waiting_for()):
                    help_text = game.notation_help(match.state, seat)
                    if UNQUOTED_EXAMPLE.search(help_text):
                        bad.append(f"{help_text!r}: an example after 'e.g.' is not quoted")
                    for text in examples(help_text):
                        checked += 1
                        why = refused(match, seat, text)
                        if why is not None:
                            bad.append(f"{match.spec.name if match.spec else ''}: {text!r} "
                                       f"from {help_text!r} was refused: {why}")
            seats = bots_to_think(match, range(match.seats), tracker)
            if seats:
                bot_apply(match, bot_think(game, match.seed, match.state, match.phase_no,
                                           seats, levels), tracker)
                continue
            when = match.next_deadline()
            if when is None:  # the season's own matches, played by bots as the server would
                assert play_children(match), f"{name}: stalled in {match.spec}"
                continue
            clock.set(max(when, clock.now()))
            match.advance()
    assert checked or name in ("lockmaker", "feather")
    assert bad == []


def test_a_path_of_one_cell_is_a_path() -> None:
    """BX-8: after ``path`` the words are cells, the start optional, even a single cell
    (``1 path D2``), never a leg ``D2`` of two steps down."""
    from dataclasses import replace

    from arena.games.boxes.picks import parse_pick
    from arena.games.boxes.state import PICK

    state = BOXES.initial_state(BOXES.default_config(), random.Random(4))
    one = next(n for n in state.order if state.card(n).legs == (1,)
               and state.card(n).type == "A" and not state.card(n).wrap)
    state = replace(state, stage=PICK, bout=1, round=2, hand=(one,), cards=(one,))
    start = state.boxes[state.target_board(0)]
    origin = cell_name(start)
    for m in movements(state.card(one), start):
        cell = cell_name(m.final)
        for text in (f"{one} path {cell}", f"{one} path {origin}-{cell}",
                     f"{one} path {origin} {cell}"):
            got = parse_pick(state, 0, text)
            assert got is not None and got.final == m.final, text
