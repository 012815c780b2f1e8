"""``/s/{id}/recap``: a season's recap, the page a host shares (:mod:`arena.web.recap`).

It is public as the season's page is: without a link it reads as a spectator when the season
has a spectator link and its host keeps it open to spectators (as ``/s/{id}`` decides);
any link of the season (its host's, a player's, the public one) opens it too, and it
always shows what a spectator sees (G-10), whoever asks. A broadcast link is refused: it
reads the season one delay behind and never anything newer (G-15). An unknown season is a
404 page, a season the server could not rebuild the 503 page its own page shows, and
nothing the recap meets answers 500.
"""

from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import HTMLResponse

from arena.core.match import SPECTATOR, Match
from arena.season.game import SEASON
from arena.season.recap import gather
from arena.server import api as match_api
from arena.server.access import Access, resolve, token_of
from arena.server.errors import NOT_READ, ApiError
from arena.server.news import season_name
from arena.server.season_api import child_links, recap_url
from arena.server.views import view_for
from arena.store import StoreUnavailable
from arena.web import recap as recap_web
from arena.web.pages import error_page

log = logging.getLogger("arena.seasons")
RULE = re.compile(r"[A-Z]{1,4}-\d{1,3}")


async def recap_page(request: Request) -> HTMLResponse:
    season_id = request.path_params["match_id"]
    refusal = match_api.matches_of(request).refusal(season_id)
    if refusal is not None:
        return error_page(503, refusal)
    try:
        return await _recap(request, season_id)
    except ApiError as exc:  # named by its rule where a ruling refuses it (G-15)
        ruled = RULE.fullmatch(exc.rule) is not None
        return error_page(exc.status, f"{exc.rule}: {exc.message}" if ruled else exc.message)
    except StoreUnavailable:
        return error_page(503, NOT_READ)
    except Exception:  # a record the recap cannot read is that season's problem, not a 500
        log.exception("season %s: its recap could not be made", season_id)
        return error_page(503, "this season's recap could not be made from its record")


async def _access(request: Request, season_id: str) -> Access:
    token = token_of(request)
    store = match_api.store_of(request)
    if token is None:
        try:
            public = await store.spectator_tokens([season_id])
        except StoreUnavailable:
            public = {}
        if season_id not in public:
            raise ApiError(404, "access", "there is no such season")
        return Access(season_id, "spectator", None)
    access = await resolve(store, season_id, token)
    if access.role == "broadcast":
        raise ApiError(403, "G-15", "a broadcast link reads the season one delay behind; "
                                    "open the recap without it")
    return access


async def _recap(request: Request, season_id: str) -> HTMLResponse:
    access = await _access(request, season_id)
    owner = await match_api.matches_of(request).get(season_id)
    if owner is None or owner.record.game != SEASON.name:
        raise ApiError(404, "access", "there is no such season")
    match_api.check_spectating(owner, access)

    def seen(m: Match) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        return (view_for(owner.record, m, SPECTATOR, svg=False),
                [e.to_json() for _, e in m.events_seen(SPECTATOR)])

    view, events = await owner.read(seen)
    recap = gather(view, events)
    links = await child_links(request, owner, Access(season_id, "spectator", None))
    return recap_web.page(recap, name=season_name(owner.record.settings, season_id),
                          season_id=season_id, page_url=recap_url(request, season_id),
                          links=links, image_url=await _card_url(request, season_id))


async def _card_url(request: Request, season_id: str) -> str | None:
    """The season's standings card (arena.server.cards) for the preview, by the season's
    public link: the recap shows what a spectator sees, and so does its picture."""
    try:
        token = (await match_api.store_of(request).spectator_tokens([season_id])).get(season_id)
    except StoreUnavailable:
        return None
    if token is None:
        return None
    base = str(request.base_url).rstrip("/")
    return f"{base}/m/{quote(season_id, safe='')}/card.png?token={quote(token, safe='')}"
