"""The Feather bot: plans objectives by search over its own bucket states.

Each tick the bot

1. completes the best objective its buckets meet now, preferring ones the opponent also meets
   now (they would vanish at this boundary otherwise; both seats are paid, LF-6);
2. else spoils an opponent who meets a valuable objective now, with Lock (their Complete is
   void, LF-9) or a Sip that breaks their buckets;
3. else searches breadth-first over its own bucket states, one tick per step: Fill (with the
   basin forecast of LF-8 and the cooldown of LF-4), Drain, Transfer, and the Modify and
   Exchange it holds; the goal is any state in which some available objective is met. Among
   the plans found it takes the best reward per tick, and plays its first action;
4. while it only waits for the fill cooldown, it spends an Accelerate on the basin its plan
   will fill from when that adds water.

A plan is remembered and followed while the board turns out as predicted, so the search runs
only when something surprising happened (the opponent took the water or the objective).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from arena.core.errors import RuleError
from arena.games.feather.actions import Action
from arena.games.feather.basins import forecast
from arena.games.feather.objectives import POWERUPS, Objective, Predicate
from arena.games.feather.scenario import SessionSpec
from arena.games.feather.tick import FILL_COOLDOWN, Board, check_action

POWERUP_VALUE = {"exchange": 0.5, "modify": 0.9, "sip": 0.5, "lock": 1.0, "accelerate": 0.6}
NODE_BUDGET = 2500
"""Bucket states a search may visit: bounds the worst time of one decision."""
MAX_DEPTH = 12


def value(obj: Objective) -> float:
    """What an objective is worth to the bot: points plus a price for each powerup use."""
    return obj.reward.points + sum(
        n * POWERUP_VALUE[p] for p, n in zip(POWERUPS, obj.reward.powerups, strict=True)
    )


def meeting_subsets(pred: Predicate, waters: Sequence[int], caps: Sequence[int],
                    usable: Sequence[int], sizes: Sequence[tuple[int, ...]] | None = None
                    ) -> Iterator[tuple[int, ...]]:
    """Subsets of the ``usable`` buckets that meet ``pred``, smallest first.

    Clauses about single buckets filter the candidates before any subset is formed, which
    keeps this cheap enough to run at every node of the search.
    """
    cands = [
        i for i in usable
        if (pred.amount is None or pred.amount.ok(waters[i]))
        and (pred.capacity is None or pred.capacity.ok(caps[i]))
        and (pred.headroom is None or pred.headroom.ok(caps[i] - waters[i]))
        and (not pred.full or waters[i] == caps[i])
        and (pred.amounts is None or waters[i] in pred.amounts)
    ]
    for n in pred.sizes(len(cands)) if sizes is None else sizes[len(cands)]:
        for combo in itertools.combinations(cands, n):
            if pred.holds([waters[i] for i in combo], [caps[i] for i in combo]):
                yield combo


def completable(spec: SessionSpec, board: Board, seat: int
                ) -> list[tuple[Objective, tuple[int, ...]]]:
    """Every available objective ``seat`` could complete at the next boundary, with buckets."""
    me = board.seats[seat]
    at = board.tick + 1
    usable = [i for i in range(len(me.waters)) if not board.locked(seat, i, at)]
    out: list[tuple[Objective, tuple[int, ...]]] = []
    for oid in board.available:
        obj = spec.objective(oid)
        for combo in meeting_subsets(obj.predicate, me.waters, me.caps, usable):
            out.append((obj, combo))
            break
    return out


@dataclass(frozen=True)
class Plan:
    """A found sequence of actions ending in a Complete, and what it is worth per tick."""

    actions: tuple[Action, ...]
    objective: int
    rate: float


Node = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int, int]
"""(waters, caps, water taken per basin, ticks of fill cooldown left, modifies, exchanges)"""


def search(spec: SessionSpec, board: Board, seat: int, avoid: frozenset[int] = frozenset()
           ) -> Plan | None:
    """Breadth-first search over this seat's bucket states, one tick per level."""
    me = board.seats[seat]
    n = len(me.waters)
    t0 = board.tick
    horizon = min(MAX_DEPTH, spec.ticks - t0)
    if horizon <= 0:
        return None
    preds = [tuple(f) for f in (forecast(bs, b, horizon) for bs, b in zip(spec.basins, board.basins, strict=True))]
    amounts_now = [b.amount for b in board.basins]
    objectives = [spec.objective(i) for i in board.available]
    values = {o.id: value(o) * (0.3 if o.id in avoid else 1.0) for o in objectives}
    mods = me.held("modify")
    exch = me.held("exchange")
    cool = max(0, me.fill_ready_at() - (t0 + 1))
    start: Node = (me.waters, me.caps, tuple(0 for _ in board.basins), cool, mods, exch)
    parents: dict[Node, tuple[Node | None, Action | None]] = {start: (None, None)}
    frontier = [start]
    best: Plan | None = None
    best_found: dict[int, float] = {}
    free = [tuple(i for i in range(n) if not board.locked(seat, i, t0 + 1 + d))
            for d in range(horizon)]

    size_table = {o.id: [o.predicate.sizes(k) for k in range(n + 1)] for o in objectives}

    for d in range(horizon):
        # Goals: a Complete processed at boundary t0 + 1 + d.
        bound = max(best_found.values(), default=0.0)
        usable = free[d]
        for node in frontier:
            waters, caps = node[0], node[1]
            for obj in objectives:
                rate = values[obj.id] / (d + 1)
                if rate <= bound or rate <= best_found.get(obj.id, 0.0):
                    continue
                for combo in meeting_subsets(obj.predicate, waters, caps, usable,
                                             size_table[obj.id]):
                    best_found[obj.id] = rate
                    if best is None or rate > best.rate:
                        best = Plan((*_path(parents, node), Action("complete", combo, number=obj.id)),
                                    obj.id, rate)
                    break
        if best is not None and best.rate >= max(values.values(), default=0.0) / (d + 2):
            break  # nothing found later can beat it
        if d + 1 >= horizon or len(parents) > NODE_BUDGET:
            break
        nxt: list[Node] = []
        for node in frontier:
            if len(parents) > NODE_BUDGET:
                break
            for action, child in _moves(node, d, preds, amounts_now, spec, free[d]):
                if child not in parents:
                    parents[child] = (node, action)
                    nxt.append(child)
        frontier = nxt
        if not frontier:
            break
    return best


