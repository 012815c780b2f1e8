"""The store: a thin, synchronous layer over SQLAlchemy.

Writes are small and few (one transaction per accepted command). The server never calls
these methods on its event loop: it goes through :class:`arena.store.asyncstore.AsyncStore`,
which runs them on its own threads. The schema is brought up to date by Alembic every time a
store opens.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs
from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, func, insert, select, text, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    DisconnectionError,
    IntegrityError,
    InterfaceError,
    NoSuchModuleError,
    OperationalError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from arena.core.match import INPUT_KINDS, Event
from arena.store import rows as col
from arena.store.models import (
    EventRow,
    MatchRow,
    ScenarioRow,
    SeasonEntryRow,
    SeasonRow,
    SeasonTokenRow,
    SeatNotesRow,
    TokenRow,
)
from arena.store.rows import Reading, Rows, healthy

StoredEvent = Event

CHANNEL = "arena_events"
"""The PostgreSQL NOTIFY channel: ``<match id>:<version>`` after every append, and
``<match id>:record`` after a change of the match's row (bots, settings, a rematch)."""

_NOW = "extract(epoch from clock_timestamp())::float8"
"""Leases are timed by the database's clock, so processes on machines whose clocks differ
agree on when a lease lapsed."""


SQLITE_BUSY_SECONDS = 0.05
"""How long an SQLite statement waits for a lock another connection holds (issue 25 point
4). One server process writes its file (see :mod:`arena.store.lock`), from one thread, and
WAL readers never wait for a writer, so in normal running nothing waits at all: only an
outside connection (a backup script, the ``sqlite3`` shell) holding a write lock does. Then
the write gives up quickly and the command is refused (503), instead of holding its match's
lock, and every read of the match behind it, for seconds."""

CONNECT_SECONDS = 5
"""How long a PostgreSQL connection attempt may take (a host that does not answer): the
command line says so within 10 s, and during an outage a request is refused in time."""


