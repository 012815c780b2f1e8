"""``/api/seasons`` and ``/s/{id}``: a season's own words for what is one match of the engine.

A season is a match of the ``season`` game (:mod:`arena.season.game`), so its clock, links,
chat, private lines, replay, socket and outage answers are the match API's under the same id.
These routes only say the season's steps in its own terms: creating one from a cast, listing
them, a player's vote, gift or nomination, the host's acts, and the host's actions that also
reach the match the season is playing (its clock during the match, closing the vault,
ending the season, a new link).
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from arena.core.chat import private_channel
from arena.core.errors import RuleError
from arena.core.game import ChildSpec
from arena.core.match import HOST, Match
from arena.season.game import SEASON
from arena.season.state import DM_PLAY, MM_PLAY, SeasonState
from arena.server import api as match_api
from arena.server import hosting
from arena.server.access import Access, resolve, token_of
from arena.server.broadcast_views import broadcast_view, cut
from arena.server.children import spec_id, specs
from arena.server.errors import ApiError
from arena.server.limits import (
    RateLimit,
    address_key,
    check_host_entries,
    count_host_entries,
    limited,
    read_json,
)
from arena.server.news import season_level, season_name
from arena.server.owner import MatchOwner
from arena.server.refusals import parse, validate
from arena.server.requests import Empty, MatchDeadline, MatchExtend
from arena.server.season_requests import (
    CloseVault,
    CreateSeason,
    EndSeason,
    Gift,
    Nominate,
    SeasonPrivate,
    SeasonReissue,
    SeasonWebhook,
    Vote,
)
from arena.server.seats import new_link
from arena.server.views import view_for
from arena.store import MatchRecord, StoreUnavailable

log = logging.getLogger("arena.seasons")


class StepExtend(MatchExtend):
    """``host/extend`` of a season: more time for the current step (SE-7)."""

    shape_rule = "SE-7"


class StepDeadline(MatchDeadline):
    """``host/deadline`` of a season: when the current step ends, as a clock time (SE-7)."""

    shape_rule = "SE-7"


ACT_NAMES = ("start_main", "record_main", "name_ec", "start_death", "record_death", "decide",
             "adjust", "mm_rounds")
"""The host's season acts (:data:`arena.season.game.SeasonGame.acts`), one route each."""


# ---------------------------------------------------------------------- helpers
def _page(request: Request, match_id: str, token: str, prefix: str = "m") -> str:
    return f"{str(request.base_url).rstrip('/')}/{prefix}/{match_id}?token={token}"


def recap_url(request: Request, season_id: str) -> str:
    """The season's recap to share (``/s/{id}/recap``): public, so no link in it."""
    return f"{str(request.base_url).rstrip('/')}/s/{season_id}/recap"


async def _season(request: Request, *, public: bool = False) -> tuple[MatchOwner, Access]:
    """The season and who asks. ``public``: a read without a link reads as a spectator (a
    season's record is public, as its page is), while the host keeps it open to them."""
    season_id = request.path_params["match_id"]
    # A season that cannot be served says why before its link is looked at: an old season
    # that could not be converted has its links in the old tables only.
    match_api.matches_of(request).check_quarantine(season_id)
    token = token_of(request)
    if public and token is None:
        access = Access(season_id, "spectator", None)
    else:
        access = await resolve(match_api.store_of(request), season_id, token)
    owner = await match_api.matches_of(request).get(season_id)
    if owner is None or owner.record.game != SEASON.name:
        raise ApiError(404, "access", "no such season")
    match_api.check_spectating(owner, access)
    return owner, access


async def season_link_key(request: Request) -> str:
    season_id = request.path_params["match_id"]
    match_api.matches_of(request).check_quarantine(season_id)
    access = await resolve(match_api.store_of(request), season_id, token_of(request))
    return f"{season_id}:{access.role}:{access.seat}"


def _state(owner: MatchOwner) -> SeasonState:
    state: SeasonState = owner.match.state
    return state


