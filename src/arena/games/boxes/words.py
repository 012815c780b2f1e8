"""The server's own Boxes texts (refusals, help), made from the same facts the pages word.

The pages say every log line themselves (``static/games/boxes.js``); what the server still
writes is a refusal next to a control (G-6) or a phase's help. Those say cards, legs and
conditions in words ("card 9 moved three squares up"), never in the pick notation, and echo
a player's own text only cleaned of what cannot be printed.
"""

from __future__ import annotations

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve")

DIRECTION_WORDS = {"U": "up", "D": "down", "L": "left", "R": "right", "UL": "up and left",
                   "UR": "up and right", "DL": "down and left", "DR": "down and right"}
"""A direction code of the notation (G-1: up is towards row 1) as a host says it."""


def number_word(n: int) -> str:
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def squares(n: int) -> str:
    return f"{number_word(n)} square{'' if n == 1 else 's'}"


def shown(text: str, limit: int = 24) -> str:
    """A player's own token, echoed in a refusal: printable characters only, cut short, in
    quotes so that it reads as theirs."""
    clean = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    if not clean:
        return "an empty text"
    if len(clean) > limit:
        clean = clean[: limit - 1] + "…"
    return f"'{clean}'"


def trait_words(trait: str) -> str:
    """``black`` stays a colour; ``7`` is a tile's number."""
    return trait if trait in ("black", "white") else f"number {trait}"


def condition_words(traits: tuple[str, ...], op: str) -> str:
    """``black and 2`` -> "black and number 2" (BX-3)."""
    return f" {op} ".join(trait_words(t) for t in traits)
