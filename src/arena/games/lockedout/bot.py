"""Bots for any seat: deduce, pair up for Duals, split bargains fairly, head for the exit.

A bot decides from its own seat's knowledge, with one modelled conversation: the two bots a
public rotation pairs for a round "talk", i.e. pool their lights and hands to pick the Dual's
safe and numbers, as allied players would in the match's chat. Pairing and bargain splits use
only public facts, so every bot reaches the same plan without messages: a bargain among bots
always adds up to exactly 2 bars and 1 key.

No choice depends on the seat number (fair seats): ties that bots must agree on are
broken by a draw seeded from public facts, and a seat's own ties by its own draw.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from arena.games.lockedout.commands import Claim, Dual, Solo, Vote
from arena.games.lockedout.deduce import Deduction, Observations, guess_value
from arena.games.lockedout.knowledge import cached_deduce, deduction_for, observations_for
from arena.games.lockedout.safes import COMBOS, Combo
from arena.games.lockedout.state import BARGAIN, ROUND, TIE, VOTE, Bargain, LockedOutState


def _public_order(state: LockedOutState, *salt: object) -> dict[int, int]:
    """A tie-break rank per seat (fair seats) that every bot reaches alike without
    messages, from public facts only (the round, which safes are open, the combinations
    announced so far, plus a salt such as the safe), and that favours no seat: a shuffle that
    changes from match to match, never the seat order. Seat order as the last tie-break gave
    the first seat the key of nearly every tied bargain; 86% of its matches ended in escape
    against 41-55% for the others (bench/lockedout_seats.py)."""
    seats = list(range(len(state.seats)))
    _public_rng(state, *salt).shuffle(seats)
    return {s: i for i, s in enumerate(seats)}


def _public_rng(state: LockedOutState, *salt: object) -> random.Random:
    """A draw every bot can repeat: seeded from public facts only, so it agrees across seats."""
    facts = (state.round, state.opened, state.announced, salt)
    return random.Random(f"lockedout-public:{facts!r}")


def fair_split(state: LockedOutState, bargain: Bargain) -> dict[int, tuple[int, int]]:
    """(bars, keys) per bargainer: the key to whoever is closest to escaping (most keys, then
    fewest bars, then a public draw, not the seat order), the bars shared among the others (all
    to the lone one)."""
    turn = _public_order(state, "bargain", bargain.safe, bargain.round)
    order = sorted(bargain.seats,
                   key=lambda s: (-state.seats[s].keys, state.seats[s].bars, turn[s]))
    split = {s: (0, 0) for s in order}
    if len(order) == 1:
        split[order[0]] = (2, 1)
    elif len(order) == 2:
        split[order[0]], split[order[1]] = (0, 1), (2, 0)
    else:
        split[order[0]], split[order[1]], split[order[2]] = (0, 1), (1, 0), (1, 0)
    return split


def claims_for(state: LockedOutState, seat: int) -> list[Claim]:
    return [Claim(b.safe, *fair_split(state, b)[seat]) for b in state.bargains_of(seat)]


def dual_partner(state: LockedOutState, seat: int) -> int | None:
    """The seat's partner this round: a round-robin (circle method) over the seats inside, so
    every pair meets within a few rounds; with an odd number one seat sits out."""
    players: list[int | None] = list(state.inside())
    if len(players) < 2:
        return None
    if len(players) % 2:
        players.append(None)
    m = len(players)
    k = state.round % (m - 1)
    rest = players[1:]
    order = [players[0], *rest[k:], *rest[:k]]
    i = order.index(seat)
    return order[m - 1 - i]


def _weights(ded: Deduction, safe: int) -> dict[Combo, int]:
    out: dict[Combo, int] = {}
    for _, masks in ded.by_mapping:
        mask = masks[safe]
        for i, c in enumerate(COMBOS):
            if mask >> i & 1:
                out[c] = out.get(c, 0) + 1
    return out


def _best(ded: Deduction, state: LockedOutState, fits: Callable[[Combo], bool],
          avoid: int | None, rank: Sequence[int]) -> list[tuple[float, int, Combo]]:
    """Candidate (p_open, safe, combo) triples the hand allows, best chance first; equal
    chances in the order of ``rank`` (a position per safe)."""
    out: list[tuple[float, int, Combo]] = []
    for safe in range(16):
        if state.opened[safe] or safe == avoid:
            continue
        weights = _weights(ded, safe)
        total = sum(weights.values())
        for combo, w in weights.items():
            if fits(combo):
                out.append((w / total, safe, combo))
    out.sort(key=lambda t: (-t[0], rank[t[1]], t[2]))
    return out


def _safe_rank(rng: random.Random) -> list[int]:
    """A position per safe, drawn: the order in which equally good safes are tried."""
    rank = list(range(16))
    rng.shuffle(rank)
    return rank


def _pair_fits(hl: tuple[int, ...], hr: tuple[int, ...]) -> Callable[[Combo], bool]:
    return lambda c: hl[c[0] - 1] > 0 and hr[c[1] - 1] > 0


def dual_plan(state: LockedOutState, a: int, b: int) -> tuple[int, Combo, int] | None:
    """The safe, combination and left-hand seat the pair tries together: either partner may
    take the left side, whichever makes the best guess the two hands allow."""
    low, high = min(a, b), max(a, b)
    ded = deduction_for(state, (low, high))
    # Both partners need the same order of equally good safes, and pairs should not all pick
    # the same one (a collision makes a bargain): a public draw salted with the pair.
    turn = _public_order(state, "dual", low, high)
    rank = _safe_rank(_public_rng(state, "dual-safes", low, high))
    first, second = sorted((low, high), key=lambda s: turn[s])
    best: tuple[float, int, Combo, int] | None = None
    for left, right in ((first, second), (second, first)):
        hl, hr = state.seats[left].cards, state.seats[right].cards
        found = _best(ded, state, _pair_fits(hl, hr), None, rank)
        if found and (best is None or found[0][0] > best[0]):
            best = (*found[0], left)
    return None if best is None else (best[1], best[2], best[3])


def round_orders(state: LockedOutState, seat: int, rng: random.Random) -> list[str]:
    names = state.names
    lines: list[str] = [str(c) for c in claims_for(state, seat)]
    hand = list(state.seats[seat].cards)
    dual_safe: int | None = None
    partner = dual_partner(state, seat)
    if partner is not None:
        plan = dual_plan(state, seat, partner)
        if plan is not None:
            dual_safe, combo, left_seat = plan
            side, value = ("left", combo[0]) if seat == left_seat else ("right", combo[1])
            hand[value - 1] -= 1
            lines.append(Dual(dual_safe, side, value, partner).text(names))
    ded = deduction_for(state, (seat,))

    def fits(c: Combo) -> bool:
        return hand[c[0] - 1] >= (2 if c[0] == c[1] else 1) and hand[c[1] - 1] >= 1

    # Equal chances: the seat's own draw, not the safe order every seat shares
    # (every seat on the same safe made bargains whose key went by seat order).
    best = _best(ded, state, fits, dual_safe, _safe_rank(rng))
    if best:
        top = [t for t in best if t[0] == best[0][0]][:8]
        scored = sorted(top, key=lambda t: (guess_value(ded, t[1], t[2]).expected_left,
                                            rng.random()))
        _, safe, combo = scored[0]
        lines.append(str(Solo(safe, combo[0], combo[1])))
    return lines


def vote_target(state: LockedOutState, voter: int) -> int:
    """The seat inside with the fewest keys, then bars, then cards, then a public draw (not
    the seat order; not the voter if possible)."""
    inside = [s for s in state.inside() if s != voter] or list(state.inside())
    return _weakest(state, inside)


def _weakest(state: LockedOutState, seats: Sequence[int]) -> int:
    turn = _public_order(state, "vote")
    return min(seats, key=lambda s: (state.seats[s].keys, state.seats[s].bars,
                                     state.seats[s].card_count, turn[s]))


def bot_text(state: LockedOutState, seat: int, rng: random.Random) -> str | None:
    if state.stage == ROUND:
        if not state.seats[seat].inside:
            return None
        return "\n".join(round_orders(state, seat, rng)) or "pass"
    if state.stage == BARGAIN:
        return "\n".join(str(c) for c in claims_for(state, seat)) or "pass"
    if state.stage == VOTE:
        return Vote(vote_target(state, seat)).text(state.names)
    if state.stage == TIE:  # a winner breaking the vote's tie (LO-9)
        return Vote(_weakest(state, state.tied)).text(state.names)
    return None


def random_text(state: LockedOutState, seat: int, rng: random.Random) -> str | None:
    """A random legal submission (for the conformance suite): random guesses, partners and
    claims that add up half of the time."""
    names: Sequence[str] = state.names
    if state.stage == VOTE:
        return Vote(rng.choice(state.inside())).text(names)
    if state.stage == TIE:
        return Vote(rng.choice(state.tied)).text(names)
    lines: list[str] = []
    for b in state.bargains_of(seat):
        if rng.random() < 0.5:
            lines.append(str(Claim(b.safe, *fair_split(state, b)[seat])))
        elif rng.random() < 0.7:
            lines.append(str(Claim(b.safe, rng.randint(0, 2), rng.randint(0, 1))))
    if state.stage == ROUND and state.seats[seat].inside:
        closed = [s for s in range(16) if not state.opened[s]]
        hand = list(state.seats[seat].cards)
        others = [s for s in state.inside() if s != seat]
        dual_safe: int | None = None
        if closed and others and rng.random() < 0.6:
            values = [v for v in range(1, 5) if hand[v - 1]]
            if values:
                v = rng.choice(values)
                hand[v - 1] -= 1
                dual_safe = rng.choice(closed)
                lines.append(Dual(dual_safe, rng.choice(["left", "right"]), v,
                                  rng.choice(others)).text(names))
        pairs = [c for c in COMBOS
                 if hand[c[0] - 1] >= (2 if c[0] == c[1] else 1) and hand[c[1] - 1] >= 1]
        solo_safes = [s for s in closed if s != dual_safe]  # LO-3: different safes
        if solo_safes and pairs and rng.random() < 0.8:
            c = rng.choice(pairs)
            lines.append(str(Solo(rng.choice(solo_safes), c[0], c[1])))
    return "\n".join(lines) or "pass"


# --- levels (G-8) -----------------------------------------------------------
def level_text(state: LockedOutState, seat: int, rng: random.Random, level: str) -> str | None:
    """The bot at ``easy`` or ``normal`` (``hard`` is :func:`bot_text`).

    ``easy`` is a beginner: it remembers only the last light it saw (with the public openings),
    never arranges a Dual and never claims its share of a bargain (so its bargains fail, LO-5).
    ``normal`` deduces from all its own lights and splits bargains fairly, but plays alone:
    it does not pair up for Duals nor pool what a partner knows."""
    if state.stage in (VOTE, TIE):
        return bot_text(state, seat, rng)
    easy = level == "easy"
    if state.stage == BARGAIN:
        claims = [] if easy else [str(c) for c in claims_for(state, seat)]
        return "\n".join(claims) or "pass"
    if state.stage != ROUND:
        return None
    if not state.seats[seat].inside:
        return None
    lines = [] if easy else [str(c) for c in claims_for(state, seat)]
    obs = observations_for(state, (seat,))
    if easy:
        obs = Observations(obs.lights[-1:], obs.opened)
    ded = cached_deduce(obs)
    hand = state.seats[seat].cards

    def fits(c: Combo) -> bool:
        return hand[c[0] - 1] >= (2 if c[0] == c[1] else 1) and hand[c[1] - 1] >= 1

    best = _best(ded, state, fits, None, _safe_rank(rng))
    if best:
        top = [t for t in best if t[0] == best[0][0]][:8]
        _, safe, combo = rng.choice(top)
        lines.append(str(Solo(safe, combo[0], combo[1])))
    return "\n".join(lines) or "pass"
