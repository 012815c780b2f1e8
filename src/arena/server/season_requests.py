"""The request bodies of a season's routes (``/api/seasons``), one strict model each; see
:mod:`arena.server.requests` for what every model holds to."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Discriminator, Field, Tag

from arena.core import settings as schema
from arena.core.chat import MAX_CHARS
from arena.core.match_settings import MatchSettings
from arena.season import acts
from arena.season import state as season_state
from arena.server.news import NewsLevel
from arena.server.requests import (
    MAX_END_REASON,
    MAX_NAME,
    Body,
    Empty,
    MatchDeadline,
    MatchExtend,
    Seed,
    Webhook,
    chars,
)
from arena.server.webhook_url import MAX_URL

DAY = 86400.0
MAX_STEP_SECONDS = 30 * DAY
"""The longest step clock a season may be created with (SE-7), before the time scale."""
MAX_SEASON_NAME = 60
"""Characters of a season's name, as its page and its posts show it (G-14)."""


class SeasonWebhook(Webhook):
    """``POST /api/seasons/{id}/host/webhook``: a season's webhook, and how much of its
    matches it tells (G-14); the match it is playing follows both."""

    news: Annotated[NewsLevel | None, Field(
        description="G-14: 'steps' (the season's steps; its matches post nothing of their "
                    "own) or 'phases' (its matches post their phases too, summarised); "
                    "null keeps the level")] = None


PlayerName = Annotated[str, Field(max_length=MAX_NAME)]


class CastPlayer(Body):
    """One player of a season's cast (SE-1)."""

    name: Annotated[str, chars("SE-1: the player's name (LO-10: names differ ignoring case "
                              "and spaces)", MAX_NAME)]
    bot: Annotated[bool, Field(description="SE-1: a bot plays this player's seats")] = False


def _cast_tag(value: Any) -> str | None:
    """A cast entry is a name or an object; anything else matches neither (refused)."""
    if isinstance(value, str):
        return "plain-name"  # tags name no field: an error's place never mistakes one
    return "player-object" if isinstance(value, dict | CastPlayer) else None


CastEntry = Annotated[
    Annotated[PlayerName, Tag("plain-name")] | Annotated[CastPlayer, Tag("player-object")],
    Discriminator(_cast_tag, custom_error_type="cast_entry",
                  custom_error_message="must be a name or an object {name, bot}")]


class MainMatchOptions(Body):
    """The options of a season's Main Matches (SE-6), kept for every episode; each is
    the game's own field, checked again by the game's schema when a match starts."""

    round_seconds: Annotated[float, schema.seconds("LO-11: seconds per round")] = 86400.0
    vote_seconds: Annotated[float, schema.seconds(
        "LO-9: seconds for the elimination vote and its tie-break")] = 86400.0
    max_rounds: Annotated[int, Field(
        ge=acts.MIN_MM_ROUNDS, le=acts.MAX_MM_ROUNDS,
        description=f"SE-6: the round limit (0: LO-8's none; {season_state.DEFAULT_MM_ROUNDS} by "
                    "default)")] = season_state.DEFAULT_MM_ROUNDS
    helper: Annotated[bool, Field(description="LO-12: seats see the deduction helper")] = False


class CreateSeason(Body):
    """``POST /api/seasons``: a season from a cast of 3 or more named players (SE-1)."""

    shape_rule = "api"

    cast: Annotated[list[CastEntry], Field(
        min_length=3, max_length=season_state.MAX_CAST,
        description=f"SE-1: 3 to {season_state.MAX_CAST} players, each a name or {{name, bot}}",
        json_schema_extra={"x-item": "player"})]
    seed: Seed = None
    settings: Annotated[MatchSettings | None, Field(
        description="G-5: the settings of every match of the season",
        json_schema_extra={"x-what": "match setting"})] = None
    step_seconds: Annotated[float, Field(
        ge=1, le=MAX_STEP_SECONDS,
        description="SE-7: seconds of each step's clock (the gift, the nomination), from 1 "
                    "second to 30 days, times the time scale; G-5: at least 0.05 s after "
                    "it")] = DAY
    mm_config: Annotated[MainMatchOptions | None, Field(
        description="G-5: the options of the season's Main Matches",
        json_schema_extra={"x-what": "setting"})] = None
    webhook: Annotated[str | None, chars(
        "G-14: a webhook URL for the season's public news (allowed hosts only)",
        MAX_URL)] = None
    name: Annotated[str | None, Field(
        max_length=MAX_SEASON_NAME, pattern=r"^[^\x00-\x1f\x7f]*$",
        description="G-14: the season's name on its page and in each of its posts (no "
                    "control characters; empty: 'Season' and the start of its id)")] = None
    news: Annotated[NewsLevel, Field(
        description="G-14: what its webhook hears: 'steps' (the season's steps; its matches "
                    "post nothing of their own) or 'phases' (its matches' phases too, "
                    "summarised)")] = "steps"


class Vote(Body):
    """``POST /api/seasons/{id}/vote``: a trapped player's vote for the Elimination Candidate,
    or an escaped player's choice among the tied (LO-9, SE-6)."""

    shape_rule = "LO-9"

    ec: Annotated[str, chars("LO-9: the player voted for", MAX_NAME)]


class Gift(Body):
    """``POST /api/seasons/{id}/gift``: the solo winner gives the Token of Life (SE-3)."""

    shape_rule = "SE-3"

    to: Annotated[str, chars("SE-3: the escaped player who gets it", MAX_NAME)]


class Nominate(Body):
    """``POST /api/seasons/{id}/nominate``: the Elimination Candidate names the Death Match
    Opponent (SE-3)."""

    shape_rule = "SE-3"

    dmo: Annotated[str, chars("SE-3: the nominee", MAX_NAME)]


class SeasonPrivate(Body):
    """``POST /api/seasons/{id}/private``: a line in the host's private channel with one player
    (G-13): the host names the player; the player answers once the host has written."""

    shape_rule = "G-13"

    text: Annotated[str, chars("G-13: the line (trimmed; never empty)", MAX_CHARS)]
    player: Annotated[str | None, chars("G-13: the player (the host's link only)",
                                       MAX_NAME)] = None


class EndSeason(Body):
    """``host/end``: the host ends the season (SE-1), with a reason."""

    shape_rule = "SE-1"

    reason: Annotated[str | None, chars("the written reason the season's record shows",
                                        MAX_END_REASON)] = None


class CloseVault(Body):
    """``host/close_vault``: end the running Main Match now; it is scored as it stands
    (SE-6, LO-8)."""

    shape_rule = "SE-6"


class SeasonReissue(Body):
    """``host/reissue``: a new season link for a player of the cast; the old one stops
    working."""

    player: Annotated[str, chars("SE-1: the player's name", MAX_NAME)]


SEASON_HOST_ACTIONS: dict[str, type[BaseModel]] = {
    "start_main": acts.StartMain, "record_main": acts.RecordMain, "name_ec": acts.NameEC,
    "start_death": acts.StartDeath, "record_death": acts.RecordDeath, "decide": acts.Decide,
    "adjust": acts.Adjust, "mm_rounds": acts.MainMatchRounds, "close_vault": CloseVault,
    "end": EndSeason, "pause": Empty, "resume": Empty, "extend": MatchExtend,
    "deadline": MatchDeadline, "webhook": SeasonWebhook, "reissue": SeasonReissue,
}
"""``POST /api/seasons/{id}/host/{action}``: the body of each action; no other is taken."""
