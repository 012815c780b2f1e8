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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from arena.core.wording import counted
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


class Reached(NamedTuple):
    """A bucket state the search reached, and the first tick it can be shown at. A named
    tuple: the search makes one per state, thousands per generated match, and a tuple is
    made in a third of a frozen dataclass's time."""

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


Node = tuple[int, int, int]
"""(fill ready at, packed state, packed water taken per basin): see ``explore``."""


def explore(spec: SessionSpec, modifies: int = 0, budget: int = BUDGET,
            stop: Callable[[Reached], bool] | None = None) -> Iterator[Reached]:
    """The bucket states one seat can reach in ``spec``, earliest first, each once.

    ``stop`` is asked about every state; the search ends when it says True.

    A state (waters, capacities, Modify uses left) is packed into one integer, a few bits per
    bucket, and the water taken per basin into another: the search looks up far more children
    than it keeps (a generated match explores thousands of states per session before its first
    tick), and an integer hashes and compares much faster than nested tuples.
    Every child waits at a later tick than its parent's, and states of one tick are taken in
    the order they were pushed: so one first-in first-out list per tick replaces a heap
    ordered by (tick, push number), and gives the same order. The order of the search, and
    so every state it yields, is the tuple search's exactly."""
    n = len(spec.capacities)
    cum = cumulative(spec)
    last = spec.ticks - 1  # a state shown at tick t can Complete at boundary t + 1 <= ticks
    # A capacity only ever moves by at most 2 per Modify (LF-9), so this many bits per bucket
    # hold every capacity and every water level the search can reach.
    bits = max(1, max(spec.capacities, default=0) + 2 * modifies).bit_length()
    mask = (1 << bits) - 1
    shifts = tuple(bits * i for i in range(n))
    caps_at = bits * n
    mods_at = 2 * caps_at
    waters_mask = (1 << caps_at) - 1
    one_modify = 1 << mods_at
    tbits = max(1, max((row[-1] for row in cum), default=0)).bit_length()
    tmask = (1 << tbits) - 1
    # Per basin and per first tick a Fill may come at: the ticks it is tried at (that one and
    # the next two bursts worth waiting for, within the session) and the water the basin has
    # brought by then.
    fills = []
    for k, row in enumerate(cum):
        waits = bursts(row)
        plan = []
        for first in range(last + 1):
            start = bisect.bisect_left(waits, first + 1)
            plan.append(tuple((at, row[at - 1]) for at in (first, *waits[start:start + 2])
                              if at <= last))
        fills.append((plan, tbits * k))
    start_caps = sum(c << s for c, s in zip(spec.capacities, shifts, strict=True))
    start_key = (modifies << mods_at) | (start_caps << caps_at)
    # Per state: the earliest tick it waits at, or -1 once reached (every tick a child is
    # pushed at is at least 1, so one lookup tells both "reached" and "waiting sooner").
    pushed: dict[int, int] = {}
    seen_at = pushed.get
    reached = 0
    never = last + 2
    cooldown = FILL_COOLDOWN + 1
    waiting: list[list[Node]] = [[] for _ in range(last + 1)]
    waiting[0].append((1, start_key, 0))
    buckets = range(n)
    for tick in range(last + 1):
        for ready, key, taken in waiting[tick]:
            if reached >= budget:
                return
            if seen_at(key) == -1:
                continue
            pushed[key] = -1
            reached += 1
            packed = key & waters_mask
            cpacked = (key >> caps_at) & waters_mask
            mods = key >> mods_at
            waters = tuple([(packed >> s) & mask for s in shifts])
            caps = (spec.capacities if cpacked == start_caps
                    else tuple([(cpacked >> s) & mask for s in shifts]))
            found = Reached(waters, caps, tick, modifies - mods)
            yield found
            if stop is not None and stop(found):
                return
            nxt = tick + 1
            rooms = [c - w for c, w in zip(caps, waters, strict=True)]
            room_at = [(room, shifts[j]) for j, room in enumerate(rooms) if room]
            most = max(rooms, default=0)
            # Each child is pushed unless already reached, or already waiting at a tick no later.
            # Fill (LF-4): at the first boundary the cooldown allows, or at one of the next two
            # bursts worth waiting for; the basin holds its schedule's water so far minus what
            # this seat took.
            # A later tick of the same basin gives a bucket the same child as an earlier one once
            # the water then (``before``) already filled it, and that child is then refused by
            # the lookup anyway (waiting sooner or reached): such pairs are skipped unasked.
            first = nxt if nxt > ready else ready
            if first <= last:
                for plan, tshift in fills:
                    took = (taken >> tshift) & tmask
                    before = 0
                    for at, water in plan[first]:
                        avail = water - took
                        if avail <= before:
                            continue
                        for room, shift in room_at:
                            if room <= before:
                                continue
                            got = room if room < avail else avail
                            child = key + (got << shift)
                            if seen_at(child, never) > at:
                                pushed[child] = at
                                waiting[at].append((at + cooldown, child, taken + (got << tshift)))
                        if avail >= most:
                            break
                        before = avail
            if nxt > last:
                continue
            for i in buckets:
                have = waters[i]
                if have == 0:
                    continue
                here = shifts[i]
                out = key - (have << here)  # Drain
                if seen_at(out, never) > nxt:
                    pushed[out] = nxt
                    waiting[nxt].append((ready, out, taken))
                for room, there in room_at:  # Transfer, into a bucket with room
                    if there == here:
                        continue
                    child = (out + (have << there) if have <= room
                             else key - (room << here) + (room << there))
                    if seen_at(child, never) > nxt:
                        pushed[child] = nxt
                        waiting[nxt].append((ready, child, taken))
            if mods:
                for i in buckets:
                    low = max(1, waters[i])
                    for delta in (-2, -1, 1, 2):
                        if caps[i] + delta >= low:
                            child = key - one_modify + (delta << (caps_at + shifts[i]))
                            if seen_at(child, never) > nxt:
                                pushed[child] = nxt
                                waiting[nxt].append((ready, child, taken))


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
               f"no bucket state reachable within {counted(spec.ticks, 'tick')} meets it with buckets "
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
