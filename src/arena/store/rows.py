"""Reading stored rows back: every column's expected shape, written once, and the one error
any damage becomes.

The tables keep JSON as text (models.py says why), and SQLite keeps any value in any column,
so a row changed outside the server (a hand edit, a bad migration, a disk that lost the end of
a page) can hold anything: text that is not JSON, JSON of the wrong type, an object without
the keys a reader needs, a number where text belongs. Read blindly, such a value surfaced far
from the store as a ``KeyError`` or a ``TypeError``: a 500 on every request, or one bad row
failing a whole listing, so the lobby and the start-up resume went down with it.

Every read of a stored row therefore goes through a :class:`Reading`, which checks each
column against its :class:`Column` (the shapes below) and turns the first damage it meets into
a :class:`DamagedRow` naming the table, the match or season (or scenario) the row belongs to,
and what is wrong in plain words ("its config is not valid JSON"). One row's damage is then
that one match's or season's problem: the server answers 503 naming it (a quarantine) and
serves everything else, and a listing skips the row and hands it back in
:attr:`Rows.damaged` so the server can quarantine it without failing the listing.

A column's shape is what the server itself writes, checked strictly (a ``true`` is not a seat
number, ``"1"`` is not a time). A value the shape allows may still be wrong for the game (a
config option out of range, a game not installed): those are the server's to judge when it
rebuilds the match, and it quarantines the match the same way.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

from pydantic import Field, StringConstraints, TypeAdapter, ValidationError
from typing_extensions import TypedDict

from arena.core.game import BotLevel

T = TypeVar("T")
R = TypeVar("R")

Owner = Literal["match", "season", "scenario"]

OWNER_OF: dict[str, Owner] = {
    "matches": "match", "tokens": "match", "events": "match", "seat_notes": "match",
    "match_leases": "match",
    "seasons": "season", "season_entries": "season", "season_tokens": "season",
    "scenarios": "scenario",
}
"""Whose problem a damaged row of each table is: the match, season or scenario it belongs to
(every table of ``models.py`` is here; a test checks that none is missing)."""


class DamagedRow(Exception):
    """A stored row that cannot be read as its table says: ``table``, ``key`` (the id of the
    match or season the row belongs to, or the scenario's name) and ``reason``, one plain
    clause about the match or season ("its config is not valid JSON")."""

    def __init__(self, table: str, key: str, reason: str) -> None:
        super().__init__(f"{OWNER_OF.get(table, 'row')} {key}: {reason} (table {table})")
        self.table = table
        self.key = key
        self.reason = reason

    @property
    def of(self) -> Owner:
        """What the row belongs to: a ``match``, a ``season`` or a ``scenario``."""
        return OWNER_OF.get(self.table, "match")


class Rows(list[T]):
    """A listing's healthy rows, in order, and (:attr:`damaged`) the rows it skipped because
    they could not be read: one damaged row must not fail the lobby or the resume, and the
    server quarantines what it names."""

    def __init__(self, rows: Iterable[T] = (), damaged: Iterable[DamagedRow] = ()) -> None:
        super().__init__(rows)
        self.damaged: list[DamagedRow] = list(damaged)


def healthy(rows: Iterable[R], read: Callable[[R], T]) -> Rows[T]:
    """Each row read with ``read``; a row that raises :class:`DamagedRow` is set aside."""
    out: Rows[T] = Rows()
    for row in rows:
        try:
            out.append(read(row))
        except DamagedRow as exc:
            out.damaged.append(exc)
    return out


class _Wrong(Exception):
    """A value that is not of its column's shape; the message ends the reason's sentence."""


@dataclass(frozen=True)
class Column:
    """One column's expected shape: its name in a reason, what it must hold (in words, and as
    a type checked strictly or, where a type check would cost more than the read itself on a
    long log, a plain test), whether it is JSON text, and whether NULL is allowed."""

    words: str
    kind: str
    shape: TypeAdapter[Any] | Callable[[Any], bool]
    is_json: bool = True
    nullable: bool = False
    plural: bool = False

    def read(self, raw: object) -> Any:
        """The column's value: for JSON the parsed value exactly as stored (the shape is only
        checked, so nothing is dropped or converted), otherwise the checked value."""
        verb = "are" if self.plural else "is"
        if raw is None:
            if self.nullable:
                return None
            raise _Wrong(f"{self.words} {verb} missing")
        value: Any = raw
        if self.is_json:
            if not isinstance(raw, str):
                raise _Wrong(f"{self.words} {verb} not text")
            try:
                value = json.loads(raw)
            except (ValueError, RecursionError):
                raise _Wrong(f"{self.words} {verb} not valid JSON") from None
        if not isinstance(self.shape, TypeAdapter):
            if not self.shape(value):
                raise _Wrong(f"{self.words} {verb} not {self.kind}")
            return value
        try:
            checked = self.shape.validate_python(value, strict=True)
        except ValidationError:
            raise _Wrong(f"{self.words} {verb} not {self.kind}") from None
        return value if self.is_json else checked


class Reading:
    """One stored row being read: ``reading(column, raw)`` is the column's value, or raises
    :class:`DamagedRow` for the row's match or season. ``where`` starts each reason ("its ",
    "its log entry 7's ")."""

    def __init__(self, table: str, key: str, where: str = "its ") -> None:
        self.table = table
        self.key = key
        self.where = where

    def __call__(self, column: Column, raw: object) -> Any:
        try:
            return column.read(raw)
        except _Wrong as exc:
            raise self.damaged(str(exc)) from None

    def damaged(self, what: str) -> DamagedRow:
        return DamagedRow(self.table, self.key, f"{self.where}{what}")


# ---------------------------------------------------------------------- value types
_Name = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]{1,40}$")]
_Kind = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:-]{1,40}$")]
_Finite = Annotated[float, Field(allow_inf_nan=False)]
_Seat = Annotated[int, Field(ge=0, lt=1000)]
_Text = Annotated[str, StringConstraints(min_length=1)]


def _is_object(value: Any) -> bool:
    return isinstance(value, dict)  # parsed JSON: its keys are always text


def _is_json(value: Any) -> bool:
    return True  # any value json.loads gives


_NUMBER: TypeAdapter[Any] = TypeAdapter(_Finite)
_TEXT: TypeAdapter[Any] = TypeAdapter(str)
_NAME: TypeAdapter[Any] = TypeAdapter(_Name)


class _SeasonHead(TypedDict):
    """What a season's head must hold for the season to be rebuilt (server/seasons.py writes
    it); other keys (``id``, ``webhook``) are kept as stored."""

    cast: Annotated[list[_Text], Field(min_length=1)]
    bots: list[bool]
    seed: Annotated[int, Field(ge=0, lt=2**64)]
    step_seconds: _Finite
    created: _Finite
    settings: dict[str, Any]
    mm_config: dict[str, Any]


class _SeasonRecord(TypedDict):
    """What the lobby's season list reads of a season's record snapshot."""

    cast: list[str]
    episode: int
    stage_words: str
    winner: str | None


class _SeasonStep(TypedDict):
    """A stored season input: at least its kind (the season says what else each kind needs,
    and names a step it cannot apply, SE-6)."""

    kind: _Text


# ---------------------------------------------------------------------- matches
GAME = Column("game", "a game's name", _NAME, is_json=False)
CONFIG = Column("config", "a JSON object", _is_object)
SEED = Column("seed", "a 64-bit whole number",
              TypeAdapter(Annotated[int, Field(ge=-2**63, lt=2**63)]), is_json=False)
SETTINGS = Column("settings", "a JSON object", _is_object, plural=True)
START = Column("start time", "a number", _NUMBER, is_json=False)
SEAT_NAMES = Column("seat names", "a list of names",
                    TypeAdapter(Annotated[list[str], Field(min_length=1)]), plural=True)
BOTS = Column("bot seats", "a list of bot flags and levels",
              TypeAdapter(Annotated[list[bool | BotLevel], Field(min_length=1)]), plural=True)
STATUS = Column("status", "running or finished", TypeAdapter(Literal["running", "finished"]),
                is_json=False)
RESULT = Column("result", "a JSON object", _is_object, nullable=True)
CREATED = Column("creation time", "a number", _NUMBER, is_json=False)

# ---------------------------------------------------------------------- events
VERSION = Column("number", "a whole number from 1", TypeAdapter(Annotated[int, Field(ge=1)]),
                 is_json=False)
KIND = Column("kind", "a kind's name", TypeAdapter(_Kind), is_json=False)
EVENT_DATA = Column("data", "JSON", _is_json)
INPUT_DATA = Column("data", "a JSON object", _is_object)
"""An input's data: the replay reads its fields (a submission's seat and text)."""
RECIPIENTS = Column("recipients", "a list of seat numbers", TypeAdapter(list[_Seat]),
                    nullable=True, plural=True)
TIME = Column("time", "a number", _NUMBER, is_json=False)

# ---------------------------------------------------------------------- links
ROLE = Column("role", "seat, spectator, host or broadcast",
              TypeAdapter(Literal["seat", "spectator", "host", "broadcast"]), is_json=False)
DELAY = Column("delay", "a delay in seconds", TypeAdapter(Annotated[float, Field(ge=0)]),
               is_json=False, nullable=True)
SEAT = Column("seat", "a seat number", TypeAdapter(_Seat), is_json=False, nullable=True)
SEASON_ROLE = Column("role", "host or player", TypeAdapter(Literal["host", "player"]),
                     is_json=False)
PLAYER = Column("player", "a player's name", TypeAdapter(_Text), is_json=False, nullable=True)

# ---------------------------------------------------------------------- notes
NOTES = Column("notes", "JSON", _is_json, plural=True)
UPDATED = Column("time", "a number", _NUMBER, is_json=False)

# ---------------------------------------------------------------------- seasons
HEAD = Column("head", "an object with its cast, bots, seed, step time, creation time and "
              "settings", TypeAdapter(_SeasonHead))
RECORD = Column("record", "an object with its cast, episode, stage and winner",
                TypeAdapter(_SeasonRecord))
STEP = Column("data", "an object naming its kind", TypeAdapter(_SeasonStep))
SEASON_STATUS = Column("status", "running, finished or converted",
                       TypeAdapter(Literal["running", "finished", "converted"]), is_json=False)
"""Converted: the season runs as a match of the same id now (server/season_import.py)."""

# ---------------------------------------------------------------------- scenarios
SCENARIO_TEXT = Column("text", "text", _TEXT, is_json=False)
NOTE = Column("note", "text", _TEXT, is_json=False)

# ---------------------------------------------------------------------- leases
LEASE_OWNER = Column("lease's owner", "a process id", TypeAdapter(_Text), is_json=False)
LEASE_URL = Column("lease's address", "text", _TEXT, is_json=False, nullable=True)
LEASE_TOKEN = Column("lease's fencing token", "a whole number", TypeAdapter(int),
                     is_json=False)
