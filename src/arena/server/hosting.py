"""What a host does around the rules: hand out and reissue seat links, put a bot in
a seat or give a bot's seat to a person, open or close the match to spectators, and start a
rematch that every open page follows.

Links are secrets of the server, not of the match: they live in the store, never in the log.
What a change means for the table (a seat now played by a bot) is a ``host_note`` input of the
log, so the replay shows it at its moment."""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from arena.core.errors import RuleError
from arena.server import announce, api
from arena.server.access import Access, resolve, token_of
from arena.server.api import _owner, link_key, links, matches_of, store_of
from arena.server.errors import ApiError
from arena.server.limits import check_host_entries, count_host_entries, limited
from arena.server.owner import MatchOwner
from arena.server.refusals import B, parse
from arena.server.requests import Empty, Notes, Reissue, SeatChange, Spectators, Webhook
from arena.server.seats import change_seat, new_link
from arena.store import MatchRecord


def _page(request: Request, match_id: str, token: str) -> str:
    return f"{str(request.base_url).rstrip('/')}/m/{match_id}?token={token}"


async def _host(request: Request, model: type[B], logs: str | None = None
                ) -> tuple[MatchOwner, B]:
    """The match and the body (as ``model``) of a host request. ``logs`` names the action
    when it appends a host entry to the log: past the cap it is refused here, before the body
    is read."""
    owner, access = await _owner(request)
    if not access.is_host:
        raise ApiError(403, "access", "only the host link may do this")
    if request.method == "POST":
        owner.check_owned()  # a mirror sends host changes to the match's owner
    if logs is not None:
        check_host_entries(count_host_entries(owner.match), logs)
    body = await parse(model, request) if request.method == "POST" else model()
    return owner, body


def _seat(owner: MatchOwner, seat: int) -> int:
    """A seat number the body gave, checked against this match's seats."""
    if not seat < len(owner.record.seat_names):
        raise ApiError(400, "request", f"'seat' must be a seat number "
                                       f"0..{len(owner.record.seat_names) - 1}")
    return seat


async def host_links(request: Request) -> JSONResponse:
    """Every human seat's link (none for a bot's seat), the spectator's and the host's."""
    owner, _ = await _host(request, Empty)
    rid = owner.record.id
    tokens = await store_of(request).tokens_for(rid)
    by_seat = {t.seat: t.token for t in tokens if t.role == "seat"}
    seats = []
    for i, name in enumerate(owner.record.seat_names):
        bot = owner.record.bots[i]
        token = None if bot else by_seat.get(i)
        seats.append({"seat": i, "name": name, "bot": bot,
                      "level": owner.record.level(i) if bot else None,
                      "link": None if token is None else _page(request, rid, token)})
    spectator = next((t.token for t in tokens if t.role == "spectator"), None)
    broadcast = next((t for t in tokens if t.role == "broadcast"), None)
    host = next(t.token for t in tokens if t.role == "host")
    return JSONResponse({
        "seats": seats,
        "spectator": None if spectator is None else _page(request, rid, spectator),
        "spectators_open": owner.record.settings.get("spectators") is not False,
        "host": _page(request, rid, host),
        # G-15: the audience's link, one delay behind (a secret of the host's).
        "broadcast": None if broadcast is None else {
            "link": _page(request, rid, broadcast.token), "delay": broadcast.delay},
        "rematch": owner.record.settings.get("rematch"),
        "webhook": bool(owner.record.settings.get("webhook")),  # G-14: set, never shown
    })


@limited(lambda r: api.LINK_LIMIT, link_key)
async def reissue(request: Request) -> JSONResponse:
    """A new link for a human seat; the old one stops working at once, its pages are told.
    The player's seat in a match this one started (a season's running match) gets a new
    link too, so a lost link is replaced everywhere it played."""
    owner, body = await _host(request, Reissue, logs="reissue")
    seat = _seat(owner, body.seat)
    token = await new_link(store_of(request), owner, seat)
    await matches_of(request).children.follow_seat(owner, seat, reissued=True)
    return JSONResponse({"ok": True, "seat": seat, "link": _page(request, owner.record.id, token)})


@limited(lambda r: api.LINK_LIMIT, link_key)
async def replace_seat(request: Request) -> JSONResponse:
    """Human to bot (the old link stops working) or bot to human (a new link); a bot seat
    given another ``level`` (G-8) keeps its bot, which plays at that level from its next
    decision. It mints or revokes a link like a reissue, so it spends the same budget. The
    player's seat in a match this one started follows (a season's player handed to a bot
    is a bot in the season's running match too)."""
    owner, body = await _host(request, SeatChange, logs="seat")
    seat = _seat(owner, body.seat)
    bot, level = body.bot, body.level
    token = await change_seat(store_of(request), owner, seat, bot, level)
    await matches_of(request).children.follow_seat(owner, seat, bot=bot, level=level)
    link = None if token is None else _page(request, owner.record.id, token)
    return JSONResponse({"ok": True, "seat": seat, "bot": bot,
                         "level": level if bot else None, "link": link})


@limited(lambda r: api.HOST_LIMIT, link_key)
async def spectators(request: Request) -> JSONResponse:
    """Open or close the match to spectators (closing revokes the spectators' sockets)."""
    owner, body = await _host(request, Spectators, logs="spectators")
    open_ = body.open
    settings = dict(owner.record.settings, spectators=open_)
    store = store_of(request)
    async with owner.lock:
        check_host_entries(count_host_entries(owner.match), "spectators")
        await owner.write(lambda fence: store.set_settings(owner.record.id, settings, fence))
        owner.record = _with_settings(owner.record, settings)
        owner.match.host_note({"what": "spectators", "open": open_, "public": True})
        await owner._commit()
    if not open_:
        tokens = {t.token for t in await store.tokens_for(owner.record.id)
                  if t.role == "spectator"}
        owner.revoke(tokens, "the host closed this match to spectators")
    return JSONResponse({"ok": True, "open": open_})


