"""Box within a Box within a Box's notation, found in a text: the token shapes the game's
parsers read (``arena.games.boxes.picks``, ``movement``, ``bets``, ``conditions``, ``board``
and the deck's card faces), so that a log line that still shows one is caught.

What a sentence of the log may hold is not notation: a cell's name (``D4``, G-1) is how a host
says where the box went, a card's number is "card 8", and "up", "left", "black" are words. What
is notation: a pick (``12 U``, ``17 R2D1``, ``14 U L``, ``3 to D1``, ``17 path D4-E4``), a leg
code standing alone (``(D)``, ``UL``), a bet (``black and 2: 3``), a board-text tile (``2w``),
a card face (``1+2 Orthogonal``), a card named ``#17``, and a path written as a chain of cells
(``D4-D3``, ``D4 → D3``)."""

from __future__ import annotations

import re

DIRECTION = r"(?:UL|UR|DL|DR|U|D|L|R)"
"""The leg codes the pick parser reads (case-sensitive here: "up" is a word, ``U`` a code)."""
KNIGHT = r"[UDLR][12]-?[UDLR][12]"
"""A knight leg: two segments, ``R2D1`` (the parser also reads ``R2-D1``)."""
CELL = r"[A-Ga-g][1-7]"
TRAIT = r"(?:black|white|[0-9])"

TOKENS = [
    # A pick: a card number and its first leg, a path or a destination.
    re.compile(rf"(?<![\w#])#?\d{{1,3}}\s+(?:{KNIGHT}|{DIRECTION})(?![\w-])"),
    re.compile(rf"(?<![\w#])#?\d{{1,3}}\s+(?:path|to)\s+{CELL}\b", re.I),
    re.compile(rf"\bpath\s+{CELL}\b", re.I),
    # A knight leg or a leg code standing alone.
    re.compile(rf"(?<![\w-]){KNIGHT}(?![\w-])"),
    re.compile(rf"(?<![\w'’-]){DIRECTION}(?![\w'’-])"),
    # A bet: a condition, a colon, a stake.
    re.compile(rf"(?<![\w])(?:{TRAIT}\s*(?:and|or|&|\|)\s*)?{TRAIT}\s*:\s*\d+\b", re.I),
    # A tile as the board text writes it.
    re.compile(r"(?<![\w.])[0-9][bw](?!\w)"),
    # A card's face: its number figure and displacement figure.
    re.compile(r"\b\d+(?:\+\d+)*\s+(?:orthogonal|diagonal|straight|knightwise)\b", re.I),
    # A card named by its hash.
    re.compile(r"#\d+"),
    # A path as a chain of cells.
    re.compile(rf"\b{CELL}(?:\s*(?:-|→|->)\s*{CELL})+\b"),
]


def notation_in(text: str) -> str | None:
    """The first notation token of the game found in ``text``, else None."""
    found: list[tuple[int, str]] = []
    for pattern in TOKENS:
        m = pattern.search(text)
        if m:
            found.append((m.start(), m.group(0)))
    return min(found)[1] if found else None
