"""The game a season's Main Match is (SE-1), found among the games and asked through one
protocol, so the season's code names no game.

The game that can be a Main Match answers :meth:`arena.core.facts.GameFacts.main_match` with
its :class:`MainMatchRules`: the config of a Main Match from the season's options, the
season's reading of a finished match's result, and the elimination vote the season holds
(SE-6) in the game's own rules (the count, the winners' choice among the tied, the
fallbacks). A season plays the first listed game that answers, in the games' order.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from arena.core.errors import RuleError
from arena.core.game import Game
from arena.core.registry import all_games
from arena.season.steps import MainResult

Facts = tuple[tuple[str, int, int, int], ...]
"""Per player of a Main Match, by name: what the vote's fallbacks compare (three counts, in
the order the game's fallbacks take them; the season keeps them as they are)."""


@dataclass(frozen=True)
class MainOptions:
    """The season's options of a Main Match (SE-6), fixed when it starts."""

    round_seconds: float
    vote_seconds: float
    max_rounds: int
    helper: bool
    garnets: tuple[int, ...]
    """Each player's season garnets, in the players' order (SE-3)."""


class VoteCount(Protocol):
    """A counted vote: per candidate its votes, the candidates with the most, and the votes
    that counted as (voter, candidate), all as Main Match seats."""

    @property
    def counts(self) -> Mapping[int, int]: ...

    @property
    def leaders(self) -> tuple[int, ...]: ...

    @property
    def votes(self) -> tuple[tuple[int, int], ...]: ...


class MainMatchRules(Protocol):
    """What a season needs of the game its Main Match is. Seats are the Main Match's, in
    its players' order; names are the players'."""

    no_winners: str
    """Why a tie goes to the fallbacks when nobody escaped (words, no rule id)."""
    no_majority: str
    """Why a tie goes to the fallbacks when the winners reached no majority."""
    majority: str
    """How the winners' majority chose among the tied."""

    def config(self, players: Sequence[str], options: MainOptions) -> dict[str, Any]:
        """The config values of a Main Match of ``players`` in which the season holds the
        vote (SE-6)."""

    def result(self, detail: Any, names: Sequence[str]) -> MainResult:
        """The season's reading of a finished match's result detail; ValueError (never
        anything else) when it cannot be read, so the host records it (SE-2, SE-6)."""

    def facts(self, detail: Any, names: Sequence[str]) -> Facts:
        """Each player's facts for the fallbacks, from the same detail; KeyError, TypeError,
        IndexError or ValueError when the detail lacks them."""

    def tally(self, votes: Mapping[int, int], voters: Sequence[int]) -> VoteCount:
        """The trapped seats' vote among themselves (``votes``: voter -> seat named)."""

    def winners_choice(self, tied: Sequence[int], winners: Collection[int],
                       votes: Mapping[int, int]) -> int | None:
        """The tied seat the winners' majority named, or None."""

    def fallback(self, tied: Sequence[int], facts: Sequence[tuple[int, int, int]],
                 garnets: Sequence[int], rng: random.Random) -> tuple[int, str]:
        """The fallbacks among ``tied``, a draw from ``rng`` (the season's chance) last:
        the seat and the words of how it was chosen."""


def main_game() -> Game[Any, Any]:
    """SE-1: the game of the season's Main Matches."""
    for game in all_games().values():
        if game.listed and game.main_match() is not None:
            return game
    raise RuleError("SE-1", "no installed game can be a season's Main Match")


def main_rules() -> MainMatchRules:
    """What the season asks of its Main Match's game."""
    rules = main_game().main_match()
    assert rules is not None  # main_game() found it so
    return rules


def main_seats() -> tuple[int, int]:
    """SE-1: the fewest and most players of a Main Match, as its game seats them."""
    game = main_game()
    return game.seat_range or (game.seats, game.seats)