class StoreUnavailable(Exception):
    """The database cannot be used right now (unreachable, shut down, or locked by another
    connection): nothing was written. The message is one line naming the problem."""


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot be reached or used for now (as opposed to a
    bug, such as a constraint violated): an outage is answered 503 and logged once."""
    if isinstance(exc, StoreUnavailable | OperationalError | InterfaceError | DisconnectionError
                  | PoolTimeout):
        return True
    if isinstance(exc, DBAPIError):
        return bool(exc.connection_invalidated)
    # The driver's own, unwrapped (the LISTEN thread uses psycopg directly).
    kind = type(exc)
    return kind.__module__.split(".")[0] in ("psycopg", "sqlite3") and any(
        base.__name__ in ("OperationalError", "InterfaceError") for base in kind.__mro__)


def describe_failure(exc: BaseException, url: str | None = None) -> str:
    """One line naming why the database at ``url`` cannot be used (never a password, never a
    traceback): for the command line and for the log line of an outage."""
    where = ""
    parsed = None
    if url is not None:
        try:
            parsed = make_url(_normalise_url(url))
        except ArgumentError:
            parsed = None
    if parsed is not None and parsed.get_backend_name() != "sqlite":
        where = f"{parsed.host or 'localhost'}:{parsed.port or 5432}"
    if isinstance(exc, NoSuchModuleError | ModuleNotFoundError):
        return "this kind of database is not supported; use sqlite:///path.db or postgresql://"
    if isinstance(exc, ArgumentError):
        return "the database URL cannot be read"
    raw = str(getattr(exc, "orig", None) or exc)
    text = " ".join(raw.split())
    low = text.lower()
    user = parsed.username if parsed is not None else None
    name = parsed.database if parsed is not None else None
    if ("role" in low and "does not exist" in low) or "authentication failed" in low \
            or "no password supplied" in low or "no pg_hba.conf entry" in low:
        return f"the server at {where} refused the user {user!r} (authentication failed)"
    if "does not exist" in low and "database" in low:
        return f"the database {name!r} does not exist on the server at {where}"
    if "connection refused" in low:
        return f"nothing is listening at {where} (connection refused)"
    if "timeout expired" in low or "timed out" in low:
        return f"the server at {where} did not answer within {CONNECT_SECONDS} s"
    if "name or service not known" in low or "could not translate host name" in low \
            or "nodename nor servname" in low or "temporary failure in name resolution" in low:
        return f"the host {parsed.host if parsed else '?'!r} cannot be found"
    if "database is locked" in low:
        return "the SQLite file is locked by another connection"
    if "shutting down" in low or "terminating connection" in low or "server closed" in low \
            or "connection is closed" in low or "consuming input failed" in low:
        return f"the server at {where} closed the connection (it shut down or is restarting)"
    if "unable to open database file" in low:
        return "the SQLite file cannot be opened"
    first = raw.strip().splitlines()[0] if raw.strip() else type(exc).__name__
    # psycopg prefixes "connection failed: connection to server at ... failed: "
    return first.rsplit("failed: ", 1)[-1][:200]


class LeaseLost(Exception):
    """An append fenced by a lease that another process has taken over since: nothing was
    written, and the process no longer owns the match."""


class SeasonConflict(Exception):
    """A season input whose version another process stored first: nothing was written; the
    writer reads the newer inputs and decides again."""


@dataclass(frozen=True)
class Lease:
    """Who owns a live match (issue 20): a process id, its address, the fencing token, and
    whether the lease has lapsed (then any process may take the match over)."""

    match_id: str
    owner: str
    url: str | None
    token: int
    lapsed: bool


@dataclass(frozen=True)
class MatchRecord:
    """A match as stored: enough to rebuild it with ``Match.replay`` from its inputs."""

    id: str
    game: str
    config: dict[str, Any]
    seed: int
    settings: dict[str, Any]
    start: float
    seat_names: tuple[str, ...]
    bots: tuple[bool, ...]
    status: str = "running"
    result: dict[str, Any] | None = None
    created: float = 0.0
    levels: tuple[str, ...] = ()
    """Each seat's bot level (G-8, issue 30): ``easy``, ``normal`` or ``hard``; a seat past
    the end (every record from before levels) plays ``hard``. Only a bot seat's level is
    kept; a person's seat reads ``hard``."""

    def __post_init__(self) -> None:
        # One seat, one level: a record made without levels equals the same record read back
        # (the store writes every seat's level, ``hard`` where none was named).
        if len(self.levels) < len(self.bots):
            padded = (*self.levels, *("hard",) * (len(self.bots) - len(self.levels)))
            object.__setattr__(self, "levels", padded)

    def level(self, seat: int) -> str:
        """The level a bot in ``seat`` plays at (``hard`` unless the record names another)."""
        return self.levels[seat] if seat < len(self.levels) else "hard"


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


@dataclass(frozen=True)
class ScenarioRecord:
    """A scenario of the library (LF-12): a host's own, saved under a unique name."""

    name: str
    game: str
    text: str
    note: str
    created: float


class ScenarioExists(Exception):
    """A scenario of that name is already in the library: nothing was written."""


@dataclass(frozen=True)
class TokenRecord:
    """A secret link. ``role`` is ``seat`` (with ``seat`` set), ``spectator`` or ``host``."""

    token: str
    match_id: str
    role: str
    seat: int | None = None


def default_database_url() -> str:
    """An SQLite file in the user's data directory (created on first use)."""
    folder = Path(platformdirs.user_data_dir("arena", appauthor=False))
    return f"sqlite:///{folder / 'arena.db'}"


def _normalise_url(url: str) -> str:
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def seed_to_db(seed: int) -> int:
    """Seeds are 64-bit unsigned (G-12); the column is a signed 64-bit integer, so the upper
    half is stored as its two's complement. Seeds below 2^63 (every older row) are unchanged."""
    return seed - 2**64 if seed >= 2**63 else seed


def seed_from_db(value: int) -> int:
    return value + 2**64 if value < 0 else value


# ---------------------------------------------------------------------- reading rows
# Every read of a stored row goes through one of the functions below, each column through its
# shape in ``rows.py``: damage anywhere in a row raises DamagedRow naming the match or season
# it belongs to, and listings set such rows aside (``healthy``) instead of failing.

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


