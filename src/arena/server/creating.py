"""A new match from a create request: the request checked against its game, the match, its
record and its secret links; and how many running matches one address may keep."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from arena.core import rng as rngmod
from arena.core import settings as schema
from arena.core.clock import SystemClock
from arena.core.errors import RuleError
from arena.core.match import Match, MatchSettings
from arena.core.registry import get_game
from arena.server import announce
from arena.server.envsetting import env_positive
from arena.server.errors import ApiError
from arena.server.refusals import validate
from arena.server.requests import CreateMatch, HostSettings, SeatEntry
from arena.store import MatchRecord, TokenRecord

if TYPE_CHECKING:
    from arena.server.owner import MatchOwner

LIVE_PER_ADDRESS = int(env_positive("ARENA_LIVE_PER_ADDRESS", 30))
"""Running matches one client address may have created and not yet finished
(``ARENA_LIVE_PER_ADDRESS``): a club's host runs a few tables at once, not hundreds. The
creation rate limit alone let one client keep a hundred matches running."""

LIVE_RETRY_SECONDS = 30


@dataclass(frozen=True)
class Created:
    """A new match and its secret tokens."""

    owner: MatchOwner
    seat_tokens: tuple[str, ...]
    spectator_token: str
    host_token: str


def new_token() -> str:
    return secrets.token_urlsafe(18)


def parse_request(body: CreateMatch | Any
                  ) -> tuple[str, int, list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    """Check a create-match request and normalise it: the model of ``POST /api/matches``, or
    its JSON as a dict (a rematch, a season's match), checked by the same model. The model has
    checked each field's type and bounds; what needs the game is checked here: its seat
    count, its options and the whole match's work."""
    request = validate(CreateMatch, body)
    name = request.game
    game = get_game(name)
    if request.seed is None or request.seed == "":
        seed = rngmod.fresh_seed()  # G-12: 64 bits from a cryptographic source
    else:
        try:
            seed = rngmod.parse_seed(request.seed)
        except ValueError as exc:
            raise RuleError("G-7", str(exc)) from None
    entries = request.seats if request.seats is not None else [SeatEntry()] * game.seats
    if game.seat_range is not None:
        low, high = game.seat_range
        if not low <= len(entries) <= high:
            raise RuleError("SE-1", f"{game.title} has {low} to {high} seats; give one entry "
                                    "for each")
    elif len(entries) != game.seats:
        raise RuleError("G-8", f"{game.title} has {game.seats} seats; give one entry for each")
    seats: list[dict[str, Any]] = []
    for i, seat in enumerate(entries):
        seat_name = " ".join((seat.name or "").split()) or game.default_seat_name(i, seat.bot)
        seats.append({"name": seat_name, "bot": seat.bot,
                      "level": seat.level if seat.bot else "hard"})
    host = request.settings or HostSettings()
    # The game sees the seats it is created with: their count and names (SE-1, LO-10).
    config_raw = game.config_for_seats(dict(request.config or {}), [s["name"] for s in seats])
    config = game.make_config(config_raw)  # raises RuleError naming G-5 and the field
    # The whole match's work is bounded: every phase lasts long enough after the time scale
    # and the phases are few enough.
    schema.check_game_config(game, config, host.time_scale)
    settings_json = host.to_json()  # ``spectators`` is the server's, not the engine's
    settings_json["webhook"] = announce.webhook_setting(host.webhook)  # G-14: allowed hosts
    return name, seed, seats, settings_json, dict(config_raw)


@dataclass(frozen=True)
class Draft:
    """A match made from a request and not stored yet: its record, its links and their
    tokens by role."""

    match: Match
    record: MatchRecord
    tokens: list[TokenRecord]
    seat_tokens: tuple[str, ...]
    spectator: str
    host: str


def draft(name: str, seed: int, seats: list[dict[str, Any]], settings_json: dict[str, Any],
          config_raw: dict[str, Any]) -> Draft:
    """The match :func:`parse_request` describes, started now on the wall clock, with a new
    id and new secret links."""
    game = get_game(name)
    config = game.make_config(config_raw)
    settings = MatchSettings.from_json(settings_json)
    match_id = secrets.token_hex(6)
    start = time.time()
    match = Match(game, config, seed, SystemClock(), settings, start=start,
                  names=[s["name"] for s in seats])
    record = MatchRecord(
        id=match_id, game=name, config=config_raw, seed=seed, settings=settings_json,
        start=start, seat_names=tuple(s["name"] for s in seats),
        bots=tuple(s["bot"] for s in seats), status="running", created=start,
        levels=tuple(s["level"] for s in seats),
    )
    seat_tokens = tuple(new_token() for _ in seats)
    spectator, host = new_token(), new_token()
    tokens = [TokenRecord(tok, match_id, "seat", i) for i, tok in enumerate(seat_tokens)]
    tokens += [TokenRecord(spectator, match_id, "spectator"),
               TokenRecord(host, match_id, "host")]
    return Draft(match, record, tokens, seat_tokens, spectator, host)


def refuse_past_limit(live: int) -> None:
    """Refuse a new match to an address that already keeps :data:`LIVE_PER_ADDRESS`
    matches running (429, with when to try again)."""
    if live >= LIVE_PER_ADDRESS:
        refused = ApiError(429, "rate",
                           f"this address already has {live} matches running (at most "
                           f"{LIVE_PER_ADDRESS}); end or finish one first")
        refused.retry_after = LIVE_RETRY_SECONDS
        raise refused