def _path(parents: dict[Node, tuple[Node | None, Action | None]], node: Node) -> tuple[Action, ...]:
    out: list[Action] = []
    cur: Node | None = node
    while cur is not None:
        prev, action = parents[cur]
        if action is not None:
            out.append(action)
        cur = prev
    return tuple(reversed(out))


def _put(waters: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    return (*waters[:i], v, *waters[i + 1:])


def _moves(node: Node, d: int, preds: list[tuple[int, ...]], now: list[int],
           spec: SessionSpec, free: tuple[int, ...]) -> Iterator[tuple[Action, Node]]:
    """The children of a node at depth ``d`` (its action is processed at boundary t0+1+d),
    using only the buckets in ``free`` (the unlocked ones)."""
    waters, caps, taken, cool, mods, exch = node
    ready = max(0, cool - 1)  # the cooldown left at the next level
    # Waiting (only worth it while the fill cooldown runs).
    if cool > 0:
        yield Action("pass"), (waters, caps, taken, ready, mods, exch)
    else:
        for j in free:
            room = caps[j] - waters[j]
            if room <= 0:
                continue
            seen: set[int] = set()
            for k, bs in enumerate(spec.basins):
                avail = (now[k] if d == 0 else preds[k][d - 1]) - taken[k]
                got = min(room, avail)
                if got <= 0 or got in seen:
                    continue
                seen.add(got)
                tk = (*taken[:k], taken[k] + got, *taken[k + 1:])
                yield (Action("fill", (j,), basin=bs.name),
                       (_put(waters, j, waters[j] + got), caps, tk, FILL_COOLDOWN, mods, exch))
    for i in free:
        if waters[i] > 0:
            yield Action("drain", (i,)), (_put(waters, i, 0), caps, taken, ready, mods, exch)
    for i in free:
        if waters[i] == 0:
            continue
        for j in free:
            if i == j or waters[j] >= caps[j]:
                continue
            moved = min(waters[i], caps[j] - waters[j])
            w = _put(_put(waters, i, waters[i] - moved), j, waters[j] + moved)
            yield Action("transfer", (i, j)), (w, caps, taken, ready, mods, exch)
    if exch:
        for i, j in itertools.combinations(free, 2):
            if waters[i] != waters[j]:
                w = _put(_put(waters, i, min(waters[j], caps[i])), j, min(waters[i], caps[j]))
                yield Action("exchange", (i, j)), (w, caps, taken, ready, mods, exch - 1)
    if mods:
        for i in free:
            for delta in (-2, -1, 1, 2):
                cap = caps[i] + delta
                if cap >= max(1, waters[i]):
                    yield (Action("modify", (i,), number=delta),
                           (waters, _put(caps, i, cap), taken, ready, mods - 1, exch))


# ------------------------------------------------------------------------------ decisions
_plans: dict[tuple[SessionSpec, int], tuple[tuple[object, ...], tuple[Action, ...]]] = {}
CACHE_LIMIT = 64


def _key(spec: SessionSpec, board: Board, seat: int) -> tuple[object, ...]:
    me = board.seats[seat]
    return (spec.name, board.tick, me.waters, me.caps, board.available, me.powerups, me.last_fill,
            board.locks)


def _expected(spec: SessionSpec, board: Board, seat: int, action: Action) -> tuple[object, ...]:
    """The key the board should have next tick if ``action`` works out as planned."""
    me = board.seats[seat]
    waters, caps, last_fill = list(me.waters), list(me.caps), me.last_fill
    powerups = list(me.powerups)
    if action.powerup is not None:
        powerups[POWERUPS.index(action.powerup)] -= 1
    if action.verb == "fill":
        j = action.buckets[0]
        k = spec.basin_names.index(action.basin or "")
        waters[j] += min(caps[j] - waters[j], board.basins[k].amount)
        last_fill = board.tick + 1
    elif action.verb == "drain":
        waters[action.buckets[0]] = 0
    elif action.verb == "transfer":
        i, j = action.buckets
        moved = min(waters[i], caps[j] - waters[j])
        waters[i] -= moved
        waters[j] += moved
    elif action.verb == "exchange":
        i, j = action.buckets
        waters[i], waters[j] = min(waters[j], caps[i]), min(waters[i], caps[j])
    elif action.verb == "modify":
        assert action.number is not None
        caps[action.buckets[0]] += action.number
    locks = tuple(lk for lk in board.locks if lk.until >= board.tick + 1)
    return (spec.name, board.tick + 1, tuple(waters), tuple(caps), board.available,
            tuple(powerups), last_fill, locks)


def _legal(spec: SessionSpec, board: Board, seat: int, action: Action) -> bool:
    try:
        check_action(spec, board, seat, action)
    except RuleError:
        return False
    return True


def choose(spec: SessionSpec, board: Board, seat: int) -> str | None:
    """The bot's action for the next boundary, as notation (None: do nothing)."""
    other = 1 - seat
    mine = completable(spec, board, seat)
    theirs = {obj.id: combo for obj, combo in completable(spec, board, other)}
    if mine:
        obj, combo = max(mine, key=lambda oc: (value(oc[0]) + (0.5 if oc[0].id in theirs else 0.0),
                                                -len(oc[1]), -oc[0].id))
        _plans.pop((spec, seat), None)
        return str(Action("complete", combo, number=obj.id))
    spoil = _spoil(spec, board, seat, theirs)
    if spoil is not None:
        return spoil
    plan = _follow(spec, board, seat)
    if plan is None:
        plan = _replan(spec, board, seat, frozenset(theirs))
    first = plan[0] if plan else Action("pass")
    if first.verb != "pass" and not _legal(spec, board, seat, first):
        plan, first = (), Action("pass")
    if plan:
        if len(_plans) > CACHE_LIMIT:
            _plans.clear()
        _plans[(spec, seat)] = (_expected(spec, board, seat, first), plan[1:])
    if first.verb == "pass":
        accel = _accelerate(spec, board, seat, plan)
        if accel is not None:
            _plans.pop((spec, seat), None)
            return accel
        return None
    return str(first)


_failed: dict[tuple[SessionSpec, int], tuple[tuple[object, ...], int]] = {}
RETRY_TICKS = 3


def _replan(spec: SessionSpec, board: Board, seat: int, avoid: frozenset[int]
            ) -> tuple[Action, ...]:
    """Search, unless the same buckets and objectives just failed to yield a plan: then wait
    a few ticks (for the basins to change) before searching again."""
    me = board.seats[seat]
    key = (me.waters, me.caps, board.available, me.powerups, avoid)
    failed = _failed.get((spec, seat))
    if failed is not None and failed[0] == key and board.tick < failed[1]:
        return ()
    found = search(spec, board, seat, avoid=avoid)
    if found is None:
        if len(_failed) > CACHE_LIMIT:
            _failed.clear()
        _failed[(spec, seat)] = (key, board.tick + RETRY_TICKS)
        return ()
    _failed.pop((spec, seat), None)
    return found.actions


def _follow(spec: SessionSpec, board: Board, seat: int) -> tuple[Action, ...] | None:
    saved = _plans.get((spec, seat))
    if saved is None:
        return None
    expected, rest = saved
    if expected != _key(spec, board, seat) or not rest:
        return None
    return rest


def _spoil(spec: SessionSpec, board: Board, seat: int, theirs: dict[int, tuple[int, ...]]
           ) -> str | None:
    """Lock (or Sip) a bucket the opponent needs for an objective they meet now (LF-9)."""
    if not theirs:
        return None
    me = board.seats[seat]
    target = max(theirs, key=lambda oid: value(spec.objective(oid)))
    if value(spec.objective(target)) < 2:
        return None
    combo = theirs[target]
    if me.held("lock"):
        for b in combo:
            action = Action("lock", (b,), opponent=True)
            if _legal(spec, board, seat, action):
                return str(action)
    if me.held("sip"):
        opp = board.seats[1 - seat]
        obj = spec.objective(target)
        for b in combo:
            waters = [opp.waters[i] - (1 if i == b else 0) for i in combo]
            caps = [opp.caps[i] for i in combo]
            if opp.waters[b] > 0 and not obj.predicate.holds(waters, caps):
                action = Action("sip", (b,), opponent=True)
                if _legal(spec, board, seat, action):
                    return str(action)
    return None


def _accelerate(spec: SessionSpec, board: Board, seat: int, plan: tuple[Action, ...]) -> str | None:
    """While waiting for the fill cooldown, wind forward the basin the plan will fill from."""
    me = board.seats[seat]
    if not me.held("accelerate"):
        return None
    fills = [a for a in plan if a.verb == "fill"]
    names = [fills[0].basin] if fills else list(spec.basin_names)
    best: tuple[int, str] | None = None
    for name in names:
        k = spec.basin_names.index(name or "")
        gain = forecast(spec.basins[k], board.basins[k], 10)[-1] - board.basins[k].amount
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, spec.basins[k].name)
    if best is None or (not fills and best[0] < max(me.caps)):
        return None
    return f"accelerate {best[1]} 10"


