"""What a post-match review is made of: one resolved phase, and one decision judged.

A seat that lost wants to know where (the habit of lichess's post-game analysis): each of its
decisions set against the best one the rules allowed, where the truth can be computed. The
game judges (it alone knows what "best" means for a lock, a bet or a shove); the engine only
hands it the phases as they were resolved and orders, filters and words the result. Kept apart
from :mod:`arena.core.review` so that :mod:`arena.core.game` can name these types without
importing the replay machinery.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from arena.core.moves import JSON, PhaseOutcome

S = TypeVar("S")


@dataclass(frozen=True)
class Step(Generic[S]):
    """One resolved phase: the state its seats decided on, what stood, and what came of it.

    ``version`` is the log entry that records the resolution (``phase_resolved``): the replay
    link of every decision taken in the phase."""

    no: int
    name: str
    version: int
    before: S
    outcome: PhaseOutcome[Any]
    after: S


@dataclass(frozen=True)
class Judgement:
    """One decision of one seat, set against the best one.

    ``value`` and ``best`` are in ``unit`` ("moves", "points", "expected points"...);
    ``cost`` is what the decision gave away, in the game's one common measure, so the
    costliest decisions of a seat can be put first (0: it was the best). ``did`` and
    ``better`` are plain words for the player: what they did, and what was best and why.
    ``exact`` says whether ``best`` is proven (an exhaustive search) or the best a planner
    found. ``public`` says the decision was public during the match (an attempt on a safe,
    a shove); a sealed one is shown to others only once the end reveals it (G-9)."""

    seat: int
    version: int
    phase: str
    did: str
    better: str
    value: float
    best: float
    unit: str
    cost: float
    exact: bool = True
    public: bool = False

    def to_json(self) -> JSON:
        return {
            "seat": self.seat, "version": self.version, "phase": self.phase, "did": self.did,
            "better": self.better, "value": _num(self.value), "best": _num(self.best),
            "unit": self.unit, "cost": _num(self.cost), "exact": self.exact,
            "public": self.public,
        }


def _num(x: float) -> float | int:
    """Whole numbers as integers (the page shows "9 moves", not "9.0 moves")."""
    return int(x) if float(x).is_integer() else round(x, 2)
