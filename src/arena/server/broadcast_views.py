"""What a broadcast reader is sent (G-15): the host's view and log of the match cut one delay
ago, and never anything newer.

Every read of a broadcast link goes through :func:`cut`: the live match is cut at
``now - delay`` (:meth:`arena.core.replay.Replay.as_of`) and the cut is read as the host reads
it. Nothing else serves a broadcast link: :attr:`arena.server.access.Access.viewer` refuses it,
so an endpoint that does not cut cannot leak. The delay is in match time (scaled with the
match, like every duration)."""

from __future__ import annotations

import bisect
from typing import Any

from arena.core.match import HOST, Match
from arena.server.access import Access
from arena.server.errors import ApiError
from arena.server.owner import MatchOwner
from arena.server.views import events_json, view_for

MIN_DELAY = 60.0
"""G-15: at least one minute behind while the match runs."""


def _scaled(owner: MatchOwner, delay: float) -> float:
    return delay * owner.match.settings.time_scale


def cut(owner: MatchOwner, access: Access) -> tuple[float, Match | None]:
    """The match as a broadcast reader may see it now: its time, and the match as it stood
    then (None before its first entry).

    The cut is rebuilt only when an entry crosses the delay: an audience polling every
    second reads the same cut many times, kept in the match's small replay cache."""
    live = owner.match
    at = live.clock.now() - _scaled(owner, access.delay or 0.0)
    version = bisect.bisect_right(live.log, at, key=lambda e: e.t)
    if version == 0:
        return at, None
    last = live.log[version - 1]
    # The entry itself names the cut: a log rolled back and written again holds new entries.
    key = ("cut", version, id(last), last.t, last.kind)
    kept = owner.replay_cache.get(key)
    if kept is None:
        kept = {"match": live.replay_to(version)}
        owner.replay_cache.put(key, kept)
    match: Match = kept["match"]
    return at, match


def _as_broadcast(owner: MatchOwner, shown: Match, cut_match: Match) -> dict[str, Any]:
    """``shown`` as the host saw it, for a broadcast reader. The seed stays hidden until the
    cut match is over: it would tell the chance still to come, which is newer than any
    delay."""
    view = view_for(owner.record, shown, HOST)
    view["role"] = "broadcast"
    if not cut_match.finished:
        view["match"] = {**view["match"], "seed": None}
    return view


def _at_entry(cut_match: Match, version: int) -> Match:
    """The cut as it stood right after its entry ``version``; nothing past the cut."""
    if not 1 <= version <= cut_match.version:
        raise ApiError(400, "request", "'version' must be an entry of the broadcast so far")
    return cut_match if version == cut_match.version else cut_match.replay_to(version)


def broadcast_view(owner: MatchOwner, access: Access, seat: int | None = None,
                   version: int | None = None) -> dict[str, Any]:
    """The host's view of the cut, told the cut's time as its own (its clocks run one delay
    behind); with ``seat``, that seat's own view of the cut, its private state and its
    drafts as it saw them then (G-15: the audience may follow any seat's board).

    ``version`` (an entry of the cut, as the host numbers it) pins a seat's view to the
    moment the page's host view stands at: the page reads the host's view, then each seat's,
    and the cut may move between the reads, which showed a seat's board a phase ahead of
    the header above it."""
    at, match = cut(owner, access)
    if match is None:
        raise ApiError(425, "access", "the broadcast starts one delay after the match began")
    if seat is not None and not 0 <= seat < match.seats:
        raise ApiError(400, "request", f"'as' must be a seat index between 0 and "
                                       f"{match.seats - 1}")
    if version is not None:
        if seat is None:
            raise ApiError(400, "request", "'version' goes with 'as' (a seat's view)")
        match = _at_entry(match, version)
    if seat is None:
        view = _as_broadcast(owner, match, match)
    else:
        view = view_for(owner.record, match, seat)
        if not match.finished:
            view["match"] = {**view["match"], "seed": None}
    view["now"] = at
    view["broadcast"] = {"delay": access.delay, "as_of": at}
    return view


def broadcast_events(owner: MatchOwner, access: Access, since: int) -> dict[str, Any]:
    _, match = cut(owner, access)
    if match is None:
        return {"version": 0, "events": []}
    events = [e for e in events_json(match, HOST, since) if e["kind"] != "seed" or
              match.finished]
    return {"version": match.version, "events": events}


def broadcast_replay(owner: MatchOwner, access: Access, version: int) -> dict[str, Any]:
    """The replay of the cut: any entry up to the cut, as the host saw it then."""
    _, match = cut(owner, access)
    if match is None:
        raise ApiError(400, "request", "'version' must be an entry of the broadcast so far")
    view = _as_broadcast(owner, _at_entry(match, version), match)
    view["version"] = view["replay_version"] = version
    return view