@limited(lambda r: api.WEBHOOK_LIMIT, link_key)
async def webhook(request: Request) -> JSONResponse:
    """Set (``{"url": "https://discord.com/api/webhooks/..."}``) or clear (``{"url": null}``)
    the webhook that hears the match's public news (G-14). The URL is checked against the
    allowed hosts before it is stored, and never shown back, not even to the host."""
    owner, body = await _host(request, Webhook)
    url = await set_webhook(request, owner, body.url)
    return JSONResponse({"ok": True, "webhook": url is not None})


async def set_webhook(request: Request, owner: MatchOwner, value: object,
                      more: dict[str, Any] | None = None) -> str | None:
    """Check and store a match's (or a season's) webhook, with ``more`` of the record's
    settings (a season's news level); the stored URL, None for none. Shared by both routes."""
    # G-14: the match holds its webhook while it runs (a change lets the old one go), so
    # the server's count follows live matches; a finished one posts nothing more.
    url = announce.webhook_setting(value, None if owner.match.finished
                                   else announce.holder("match", owner.record.id))
    settings = {**owner.record.settings, **(more or {}), "webhook": url}
    store = store_of(request)
    async with owner.lock:
        await owner.write(lambda fence: store.set_settings(owner.record.id, settings, fence))
        owner.record = _with_settings(owner.record, settings)
    return url


def _with_settings(record: MatchRecord, settings: dict[str, Any]) -> MatchRecord:
    return dataclasses.replace(record, settings=settings)


_REMATCH_SETTINGS = ("time_scale", "early_close", "reveal_at_end", "bot_pace", "spectators")


@limited(lambda r: api.REMATCH_LIMIT, link_key)
async def rematch(request: Request) -> JSONResponse:
    """The same seats, settings and options with a new seed; the pages of the old match are
    told, and each asks ``/next`` for its own new link."""
    owner, _ = await _host(request, Empty)
    if not owner.match.finished:
        raise RuleError("host", "a rematch can start once this match is over")
    record = owner.record
    if record.settings.get("rematch"):
        raise RuleError("host", "this match already has a rematch")
    body = {
        "game": record.game,
        "seats": [{"name": n, "bot": b, "level": record.level(i)}
                  for i, (n, b) in enumerate(zip(record.seat_names, record.bots, strict=True))],
        "settings": {k: record.settings[k] for k in _REMATCH_SETTINGS if k in record.settings},
        "config": record.config,
    }
    created = await matches_of(request).create(body)
    new_id = created.owner.record.id
    settings = dict(record.settings, rematch=new_id)
    # A finished match has no lease (nothing runs it any more): a plain write.
    await store_of(request).set_settings(record.id, settings)
    owner.record = _with_settings(record, settings)
    owner.broadcast({"type": "rematch", "match": new_id})
    await store_of(request).notify(record.id, "record")  # other processes' pages follow too
    return JSONResponse({
        "ok": True, "id": new_id,
        "links": links(request, new_id, created.seat_tokens, created.spectator_token,
                       created.host_token),
    })


async def next_match(request: Request) -> JSONResponse:
    """Where this link's holder plays or watches in the rematch (its own new link)."""
    match_id = request.path_params["match_id"]
    store = store_of(request)
    access: Access = await resolve(store, match_id, token_of(request))
    if access.role == "broadcast":
        # G-15: whether a rematch exists is as new as the host's act that made it.
        raise ApiError(404, "host", "a broadcast link follows its own match only")
    record = await store.get_match(match_id)
    new_id = None if record is None else record.settings.get("rematch")
    if not new_id:
        raise ApiError(404, "host", "this match has no rematch yet")
    for t in await store.tokens_for(new_id):
        if t.role == access.role and t.seat == access.seat:
            new = await store.get_match(new_id)
            if access.role == "seat" and new is not None and access.seat is not None \
                    and new.bots[access.seat]:
                break
            return JSONResponse({"id": new_id, "url": _page(request, new_id, t.token)})
    raise ApiError(404, "host", "there is no place for this link in the rematch")


MAX_NOTES = 16_384


@limited(lambda r: api.NOTES_LIMIT, link_key)
async def notes(request: Request) -> JSONResponse:
    """A seat's private notes: read with GET, replaced with POST ``{"notes": ...}``.
    Only the seat's own link reads or writes them; they follow the player to another device.
    A save replaces the seat's one row and is at most ``MAX_NOTES`` long, so only its pace
    needs a limit (a POST spends one; reading is free)."""
    owner, access = await _owner(request)
    if access.role != "seat" or access.seat is None:
        raise ApiError(403, "access", "notes belong to a seat; this link is not a seat's")
    store = store_of(request)
    if request.method == "POST":
        body = await parse(Notes, request)  # JSON has no NaN or Infinity: refused there
        size = len(json.dumps(body.notes))  # stored as given and sent back as JSON
        if size > MAX_NOTES:
            raise ApiError(413, "request", f"notes are at most {MAX_NOTES} characters of JSON")
        await store.save_notes(owner.record.id, access.seat, body.notes, time.time())
    data, updated = await store.notes(owner.record.id, access.seat)
    return JSONResponse({"notes": data, "updated": updated})
