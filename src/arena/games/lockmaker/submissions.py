"""What a Lockmaker seat submits, as values (LM-13..LM-17): each ``str()`` is the notation a
seat types for it, each ``to_json()`` the value the match log has always recorded for it.

A study answer is a :class:`arena.core.moves.Word` (``ready``, or the DMO's ``first`` or
``second``, LM-13); a draft turn a :class:`Take` (LM-14); a build a :class:`Lock` (LM-15); in
the solve phase a :class:`Solve` or :data:`IMPOSSIBLE` (LM-16); a :class:`Pick` of the
solution that counts (LM-16); a :class:`Decide` (LM-17); a countersolve a :class:`Solve` with
``counter`` set (LM-17, LM-18).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from arena.core.game import JSON, Word
from arena.games.lockmaker.lockfile import write_lock
from arena.games.lockmaker.notation import MoveText
from arena.games.lockmaker.pieces import PieceKind
from arena.games.lockmaker.position import Position


@lru_cache(maxsize=64)
def lock_text(pos: Position) -> str:
    """``write_lock(pos)``, remembered: one lock is written as its maker's move, when it is
    shown and in every view of the solve phase, so a playout writes each lock once."""
    return write_lock(pos)


@dataclass(frozen=True)
class Take:
    """A draft turn (LM-14): the pieces taken, and whether the seat stops drafting."""

    pieces: tuple[PieceKind, ...]
    stop: bool

    def __str__(self) -> str:
        return ",".join([*(str(p) for p in self.pieces), *(["stop"] if self.stop else [])])

    def to_json(self) -> JSON:
        return {"take": [str(p) for p in self.pieces], "stop": self.stop}


@dataclass(frozen=True)
class Lock:
    """A built lock (LM-15); its notation is the lock file."""

    position: Position

    def __str__(self) -> str:
        return lock_text(self.position)

    def to_json(self) -> JSON:
        return lock_text(self.position)


@dataclass(frozen=True)
class Impossible:
    """The solver's call that the lock cannot be solved (LM-16, LM-18)."""

    def __str__(self) -> str:
        return "impossible"

    def to_json(self) -> JSON:
        return {"kind": "impossible"}


IMPOSSIBLE = Impossible()


@dataclass(frozen=True)
class Solve:
    """A solution (LM-11, LM-16), or with ``counter`` a countersolve of the seat's own lock
    (LM-17). ``text`` is its moves in canonical notation, one ``, `` between two, and ``moves``
    their count (LM-9). Read from text, a piece keeps the name the seat gave it (any of its
    cells); once checked against the lock (:meth:`LockmakerGame.check`), every piece has its
    canonical name, as the rules record it. ``steps`` are the moves as read, for that check:
    two solutions with the same text are the same move wherever their moves stood."""

    text: str
    moves: int
    counter: bool = False
    steps: tuple[MoveText, ...] = field(default=(), compare=False, repr=False)

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> JSON:
        return {"kind": "counter" if self.counter else "solution", "text": self.text,
                "moves": self.moves}


@dataclass(frozen=True)
class Pick:
    """The number of the solution that counts, from 1 (LM-16)."""

    number: int

    def __str__(self) -> str:
        return str(self.number)

    def to_json(self) -> JSON:
        return self.number


@dataclass(frozen=True)
class Decide:
    """Whether the maker countersolves (LM-17)."""

    counter: bool

    def __str__(self) -> str:
        return "countersolve" if self.counter else "pass"

    def to_json(self) -> JSON:
        return self.counter


LMMove = Word | Take | Lock | Impossible | Solve | Pick | Decide
"""Every move of a Lockmaker match."""
