"""What the store hands out: plain, frozen records of stored rows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Lease:
    """Who owns a live match on a shared PostgreSQL database: a process id, its address, the
    fencing token, and whether the lease has lapsed (then any process may take it over)."""

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
    """Each seat's bot level (G-8): ``easy``, ``normal`` or ``hard``; a seat past
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


@dataclass(frozen=True)
class ScenarioRecord:
    """A scenario of the library (LF-12): a host's own, saved under a unique name."""

    name: str
    game: str
    text: str
    note: str
    created: float


@dataclass(frozen=True)
class TokenRecord:
    """A secret link. ``role`` is ``seat`` (with ``seat`` set), ``spectator``, ``host`` or
    ``broadcast`` (with ``delay`` set: G-15, the whole match one delay behind)."""

    token: str
    match_id: str
    role: str
    seat: int | None = None
    delay: float | None = None
