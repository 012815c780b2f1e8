"""Proof that a scenario's objectives can be met (LF-12), by a search over one seat's buckets.

LF-12 asks that every objective of a generated scenario can be met with its session's buckets
and the water its basins bring within the session. The proof here plays one seat alone, from
the session's empty buckets at tick 0, exactly as ``tick.step`` would process its actions:
a Fill takes what the basin holds at the boundary (its schedule's water so far, minus what
this seat took) up to the bucket's room and starts the cooldown (LF-4); Drain and Transfer
take one tick each; Modify (LF-9) is used only as often as the session's own objectives pay
Modify uses. The opponent is left out (they can only take water or objectives away, which no
scenario can prevent), and so are Accelerate, Exchange, Sip and Lock.

The search is sound, not complete: every state it reaches is reachable in a real match, so an
objective met by a reached state is proven; an objective it does not reach within its budget
is reported as a ``Problem`` (the generator never emits one; an editor shows it). It runs in
the order of the ticks (earliest first) and remembers each bucket state the first time it is
reached, so it is deterministic and cheap; it stops as soon as every objective is proven.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from arena.games.feather.objectives import POWERUPS, Objective, Predicate
from arena.games.feather.scenario import Scenario, SessionSpec
from arena.games.feather.tick import FILL_COOLDOWN

BUDGET = 20_000
"""Bucket states one proof may visit per session (and per Modify allowance): about a second at
worst, on an objective nothing can meet; generated scenarios are proven far sooner."""

MODIFY = POWERUPS.index("modify")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a scenario, for a host: the rule it breaks and plain words."""

    rule: str
    message: str
    session: int
    objective: int | None = None

    def to_json(self) -> dict[str, object]:
        return {"rule": self.rule, "message": self.message, "session": self.session,
                "objective": self.objective}


@dataclass(frozen=True)
class Reached:
    """A bucket state the search reached, and the first tick it can be shown at."""

    waters: tuple[int, ...]
    caps: tuple[int, ...]
    tick: int
    modifies: int


def cumulative(spec: SessionSpec) -> tuple[tuple[int, ...], ...]:
    """Per basin, the water it has brought by each tick 0..ticks (no one taking any, LF-8)."""
    out = []
    for b in spec.basins:
        total = b.initial
        row = []
        for t in range(spec.ticks + 1):
            total += b.addition(t)
            row.append(total)
        out.append(tuple(row))
    return tuple(out)


def bursts(cum: Sequence[int]) -> tuple[int, ...]:
    """The ticks at which a basin adds more than 1 at once: bursts worth waiting for."""
    return tuple(t for t in range(1, len(cum)) if cum[t] - cum[t - 1] > 1)


Node = tuple[int, int, int, tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]
"""(tick, order, fill ready at, waters, caps, modifies left, water taken per basin)"""


def explore(spec: SessionSpec, modifies: int = 0, budget: int = BUDGET,
            stop: Callable[[Reached], bool] | None = None) -> Iterator[Reached]:
    """The bucket states one seat can reach in ``spec``, earliest first, each once.

    ``stop`` is asked about every state; the search ends when it says True."""
    n = len(spec.capacities)
    cum = cumulative(spec)
    waits = [bursts(row) for row in cum]
    last = spec.ticks - 1  # a state shown at tick t can Complete at boundary t + 1 <= ticks
    seen: set[tuple[tuple[int, ...], tuple[int, ...], int]] = set()
    pushed: dict[tuple[tuple[int, ...], tuple[int, ...], int], int] = {}
    order = 0
    zero = tuple(0 for _ in range(n))
    heap: list[Node] = [(0, 0, 1, zero, spec.capacities, modifies, tuple(0 for _ in cum))]
    while heap and len(seen) < budget:
        tick, _, ready, waters, caps, mods, taken = heapq.heappop(heap)
        key = (waters, caps, mods)
        if key in seen:
            continue
        seen.add(key)
        found = Reached(waters, caps, tick, modifies - mods)
        yield found
        if stop is not None and stop(found):
            return
        nxt = tick + 1

        def push(at: int, rd: int, w: tuple[int, ...], c: tuple[int, ...], m: int,
                 tk: tuple[int, ...]) -> None:
            nonlocal order
            child = (w, c, m)
            if child not in seen and pushed.get(child, last + 2) > at:
                pushed[child] = at
                order += 1
                heapq.heappush(heap, (at, order, rd, w, c, m, tk))

        # Fill (LF-4): at the first boundary the cooldown allows, or at one of the next two
        # bursts worth waiting for; the basin holds its schedule's water so far minus what
        # this seat took.
        first = max(nxt, ready)
        for k, row in enumerate(cum):
            start = bisect.bisect_left(waits[k], first + 1)
            for at in (first, *waits[k][start:start + 2]):
                if at > last:
                    continue
                avail = row[at - 1] - taken[k]
                if avail <= 0:
                    continue
                for j in range(n):
                    got = min(caps[j] - waters[j], avail)
                    if got <= 0:
                        continue
                    w = (*waters[:j], waters[j] + got, *waters[j + 1:])
                    if (w, caps, mods) in seen:
                        continue
                    tk = (*taken[:k], taken[k] + got, *taken[k + 1:])
                    push(at, at + FILL_COOLDOWN + 1, w, caps, mods, tk)
        if nxt > last:
            continue
        for i in range(n):
            if waters[i] == 0:
                continue
            push(nxt, ready, (*waters[:i], 0, *waters[i + 1:]), caps, mods, taken)
            for j in range(n):
                room = caps[j] - waters[j]
                if i == j or room <= 0:
                    continue
                moved = min(waters[i], room)
                wl = list(waters)
                wl[i] -= moved
                wl[j] += moved
                push(nxt, ready, tuple(wl), caps, mods, taken)
        if mods:
            for i in range(n):
                for delta in (-2, -1, 1, 2):
                    cap = caps[i] + delta
                    if cap >= max(1, waters[i]):
                        push(nxt, ready, waters, (*caps[:i], cap, *caps[i + 1:]), mods - 1,
                             taken)


