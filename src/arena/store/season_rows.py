"""Seasons as the old season engine stored them (tables ``seasons``, ``season_entries``,
``season_tokens``), read and written until every one is converted (:mod:`~arena.store.legacy`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from arena.store import rows as col
from arena.store.database import Database
from arena.store.models import SeasonEntryRow, SeasonRow, SeasonTokenRow
from arena.store.rows import Reading, Rows, healthy


class SeasonConflict(Exception):
    """A season input whose version another process stored first: nothing was written; the
    writer reads the newer inputs and decides again."""


@dataclass(frozen=True)
class _Season:
    head: dict[str, Any]
    record: dict[str, Any]
    status: str


def _season(row: SeasonRow) -> _Season:
    r = Reading("seasons", row.id)
    head = r(col.HEAD, row.head)
    if len(head["bots"]) != len(head["cast"]):
        raise r.damaged("head's bot flags do not match its cast")
    return _Season(head, r(col.RECORD, row.record), r(col.SEASON_STATUS, row.status))


def _season_step(row: SeasonEntryRow) -> dict[str, Any]:
    where = f"its stored step {row.version}'s " if isinstance(row.version, int) \
        else "one of its stored steps' "
    r = Reading("season_entries", row.season_id, where)
    r(col.VERSION, row.version)
    step: dict[str, Any] = r(col.STEP, row.data)
    return step


def _season_token(row: SeasonTokenRow) -> tuple[str, str, str | None]:
    r = Reading("season_tokens", row.season_id, "one of its links' ")
    role = r(col.SEASON_ROLE, row.role)
    player = r(col.PLAYER, row.player)
    if (role == "player") != (player is not None):
        raise r.damaged("player does not fit its role" if player is not None
                        else "player is missing (a player's link names the player)")
    return row.token, role, player


class SeasonRows(Database):
    """The old season engine's tables."""

    def create_season(self, season_id: str, head: dict[str, Any], record: dict[str, Any],
                      created: float, tokens: Sequence[tuple[str, str, str | None]]) -> None:
        """A new season with its links, ``(token, role, player)`` each, in one transaction."""
        with self.session() as s, s.begin():
            s.add(SeasonRow(id=season_id, head=json.dumps(head), record=json.dumps(record),
                            status="running", created=created, updated=created))
            s.flush()
            for token, role, player in tokens:
                s.add(SeasonTokenRow(token=token, season_id=season_id, role=role,
                                     player=player))

    def get_season(self, season_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """A season's head and its inputs in version order (None if there is no such season)."""
        with self.session() as s:
            row = s.get(SeasonRow, season_id)
            if row is None:
                return None
            season = _season(row)
            rows = s.scalars(select(SeasonEntryRow).where(SeasonEntryRow.season_id == season_id)
                             .order_by(SeasonEntryRow.version))
            return season.head, [_season_step(r) for r in rows]

    def append_season_entry(self, season_id: str, version: int, data: dict[str, Any],
                            record: dict[str, Any], status: str) -> None:
        """One more input and the new snapshot, together. The unique version makes this an
        optimistic write: when another process (on a shared PostgreSQL) stored that version
        first, nothing is written and :class:`SeasonConflict` says so."""
        try:
            with self.session() as s, s.begin():
                t = float(data.get("t", 0.0))
                s.add(SeasonEntryRow(season_id=season_id, version=version,
                                     data=json.dumps(data), t=t))
                s.execute(update(SeasonRow).where(SeasonRow.id == season_id).values(
                    record=json.dumps(record), status=status, updated=t))
        except IntegrityError as exc:
            if self.season_entries_after(season_id, version - 1):
                raise SeasonConflict(f"season {season_id} version {version}") from exc
            raise

    def season_entries_after(self, season_id: str, version: int) -> list[dict[str, Any]]:
        """The season's inputs stored after ``version``, in order (what another process
        added since this one last read)."""
        with self.session() as s:
            rows = s.scalars(select(SeasonEntryRow)
                             .where(SeasonEntryRow.season_id == season_id,
                                    SeasonEntryRow.version > version)
                             .order_by(SeasonEntryRow.version))
            return [_season_step(r) for r in rows]

    def list_seasons(self, limit: int = 100) -> Rows[tuple[str, str, dict[str, Any]]]:
        """``(id, status, record)`` of the newest seasons; a damaged season is left out and
        named in ``.damaged``."""
        def read(row: SeasonRow) -> tuple[str, str, dict[str, Any]]:
            season = _season(row)
            return row.id, season.status, season.record

        with self.session() as s:
            rows = s.scalars(select(SeasonRow).order_by(SeasonRow.created.desc()).limit(limit))
            return healthy(rows, read)

    def running_seasons(self) -> list[str]:
        with self.session() as s:
            return list(s.scalars(select(SeasonRow.id).where(SeasonRow.status == "running")
                                  .order_by(SeasonRow.created)))

    def season_token(self, token: str) -> tuple[str, str, str | None] | None:
        """``(season_id, role, player)`` of a season link."""
        with self.session() as s:
            row = s.get(SeasonTokenRow, token)
            if row is None:
                return None
            _, role, player = _season_token(row)
            return row.season_id, role, player

    def season_tokens(self, season_id: str) -> Rows[tuple[str, str, str | None]]:
        """The season's links; a damaged one is left out (named in ``.damaged``)."""
        with self.session() as s:
            rows = s.scalars(select(SeasonTokenRow).where(SeasonTokenRow.season_id == season_id))
            return healthy(rows, _season_token)

    def replace_season_token(self, season_id: str, player: str, token: str) -> list[str]:
        """A cast member's new season link, the old one(s) revoked in the same transaction
        (a player who lost a link, or whose link leaked); returns the revoked ones."""
        with self.session() as s, s.begin():
            rows = list(s.scalars(select(SeasonTokenRow).where(
                SeasonTokenRow.season_id == season_id, SeasonTokenRow.role == "player",
                SeasonTokenRow.player == player)))
            old = [r.token for r in rows]
            for r in rows:
                s.delete(r)
            s.flush()
            s.add(SeasonTokenRow(token=token, season_id=season_id, role="player", player=player))
            return old
