"""Seasons the old season engine stored (tables ``seasons``, ``season_entries``,
``season_tokens``): what the importer (``server/season_import.py``) reads of them, and the one
transaction that turns one into a season match of the same id.

Temporary, like the tables: a later migration drops both. Every row is read through the
shapes of :mod:`arena.store.rows`, so a damaged one raises :class:`DamagedRow` naming the
season, and the importer leaves that season where it is.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, text, update
from sqlalchemy.exc import IntegrityError

from arena.core.match import Event
from arena.store import rows as col
from arena.store.event_rows import CHANNEL
from arena.store.match_rows import insert_match
from arena.store.models import EventRow, MatchRow, SeasonEntryRow, SeasonRow, SeasonTokenRow
from arena.store.records import MatchRecord, TokenRecord
from arena.store.rows import Reading
from arena.store.season_rows import _season, _season_step, _season_token
from arena.store.store import Store


@dataclass(frozen=True)
class OldSeason:
    """One old season as stored: its head, its latest snapshot (``record``), its inputs in
    order, and its links as ``(token, role, player)``."""

    id: str
    head: dict[str, Any]
    record: dict[str, Any]
    status: str
    created: float
    updated: float
    entries: list[dict[str, Any]]
    tokens: list[tuple[str, str, str | None]]


def unconverted(store: Store) -> list[str]:
    """The old seasons that no match stands for yet (none of the same id), oldest first."""
    with store.session() as s:
        rows = s.execute(select(SeasonRow.id).outerjoin(MatchRow, MatchRow.id == SeasonRow.id)
                         .where(MatchRow.id.is_(None)).order_by(SeasonRow.created))
        return [str(r[0]) for r in rows]


def read(store: Store, season_id: str) -> OldSeason | None:
    """Everything stored of one old season; any damaged row of it raises DamagedRow (a season
    converted without one of its inputs or links would lose it)."""
    with store.session() as s:
        row = s.get(SeasonRow, season_id)
        if row is None:
            return None
        season = _season(row)
        r = Reading("seasons", season_id)
        created = r(col.CREATED, row.created)
        updated = r(col.UPDATED, row.updated)
        entries = s.scalars(select(SeasonEntryRow).where(SeasonEntryRow.season_id == season_id)
                            .order_by(SeasonEntryRow.version))
        steps = [_season_step(e) for e in entries]
        links = s.scalars(select(SeasonTokenRow).where(SeasonTokenRow.season_id == season_id))
        tokens = [_season_token(t) for t in links]
        return OldSeason(season_id, season.head, season.record, season.status, created, updated,
                         steps, tokens)


def convert(store: Store, record: MatchRecord, tokens: Sequence[TokenRecord],
            events: Sequence[Event], lease: tuple[str, str | None, float] | None,
            children: dict[str, dict[str, Any]]) -> tuple[bool, int | None]:
    """In one transaction: the season's match row, links and log, its old row marked
    ``converted``, and the new settings of each match it had started that still runs (they
    name the season as their parent now). Returns (stored, fencing token); not stored means
    a match of that id exists: another process converted it first."""
    try:
        with store.session() as s, s.begin():
            token = insert_match(s, record, tokens, lease)
            if events:
                s.execute(insert(EventRow), [
                    {"match_id": record.id, "version": e.version, "kind": e.kind,
                     "data": json.dumps(e.data),
                     "to": None if e.to is None else json.dumps(sorted(e.to)), "t": e.t}
                    for e in events])
            for child_id, settings in children.items():
                s.execute(update(MatchRow).where(MatchRow.id == child_id)
                          .values(settings=json.dumps(settings)))
                if not store.is_sqlite:  # processes mirroring the child reload its row
                    s.execute(text("SELECT pg_notify(:c, :p)"),
                              {"c": CHANNEL, "p": f"{child_id}:record"})
            s.execute(update(SeasonRow).where(SeasonRow.id == record.id)
                      .values(status="converted"))
            return True, token
    except IntegrityError:
        if store.get_match(record.id) is not None:
            return False, None
        raise
