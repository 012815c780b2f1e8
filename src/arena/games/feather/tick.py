"""One session's board and the processing of one tick boundary (LF-2 to LF-6, LF-9).

``Board`` is the state shown as "tick t" (LF-2: after tick t's basin additions). ``step``
processes the actions submitted during tick t at the boundary that starts tick t+1, in the
order of LF-3: Lock, Sip, Complete, Fill, Drain, Modify/Transfer/Exchange, Accelerate, then
the basins' own additions. Within a step the two seats do not see each other's action, except
that Fills from one basin go in ankh order (LF-5) and that a Lock makes the other seat's action
on that bucket void (LF-9).

``check_action`` is what can be known when the action is submitted (a Fill in cooldown, a
locked bucket, a powerup not held, an objective not met); ``step`` checks again at the boundary
and reports (rather than raises) what became void in the meantime.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from arena.core.errors import RuleError
from arena.games.feather.actions import LETTERS, Action
from arena.games.feather.basins import Basin, advance, start_basin
from arena.games.feather.objectives import POWERUPS, Reward
from arena.games.feather.scenario import SessionSpec
from arena.games.feather.words import void_words

FILL_COOLDOWN = 4
"""LF-4: after a Fill at tick t, ticks t+1..t+4 are blocked."""
LOCK_SPAN = 2
"""LF-9: a Lock at tick t holds for t and the next 2 ticks."""


@dataclass(frozen=True)
class SeatBoard:
    """One seat's side of the board."""

    waters: tuple[int, ...]
    caps: tuple[int, ...]
    points: int = 0
    powerups: tuple[int, ...] = (0, 0, 0, 0, 0)
    last_fill: int | None = None

    @property
    def water(self) -> int:
        return sum(self.waters)

    def fill_ready_at(self) -> int:
        """The first boundary at which this seat may Fill again (LF-4)."""
        return 0 if self.last_fill is None else self.last_fill + FILL_COOLDOWN + 1

    def held(self, powerup: str) -> int:
        return self.powerups[POWERUPS.index(powerup)]


@dataclass(frozen=True)
class Lock:
    """Seat ``owner``'s bucket ``bucket`` is locked at boundaries up to ``until`` (LF-9)."""

    owner: int
    bucket: int
    until: int
    by: int


@dataclass(frozen=True)
class Board:
    tick: int
    seats: tuple[SeatBoard, ...]
    basins: tuple[Basin, ...]
    available: tuple[int, ...]
    queue: tuple[int, ...]
    locks: tuple[Lock, ...] = ()
    ankh: int = 1

    def locked(self, owner: int, bucket: int, at: int) -> bool:
        return any(lk.owner == owner and lk.bucket == bucket and lk.until >= at for lk in self.locks)


Void = dict[str, object]
"""Why an action cannot be processed, as facts: ``rule`` (its id), ``why`` (a short code:
``no_powerup``, ``locked``, ``cooldown``, ``unavailable``, ``unmet``, ``below_water``) and
the numbers and names that say it. A refusal's words and the page's words are made from it
(:func:`arena.games.feather.words.void_words`, ``feather.js``)."""


@dataclass(frozen=True)
class Outcome:
    """What became of one seat's action at a boundary: ``done``, or ``void`` and why.

    ``water`` is what the action moved (Fill, Drain, Transfer) or added to a basin
    (Accelerate); ``reward`` what a Complete won."""

    seat: int
    action: Action
    done: bool
    water: int | None = None
    reward: Reward | None = None
    void: Void | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"seat": self.seat, "action": self.action.to_json(),
                                  "done": self.done}
        if self.water is not None:
            out["water"] = self.water
        if self.reward is not None:
            out["reward"] = self.reward.to_json()
        if self.void is not None:
            out["void"] = self.void
        return out


def new_board(spec: SessionSpec, carry: tuple[SeatBoard, ...] | None, ankh: int) -> Board:
    """The board at tick 0 of a session: empty buckets, basins after tick 0 (LF-2), the first
    ``available`` objectives out and the rest queued (LF-7). Points and powerups carry over."""
    seats = tuple(
        SeatBoard(
            waters=tuple(0 for _ in spec.capacities),
            caps=spec.capacities,
            points=0 if carry is None else carry[s].points,
            powerups=(0,) * len(POWERUPS) if carry is None else carry[s].powerups,
        )
        for s in range(2)
    )
    ids = tuple(o.id for o in spec.objectives)
    return Board(
        tick=0,
        seats=seats,
        basins=tuple(start_basin(b) for b in spec.basins),
        available=ids[: spec.available],
        queue=ids[spec.available :],
        ankh=ankh,
    )


def _name(i: int) -> str:
    return LETTERS[i]


def check_action(spec: SessionSpec, board: Board, seat: int, action: Action,
                 at: int | None = None, *, judge: bool = True) -> None:
    """Raise ``RuleError`` if ``action`` cannot be processed at boundary ``at`` (default: the
    next one). Called on submission; at the boundary itself :func:`void_of` says the same
    as facts."""
    void = void_of(spec, board, seat, action, at, judge=judge)
    if void is not None:
        raise RuleError(str(void["rule"]), void_words(void, spec))