async def _running_child(request: Request, owner: MatchOwner) -> MatchOwner | None:
    """The match the season's current step waits for (its Main or Death Match), if any:
    made sure of under the children's own lock first, then taken from memory only, so a
    request never loads a child beside its creation (two owners of one match)."""
    matches = match_api.matches_of(request)
    await matches.children.ensure(owner.record.id)
    return next((matches.owners.get(spec_id(owner.record.id, spec))
                 for spec in specs(owner) if spec.live), None)


async def _end_child(child: MatchOwner | None, reason: str) -> None:
    """End ``child`` (the match the step waited for, found before the season moved on)."""
    if child is not None and not child.match.finished:
        with contextlib.suppress(RuleError):  # it ended by itself meanwhile
            await child.command(lambda m: m.end(reason))


# ---------------------------------------------------------------------- creating, listing
@limited(lambda r: match_api.CREATE_LIMIT, address_key)
async def create_season(request: Request) -> JSONResponse:
    body = await parse(CreateSeason, request)
    create = create_request(body)
    names = [seat["name"] for seat in create["seats"]]
    # G-14: the season's name and news level are the record's (its matches copy the level);
    # without a name, one is made of the id wherever it is shown (news.season_name).
    own: dict[str, Any] = {"news": body.news}
    if body.name is not None and body.name.split():
        own["name"] = " ".join(body.name.split())
    created = await match_api.matches_of(request).create(
        create, creator=request.client.host if request.client else "?", record_settings=own)
    sid = created.owner.record.id
    page = f"{str(request.base_url).rstrip('/')}/s/{sid}?token="
    players = {n: t for n, t in zip(names, created.seat_tokens, strict=True)}
    return JSONResponse({
        "id": sid,
        "links": {"host": page + created.host_token,
                  "players": {n: page + t for n, t in players.items()},
                  "public": page + created.spectator_token},
        "tokens": {"host": created.host_token, "players": players,
                   "spectator": created.spectator_token},
    }, status_code=201)


def create_request(body: CreateSeason) -> dict[str, Any]:
    """The season as a create-match request of the ``season`` game: the cast its seats, the
    step clocks and Main Match options its config (checked by the game's schema, G-5, when
    the match is made)."""
    cast: list[dict[str, Any]] = []
    for entry in body.cast:
        if isinstance(entry, str):
            cast.append({"name": entry, "bot": False})
        else:
            cast.append({"name": entry.name, "bot": entry.bot})
    names = [" ".join(c["name"].split()) for c in cast]
    mm = body.mm_config
    config: dict[str, Any] = {"cast": names, "step_seconds": body.step_seconds}
    if mm is not None:
        config.update(mm_round_seconds=mm.round_seconds, vote_seconds=mm.vote_seconds,
                      mm_max_rounds=mm.max_rounds, mm_helper=mm.helper)
    settings = body.settings.to_json() if body.settings is not None else {}
    if body.webhook is not None:
        settings["webhook"] = body.webhook
    create: dict[str, Any] = {
        "game": SEASON.name, "config": config, "settings": settings,
        "seats": [{"name": n, "bot": c["bot"]} for n, c in zip(names, cast, strict=True)]}
    if body.seed is not None:
        create["seed"] = body.seed
    return create


def summary(record_id: str, status: str, state: SeasonState | None,
            result: Any) -> dict[str, Any]:
    """A season in the list: from memory while it runs, from its stored result after."""
    if state is not None:
        standings = state.ledger.standings()
        # A season the host ended keeps the step it was at; it is over all the same.
        spec = SEASON.phase(state) if status != "finished" else None
        return {"id": record_id, "status": status, "cast": list(state.cast),
                "episode": state.episode.number,
                "stage": spec.name if spec is not None else "Season over",
                "winner": next((n for n in state.cast if standings[n].won), None)}
    detail = result.get("detail") if isinstance(result, dict) else None
    rows = detail.get("standings") if isinstance(detail, dict) else None
    rows = rows if isinstance(rows, list) else []
    return {"id": record_id, "status": status,
            "cast": [r.get("name") for r in rows if isinstance(r, dict)],
            "episode": len(detail.get("episodes") or []) if isinstance(detail, dict) else None,
            "stage": "Season over",
            "winner": next((r.get("name") for r in rows if isinstance(r, dict) and r.get("won")),
                           None)}


