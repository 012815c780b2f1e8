"""The random-but-legal Feather player, at the speed of the rules.

It draws what :func:`arena.games.feather.bot.random_legal` draws, an action uniform among
the legal ones of :func:`arena.games.feather.bot.legal_actions` (every verb on every bucket
and basin, the powerups held, one bucket set per completable objective), without checking
every candidate each tick: the candidates other than Complete depend only on the session and
on which powerups the seat holds, so they are listed once per such pair, and a draw uniform
over all candidates is checked (LF-4, LF-6, LF-9) and retried until one is legal (rejection
sampling keeps the choice uniform over the legal ones; when few are legal it lists them).
"""

from __future__ import annotations

import random

from arena.core.errors import RuleError
from arena.games.feather.actions import Action
from arena.games.feather.bot import completable, meeting_subsets
from arena.games.feather.objectives import POWERUPS
from arena.games.feather.scenario import SessionSpec
from arena.games.feather.tick import Board, check_action

DRAWS = 16
"""Uniform draws over every candidate before the legal ones are listed instead."""
CACHE_LIMIT = 256

_lists: dict[tuple[int, tuple[bool, ...]], tuple[SessionSpec, tuple[Action, ...]]] = {}


def candidates(spec: SessionSpec, held: tuple[bool, ...]) -> tuple[Action, ...]:
    """Every action but Complete a seat holding the powerups ``held`` (in the order of
    :data:`POWERUPS`) might take, in the order of ``bot.legal_actions``; remembered per
    session (by identity: a spec's hash walks all of it) and holding."""
    key = (id(spec), held)
    got = _lists.get(key)
    if got is not None and got[0] is spec:
        return got[1]
    has = dict(zip(POWERUPS, held, strict=True))
    n = len(spec.capacities)
    cands: list[Action] = [Action("pass")]
    for i in range(n):
        cands.append(Action("drain", (i,)))
        cands += [Action("drain", (i,), basin=name) for name in spec.basin_names]
        cands += [Action("fill", (i,), basin=name) for name in spec.basin_names]
        cands += [Action("transfer", (i, j)) for j in range(n) if j != i]
        if has["modify"]:
            cands += [Action("modify", (i,), number=d) for d in (-2, -1, 0, 1, 2)]
        if has["sip"]:
            cands += [Action("sip", (i,)), Action("sip", (i,), opponent=True)]
        if has["lock"]:
            cands.append(Action("lock", (i,), opponent=True))
        if has["exchange"]:
            cands += [Action("exchange", (i, j)) for j in range(i + 1, n)]
    if has["accelerate"]:
        cands += [Action("accelerate", basin=name, number=k) for name in spec.basin_names
                  for k in (1, 5, 10)]
    if len(_lists) > CACHE_LIMIT:
        _lists.clear()
    out = tuple(cands)
    _lists[key] = (spec, out)
    return out


def _legal(spec: SessionSpec, board: Board, seat: int, action: Action) -> bool:
    try:
        check_action(spec, board, seat, action)
    except RuleError:
        return False
    return True


def _complete(spec: SessionSpec, board: Board, seat: int, oid: int) -> Action | None:
    """The Complete of available objective ``oid`` that ``bot.completable`` lists (its
    smallest meeting bucket set, LF-6), or None when the seat's buckets do not meet it."""
    me = board.seats[seat]
    at = board.tick + 1
    usable = [i for i in range(len(me.waters)) if not board.locked(seat, i, at)]
    for combo in meeting_subsets(spec.objective(oid).predicate, me.waters, me.caps, usable):
        return Action("complete", combo, number=oid)
    return None


def random_action(spec: SessionSpec, board: Board, seat: int, rng: random.Random) -> Action:
    """An action uniform among the legal ones of ``seat`` for the next boundary.

    A draw is uniform over the candidates and one slot per available objective; a slot
    stands for that objective's Complete when the buckets meet it and is drawn again
    otherwise, so the Completes are found only for the slots drawn."""
    me = board.seats[seat]
    base = candidates(spec, tuple(n > 0 for n in me.powerups))
    total = len(base) + len(board.available)
    for _ in range(DRAWS):
        i = rng.randrange(total)
        action = (base[i] if i < len(base)
                  else _complete(spec, board, seat, board.available[i - len(base)]))
        if action is not None and _legal(spec, board, seat, action):
            return action
    completes = [Action("complete", combo, number=obj.id)
                 for obj, combo in completable(spec, board, seat)]
    return rng.choice([a for a in (*base, *completes) if _legal(spec, board, seat, a)])


def random_legal(spec: SessionSpec, board: Board, seat: int, rng: random.Random) -> str:
    """A uniformly random legal action, as notation."""
    return str(random_action(spec, board, seat, rng))
