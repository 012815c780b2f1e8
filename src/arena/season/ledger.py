"""The season's ledger (SE-5): an append-only list of entries, each with its cause, that
replays to the standings. Nothing else holds a player's ToLs, garnets, opals or status, so an
audit of the ledger is an audit of the season."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

KINDS = ("garnets", "opal", "tol", "eliminated", "winner", "adjust")


@dataclass(frozen=True)
class Entry:
    """One change: ``amount`` of ``kind`` for ``player`` in ``episode``, and why."""

    episode: int
    player: str
    kind: str
    amount: int
    cause: str

    def to_json(self) -> dict[str, Any]:
        return {"episode": self.episode, "player": self.player, "kind": self.kind,
                "amount": self.amount, "cause": self.cause}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Entry:
        return cls(int(data["episode"]), str(data["player"]), str(data["kind"]),
                   int(data["amount"]), str(data["cause"]))


@dataclass
class Standing:
    name: str
    eliminated_in: int | None = None
    tols: int = 0
    garnets: int = 0
    opals: int = 0
    won: bool = False

    @property
    def still_in(self) -> bool:
        return self.eliminated_in is None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "in": self.still_in, "eliminated_in": self.eliminated_in,
                "tols": self.tols, "garnets": self.garnets, "opals": self.opals,
                "won": self.won}


@dataclass
class Ledger:
    cast: tuple[str, ...]
    entries: list[Entry] = field(default_factory=list)

    def add(self, entry: Entry) -> None:
        if entry.player not in self.cast:
            raise ValueError(f"{entry.player!r} is not in the cast")
        if entry.kind not in KINDS:
            raise ValueError(f"unknown ledger entry kind {entry.kind!r}")
        self.entries.append(entry)

    def standings(self) -> dict[str, Standing]:
        """Replay every entry from the start (SE-5)."""
        out = {name: Standing(name) for name in self.cast}
        for e in self.entries:
            s = out[e.player]
            if e.kind == "garnets":
                s.garnets += e.amount
            elif e.kind == "opal":
                s.opals += e.amount
            elif e.kind == "tol":
                s.tols += e.amount
            elif e.kind == "eliminated":
                s.eliminated_in = e.episode
            elif e.kind == "winner":
                s.won = True
        return out

    def still_in(self) -> list[str]:
        standings = self.standings()
        return [n for n in self.cast if standings[n].still_in]
