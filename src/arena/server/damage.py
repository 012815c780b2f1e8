"""A damaged stored row is one match's (or season's) problem, never the server's.

The store reads every row through one place (:mod:`arena.store.rows`) and raises
:class:`~arena.store.DamagedRow` for a row it cannot read, naming the table, the match or
season it belongs to and what is wrong; listings skip such rows and report them. Here that
becomes an answer and, where it helps, a quarantine:

- A row a match or season is rebuilt from (its own row, its log, its stored steps) that
  cannot be read means the match or season cannot be served at all: it is *quarantined*, like
  a match whose replay fails (server/matches.py): one log line, and every request for it is
  answered 503 naming the problem without touching the store again, until a restart tries
  again. The lobby lists every other match; the resume goes on with the others.
- A match or season already live in memory keeps going: its memory is whole, and only the
  request that needed the damaged row is answered 503 naming it.
- A row only one request needs (a link, a seat's notes, a library scenario) fails that
  request alone, 503 naming the problem; the match, season or library goes on.

The log has one line per damaged row and reason, however often it is met.
"""

from __future__ import annotations

import logging
from typing import Any

from arena.server.errors import ApiError
from arena.server.matches import Matches
from arena.server.rebuild import quarantine_error
from arena.store import DamagedRow

log = logging.getLogger("arena.server")

REBUILT_FROM = frozenset({"matches", "events", "seasons", "season_entries"})
"""Tables a match or season is rebuilt from: a damaged row there quarantines it."""

_TOLD_MOST = 10_000
_told: dict[tuple[str, str, str], str] = {}
"""(table, key, what it belongs to) -> the reason already logged."""


def tell_once(damaged: DamagedRow) -> None:
    """One log line per damaged row and reason (a client asking again and again for a
    damaged link must not fill the log)."""
    key = (damaged.table, damaged.key, damaged.of)
    if _told.get(key) == damaged.reason:
        return
    if len(_told) >= _TOLD_MOST:
        _told.clear()
    _told[key] = damaged.reason
    log.error("%s %s: a stored row cannot be read: %s (table %s)", damaged.of, damaged.key,
              damaged.reason, damaged.table)


def partly_damaged(what: str, reason: str) -> ApiError:
    """The answer to a request that needed a damaged row of a match or season that goes on."""
    return ApiError(503, "", f"part of this {what}'s stored record cannot be read: {reason}. "
                             f"The rest of the {what} goes on; the stored row needs repair")


def contain_match(matches: Matches, damaged: DamagedRow) -> ApiError:
    """A damaged row of a match: quarantine the match if it cannot be served without the
    row and is not live in memory; the 503 to answer either way."""
    if damaged.table in REBUILT_FROM and matches.in_memory(damaged.key) is None:
        matches.quarantine(damaged.key, damaged.reason)
        return quarantine_error(damaged.reason)
    tell_once(damaged)
    return partly_damaged("match", damaged.reason)


def contain(state: Any, damaged: DamagedRow) -> ApiError:
    """Whatever ``damaged`` belongs to, contained (see the module's words); ``state`` is the
    app's state, holding its ``matches`` and ``seasons``. The 503 to answer is returned."""
    if damaged.of == "scenario":
        tell_once(damaged)
        return ApiError(503, "LF-12", f"the scenario {damaged.key!r} cannot be read: "
                                      f"{damaged.reason}; the rest of the library is served")
    if damaged.of == "season":  # a season stored before seasons ran as matches
        tell_once(damaged)
        return partly_damaged("season", damaged.reason)
    return contain_match(state.matches, damaged)
