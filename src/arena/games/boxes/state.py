"""The immutable state of a Box within a Box within a Box match and its configuration."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from arena.core.game import GameConfig
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

    bouts: int = 7
    cards_per_bout: int = 8
    study_boards: float = 120.0
    study_cards: float = 120.0
    bet: float = 150.0
    pick: float = 60.0
    reserve_periods: int = 16
    reserve_period: float = 30.0
    start_points: int = 20
    bout_bonus: int = 3
    board: str = ""
    deck: str = ""
    odds_helper: bool = False
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

    def card(self, number: int) -> Card:
        return self.deck.card(number)

    def target_board(self, seat: int, round_no: int | None = None) -> int:
        """The board whose box ``seat``'s card moves: the opponent's in rounds 1 and 3, its
        own in rounds 2 and 4 (BX-6). Board ``s`` is controlled by seat ``s`` (BX-1)."""
        r = self.round if round_no is None else round_no
        return 1 - seat if r % 2 == 1 else seat
