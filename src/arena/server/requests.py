"""Every JSON request body of a match's routes and of the scenario library as one pydantic
model (a season's are in :mod:`arena.server.season_requests`, and a body is read and refused
by :mod:`arena.server.refusals`).

Bodies used to be dicts each handler read with ``body.get``, so a handler took whatever it
could make sense of: ``"bot": "false"`` made a bot, a name given as ``5`` was stored as text, a
key nobody knew was ignored. Each model here is strict like the settings
(:data:`arena.core.settings.STRICT`): JSON types exactly (``"false"`` is not a boolean, ``5``
is not text), unknown keys refused, every length and range bounded, and each bound described
with the ruling it serves. Handlers receive the model (:func:`~arena.server.refusals.parse`), and the OpenAPI document
is drawn from these same models (:mod:`arena.server.openapi`), so what is documented is what is
enforced.

A refusal names the field and the rule, in the words of the settings' refusals
(``"G-8: seat 2 field 'level' must be 'easy', 'normal' or 'hard', not "expert""``):

- a field whose description starts with a rule id (``"G-8: ..."``) names that rule: a value of
  the wrong type or out of its bounds is a 422 naming it (the outermost such field, with the
  field's own rule in parentheses when it differs);
- otherwise a body of the wrong shape (not an object; a field missing, unknown or of the
  wrong JSON type) is a 400 ``request``, and a value out of its bounds a 422 ``request``: a
  phase number that never existed is a 422, a phase that is not a number a 400;
- a body whose :attr:`Body.shape_rule` is set answers a wrong shape 422 naming that rule: the
  create requests and the season's steps have always been refused so, and their pages show it.

Deeper checks that need the match or the season (is this seat a bot, is it this player's
step, does the game know this option) stay with the code that knows; a model only says what
any body of its kind must be.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from annotated_types import Ge, Le, MaxLen
from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import SkipJsonSchema

from arena.core import settings as schema
from arena.core.chat import MAX_CHARS
from arena.core.deadlines import MAX_CLOCK
from arena.core.game import BotLevel
from arena.core.match_settings import MatchSettings
from arena.core.rng import MAX_SEED
from arena.server.clocktime import AT_WORDS, ClockTime
from arena.server.limits import MAX_TEXT
from arena.server.webhook_url import MAX_URL

MAX_NAME = 40
"""Characters of a seat's display name (G-8) and of a season player's (SE-1)."""
MAX_GAME = 40
"""Characters of a game's registered name."""
MAX_SEED_TEXT = 40
"""Characters of a seed given as digits (G-7: 2^64 - 1 has 20)."""
MAX_SEATS = 64
"""Seat entries of a create request: more than any game seats (each game then checks its own
count, G-8, SE-1), so only a body that could never be right is refused here."""
MAX_CHANNEL = 40
"""Characters of a chat channel's id (G-13), as the match checks it."""
MAX_OPTION = 40
"""Characters of a host option's name."""
MAX_END_REASON = 200
"""Characters of the reason the host gives for ending a match, as its log keeps it."""
MAX_PHASE_NO = 10**9
"""A phase number the sender answers (G-2): far past :data:`schema.MAX_MATCH_PHASES`."""



class Body(BaseModel):
    """A request body: strict JSON types, nothing unknown, no NaN or Infinity, immutable."""

    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False, frozen=True)

    shape_rule: ClassVar[str | None] = None
    """The rule a malformed body of this kind is refused under (422); None: a 400."""


def chars(help: str, most: int) -> Any:
    """The metadata of a text field: its help (a rule id first makes it the field's rule) and
    its longest length. (Not named ``text``: a field of that name would hide it.)"""
    return Field(description=help, max_length=most)


