"""The JSON API for the page, scripts and outside bots (docs/CONTRACT.md).

Every handler resolves the token first; a seat token acts only for its own seat. Rejected
submissions answer 422 with ``{"ok": false, "error": "<rule id>: <message>"}`` (G-6).
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import JSONResponse

from arena.core import chat as chatmod
from arena.core import settings as schema
from arena.core.errors import RuleError
from arena.core.match import HOST, Match, Viewer
from arena.core.registry import all_games, get_game
from arena.server.access import Access, resolve, token_of
from arena.server.broadcast_views import broadcast_events, broadcast_replay, broadcast_view
from arena.server.errors import ApiError
from arena.server.limits import (
    RateLimit,
    address_key,
    check_host_entries,
    count_host_entries,
    limited,
    read_json,
)
from arena.server.matches import Matches
from arena.server.owner import MatchOwner
from arena.server.refusals import parse, validate
from arena.server.requests import (
    MATCH_HOST_ACTIONS,
    Chat,
    Confirm,
    CreateMatch,
    HostAct,
    HostOption,
    MatchDeadline,
    MatchEnd,
    MatchExtend,
    Mute,
    PrivateChannel,
    SeatPrivate,
    Submit,
)
from arena.server.views import events_json, view_for
from arena.store import MatchRecord, StoreUnavailable
from arena.store.asyncstore import AsyncStore

log = logging.getLogger("arena.server")


def matches_of(request: Request) -> Matches:
    m: Matches = request.app.state.matches
    return m


def store_of(request: Request) -> AsyncStore:
    s: AsyncStore = request.app.state.store
    return s


@functools.cache
def game_info(name: str) -> dict[str, Any]:
    """A game's metadata and its options, from the config's schema: name, type,
    default, bounds (``min``/``max``, ``max_length``, ``max_items``) and help text. Built once
    per game (drawing the schema costs about a millisecond a game, on every lobby load
    otherwise); callers only serialise it."""
    game = get_game(name)
    options = schema.options(game.config_type)
    return {"name": game.name, "title": game.title, "summary": game.summary,
            "seats": game.seats, "chance": game.chance,
            "hidden_information": game.hidden_information, "rules_prefix": game.rules_prefix,
            "options": options,
            # What an unnamed seat is called, for a person and for a bot: the lobby shows the
            # name the match page will show (one name per seat).
            "default_names": [[game.default_seat_name(i, False), game.default_seat_name(i, True)]
                              for i in range(game.seats)]}


def public_record(record: MatchRecord, request: Request) -> dict[str, Any]:
    """What anyone may know of a match (no tokens, no seed while it runs, and then as a
    string: 64 bits do not survive a JavaScript number); a match the
    server could not rebuild also says so (``problem``)."""
    out: dict[str, Any] = {
        "id": record.id, "game": record.game, "names": list(record.seat_names),
        "bots": list(record.bots),
        "levels": [record.level(i) if b else None for i, b in enumerate(record.bots)],
        "status": record.status,
        "result": record.result, "created": record.created,
        "seed": str(record.seed) if record.status == "finished"
        and record.settings.get("reveal_at_end", True) else None}
    problem = matches_of(request).refusal(record.id)
    if problem is not None:
        out["problem"] = problem
    return out


async def list_games(request: Request) -> JSONResponse:
    return JSONResponse([game_info(n) for n, g in all_games(include_extra=True).items()
                         if g.listed])


async def one_game(request: Request) -> JSONResponse:
    return JSONResponse(game_info(request.path_params["name"]))


def links(request: Request, match_id: str, seat_tokens: tuple[str, ...], spectator: str,
          host: str) -> dict[str, Any]:
    base = str(request.base_url).rstrip("/")
    page = f"{base}/m/{match_id}?token="
    return {"seats": [page + t for t in seat_tokens], "spectator": page + spectator,
            "host": page + host}


def _limit(env: str, burst: int, rate: float, what: str) -> RateLimit:
    """A rate limit whose defaults ``env`` (``burst,per_second``) may change: a test suite or
    a busy event desk needs more than a public lobby."""
    return RateLimit.from_env(env, burst, rate, what)


# Every write endpoint spends one of these (``limits.limited``; a test checks every POST
# route). Keyed by address for what anyone may do, else by link: a match's (or season's)
# role and seat, so per link and, with one host link per match, per match.
CREATE_LIMIT = _limit("ARENA_CREATE_LIMIT", 60, 1.0, "matches created from this address")
ACT_LIMIT = _limit("ARENA_ACT_LIMIT", 100, 10.0, "submissions from this link")
# G-13: a few lines in a burst, then about one a second, per link.
CHAT_LIMIT = _limit("ARENA_CHAT_LIMIT", 6, 1.0, "chat messages from this link")
# Replay views cost a rebuild from a checkpoint each: a page stepping
# through a replay asks a few a second; one address shares one budget over every match.
REPLAY_LIMIT = _limit("ARENA_REPLAY_LIMIT", 60, 20.0, "replay requests from this address")
# A host presses a button at a time: pause, resume, extend, end, an option, a mute, a private
# channel, spectators open or closed, a season's clock and steps. Thirty at once covers a
# host setting up a table; past that one a second is still faster than anyone clicks, while a
# script's thousands of pauses a minute (each a log entry stored and sent to every page) stop.
HOST_LIMIT = _limit("ARENA_HOST_LIMIT", 30, 1.0, "host actions from this link")
# A new link (a reissue, a seat handed to a person or a bot) writes the link table, revokes
# the old link's sockets and logs a note: a host needs one per lost link, not hundreds.
LINK_LIMIT = _limit("ARENA_REISSUE_LIMIT", 10, 0.1, "new links and seat changes from this link")
# A webhook change is checked against the allowed hosts and stored; it is set once or twice.
WEBHOOK_LIMIT = _limit("ARENA_WEBHOOK_LIMIT", 10, 0.1, "webhook changes from this link")
# A rematch creates a match (once per match: a refusal after it is cheap, but still bounded).
REMATCH_LIMIT = _limit("ARENA_REMATCH_LIMIT", 5, 0.1, "rematch requests from this link")
# A page saves a seat's notes as the player types (debounced): a few a second at most.
NOTES_LIMIT = _limit("ARENA_NOTES_LIMIT", 20, 2.0, "notes saved from this link")
# A season player's gift or nomination: one per step; retries after a refusal fit easily.
STEP_LIMIT = _limit("ARENA_STEP_LIMIT", 10, 1.0, "season steps from this link")


async def link_key(request: Request) -> str:
    """The bucket of a match link: the match, the role and the seat. The link is resolved
    first, so a bad one is refused (401/403) without spending anything; tokens are cached by
    the store, so the handler's own lookup after this one costs nothing more."""
    match_id = request.path_params["match_id"]
    access = await resolve(store_of(request), match_id, token_of(request))
    return f"{match_id}:{access.role}:{access.seat}"