def _event(row: EventRow) -> Event:
    where = f"its log entry {row.version}'s " if isinstance(row.version, int) \
        else "one of its log entries' "
    r = Reading("events", row.match_id, where)
    version = r(col.VERSION, row.version)
    kind = r(col.KIND, row.kind)
    data = r(col.INPUT_DATA if kind in INPUT_KINDS else col.EVENT_DATA, row.data)
    to = r(col.RECIPIENTS, row.to)
    return Event(version, kind, data, None if to is None else frozenset(to), r(col.TIME, row.t))


def _token(row: TokenRow) -> TokenRecord:
    r = Reading("tokens", row.match_id, "one of its links' ")
    role = r(col.ROLE, row.role)
    seat = r(col.SEAT, row.seat)
    if (role == "seat") != (seat is not None):
        raise r.damaged("seat does not fit its role" if seat is not None
                        else "seat is missing (a seat's link names its seat)")
    return TokenRecord(row.token, row.match_id, role, seat)


def _notes(row: SeatNotesRow) -> tuple[Any, float]:
    r = Reading("seat_notes", row.match_id, f"seat {row.seat + 1}'s "
                if isinstance(row.seat, int) else "a seat's ")
    return r(col.NOTES, row.data), r(col.UPDATED, row.updated)


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


def _scenario(row: ScenarioRow) -> ScenarioRecord:
    r = Reading("scenarios", row.name)
    return ScenarioRecord(row.name, r(col.GAME, row.game), r(col.SCENARIO_TEXT, row.text),
                          r(col.NOTE, row.note), r(col.CREATED, row.created))


