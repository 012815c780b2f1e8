"""Bots for Box within a Box within a Box: a careful one and a random-but-legal one.

The careful bot bets by sampling the bout's play (both boxes, the shared pool of cards; the
box's controller choosing high-landing cards, the opponent low-landing ones, with some noise)
and counting how often each tile kind (number, colour) is landed on by its own box. Every
condition's landings follow from those counts; the main bet is the condition and stake that
maximise the expected logarithm of its points (a Kelly stake, so one bad bout cannot ruin it),
the others are single numbers with the best expected value at stake 1, keeping the scarce
colour uses (BX-3) for main bets.

In play it searches its own box's remaining rounds exactly (:mod:`arena.games.boxes.odds`) with
each tile worth its bets' stakes times their multipliers, itself maximising and the opponent's
rounds at the deck's odds (the opponent does not see the bets, so the worst case over them
threw value away): the expectimax the post-match review judges by
(:mod:`arena.games.boxes.review`). On the opponent's box it minimises the number of landings
with the same search. The bot reads only what its seat may see (its own bets, the public
boards).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence

import numpy as np

from arena.games.boxes.bets import Bet, bets_text, parse_bets, required_count
from arena.games.boxes.board import Board, Tile
from arena.games.boxes.conditions import (
    COLOURS,
    TRAITS,
    Condition,
    Usage,
    add_usage,
    make_condition,
    over_limit,
)
from arena.games.boxes.movement import movements
from arena.games.boxes.odds import (
    Search,
    after_move,
    codes,
    outcomes,
    roles_for_round,
)
from arena.games.boxes.picks import playable

# The random player (tests, benches, the bot's fallback) draws without enumerating every
# condition; the bot re-exports it for its callers.
from arena.games.boxes.randomplay import random_bets
from arena.games.boxes.randomplay import random_legal as random_legal
from arena.games.boxes.randomplay import random_pick as random_pick
from arena.games.boxes.state import BET, PICK, ROUNDS, STUDY_BOARDS, STUDY_CARDS, BoxesState

SAMPLES = 48
NOISE = 0.25
LOOKAHEAD = 3
"""Rounds searched from the current one (the current included): on its own box a seat picks
in rounds 2 and 4, so its search there always reaches the bout's end."""
OWN_BOX_OPPONENT = "random"
"""How the search on its own box takes the opponent's rounds: the deck's odds. Taking the
opponent as one who steers for few landings (:data:`arena.games.boxes.odds.MODEL`, this
bot's model before) reached 99.3% of the expectimax's value, stake-weighted (60 matches,
bootstrap 98.8-99.7%), and won no more: the expectimax bot won 61 of 120 matches against it
(bench/yardstick_boxes.py)."""


def all_conditions() -> list[Condition]:
    """Every condition BX-3 allows (12 single traits, 131 pairs)."""
    out = [make_condition([t]) for t in TRAITS]
    for a, b in itertools.combinations(TRAITS, 2):
        out.append(make_condition([a, b], "and"))
        if {a, b} != set(COLOURS):
            out.append(make_condition([a, b], "or"))
    return out


CONDITIONS = all_conditions()
_BIN = {(n, black): 2 * n + int(black) for n in range(10) for black in (False, True)}
MATCH = np.array([[1.0 if c.matches(Tile(n, black)) else 0.0 for c in CONDITIONS]
                  for n in range(10) for black in (False, True)])
"""20 tile kinds x conditions: 1 where the condition is met."""
MULT = np.array([float(c.multiplier) for c in CONDITIONS])


def allowed(usage: Usage, cond: Condition) -> bool:
    return not over_limit(add_usage(usage, cond))




# --- the careful player ------------------------------------------------------------------------
def decide(state: BoxesState, seat: int, rng: random.Random) -> str | None:
    if state.stage in (STUDY_BOARDS, STUDY_CARDS):
        return "ready"
    if state.stage == BET:
        text = bets_text(choose_bets(state, seat, rng))
        parse_bets(text, state.points[seat], state.usage[seat])  # a bot bug fails loudly
        return text
    if state.stage == PICK:
        return choose_pick(state, seat, rng)
    return None


def sample_landings(state: BoxesState, seat: int, rng: random.Random,
                    samples: int = SAMPLES) -> np.ndarray:
    """samples x 20 counts of the tile kinds the seat's own box lands on in sampled play."""
    out = np.zeros((samples, 20))
    for k in range(samples):
        boards = list(state.boards)
        boxes = list(state.boxes)
        hand = list(state.hand)
        for r in range(max(state.round, 1), ROUNDS + 1):
            chosen: list[int] = []
            for s in (0, 1):
                b = state.target_board(s, r)
                options = [(state.card(n), m) for n in dict.fromkeys(hand)
                           for m, _ in outcomes(state.card(n), boxes[b])]
                if not options:
                    continue
                if rng.random() < NOISE:
                    card, m = rng.choice(options)
                else:
                    sign = 1 if b == s else -1
                    best = max(sign * len(m.landings) for _, m in options)
                    card, m = rng.choice([o for o in options
                                          if sign * len(o[1].landings) == best])
                if b == seat:
                    for c in m.landings:
                        t = boards[b][c]
                        out[k, _BIN[(t.number, t.black)]] += 1
                boards[b] = after_move(boards[b], card, m)
                boxes[b] = m.final
                chosen.append(card.number)
            for n in chosen:
                if n in hand:
                    hand.remove(n)
    return out


