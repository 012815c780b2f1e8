"""A season as one immutable value (SE-1 to SE-7): its cast, its ledger, its episodes and the
step it is at, so that the core's match runner can hold it like any game's state and a replay
of the season's log rebuilds it exactly."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Annotated, Any

from pydantic import Field

from arena.core.game import GameConfig
from arena.core.settings import count, seconds
from arena.season.acts import MAX_MM_ROUNDS, MAX_NAME, MIN_MM_ROUNDS
from arena.season.ledger import Entry, Ledger
from arena.season.steps import MainResult, main_to_json

MAX_CAST = 26
DAY = 86400.0
DEFAULT_MM_ROUNDS = 20
"""SE-6: a season's Main Match has a round limit unless the host changes it, so a trapped
player who passes every round cannot keep the season waiting (LO-8 alone has none)."""

# The steps of an episode, in order (SE-1, SE-3, SE-4, SE-6).
MAIN_NEXT = "main_next"    # the host starts the Main Match or records one played elsewhere
MM_PLAY = "mm_play"        # the Main Match is played here; the season waits for its result
MM_RECORD = "mm_record"    # its result cannot be read: the host records it by hand (SE-6)
VOTE = "vote"              # the trapped vote for the Elimination Candidate (LO-9, SE-6)
TIE = "tie"                # the escaped choose among the tied (LO-9)
GIFT = "gift"              # the solo winner gives its Token of Life (SE-3)
NAME_EC = "name_ec"        # nobody was trapped: the host names the EC (SE-6)
NOMINATE = "nominate"      # the EC nominates the Death Match Opponent (SE-3)
DM_NEXT = "dm_next"        # the host picks the Death Match game or records one (SE-4)
DM_PLAY = "dm_play"        # the Death Match is played here
DM_DECIDE = "dm_decide"    # no winner: the host decides who leaves, with a reason (SE-4)
OVER = "over"
IMPORTED = "imported"      # a season the old engine stored, before its record is read in

STEP_WORDS = {
    MAIN_NEXT: "Main Match next", MM_PLAY: "Main Match in play",
    MM_RECORD: "the host records the Main Match", VOTE: "Elimination vote",
    TIE: "the escaped break the tie", GIFT: "Token of Life gift",
    NAME_EC: "the host names the Elimination Candidate", NOMINATE: "Nomination",
    DM_NEXT: "Death Match next", DM_PLAY: "Death Match in play",
    DM_DECIDE: "the host decides the Death Match", OVER: "Season over",
    IMPORTED: "imported from the old season engine",
}


@dataclass(frozen=True)
class SeasonConfig(GameConfig):
    """The cast (SE-1; names differ ignoring case and spaces, LO-10), each step's clock
    (SE-7), the vote's (LO-9, SE-6) and the Main Matches' options (LO-11, SE-6, LO-12).
    Durations are scaled by the season's time scale like any match's (G-5)."""

    cast: Annotated[tuple[Annotated[str, Field(min_length=1, max_length=MAX_NAME)], ...],
                    Field(min_length=3, max_length=MAX_CAST,
                          description="SE-1: the players' names (3 to 26)",
                          title="Cast")] = ("Ann", "Ben", "Cat")
    step_seconds: Annotated[float, seconds(
        "SE-7: seconds of each step's clock (the gift, the nomination, starting the Death "
        "Match)", high=30 * DAY, label="Step clock")] = DAY
    vote_seconds: Annotated[float, seconds(
        "LO-9, SE-6: seconds for the elimination vote and its tie-break", high=30 * DAY,
        label="Vote clock")] = DAY
    mm_round_seconds: Annotated[float, seconds(
        "LO-11: seconds per round of the Main Matches", label="Main Match round length")] = DAY
    mm_max_rounds: Annotated[int, count(
        "SE-6: the Main Matches' round limit (0: LO-8's none)", MIN_MM_ROUNDS, MAX_MM_ROUNDS,
        label="Main Match round limit")] = DEFAULT_MM_ROUNDS
    mm_helper: Annotated[bool, Field(
        description="LO-12: seats see the deduction helper in the Main Matches",
        title="Deduction helper in Main Matches")] = False
    legacy: Annotated[bool, Field(
        description="A season the old season engine stored: it starts at an untimed "
                    "'imported' step that only the server's import act closes",
        title="Imported from the old season engine")] = False


@dataclass(frozen=True)
class Votes:
    """A vote once it is counted: who voted for whom (public after the vote, as the Main Match's
    result shows it), the count, and who tied."""

    ballots: tuple[tuple[str, str], ...] = ()
    counts: tuple[tuple[str, int], ...] = ()
    tied: tuple[str, ...] = ()
    tie_ballots: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Episode:
    """One Main Match, the steps after it and one Death Match (SE-1). A ``None`` is a step
    not reached yet; each choice keeps how it was made, for the record."""

    number: int
    final: bool = False
    players: tuple[str, ...] = ()
    mm_key: str | None = None
    mm_match: str | None = None
    """The id of a Main Match the old season engine started (its ids were not derived from
    the season's, so the child is found by this id instead)."""
    mm_config: Any = None
    mm_external: bool = False
    mm_handed: tuple[str, ...] = ()
    main: MainResult | None = None
    stats: tuple[tuple[str, int, int, int], ...] = ()
    """(name, keys, bars, cards) of each Main Match player, for LO-9's fallbacks."""
    votes: Votes | None = None
    gift: str | None = None
    gift_how: str | None = None
    ec: str | None = None
    ec_how: str | None = None
    dmo: str | None = None
    dmo_how: str | None = None
    dm_seats: tuple[str, ...] = ()
    dm_key: str | None = None
    dm_match: str | None = None
    """The id of a Death Match the old season engine started, as ``mm_match``."""
    dm_game: str | None = None
    dm_external: bool = False
    dm_config: Any = None
    dm_settings: Any = None
    dm_levels: tuple[str, ...] = ()
    dm_winner: str | None = None
    dm_handed: tuple[str, ...] = ()
    eliminated: str | None = None
    notes: tuple[str, ...] = ()

    def noted(self, text: str) -> Episode:
        return replace(self, notes=(*self.notes, text))

    def to_json(self) -> dict[str, Any]:
        mm, v = self.main, self.votes
        return {
            "episode": self.number, "final": self.final, "players": list(self.players),
            "main": None if mm is None and self.mm_key is None else {
                "key": self.mm_key, "external": self.mm_external,
                "handed_to_bot": list(self.mm_handed),
                "result": None if mm is None else main_to_json(mm)},
            "vote": None if v is None else {
                "ballots": dict(v.ballots), "counts": dict(v.counts), "tied": list(v.tied),
                "tie_ballots": dict(v.tie_ballots)},
            "gift": self.gift, "gift_how": self.gift_how,
            "ec": self.ec, "ec_how": self.ec_how, "dmo": self.dmo, "dmo_how": self.dmo_how,
            "death_match": None if not self.dm_game and not self.dm_external else {
                "key": self.dm_key, "game": self.dm_game, "external": self.dm_external,
                "seats": list(self.dm_seats), "winner": self.dm_winner,
                "handed_to_bot": list(self.dm_handed)},
            "eliminated": self.eliminated, "notes": list(self.notes),
        }


@dataclass(frozen=True)
class SeasonState:
    """Everything a season is. The ledger's entries are its only record of ToLs, garnets,
    opals and eliminations (SE-5); ``child_seed`` seeds the matches it starts."""

    config: SeasonConfig
    child_seed: int
    entries: tuple[Entry, ...] = ()
    episodes: tuple[Episode, ...] = ()
    step: str = MAIN_NEXT
    mm_rounds: int | None = None
    ended: str | None = None
    mm_played: tuple[int, ...] = field(default=())

    @property
    def cast(self) -> tuple[str, ...]:
        return self.config.cast

    @property
    def ledger(self) -> Ledger:
        return Ledger(self.cast, list(self.entries))

    @property
    def episode(self) -> Episode:
        return self.episodes[-1]

    def with_episode(self, ep: Episode) -> SeasonState:
        return replace(self, episodes=(*self.episodes[:-1], ep))

    def add(self, *entries: Entry) -> SeasonState:
        ledger = self.ledger
        for e in entries:
            ledger.add(e)  # refuses a player outside the cast or an unknown kind
        return replace(self, entries=tuple(ledger.entries))

    def seat(self, name: str) -> int:
        return self.cast.index(name)

    def still_in(self) -> list[str]:
        return self.ledger.still_in()