async def list_seasons(request: Request) -> JSONResponse:
    """Every season, newest first: its rows and what memory holds, never a log read."""
    matches = match_api.matches_of(request)
    records: list[MatchRecord]
    try:
        records = list(await matches.store.matches_of(SEASON.name))
    except StoreUnavailable:  # the database is down: what memory holds (outage reads)
        records = [r for r in matches.listing([], 200) if r.game == SEASON.name]
    out = []
    for record in records:
        owner = matches.owners.get(record.id)
        state = _state(owner) if owner is not None else None
        status = "finished" if owner is not None and owner.match.finished else record.status
        out.append(summary(record.id, status, state, record.result))
    return JSONResponse(out)


async def get_season(request: Request) -> JSONResponse:
    """The season as this link sees it (the match view of the season), with the links of
    its matches this reader may use."""
    owner, access = await _season(request, public=True)
    if access.role == "broadcast":  # G-15: the season cut one delay ago, and its matches
        def read(m: Match) -> tuple[dict[str, Any], tuple[ChildSpec, ...]]:
            _, then = cut(owner, access)
            view = broadcast_view(owner, access)
            return view, () if then is None else then.game.children(then.state)

        view, kids = await owner.read(read)
        # The season's broadcast link follows its matches too (resolve): the matches the
        # season had started by the cut, each one delay behind.
        token = token_of(request) or ""
        view["links"] = {spec.key: {"watch": _page(request, spec_id(owner.record.id, spec),
                                                   token)} for spec in kids}
        view["name"] = season_name(owner.record.settings, owner.record.id)
        return JSONResponse(view)
    view = await owner.read(lambda m: view_for(owner.record, m, access.viewer, svg=False))
    view["links"] = await child_links(request, owner, access)
    settings = owner.record.settings
    view["name"] = season_name(settings, owner.record.id)
    view["recap"] = recap_url(request, owner.record.id)
    if access.is_host:  # G-14: whether news goes out and how much; never the URL
        view["webhook"] = bool(settings.get("webhook"))
        view["news"] = season_level(settings)
    return JSONResponse(view)


async def child_links(request: Request, owner: MatchOwner, access: Access
                      ) -> dict[str, dict[str, str]]:
    """For each match the season started: the reader's own seat link (a player in it), the
    host's link (the host) and the watching link (everyone)."""
    out: dict[str, dict[str, str]] = {}
    store = match_api.store_of(request)
    for spec in specs(owner):
        cid = spec_id(owner.record.id, spec)
        try:
            tokens = await store.tokens_for(cid)
        except StoreUnavailable:
            continue
        links: dict[str, str] = {}
        for t in tokens:
            if t.role == "spectator":
                links["watch"] = _page(request, cid, t.token)
            elif t.role == "host" and access.role == "host":
                links["host"] = _page(request, cid, t.token)
            elif t.role == "seat" and t.seat is not None and access.seat is not None \
                    and t.seat < len(spec.seats) and spec.seats[t.seat] == access.seat:
                links["play"] = _page(request, cid, t.token)
        out[spec.key] = links
    return out


# ---------------------------------------------------------------------- players
async def _choose(request: Request, verb: str, name: str) -> JSONResponse:
    owner, access = await _season(request)
    if access.seat is None:
        raise ApiError(403, "access", "only a player's own season link makes this choice")
    seat = access.seat

    def act(m: Match) -> dict[str, Any]:
        m.submit(seat, f"{verb} {name}", final=True)
        return {"ok": True, "version": m.version_for(seat)}

    return JSONResponse(await owner.command(act))


