"""All matches the server knows: creating them, and rebuilding them from the store.

On start every running match is rebuilt with :meth:`Match.replay` from its stored input
events; a deadline that passed while the server was down resolves at once, at its own time
(the runner guarantees that), so the rebuilt match is the one that would have run uninterrupted.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any

from arena.core import rng as rngmod
from arena.core.clock import SystemClock
from arena.core.errors import RuleError
from arena.core.match import INPUT_KINDS, Match, MatchSettings
from arena.core.registry import get_game
from arena.server.owner import MatchOwner
from arena.store import MatchRecord, Store, TokenRecord

log = logging.getLogger("arena.server")

MAX_NAME = 40


@dataclass(frozen=True)
class Created:
    """A new match and its secret tokens."""

    owner: MatchOwner
    seat_tokens: tuple[str, ...]
    spectator_token: str
    host_token: str


def _new_token() -> str:
    return secrets.token_urlsafe(18)


def parse_request(body: Any) -> tuple[str, int, list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    """Check a create-match request (the JSON of ``POST /api/matches``) and normalise it."""
    if not isinstance(body, dict):
        raise RuleError("api", "the request body must be a JSON object")
    known = {"game", "seed", "seats", "settings", "config"}
    unknown = set(body) - known
    if unknown:
        raise RuleError("api", f"unknown field(s): {', '.join(sorted(unknown))}")
    name = body.get("game")
    if not isinstance(name, str):
        raise RuleError("api", "'game' must name a registered game")
    game = get_game(name)
    seed_raw = body.get("seed")
    if seed_raw is None or seed_raw == "":
        seed = rngmod.fresh_seed()  # G-12: 64 bits from a cryptographic source
    else:
        try:
            seed = rngmod.parse_seed(seed_raw)
        except ValueError as exc:
            raise RuleError("G-7", str(exc)) from None
    seats_raw = body.get("seats")
    if seats_raw is None:
        seats_raw = [{} for _ in range(game.seats)]
    if game.seat_range is not None:
        low, high = game.seat_range
        if not isinstance(seats_raw, list) or not low <= len(seats_raw) <= high:
            raise RuleError("SE-1", f"{game.title} has {low} to {high} seats; give one entry "
                                    "for each")
    elif not isinstance(seats_raw, list) or len(seats_raw) != game.seats:
        raise RuleError("G-8", f"{game.title} has {game.seats} seats; give one entry for each")
    seats: list[dict[str, Any]] = []
    for i, entry in enumerate(seats_raw):
        if not isinstance(entry, dict):
            raise RuleError("G-8", f"seat {i + 1} must be an object with 'name' and 'bot'")
        seat_name = " ".join(str(entry.get("name") or "").split()) or game.default_seat_name(
            i, bool(entry.get("bot")))
        if len(seat_name) > MAX_NAME:
            raise RuleError("G-8", f"the name of seat {i + 1} is longer than {MAX_NAME} characters")
        seats.append({"name": seat_name, "bot": bool(entry.get("bot", False))})
    settings_raw = body.get("settings") or {}
    config_raw = body.get("config") or {}
    if not isinstance(settings_raw, dict) or not isinstance(config_raw, dict):
        raise RuleError("api", "'settings' and 'config' must be JSON objects")
    extra = set(settings_raw) - {"time_scale", "early_close", "reveal_at_end", "bot_pace",
                                 "spectators"}
    if extra:
        raise RuleError("G-5", f"unknown match setting(s): {', '.join(sorted(extra))}")
    try:
        settings = MatchSettings.from_json(settings_raw)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, RuleError):
            raise
        raise RuleError("G-5", f"bad match setting: {exc}") from None
    if settings.time_scale > 1000:
        raise RuleError("G-5", "the time scale may be at most 1000")
    # The game sees the seats it is created with: their count and names (SE-1, LO-10).
    config_raw = game.config_for_seats(dict(config_raw), [s["name"] for s in seats])
    game.make_config(config_raw)  # raises RuleError naming G-5 on a bad option
    settings_json = settings.to_json()
    spectators = settings_raw.get("spectators", True)
    if not isinstance(spectators, bool):
        raise RuleError("G-5", "'spectators' must be true or false")
    settings_json["spectators"] = spectators  # the server's, not the engine's: who may watch
    return name, seed, seats, settings_json, dict(config_raw)


class Matches:
    """The registry of match owners of one server process."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.owners: dict[str, MatchOwner] = {}
        self._loading = asyncio.Lock()

    async def create(self, body: Any) -> Created:
        name, seed, seats, settings_json, config_raw = parse_request(body)
        game = get_game(name)
        config = game.make_config(config_raw)
        settings = MatchSettings.from_json(settings_json)
        match_id = secrets.token_hex(6)
        start = time.time()
        match = Match(game, config, seed, SystemClock(), settings, start=start)
        record = MatchRecord(
            id=match_id, game=name, config=config_raw, seed=seed, settings=settings_json,
            start=start, seat_names=tuple(s["name"] for s in seats),
            bots=tuple(s["bot"] for s in seats), status="running", created=start,
        )
        seat_tokens = tuple(_new_token() for _ in seats)
        spectator, host = _new_token(), _new_token()
        tokens = [TokenRecord(tok, match_id, "seat", i) for i, tok in enumerate(seat_tokens)]
        tokens += [TokenRecord(spectator, match_id, "spectator"),
                   TokenRecord(host, match_id, "host")]
        self.store.create_match(record, tokens)
        owner = MatchOwner(record, match, self.store, persisted=0)
        async with owner.lock:
            owner._commit()
        self.owners[match_id] = owner
        owner.start()
        return Created(owner, seat_tokens, spectator, host)

    def rebuild(self, record: MatchRecord) -> MatchOwner:
        """A match from its stored inputs, brought to now (passed deadlines resolve at once)."""
        game = get_game(record.game)
        stored = self.store.events(record.id)
        inputs = [e for e in stored if e.kind in INPUT_KINDS]
        match = Match.replay(game, game.make_config(record.config), record.seed,
                             MatchSettings.from_json(record.settings), record.start, inputs,
                             SystemClock())
        for old, new in zip(stored, match.log, strict=False):
            if (old.version, old.kind, old.t) != (new.version, new.kind, new.t):
                log.warning("match %s: replay differs from the stored log at version %d",
                            record.id, old.version)
                break
        persisted = stored[-1].version if stored else 0
        if persisted > match.version:
            raise RuntimeError(f"match {record.id}: the replay is shorter than the stored log")
        return MatchOwner(record, match, self.store, persisted)

    async def resume_all(self) -> None:
        """Rebuild and restart every running match (on server start)."""
        for record in self.store.running():
            try:
                owner = self.rebuild(record)
            except (RuleError, RuntimeError, ValueError, KeyError) as exc:
                log.error("cannot resume match %s: %s", record.id, exc)
                continue
            self.owners[record.id] = owner
            async with owner.lock:
                owner._commit()
            owner.start()

    async def get(self, match_id: str) -> MatchOwner | None:
        """The owner of a match, rebuilding a finished one from the store on first use."""
        owner = self.owners.get(match_id)
        if owner is not None:
            return owner
        async with self._loading:
            owner = self.owners.get(match_id)
            if owner is not None:
                return owner
            record = self.store.get_match(match_id)
            if record is None:
                return None
            try:
                owner = self.rebuild(record)
            except RuleError:
                return None
            self.owners[match_id] = owner
            async with owner.lock:
                owner._commit()
            owner.start()
            return owner

    async def shutdown(self) -> None:
        for owner in list(self.owners.values()):
            await owner.stop()
