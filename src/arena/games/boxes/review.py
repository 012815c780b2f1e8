"""The post-match review of Box within a Box within a Box: every bet and pick of each seat in
expected points against the expectimax's best choice at that moment.

The expectimax follows one box through the rest of the bout (:mod:`arena.games.boxes.expectimax`,
the model of the odds helper): the seat judged takes the best option in its own rounds, the
other seat's rounds are the deck's odds (every playable card, then every legal movement of it,
alike), and a card leaves the pool when it is played on this box (the other box's draws on
the pool are not modelled). What it knows:

- **picks on the seat's own box** (rounds 2 and 4, BX-6): what the seat knew then, its own
  bets, the public board, box and remaining cards. A landing is worth its stakes times the
  multipliers of the bets it meets (BX-5); the value is the bets' expected payout from this
  round to the bout's end. The search is exact.
- **picks on the opponent's box** (rounds 1 and 3) are not judged: their worth hangs on the
  opponent's bets, sealed while the seat picked (BX-13). Judged with the bets the bout's end
  revealed, every careful pick looked costly (hindsight the seat never had, in amounts that
  buried its real mistakes), so the review leaves them out. ``_judge_round`` can still judge
  them, for a yardstick that wants hindsight.
- **bets**: what the seat knew then (boards, box, the bout's cards, its usage). A bet's
  value is the expected payout of the bout's four rounds, the seat steering its box for its
  own bets, minus the stakes. The best is searched among bets that stake **the same total**:
  expected points alone would always say to stake everything on one condition, a risk that
  can lose the match at the first miss, so the review judges what was bet on and how the
  stake was split, not how much was risked. The stakes' value is convex, so the best split
  puts all but 1 on one condition (BX-4: every bet at least 1); the conditions tried are the
  seat's own and those a two-round search ranks highest, so ``exact`` is False.

A decision is ``public`` when every seat saw it as it was made: picks are revealed when their
round ends (BX-13) and the values of those of a bout whose bets the match revealed; bets are
sealed until the bout's end, so never.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from arena.core.judging import Judgement, Step
from arena.games.boxes.bets import Bet, Bets
from arena.games.boxes.bot import CONDITIONS, allowed
from arena.games.boxes.conditions import Usage, add_usage
from arena.games.boxes.expectimax import Expectimax, Options, outcome_key
from arena.games.boxes.odds import KINDS, codes, roles_for_round
from arena.games.boxes.picks import Pick
from arena.games.boxes.state import BET, PICK, ROUNDS, BoxesState

UNIT = "expected points"
MAINS = 4
"""Conditions tried as the main bet (besides the seat's own) when searching the best bet."""
ROLE = {"self": "max", "opp": "random"}
"""A seat's own rounds are its choice; the other seat's are the deck's odds."""
AGAINST = {"self": "random", "opp": "min"}
"""On the opponent's box, seen from the seat judged: it picks the fewest expected points
for the owner in its rounds (``opp``), the owner's rounds are the deck's odds."""
EPS = 1e-9


def weights(bets: Sequence[Bet]) -> np.ndarray:
    """What a landing on each tile kind pays the holder of ``bets`` (BX-5), by kind code."""
    return np.array([sum(float(b.condition.multiplier) * b.stake for b in bets
                         if b.condition.matches(t)) for t in KINDS])


def own_pick_values(state: BoxesState, seat: int) -> dict[str, float]:
    """Each pick (notation) the seat may make on its own box now, valued by the expectimax:
    the yardstick of ``bench/yardstick_boxes.py``."""
    roles = [tuple(ROLE[r] for r in roles_for_round(state.round))]
    search = Expectimax({n: state.card(n) for n in state.hand},
                        weights(state.bets[seat])[None, :], roles)
    opts = search.options(bytes(codes(state.boards[seat])), state.boxes[seat],
                          tuple(sorted(state.hand)))
    if opts is None:
        return {}
    return {str(m): float(v[0]) for m, v in zip(opts.moves, opts.values, strict=True)}


# --- words ------------------------------------------------------------------------------------
def points(x: float) -> str:
    """Expected points for people: one decimal at most, digits grouped."""
    text = f"{x:,.1f}"
    return text[:-2] if text.endswith(".0") else text


def bets_words(bets: Sequence[Bet]) -> str:
    parts = [f"{b.stake:,} on {b.condition.words()}" for b in bets]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def gain_words(x: float) -> str:
    if abs(x) < 0.05:
        return "expected to break even"
    return f"expected to {'gain' if x > 0 else 'lose'} {points(abs(x))} points"


# --- bets -------------------------------------------------------------------------------------
def _candidates(state: BoxesState, seat: int, mine: tuple[Bet, ...]) -> list[tuple[Bet, ...]]:
    """Bets with the seat's total stake, all but 1 a bet on one condition (the vertices of
    the convex value, BX-4), the main conditions the seat's own and those worth most over the
    next two rounds with the seat steering for them, the others the best the limits allow."""
    total = sum(b.stake for b in mine)
    need = len(mine)
    usage = state.usage[seat]
    cards = {n: state.card(n) for n in state.hand}
    table = np.array([[float(c.multiplier) if c.matches(t) else 0.0 for t in KINDS]
                      for c in CONDITIONS])
    two = [tuple(ROLE[r] for r in roles_for_round(1)[:2])] * len(CONDITIONS)
    quick = Expectimax(cards, table, two).value(bytes(codes(state.boards[seat])),
                                                state.boxes[seat], tuple(sorted(state.hand)))
    order = [i for i in np.argsort(-quick, kind="stable") if allowed(usage, CONDITIONS[int(i)])]
    ranked = [CONDITIONS[int(i)] for i in order]
    mains = [b.condition for b in mine] + [c for c in ranked[:MAINS]
                                           if c not in {b.condition for b in mine}]
    out: list[tuple[Bet, ...]] = []
    for main in mains:
        chosen = [main]
        used: Usage = add_usage(usage, main)
        pool = [b.condition for b in mine] + ranked if main in {b.condition for b in mine} \
            else ranked
        for c in pool:
            if len(chosen) == need:
                break
            if c not in chosen and allowed(used, c):
                chosen.append(c)
                used = add_usage(used, c)
        if len(chosen) == need:
            out.append(tuple(Bet(c, total - (need - 1) if c == main else 1) for c in chosen))
    return out


@dataclass
class _BoxSearch:
    """The bout's first-round search of one box: its owner's bets and the other seat's
    first pick on it, in one walk of the tree."""

    search: Expectimax
    bet_sets: list[tuple[Bet, ...]]
    pick_column: int | None
    root: tuple[bytes, int, tuple[int, ...]]


def _box_search(state: BoxesState, owner: int, mine: tuple[Bet, ...],
                paying: tuple[Bet, ...]) -> _BoxSearch:
    sets = [mine, *_candidates(state, owner, mine)] if mine else []
    cols = [weights(s) for s in sets]
    roles: list[tuple[str, ...]] = [tuple(ROLE[r] for r in roles_for_round(1))] * len(sets)
    pick_column = None
    if paying:
        pick_column = len(cols)
        cols.append(weights(paying))
        roles.append(tuple(AGAINST[r] for r in roles_for_round(1)))
    search = Expectimax({n: state.card(n) for n in state.hand},
                        np.array(cols) if cols else np.zeros((0, 20)), roles)
    root = (bytes(codes(state.boards[owner])), state.boxes[owner], tuple(sorted(state.hand)))
    return _BoxSearch(search, sets, pick_column, root)


def _judge_bets(seat: int, step: Step[BoxesState], box: _BoxSearch) -> Judgement | None:
    if not box.bet_sets:
        return None
    values = box.search.value(*box.root)
    total = sum(b.stake for b in box.bet_sets[0])
    nets = [float(values[i]) - total for i in range(len(box.bet_sets))]
    mine, best_i = nets[0], max(range(len(nets)), key=lambda i: (nets[i], -i))
    best = max(mine, nets[best_i])
    did = f"bet {bets_words(box.bet_sets[0])}: {gain_words(mine)}"
    if best - mine <= EPS * max(1.0, abs(best)):
        better = f"the best split of those {total:,} points found"
        best = mine
    else:
        better = (f"with the same {total:,} points staked, {bets_words(box.bet_sets[best_i])} "
                  f"was {gain_words(best)}")
    return Judgement(seat, step.version, step.name, did, better, mine, best, UNIT,
                     max(0.0, best - mine), exact=False, public=False)


# --- picks ------------------------------------------------------------------------------------
def _pick_judgement(seat: int, step: Step[BoxesState], opts: Options, col: int, sign: float,
                    played: Pick | None, idle: float | None, own: bool, revealed: bool
                    ) -> Judgement:
    """One pick: ``sign`` turns the owner's expected payout into the seat's points (minus
    on the opponent's box); ``idle`` is the value of making no move (no pick stood)."""
    state = step.before
    vals = sign * opts.values[:, col]
    best_i = int(np.argmax(vals))
    best = float(vals[best_i])
    board = "AB"[state.target_board(seat)]
    where = (f"on board {board}, its own box" if own else
             f"on board {board}, the opponent's box")
    what = "from its bets" if own else "to the opponent from their bets"
    if played is None:
        value = sign * (idle or 0.0)
        did = f"made no pick {where}: {points(abs(value))} expected points {what}"
    else:
        m = played.movement
        key = outcome_key(m, state.card(m.card))
        row = next(i for i, r in enumerate(opts.moves)
                   if outcome_key(r, state.card(r.card)) == key)
        value = float(vals[row])
        did = f"played {m.words()} {where}: {points(abs(value))} expected points {what}"
    best = max(best, value)
    if best - value <= EPS * max(1.0, abs(best)):
        better = "the best pick"
        value = best
    else:
        better = (f"{opts.moves[best_i].words()} was worth {points(abs(best))} expected "
                  f"points {what}")
    return Judgement(seat, step.version, step.name, did, better, value, best, UNIT,
                     best - value, exact=True, public=revealed)


def _judge_round(seat: int, step: Step[BoxesState], revealed: bool,
                 first: _BoxSearch | None, *, hindsight: bool = False) -> Judgement | None:
    state = step.before
    b = state.target_board(seat)
    own = b == seat
    paying = state.bets[b]
    sub = step.outcome.standing.get(seat)
    played = sub.value if sub is not None and isinstance(sub.value, Pick) else None
    if sub is not None and not isinstance(sub.value, Pick):
        return None  # a pass: no card could move the box (BX-7), nothing to choose
    if not paying:
        return None  # nothing rides on this box's landings
    if not own and not hindsight:
        return None  # the opponent's bets were sealed when it picked (see the module text)
    if state.round == 1 and first is not None and first.pick_column is not None:
        search, col = first.search, first.pick_column
    else:
        role = ROLE if own else AGAINST
        search = Expectimax({n: state.card(n) for n in state.hand}, weights(paying)[None, :],
                            [tuple(role[r] for r in roles_for_round(state.round))])
        col = 0
    root = (bytes(codes(state.boards[b])), state.boxes[b], tuple(sorted(state.hand)))
    opts = search.options(*root)
    if opts is None:
        return None
    idle = None if played is not None else float(search.value(root[0], root[1], root[2],
                                                              1)[col])
    return _pick_judgement(seat, step, opts, col, 1.0 if own else -1.0, played, idle, own,
                           revealed)


def _named(j: Judgement | None, names: Sequence[str]) -> Judgement | None:
    """The words as a sentence that names the seat: the seat, the host and the audience read
    the same ones."""
    if j is None:
        return None
    did, better = f"{names[j.seat]} {j.did}.", f"{j.better}."
    return replace(j, did=did[:1].upper() + did[1:], better=better[:1].upper() + better[1:])


def review(steps: Sequence[Step[BoxesState]], final: BoxesState,
           names: Sequence[str] = ("Seat 1", "Seat 2")) -> list[Judgement]:
    """Every seat's bets and picks, in match order (see the module's docstring)."""
    settled = {r.bout for r in final.records}
    out: list[Judgement] = []
    firsts: dict[tuple[int, int], _BoxSearch] = {}
    for step in steps:
        state = step.before
        if state.stage == BET:
            bets: list[tuple[Bet, ...]] = []
            for seat in (0, 1):
                sub = step.outcome.standing.get(seat)
                bets.append(sub.value.bets if sub is not None and isinstance(sub.value, Bets)
                            else ())
            mine = (bets[0], bets[1])
            for owner in (0, 1):
                box = _box_search(state, owner, mine[owner], mine[owner])
                firsts[(state.bout, owner)] = box
                judged = _named(_judge_bets(owner, step, box), names)
                if judged is not None:
                    out.append(judged)
        elif state.stage == PICK and 1 <= state.round <= ROUNDS:
            for seat in (0, 1):
                first = firsts.get((state.bout, state.target_board(seat)))
                judged = _named(_judge_round(seat, step, state.bout in settled, first), names)
                if judged is not None:
                    out.append(judged)
    return out

