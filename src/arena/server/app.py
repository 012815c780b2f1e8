"""The Starlette application: routes, error handling, and the store's lifetime."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from arena.core.errors import RuleError, StalePhase
from arena.server import (
    announce,
    api,
    broadcast,
    cards,
    cluster,
    collector,
    damage,
    extras,
    hosting,
    loopmon,
    reviews,
    season_api,
    season_import,
    season_recap,
    thinkers,
)
from arena.server.errors import NOT_READ, NOT_SAVED, ApiError, StoreDown
from arena.server.games import load_games
from arena.server.headers import ERROR_HEADERS, ProtectiveHeaders, redact_logs
from arena.server.limits import BodyLimit, NoNulInUrl, SocketCounts
from arena.server.matches import Matches
from arena.server.openapi import document as openapi_document
from arena.server.socket import match_socket
from arena.server.tasks import stop_task
from arena.store import DamagedRow, Store, StoreUnavailable
from arena.store.asyncstore import AsyncStore
from arena.web import pages

log = logging.getLogger("arena.server")

STATIC = Path(pages.__file__).parent / "static"


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or "json" in request.headers.get("accept", "")


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    headers = None if exc.retry_after is None else {"Retry-After": str(exc.retry_after)}
    if not _wants_json(request):
        page = pages.error_page(exc.status, str(exc))
        if headers:
            page.headers.update(headers)
        return page
    return JSONResponse({"ok": False, "error": str(exc)}, status_code=exc.status,
                        headers=headers)


async def _store_down(request: Request, exc: Exception) -> Response:
    """The database cannot be used: the store logged it once; a request
    that needed it is answered 503 in one sentence, never a traceback."""
    return await _api_error(request, StoreDown(NOT_SAVED if request.method == "POST"
                                               else NOT_READ))


async def _damaged_row(request: Request, exc: Exception) -> Response:
    """A stored row the request needed cannot be read: 503 naming the problem, and the match
    or season it belongs to quarantined where it cannot be served without it (damage.py),
    so the next request is answered without reading it again. Never a 500."""
    assert isinstance(exc, DamagedRow)
    return await _api_error(request, damage.contain(request.app.state, exc))


async def _rule_error(request: Request, exc: Exception) -> Response:
    # G-6: a refused submission (or form) names the rule it breaks.
    assert isinstance(exc, RuleError)
    if isinstance(exc, StalePhase):
        # G-2: made for a phase that closed before it arrived; nothing was applied. 409 (the
        # request conflicts with the match's state, it is not malformed) with the phase it was
        # for and the phase open now, so a page can say so in the game's words.
        if not _wants_json(request):
            return pages.error_page(409, str(exc))
        return JSONResponse({"ok": False, "error": str(exc), "rule": exc.rule, "stale": True,
                             "phase": exc.phase, "phase_title": exc.title,
                             "current_phase": exc.current}, status_code=409)
    if not _wants_json(request):
        return pages.error_page(422, str(exc))
    return JSONResponse({"ok": False, "error": str(exc), "rule": exc.rule}, status_code=422)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if not _wants_json(request):
        return pages.error_page(exc.status_code, exc.detail)
    return JSONResponse({"ok": False, "error": exc.detail}, status_code=exc.status_code)


async def _server_error(request: Request, exc: Exception) -> Response:
    log.exception("unexpected error on %s", request.url.path, exc_info=exc)
    return JSONResponse({"ok": False, "error": "internal error; the match is unchanged"},
                        status_code=500, headers=ERROR_HEADERS)


async def openapi(request: Request) -> JSONResponse:
    return JSONResponse(openapi_document())


def _loop_route(monitor: loopmon.LoopMonitor) -> Callable[[Request], Awaitable[Response]]:
    """GET: the event-loop stalls so far; POST: the same, then a new window starts."""

    async def loop_stalls(request: Request) -> Response:
        figures = monitor.snapshot()
        if request.method == "POST":
            monitor.reset()
        return JSONResponse(figures)

    return loop_stalls


def create_app(database_url: str | None = None, *, store: Store | None = None,
               process_url: str | None = None) -> Starlette:
    """The app over one store (opened, and migrated, at start-up). ``process_url`` is where
    other server processes on the same PostgreSQL database reach this one (commands for the
    matches it owns are forwarded there)."""

    load_games()
    redact_logs()  # before uvicorn logs a request line, which holds the link's token
    monitor = loopmon.LoopMonitor() if loopmon.enabled() else None
    interval = collector.refreeze_seconds()  # a bad ARENA_GC_REFREEZE stops start-up here

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if monitor is not None:
            monitor.start()
        own = store is None
        thinkers.THINKERS.hold()
        thinkers.THINKERS.warm()  # bots of matches resumed at start act on time
        # Opening a store migrates its schema: in a thread, like every later call.
        s = store if store is not None else await asyncio.to_thread(Store, database_url)
        db = AsyncStore(s)
        app.state.store = db
        # A row a listing skipped (the lobby, the resume) is contained like one a request met.
        db.on_damaged(lambda damaged: damage.contain(app.state, damaged))
        app.state.matches = Matches(db, process_url)
        # Serve first, then rebuild the running matches: a match that is
        # slow to rebuild, or cannot be, must not keep the server from answering.
        app.state.matches.start_resuming()
        app.state.matches.start_cluster()
        keeper: asyncio.Task[None] | None = None
        freezer: collector.FreezeSurvivors | None = None
        if collector.enabled():
            # What start-up made (modules, games, tables of the store) lives as long as the
            # process: out of the collector's reach, a full collection has less to walk;
            # then what survives each full collection (server/collector.py).
            collector.refreeze()
            freezer = collector.FreezeSurvivors(asyncio.get_running_loop())
            freezer.install()
            keeper = asyncio.get_running_loop().create_task(
                collector.keep_frozen(interval), name="arena-gc")
        try:
            yield
        finally:
            await stop_task(keeper)
            if freezer is not None:
                freezer.remove()
                # Back to the collector: in a process that runs many apps (a test suite)
                # the cycles of the stopped one must not stay frozen for good.
                collector.thaw()
            await app.state.matches.shutdown()
            await cluster.close()
            await announce.ANNOUNCER.close()
            await thinkers.THINKERS.release()
            await db.close()
            if own:
                s.close()
            if monitor is not None:
                await monitor.stop()

    routes = [
        Route("/", pages.lobby),
        Route("/games/{name}", pages.rules_page),
        Route("/m/{match_id}", pages.match_page),
        Route("/m/{match_id}/card.png", cards.match_card),
        Route("/rulings", pages.rulings_page),
        Route("/favicon.ico", pages.favicon),
        Route("/api/openapi.json", openapi),
        Route("/api/games", api.list_games),
        Route("/api/games/{name}", api.one_game),
        Route("/api/matches", api.list_matches, methods=["GET"]),
        Route("/api/matches", api.create_match, methods=["POST"]),
        Route("/api/matches/{match_id}", api.match_info),
        Route("/api/matches/{match_id}/view", api.get_view),
        Route("/api/matches/{match_id}/events", api.get_events),
        Route("/api/matches/{match_id}/replay", api.get_replay),
        Route("/api/matches/{match_id}/review", reviews.get_review),
        Route("/api/matches/{match_id}/submit", cluster.routed(api.submit), methods=["POST"]),
        Route("/api/matches/{match_id}/confirm", cluster.routed(api.confirm), methods=["POST"]),
        Route("/api/matches/{match_id}/chat", cluster.routed(api.chat), methods=["POST"]),
        Route("/api/matches/{match_id}/private", cluster.routed(api.private),
              methods=["POST"]),
        Route("/api/matches/{match_id}/host/links", hosting.host_links),
        Route("/api/matches/{match_id}/host/reissue", cluster.routed(hosting.reissue),
              methods=["POST"]),
        Route("/api/matches/{match_id}/host/seat", cluster.routed(hosting.replace_seat),
              methods=["POST"]),
        Route("/api/matches/{match_id}/host/spectators", cluster.routed(hosting.spectators),
              methods=["POST"]),
        Route("/api/matches/{match_id}/host/broadcast", cluster.routed(broadcast.open_broadcast),
              methods=["POST"]),
        Route("/api/matches/{match_id}/host/webhook", cluster.routed(hosting.webhook),
              methods=["POST"]),
        Route("/api/matches/{match_id}/host/rematch", cluster.routed(hosting.rematch),
              methods=["POST"]),
        Route("/api/matches/{match_id}/next", hosting.next_match),
        Route("/api/matches/{match_id}/notes", hosting.notes, methods=["GET", "POST"]),
        Route("/api/matches/{match_id}/host/{action}", cluster.routed(api.host_action),
              methods=["POST"]),
        Route("/s/{match_id}", season_api.season_page),
        Route("/s/{match_id}/recap", season_recap.recap_page),
        Route("/api/seasons", season_api.list_seasons, methods=["GET"]),
        Route("/api/seasons", season_api.create_season, methods=["POST"]),
        Route("/api/seasons/{match_id}", season_api.get_season),
        Route("/api/seasons/{match_id}/vote", cluster.routed(season_api.vote), methods=["POST"]),
        Route("/api/seasons/{match_id}/gift", cluster.routed(season_api.gift), methods=["POST"]),
        Route("/api/seasons/{match_id}/nominate", cluster.routed(season_api.nominate),
              methods=["POST"]),
        Route("/api/seasons/{match_id}/private", cluster.routed(season_api.private),
              methods=["POST"]),
        Route("/api/seasons/{match_id}/host/{action}", cluster.routed(season_api.host_action),
              methods=["POST"]),
        # What each game adds (its pages and endpoints), after the server's own routes so
        # none of them can be shadowed by a game's.
        *extras.routes(),
        WebSocketRoute("/ws/{match_id}", match_socket),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    if monitor is not None:  # ARENA_LOOP_MONITOR=1 only: the load bench reads it
        routes.insert(0, Route("/api/debug/loop", _loop_route(monitor), methods=["GET", "POST"]))
    app = Starlette(
        routes=routes,
        middleware=[Middleware(ProtectiveHeaders), Middleware(NoNulInUrl), Middleware(BodyLimit),
                    Middleware(season_import.AfterConversion)],
        exception_handlers={
            ApiError: _api_error,
            StoreUnavailable: _store_down,
            DamagedRow: _damaged_row,
            RuleError: _rule_error,
            HTTPException: _http_error,
            Exception: _server_error,
        },
        lifespan=lifespan,
    )
    app.state.socket_counts = SocketCounts.from_env()
    # The pages read a game's shelf (its lobby card's note) through this, never the store.
    app.state.shelf_of = lambda game: extras.StoreShelf(app.state.store, game)
    # And a match page's preview tags (a link pasted in a chat unfurls) through this.
    app.state.unfurl = cards.page_head
    return app