@limited(lambda r: CREATE_LIMIT, address_key)
async def create_match(request: Request) -> JSONResponse:
    body = await parse(CreateMatch, request)
    if not get_game_listed(body.game):
        # A season is made from a cast (POST /api/seasons), its matches by the season.
        raise RuleError("SE-1", f"a {body.game!r} match is not made here: create a season "
                                "with POST /api/seasons")
    created = await matches_of(request).create(
        body, creator=request.client.host if request.client else "?")
    rid = created.owner.record.id
    return JSONResponse({
        "id": rid,
        "links": links(request, rid, created.seat_tokens, created.spectator_token,
                       created.host_token),
        "tokens": {"seats": list(created.seat_tokens), "spectator": created.spectator_token,
                   "host": created.host_token},
    }, status_code=201)


def get_game_listed(name: str) -> bool:
    """Whether the lobby lists matches of game ``name`` (an unknown game's are listed: the
    lobby shows them as not installed)."""
    try:
        return get_game(name).listed
    except RuleError:
        return True


async def list_matches(request: Request) -> JSONResponse:
    store = store_of(request)
    base = str(request.base_url).rstrip("/")
    out = []
    try:
        records = await store.list_matches()  # the last listing, if the database is down
    except StoreUnavailable:
        records = []
    if store.down:  # what memory knows, no 5xx
        records = matches_of(request).listing(records, 200)
    # One query for every listed match's spectator token, not one per match.
    watch = await store.spectator_tokens([r.id for r in records])
    for record in records:
        if not get_game_listed(record.game):
            continue  # a season is listed with the seasons (GET /api/seasons)
        entry = public_record(record, request)
        token = watch.get(record.id) if record.settings.get("spectators") is not False else None
        # The spectator link shows public state only (G-9), so the lobby may list it.
        entry["watch"] = f"{base}/m/{record.id}?token={token}" if token else None
        out.append(entry)
    return JSONResponse(out)


async def _owner(request: Request) -> tuple[MatchOwner, Access]:
    match_id = request.path_params["match_id"]
    access = await resolve(store_of(request), match_id, token_of(request))
    owner = await matches_of(request).get(match_id)
    if owner is None:
        raise ApiError(404, "access", "no such match")
    check_spectating(owner, access)
    return owner, access