@limited(lambda r: match_api.STEP_LIMIT, season_link_key)
async def vote(request: Request) -> JSONResponse:
    body = await parse(Vote, request)
    return await _choose(request, "Vote", body.ec)


@limited(lambda r: match_api.STEP_LIMIT, season_link_key)
async def gift(request: Request) -> JSONResponse:
    body = await parse(Gift, request)
    return await _choose(request, "Gift", body.to)


@limited(lambda r: match_api.STEP_LIMIT, season_link_key)
async def nominate(request: Request) -> JSONResponse:
    body = await parse(Nominate, request)
    return await _choose(request, "Nominate", body.dmo)


@limited(lambda r: match_api.CHAT_LIMIT, season_link_key)
async def private(request: Request) -> JSONResponse:
    """G-13 in a season: a line in the private channel of the host and one player; either of
    them may open it by writing first."""
    owner, access = await _season(request)
    body = await parse(SeasonPrivate, request)
    state = _state(owner)
    if access.role == "host":
        if body.player is None or body.player not in state.cast:
            raise RuleError("G-13", "name the player of the cast to write to")
        seat = state.cast.index(body.player)
    elif access.seat is not None and body.player in (None, state.cast[access.seat]):
        seat = access.seat
    else:
        raise ApiError(403, "access", "only the host and that player write in their private "
                                      "channel (G-13)")
    sender = HOST if access.role == "host" else seat

    def act(m: Match) -> dict[str, Any]:
        if seat not in m.private:
            m.set_private(seat, True, by=sender)
        m.chat(sender, private_channel(seat), body.text)
        return {"ok": True, "version": m.version_for(access.viewer)}

    return JSONResponse(await owner.command(act))


# ---------------------------------------------------------------------- the host
def _host_limit(request: Request) -> RateLimit:
    """A new player link spends the link budget and a webhook change the webhook budget, as
    on a match; every other action the host budget."""
    action = request.path_params.get("action")
    if action == "reissue":
        return match_api.LINK_LIMIT
    if action == "webhook":
        return match_api.WEBHOOK_LIMIT
    return match_api.HOST_LIMIT


UNCOUNTED = frozenset({"webhook", "close_vault"})
"""Host actions that add no entry to the season's log (the webhook is a setting; closing the
vault ends the match being played)."""


@limited(_host_limit, season_link_key)
async def host_action(request: Request) -> JSONResponse:
    owner, access = await _season(request)
    if not access.is_host:
        raise ApiError(403, "access", "only the season's host link may do this")
    action = request.path_params["action"]
    if action not in UNCOUNTED:  # each act, clock change and reissue is an entry of its log
        check_host_entries(count_host_entries(owner.match), action, "season's record")
    if action in ACT_NAMES:
        data = await read_json(request)
        model = SEASON.acts[action].model
        if model is not None:  # refused naming the field and the act's own rule
            validate(model, data)
        step = _state(owner).step
        # The match this step waits for, found now: once the act is taken the step has moved
        # on and no match is live any more.
        child = await _running_child(request, owner) if step in (MM_PLAY, DM_PLAY) else None
        await owner.command(lambda m: m.act(action, data, "host"))
        if action == "record_main" and step == MM_PLAY:
            await _end_child(child, "the host recorded this Main Match's result by hand in "
                                    "the season (SE-2)")
        elif action == "record_death" and step == DM_PLAY:
            await _end_child(child, "the host recorded this Death Match's result by hand in "
                                    "the season (SE-4)")
        return JSONResponse({"ok": True, "version": owner.match.version_for(HOST)})
    if action == "close_vault":
        await parse(CloseVault, request)
        if _state(owner).step != MM_PLAY or owner.match.finished:
            raise RuleError("SE-6", "no Main Match is being played")
        child = await _running_child(request, owner)
        if child is None:
            raise RuleError("SE-6", "the Main Match is still being set up; close the vault "
                                    "in a moment")
        await _end_child(child, "the host closed the vault now (SE-6)")
        return JSONResponse({"ok": True})
    if action == "end":
        body = await parse(EndSeason, request)
        reason = f"ended by the host: {body.reason}" if body.reason else "ended by the host"
        child = await _running_child(request, owner)
        await owner.command(lambda m: m.end(reason))
        await _end_child(child, "the host ended the season (SE-1)")
        return JSONResponse({"ok": True})
    if action == "reissue":
        who = await parse(SeasonReissue, request)
        state = _state(owner)
        player = next((n for n in state.cast if n.lower() == who.player.lower()), None)
        if player is None:
            raise RuleError("SE-1", "'player' must be a name of the season's cast")
        seat = state.cast.index(player)
        token = await new_link(match_api.store_of(request), owner, seat)
        await match_api.matches_of(request).children.follow_seat(owner, seat, reissued=True)
        return JSONResponse({"ok": True, "player": player,
                             "link": _page(request, owner.record.id, token, "s")})
    if action in ("pause", "resume", "extend", "deadline"):
        return JSONResponse(await _clock(request, owner, action))
    if action == "webhook":
        return await _webhook(request)
    raise ApiError(404, "host", f"unknown season action {action!r}")


