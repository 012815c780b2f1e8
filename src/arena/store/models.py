"""The tables. JSON payloads are kept as text so they round-trip byte for byte on every
backend (a replay must see exactly what was stored, G-7)."""

from __future__ import annotations

from sqlalchemy import BigInteger, Double, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class MatchRow(Base):
    """One match: everything needed to rebuild it from its input events."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), index=True)
    config: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigInteger)
    settings: Mapped[str] = mapped_column(Text)
    start: Mapped[float] = mapped_column(Double)
    seat_names: Mapped[str] = mapped_column(Text)
    bots: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), index=True)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)
    created: Mapped[float] = mapped_column(Double)


class TokenRow(Base):
    """A secret link: one per seat, one spectator, one host."""

    __tablename__ = "tokens"

    token: Mapped[str] = mapped_column(String(64), primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), index=True)
    role: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    delay: Mapped[float | None] = mapped_column(Double, nullable=True)
    """A broadcast link's delay in seconds of match time (G-15); None for every other link."""


class EventRow(Base):
    """An entry of a match's log; rows are only ever inserted (append-only)."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("match_id", "version", name="uq_events_match_version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), index=True)
    version: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(40))
    data: Mapped[str] = mapped_column(Text)
    to: Mapped[str | None] = mapped_column(Text, nullable=True)
    t: Mapped[float] = mapped_column(Double)


class SeatNotesRow(Base):
    """A seat's private notes, as the page sent them (JSON text); not part of the match."""

    __tablename__ = "seat_notes"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[str] = mapped_column(Text)
    updated: Mapped[float] = mapped_column(Double)


class SeasonRow(Base):
    """A season (SE-1): its head (cast, seed, settings, JSON text), a snapshot of its record
    for lists (rebuilt from the entries on load), and whether it is still running."""

    __tablename__ = "seasons"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    head: Mapped[str] = mapped_column(Text)
    record: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), index=True)
    created: Mapped[float] = mapped_column(Double)
    updated: Mapped[float] = mapped_column(Double)


class SeasonEntryRow(Base):
    """One input of a season (a result, a gift, a nomination, an adjustment); only ever
    inserted, in version order (SE-5)."""

    __tablename__ = "season_entries"
    __table_args__ = (UniqueConstraint("season_id", "version",
                                       name="uq_season_entries_version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    season_id: Mapped[str] = mapped_column(ForeignKey("seasons.id"), index=True)
    version: Mapped[int] = mapped_column(Integer)
    data: Mapped[str] = mapped_column(Text)
    t: Mapped[float] = mapped_column(Double)


class SeasonTokenRow(Base):
    """A season's secret link: the host's, or one cast member's (``player`` set)."""

    __tablename__ = "season_tokens"

    token: Mapped[str] = mapped_column(String(64), primary_key=True)
    season_id: Mapped[str] = mapped_column(ForeignKey("seasons.id"), index=True)
    role: Mapped[str] = mapped_column(String(16))
    player: Mapped[str | None] = mapped_column(String(64), nullable=True)


class MatchLeaseRow(Base):
    """Which server process owns a live match on a shared PostgreSQL database: the
    process id, the address other processes forward its commands to, the fencing token every
    append checks, and when the lease lapses unless renewed (database time, epoch seconds)."""

    __tablename__ = "match_leases"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))
    url: Mapped[str | None] = mapped_column(Text, nullable=True)
    token: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[float] = mapped_column(Double, index=True)


class ScenarioRow(Base):
    """A scenario of the library (LF-12): its unique name, the game it is for, its text as the
    host saved it, the author's note, and when it was saved. Matches copy the text."""

    __tablename__ = "scenarios"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(Text)
    note: Mapped[str] = mapped_column(Text)
    created: Mapped[float] = mapped_column(Double)