def void_of(spec: SessionSpec, board: Board, seat: int, action: Action,
            at: int | None = None, *, judge: bool = True) -> Void | None:
    """Why ``action`` cannot be processed at boundary ``at`` (default: the next one), as
    facts, or None. ``judge=False`` (at the boundary) leaves the objective's predicate to
    the Complete step (a Sip may change the buckets)."""
    at = board.tick + 1 if at is None else at
    me = board.seats[seat]
    if action.verb == "pass":
        return None
    if action.powerup is not None and me.held(action.powerup) < 1:
        return {"rule": "LF-9", "why": "no_powerup", "powerup": action.powerup}
    owner = 1 - seat if action.opponent else seat
    for b in action.buckets if board.locks else ():
        if board.locked(owner, b, at):
            return {"rule": "LF-9", "why": "locked", "bucket": _name(b), "theirs": owner != seat}
    if action.verb == "fill":
        ready = me.fill_ready_at()
        if at < ready:
            return {"rule": "LF-4", "why": "cooldown", "filled": me.last_fill, "ready": ready}
    elif action.verb == "complete":
        oid = action.number
        if oid not in board.available:
            return {"rule": "LF-6", "why": "unavailable", "objective": oid,
                    "available": list(board.available)}
        obj = spec.objective(oid)
        if not judge:
            return None
        waters = [me.waters[b] for b in action.buckets]
        caps = [me.caps[b] for b in action.buckets]
        if not obj.predicate.holds(waters, caps):
            return _unmet(oid, action, waters)
    elif action.verb == "modify":
        b = action.buckets[0]
        assert action.number is not None
        new = me.caps[b] + action.number
        if new < me.waters[b]:
            return {"rule": "LF-9", "why": "below_water", "bucket": _name(b),
                    "water": me.waters[b], "capacity": new}
    return None


def _unmet(oid: int, action: Action, waters: list[int]) -> Void:
    return {"rule": "LF-6", "why": "unmet", "objective": oid,
            "buckets": [_name(b) for b in action.buckets], "waters": waters}


# The two helpers below build the new SeatBoard with its constructor rather than
# ``dataclasses.replace``, which looks every field up again: they run several times per tick
# of every match, and the result is the same object value.
def _with_water(seat: SeatBoard, b: int, value: int) -> SeatBoard:
    waters = list(seat.waters)
    waters[b] = value
    return SeatBoard(tuple(waters), seat.caps, seat.points, seat.powerups, seat.last_fill)


def _spend(seat: SeatBoard, powerup: str) -> SeatBoard:
    counts = list(seat.powerups)
    counts[POWERUPS.index(powerup)] -= 1
    return SeatBoard(seat.waters, seat.caps, seat.points, tuple(counts), seat.last_fill)


