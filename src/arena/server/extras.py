"""What the games add to the server (:mod:`arena.core.extras`), mounted here for every game
that declares it: its pages, its JSON endpoints (bodies parsed by the strict reader of
:mod:`arena.server.requests`, writes rate-limited like every other), its shelf of texts in
the database, and its step at match creation. Nothing here names a game."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from arena.core import rng as rngmod
from arena.core.errors import RuleError
from arena.core.extras import Call, Endpoint, Extras, Refusal, ShelfItem
from arena.core.registry import all_games, get_game
from arena.server.errors import ApiError
from arena.server.limits import RateLimit, address_key, limited
from arena.server.refusals import parse, validate
from arena.server.requests import CreateMatch
from arena.store import ScenarioExists, ScenarioRecord
from arena.store.asyncstore import AsyncStore
from arena.web import pages


class StoreShelf:
    """A game's shelf (:class:`arena.core.extras.Shelf`) in the database's library table,
    where each row names the game it is for."""

    def __init__(self, store: AsyncStore, game: str) -> None:
        self.store = store
        self.game = game

    async def get(self, name: str) -> ShelfItem | None:
        rec = await self.store.get_scenario(name)
        if rec is None or rec.game != self.game:
            return None
        return ShelfItem(rec.name, rec.text, rec.note, rec.created)

    async def items(self, limit: int | None = None) -> list[ShelfItem]:
        found = await (self.store.list_scenarios() if limit is None
                       else self.store.list_scenarios(limit))
        return [ShelfItem(r.name, r.text, r.note, r.created) for r in found
                if r.game == self.game]

    async def count(self) -> int:
        # Every game's rows: the table's bound (a game's MAX) holds for the whole table.
        return await self.store.count_scenarios()

    async def add(self, item: ShelfItem) -> bool:
        try:
            await self.store.save_scenario(ScenarioRecord(item.name, self.game, item.text,
                                                          item.note, time.time()))
        except ScenarioExists:
            return False
        return True


def shelf_of(request: Request, game: str) -> StoreShelf:
    store: AsyncStore = request.app.state.store
    return StoreShelf(store, game)


# --------------------------------------------------------------------------- write limits
class GameLimits:
    """The rate limits of one game's write endpoints, each an attribute named as the game's
    :class:`arena.core.extras.WriteLimit` calls it (read at each request, so a test that
    swaps one is heard)."""

    def __init__(self, extras: Extras) -> None:
        for w in extras.write_limits():
            setattr(self, w.name, RateLimit.from_env(w.env, w.burst, w.per_second, w.what))


_LIMITS: dict[str, GameLimits] = {}


def limits_of(game: str) -> GameLimits:
    """The rate limits of ``game``'s endpoints, made once per process."""
    found = _LIMITS.get(game)
    if found is None:
        extras = get_game(game).extras()
        found = _LIMITS[game] = GameLimits(extras if extras is not None else Extras())
    return found


def _limit_of(game: str, name: str) -> Callable[[Request], RateLimit]:
    def limit(request: Request) -> RateLimit:
        found: RateLimit = getattr(limits_of(game), name)
        return found
    return limit


# --------------------------------------------------------------------------- routes
def _endpoint(game: str, endpoint: Endpoint) -> Callable[[Request], Awaitable[Response]]:
    async def handle(request: Request) -> Response:
        body = await parse(endpoint.body, request) if endpoint.body is not None else None
        call = Call(body, dict(request.query_params), dict(request.path_params),
                    shelf_of(request, game))
        try:
            data = await endpoint.handler(call)
        except Refusal as exc:
            if exc.extra:
                return JSONResponse({"ok": False, "error": str(exc), **exc.extra},
                                    status_code=exc.status)
            raise ApiError(exc.status, exc.rule, exc.message) from None
        return JSONResponse(data, status_code=201 if endpoint.created else 200)

    handle.__name__ = handle.__qualname__ = f"{game}_{endpoint.method}_{endpoint.path}"
    if endpoint.limit is not None:
        return limited(_limit_of(game, endpoint.limit.name), address_key)(handle)
    return handle


def declared() -> list[tuple[str, Extras]]:
    """Each game that adds something to the server, with what it adds, in the games' order."""
    out = []
    for game in all_games(include_extra=True).values():
        extras = game.extras()
        if extras is not None:
            out.append((game.name, extras))
    return out


def routes() -> list[BaseRoute]:
    """The games' pages and endpoints as the app's routes."""
    out: list[BaseRoute] = []
    for game, extras in declared():
        out += [Route(page.path, pages.extra_page) for page in extras.pages]
        out += [Route(e.path, _endpoint(game, e), methods=[e.method.upper()])
                for e in extras.endpoints]
    return out


def private_prefixes() -> tuple[str, ...]:
    """The paths of the games' pages whose answers must never be cached."""
    return tuple(page.path for _, extras in declared() for page in extras.pages
                 if page.private)


# --------------------------------------------------------------------------- creating
async def prepare_create(store: AsyncStore, body: CreateMatch | Any) -> CreateMatch:
    """A create request with the game's config completed by the game's own step at
    creation (:attr:`arena.core.extras.Extras.prepare`), its seed drawn now if it names none
    (G-12) so the step and the match draw from the same one. Other games' requests pass
    through as their model."""
    request = validate(CreateMatch, body)
    try:
        game = get_game(request.game)
    except RuleError:
        return request  # refused with the rest of the request's checks
    extras = game.extras()
    if extras is None or extras.prepare is None:
        return request
    if request.seed is None or request.seed == "":
        seed = rngmod.fresh_seed()  # G-12: 64 bits from a cryptographic source
    else:
        try:
            seed = rngmod.parse_seed(request.seed)
        except ValueError as exc:
            raise RuleError("G-7", str(exc)) from None
    config = await extras.prepare(dict(request.config or {}), seed,
                                  StoreShelf(store, game.name))
    return request.model_copy(update={"seed": str(seed), "config": config})