class Store:
    """Matches, tokens and events in one database."""

    def __init__(self, url: str | None = None) -> None:
        self.url = _normalise_url(url or default_database_url())
        parsed = make_url(self.url)
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        if self.is_sqlite and parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        if self.is_sqlite and (parsed.database or ":memory:") == ":memory:":
            # One connection shared by every thread: the server calls the store from its
            # store thread (``AsyncStore``), and each thread would otherwise get a memory
            # database of its own, empty and without the schema.
            self.engine: Engine = create_engine(
                self.url, poolclass=StaticPool, connect_args={"check_same_thread": False})
        elif self.is_sqlite:
            # A file SQLite gets a QueuePool with ``check_same_thread=False`` from SQLAlchemy
            # itself: the connections move between the store's threads.
            self.engine = create_engine(self.url, future=True,
                                        connect_args={"timeout": SQLITE_BUSY_SECONDS})
        else:
            # After the server restarts, pooled connections are dead: each is checked as it
            # is taken, so the first command after an outage does not fail on one.
            self.engine = create_engine(self.url, future=True, pool_pre_ping=True,
                                        connect_args={"connect_timeout": CONNECT_SECONDS})
        self.is_memory = self.is_sqlite and (parsed.database or ":memory:") == ":memory:"
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        self.migrate()

    # ------------------------------------------------------------------ schema
    def migrate(self) -> None:
        """Apply every migration shipped in ``arena.store.migrations`` (idempotent)."""
        cfg = Config()
        cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def probe(self) -> None:
        """Raise unless a write could go through now: on SQLite, take the write lock and let
        it go (another connection may hold it); on PostgreSQL, ask the server anything."""
        with self.engine.connect() as conn:
            if self.is_sqlite:
                conn.exec_driver_sql("BEGIN IMMEDIATE")
                conn.exec_driver_sql("ROLLBACK")
            else:
                conn.execute(text("SELECT 1"))

    def describe(self) -> str:
        """Where the data lives, for the start-up banner (never prints a password)."""
        parsed = make_url(self.url)
        if self.is_sqlite:
            return str(Path(parsed.database or ":memory:").resolve()) if parsed.database else ":memory:"
        return parsed.render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    def session(self) -> Session:
        return self._session()

    # ------------------------------------------------------------------ matches
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
            _check_fence(s, match_id, fence)
            s.execute(update(MatchRow).where(MatchRow.id == match_id).values(
                status=status, result=None if result is None else json.dumps(result)))

    def set_bots(self, match_id: str, bots: Sequence[bool],
                 fence: tuple[str, int] | None = None, levels: Sequence[str] = ()) -> None:
        with self.session() as s, s.begin():
            _check_fence(s, match_id, fence)
            s.execute(update(MatchRow).where(MatchRow.id == match_id).values(
                bots=bots_to_db(bots, levels)))

    def set_settings(self, match_id: str, settings: dict[str, Any],
                     fence: tuple[str, int] | None = None) -> None:
        with self.session() as s, s.begin():
            _check_fence(s, match_id, fence)
            s.execute(update(MatchRow).where(MatchRow.id == match_id).values(
                settings=json.dumps(settings)))

    # ------------------------------------------------------------------ tokens
    def replace_seat_token(self, match_id: str, seat: int, token: str | None,
                           fence: tuple[str, int] | None = None) -> list[str]:
        """Revoke the seat's link(s) and, unless ``token`` is None, give it a new one, in one
        transaction; returns the revoked tokens (their open pages are told at once)."""
        with self.session() as s, s.begin():
            _check_fence(s, match_id, fence)
            rows = list(s.scalars(select(TokenRow).where(
                TokenRow.match_id == match_id, TokenRow.role == "seat", TokenRow.seat == seat)))
            old = [r.token for r in rows]
            for r in rows:
                s.delete(r)
            s.flush()
            if token is not None:
                s.add(TokenRow(token=token, match_id=match_id, role="seat", seat=seat))
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

    # ------------------------------------------------------------------ notes
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

    # ------------------------------------------------------------------ scenario library
    def save_scenario(self, record: ScenarioRecord) -> None:
        """Add a scenario; raises :class:`ScenarioExists` if the name is taken (names are
        unique, and a saved scenario is never changed under a name others chose it by)."""
        try:
            with self.session() as s, s.begin():
                if s.get(ScenarioRow, record.name) is not None:
                    raise ScenarioExists(record.name)
                s.add(ScenarioRow(name=record.name, game=record.game, text=record.text,
                                  note=record.note, created=record.created))
        except IntegrityError:  # another process saved the same name at the same moment
            raise ScenarioExists(record.name) from None

    def get_scenario(self, name: str) -> ScenarioRecord | None:
        with self.session() as s:
            row = s.get(ScenarioRow, name)
            return None if row is None else _scenario(row)

    def list_scenarios(self, limit: int = 500) -> Rows[ScenarioRecord]:
        """The library, by name (the texts included: a listing shows each one's title); a
        damaged scenario is left out and named in ``.damaged``."""
        with self.session() as s:
            rows = s.scalars(select(ScenarioRow).order_by(ScenarioRow.name).limit(limit))
            return healthy(rows, _scenario)

    def count_scenarios(self) -> int:
        with self.session() as s:
            return int(s.scalar(select(func.count()).select_from(ScenarioRow)) or 0)

    # ------------------------------------------------------------------ events
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
        """The appends of several matches in one transaction (a group commit, issue 29): at
        hundreds of ticks a second the transaction, not the rows, was most of a tick's store
        cost. All or nothing: if one match's fence or version fails, nothing is written and
        the caller (:class:`~arena.store.asyncstore.AsyncStore`) retries each alone, so only
        that match hears of its failure."""
        rows: list[dict[str, Any]] = []
        with self.session() as s, s.begin():
            for match_id, events, fence in items:
                if not events:
                    continue
                _check_fence(s, match_id, fence)
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


    # ------------------------------------------------------------------ leases (PostgreSQL)
    def lease_acquire(self, match_id: str, owner: str, url: str | None, ttl: float,
                      *, steal_from_url: bool = False) -> int | None:
        """Take a match's lease if it is free, lapsed, already ours, or (``steal_from_url``)
        held under our own address by an earlier process that has died (we listen on its
        address now). Returns the new fencing token, or None if another live process holds
        it. Taking a lease from another process raises the token, which fences the old
        holder; taking back our own keeps it (nobody wrote in between, or the token moved)."""
        steal = " OR match_leases.url = EXCLUDED.url" if steal_from_url and url else ""
        with self.session() as s, s.begin():
            row = s.execute(text(
                f"INSERT INTO match_leases (match_id, owner, url, token, expires_at) "
                f"VALUES (:m, :o, :u, 1, {_NOW} + :ttl) "
                f"ON CONFLICT (match_id) DO UPDATE SET owner = EXCLUDED.owner, "
                f"url = EXCLUDED.url, expires_at = EXCLUDED.expires_at, "
                f"token = CASE WHEN match_leases.owner = EXCLUDED.owner "
                f"THEN match_leases.token ELSE match_leases.token + 1 END "
                f"WHERE match_leases.expires_at < {_NOW} OR match_leases.owner = EXCLUDED.owner"
                f"{steal} RETURNING token"),
                {"m": match_id, "o": owner, "u": url, "ttl": ttl}).first()
            return None if row is None else int(row[0])

    def lease_renew(self, owner: str, ttl: float) -> dict[str, int]:
        """Extend every lease ``owner`` still holds; returns them with their tokens (a match
        missing here was taken over, its owner must stop)."""
        with self.session() as s, s.begin():
            rows = s.execute(text(f"UPDATE match_leases SET expires_at = {_NOW} + :ttl "
                                  f"WHERE owner = :o RETURNING match_id, token"),
                             {"o": owner, "ttl": ttl})
            return {r[0]: int(r[1]) for r in rows}

    def lease_release(self, owner: str, match_ids: Sequence[str] | None = None) -> None:
        """Let leases lapse at once (a clean shutdown, or a finished match), so another
        process may take them without waiting."""
        with self.session() as s, s.begin():
            if match_ids is None:
                s.execute(text("UPDATE match_leases SET expires_at = 0 WHERE owner = :o"),
                          {"o": owner})
            else:
                for m in match_ids:
                    s.execute(text("UPDATE match_leases SET expires_at = 0 "
                                   "WHERE owner = :o AND match_id = :m"), {"o": owner, "m": m})

    def lease(self, match_id: str) -> Lease | None:
        with self.session() as s:
            row = s.execute(text(f"SELECT owner, url, token, expires_at < {_NOW} "
                                 f"FROM match_leases WHERE match_id = :m"),
                            {"m": match_id}).first()
            if row is None:
                return None
            r = Reading("match_leases", match_id)
            return Lease(match_id, r(col.LEASE_OWNER, row[0]), r(col.LEASE_URL, row[1]),
                         r(col.LEASE_TOKEN, row[2]), bool(row[3]))

    def lapsed_running(self, limit: int = 100) -> list[str]:
        """Running matches nobody holds: no lease, or a lapsed one (their owner died)."""
        with self.session() as s:
            rows = s.execute(text(
                f"SELECT m.id FROM matches m LEFT JOIN match_leases l ON l.match_id = m.id "
                f"WHERE m.status = 'running' AND (l.match_id IS NULL OR l.expires_at < {_NOW}) "
                f"ORDER BY m.created LIMIT :n"), {"n": limit})
            return [r[0] for r in rows]

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

    # ------------------------------------------------------------------ seasons
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
        (a player who lost a link, or whose link leaked, issue 26); returns the revoked ones."""
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
        s.add(TokenRow(token=tok.token, match_id=tok.match_id, role=tok.role, seat=tok.seat))
    if lease is None:
        return None
    owner, url, ttl = lease
    s.flush()
    s.execute(text(f"INSERT INTO match_leases (match_id, owner, url, token, expires_at) "
                   f"VALUES (:m, :o, :u, 1, {_NOW} + :ttl)"),
              {"m": record.id, "o": owner, "u": url, "ttl": ttl})
    return 1


def _check_fence(s: Session, match_id: str, fence: tuple[str, int] | None) -> None:
    """With a fence ``(owner, token)``, read (and share-lock) the match's lease row in the
    write's own transaction: if another process took the match over, nothing is written. A
    takeover waits for a running write, and a write after a takeover sees the new token."""
    if fence is None:
        return
    held = s.execute(text("SELECT owner, token FROM match_leases WHERE match_id = :m FOR SHARE"),
                     {"m": match_id}).first()
    if held is None or (held[0], int(held[1])) != fence:
        raise LeaseLost(f"match {match_id}: the lease is held by another process")


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
