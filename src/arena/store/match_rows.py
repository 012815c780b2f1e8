"""Matches as stored: their rows, their secret links and each seat's notes.

Every read of a stored row goes through one of the functions below, each column through its
shape in ``rows.py``: damage anywhere in a row raises DamagedRow naming the match or season
it belongs to, and listings set such rows aside (``healthy``) instead of failing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select, text, update
from sqlalchemy.orm import Session

from arena.store import rows as col
from arena.store.database import Database
from arena.store.lease_rows import NOW, check_fence
from arena.store.models import MatchRow, SeatNotesRow, TokenRow
from arena.store.records import MatchRecord, TokenRecord
from arena.store.rows import Reading, Rows, healthy


def bots_to_db(bots: Sequence[bool], levels: Sequence[str] = ()) -> str:
    """The ``bots`` column: per seat ``false`` (a person), ``true`` (a bot at ``hard``, as
    every row before levels) or the level's name (``"easy"``, ``"normal"``). Kept in one
    column so no migration is needed and an older reader still sees a bot as truthy."""
    out: list[bool | str] = []
    for i, bot in enumerate(bots):
        level = levels[i] if i < len(levels) else "hard"
        out.append(bool(bot) and (True if level == "hard" else level))
    return json.dumps(out)


def bots_from_db(text_: object, reading: Reading) -> tuple[tuple[bool, ...], tuple[str, ...]]:
    """The ``bots`` column read back: (bot flags, levels); damage raises
    :class:`~arena.store.rows.DamagedRow` through ``reading`` (the match's row being read)."""
    raw = reading(col.BOTS, text_)
    bots = tuple(bool(b) for b in raw)
    levels = tuple(b if isinstance(b, str) else "hard" for b in raw)
    return bots, levels


def seed_to_db(seed: int) -> int:
    """Seeds are 64-bit unsigned (G-12); the column is a signed 64-bit integer, so the upper
    half is stored as its two's complement. Seeds below 2^63 (every older row) are unchanged."""
    return seed - 2**64 if seed >= 2**63 else seed


def seed_from_db(value: int) -> int:
    return value + 2**64 if value < 0 else value


def _to_record(row: MatchRow) -> MatchRecord:
    r = Reading("matches", row.id)
    seat_names = tuple(r(col.SEAT_NAMES, row.seat_names))
    bots, levels = bots_from_db(row.bots, r)
    if len(bots) != len(seat_names):
        raise r.damaged(f"bot seats ({len(bots)}) do not match its seats ({len(seat_names)})")
    return MatchRecord(
        id=row.id,
        game=r(col.GAME, row.game),
        config=r(col.CONFIG, row.config),
        seed=seed_from_db(r(col.SEED, row.seed)),
        settings=r(col.SETTINGS, row.settings),
        start=r(col.START, row.start),
        seat_names=seat_names,
        bots=bots,
        status=r(col.STATUS, row.status),
        result=r(col.RESULT, row.result),
        created=r(col.CREATED, row.created),
        levels=levels,
    )


def _token(row: TokenRow) -> TokenRecord:
    r = Reading("tokens", row.match_id, "one of its links' ")
    role = r(col.ROLE, row.role)
    seat = r(col.SEAT, row.seat)
    if (role == "seat") != (seat is not None):
        raise r.damaged("seat does not fit its role" if seat is not None
                        else "seat is missing (a seat's link names its seat)")
    delay = r(col.DELAY, row.delay)
    if (role == "broadcast") != (delay is not None):
        raise r.damaged("delay does not fit its role" if delay is not None
                        else "delay is missing (a broadcast link names its delay)")
    return TokenRecord(row.token, row.match_id, role, seat, delay)


def _notes(row: SeatNotesRow) -> tuple[Any, float]:
    r = Reading("seat_notes", row.match_id, f"seat {row.seat + 1}'s "
                if isinstance(row.seat, int) else "a seat's ")
    return r(col.NOTES, row.data), r(col.UPDATED, row.updated)


def insert_match(s: Session, record: MatchRecord, tokens: Sequence[TokenRecord],
                 lease: tuple[str, str | None, float] | None = None) -> int | None:
    """(In the caller's transaction.) A new match's row and links, and its lease when given;
    returns the fencing token (see :meth:`Store.create_match`)."""
    s.add(MatchRow(
        id=record.id, game=record.game, config=json.dumps(record.config),
        seed=seed_to_db(record.seed), settings=json.dumps(record.settings),
        start=record.start,
        seat_names=json.dumps(list(record.seat_names)),
        bots=bots_to_db(record.bots, record.levels), status=record.status,
        result=None if record.result is None else json.dumps(record.result),
        created=record.created,
    ))
    s.flush()
    for tok in tokens:
        s.add(TokenRow(token=tok.token, match_id=tok.match_id, role=tok.role, seat=tok.seat,
                       delay=tok.delay))
    if lease is None:
        return None
    owner, url, ttl = lease
    s.flush()
    s.execute(text(f"INSERT INTO match_leases (match_id, owner, url, token, expires_at) "
                   f"VALUES (:m, :o, :u, 1, {NOW} + :ttl)"),
              {"m": record.id, "o": owner, "u": url, "ttl": ttl})
    return 1


class MatchRows(Database):
    """The ``matches``, ``tokens`` and ``seat_notes`` tables."""

    def create_match(self, record: MatchRecord, tokens: Sequence[TokenRecord],
                     lease: tuple[str, str | None, float] | None = None) -> int | None:
        """Store a new match and its links; with ``lease`` = ``(owner, url, seconds)`` the
        creating process also holds its lease from the same transaction (so no other
        process's scan for lapsed matches sees it unowned). Returns the fencing token."""
        with self.session() as s, s.begin():
            return insert_match(s, record, tokens, lease)

    def get_match(self, match_id: str) -> MatchRecord | None:
        with self.session() as s:
            row = s.get(MatchRow, match_id)
            return None if row is None else _to_record(row)

    def list_matches(self, limit: int = 200) -> Rows[MatchRecord]:
        """The newest matches; a damaged row is left out and named in ``.damaged``."""
        with self.session() as s:
            rows = s.scalars(select(MatchRow).order_by(MatchRow.created.desc()).limit(limit))
            return healthy(rows, _to_record)

    def matches_of(self, game: str, limit: int = 200) -> Rows[MatchRecord]:
        """The newest matches of one game (a season list, which the lobby's newest matches
        would crowd out with the seasons' own Main and Death Matches)."""
        with self.session() as s:
            rows = s.scalars(select(MatchRow).where(MatchRow.game == game)
                             .order_by(MatchRow.created.desc()).limit(limit))
            return healthy(rows, _to_record)

    def running(self) -> Rows[MatchRecord]:
        """The running matches, oldest first; a damaged row is left out and named in
        ``.damaged`` (the resume quarantines it and goes on with the others)."""
        with self.session() as s:
            rows = s.scalars(select(MatchRow).where(MatchRow.status == "running")
                             .order_by(MatchRow.created))
            return healthy(rows, _to_record)

    # The writes below, outside the log, take the same ``fence`` as :meth:`append_events`:
    # a process that lost a match's lease changes nothing of it (LeaseLost).

    def set_status(self, match_id: str, status: str, result: dict[str, Any] | None,
                   fence: tuple[str, int] | None = None) -> None:
        with self.session() as s, s.begin():
            check_fence(s, match_id, fence)
            s.execute(update(MatchRow).where(MatchRow.id == match_id).values(
                status=status, result=None if result is None else json.dumps(result)))

    def set_bots(self, match_id: str, bots: Sequence[bool],
                 fence: tuple[str, int] | None = None, levels: Sequence[str] = ()) -> None:
        with self.session() as s, s.begin():
            check_fence(s, match_id, fence)
            s.execute(update(MatchRow).where(MatchRow.id == match_id).values(
                bots=bots_to_db(bots, levels)))

    def set_settings(self, match_id: str, settings: dict[str, Any],
                     fence: tuple[str, int] | None = None) -> None:
        with self.session() as s, s.begin():
            check_fence(s, match_id, fence)
            s.execute(update(MatchRow).where(MatchRow.id == match_id).values(
                settings=json.dumps(settings)))

    def replace_seat_token(self, match_id: str, seat: int, token: str | None,
                           fence: tuple[str, int] | None = None) -> list[str]:
        """Revoke the seat's link(s) and, unless ``token`` is None, give it a new one, in one
        transaction; returns the revoked tokens (their open pages are told at once)."""
        with self.session() as s, s.begin():
            check_fence(s, match_id, fence)
            rows = list(s.scalars(select(TokenRow).where(
                TokenRow.match_id == match_id, TokenRow.role == "seat", TokenRow.seat == seat)))
            old = [r.token for r in rows]
            for r in rows:
                s.delete(r)
            s.flush()
            if token is not None:
                s.add(TokenRow(token=token, match_id=match_id, role="seat", seat=seat))
            return old

    def replace_broadcast(self, match_id: str, token: str | None, delay: float,
                          fence: tuple[str, int] | None = None) -> list[str]:
        """Close the match's broadcast link and, unless ``token`` is None, open a new one with
        ``delay`` (G-15), in one transaction; returns the closed tokens (their pages are told
        at once, as a replaced seat's are)."""
        with self.session() as s, s.begin():
            check_fence(s, match_id, fence)
            rows = list(s.scalars(select(TokenRow).where(
                TokenRow.match_id == match_id, TokenRow.role == "broadcast")))
            old = [r.token for r in rows]
            for r in rows:
                s.delete(r)
            s.flush()
            if token is not None:
                s.add(TokenRow(token=token, match_id=match_id, role="broadcast", delay=delay))
            return old

    def token(self, token: str) -> TokenRecord | None:
        with self.session() as s:
            row = s.get(TokenRow, token)
            return None if row is None else _token(row)

    def tokens_for(self, match_id: str) -> Rows[TokenRecord]:
        """The match's links; a damaged one is left out (named in ``.damaged``): the others
        still work, and a request with that link is answered 503 naming the damage."""
        with self.session() as s:
            rows = s.scalars(select(TokenRow).where(TokenRow.match_id == match_id))
            return healthy(rows, _token)

    def spectator_tokens(self, match_ids: Sequence[str]) -> dict[str, str]:
        """The spectator token of each of these matches that has one, in one query (the lobby
        lists 200 matches; a query per match held the event loop for each)."""
        if not match_ids:
            return {}
        out: dict[str, str] = {}
        with self.session() as s:
            rows = s.scalars(select(TokenRow).where(
                TokenRow.match_id.in_(list(match_ids)), TokenRow.role == "spectator"))
            for link in healthy(rows, _token):  # a damaged link is not listed
                out.setdefault(link.match_id, link.token)
        return out

    def notes(self, match_id: str, seat: int) -> tuple[Any, float]:
        """A seat's notes and when they were saved (None, 0 if it has none)."""
        with self.session() as s:
            row = s.get(SeatNotesRow, (match_id, seat))
            return (None, 0.0) if row is None else _notes(row)

    def save_notes(self, match_id: str, seat: int, data: Any, when: float) -> None:
        text = json.dumps(data, separators=(",", ":"))
        with self.session() as s, s.begin():
            row = s.get(SeatNotesRow, (match_id, seat))
            if row is None:
                s.add(SeatNotesRow(match_id=match_id, seat=seat, data=text, updated=when))
            else:
                row.data, row.updated = text, when