# --------------------------------------------------------------------------- matches
@dataclass(frozen=True)
class SeatEntry:
    """One entry of a create request's ``seats`` (G-8): strictly typed, so ``{"bot": "false"}``
    is refused instead of read as a true string."""

    __pydantic_config__: ClassVar[ConfigDict] = schema.STRICT

    name: Annotated[str | None, Field(
        max_length=MAX_NAME, description="G-8: the seat's display name (empty: a default)")
    ] = None
    bot: Annotated[bool, Field(description="G-8: a bot plays this seat")] = False
    level: Annotated[BotLevel, Field(
        description="G-8: how strongly the seat's bot plays: easy (a beginner's mistakes), "
                    "normal, or hard (the full bot)")] = "hard"


@dataclass(frozen=True)
class HostSettings(MatchSettings):
    """The host's settings of a create request: the engine's, and who may watch (the
    server's own)."""

    spectators: Annotated[bool, Field(
        description="G-9: the spectator link works (the lobby lists it)")] = True
    webhook: Annotated[str | None, schema.text(
        "G-14: a Discord webhook URL for the match's public news (the host's secret)",
        MAX_URL)] = None


Seed = Annotated[
    Annotated[int, Ge(0), Le(MAX_SEED)] | Annotated[str, MaxLen(MAX_SEED_TEXT)] | None,
    Field(description="G-7: the seed of every draw, 0 to 2^64-1, as a number or as digits "
                      "(empty or absent: 64 bits from a cryptographic source, G-12)")]


class CreateMatch(Body):
    """``POST /api/matches``: a new match of a registered game, its seats, the host's
    settings and the game's own options."""

    shape_rule = "api"

    game: Annotated[str, Field(max_length=MAX_GAME,
                               description="the game's name, as GET /api/games lists it")]
    seed: Seed = None
    seats: Annotated[list[SeatEntry] | None, Field(
        max_length=MAX_SEATS,
        description="G-8: one entry per seat, in seat order (absent: every seat a person, "
                    "named by the game)", json_schema_extra={"x-item": "seat"})] = None
    settings: Annotated[HostSettings | None, Field(
        description="G-5: the host's settings of the match",
        json_schema_extra={"x-what": "match setting"})] = None
    config: Annotated[dict[str, Any] | None, Field(
        description="G-5: the game's own options: the schema "
                    "components.schemas.<game>_config, every field typed and bounded, "
                    "refused naming the field")] = None


PhaseNo = Annotated[int, Field(
    ge=0, le=MAX_PHASE_NO,
    description="the number of the phase this answers, the view's phase.no (G-2): if that "
                "phase has closed the answer is 409 and nothing is applied; absent, the "
                "phase open now takes it")]


class Submit(Body):
    """``POST .../submit``: the seat's submission in the game's notation."""

    text: Annotated[str, Field(
        max_length=MAX_TEXT, description="G-6: the submission in the game's notation")]
    final: Annotated[bool, Field(
        description="confirm it as final at once (G-4)")] = False
    phase: PhaseNo | SkipJsonSchema[None] = None


class Confirm(Body):
    """``POST .../confirm``: confirm the seat's standing submission as final (G-4)."""

    phase: PhaseNo | SkipJsonSchema[None] = None


class Chat(Body):
    """``POST .../chat``: a line in a channel the link may post in (G-13)."""

    channel: Annotated[str, chars("G-13: the channel's id (the view's chat lists them)",
                                 MAX_CHANNEL)] = "table"
    text: Annotated[str, chars("G-13: the line, shown as typed (trimmed; never empty)",
                              MAX_CHARS)]


class Notes(Body):
    """``POST .../notes``: replace the seat's private notes (any JSON; the page's own
    shape). Their size is bounded by the handler, on the JSON text."""

    notes: Annotated[Any, Field(description="the notes: any JSON value")]


class Empty(Body):
    """A request that takes no fields (an empty object, or no body at all)."""


class MatchExtend(Body):
    """``POST .../host/extend``: give the current phase more time (the host's tool for a
    dropped connection)."""

    seconds: Annotated[float, Field(
        gt=0, le=MAX_CLOCK,
        description="seconds of wall-clock time added, up to 366 days")] = 60.0


class MatchDeadline(Body):
    """``POST .../host/deadline``: when the current phase ends, as a clock time (SE-7 made a
    season step's clock every match's clock)."""

    at: Annotated[ClockTime, Field(description=f"the phase's new end: {AT_WORDS}")]