def step(spec: SessionSpec, board: Board, actions: Mapping[int, Action]
         ) -> tuple[Board, tuple[Outcome, ...]]:
    """Process the boundary that starts tick ``board.tick + 1`` (LF-3)."""
    t = board.tick + 1
    seats = list(board.seats)
    basins = list(board.basins)
    basin_index = spec.basin_index
    outcomes: dict[int, Outcome] = {}
    live: dict[int, Action] = {}
    for seat, action in sorted(actions.items()):
        if action.verb == "pass":
            continue
        void = void_of(spec, board, seat, action, t, judge=False)
        if void is not None:
            outcomes[seat] = Outcome(seat, action, False, void=void)
            continue
        live[seat] = action

    # 1. Lock (LF-9): the new locks hold from this boundary on.
    locks = [lk for lk in board.locks if lk.until >= t]
    acting = sorted(live.items())  # sorted once per stage, not in every loop
    for seat, action in acting:
        if action.verb == "lock":
            locks.append(Lock(owner=1 - seat, bucket=action.buckets[0], until=t + LOCK_SPAN, by=seat))
            seats[seat] = _spend(seats[seat], "lock")
            outcomes[seat] = Outcome(seat, action, True)
    for seat, action in acting:
        if action.verb == "lock" or not locks:
            continue
        owner = 1 - seat if action.opponent else seat
        hit = [b for b in action.buckets
               if any(lk.owner == owner and lk.bucket == b and lk.until >= t for lk in locks)]
        if hit:
            outcomes[seat] = Outcome(seat, action, False, void={
                "rule": "LF-9", "why": "locked", "bucket": _name(hit[0]), "theirs": owner != seat})
    live = {s: a for s, a in live.items() if s not in outcomes}
    acting = sorted(live.items())

    # 2. Sip: both sips land, never below 0.
    for seat, action in acting:
        if action.verb == "sip":
            owner = 1 - seat if action.opponent else seat
            b = action.buckets[0]
            seats[seat] = _spend(seats[seat], "sip")
            seats[owner] = _with_water(seats[owner], b, max(0, seats[owner].waters[b] - 1))
            outcomes[seat] = Outcome(seat, action, True)

    # 3. Complete (LF-6): judged on the board after the sips; both seats may take one objective.
    completed: list[int] = []
    for seat, action in acting:
        if action.verb != "complete":
            continue
        assert action.number is not None
        obj = spec.objective(action.number)
        me = seats[seat]
        waters = [me.waters[b] for b in action.buckets]
        caps = [me.caps[b] for b in action.buckets]
        if not obj.predicate.holds(waters, caps):
            outcomes[seat] = Outcome(seat, action, False, void=_unmet(obj.id, action, waters))
            continue
        for b in action.buckets:
            me = _with_water(me, b, 0)
        counts = tuple(x + y for x, y in zip(me.powerups, obj.reward.powerups, strict=True))
        seats[seat] = replace(me, points=me.points + obj.reward.points, powerups=counts)
        outcomes[seat] = Outcome(seat, action, True, reward=obj.reward)
        if obj.id not in completed:
            completed.append(obj.id)
    available = [oid for oid in board.available if oid not in completed]
    queue = list(board.queue)
    while queue and len(available) < spec.available:
        available.append(queue.pop(0))

    # 4. Fill (LF-4, LF-5): the ankh holder first when both fill from one basin.
    ankh = board.ankh
    fills = {s: a for s, a in live.items() if a.verb == "fill"}
    order = sorted(fills)
    if len(fills) == 2 and fills[0].basin == fills[1].basin:
        order = [ankh, 1 - ankh]
        ankh = 1 - ankh
    for seat in order:
        action = fills[seat]
        assert action.basin is not None
        i = basin_index[action.basin]
        b = action.buckets[0]
        me = seats[seat]
        amount = min(me.caps[b] - me.waters[b], basins[i].amount)
        basins[i] = Basin(basins[i].amount - amount, basins[i].clock)
        waters = list(me.waters)
        waters[b] += amount
        seats[seat] = SeatBoard(tuple(waters), me.caps, me.points, me.powerups, t)
        outcomes[seat] = Outcome(seat, action, True, water=amount)

    # 5. Drain, optionally into a basin.
    for seat, action in acting:
        if action.verb != "drain":
            continue
        b = action.buckets[0]
        amount = seats[seat].waters[b]
        seats[seat] = _with_water(seats[seat], b, 0)
        if action.basin is not None:
            i = basin_index[action.basin]
            basins[i] = Basin(basins[i].amount + amount, basins[i].clock)
        outcomes[seat] = Outcome(seat, action, True, water=amount)

    # 6. Modify, Transfer, Exchange: each on the seat's own buckets only.
    for seat, action in acting:
        me = seats[seat]
        if action.verb == "transfer":
            a, b = action.buckets
            moved = min(me.waters[a], me.caps[b] - me.waters[b])
            me = _with_water(_with_water(me, a, me.waters[a] - moved), b, me.waters[b] + moved)
            outcomes[seat] = Outcome(seat, action, True, water=moved)
        elif action.verb == "exchange":
            a, b = action.buckets
            wa, wb = me.waters[a], me.waters[b]
            me = _spend(_with_water(_with_water(me, a, min(wb, me.caps[a])), b, min(wa, me.caps[b])),
                        "exchange")
            outcomes[seat] = Outcome(seat, action, True)
        elif action.verb == "modify":
            b = action.buckets[0]
            assert action.number is not None
            new = me.caps[b] + action.number
            if new < me.waters[b]:
                outcomes[seat] = Outcome(seat, action, False, void={
                    "rule": "LF-9", "why": "below_water", "bucket": _name(b),
                    "water": me.waters[b], "capacity": new})
                continue
            caps = list(me.caps)
            caps[b] = new
            me = _spend(replace(me, caps=tuple(caps)), "modify")
            outcomes[seat] = Outcome(seat, action, True)
        else:
            continue
        seats[seat] = me

    # 7. Accelerate (LF-8): the basin's own clock jumps ahead.
    for seat, action in acting:
        if action.verb == "accelerate":
            assert action.basin is not None and action.number is not None
            i = basin_index[action.basin]
            before = basins[i].amount
            basins[i] = advance(spec.basins[i], basins[i], action.number)
            seats[seat] = _spend(seats[seat], "accelerate")
            outcomes[seat] = Outcome(seat, action, True, water=basins[i].amount - before)

    # 8. The basins' own additions for tick t.
    basins = [advance(spec.basins[i], basin) for i, basin in enumerate(basins)]

    after = Board(
        tick=t,
        seats=tuple(seats),
        basins=tuple(basins),
        available=tuple(available),
        queue=tuple(queue),
        locks=tuple(sorted(locks, key=lambda lk: (lk.owner, lk.bucket, lk.until, lk.by))),
        ankh=ankh,
    )
    return after, tuple(outcomes[s] for s in sorted(outcomes))
