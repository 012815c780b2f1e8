"""The post-match review of Light as a Feather: the objectives a seat left on the table.

An objective left on the table is one the seat's own buckets met, while it was out (LF-7),
and that the seat never completed before it left: the rival took it, the session ended, or
the water moved on. Whether the buckets met it is exact (the objective is data, LF-7), so
each such moment is a decision with a known value: the reward's points the seat could have
banked with one Complete (LF-6). An objective that was out and that nobody completed by the
session's end is left on the table too: where the feasibility search (LF-12's proof, played
for one seat alone) reaches a state that meets it, the seat is told by which tick its buckets
could have met it; that ignores what the rival takes, so the judgement is not exact.
Practice sessions count for nothing (LF-1) and are not judged. Both seats' boards are public,
so the judgements are too.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING

from arena.core.judging import Judgement, Step
from arena.games.feather.feasible import prove
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
    # (session, objective) -> the first step it was out; and the sessions' last steps
    shown: dict[tuple[int, int], Step[FeatherState]] = {}
    for step in steps:
        state = step.before
        if state.stage != "tick" or state.session.practice:
            continue
        spec, board = state.session, state.board
        for oid in board.available:
            shown.setdefault((state.index, oid), step)
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
    out.extend(_never_met(shown, taken, {k[:3] for k in open_}, names))
    out.sort(key=lambda j: (j.version, j.seat))
    return out


def _never_met(shown: dict[tuple[int, int], Step[FeatherState]], taken: set[tuple[int, int, int]],
               met: set[tuple[int, int, int]], names: Sequence[str]) -> list[Judgement]:
    """Objectives that were out, that nobody completed, and that a seat's buckets never met,
    where one seat playing alone can be shown to meet them (the feasibility search)."""
    out: list[Judgement] = []
    done = {(session, oid) for _, session, oid in taken}
    left = [(key, step) for key, step in shown.items() if key not in done]
    by_session: dict[int, list[Objective]] = {}
    for (session, oid), step in left:
        by_session.setdefault(session, []).append(step.before.sessions[session].objective(oid))
    sessions = left[0][1].before.sessions if left else ()
    proofs = {session: prove(sessions[session], objs) for session, objs in by_session.items()}
    for (session, oid), step in left:
        reached = proofs[session].get(oid)
        if reached is None:
            continue
        spec = step.before.sessions[session]
        obj = spec.objective(oid)
        for seat in (0, 1):
            if (seat, session, oid) in met:
                continue
            out.append(Judgement(
                seat=seat, version=step.version, phase=step.name,
                did=(f"Objective {oid} of {spec.name} ({obj.describe()}) was out from tick "
                     f"{step.before.board.tick} and nobody completed it; {names[seat]}'s "
                     f"buckets never met it."),
                better=(f"Playing alone, a seat's buckets can meet it from tick {reached.tick} "
                        f"on, for {obj.reward.describe()}."),
                value=0, best=obj.reward.points, unit="points", cost=obj.reward.points,
                exact=False, public=True))
    return out
