"""The post-match review of Locked Out!: each attempt on a safe against the likeliest one the
seat could have made on that safe with what it knew then.

The truth is the deduction helper's (LO-12): from the lights the seat had seen and the
combinations announced, every (mapping, combination) pair a safe can still hold is known, so
the chance an attempt opens its safe is exact under an even chance over those pairs. An
attempt the lights had already ruled out had no chance at all: those are the mistakes a
player most wants pointed out. Only the seat's own knowledge counts (a Dual partner's
lights are the partner's), and the best attempt is one the seat's cards could make. Which
safe to try is left alone: a sure safe that others also know may be worth less than a likely
one nobody else will try (LO-5's bargain shares it), so only the numbers are judged.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from arena.core.judging import Judgement, Step
from arena.games.lockedout.commands import Dual, Plan, Solo
from arena.games.lockedout.deduce import Deduction
from arena.games.lockedout.knowledge import deduction_for
from arena.games.lockedout.safes import COMBOS, SAFE_NAMES
from arena.games.lockedout.state import ROUND, LockedOutState

UNIT = "% chance to open"


def _chance(ded: Deduction, safe: int, left: int | None, right: int | None) -> Fraction:
    """The chance the numbers open ``safe``, a side the seat does not set (a Dual partner's)
    counting as right."""
    pairs = ded.pairs(safe)
    if not pairs:
        return Fraction(0)
    hits = sum(1 for _, c in pairs
               if (left is None or c[0] == left) and (right is None or c[1] == right))
    return Fraction(hits, len(pairs))


def _best(ded: Deduction, state: LockedOutState, seat: int, cmd: Solo | Dual
          ) -> tuple[Fraction, str]:
    """The likeliest attempt of the same kind on the same safe that the seat's hand could
    make, and its numbers in words."""
    cards = state.seats[seat]
    best: tuple[Fraction, str] = (Fraction(-1), "")
    if isinstance(cmd, Solo):
        for left, right in COMBOS:
            if cards.holds((left, right)):
                p = _chance(ded, cmd.safe, left, right)
                if p > best[0]:
                    best = (p, f"{left} on the left and {right} on the right")
        return best
    for v in range(1, 5):
        if cards.holds((v,)):
            p = _chance(ded, cmd.safe, *((v, None) if cmd.side == "left" else (None, v)))
            if p > best[0]:
                best = (p, f"{v} on the {cmd.side}")
    return best


def _odds(p: Fraction) -> str:
    if p == 0:
        return "no chance"
    if p == 1:
        return "a sure thing"
    if p.numerator == 1:
        return f"a 1 in {p.denominator} chance"
    return f"a {float(p):.0%} chance"


def _did(cmd: Solo | Dual, names: Sequence[str], seat: int) -> str:
    """The attempt in words that read the same to its seat, the host and the audience."""
    safe, who = SAFE_NAMES[cmd.safe], names[seat]
    if isinstance(cmd, Solo):
        return f"{who} tried {cmd.left} on the left and {cmd.right} on the right of Safe {safe}"
    return f"{who} tried {cmd.value} on the {cmd.side} of Safe {safe} with {names[cmd.partner]}"


def _judge(step: Step[LockedOutState], seat: int, cmd: Solo | Dual) -> Judgement:
    state = step.before
    ded = deduction_for(state, (seat,))
    if isinstance(cmd, Solo):
        p = _chance(ded, cmd.safe, cmd.left, cmd.right)
    else:
        left, right = (cmd.value, None) if cmd.side == "left" else (None, cmd.value)
        p = _chance(ded, cmd.safe, left, right)
    best, numbers = _best(ded, state, seat, cmd)
    best = max(best, p)
    did = f"{_did(cmd, state.names, seat)}: {_odds(p)}"
    if p == 0:
        did += f", as the lights {state.names[seat]} had seen already ruled it out"
    if best > p:
        better = (f"{numbers.capitalize()} was {_odds(best)}, from what {state.names[seat]} knew "
                  f"of Safe {SAFE_NAMES[cmd.safe]} then")
    else:
        better = (f"No card {state.names[seat]} held gave a better chance on Safe "
                  f"{SAFE_NAMES[cmd.safe]}")
    return Judgement(
        seat=seat, version=step.version, phase=step.name, did=did + ".", better=better + ".",
        value=round(float(p) * 100, 1), best=round(float(best) * 100, 1), unit=UNIT,
        cost=round(float(best - p) * 100, 1), exact=True, public=False)


def review(steps: Sequence[Step[LockedOutState]]) -> list[Judgement]:
    """Every attempt of every seat, round by round (attempts are sealed until the end, G-9)."""
    out: list[Judgement] = []
    for step in steps:
        if step.before.stage != ROUND:
            continue
        for seat, sub in sorted(step.outcome.standing.items()):
            plan: Plan = sub.value
            for cmd in plan.commands:
                if isinstance(cmd, Solo | Dual):
                    out.append(_judge(step, seat, cmd))
    return out
