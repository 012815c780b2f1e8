"""Moves as values (python-chess's habit): what a seat submits, once read.

A seat submits text; the game reads it once (:meth:`arena.core.game.Game.parse`) into a move:
a small immutable value whose ``str()`` is its notation, whose :meth:`Move.to_json` is the
form the log and the pages get, and which the rules receive as it is (:class:`Submission`'s
``value``, :class:`PhaseOutcome`), so nothing reads the text a second time. The log keeps the
text exactly as it was sent: replaying it reads it again the same way (G-7).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, runtime_checkable

from typing_extensions import TypeVar

from arena.core.frozen import fast_init

JSON = Any
"""A value that ``json.dumps`` accepts: views, event data and moves' JSON forms."""


@runtime_checkable
class Move(Protocol):
    """A submission as the rules see it: immutable, compared by value, ``str()`` its
    notation (what a bot or a page would type for it), ``to_json()`` the plain value the log's
    ``accepted`` entry and the pages hold. A move's JSON form is part of every stored log: a
    move keeps the form it was first logged with (G-7)."""

    def __str__(self) -> str: ...

    def to_json(self) -> JSON: ...


M = TypeVar("M", bound=Move, default=Any)
"""A game's move type (its third type parameter); any game's where none is named
(``Game[Any, Any]``: the engine, the server and the registry run every game)."""


@dataclass(frozen=True, slots=True)
class Word:
    """A move that is one word of a notation (``ready``, ``first``): the word in lower case,
    which is both its notation and its JSON form."""

    word: str

    def __str__(self) -> str:
        return self.word

    def to_json(self) -> JSON:
        return self.word


READY = Word("ready")
"""The study phases' one move (every game has a ``ready``)."""


@fast_init  # one per decision
@dataclass(frozen=True)
class Submission(Generic[M]):
    """One accepted submission. ``at`` is seconds since the phase began (real seconds);
    ``text`` is what the seat sent (the log keeps it), ``value`` the move it was read as."""

    seat: int
    text: str
    value: M
    at: float
    final: bool = False
    in_reserve: bool = False


@fast_init  # one per decision
@dataclass(frozen=True)
class SubmitContext(Generic[M]):
    """What a game may consider when checking a move: when, and what this seat already sent
    in the phase."""

    at: float
    previous: tuple[Submission[M], ...] = ()
    scale: float = 1.0
    """The match's time scale (G-5): real seconds per rule second, for a game that mixes a
    rule duration with a measured one (LM-17's countersolve windows)."""


@fast_init  # one per phase
@dataclass(frozen=True)
class PhaseOutcome(Generic[M]):
    """Everything the game needs to resolve a phase: the moves, never a text to read again.

    ``standing`` follows G-2 (last valid within the limit, first valid in reserve); ``history``
    holds every accepted submission of the phase in order, for games that keep them all
    (timed solutions, LM-16); ``missing`` are must-act seats with nothing standing.
    """

    standing: Mapping[int, Submission[M]]
    history: Mapping[int, tuple[Submission[M], ...]]
    missing: frozenset[int]
    ended_at: float
    scale: float = 1.0
