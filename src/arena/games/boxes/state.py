"""The immutable state of a Box within a Box within a Box match and its configuration."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from arena.core.game import GameConfig, ReservePeriod, ReservePeriods, seat_label
from arena.core.settings import count, seconds, text
from arena.games.boxes.bets import Bet, Settled
from arena.games.boxes.board import Board, Tile
from arena.games.boxes.conditions import Usage
from arena.games.boxes.deck import Card, Deck

STUDY_BOARDS = "study boards"
STUDY_CARDS = "study cards"
BET = "bet"
PICK = "pick"
OVER = "over"


@dataclass(frozen=True)
class BoxesConfig(GameConfig):
    """Defaults are the rule text's (BX-2, BX-6, BX-12). ``board`` is host board text (empty:
    drawn from the seed, BX-1); ``deck`` is a host deck as TOML text (empty: BX-10's);
    ``odds_helper`` lets seats see the odds helper (LO-12)."""

    # The deck must also hold bouts x cards_per_bout cards (BX-10, checked by the game).
    bouts: Annotated[int, count("BX-11: how many bouts (7 in the text)", 1, 30, label="Bouts")] = 7
    cards_per_bout: Annotated[int, count("BX-6: cards drawn per bout (8 in the text; at "
                                         "least one per round)", 4, 16, label="Cards per bout")] = 8
    study_boards: Annotated[float, seconds("BX-12: seconds to study the boards before "
                                           "bout 1", label="Studying the boards")] = 120.0
    study_cards: Annotated[float, seconds("BX-12: seconds to study each bout's cards",
        label="Studying the cards")] = 120.0
    bet: Annotated[float, seconds("BX-12: seconds to place the bets", label="Betting time")] = 150.0
    pick: Annotated[float, seconds("BX-12: seconds per round to pick a card",
        label="Picking a card")] = 60.0
    reserve_periods: ReservePeriods = 16
    reserve_period: ReservePeriod = 30.0
    start_points: Annotated[int, count("BX-2: points each seat starts with", 0, 1000,
        label="Starting points")] = 20
    bout_bonus: Annotated[int, count("BX-2: points each seat gets at the start of every "
                                     "bout after the first", 0, 1000,
                                     label="Points for each new bout")] = 3
    # A 7 x 7 board is a few hundred characters (BX-1).
    board: Annotated[str, text("BX-1: a host's board as text (empty: drawn from the seed)",
                               2_000, label="Custom board")] = ""
    # The shipped deck is 3,600 characters; 50,000 is room for a much larger host deck.
    deck: Annotated[str, text("BX-10: your own deck of cards, pasted from a deck file "
                                   "(check it with 'arena boxes deck'; empty: the shipped "
                                   "deck)",
                              50_000, label="Custom deck")] = ""
    odds_helper: Annotated[bool, Field(description="LO-12: the players see the odds "
                                                   "helper during the match (the helpers "
                                                   "ruling covers Boxes' odds helper too)",
                                                   title="Odds helper for the players")] = False
    """Whether seats see the odds helper during a live match (LO-12: off by default; the host
    always sees it, and everyone does once the match is over)."""


ROUNDS = 4
"""Rounds per bout (BX-6)."""


@dataclass(frozen=True)
class Play:
    """What one seat's card did to one board in a round (revealed at its end, BX-13)."""

    seat: int
    board: int
    card: int | None
    legs: tuple[str, ...]
    start: int
    path: tuple[int, ...]
    landings: tuple[int, ...]
    tiles: tuple[Tile, ...]
    counts: tuple[int, ...] = ()
    """The card's number figure: squares (or knight's jumps) per leg (BX-8)."""


@dataclass(frozen=True)
class BoutRecord:
    """A finished bout: each seat's revealed bets, what they paid, and the points after."""

    bout: int
    cards: tuple[int, ...]
    settled: tuple[tuple[Settled, ...], tuple[Settled, ...]]
    points: tuple[Fraction, Fraction]


@dataclass(frozen=True)
class BoxesState:
    config: BoxesConfig
    deck: Deck
    order: tuple[int, ...]
    start_board: Board
    boards: tuple[Board, Board]
    boxes: tuple[int, int]
    points: tuple[Fraction, Fraction]
    stage: str = STUDY_BOARDS
    bout: int = 0
    round: int = 0
    cards: tuple[int, ...] = ()
    hand: tuple[int, ...] = ()
    bets: tuple[tuple[Bet, ...], tuple[Bet, ...]] = ((), ())
    usage: tuple[Usage, Usage] = ((0,) * 12, (0,) * 12)
    landed: tuple[tuple[Tile, ...], tuple[Tile, ...]] = ((), ())
    last_plays: tuple[Play, ...] = ()
    plays: tuple[Play, ...] = ()
    records: tuple[BoutRecord, ...] = ()
    gains: tuple[tuple[Fraction, ...], tuple[Fraction, ...]] = ((), ())
    seat_names: tuple[str, ...] = ()
    """The players' names, for the texts people read (LO-10, G-6); empty in a simulation."""

    def who(self, seat: int) -> str:
        return seat_label(self.seat_names, seat)

    def card(self, number: int) -> Card:
        return self.deck.card(number)

    def target_board(self, seat: int, round_no: int | None = None) -> int:
        """The board whose box ``seat``'s card moves: the opponent's in rounds 1 and 3, its
        own in rounds 2 and 4 (BX-6). Board ``s`` is controlled by seat ``s`` (BX-1)."""
        r = self.round if round_no is None else round_no
        return 1 - seat if r % 2 == 1 else seat
