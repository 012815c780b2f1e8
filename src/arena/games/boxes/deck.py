"""The Community Cards as data (BX-8, BX-10).

The rule text refers to a card list it does not include; BX-10 fixes a default deck, shipped
as ``deck.toml`` beside this module so that a host can replace it with a file of its own
without touching code. :func:`parse_deck` reads such a file and rejects a malformed one with
the card number and the reason (G-6).
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from typing import Any

from arena.core.errors import ParseError

TYPES = ("A", "A+", "B", "C")
DISPLACEMENTS = ("Orthogonal", "Diagonal", "Straight", "Knightwise")
_GROUP = re.compile(r"\s*([0-9]+(?:\s*\+\s*[0-9]+)*)\s+([A-Za-z]+)\s*")
_JOIN = re.compile(r"\+")


def parse_move(move: str) -> tuple[tuple[int, ...], tuple[str, ...]] | None:
    """Legs and one displacement per leg from a designated movement: ``2 Orthogonal``,
    ``1+2 Diagonal``, or several displacement figures in order, ``1 Orthogonal + 2 Diagonal``
    (BX-8). None when the text is not of that shape."""
    legs: list[int] = []
    disps: list[str] = []
    pos = 0
    while True:
        m = _GROUP.match(move, pos)
        if m is None:
            return None
        ns = [int(x) for x in m.group(1).split("+")]
        legs.extend(ns)
        disps.extend([m.group(2).capitalize()] * len(ns))
        pos = m.end()
        if pos == len(move):
            return tuple(legs), tuple(disps)
        j = _JOIN.match(move, pos)
        if j is None:
            return None
        pos = j.end()
_SPECIAL = re.compile(r"^(increase|decrease)\s+([0-9]+)$|^(invert)$|^(wrap)$")


@dataclass(frozen=True, slots=True)
class Card:
    """One card: type, number figure (one entry per leg), displacement and special figures.

    ``add`` is the Increase (positive) or Decrease (negative) amount applied modulo 10 after
    the move; ``invert`` swaps colours after the move; ``wrap`` lets the box wrap around the
    board's edges instead of being stopped by them (BX-8).
    """

    number: int
    type: str
    legs: tuple[int, ...]
    displacement: str
    add: int = 0
    invert: bool = False
    wrap: bool = False
    copies: int = 1
    leg_displacements: tuple[str, ...] = ()
    """One displacement per leg, for a card with several displacement figures (played in the
    order written); empty when one figure covers every leg (``displacement``)."""

    def displacement_of(self, leg: int) -> str:
        return self.leg_displacements[leg] if self.leg_displacements else self.displacement

    @property
    def displacements(self) -> tuple[str, ...]:
        return tuple(self.displacement_of(i) for i in range(len(self.legs)))

    @property
    def special(self) -> str:
        parts: list[str] = []
        if self.add > 0:
            parts.append(f"Increase {self.add}")
        elif self.add < 0:
            parts.append(f"Decrease {-self.add}")
        if self.invert:
            parts.append("Invert")
        if self.wrap:
            parts.append("Wrap")
        return ", ".join(parts)

    @property
    def move(self) -> str:
        """The designated movement as written: legs sharing a displacement figure are grouped
        (``1+2 Orthogonal``, ``1 Orthogonal + 2 Diagonal``); :func:`parse_move` reads it back."""
        groups: list[tuple[list[int], str]] = []
        for n, disp in zip(self.legs, self.displacements, strict=True):
            if groups and groups[-1][1] == disp:
                groups[-1][0].append(n)
            else:
                groups.append(([n], disp))
        return " + ".join(f"{'+'.join(str(n) for n in ns)} {d}" for ns, d in groups)

    def __str__(self) -> str:
        text = f"#{self.number} {self.type} {self.move}"
        return f"{text} {self.special}" if self.special else text

    def to_json(self) -> dict[str, Any]:
        """The card as a deck file writes it (the tools' output, :func:`format_deck`)."""
        return {"number": self.number, "type": self.type, "move": self.move,
                "special": self.special, "copies": self.copies}

    def facts(self) -> dict[str, Any]:
        """The card as the events and views carry it: one number of squares (or of knight's
        jumps) per leg and its displacement figure, and the special figures as values (BX-8);
        the pages draw and word the card from these."""
        return {"number": self.number, "type": self.type, "legs": list(self.legs),
                "displacements": [d.lower() for d in self.displacements], "add": self.add,
                "invert": self.invert, "wrap": self.wrap, "copies": self.copies}


@dataclass(frozen=True)
class Deck:
    """A named set of cards, keyed by number; ``pile()`` is the multiset a match shuffles."""

    name: str
    cards: tuple[Card, ...]

    @cached_property
    def by_number(self) -> dict[int, Card]:
        return {c.number: c for c in self.cards}

    def card(self, number: int) -> Card:
        return self.by_number[number]

    def pile(self) -> tuple[int, ...]:
        """Every copy's card number: 56 for the default deck (BX-10)."""
        return tuple(c.number for c in self.cards for _ in range(c.copies))


def _fail(number: object, reason: str) -> ParseError:
    return ParseError("BX-10", f"deck card {number}: {reason}")


def _card(raw: Any, position: int) -> Card:
    if not isinstance(raw, dict):
        raise _fail(f"#{position}", "each card must be a [[card]] table")
    number = raw.get("number")
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise _fail(f"at position {position}", "needs a whole 'number' of 1 or more")
    unknown = set(raw) - {"number", "type", "move", "special", "copies"}
    if unknown:
        raise _fail(number, f"unknown field(s) {', '.join(sorted(unknown))}")
    kind = raw.get("type")
    if kind not in TYPES:
        raise _fail(number, f"type must be one of {', '.join(TYPES)}, not {kind!r}")
    move = raw.get("move")
    parsed = parse_move(move) if isinstance(move, str) else None
    if parsed is None:
        raise _fail(number, f"move must look like '1+2 Orthogonal' or '1 Orthogonal + 2 "
                            f"Diagonal', not {move!r}")
    legs, disps = parsed
    if any(n < 1 or n > 12 for n in legs):
        raise _fail(number, "every number-figure part must be between 1 and 12")
    if len(legs) > 4:
        raise _fail(number, "a number figure has at most 4 parts")
    for disp in disps:
        if disp not in DISPLACEMENTS:
            raise _fail(number, f"displacement must be one of {', '.join(DISPLACEMENTS)}, "
                                f"not {disp!r}")
    special = raw.get("special", "")
    if not isinstance(special, str):
        raise _fail(number, "special must be text")
    add, invert, wrap = 0, False, False
    for part in (p.strip().lower() for p in special.split(",") if p.strip()):
        s = _SPECIAL.match(re.sub(r"\s+", " ", part))
        if s is None:
            raise _fail(number, f"unknown special figure {part!r} (Increase N, Decrease N, "
                                "Invert, Wrap)")
        if s.group(1):
            if add:
                raise _fail(number, "at most one Increase/Decrease figure")
            amount = int(s.group(2))
            if not 1 <= amount <= 9:
                raise _fail(number, "Increase/Decrease amounts are 1 to 9")
            add = amount if s.group(1) == "increase" else -amount
        elif s.group(3):
            invert = True
        else:
            wrap = True
    copies = raw.get("copies", 1)
    if not isinstance(copies, int) or isinstance(copies, bool) or not 1 <= copies <= 8:
        raise _fail(number, f"copies must be a whole number from 1 to 8, not {copies!r}")
    mixed = disps if len(set(disps)) > 1 else ()
    return Card(number, kind, legs, disps[0], add, invert, wrap, copies, mixed)


def parse_deck(text: str) -> Deck:
    """Read a deck file (TOML, the format of ``deck.toml``); reject it with the card and the
    reason when anything is malformed (BX-10, G-6)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ParseError("BX-10", f"the deck file is not valid TOML: {exc}") from None
    raw_cards = data.get("card")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise ParseError("BX-10", "the deck file holds no [[card]] tables")
    cards: list[Card] = []
    seen: set[int] = set()
    for position, raw in enumerate(raw_cards, start=1):
        card = _card(raw, position)
        if card.number in seen:
            raise _fail(card.number, "the number is used by two cards")
        seen.add(card.number)
        cards.append(card)
    name = data.get("name", "host deck")
    return Deck(str(name), tuple(cards))


def format_deck(deck: Deck) -> str:
    """A deck as the TOML text :func:`parse_deck` reads (the format of ``deck.toml``)."""
    def q(text: str) -> str:  # JSON's string escapes are valid TOML basic-string escapes
        return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")

    lines = [f"name = {q(deck.name)}"]
    for c in deck.cards:
        lines += ["", "[[card]]", f"number = {c.number}", f"type = {q(c.type)}",
                  f"move = {q(c.move)}", f"special = {q(c.special)}", f"copies = {c.copies}"]
    return "\n".join(lines) + "\n"


@cache
def default_deck() -> Deck:
    """The 38-card deck of BX-10 (cards 1-18 twice, 19-38 once)."""
    text = resources.files("arena.games.boxes").joinpath("deck.toml").read_text("utf-8")
    return parse_deck(text)


@cache
def deck_from_text(text: str) -> Deck:
    """The host's deck (TOML text), or the default one for an empty text."""
    return default_deck() if not text.strip() else parse_deck(text)