class MatchEnd(Body):
    """``POST .../host/end``: end the match now; it is scored as it stands."""

    reason: Annotated[str | None, chars("the reason the log and the result show",
                                       MAX_END_REASON)] = None


class HostOption(Body):
    """``POST .../host/option``: flip one of the game's live switches (LO-12's helper)."""

    name: Annotated[str, chars("the option's name, as the view's host_options lists it",
                              MAX_OPTION)]
    value: Annotated[bool, Field(description="on or off")]


class Mute(Body):
    """``POST .../host/mute``: mute or open a chat channel (G-13)."""

    shape_rule = "G-13"

    channel: Annotated[str, chars("G-13: the channel's id", MAX_CHANNEL)]
    muted: Annotated[bool, Field(description="G-13: true mutes it, false opens it")] = True


class SeatPrivate(Body):
    """``POST .../private``: a seat opens its own private channel with the host (G-13: either
    of the two may open it; only the host closes it)."""

    shape_rule = "G-13"

    open: Annotated[bool, Field(description="G-13: true opens it (a seat may not close it)")
                    ] = True


class PrivateChannel(Body):
    """``POST .../host/private``: open or close the host's private channel with one seat
    (G-13: only the host and that seat read it, as channel 'host-private-<seat>')."""

    shape_rule = "G-13"

    seat: Annotated[int, Field(ge=0, lt=MAX_SEATS, description="G-13: the seat's number")]
    open: Annotated[bool, Field(description="G-13: true opens it, false closes it")] = True


SeatNo = Annotated[int, Field(
    ge=0, lt=MAX_SEATS, description="the seat's number, from 0 (the match has its own count)")]


class Reissue(Body):
    """``POST .../host/reissue``: a new link for a person's seat; the old one stops working."""

    seat: SeatNo


class SeatChange(Body):
    """``POST .../host/seat``: a bot takes the seat, or a person does (a new link); a bot seat
    given another level keeps its bot (G-8)."""

    seat: SeatNo
    bot: Annotated[bool, Field(description="true: a bot plays it; false: a person (G-8)")]
    level: Annotated[BotLevel, Field(
        description="G-8: how strongly the bot plays (easy, normal or hard)")] = "hard"


class Broadcast(Body):
    """``POST .../host/broadcast``: open (or reissue) the match's broadcast link with a delay,
    or close it (G-15)."""

    open: Annotated[bool, Field(description="true: a new broadcast link (the old one stops "
                                            "working); false: close it")] = True
    delay: Annotated[float, Field(ge=0, le=86_400, description="G-15: seconds the broadcast "
                                  "runs behind the match, at least 60 while it runs")] = 300.0


class Spectators(Body):
    """``POST .../host/spectators``: open or close the match to spectators (G-9)."""

    open: Annotated[bool, Field(description="true: the spectator link works (G-9)")]


class Webhook(Body):
    """``POST .../host/webhook`` of a match or a season: set or clear where its public news
    goes (G-14). The URL is checked against the allowed hosts, and never shown back."""

    url: Annotated[str | None, chars(
        "G-14: a webhook URL on an allowed host (ARENA_WEBHOOK_HOSTS), or null for none",
        MAX_URL)]


class HostAct(Body):
    """``POST .../host/act``: one of the game's own acts (a season's steps), with its data;
    the game's model for that act checks the data, naming the field."""

    shape_rule = "host"

    name: Annotated[str, chars("the act's name, one the game declares", MAX_OPTION)]
    data: Annotated[dict[str, Any], Field(
        default_factory=dict, description="the act's data, as its model asks")]


# --------------------------------------------------------------------------- actions
MATCH_HOST_ACTIONS: dict[str, type[Body]] = {
    "pause": Empty, "resume": Empty, "extend": MatchExtend, "end": MatchEnd,
    "option": HostOption, "mute": Mute, "private": PrivateChannel, "act": HostAct, "deadline": MatchDeadline,
}
"""``POST /api/matches/{id}/host/{action}``: the body of each action; no other is taken."""

