"""The immutable state of a Locked Out! match and the small values it is made of.

Everything is a frozen dataclass of tuples so replays compare equal and a resolution can never
change a state another request still holds. Seats hold card *counts* per value (LO-2): two
physical cards of the same value are interchangeable, so counts are the whole truth.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import Field

from arena.core.game import GameConfig
from arena.core.settings import count, seconds
from arena.games.lockedout.safes import SAFE_NAMES, Combo

DEFAULT_NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")

ROUND_CAP = 400
"""LO-8 has no round limit unless the host sets one; the engine still bounds every match
so without the host's limit a match ends after this many rounds exactly as the
host's limit would end it. With LO-11's 24-hour rounds that is more than a year: real matches
keep LO-8's default, and a match of fast rounds cannot run for ever."""
ROUND, BARGAIN, VOTE, TIE, OVER = "round", "bargain", "vote", "tie", "over"


@dataclass(frozen=True)
class LockedOutConfig(GameConfig):
    """The seats' names, as the match was created with them (LO-10; three to six of them,
    SE-1), the round length (LO-11, 24 h), an optional round limit the host may set (LO-8: 0,
    the default, is no limit), the deduction helper for seats (LO-12, off by default) and each
    seat's season garnets for the last tiebreak of the vote (LO-9, SE-3), and who holds
    LO-9's elimination vote: the match itself, or (``"season"``) the season the match is
    the Main Match of, which holds it as a step of its own (SE-6)."""

    names: Annotated[tuple[Annotated[str, Field(max_length=40)], ...], Field(
        max_length=6, description="LO-10: the players' names, one per seat, separated by "
        "commas (3 to 6 players, SE-1)",
        title="Player names"
    )] = DEFAULT_NAMES
    round_seconds: Annotated[float, seconds("LO-11: seconds per round (24 hours by "
                                            "default)", label="Round length")] = 86400.0
    vote_seconds: Annotated[float, seconds("LO-9: seconds for the elimination vote and its "
                                           "tie-break", label="Vote time")] = 86400.0
    max_rounds: Annotated[int, count(f"LO-8: the host's round limit (0: none; the engine "
                                     f"ends a match after {ROUND_CAP} rounds)",
                                     0, ROUND_CAP, label="Round limit")] = 0
    helper: Annotated[bool, Field(description="LO-12: seats see the deduction helper",
        title="Deduction helper for the players")] = False
    # A season's garnets (SE-3) are 1 per 2 bars a match: never near 10,000.
    garnets: Annotated[tuple[Annotated[int, Field(ge=0, le=10_000)], ...], Field(
        max_length=6, description="LO-9, SE-3: each seat's season garnets, for the vote's "
                                  "last tiebreak (empty: none)", title="Season garnets")] = ()
    # "season": the match ends at the vault's end with no Elimination Candidate and a host's
    # end scores it as it stands, so the season holds the vote (SE-6). The default keeps
    # every match, and every stored log, as it was.
    vote: Annotated[Literal["match", "season"], Field(
        max_length=6, title="Who holds the elimination vote",
        description="LO-9, SE-6: the elimination vote is held by the match, or by the season "
                    "whose Main Match this is (the match then ends without it)")] = "match"


@dataclass(frozen=True)
class Light:
    """A light one seat saw (LO-4): its own numbers only; in a Dual the partner's is None."""

    round: int
    safe: int
    left: int | None
    right: int | None
    colour: str
    partner: int | None = None

    def note(self, names: tuple[str, ...], seat: int) -> str:
        """The seat's own record of the light: unique per seat, so it can serve as a private
        fact the leak checks look for."""
        s = SAFE_NAMES[self.safe]
        if self.partner is None:
            what = f"{self.left} on the left and {self.right} on the right"
        else:
            side, value = ("left", self.left) if self.left is not None else ("right", self.right)
            what = f"{value} on the {side} with {names[self.partner]}"
        return f"{names[seat]}'s try of {what} on Safe {s} flashed {self.colour} " \
               f"(round {self.round})"


@dataclass(frozen=True)
class Side:
    """What a seat knows of a safe it helped open: its own numbers (None: the partner's)."""

    safe: int
    left: int | None
    right: int | None


@dataclass(frozen=True)
class Seat:
    cards: tuple[int, int, int, int] = (2, 2, 2, 2)
    keys: int = 0
    bars: int = 0
    escaped: int = 0
    """The round the seat escaped in (LO-7); 0 while it is still inside."""
    opened: int = 0
    """Safes this seat opened (solo or dual), for the opal (LO-8)."""
    lights: tuple[Light, ...] = ()
    sides: tuple[Side, ...] = ()

    @property
    def inside(self) -> bool:
        return self.escaped == 0

    @property
    def card_count(self) -> int:
        return sum(self.cards)

    def holds(self, values: tuple[int, ...]) -> bool:
        """Whether the seat holds these cards as distinct physical cards (LO-2)."""
        return all(values.count(v) <= self.cards[v - 1] for v in set(values))


@dataclass(frozen=True)
class Bargain:
    """A safe opened by more than one seat, waiting for claims until the next deadline."""

    safe: int
    seats: tuple[int, ...]
    round: int


@dataclass(frozen=True)
class LockedOutState:
    config: LockedOutConfig
    combos: tuple[Combo, ...]
    mapping: str
    seats: tuple[Seat, ...]
    round: int = 1
    stage: str = ROUND
    opened: tuple[bool, ...] = (False,) * 16
    """Opened safes (in bargaining or closed for good); an opened safe never opens again."""
    announced: tuple[Combo | None, ...] = (None,) * 16
    """Combinations made public when their safe closed (LO-5)."""
    bargains: tuple[Bargain, ...] = ()
    news: tuple[str, ...] = ()
    end_reason: str = ""
    ec: int | None = None
    votes: tuple[tuple[int, int], ...] = field(default=())
    """(voter, candidate) pairs of the elimination vote, once it is held (LO-9)."""
    tied: tuple[int, ...] = ()
    """The seats tied at the top of the vote, while the winners choose among them (LO-9)."""
    ec_how: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        return self.config.names

    def inside(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.seats) if s.inside)

    def escaped(self) -> tuple[int, ...]:
        """The seats that left the vault: LO-9's "winners" who break a tie of the vote."""
        return tuple(i for i, s in enumerate(self.seats) if not s.inside)

    def bargains_of(self, seat: int) -> tuple[Bargain, ...]:
        return tuple(b for b in self.bargains if seat in b.seats)

    def winners(self) -> tuple[int, ...]:
        """Escaped seats with the most gold bars (LO-8)."""
        out = [i for i, s in enumerate(self.seats) if not s.inside]
        if not out:
            return ()
        best = max(self.seats[i].bars for i in out)
        return tuple(i for i in out if self.seats[i].bars == best)
