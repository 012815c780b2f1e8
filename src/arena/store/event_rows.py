"""Each match's append-only log: its entries stored in version order, read back, and
announced to the other processes on a shared PostgreSQL database."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, insert, select, text
from sqlalchemy.engine import make_url

from arena.core.match import INPUT_KINDS, Event
from arena.store import rows as col
from arena.store.database import Database
from arena.store.lease_rows import check_fence
from arena.store.models import EventRow
from arena.store.rows import Reading

StoredEvent = Event

CHANNEL = "arena_events"
"""The PostgreSQL NOTIFY channel: ``<match id>:<version>`` after every append, and
``<match id>:record`` after a change of the match's row (bots, settings, a rematch)."""


def _event(row: EventRow) -> Event:
    where = f"its log entry {row.version}'s " if isinstance(row.version, int) \
        else "one of its log entries' "
    r = Reading("events", row.match_id, where)
    version = r(col.VERSION, row.version)
    kind = r(col.KIND, row.kind)
    data = r(col.INPUT_DATA if kind in INPUT_KINDS else col.EVENT_DATA, row.data)
    to = r(col.RECIPIENTS, row.to)
    return Event(version, kind, data, None if to is None else frozenset(to), r(col.TIME, row.t))


class EventRows(Database):
    """The ``events`` table, and the NOTIFY channel that follows it."""

    def append_events(self, match_id: str, events: Sequence[Event],
                      fence: tuple[str, int] | None = None) -> None:
        """Insert new log entries; a version already stored is a bug and fails loudly.

        With ``fence`` = ``(owner, token)`` the lease row is read (and share-locked) in the
        same transaction: if another process took the match over, nothing is written and
        :class:`LeaseLost` is raised. A takeover waits for a running append, and an append
        after a takeover sees the new token, so two processes never both write. On
        PostgreSQL the append is announced on :data:`CHANNEL` when it commits."""
        if not events:
            return
        self.append_many([(match_id, events, fence)])

    def append_many(self, items: Sequence[tuple[str, Sequence[Event],
                                                 tuple[str, int] | None]]) -> None:
        """The appends of several matches in one transaction (a group commit): at
        hundreds of ticks a second the transaction, not the rows, was most of a tick's store
        cost. All or nothing: if one match's fence or version fails, nothing is written and
        the caller (:class:`~arena.store.asyncstore.AsyncStore`) retries each alone, so only
        that match hears of its failure."""
        rows: list[dict[str, Any]] = []
        with self.session() as s, s.begin():
            for match_id, events, fence in items:
                if not events:
                    continue
                check_fence(s, match_id, fence)
                if not self.is_sqlite:
                    s.execute(text("SELECT pg_notify(:c, :p)"),
                              {"c": CHANNEL, "p": f"{match_id}:{events[-1].version}"})
                # One bulk INSERT, not an ORM object per entry: a real-time tick's three
                # entries cost about half as much to store this way (bench/tick_cost.py).
                rows.extend(
                    {"match_id": match_id, "version": e.version, "kind": e.kind,
                     "data": json.dumps(e.data),
                     "to": None if e.to is None else json.dumps(sorted(e.to)), "t": e.t}
                    for e in events)
            if rows:
                s.execute(insert(EventRow), rows)

    def events(self, match_id: str, since: int = 0) -> list[Event]:
        """The match's log after ``since``; one damaged entry raises :class:`DamagedRow` (a
        log with a hole cannot be replayed, so the whole match is the damaged one)."""
        with self.session() as s:
            rows = s.scalars(select(EventRow).where(EventRow.match_id == match_id,
                                                    EventRow.version > since)
                             .order_by(EventRow.version))
            return [_event(r) for r in rows]

    def last_version(self, match_id: str) -> int:
        with self.session() as s:
            value = s.scalar(select(func.max(EventRow.version))
                             .where(EventRow.match_id == match_id))
            if value is None:
                return 0
            return int(Reading("events", match_id, "its last log entry's ")(col.VERSION, value))

    def notify(self, match_id: str, what: str) -> None:
        """Tell every process watching ``match_id`` (PostgreSQL only)."""
        if self.is_sqlite:
            return
        with self.session() as s, s.begin():
            s.execute(text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": f"{match_id}:{what}"})

    def listen_url(self) -> str:
        """The database URL for a plain psycopg connection (LISTEN)."""
        return make_url(self.url).set(drivername="postgresql").render_as_string(
            hide_password=False)