def check_spectating(owner: MatchOwner, access: Access) -> None:
    """A spectator link works only while the host keeps the match open to spectators."""
    if access.role == "spectator" and owner.record.settings.get("spectators") is False:
        raise ApiError(403, "access", "the host has closed this match to spectators")


async def match_info(request: Request) -> JSONResponse:
    record = await matches_of(request).record(request.path_params["match_id"])
    if record is None:
        raise ApiError(404, "access", "no such match")
    return JSONResponse(public_record(record, request))


async def get_view(request: Request) -> JSONResponse:
    owner, access = await _owner(request)
    if access.role == "broadcast":  # G-15: the match cut one delay ago
        seat = _int_param(request, "as", -1)
        version = _int_param(request, "version", -1)
        return JSONResponse(await owner.read(
            lambda m: broadcast_view(owner, access, None if seat == -1 else seat,
                                     None if version == -1 else version)))
    view = await owner.read(lambda m: view_for(owner.record, m, access.viewer))
    return JSONResponse(view)


async def get_events(request: Request) -> JSONResponse:
    owner, access = await _owner(request)
    since = _int_param(request, "since", 0)
    if access.role == "broadcast":  # G-15: the match cut one delay ago
        return JSONResponse(await owner.read(lambda m: broadcast_events(owner, access, since)))
    # G-10: the version and the numbers are the reader's own (see Match.version_for).
    version, events = await owner.read(
        lambda m: (m.version_for(access.viewer), events_json(m, access.viewer, since)))
    return JSONResponse({"version": version, "events": events})


