"""Bets and payouts (BX-4, BX-5), in exact fractions.

Notation: ``condition: stake`` items separated by ``;`` or new lines, e.g.
``black and 2: 3; 6: 1; 7 or 9: 2``. A seat bets on exactly three different conditions with a
whole stake of at least 1 each, all stakes together within its points. A seat with fewer than
3 whole points bets 1 on as many conditions as its whole points allow (BX-4; the limit on
the total already forces those stakes to 1); one whose usage
limits leave fewer than three different conditions bets on as many as it can (the project's
reading: the text never says, and a seat must not be stuck). With nothing to bet it submits
``none``.

Payouts per landing of the seat's own box on a matching tile: 2 x stake for one trait, 4 x for
``and``, 3/2 x for ``or`` (BX-5), paid with the stakes settled at the end of the bout.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from arena.core.errors import ParseError, RuleError
from arena.games.boxes.board import Tile
from arena.games.boxes.conditions import (
    Condition,
    Usage,
    add_usage,
    max_conditions,
    over_limit,
    parse_condition,
)
from arena.games.boxes.words import number_word, shown, trait_words


@dataclass(frozen=True, slots=True)
class Bet:
    condition: Condition
    stake: int

    def __str__(self) -> str:
        return f"{self.condition}: {self.stake}"

    def to_json(self) -> dict[str, object]:
        """The bet as facts: its condition's traits and operator, and its stake."""
        return {**self.condition.to_json(), "stake": self.stake}


@dataclass(frozen=True, slots=True)
class Settled:
    """A bet at the end of its bout: landings that met it and the payout (BX-5)."""

    bet: Bet
    hits: int
    payout: Fraction

    @property
    def net(self) -> Fraction:
        return self.payout - self.bet.stake


@dataclass(frozen=True, slots=True)
class Bets:
    """A seat's bets for the bout, as submitted (BX-4): ``none`` when it has nothing to bet."""

    bets: tuple[Bet, ...]

    def __str__(self) -> str:
        return bets_text(self.bets)

    def to_json(self) -> list[dict[str, object]]:
        """The bets as facts, one ``{traits, op, stake}`` each (an empty list for ``none``);
        the pages word them ("2 on black")."""
        return [b.to_json() for b in self.bets]


def bets_text(bets: Iterable[Bet]) -> str:
    text = "; ".join(str(b) for b in bets)
    return text or "none"


def required_count(points: Fraction, usage: Usage) -> int:
    """How many conditions the seat must bet on this bout (BX-4, BX-3)."""
    return min(3, math.floor(points), max_conditions(usage))


EXAMPLE_CONDITIONS = ("black and 2", "6", "7 or 9", "white", "3", "4 or 5", "white and 8", "1",
                      "0 or 2", "black", "5", "8 or 9", "4", "black and 7", "0", "2 or 3")


def bet_example(points: Fraction, usage: Usage) -> str:
    """A bet this seat may place now (its points and match-long usage allow it, BX-3, BX-4),
    for the help and the errors: an example that is refused would mislead."""
    need = required_count(points, usage)
    if need == 0:
        return "none"
    chosen: list[Condition] = []
    after = usage
    for text in EXAMPLE_CONDITIONS:
        cond = parse_condition(text)
        trial = add_usage(after, cond)
        if cond not in chosen and not over_limit(trial):
            chosen.append(cond)
            after = trial
        if len(chosen) == need:
            break
    if len(chosen) < need:
        return ""
    first = max(1, min(3, math.floor(points) - (need - 1)))
    return "; ".join(f"{c}: {first if i == 0 else 1}" for i, c in enumerate(chosen))


def parse_bets(text: str, points: Fraction, usage: Usage) -> tuple[Bet, ...]:
    """Read and check a bet submission against the seat's points and match-long usage."""
    need = required_count(points, usage)
    items = [p.strip() for p in re.split(r"[;\n]", text) if p.strip()]
    if len(items) == 1 and items[0].lower() == "none":
        items = []
    if len(items) != need:
        if need == 0:
            raise RuleError("BX-4", "you have nothing to bet with this bout: send 'none'")
        example = bet_example(points, usage)
        raise RuleError("BX-4", f"bet on exactly {number_word(need)} different "
                                f"condition{'' if need == 1 else 's'}, each with its stake"
                                + (f", for example '{example}'" if example else ""))
    bets: list[Bet] = []
    for n, item in enumerate(items, start=1):
        if ":" not in item:
            raise ParseError("BX-4", f"bet {n}, {shown(item)}: write each bet as its condition, "
                                     "a colon and its stake, for example 'black and 2: 3'")
        cond_text, _, stake_text = item.rpartition(":")
        cond = parse_condition(cond_text)
        stake_text = stake_text.strip()
        if not re.fullmatch(r"[0-9]{1,40}", stake_text):
            raise ParseError("BX-4", f"the stake of bet {n}, on {cond.words()}, must be a whole "
                                     f"number, not {shown(stake_text)}")
        stake = int(stake_text)
        if stake < 1:
            raise RuleError("BX-4", f"the stake of bet {n}, on {cond.words()}, must be at "
                                    "least 1")
        bets.append(Bet(cond, stake))
    for j, b in enumerate(bets):
        first = next(i for i, a in enumerate(bets) if a.condition == b.condition)
        if first != j:
            raise RuleError("BX-4", f"bets {first + 1} and {j + 1} are on the same condition, "
                                    f"{b.condition.words()}: the conditions must all differ "
                                    "(the same traits joined the same way, in any order, "
                                    "are the same condition, BX-3)")
    conds = [b.condition for b in bets]
    total = sum(b.stake for b in bets)
    if total > points:
        raise RuleError("BX-4", f"the stakes total {total}, more than your {fmt(points)} "
                                 f"point{'' if points == 1 else 's'}")
    after = usage
    for c in conds:
        after = add_usage(after, c)
    over = over_limit(after)
    if over:
        named = " and ".join(trait_words(t) for t in over)
        raise RuleError("BX-3", f"{named} would be in more of your conditions than allowed "
                                "over the match (a colour in two, a number in three)")
    return tuple(bets)


def settle(bet: Bet, landed: Iterable[Tile]) -> Settled:
    """Count the landings that meet the bet and pay them (BX-5)."""
    hits = sum(1 for t in landed if bet.condition.matches(t))
    return Settled(bet, hits, bet.condition.multiplier * bet.stake * hits)


def fmt(x: Fraction) -> str:
    """A point total for people: ``20``, ``23.5``, ``41/3`` when not a finite decimal."""
    if x.denominator == 1:
        return str(x.numerator)
    f = float(x)
    if Fraction(repr(f)) == x:
        return repr(f)
    return f"{x.numerator}/{x.denominator}"