def _kelly(points: float, others: int, mult: float, hits: np.ndarray) -> tuple[float, int]:
    """(expected log points, stake) of the best stake on one condition; one pseudo-sample
    with no hit keeps the stake off an all-in that the samples happened not to punish."""
    budget = math.floor(points) - others
    ks = np.append(hits, 0.0)
    best = (-math.inf, 1)
    grid = sorted({1, budget, *(max(1, round(budget * f)) for f in
                                 (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9))})
    for s in grid:
        if s < 1 or s > budget:
            continue
        wealth = points - others - s + mult * s * ks
        value = float(np.mean(np.log(np.maximum(wealth, 1e-6))))
        if value > best[0]:
            best = (value, s)
    return best


def choose_bets(state: BoxesState, seat: int, rng: random.Random,
                samples: int = SAMPLES, caution: float = 1.0) -> tuple[Bet, ...]:
    """The hard bot's bets; ``normal`` passes fewer ``samples`` (a rougher reading of the
    odds) and a ``caution`` below 1, the share of the Kelly stake it dares (G-8)."""
    points = state.points[seat]
    usage = state.usage[seat]
    need = required_count(points, usage)
    if need == 0:
        return ()
    counts = sample_landings(state, seat, rng, samples)
    hits = counts @ MATCH  # samples x conditions
    mean = hits.mean(axis=0)
    ev = MULT * mean - 1.0
    idx = [i for i, c in enumerate(CONDITIONS) if allowed(usage, c)]
    if math.floor(points) < 3:
        order = sorted(idx, key=lambda i: -ev[i])
        return _distinct(order, need, usage)
    main_choices = sorted(idx, key=lambda i: -ev[i])[:10]
    scored = [(_kelly(float(points), need - 1, float(MULT[i]), hits[:, i]), i)
              for i in main_choices]
    (_, stake), main = max(scored, key=lambda x: x[0][0])
    if caution != 1.0:
        stake = max(1, round(stake * caution))
    bets = [Bet(CONDITIONS[main], stake)]
    used = add_usage(usage, CONDITIONS[main])
    singles = [i for i in sorted(idx, key=lambda i: -ev[i])
               if CONDITIONS[i].op == "" and CONDITIONS[i].traits[0] not in COLOURS]
    rest = [i for i in sorted(idx, key=lambda i: -ev[i]) if i not in singles]
    for i in singles + rest:
        if len(bets) == need:
            break
        c = CONDITIONS[i]
        if c in (b.condition for b in bets) or not allowed(used, c):
            continue
        bets.append(Bet(c, 1))
        used = add_usage(used, c)
    if len(bets) < need:
        return random_bets(points, usage, rng)
    return tuple(bets)


def _distinct(order: list[int], need: int, usage: Usage) -> tuple[Bet, ...]:
    """The first ``need`` conditions of ``order`` the limits allow, at stake 1 (BX-4)."""
    bets: list[Bet] = []
    used = usage
    for i in order:
        c = CONDITIONS[i]
        if len(bets) == need:
            break
        if allowed(used, c):
            bets.append(Bet(c, 1))
            used = add_usage(used, c)
    return tuple(bets)


def bet_weight(bets: Sequence[Bet]) -> dict[Tile, float]:
    """What a landing on each tile kind is worth to the holder of ``bets`` (BX-5)."""
    out: dict[Tile, float] = {}
    for n in range(10):
        for black in (False, True):
            t = Tile(n, black)
            out[t] = sum(float(b.condition.multiplier) * b.stake
                         for b in bets if b.condition.matches(t))
    return out


def best_option(state: BoxesState, board: Board, box: int, weight: dict[Tile, float],
                roles: tuple[str, ...], rng: random.Random) -> str | None:
    """The pick (as notation) that is best for the role at the root (``self`` maximises the
    searched value, ``opp`` minimises it)."""
    cards = {n: state.card(n) for n in state.hand}
    search = Search(cards, lambda t: weight[t], roles)
    sign = 1.0 if roles[0] == "self" else -1.0
    best: tuple[float, float] | None = None
    picks: list[str] = []
    hand = tuple(sorted(state.hand))
    coded = codes(board)
    for number in dict.fromkeys(hand):
        card = cards[number]
        rest = list(hand)
        rest.remove(number)
        for m, _ in outcomes(card, box):
            gain, _, nb = search.step(coded, m, card)
            e, _ = search.value(nb, m.final, tuple(rest), 1)
            # Prefer, among equals, fewer landings on the opponent's box / more on ours.
            score = (sign * (gain + e), sign * len(m.landings))
            if best is None or score > best:
                best, picks = score, [str(m)]
            elif score == best:
                picks.append(str(m))
    return rng.choice(picks) if picks else None