async def _webhook(request: Request) -> JSONResponse:
    """G-14: set or clear the season's webhook, and its news level, as a match's (the URL is
    checked against the allowed hosts and never shown back). The match the season is playing
    follows: it took the season's webhook and level when it started. (Its budget is the
    webhook budget, spent by :func:`host_action`.)"""
    owner, _ = await _season(request)
    owner.check_owned()
    body = await parse(SeasonWebhook, request)
    own = {} if body.news is None else {"news": body.news}
    url = await hosting.set_webhook(request, owner, body.url, own)
    child = await _running_child(request, owner)
    if child is not None and not child.match.finished:
        try:
            await hosting.set_webhook(request, child, url, own)
        except (ApiError, RuleError):  # past a cap: the season has it; its match keeps its own
            log.warning("season %s: its match kept its webhook", owner.record.id, exc_info=True)
    return JSONResponse({"ok": True, "webhook": url is not None,
                         "news": season_level(owner.record.settings)})


async def _clock(request: Request, owner: MatchOwner, action: str) -> dict[str, Any]:
    """SE-7: the current step's clock; while a match is played, that match's clock is the
    step's."""
    target = owner
    if _state(owner).step in (MM_PLAY, DM_PLAY):
        target = await _running_child(request, owner) or owner
    if target is not owner:  # the match's own log takes the entry: its own cap too
        check_host_entries(count_host_entries(target.match), action)
    if action == "extend":
        extend = await parse(StepExtend, request)
        await target.command(lambda m: m.extend(extend.seconds))
    elif action == "deadline":
        when = await parse(StepDeadline, request)
        await target.command(lambda m: m.set_deadline(float(when.at)))
    elif action == "pause":
        await parse(Empty, request)
        await target.command(lambda m: m.pause())
    else:
        await parse(Empty, request)
        await target.command(lambda m: m.resume())
    return {"ok": True, "match": target.record.id}


# ---------------------------------------------------------------------- the page
async def season_page(request: Request) -> Response:
    """``/s/{id}``: the season's page is the match page of the season; without a link it
    opens as a spectator (a season's record is public)."""
    season_id = request.path_params["match_id"]
    matches = match_api.matches_of(request)
    refusal = matches.refusal(season_id)
    if refusal is not None:
        from arena.web.pages import error_page
        return error_page(503, refusal)
    if token_of(request) is None:
        try:
            tokens = await match_api.store_of(request).spectator_tokens([season_id])
        except StoreUnavailable:
            tokens = {}
        token = tokens.get(season_id)
        if token is None:
            from arena.web.pages import error_page
            return error_page(404, "there is no such season")
        return RedirectResponse(f"/s/{season_id}?token={token}", status_code=303)
    del matches
    from arena.web.pages import match_page
    result: HTMLResponse = await match_page(_as_match(request))
    return result


def _as_match(request: Request) -> Request:
    request.path_params["match_id"] = request.path_params["match_id"]
    return request

