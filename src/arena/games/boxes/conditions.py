"""Conditions: what a seat bets its box will land on (BX-3).

A condition has one or two traits (a colour ``black``/``white`` or a number ``0``-``9``);
two traits are joined by ``and`` or ``or``. Text is case- and spacing-free (``Black AND 2``,
``7|9``, ``black&2`` all read). Two conditions are the same when they have the same traits and
operator in any order. ``black or white`` is not allowed, nor a trait joined with itself.

Usage limits (BX-3) are counted per trait over the whole match: each colour may appear in at
most 2 of a seat's conditions, each number in at most 3. A :data:`Usage` is a tuple of 12
counts, numbers 0-9 then black, white.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from arena.core.errors import ParseError, RuleError
from arena.games.boxes.board import Tile
from arena.games.boxes.words import condition_words, shown, trait_words

COLOURS = ("black", "white")
TRAITS = (*(str(n) for n in range(10)), *COLOURS)
LIMIT = {**{str(n): 3 for n in range(10)}, "black": 2, "white": 2}
"""How many of a seat's conditions each trait may appear in over a match (BX-3)."""

Usage = tuple[int, ...]
NO_USAGE: Usage = (0,) * len(TRAITS)

MULTIPLIER = {"": Fraction(2), "and": Fraction(4), "or": Fraction(3, 2)}
"""Payout per landing as a multiple of the stake (BX-5)."""

_TOKEN = re.compile(r"[a-z]+|[0-9]+|&|\||\S")


def _order(trait: str) -> tuple[int, str]:
    return (0 if trait in COLOURS else 1, trait)


@dataclass(frozen=True, slots=True)
class Condition:
    """One or two traits and the operator joining them; traits kept in a canonical order
    (colour first, then numbers ascending) so equality ignores the order written (BX-3)."""

    traits: tuple[str, ...]
    op: str = ""

    def __str__(self) -> str:
        return f" {self.op} ".join(self.traits) if self.op else self.traits[0]

    @property
    def multiplier(self) -> Fraction:
        return MULTIPLIER[self.op]

    def matches(self, tile: Tile) -> bool:
        hits = [(tile.colour == t) if t in COLOURS else (tile.number == int(t))
                for t in self.traits]
        return all(hits) if self.op == "and" else any(hits)

    def to_json(self) -> dict[str, object]:
        """The condition as facts: its traits (a colour, or a tile's number as a number) and
        the operator joining two (``and``/``or``; None for one trait)."""
        return {"traits": [t if t in COLOURS else int(t) for t in self.traits],
                "op": self.op or None}

    def words(self) -> str:
        return condition_words(self.traits, self.op)

    def uses(self) -> Usage:
        return tuple(1 if t in self.traits else 0 for t in TRAITS)


def make_condition(traits: list[str], op: str = "") -> Condition:
    """A condition from its parts, checked against BX-3."""
    if not 1 <= len(traits) <= 2:
        raise RuleError("BX-3", "a condition has one or two traits")
    if (len(traits) == 2) != bool(op):
        raise RuleError("BX-3", "two traits are joined by 'and' or 'or'")
    for t in traits:
        if t not in TRAITS:
            raise ParseError("BX-3", f"{shown(t)} is not a trait: a trait is black, white or a "
                                     "number from 0 to 9")
    if len(traits) == 2 and traits[0] == traits[1]:
        raise RuleError("BX-3", f"a condition may not join {trait_words(traits[0])} with "
                                "itself")
    if op == "or" and set(traits) == set(COLOURS):
        raise RuleError("BX-3", "'black or white' is not allowed as a condition: every "
                                "tile is one of the two")
    return Condition(tuple(sorted(traits, key=_order)), op)


def parse_condition(text: str) -> Condition:
    """Read ``black and 2``, ``6``, ``7 or 9`` (any case or spacing; ``&`` and ``|`` too)."""
    tokens = _TOKEN.findall(text.lower())
    if not tokens:
        raise ParseError("BX-3", "a condition needs a trait, for example black and 2, or 6, "
                                 "or 7 or 9")
    words = [{"&": "and", "|": "or"}.get(t, t) for t in tokens]
    for w in words:
        if w not in TRAITS and w not in ("and", "or"):
            raise ParseError("BX-3", f"{shown(w)} is not a trait (black, white or a number "
                                     "from 0 to 9) nor one of the words and, or, in the condition "
                                     f"{shown(text)}")
    if len(words) == 1:
        if words[0] in ("and", "or"):
            raise ParseError("BX-3", f"the condition {shown(text)} has no trait")
        return make_condition(words)
    if len(words) == 3 and words[1] in ("and", "or") and words[0] not in ("and", "or") \
            and words[2] not in ("and", "or"):
        return make_condition([words[0], words[2]], words[1])
    raise ParseError("BX-3", f"the condition {shown(text)} must be one trait, or two joined "
                             "by and or by or (at most two traits)")


def add_usage(usage: Usage, condition: Condition) -> Usage:
    return tuple(a + b for a, b in zip(usage, condition.uses(), strict=True))


def over_limit(usage: Usage) -> list[str]:
    """The traits whose uses exceed their BX-3 limit."""
    return [t for t, n in zip(TRAITS, usage, strict=True) if n > LIMIT[t]]


def remaining(usage: Usage) -> dict[str, int]:
    return {t: LIMIT[t] - n for t, n in zip(TRAITS, usage, strict=True)}


def max_conditions(usage: Usage) -> int:
    """How many different conditions (up to 3) a seat can still form within its limits.

    Singles use one trait each; with only two traits left, a third condition joins them with
    'and' (always allowed) if each has a use to spare; with one trait left there is one."""
    left = {t: n for t, n in remaining(usage).items() if n > 0}
    if len(left) >= 3:
        return 3
    if len(left) == 2:
        return 3 if all(n >= 2 for n in left.values()) else 2
    return len(left)
