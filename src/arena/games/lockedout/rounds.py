"""What happens at a deadline (LO-3, LO-5, LO-6, LO-7): bargains first, then the attempts.

Pure functions from (state, every seat's commands) to (state, events). Lights go only to the
seats that entered the guess (LO-4); openings, who bargains, combinations as safes close and
escapes are public.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from arena.core.game import GameEvent
from arena.core.wording import counted
from arena.games.lockedout.commands import Claim, Command, Dual, Solo
from arena.games.lockedout.safes import SAFE_NAMES, Combo, light
from arena.games.lockedout.state import Bargain, Light, LockedOutState, Seat, Side

Orders = Mapping[int, tuple[Command, ...]]


@dataclass(frozen=True)
class Attempt:
    """One guess at one safe: a Solo (one seat, both cards) or a matched Dual pair."""

    safe: int
    guess: Combo
    seats: tuple[int, ...]  # one seat for Solo; (left seat, right seat) for Dual

    @property
    def solo(self) -> bool:
        return len(self.seats) == 1


def _say(state: LockedOutState, text: str) -> LockedOutState:
    return replace(state, news=(*state.news, f"Round {state.round}: {text}"))


def _names(state: LockedOutState, seats: tuple[int, ...] | list[int]) -> str:
    names = [state.names[s] for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _set_seat(state: LockedOutState, i: int, seat: Seat) -> LockedOutState:
    seats = list(state.seats)
    seats[i] = seat
    return replace(state, seats=tuple(seats))


def _close(state: LockedOutState, safe: int, events: list[GameEvent]) -> LockedOutState:
    """A safe closes for good and its combination becomes public (LO-5)."""
    combo = state.combos[safe]
    announced = list(state.announced)
    announced[safe] = combo
    events.append(GameEvent("safe_closed", {"safe": SAFE_NAMES[safe], "combination": list(combo)}))
    state = replace(state, announced=tuple(announced))
    return _say(state, f"Safe {SAFE_NAMES[safe]} closed; its combination was "
                       f"{combo[0]} on the left and {combo[1]} on the right.")


def _escapes(state: LockedOutState, events: list[GameEvent]) -> LockedOutState:
    """Every seat inside with 3 keys leaves at once (LO-7)."""
    for i, seat in enumerate(state.seats):
        if seat.inside and seat.keys >= 3:
            state = _set_seat(state, i, replace(seat, escaped=state.round))
            events.append(GameEvent("escaped", {"seat": i, "bars": seat.bars}))
            state = _say(state, f"{state.names[i]} escaped with {seat.bars} gold bar{'' if seat.bars == 1 else 's'}.")
    return state


def resolve_bargains(state: LockedOutState, orders: Orders,
                     events: list[GameEvent]) -> LockedOutState:
    """All pending bargains at once (LO-5): paid only if the claims add up to exactly 2 bars
    and 1 key; a missing claim claims nothing. Then escapes (LO-6)."""
    if not state.bargains:
        return state
    for bargain in state.bargains:
        claims: dict[int, Claim] = {}
        for who in bargain.seats:
            for cmd in orders.get(who, ()):
                if isinstance(cmd, Claim) and cmd.safe == bargain.safe:
                    claims[who] = cmd
        bars = sum(c.bars for c in claims.values())
        keys = sum(c.keys for c in claims.values())
        agreed = bars == 2 and keys == 1
        if agreed:
            for s, c in claims.items():
                seat = state.seats[s]
                state = _set_seat(state, s, replace(seat, bars=seat.bars + c.bars,
                                                    keys=seat.keys + c.keys))
        events.append(GameEvent("bargain_resolved", {
            "safe": SAFE_NAMES[bargain.safe], "seats": list(bargain.seats), "agreed": agreed,
            "claims": [{"seat": s, "bars": c.bars, "keys": c.keys}
                       for s, c in sorted(claims.items())]}))
        if agreed:
            split = ", ".join(f"{state.names[s]} {counted(c.bars, 'bar')} "
                              f"{counted(c.keys, 'key')}"
                              for s, c in claims.items() if c.bars or c.keys)
            state = _say(state, f"the bargain for Safe {SAFE_NAMES[bargain.safe]} was agreed: "
                                f"{split}.")
        else:
            state = _say(state, f"the bargain for Safe {SAFE_NAMES[bargain.safe]} failed "
                                f"({counted(bars, 'bar')} and {counted(keys, 'key')} were claimed); nobody "
                                "gets anything.")
        state = _close(state, bargain.safe, events)
    state = replace(state, bargains=())
    return _escapes(state, events)


def attempts_of(state: LockedOutState, orders: Orders) -> list[Attempt]:
    """Solo attempts and the Duals whose partners named each other for the same safe on
    opposite sides (LO-3). Seats no longer inside attempt nothing (LO-6)."""
    inside = set(state.inside())
    out: list[Attempt] = []
    duals: dict[int, Dual] = {}
    for seat in sorted(orders):
        if seat not in inside:
            continue
        for cmd in orders[seat]:
            if isinstance(cmd, Solo):
                out.append(Attempt(cmd.safe, (cmd.left, cmd.right), (seat,)))
            elif isinstance(cmd, Dual):
                duals[seat] = cmd
    for seat, d in sorted(duals.items()):
        other = duals.get(d.partner)
        if not _matched(seat, d, other):
            continue
        assert other is not None
        if seat > d.partner:
            continue
        left, right = (d, other) if d.side == "left" else (other, d)
        pair = (seat, d.partner) if d.side == "left" else (d.partner, seat)
        out.append(Attempt(d.safe, (left.value, right.value), pair))
    return out


def _matched(seat: int, d: Dual, other: Dual | None) -> bool:
    """Whether the partner named this seat back for the same safe on the other side (LO-3)."""
    return (other is not None and other.partner == seat and other.safe == d.safe
            and other.side != d.side)


def failed_duals(state: LockedOutState, orders: Orders
                 ) -> list[tuple[int, Dual, Dual | None, str]]:
    """Duals that did not happen (LO-3: both partners are told), each with the partner's own
    Dual (if any) and the reason as a code: ``gone`` (the partner left the vault),
    ``not_named`` (the partner named someone else, or nobody), ``other_safe``, ``same_side``."""
    inside = set(state.inside())
    duals = {s: c for s in orders if s in inside for c in orders[s] if isinstance(c, Dual)}
    out: list[tuple[int, Dual, Dual | None, str]] = []
    for seat, d in sorted(duals.items()):
        other = duals.get(d.partner)
        if _matched(seat, d, other):
            continue
        if d.partner not in inside:
            why = "gone"
        elif other is None or other.partner != seat:
            why = "not_named"
        elif other.safe != d.safe:
            why = "other_safe"
        else:
            why = "same_side"
        out.append((seat, d, other, why))
    return out


def resolve_attempts(state: LockedOutState, orders: Orders,
                     events: list[GameEvent]) -> LockedOutState:
    """This round's attempts, all together (LO-5)."""
    for actor, d, other, why in failed_duals(state, orders):
        # LO-3: neither partner attempts it, and both hear so at the deadline (privately),
        # each page in its reader's own words ("you did not name Dave").
        events.append(GameEvent("dual_failed", {
            "safe": SAFE_NAMES[d.safe], "seat": actor, "partner": d.partner, "why": why,
            "other_safe": None if other is None else SAFE_NAMES[other.safe], "side": d.side,
            "value": d.value},
            frozenset({actor, d.partner})))
    attempts = attempts_of(state, orders)
    openers: dict[int, list[Attempt]] = {}
    for att in attempts:
        combo = state.combos[att.safe]
        if att.guess == combo:
            openers.setdefault(att.safe, []).append(att)
            continue
        colour = light(combo, att.guess, state.mapping)
        for k, s in enumerate(att.seats):
            if att.solo:
                seen = Light(state.round, att.safe, att.guess[0], att.guess[1], colour)
            else:
                partner = att.seats[1 - k]
                seen = Light(state.round, att.safe, att.guess[0] if k == 0 else None,
                             att.guess[1] if k == 1 else None, colour, partner)
            seat = state.seats[s]
            state = _set_seat(state, s, replace(seat, lights=(*seat.lights, seen)))
            # LO-4: the seat's own numbers (a Dual's partner's side is None) and the round.
            events.append(GameEvent("light", {"safe": SAFE_NAMES[att.safe], "colour": colour,
                                              "seat": s, "round": seen.round,
                                              "left": seen.left, "right": seen.right,
                                              "partner": seen.partner},
                                    frozenset({s})))
    # Cards used up, safes opened counted, what each opener knows of the combination.
    opened = list(state.opened)
    for safe, atts in sorted(openers.items()):
        opened[safe] = True
        combo = state.combos[safe]
        who: list[int] = []
        for att in atts:
            for k, s in enumerate(att.seats):
                seat = state.seats[s]
                cards = list(seat.cards)
                used = att.guess if att.solo else (att.guess[k],)
                for v in used:
                    cards[v - 1] -= 1
                left = combo[0] if att.solo or k == 0 else None
                right = combo[1] if att.solo or k == 1 else None
                first = s not in who
                state = _set_seat(state, s, replace(
                    seat, cards=(cards[0], cards[1], cards[2], cards[3]),
                    opened=seat.opened + (1 if first else 0),
                    sides=(*seat.sides, Side(safe, left, right))))
                if first:
                    who.append(s)
        events.append(GameEvent("safe_opened", {"safe": SAFE_NAMES[safe], "seats": who}))
    state = replace(state, opened=tuple(opened))
    # A lone Solo opener takes everything at once (LO-5).
    lone = {safe: atts[0].seats[0] for safe, atts in openers.items()
            if len(atts) == 1 and atts[0].solo}
    for safe, s in sorted(lone.items()):
        seat = state.seats[s]
        state = _set_seat(state, s, replace(seat, bars=seat.bars + 2, keys=seat.keys + 1))
        events.append(GameEvent("safe_taken", {"safe": SAFE_NAMES[safe], "seat": s}))
        state = _say(state, f"{state.names[s]} opened Safe {SAFE_NAMES[safe]} alone and took "
                            "2 gold bars and the key.")
        state = _close(state, safe, events)
    state = _escapes(state, events)
    # Everyone else bargains until the next deadline, if still inside (LO-5, LO-7).
    bargains = list(state.bargains)
    for safe, atts in sorted(openers.items()):
        if safe in lone:
            continue
        seats = sorted({s for att in atts for s in att.seats})
        staying = tuple(s for s in seats if state.seats[s].inside)
        if not staying:
            state = _say(state, f"Safe {SAFE_NAMES[safe]} was opened by {_names(state, seats)}, "
                                "who have all left the vault.")
            state = _close(state, safe, events)
            continue
        bargains.append(Bargain(safe, staying, state.round))
        events.append(GameEvent("bargain_opened", {"safe": SAFE_NAMES[safe],
                                                   "seats": list(staying)}))
        state = _say(state, f"Safe {SAFE_NAMES[safe]} was opened; {_names(state, staying)} "
                            "bargain over its contents until the next deadline.")
    return replace(state, bargains=tuple(bargains))


def can_still_open(state: LockedOutState) -> bool:
    """Whether some seat inside, alone or with a partner inside, holds a closed safe's
    combination (LO-8)."""
    inside = [state.seats[i] for i in state.inside()]
    for safe, (a, b) in enumerate(state.combos):
        if state.opened[safe]:
            continue
        for i, s in enumerate(inside):
            if s.holds((a, b)):
                return True
            if s.cards[a - 1] and any(t.cards[b - 1] for j, t in enumerate(inside) if j != i):
                return True
    return False
