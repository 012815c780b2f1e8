"""What a viewer of a match is sent: its view, its events, and each socket's update.

The owner (:mod:`arena.server.owner`) decides *when* its viewers hear of a change; this module
decides *what* each of them is sent: the match's view for that viewer with the page's own
fields around it, the log entries it may see numbered in its own sequence (G-10), and the
socket message bringing it from what it was last sent to now, encoded once for every viewer
that would be sent the same text.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from arena.core.match import HOST, Match, Viewer
from arena.server import viewdiff
from arena.store import MatchRecord


@dataclass(eq=False)
class Subscriber:
    """A connected viewer: what it may see, and the last version it has been sent."""

    viewer: Viewer
    since: int
    # Messages as dicts, or as JSON text already encoded once for many viewers.
    queue: asyncio.Queue[dict[str, Any] | str] = field(
        default_factory=lambda: asyncio.Queue(maxsize=256))
    overflowed: bool = False
    token: str = ""
    revoked: bool = False
    sent: dict[str, Any] | None = None
    """The view this socket was last sent: the base its next difference applies to."""
    svg: bool = True
    """False for a page that draws its own board: its views leave the picture out."""


def view_for(record: MatchRecord, match: Match, viewer: Viewer, *, svg: bool = True
             ) -> dict[str, Any]:
    """``Match.view(viewer)`` plus what the page needs around it: who is looking (``you``),
    the seat names and bot flags, and the notation reminder of the viewer's seat."""
    view = match.view(viewer, svg=svg)
    seat = viewer if isinstance(viewer, int) else None
    view["you"] = seat
    view["role"] = "seat" if seat is not None else str(viewer)
    view["match"] = {
        "id": record.id,
        "game": record.game,
        "title": match.game.title,
        "names": list(record.seat_names),
        "bots": list(record.bots),
        "levels": [record.level(i) if b else None for i, b in enumerate(record.bots)],
        "status": "finished" if match.finished else "running",
        # A 64-bit seed travels as a string; a JavaScript number would
        # round it, and a host who copied the rounded seed would replay another match.
        "seed": str(record.seed) if seed_visible(match, viewer) else None,
        "time_scale": match.settings.time_scale,
        "early_close": match.settings.early_close,
        "bot_pace": match.settings.bot_pace,
    }
    parent = record.settings.get("parent")
    if isinstance(parent, dict) and isinstance(parent.get("id"), str):
        # A season's match links back to its season (only the id: the key is the season's).
        view["match"]["parent"] = {"id": parent["id"]}
    help_text = ""
    if seat is not None and not match.finished:
        help_text = match.game.notation_help(match.state, seat)
    view["help"] = help_text
    return view


def seed_visible(match: Match, viewer: Viewer) -> bool:
    """The host always; others once the match is over and its secrets are revealed (G-9)."""
    return viewer == HOST or (match.finished and match.settings.reveal_at_end)


def events_json(match: Match, viewer: Viewer, since: int) -> list[dict[str, Any]]:
    """The log entries ``viewer`` may see after its own version ``since``, as JSON, each
    numbered in the viewer's own sequence (G-10: the log's numbers would count the entries it
    may not see). The engine already keeps the seed for the host alone until the end (G-7)."""
    out = []
    for seq, e in match.events_seen(viewer, since):
        entry = e.to_json()
        entry["version"] = seq
        if e.kind == "seed":  # 64 bits as a string, exact in any client (G-7)
            entry["data"] = {**entry["data"], "seed": str(entry["data"]["seed"])}
        out.append(entry)
    return out


def update_for(record: MatchRecord, match: Match, viewer: Viewer, since: int, *,
               svg: bool = True) -> dict[str, Any]:
    """The socket message bringing ``viewer`` from log version ``since`` (the owner's own
    cursor) to now: the events it may see and its current view, numbered in its sequence."""
    seen = match.seq_of(viewer, since)
    return {
        "type": "update",
        "version": match.version_for(viewer),
        "since": seen,
        "events": events_json(match, viewer, seen),
        "view": view_for(record, match, viewer, svg=svg),
    }


def _encode(message: dict[str, Any]) -> str:
    """Compact JSON, as Starlette's ``send_json`` writes it (a tick's update is mostly keys
    and numbers: the spaces alone were a tenth of it)."""
    return json.dumps(message, separators=(",", ":"))


PATCH_WORTH_CHECKING = 2048
"""A difference longer than this is compared with the full view, and the shorter is sent."""


def changed_message(match: Match, viewer: Viewer, since: int, view: dict[str, Any],
                    sent: dict[str, Any] | None) -> str:
    """The update for a socket that was last sent ``sent``: the new events, and the view as
    a difference from ``sent``, or whole when nothing was sent yet or the
    difference would not be shorter."""
    seen = match.seq_of(viewer, since)
    message: dict[str, Any] = {
        "type": "update",
        "version": match.version_for(viewer),
        "since": seen,
        "events": events_json(match, viewer, seen),
    }
    if sent is not None:
        message["patch"] = viewdiff.diff(sent, view)
        text = _encode(message)
        if len(text) <= PATCH_WORTH_CHECKING:
            return text
        del message["patch"]
        message["view"] = view
        whole = _encode(message)
        return text if len(text) < len(whole) else whole
    message["view"] = view
    return _encode(message)


def fan_out(record: MatchRecord, match: Match, subscribers: Iterable[Subscriber]) -> None:
    """Queue for each open socket the update since it was last sent anything. Each distinct
    viewer's view is built once per change, and each distinct update (viewer, version seen,
    view last sent) encoded once: 500 spectators at the same version share one view, one
    difference and one JSON text."""
    built: dict[tuple[Any, bool, int, int], str] = {}
    views: dict[tuple[Viewer, bool], dict[str, Any]] = {}
    bases: list[object] = []  # keeps every base alive, so no two share an id() below
    news: dict[tuple[Any, int], bool] = {}  # (viewer, since): anything new it may see
    for sub in list(subscribers):
        if sub.overflowed or sub.revoked:
            continue
        seen = news.get((sub.viewer, sub.since))
        if seen is None:
            seen = news[sub.viewer, sub.since] = any(
                match.can_see(sub.viewer, e) for e in match.log[sub.since:])
        if not seen:
            # G-10: no message at all, or its timing would tell a seat that another one
            # just submitted in a sealed phase.
            sub.since = match.version
            continue
        view = views.get((sub.viewer, sub.svg))
        if view is None:
            view = views[sub.viewer, sub.svg] = view_for(record, match, sub.viewer, svg=sub.svg)
        bases.append(sub.sent)
        key = (sub.viewer, sub.svg, sub.since, id(sub.sent))
        text = built.get(key)
        if text is None:
            text = built[key] = changed_message(match, sub.viewer, sub.since, view, sub.sent)
        try:
            sub.queue.put_nowait(text)
            sub.since = match.version
            sub.sent = view
        except asyncio.QueueFull:
            # A viewer that stopped reading is dropped; it reconnects with ``since``.
            sub.overflowed = True
