"""The match's log as values: its entries, the kinds that are inputs, and its readers.

Every change to a match is written to an append-only log, and every entry says who may read it.
These are the plain values the rest of the engine, the store and the server exchange about
that log; they know nothing of a running match, so the store can read and write entries
without the runner, and every part of the runner can name them without importing another.
Who may see which entry, given a match, is :mod:`arena.core.visibility`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from arena.core.frozen import fast_init
from arena.core.game import JSON

HOST: Literal["host"] = "host"
SPECTATOR: Literal["spectator"] = "spectator"
Viewer = int | Literal["host", "spectator"]
"""A reader of the log: a seat (from 0), the host, or any spectator."""

INPUT_KINDS = frozenset({"submit", "confirm", "pause", "resume", "extend", "end", "chat", "mute",
                         "host_note", "host_option", "private", "deadline", "act"})
"""Event kinds that are inputs: replaying just these rebuilds every other event."""


@fast_init  # several per decision
@dataclass(frozen=True)
class Event:
    """An entry of the append-only log. ``to=None`` is public; a set names the seats that may
    see it (the host sees everything; an empty set is for the host alone)."""

    version: int
    kind: str
    data: JSON
    to: frozenset[int] | None
    t: float

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "kind": self.kind,
            "data": self.data,
            "to": None if self.to is None else sorted(self.to),
            "t": self.t,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        to = data.get("to")
        return cls(
            version=int(data["version"]),
            kind=str(data["kind"]),
            data=data.get("data"),
            to=None if to is None else frozenset(int(s) for s in to),
            t=float(data["t"]),
        )