def choose_pick(state: BoxesState, seat: int, rng: random.Random) -> str:
    b = state.target_board(seat)
    roles = roles_for_round(state.round)[:LOOKAHEAD]
    if b == seat:
        # On its own box the opponent's rounds are expected, not worst, cases: the opponent
        # does not see the bets (BX-13), so its rounds are the deck's odds, every playable
        # card and movement alike. That is the expectimax the review and the yardstick
        # judge by; it takes milliseconds, far inside the pick's minute (BX-12).
        roles = tuple(OWN_BOX_OPPONENT if r == "opp" else r for r in roles)
        weight = bet_weight(state.bets[seat])
    else:
        weight = {Tile(n, bl): 1.0 for n in range(10) for bl in (False, True)}
    pick = best_option(state, state.boards[b], state.boxes[b], weight, roles, rng)
    return pick if pick is not None else "pass"


# --- levels (G-8) -----------------------------------------------------------
EASY_SAMPLES = 6
NORMAL_SAMPLES = 16
NORMAL_CAUTION = 0.9
"""The share of the Kelly stake ``normal`` dares on its main bet. The stake is what wins a
Boxes match (a level with hard's stake won 59-62% against hard, below the 70% wanted); at
0.9 hard wins 81-86% of 100-200 matches and normal still beats easy 99% (0.8: 96%, 0.5:
100%; bench/strength.py --game boxes)."""


def decide_level(state: BoxesState, seat: int, rng: random.Random, level: str) -> str | None:
    """The bot at ``easy`` or ``normal`` (``hard`` is :func:`decide`).

    ``easy`` plays as a beginner does: it bets on the single trait its own box seems likeliest
    to land on (few samples, no thought of the payout multipliers) with half its points on it,
    and ignores the opponent: on its own box it takes the pick worth most this round alone, on
    the opponent's box it spends its least useful card with no thought of what it gives away.
    ``normal`` bets as the full bot does from fewer samples and, as a cautious club player
    does, stakes a little less than the odds justify (:data:`NORMAL_CAUTION`); it looks one
    round ahead only on its own box and, like ``easy``, does not defend against the
    opponent's box."""
    if state.stage in (STUDY_BOARDS, STUDY_CARDS):
        return "ready"
    if state.stage == BET:
        if level == "easy":
            bets = naive_bets(state, seat, rng)
        else:
            bets = choose_bets(state, seat, rng, samples=NORMAL_SAMPLES, caution=NORMAL_CAUTION)
        text = bets_text(bets)
        parse_bets(text, state.points[seat], state.usage[seat])  # a bot bug fails loudly
        return text
    if state.stage == PICK:
        if state.target_board(seat) != seat:
            return careless_pick(state, seat, rng)
        b = state.target_board(seat)
        roles = roles_for_round(state.round)[:1]
        if b == seat:
            weight = bet_weight(state.bets[seat])
        else:
            weight = {Tile(n, bl): 1.0 for n in range(10) for bl in (False, True)}
        pick = best_option(state, state.boards[b], state.boxes[b], weight, roles, rng)
        return pick if pick is not None else "pass"
    return None


def naive_bets(state: BoxesState, seat: int, rng: random.Random) -> tuple[Bet, ...]:
    """A beginner's bets: the single traits its box lands on most often in a few sampled
    plays, likeliest first; half the points on the first, 1 on each of the others (BX-4)."""
    points = state.points[seat]
    usage = state.usage[seat]
    need = required_count(points, usage)
    if need == 0:
        return ()
    mean = (sample_landings(state, seat, rng, EASY_SAMPLES) @ MATCH).mean(axis=0)
    singles = [i for i, c in enumerate(CONDITIONS) if c.op == "" and allowed(usage, c)]
    order = sorted(singles, key=lambda i: -mean[i])
    order += [i for i in sorted(range(len(CONDITIONS)), key=lambda i: -mean[i])
              if i not in order]
    bets = list(_distinct(order, need, usage))
    if len(bets) < need:
        return random_bets(points, usage, rng)
    budget = math.floor(points)
    spare = budget - need
    if spare > 0:
        bets[0] = Bet(bets[0].condition, 1 + max(0, min(spare, budget // 2 - 1)))
    return tuple(bets)


def careless_pick(state: BoxesState, seat: int, rng: random.Random) -> str:
    """On the opponent's box a beginner plays its lowest card, any way it moves: it does not
    look at what the landings give the opponent."""
    b = state.target_board(seat)
    cards = sorted(n for n in state.hand if n in set(playable(state, seat)))
    if not cards:
        return "pass"
    return str(movements(state.card(cards[0]), state.boxes[b])[0])
