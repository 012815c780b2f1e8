"""The post-match review on the server: judged once per finished match, away from the loop.

Judging replays the whole match and runs each game's searches (an expectimax, a planner, a
lock generator): seconds of work, so it runs in a thread on a frozen copy of the match, once
per match however many readers ask at the same moment, and its judgements are kept beside
the match's owner only while the owner lives (memory follows what is live). What a reader
is shown is cut per reader at every request (G-9, :func:`arena.core.review.report`); every
decision carries the reader's own replay entry to link to, where the phase it was taken in
began (G-10: entries count only what the reader may see).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from arena.core import review
from arena.core.judging import Judgement
from arena.core.match import Match, Viewer
from arena.server.api import _owner
from arena.server.errors import ApiError
from arena.server.owner import MatchOwner

log = logging.getLogger(__name__)

_judged: weakref.WeakKeyDictionary[MatchOwner, asyncio.Future[list[Judgement]]] = \
    weakref.WeakKeyDictionary()


async def judgements(owner: MatchOwner) -> list[Judgement]:
    """The match's judgements, computed by the first reader and shared with the rest."""
    pending = _judged.get(owner)
    if pending is None:
        frozen = await owner.read(lambda m: m._copy(list(m.log)))
        pending = asyncio.ensure_future(asyncio.to_thread(review.judge, frozen))
        _judged[owner] = pending
    try:
        return await asyncio.shield(pending)
    except Exception:
        _judged.pop(owner, None)  # a failed judging is tried again by the next reader
        raise


def _for_reader(m: Match, judged: list[Judgement], viewer: Viewer) -> dict[str, Any]:
    out = review.report(m, judged, viewer)
    started = {e.data["no"]: n for n, e in enumerate(m.log, 1) if e.kind == "phase_started"}
    for seat in out["seats"]:
        for d in seat["decisions"]:
            # The reader's own entry where the decision's phase began: the replay after it
            # shows what the seat decided on (an entry inside the phase may be the very
            # submission that closed it, whose replay already shows the next phase).
            resolved = d.pop("version")
            begun = started.get(m.log[resolved - 1].data.get("no"), resolved)
            d["replay"] = max(1, m.seq_of(viewer, begun))
    out["costliest"] = review.COSTLIEST
    return out


async def get_review(request: Request) -> JSONResponse:
    owner, access = await _owner(request)
    viewer = access.viewer  # a broadcast link is refused here (G-15)
    if not await owner.read(lambda m: m.finished):
        raise ApiError(409, "G-9", "the review opens once the match has ended: during the "
                                   "match it would coach the seats")
    try:
        judged = await judgements(owner)
    except Exception as exc:
        log.exception("judging match %s failed", owner.record.id)
        raise ApiError(503, "review", "the review could not be worked out; try again "
                                      f"later ({type(exc).__name__})") from exc
    return JSONResponse(await owner.read(lambda m: _for_reader(m, judged, viewer)))
