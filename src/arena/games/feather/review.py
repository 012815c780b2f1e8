"""The post-match review of Light as a Feather: the objectives a seat left on the table.

An objective left on the table is one the seat's own buckets met, while it was out (LF-7),
and that the seat never completed before it left: the rival took it, the session ended, or
the water moved on. Whether the buckets met it is exact (the objective is data, LF-7), so
each such moment is a decision with a known value: the reward's points the seat could have
banked with one Complete (LF-6). Practice sessions count for nothing (LF-1) and are not
judged. Both seats' boards are public, so the judgements are too.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING

from arena.core.judging import Judgement, Step
from arena.games.feather.objectives import Objective
from arena.games.feather.scenario import BUCKET_LETTERS

if TYPE_CHECKING:
    from arena.games.feather.match import FeatherState


@lru_cache(maxsize=8192)
def _meeting(obj: Objective, waters: tuple[int, ...], caps: tuple[int, ...]
             ) -> tuple[int, ...] | None:
    """Buckets that meet the objective now (the fewest first), or None."""
    for n in obj.predicate.sizes(len(waters)):
        for chosen in combinations(range(len(waters)), n):
            if obj.predicate.holds([waters[b] for b in chosen], [caps[b] for b in chosen]):
                return chosen
    return None


def _buckets(chosen: tuple[int, ...]) -> str:
    names = [BUCKET_LETTERS[b] for b in chosen]
    if len(names) == 1:
        return f"bucket {names[0]}"
    return "buckets " + ", ".join(names[:-1]) + " and " + names[-1]


def review(steps: Sequence[Step[FeatherState]], names: Sequence[str]) -> list[Judgement]:
    """One judgement per objective a seat could have completed and never did."""
    out: list[Judgement] = []
    # (seat, session, objective) -> (step, buckets) where the seat could first complete it
    open_: dict[tuple[int, int, int], tuple[Step[FeatherState], tuple[int, ...]]] = {}
    taken: set[tuple[int, int, int]] = set()
    for step in steps:
        state = step.before
        if state.stage != "tick" or state.session.practice:
            continue
        spec, board = state.session, state.board
        for seat in (0, 1):
            me = board.seats[seat]
            for oid in board.available:
                key = (seat, state.index, oid)
                if key in open_ or key in taken:
                    continue
                chosen = _meeting(spec.objective(oid), me.waters, me.caps)
                if chosen is not None:
                    open_[key] = (step, chosen)
        for o in step.after.last:
            if o.done and o.action.verb == "complete" and o.action.number is not None:
                taken.add((o.seat, state.index, o.action.number))
    for (seat, session, oid), (step, chosen) in open_.items():
        if (seat, session, oid) in taken:
            continue
        spec = step.before.sessions[session]
        obj = spec.objective(oid)
        points = obj.reward.points
        out.append(Judgement(
            seat=seat, version=step.version, phase=step.name,
            did=(f"At tick {step.before.board.tick} of {spec.name}, {names[seat]}'s "
                 f"{_buckets(chosen)} met objective {oid} ({obj.describe()}), and "
                 f"{names[seat]} never completed it."),
            better=(f"Completing it then would have won {obj.reward.describe()}."),
            value=0, best=points, unit="points", cost=points, exact=True, public=True))
    out.sort(key=lambda j: (j.version, j.seat))
    return out