# ------------------------------------------------------------------------------ random play
def legal_actions(spec: SessionSpec, board: Board, seat: int) -> list[Action]:
    """Every legal action of ``seat`` for the next boundary (Complete: one bucket set per
    objective and size), for random play and tests."""
    n = len(spec.capacities)
    me = board.seats[seat]
    cands: list[Action] = [Action("pass")]
    for i in range(n):
        cands.append(Action("drain", (i,)))
        cands += [Action("drain", (i,), basin=name) for name in spec.basin_names]
        cands += [Action("fill", (i,), basin=name) for name in spec.basin_names]
        cands += [Action("transfer", (i, j)) for j in range(n) if j != i]
        if me.held("modify"):
            cands += [Action("modify", (i,), number=d) for d in (-2, -1, 0, 1, 2)]
        if me.held("sip"):
            cands += [Action("sip", (i,)), Action("sip", (i,), opponent=True)]
        if me.held("lock"):
            cands.append(Action("lock", (i,), opponent=True))
        if me.held("exchange"):
            cands += [Action("exchange", (i, j)) for j in range(i + 1, n)]
    if me.held("accelerate"):
        cands += [Action("accelerate", basin=name, number=k) for name in spec.basin_names
                  for k in (1, 5, 10)]
    for obj, combo in completable(spec, board, seat):
        cands.append(Action("complete", combo, number=obj.id))
    return [a for a in cands if _legal(spec, board, seat, a)]


def random_legal(spec: SessionSpec, board: Board, seat: int, rng: random.Random) -> str:
    """A uniformly random legal action, as notation."""
    return str(rng.choice(legal_actions(spec, board, seat)))


__all__ = ["Plan", "choose", "completable", "legal_actions", "random_legal", "search"]