def meets(pred: Predicate, waters: Sequence[int], caps: Sequence[int]) -> tuple[int, ...] | None:
    """The first set of buckets (fewest first) in this state that meets ``pred``, or None."""
    from itertools import combinations

    n = len(waters)
    cands = [
        i for i in range(n)
        if (pred.amount is None or pred.amount.ok(waters[i]))
        and (pred.capacity is None or pred.capacity.ok(caps[i]))
        and (pred.headroom is None or pred.headroom.ok(caps[i] - waters[i]))
        and (not pred.full or waters[i] == caps[i])
        and (pred.amounts is None or waters[i] in pred.amounts)
    ]
    for size in pred.sizes(len(cands)):
        for combo in combinations(cands, size):
            if pred.holds([waters[i] for i in combo], [caps[i] for i in combo]):
                return combo
    return None


def prove(spec: SessionSpec, objectives: Sequence[Objective], modifies: int = 0,
          budget: int = BUDGET) -> dict[int, Reached]:
    """The first reached state meeting each objective (by id); the unproven ones are absent."""
    proven: dict[int, Reached] = {}
    left = {o.id: o for o in objectives}

    def check(state: Reached) -> bool:
        for oid, obj in list(left.items()):
            if meets(obj.predicate, state.waters, state.caps) is not None:
                proven[oid] = state
                del left[oid]
        return not left

    if left:
        for _ in explore(spec, modifies, budget, check):
            pass
    return proven


def _needs_modify(pred: Predicate, caps: Sequence[int]) -> bool:
    """Whether no bucket of the session has a capacity ``pred`` accepts (or, for ``full``
    exact amounts, could hold them): only a Modify (LF-9) can make one."""
    if pred.capacity is not None and not any(pred.capacity.ok(c) for c in caps):
        return True
    return pred.full and pred.amount is not None and not any(pred.amount.ok(c) for c in caps)


def session_problems(spec: SessionSpec, index: int, budget: int = BUDGET, carried: int = 0
                     ) -> list[Problem]:
    """The objectives of one session that the search cannot prove (LF-12), and why.

    ``carried``: Modify uses earlier scored sessions pay (powerups carry over, LF-9)."""
    problems: list[Problem] = []
    n = len(spec.capacities)
    where = f"session {index + 1} ({spec.name})"
    possible = []
    for obj in spec.objectives:
        if not obj.predicate.sizes(n):
            problems.append(Problem("LF-7", f"{where}, objective {obj.id}: it needs more "
                                            f"buckets than the session's {n}", index, obj.id))
        else:
            possible.append(obj)
    # An objective asking for a capacity no bucket has needs a Modify first: no search
    # without one can meet it, so it is not searched for there.
    modify_first = [o for o in possible if _needs_modify(o.predicate, spec.capacities)]
    proven = prove(spec, [o for o in possible if o not in modify_first], 0, budget)
    rest = [o for o in possible if o.id not in proven]
    # Modify uses the session's own objectives pay, where those are proven without one.
    mods = carried + sum(o.reward.powerups[MODIFY] for o in possible if o.id in proven)
    for allowance in range(1, min(mods, 2) + 1):
        left = [o for o in rest if o.id not in proven]
        if left:
            proven.update(prove(spec, left, allowance, budget))
    for obj in rest:
        if obj.id in proven:
            continue
        why = ("no bucket has the capacity it asks for, and no objective that can be met "
               "before it pays a Modify (LF-9)" if _needs_modify(obj.predicate, spec.capacities) else
               f"no bucket state reachable within {spec.ticks} ticks meets it with buckets "
               f"{', '.join(map(str, spec.capacities))} and these basins")
        problems.append(Problem("LF-12", f"{where}, objective {obj.id} "
                                         f"({obj.describe()}): {why}", index, obj.id))
    return problems


def objective_problems(scenario: Scenario, budget: int = BUDGET) -> list[Problem]:
    """Every objective of ``scenario`` that cannot be shown to be reachable (LF-12), each with
    its rule id and a plain message; empty when every objective is proven."""
    out: list[Problem] = []
    carried = 0  # practice carries nothing into the scored sessions (LF-1)
    for i, spec in enumerate(scenario.sessions):
        found = session_problems(spec, i, budget, 0 if spec.practice else carried)
        out += found
        if not spec.practice:
            bad = {p.objective for p in found}
            carried += sum(o.reward.powerups[MODIFY] for o in spec.objectives if o.id not in bad)
    return out
