"""The random-but-legal Boxes player, at the speed of the rules.

It draws what the careful bot's random mode drew (uniform among the conditions still allowed,
then random whole stakes; uniform among the playable cards in hand, then among their
movements) without listing every allowed condition through the BX-3 usage arithmetic on each
draw: each condition's traits are indexed once, a draw is checked against the usage counts
directly, and a uniform draw over all conditions is retried until it is allowed (rejection
sampling keeps the choice uniform over the allowed ones; when few are left it lists them).
No NumPy here: a random match does not pay for the careful bot's imports.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

from arena.games.boxes.bets import Bet, bets_text, required_count
from arena.games.boxes.conditions import COLOURS, LIMIT, TRAITS, Condition, Usage, make_condition
from arena.games.boxes.movement import movements
from arena.games.boxes.picks import playable
from arena.games.boxes.state import BET, PICK, STUDY_BOARDS, STUDY_CARDS, BoxesState


def all_conditions() -> list[Condition]:
    """Every condition BX-3 allows (12 single traits, 131 pairs), in the bot's order."""
    out = [make_condition([t]) for t in TRAITS]
    for a, b in itertools.combinations(TRAITS, 2):
        out.append(make_condition([a, b], "and"))
        if {a, b} != set(COLOURS):
            out.append(make_condition([a, b], "or"))
    return out


CONDITIONS = all_conditions()
_INDEX = {t: i for i, t in enumerate(TRAITS)}
TRAIT_INDEXES = [tuple(_INDEX[t] for t in c.traits) for c in CONDITIONS]
"""For each condition of :data:`CONDITIONS`, the positions of its traits in a usage tuple."""
_LIMITS = tuple(LIMIT[t] for t in TRAITS)
DRAWS = 24
"""Uniform draws over all conditions before the allowed ones are listed instead."""


def _fits(used: list[int], k: int) -> bool:
    """Whether condition ``k`` keeps every trait within its BX-3 limit."""
    return all(used[i] < _LIMITS[i] for i in TRAIT_INDEXES[k])


def _draw(used: list[int], taken: set[int], rng: random.Random) -> int | None:
    """A condition index uniform among those allowed and not yet taken, or None."""
    n = len(CONDITIONS)
    for _ in range(DRAWS):
        k = rng.randrange(n)
        if k not in taken and _fits(used, k):
            return k
    options = [k for k in range(n) if k not in taken and _fits(used, k)]
    return rng.choice(options) if options else None


def random_bets(points: Fraction, usage: Usage, rng: random.Random) -> tuple[Bet, ...]:
    """Random different conditions within the BX-3 usage limits and random whole stakes
    (BX-4: the required number of conditions, at least 1 point each)."""
    need = required_count(points, usage)
    if need == 0:
        return ()
    chosen: list[int] = []
    for _ in range(40):
        used = list(usage)
        chosen = []
        for _ in range(need):
            k = _draw(used, set(chosen), rng)
            if k is None:
                break
            chosen.append(k)
            for i in TRAIT_INDEXES[k]:
                used[i] += 1
        if len(chosen) == need:
            break
    conds = ([CONDITIONS[k] for k in chosen] if len(chosen) == need
             else _fallback_conditions(usage, need))
    budget = math.floor(points)
    stakes = [1] * need
    if budget >= 3:
        for _ in range(rng.randint(0, budget - need)):
            stakes[rng.randrange(need)] += 1
    return tuple(Bet(c, s) for c, s in zip(conds, stakes, strict=True))


def _fallback_conditions(usage: Usage, need: int) -> list[Condition]:
    """Singles of the traits left, and their 'and' when only two are left (BX-3)."""
    left = [t for t, n in zip(TRAITS, usage, strict=True) if LIMIT[t] - n > 0]
    conds = [make_condition([t]) for t in left]
    if len(left) == 2:
        conds.append(make_condition(left, "and"))
    return conds[:need]


def random_pick(state: BoxesState, seat: int, rng: random.Random) -> str:
    """A card of the hand uniform among the playable ones, then one of its movements;
    'pass' only when no card can move the box (BX-7)."""
    can = set(playable(state, seat))
    cards = [n for n in state.hand if n in can]
    if not cards:
        return "pass"
    number = rng.choice(cards)
    b = state.target_board(seat)
    return str(rng.choice(movements(state.card(number), state.boxes[b])))


def random_legal(state: BoxesState, seat: int, rng: random.Random) -> str | None:
    """A random legal submission for the current stage (None when the seat has none)."""
    if state.stage in (STUDY_BOARDS, STUDY_CARDS):
        return "ready"
    if state.stage == BET:
        return bets_text(random_bets(state.points[seat], state.usage[seat], rng))
    if state.stage == PICK:
        return random_pick(state, seat, rng)
    return None
