"""What the host and the server tell a season, as strict values (SE-1 to SE-7).

Each act a season takes is one of these models. The season game checks an act's data with it
before any rule runs, so a wrong type or an unknown field is refused naming the field, and the
server's routes and OpenAPI document use the same models: one definition of each request.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

MAX_NAME = 40
MAX_REASON = 300
MAX_BARS = 10**6
MAX_ADJUST = 1000
MAX_KEY = 20
MAX_ID = 40
"""A match's id, as the store keeps it."""
MIN_MM_ROUNDS, MAX_MM_ROUNDS = 0, 400
"""A Main Match's round limit (SE-6): 0 is LO-8's own (no limit but the engine's bound)."""

Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME)]
Reason = Annotated[str, Field(min_length=1, max_length=MAX_REASON,
                              description="the written reason the season's record shows")]
Players = Annotated[list[Name], Field(max_length=6)]


class Act(BaseModel):
    """Strict like every request: JSON types exactly, no field the act does not know."""

    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False, frozen=True)

    shape_rule: ClassVar[str | None] = "SE-1"
    """The rule a malformed body of this act is refused under, as for every request."""


class StartMain(Act):
    """The host starts the episode's Main Match here (SE-1, SE-2)."""

    shape_rule = "SE-1"

    players: Annotated[list[Name] | None, Field(
        min_length=3, max_length=6,
        description="SE-1: the six who play, when more than six are still in")] = None


class MainMatchResult(Act):
    """A Main Match's result by hand (SE-2): who escaped, who is trapped, their gold bars,
    LO-8's winners and opal, and LO-9's Elimination Candidate when it is known."""

    shape_rule = "SE-2"

    escaped: Players = []
    trapped: Players = []
    bars: dict[Name, Annotated[int, Field(ge=0, le=MAX_BARS)]] = {}
    winners: Players | None = None
    opal: Name | None = None
    ec: Name | None = None


class RecordMain(Act):
    """The host records the episode's Main Match, played elsewhere or here (SE-2)."""

    shape_rule = "SE-2"

    result: MainMatchResult
    players: Annotated[list[Name] | None, Field(
        min_length=3, max_length=6,
        description="SE-1: who played it, when more than six are still in")] = None
    reason: Reason


class NameEC(Act):
    """The host names the Elimination Candidate when nobody was trapped (SE-6)."""

    shape_rule = "SE-6"

    ec: Name
    reason: Reason


class DeathMatchSettings(Act):
    """SE-7: what a Death Match started from the season may set over the season's own
    settings, within any match's bounds (checked again when the match is made)."""

    shape_rule = "SE-7"

    time_scale: Annotated[float, Field(ge=0.001, le=1000.0)] | None = None
    early_close: bool | None = None
    reveal_at_end: bool | None = None
    bot_pace: Literal["human", "instant"] | None = None


class StartDeath(Act):
    """The host starts the episode's Death Match here, the EC in seat 1 (SE-4)."""

    shape_rule = "SE-4"

    game: Annotated[str, Field(max_length=MAX_NAME, description="SE-4: the Death Match game")]
    config: Annotated[dict[str, Any], Field(
        description="G-5: the game's own options, as for any match")] = {}
    settings: DeathMatchSettings = DeathMatchSettings()
    levels: Annotated[list[Literal["easy", "normal", "hard"]], Field(
        max_length=2, description="G-8: each seat's bot level, if a bot plays it")] = []


class WinnerOrLoser(Act):
    """A Death Match's outcome named by its winner or its loser (SE-4)."""

    shape_rule = "SE-4"

    winner: Name | None = None
    loser: Name | None = None

    @model_validator(mode="after")
    def _one(self) -> WinnerOrLoser:
        if (self.winner is None) == (self.loser is None):
            raise ValueError("name the winner or the loser, not both")
        return self


class RecordDeath(WinnerOrLoser):
    """The host records the Death Match by hand (SE-4): played elsewhere, or this one."""

    game: Annotated[str | None, Field(max_length=MAX_NAME)] = None
    reason: Reason


class Decide(WinnerOrLoser):
    """The host decides a Death Match that had no winner (SE-4, LM-21)."""

    reason: Reason


class Adjust(Act):
    """A correction of the ledger with a written reason (SE-5)."""

    shape_rule = "SE-5"

    player: Name
    what: Literal["tol", "garnets", "opal"]
    amount: Annotated[int, Field(ge=-MAX_ADJUST, le=MAX_ADJUST)]
    reason: Reason


class MainMatchRounds(Act):
    """The round limit of the Main Matches still to start (SE-6)."""

    shape_rule = "SE-6"

    max_rounds: Annotated[int, Field(ge=MIN_MM_ROUNDS, le=MAX_MM_ROUNDS)]


class MatchResult(Act):
    """The server hands in the result of a match the season started: the child's own
    ``Result.to_json()``, or why it cannot be read."""

    shape_rule = "SE-1"

    key: Annotated[str, Field(max_length=MAX_KEY)]
    result: dict[str, Any] | None = None
    ended: Annotated[str | None, Field(max_length=MAX_REASON)] = None
    """The reason the host gave when it ended the match early (SE-6)."""
    problem: Annotated[str | None, Field(max_length=MAX_REASON)] = None
    handed_to_bot: list[Name] = []


class Import(Act):
    """The server reads in a season the old season engine stored (its first and only act in
    the 'imported' step): ``record`` is the old engine's snapshot as it was stored, whole, so
    nothing of it is lost; ``missing`` names the matches it had started that the server cannot
    find or read, so the season does not wait for them."""

    shape_rule = "SE-5"

    record: dict[str, Any]
    missing: list[Annotated[str, Field(max_length=MAX_ID)]] = []
