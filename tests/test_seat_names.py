"""Every message a person reads names a seat by its player (LO-10, G-6), in every game.

A match is created as the server creates it: with the seats' names (and Locked Out!'s config
naming them too). At every phase of a bot-played match, each seat tries what a person might:
text the game cannot read, acting when it has nothing to do, confirming nothing, chatting where
it may not. No refusal may say "seat N" for a seat that has a name ("G-2: seat 1 has nothing to
do in the elimination vote phase" was what an escaped Ann read). The same holds for what the
match shows afterwards: the log's entries, the result, each seat's view and picture.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from arena.core.chat import SPECTATORS, TABLE
from arena.core.clock import ManualClock
from arena.core.driver import BotTracker, bot_apply, bot_think, bots_to_think
from arena.core.errors import RuleError
from arena.core.game import BotLevel, Game
from arena.core.match import HOST, Match, MatchSettings
from arena.core.registry import all_games

GAMES: dict[str, Game[Any, Any]] = all_games()
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
SEAT_NUMBER = re.compile(r"\bseat\s*#?\d", re.IGNORECASE)
TRIES = ("", "???", "zz 99 qq", "pass", "ready", "stop", "1", "pick 9", "Vote seat 2",
         "Dual, Safe A, Left 1 with seat 2", "99 U", "fill Z 9", "-1")
PHASES = 24
"""Phases walked per game: enough for a turn of every kind of phase, and a test that stays
fast (Lockmaker's bots solve locks)."""
LEVELS: dict[str, BotLevel] = {"lockmaker": "normal", "paint": "normal"}
"""``normal`` bots (G-8) walk the same phases as ``hard`` on these seeds, with the same
waiting seats and kinds of log entry, without Lockmaker's hardest-lock search (14 s a walk)
or Paint's design search (3 s)."""


def named_match(game: Game[Any, Any], seed: int, **config: Any) -> tuple[Match, ManualClock]:
    """A match as the server makes one: the seats' names in the match and, where the game
    takes them in its config, there too."""
    count = game.seat_range[1] if game.seat_range else game.seats
    names = list(NAMES[:count])
    values = game.config_for_seats(dict(config), names)
    clock = ManualClock(1000.0)
    match = Match(game, game.make_config(values), seed, clock,
                  MatchSettings(bot_pace="instant"), names=names)
    return match, clock


def refusals(match: Match) -> list[str]:
    """What each seat is told when it tries something the match refuses now (on copies: the
    match itself is left as it was)."""
    said: list[str] = []

    def attempt(do: Any, text: str = "") -> None:
        probe = match.replay_to(match.version)
        try:
            do(probe)
        except RuleError as exc:
            # The seat's own words quoted back are not the match naming a seat.
            said.append(str(exc).replace(repr(text), "").replace(text, "") if text
                        else str(exc))

    channels = [c["id"] for c in match.chat_channels(HOST)] + [TABLE, SPECTATORS, "nope"]
    for seat in range(match.seats):
        for text in TRIES:
            attempt(lambda m, s=seat, t=text: m.submit(s, t), text)
        attempt(lambda m, s=seat: m.confirm(s))
        for channel in channels:
            attempt(lambda m, s=seat, c=channel: m.chat(s, c, "hello"))
    return said


def walk(match: Match, clock: ManualClock, phases: int, look: Any) -> None:
    """Bots play ``phases`` phases; ``look`` sees the match at the start of each."""
    level = LEVELS.get(match.game.name)
    levels = None if level is None else dict.fromkeys(range(match.seats), level)
    tracker = BotTracker()
    seen = -1
    while not match.finished and match.phase_no <= phases:
        if match.phase_no != seen:
            seen = match.phase_no
            look(match)
        seats = bots_to_think(match, range(match.seats), tracker)
        if seats:
            bot_apply(match, bot_think(match.game, match.seed, match.state, match.phase_no,
                                       seats, levels), tracker)
            continue
        when = match.next_deadline()
        assert when is not None
        clock.set(max(when, clock.now()))
        match.advance()


def offenders(texts: list[str]) -> list[str]:
    return sorted({t for t in texts if SEAT_NUMBER.search(t)})


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_refusal_calls_a_named_seat_by_its_number(name: str) -> None:
    game = GAMES[name]
    match, clock = named_match(game, seed=3)
    said: list[str] = []
    walk(match, clock, PHASES, lambda m: said.extend(refusals(m)))
    assert said, "the walk must try something"
    if name == "lockmaker":  # the draft waits for one seat at a time (LM-14)
        assert any("Ann has nothing to do" in s or "Ben has nothing to do" in s for s in said)
    assert offenders(said) == []


def shown(match: Match) -> list[str]:
    """Every text of the match a person may be shown: each log entry, the result, each
    seat's and the host's view with its picture."""
    texts = [json.dumps(e.data, default=str) for e in match.log]
    for viewer in (*range(match.seats), HOST):
        texts.append(json.dumps(match.view(viewer), default=str))
    return texts


@pytest.mark.parametrize("name", sorted(GAMES))
def test_what_a_match_shows_names_seats_by_their_players(name: str) -> None:
    game = GAMES[name]
    match, clock = named_match(game, seed=5)
    texts: list[str] = []
    walk(match, clock, PHASES, lambda m: texts.extend(shown(m)))
    texts.extend(shown(match))
    assert offenders(texts) == []


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_seat_out_of_reserve_is_named(name: str) -> None:
    """Nobody acts: the first seat the match waits for runs out of reserve (G-3), and the
    result says who."""
    game = GAMES[name]
    match, clock = named_match(game, seed=1, reserve_periods=1)
    for _ in range(2000):
        if match.finished:
            break
        when = match.next_deadline()
        assert when is not None
        clock.set(when)
        match.advance()
    assert match.result is not None
    reason = match.result.reason
    assert offenders([reason]) == []
    if "reserve" in reason:
        assert any(n in reason for n in NAMES), reason
