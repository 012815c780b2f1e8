"""Feather's notation, found in a text: the token shapes ``arena.games.feather.actions``
reads and writes (LF-9): a verb, then buckets (letters A-H), basins (names in capitals),
numbers and the ``->`` and ``+`` glue. The words of the log name the same things but in
sentences ("You filled bucket A from basin Z"), so a verb directly followed by its bare
arguments, an arrow between names or buckets joined by ``+`` is notation."""

from __future__ import annotations

import re

B = r"[A-H]"
"""A bucket as the notation writes it."""
Z = r"[A-Z][A-Z0-9_]*"
"""A basin: the scenario's name for it, in capitals (the parser reads names upper-cased)."""

SHAPES = [
    rf"(?i:fill)\s+{Z}\s+(?:->\s+|into\s+|to\s+)?{B}\b",
    rf"(?i:drain)\s+{B}\b(?:\s+(?:->|into|to)\s+{Z}\b)?",
    rf"(?i:transfer)\s+{B}\s*(?:->|to|into)?\s*{B}\b",
    rf"(?i:complete)\s+{B}(?:\s*\+\s*{B})*\s+#?\d+",
    rf"(?i:exchange)\s+{B}\s+(?:<->\s+|and\s+|with\s+)?{B}\b",
    rf"(?i:modify)\s+{B}\s+[+-]?\d+",
    rf"(?i:sip)\s+(?:(?i:opp|opponent|my|own)\s+)?{B}\b",
    rf"(?i:lock)\s+(?:(?i:opp)\s+)?{B}\b",
    rf"(?i:accelerate)\s+{Z}\s+\d+",
    rf"\b{B}\s*\+\s*{B}\b",
    rf"\b{Z}\s*->\s*{Z}\b",
]
NOTATION = re.compile("|".join(f"(?:{s})" for s in SHAPES))


def notation_in(text: str) -> str | None:
    """The first notation token found in ``text``, else None. A text that is only ``pass``
    (the notation's one bare word) is notation too; in a sentence the word is English."""
    if text.strip().lower() == "pass":
        return text.strip()
    hit = NOTATION.search(text)
    return hit.group(0) if hit else None