def _int_param(request: Request, name: str, default: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ApiError(400, "request", f"'{name}' must be a whole number") from None


def _replay_view(owner: MatchOwner, viewer: Viewer, version: int) -> dict[str, Any]:
    """The viewer's view as it stood right after its own entry ``version`` (the replay
    viewer). ``version`` counts the entries the viewer may see (G-10), and so does the range
    an error names; the match is rebuilt from its nearest checkpoint."""
    live = owner.match
    last = live.version_for(viewer)
    if not 1 <= version <= last:
        raise ApiError(400, "request", f"'version' must be between 1 and {last}")
    seen_as: Viewer = HOST if (viewer == HOST or (live.finished and live.settings.reveal_at_end)) \
        else viewer
    key = (seen_as, live.finished, owner.record.bots, live.log_version_of(viewer, version))
    cached = owner.replay_cache.get(key)
    if cached is None:
        match = live.replay_to(key[3])
        cached = view_for(owner.record, match, seen_as)
        owner.replay_cache.put(key, cached)
    view = dict(cached)
    # G-13: a view drawn for the host lists the host's private channels; a reader sees only
    # its own (a spectator, none), even in a revealed replay.
    view["chat"] = chatmod.channels_for(view.get("chat") or [], viewer)
    view["you"] = viewer if isinstance(viewer, int) else None
    view["version"] = version
    view["replay_version"] = version
    return view


async def get_replay(request: Request) -> JSONResponse:
    owner, access = await _owner(request)
    REPLAY_LIMIT.take(request.client.host if request.client else "?")
    version = _int_param(request, "version", 1)
    if access.role == "broadcast":  # G-15: the match cut one delay ago
        return JSONResponse(await owner.read(
            lambda m: broadcast_replay(owner, access, version)))
    view = await owner.read(lambda m: _replay_view(owner, access.viewer, version))
    return JSONResponse(view)


def _seat_of(access: Access) -> int:
    if access.seat is None or access.role != "seat":
        raise ApiError(403, "access", f"the {access.role} link cannot act for a seat")
    return access.seat


def _answered(m: Match) -> dict[str, Any]:
    """The phase a submission or confirmation was applied to (G-2): its number and the game's
    own name for it ("round 2"), so a client that sent no phase number knows which took it."""
    no, title = m.answered or (m.phase_no, "")
    return {"phase": no, "phase_title": title}


@limited(lambda r: ACT_LIMIT, link_key)
async def submit(request: Request) -> JSONResponse:
    owner, access = await _owner(request)
    seat = _seat_of(access)
    # G-2: the page, the bots and the bench clients always send the phase they answer, so
    # one made for a phase that has closed meanwhile is refused (409) instead of landing in
    # the next; without it the phase open now takes it, and the answer names that phase.
    body = await parse(Submit, request)

    def act(m: Match) -> dict[str, Any]:
        try:
            sub = m.submit(seat, body.text, final=body.final, phase=body.phase)
        except RuleError:
            raise
        except Exception as exc:  # a game bug on odd input must not become a 500
            log.exception("validate failed in match %s", owner.record.id)
            raise RuleError("G-6", f"the submission could not be read ({type(exc).__name__})"
                            ) from exc
        return {"ok": True, "version": m.version_for(seat), "final": sub.final,
                "value": sub.value.to_json(), "in_reserve": sub.in_reserve, **_answered(m)}

    return JSONResponse(await owner.command(act))


@limited(lambda r: ACT_LIMIT, link_key)
async def confirm(request: Request) -> JSONResponse:
    owner, access = await _owner(request)
    seat = _seat_of(access)
    body = await parse(Confirm, request)

    def act(m: Match) -> dict[str, Any]:
        m.confirm(seat, phase=body.phase)
        return {"ok": True, "version": m.version_for(seat), **_answered(m)}

    return JSONResponse(await owner.command(act))


@limited(lambda r: CHAT_LIMIT, link_key)
async def chat(request: Request) -> JSONResponse:
    """Post a line in a channel (G-13); who may post where is the match's rule."""
    owner, access = await _owner(request)
    body = await parse(Chat, request)
    viewer = access.viewer

    def act(m: Match) -> dict[str, Any]:
        event = m.chat(viewer, body.channel, body.text)
        # G-10: the sender's own number for its line, not the log's.
        return {"ok": True, "version": m.seq_of(viewer, event.version)}

    return JSONResponse(await owner.command(act))


@limited(lambda r: CHAT_LIMIT, link_key)
async def private(request: Request) -> JSONResponse:
    """A seat opens its own private channel with the host (G-13: either of the two may open
    it). Only that seat's link may, so the route never tells another reader that a channel
    exists; the host uses ``host/private``."""
    owner, access = await _owner(request)
    seat = _seat_of(access)
    body = await parse(SeatPrivate, request)

    def act(m: Match) -> dict[str, Any]:
        event = m.set_private(seat, body.open, by=seat)
        return {"ok": True, "version": m.seq_of(seat, event.version),
                "channel": chatmod.private_channel(seat)}

    return JSONResponse(await owner.command(act))


def _act_model(match: Match, raw: object) -> type[BaseModel] | None:
    """The model of the game act a ``host/act`` body names, when it names one with data."""
    if not isinstance(raw, dict) or not isinstance(raw.get("data"), dict):
        return None
    name = raw.get("name")
    spec = match.game.acts.get(name) if isinstance(name, str) else None
    return spec.model if spec is not None else None


@limited(lambda r: HOST_LIMIT, link_key)
async def host_action(request: Request) -> JSONResponse:
    """The host's actions on the match itself, each with its own body
    (``requests.MATCH_HOST_ACTIONS``); each is a log entry, so past the cap on host entries
    (``limits.HOST_ENTRIES_MAX``) only a resume or the end is taken. The cap is checked before
    the body is read, and again under the match's lock, where a request that waited behind
    others would otherwise slip past it."""
    owner, access = await _owner(request)
    if not access.is_host:
        raise ApiError(403, "access", "only the host link may pause, resume, extend, set the "
                                      "deadline, end or open a private channel with a seat")
    action = request.path_params["action"]
    model = MATCH_HOST_ACTIONS.get(action)
    if model is None:
        raise ApiError(404, "host", f"unknown host action {action!r}")
    check_host_entries(count_host_entries(owner.match), action)
    raw = await read_json(request)
    if action == "act":  # the act's own model judges its data, naming the field in it
        act_model = _act_model(owner.match, raw)
        if act_model is not None:
            validate(act_model, raw["data"])
    body = validate(model, raw)

    def act(m: Match) -> dict[str, Any]:
        check_host_entries(count_host_entries(m), action)
        if isinstance(body, MatchExtend):
            m.extend(body.seconds)
        elif isinstance(body, MatchEnd):
            m.end(body.reason or "ended by the host")
        elif isinstance(body, HostOption):
            m.host_option(body.name, body.value)
        elif isinstance(body, Mute):
            m.mute(body.channel, body.muted)
        elif isinstance(body, PrivateChannel):
            m.set_private(body.seat, body.open)
        elif isinstance(body, HostAct):
            m.act(body.name, body.data, "host")
        elif isinstance(body, MatchDeadline):
            m.set_deadline(float(body.at))
        elif action == "pause":
            m.pause()
        else:
            m.resume()
        return {"ok": True, "version": m.version_for(HOST)}

    return JSONResponse(await owner.command(act))
