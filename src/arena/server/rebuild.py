"""A match rebuilt from its stored log, and the quarantine of one that cannot be.

A running match is rebuilt with :meth:`Match.replaying` from its stored inputs; a deadline
that passed while the server was down resolves at once, at its own time, so the rebuilt match
is the one that would have run uninterrupted. A match that fails to rebuild, or takes longer
than :data:`RESUME_SECONDS` of work or more than :data:`RESUME_EVENTS` new entries, is
*quarantined* by the registry (:mod:`arena.server.matches`): its page and API say why.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time

from arena.core.clock import SystemClock
from arena.core.errors import RuleError
from arena.core.match import INPUT_KINDS, Match, MatchSettings
from arena.core.registry import get_game
from arena.server.errors import ApiError
from arena.server.owner import MatchOwner
from arena.store import MatchRecord
from arena.store.asyncstore import AsyncStore

log = logging.getLogger("arena.server")

RESUME_SECONDS = float(os.environ.get("ARENA_RESUME_SECONDS", "10"))
"""The most work (seconds of the event loop, the requests served between slices not counted)
that rebuilding one match may take; past it the match is quarantined."""

RESUME_EVENTS = int(os.environ.get("ARENA_RESUME_EVENTS", "100000"))
"""The most entries rebuilding a match may add to its stored log (the deadlines that passed
while the server was down); past it the match is quarantined."""


class ResumeFailed(Exception):
    """A match could not be rebuilt from its stored log; the message says why, plainly."""


def quarantine_text(reason: str) -> str:
    """What a request for a quarantined match answers, and its page shows."""
    return (f"this match could not be resumed: {reason}. The rest of the server goes on; a "
            "restart tries again")


def quarantine_error(reason: str) -> ApiError:
    return ApiError(503, "", quarantine_text(reason))


async def rebuild(store: AsyncStore, record: MatchRecord) -> MatchOwner:
    """A match from its stored inputs, brought to now (passed deadlines resolve at once).

    Rebuilt in slices, yielding to other requests between them; raises
    :class:`ResumeFailed` (naming the reason) when it cannot be rebuilt, or not within
    :data:`RESUME_SECONDS` of work and :data:`RESUME_EVENTS` new entries."""
    try:
        game = get_game(record.game)
        config = game.config_from_record(record.config)
        settings = MatchSettings.from_json(record.settings)
    except (RuleError, TypeError, ValueError, KeyError) as exc:
        raise ResumeFailed(f"its stored settings are not valid ({exc})") from None
    stored = await store.events(record.id)
    inputs = [e for e in stored if e.kind in INPUT_KINDS]
    steps = Match.replaying(game, config, record.seed, settings, record.start, inputs,
                            SystemClock(), names=record.seat_names)
    most = len(stored) + RESUME_EVENTS
    spent = 0.0
    while True:
        began = time.perf_counter()
        try:
            so_far = next(steps)
        except StopIteration as done:
            match: Match = done.value
            break
        except Exception as exc:
            raise ResumeFailed(f"replaying its stored log failed "
                               f"({type(exc).__name__}: {exc})"[:300]) from None
        finally:
            spent += time.perf_counter() - began
        if spent > RESUME_SECONDS:
            raise ResumeFailed(f"rebuilding it took more than {RESUME_SECONDS:g} s of work")
        if len(so_far.log) > most:
            raise ResumeFailed(f"rebuilding it added more than {RESUME_EVENTS} entries "
                               "to its log")
        await asyncio.sleep(0)
    for old, new in zip(stored, match.log, strict=False):
        if (old.version, old.kind, old.t) != (new.version, new.kind, new.t):
            log.warning("match %s: replay differs from the stored log at version %d",
                        record.id, old.version)
            break
    persisted = stored[-1].version if stored else 0
    if persisted > match.version:
        raise ResumeFailed("its replay is shorter than its stored log")
    return MatchOwner(record, match, store, persisted)


async def mirror(store: AsyncStore, record: MatchRecord) -> MatchOwner:
    """A read-only copy of a match another process owns: the stored log exactly."""
    game = get_game(record.game)
    stored = await store.events(record.id)
    inputs = [e for e in stored if e.kind in INPUT_KINDS]
    until = stored[-1].t if stored else record.start
    match = Match.replay(game, game.config_from_record(record.config), record.seed,
                         MatchSettings.from_json(record.settings), record.start, inputs,
                         SystemClock(), until=until, names=record.seat_names)
    persisted = stored[-1].version if stored else 0
    if match.version != persisted:
        log.warning("match %s: the mirror's replay has %d entries, the store %d",
                    record.id, match.version, persisted)
    return MatchOwner(record, match, store, persisted, mirror=True)
