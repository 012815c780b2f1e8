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

A decision depends on the board alone (the bot's worker processes are a pool, and a board may
be asked about again after a replay or a take-over, G-7): nothing about the previous tick is
remembered but tables of pure results (a bucket state's moves, its goal tests), which carry the
work from tick to tick and make a search cost a few milliseconds (``bench/feather_bot_speed.py``).
"""

from __future__ import annotations

import itertools
import random
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from arena.core.errors import RuleError
from arena.games.feather.actions import Action
from arena.games.feather.basins import forecast
from arena.games.feather.objectives import POWERUPS, Objective, Predicate
from arena.games.feather.scenario import SessionSpec
from arena.games.feather.tick import FILL_COOLDOWN, Board, check_action

POWERUP_VALUE = {"exchange": 0.5, "modify": 0.9, "sip": 0.5, "lock": 1.0, "accelerate": 0.6}
NODE_BUDGET = 1000
"""Bucket states a search may visit: bounds the worst time of one decision. The p99 is the
searches whose tables are cold (a session's first tick, new bucket states), and it grows with
this budget: on a quiet machine 4.1 ms of CPU at 1000 against 4.7 at 1200 in the same run
(the goal is under 5). At 1000 the bot still beats the old one, which searched 2500, and a
greedy one (bench/feather_bot_speed.py)."""
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


class _Interner:
    """Numbers distinct tuples: ``of`` gives a tuple's id, ``items`` the tuple of an id."""

    __slots__ = ("ids", "items")

    def __init__(self) -> None:
        self.ids: dict[tuple[int, ...], int] = {}
        self.items: list[tuple[int, ...]] = []

    def of(self, t: tuple[int, ...]) -> int:
        got = self.ids.get(t)
        if got is None:
            got = self.ids[t] = len(self.items)
            self.items.append(t)
        return got


# A search node is one int: fields of (waters id, capacities id, id of the water taken per
# basin, ticks of fill cooldown left, modifies held, exchanges held). An int hashes at once
# and, unlike a tuple, is no object the garbage collector tracks: a search makes tens of
# thousands of children, and as tuples they would set off collections in the middle of it.
S_M, S_COOL, S_T, S_C, S_W = 8, 16, 24, 48, 72
LOW = (1 << 8) - 1
IDS = (1 << 24) - 1
TAKEN = IDS << S_T
NO_TAKEN = ~TAKEN
POWER_CAP = LOW
"""Modifies or exchanges a search counts at most (its field's size)."""

# Move numbers: what the parent links store, so that no ``Action`` is made per node.
MAX_BUCKETS = 8
MODIFY_DELTAS = (-2, -1, 1, 2)
M_PASS = 0
M_DRAIN = 1
M_TRANSFER = M_DRAIN + MAX_BUCKETS
M_EXCHANGE = M_TRANSFER + MAX_BUCKETS * MAX_BUCKETS
M_MODIFY = M_EXCHANGE + MAX_BUCKETS * MAX_BUCKETS
M_FILL = M_MODIFY + MAX_BUCKETS * len(MODIFY_DELTAS)
S_MOVE = 16
"""A parent link is ``parent << S_MOVE | move``."""


def _action(move: int, basins: tuple[str, ...]) -> Action:
    """The action a move number stands for."""
    if move == M_PASS:
        return Action("pass")
    if move < M_TRANSFER:
        return Action("drain", (move - M_DRAIN,))
    if move < M_EXCHANGE:
        i, j = divmod(move - M_TRANSFER, MAX_BUCKETS)
        return Action("transfer", (i, j))
    if move < M_MODIFY:
        i, j = divmod(move - M_EXCHANGE, MAX_BUCKETS)
        return Action("exchange", (i, j))
    if move < M_FILL:
        i, x = divmod(move - M_MODIFY, len(MODIFY_DELTAS))
        return Action("modify", (i,), number=MODIFY_DELTAS[x])
    j, k = divmod(move - M_FILL, len(basins))
    return Action("fill", (j,), basin=basins[k])


class _Tables:
    """What searches share (per thread; in a bot worker, process-wide): tuples numbered once,
    and per bucket state its Drains and Transfers, its Exchanges and Modifies, its Fills per
    basin availability, and its goal test per predicate.

    Every entry is a pure function of its key, so a decision never depends on which searches
    this process ran before (one worker of the bot pool serves many matches, and the same
    board must get the same decision wherever it is thought about); the tables only make the
    next search cheaper, since a session's bucket states repeat from tick to tick: this is
    what the bot carries from one tick to the next.
    """

    def __init__(self) -> None:
        self.waters, self.caps, self.taken, self.frees = (_Interner(), _Interner(), _Interner(),
                                                          _Interner())
        self.static: dict[int, tuple[int, ...]] = {}
        self.powered: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.goals: dict[Predicate, dict[int, tuple[int, ...] | None]] = {}
        self.avails = _Interner()
        self.fills: dict[int, tuple[int, ...]] = {}
        self.taken_next: dict[int, int] = {}
        self.goal_entries = 0

    def size(self) -> int:
        """Entries held in all tables (each a few hundred bytes)."""
        return (len(self.waters.items) + len(self.caps.items) + len(self.taken.items)
                + len(self.avails.items) + len(self.static) + len(self.powered)
                + len(self.fills) + len(self.taken_next) + self.goal_entries)


_LOCAL = threading.local()
"""Each thread has its own tables: bots think in threads when the server has no worker
processes (``server/thinkers.py``), and numbering a tuple is not atomic."""
TABLE_LIMIT = 200_000
"""Entries the shared tables may hold before they start afresh: about 60 MB per process at
most (10 default matches fill 60,000, and a session's bucket states soon repeat)."""


def _tables() -> _Tables:
    """This thread's tables, made afresh when they hold more than ``TABLE_LIMIT`` entries."""
    tb: _Tables | None = getattr(_LOCAL, "tables", None)
    if tb is None or tb.size() > TABLE_LIMIT:
        tb = _LOCAL.tables = _Tables()
    return tb


def search(spec: SessionSpec, board: Board, seat: int, avoid: frozenset[int] = frozenset(),
           depth: int = MAX_DEPTH, nearest: bool = False) -> Plan | None:
    """Breadth-first search over this seat's bucket states, one tick per level (``depth``
    ticks at most: a weaker level looks less far, G-8; ``nearest``: it settles for the best
    objective of the first tick any is met at, not the best reward per tick).

    A pure function of its arguments. The work that many nodes share is done once: the drains
    and transfers of a bucket state, its exchanges and modifies, its fills for a given
    availability of the basins, and its goal test against a predicate (``_Tables``, kept
    across searches).
    """
    me = board.seats[seat]
    n = len(me.waters)
    t0 = board.tick
    horizon = min(depth, spec.ticks - t0)
    if horizon <= 0 or n > MAX_BUCKETS:
        return None
    nb = len(spec.basins)
    preds = [forecast(bs, b, horizon) for bs, b in zip(spec.basins, board.basins, strict=True)]
    # The water each basin shows when a Fill at level d is processed (LF-8 forecast).
    base = [tuple(b.amount for b in board.basins)]
    base += [tuple(preds[k][d - 1] for k in range(nb)) for d in range(1, horizon)]
    objectives = [spec.objective(i) for i in board.available]
    vals = [value(o) * (0.3 if o.id in avoid else 1.0) for o in objectives]
    top = max(vals, default=0.0)
    nobj = len(objectives)
    size_table = [[o.predicate.sizes(k) for k in range(n + 1)] for o in objectives]

    tb = _tables()
    waters_of, caps_of, taken_of = tb.waters, tb.caps, tb.taken
    W, C, T = waters_of.items, caps_of.items, taken_of.items
    free = [tb.frees.of(tuple(i for i in range(n) if not board.locked(seat, i, t0 + 1 + d)))
            for d in range(horizon)]
    F = tb.frees.items
    cool0 = max(0, me.fill_ready_at() - (t0 + 1))
    start = ((waters_of.of(me.waters) << S_W) | (caps_of.of(me.caps) << S_C)
             | (taken_of.of((0,) * nb) << S_T) | (cool0 << S_COOL)
             | (min(me.held("modify"), POWER_CAP) << S_M) | min(me.held("exchange"), POWER_CAP))
    # Parent links are keyed by the node less its taken water: of two ways to one bucket
    # state at one cooldown, the first found (the shallower) is kept, whatever it took from
    # the basins. This loses a few plans that hinge on basin water, and in exchange the node
    # budget reaches further (bench/feather_bot_speed.py).
    parents: dict[int, int] = {start & NO_TAKEN: -1}
    static, powered = tb.static, tb.powered
    goal_tables = [tb.goals.setdefault(o.predicate, {}) for o in objectives]
    # A Fill gets min(room, what the basin shows less what the plan took); amounts beyond
    # the largest capacity a bucket can reach act alike, so availabilities are clipped there
    # and the Fills of a bucket state are shared by every search that sees the same clipped
    # availability.
    clip = max(me.caps, default=0) + 2 * min(me.held("modify"), POWER_CAP)
    avails_of, A = tb.avails, tb.avails.items
    avails: dict[int, int] = {}
    fill_table, taken_next = tb.fills, tb.taken_next
    frontier = [start]
    best: Plan | None = None
    best_found = [0.0] * nobj

    for d in range(horizon):
        # Goals: a Complete processed at boundary t0 + 1 + d.
        bound = max(best_found, default=0.0)
        uid = free[d]
        live = [oi for oi in range(nobj)
                if vals[oi] / (d + 1) > bound and vals[oi] / (d + 1) > best_found[oi]]
        seen_goal: set[int] = set()
        for node in frontier:
            if not live:
                break
            wc = node >> S_C
            if wc in seen_goal:
                continue  # an earlier node of this level had the same buckets
            seen_goal.add(wc)
            gk = (wc << 24) | uid
            for oi in list(live):
                rate = vals[oi] / (d + 1)
                goals = goal_tables[oi]
                if gk in goals:
                    combo = goals[gk]
                else:
                    tb.goal_entries += 1
                    combo = goals[gk] = next(
                        meeting_subsets(objectives[oi].predicate, W[wc >> 24], C[wc & IDS],
                                        F[uid], size_table[oi]), None)
                if combo is None:
                    continue
                best_found[oi] = rate
                live.remove(oi)
                if best is None or rate > best.rate:
                    done = Action("complete", combo, number=objectives[oi].id)
                    best = Plan((*_path(parents, node & NO_TAKEN, spec.basin_names), done),
                                objectives[oi].id, rate)
        if best is not None and (nearest or best.rate >= top / (d + 2)):
            break  # nothing found later can beat it (or the level does not look further)
        if d + 1 >= horizon or len(parents) > NODE_BUDGET:
            break
        nxt: list[int] = []
        fr = F[free[d]]
        b = base[d]
        for node in frontier:
            if len(parents) > NODE_BUDGET:
                break
            exch = node & LOW
            mods = (node >> S_M) & LOW
            cool = (node >> S_COOL) & LOW
            tid = (node >> S_T) & IDS
            cid = (node >> S_C) & IDS
            wid = node >> S_W
            link = (node & NO_TAKEN) << S_MOVE
            taken = node & TAKEN
            keep = (cid << S_C) | (mods << S_M) | exch
            rest = keep | ((cool - 1 if cool > 0 else 0) << S_COOL)
            if cool > 0:
                key = (wid << S_W) | rest
                if key not in parents:
                    parents[key] = link | M_PASS
                    nxt.append(key | taken)
            else:
                ak = (tid << 8) | d
                avid = avails.get(ak)
                if avid is None:
                    taken_now = T[tid]
                    avid = avails[ak] = avails_of.of(tuple(
                        max(0, min(clip, b[k] - taken_now[k])) for k in range(nb)))
                fk = (node >> S_C << 48) | (free[d] << 24) | avid
                moves = fill_table.get(fk)
                if moves is None:
                    moves = fill_table[fk] = _fill_moves(W[wid], C[cid], A[avid], fr, nb,
                                                         waters_of)
                filled = keep | (FILL_COOLDOWN << S_COOL)
                for x in range(0, len(moves), 3):
                    key = moves[x + 1] | filled
                    if key not in parents:
                        parents[key] = link | moves[x]
                        tk = (tid << 32) | moves[x + 2]
                        t2 = taken_next.get(tk)
                        if t2 is None:
                            k, got = divmod(moves[x + 2], 1 << 24)
                            t2 = taken_next[tk] = taken_of.of(_put(T[tid], k, T[tid][k] + got)) << S_T
                        nxt.append(key | t2)
            sk = (node >> S_C << 24) | free[d]
            moves = static.get(sk)
            if moves is None:
                moves = static[sk] = _static_moves(W[wid], C[cid], fr, waters_of)
            for x in range(0, len(moves), 2):
                key = moves[x + 1] | rest
                if key not in parents:
                    parents[key] = link | moves[x]
                    nxt.append(key | taken)
            if exch or mods:
                pw = powered.get(sk)
                if pw is None:
                    pw = powered[sk] = _powered_moves(W[wid], C[cid], fr, waters_of, caps_of)
                if exch:
                    moves = pw[0]
                    for x in range(0, len(moves), 2):
                        key = (moves[x + 1] | rest) - 1
                        if key not in parents:
                            parents[key] = link | moves[x]
                            nxt.append(key | taken)
                if mods:
                    moves = pw[1]
                    other = (wid << S_W) | (rest & ~(IDS << S_C))
                    for x in range(0, len(moves), 2):
                        key = (moves[x + 1] | other) - (1 << S_M)
                        if key not in parents:
                            parents[key] = link | moves[x]
                            nxt.append(key | taken)
        frontier = nxt
        if not frontier:
            break
    return best


def _fill_moves(waters: tuple[int, ...], caps: tuple[int, ...], avail: tuple[int, ...],
                free: tuple[int, ...], nb: int, waters_of: _Interner) -> tuple[int, ...]:
    """The Fills of a bucket state, given what each basin can give: (move, waters field,
    basin << 24 | amount) triples, flat. A bucket takes what the basin will show less what
    this plan took from it before (LF-8 forecast); two basins that would give the same
    amount give one child."""
    out: list[int] = []
    for j in free:
        room = caps[j] - waters[j]
        if room <= 0:
            continue
        got_seen: set[int] = set()
        for k in range(nb):
            got = min(room, avail[k])
            if got <= 0 or got in got_seen:
                continue
            got_seen.add(got)
            out += (M_FILL + j * nb + k, waters_of.of(_put(waters, j, waters[j] + got)) << S_W,
                    (k << 24) | got)
    return tuple(out)


def _static_moves(waters: tuple[int, ...], caps: tuple[int, ...], free: tuple[int, ...],
                  waters_of: _Interner) -> tuple[int, ...]:
    """The Drains and Transfers of a bucket state, as (move, waters field) pairs, flat: they
    depend on nothing else."""
    out: list[int] = []
    for i in free:
        if waters[i] > 0:
            out += (M_DRAIN + i, waters_of.of(_put(waters, i, 0)) << S_W)
    for i in free:
        if waters[i] == 0:
            continue
        for j in free:
            if i == j or waters[j] >= caps[j]:
                continue
            moved = min(waters[i], caps[j] - waters[j])
            w = _put(_put(waters, i, waters[i] - moved), j, waters[j] + moved)
            out += (M_TRANSFER + i * MAX_BUCKETS + j, waters_of.of(w) << S_W)
    return tuple(out)


def _powered_moves(waters: tuple[int, ...], caps: tuple[int, ...], free: tuple[int, ...],
                   waters_of: _Interner, caps_of: _Interner
                   ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The Exchanges (move, waters field) and Modifies (move, capacities field) of a bucket
    state, flat."""
    ex: list[int] = []
    for i, j in itertools.combinations(free, 2):
        if waters[i] != waters[j]:
            w = _put(_put(waters, i, min(waters[j], caps[i])), j, min(waters[i], caps[j]))
            ex += (M_EXCHANGE + i * MAX_BUCKETS + j, waters_of.of(w) << S_W)
    mo: list[int] = []
    for i in free:
        for x, delta in enumerate(MODIFY_DELTAS):
            cap = caps[i] + delta
            if cap >= max(1, waters[i]):
                mo += (M_MODIFY + i * len(MODIFY_DELTAS) + x, caps_of.of(_put(caps, i, cap)) << S_C)
    return tuple(ex), tuple(mo)


def _path(parents: dict[int, int], node: int, basins: tuple[str, ...]) -> tuple[Action, ...]:
    out: list[Action] = []
    link = parents[node]
    while link >= 0:
        out.append(_action(link & ((1 << S_MOVE) - 1), basins))
        link = parents[link >> S_MOVE]
    return tuple(reversed(out))


def _put(waters: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    return (*waters[:i], v, *waters[i + 1:])


# ------------------------------------------------------------------------------ decisions
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
        return str(Action("complete", combo, number=obj.id))
    spoil = _spoil(spec, board, seat, theirs)
    if spoil is not None:
        return spoil
    plan = _replan(spec, board, seat, frozenset(theirs))
    first = plan[0] if plan else Action("pass")
    if first.verb != "pass" and not _legal(spec, board, seat, first):
        plan, first = (), Action("pass")
    if first.verb == "pass":
        accel = _accelerate(spec, board, seat, plan)
        if accel is not None:
            return accel
        return None
    return str(first)


def _replan(spec: SessionSpec, board: Board, seat: int, avoid: frozenset[int]
            ) -> tuple[Action, ...]:
    """The plan of a fresh search from this very board (LF-8 forecasts, G-7: nothing but the
    board decides it)."""
    found = search(spec, board, seat, avoid=avoid)
    return () if found is None else found.actions


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



# ------------------------------------------------------------------------------ levels (G-8)
EASY_DEPTH = 2
NORMAL_DEPTH = 5


def choose_level(spec: SessionSpec, board: Board, seat: int, level: str) -> str | None:
    """The bot at ``easy`` or ``normal`` (``hard`` is :func:`choose`), G-8.

    ``easy`` reacts to the current tick only: it completes whatever its buckets meet now
    (the biggest reward, with no eye on what the opponent meets), else looks for an
    objective one action away; it keeps no plan and never uses a powerup against the
    opponent. ``normal`` also plans a few ticks ahead (:data:`NORMAL_DEPTH`), afresh each
    tick, and goes for the nearest objective it can meet rather than the best reward per tick
    (as a club player grabs what is in reach); it does not spoil the opponent's objectives,
    nor weigh what the opponent is about to complete, nor wind basins forward. With hard's
    plan at depth 6 it drew level with hard on the shipped scenario (50% of 40 matches, each
    seat winning its own); now hard beats it 98-100% on the shipped and generated scenarios
    and it beats easy 95-100% (bench/strength.py --game feather)."""
    mine = completable(spec, board, seat)
    if mine:
        obj, combo = max(mine, key=lambda oc: (value(oc[0]), -len(oc[1]), -oc[0].id))
        return str(Action("complete", combo, number=obj.id))
    depth = EASY_DEPTH if level == "easy" else NORMAL_DEPTH
    found = search(spec, board, seat, depth=depth, nearest=level == "normal")
    if found is None or not found.actions:
        return None
    first = found.actions[0]
    if first.verb == "pass" or not _legal(spec, board, seat, first):
        return None
    return str(first)


__all__ = ["Plan", "choose", "choose_level", "completable", "legal_actions", "random_legal",
           "search"]
