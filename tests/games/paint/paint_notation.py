"""Paint Factory's notation found in a text: the token shapes its parsers read (PF-2 to PF-5),
for the checks that no line a player reads is notation (``tests/web/test_log_words.py``).

The shapes, from the parsers in ``arena.games.paint``:

- a turn's action (``grid.parse_action``): ``B then 1``, ``shove A then 2``, ``1,C``, and
  ``shove B``; a whole text that is a lone row or column (``1``, ``A``);
- a pick (``notation.parse_pick``): ``pick 5``, ``pick set 5``, and a whole text ``5``;
- a set and a design (``sets.parse_design``): ``GRBR``, ``GRBR,RGBB,...``;
- the last colour (``notation.parse_colour``): ``last R`` and a whole text ``R``;
- a grid as the events once carried it: rows of ``R``, ``G``, ``B`` and ``.`` (``R..../.G...``);
- a single token quoted (``after '2'``) and the page's old button words (``Confirm 1``,
  ``Preview of A``), where a lone row or column stood for the shove.

A lone letter or digit inside a sentence is a word ("a red container", "row 1"), not notation:
only the whole text, or a quoted token, is read as one."""

from __future__ import annotations

import re

_LINE = r"[A-E1-5]"
"""A row or column, as the page and the rules write it (upper case: "a" is a word)."""
_PATTERNS = [
    # two shoves: a column and a row, in either order, joined by "then" or a comma
    re.compile(r"(?<![\w'’])(?:(?i:shove)\s+)?(?:[A-E]\s+(?i:then)\s+[1-5]"
               r"|[1-5]\s+(?i:then)\s+[A-E])\b"),
    re.compile(r"\b(?:[A-E]\s*[,;]\s*[1-5]|[1-5]\s*[,;]\s*[A-E])\b"),
    re.compile(rf"\b(?i:shove)\s+{_LINE}\b"),
    re.compile(r"\bpick\s+(?:set\s*)?[1-8]\b", re.I),
    re.compile(r"\b[RGBrgb]{4}(?:\s*,\s*[RGBrgb]{4})*\b"),
    re.compile(r"\blast\s+[RGB]\b"),
    re.compile(r"[RGB.]{5}(?:/[RGB.]{5})+"),
    re.compile(r"(?<![\w.])(?=[RGB.]{5}(?![\w.]))(?=\.*[RGB])(?=[RGB]*\.)[RGB.]{5}"),
    re.compile(r"['\"`]\s*(?:[A-Ea-e1-5]|[RGB])\s*['\"`]"),
    re.compile(rf"\b(?i:confirm|preview of|tap)\s+{_LINE}\b"),
]
_WHOLE = re.compile(
    r"(?:shove\s+)?[A-E1-5](?:\s*(?:then|[,;\s])\s*[A-E1-5])?"  # an action
    r"|(?:pick\s+)?(?:set\s*)?[1-8]"  # a pick
    r"|(?:last\s+)?[RGB]",  # the last colour
    re.I)


def notation_in(text: str) -> str | None:
    """The first Paint Factory notation token in ``text``, or None."""
    if _WHOLE.fullmatch(text.strip()):
        return text.strip()
    hits = [m for m in (p.search(text) for p in _PATTERNS) if m]
    if not hits:
        return None
    first = min(hits, key=lambda m: m.start())
    return first.group(0)
