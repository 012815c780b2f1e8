"""Reading a pick and the last colour (PF-5); shoves live in :mod:`grid`, sets in :mod:`sets`.

- pick: ``pick 5`` or ``5`` (the set's number in its designer's list, 1-8, as shown), or the
  set's own letters (``GRBR``), which are unique within a design;
- last colour: ``R``, ``G`` or ``B`` (also ``red``, ``green``, ``blue``, ``last R``).
"""

from __future__ import annotations

from arena.core.errors import ParseError, RuleError
from arena.games.paint.grid import COLOURS
from arena.games.paint.sets import COLOUR_NAMES


def parse_pick(text: str, sets: tuple[str, ...], shown: tuple[int, ...]) -> int:
    """The 0-based index of the picked set, which must be one of ``shown`` (PF-5)."""
    raw = text.strip().upper()
    if raw.startswith("PICK"):
        raw = raw[4:].strip()
    raw = raw.removeprefix("SET").strip()
    offered = ", ".join(f"{i + 1} ({sets[i]})" for i in shown)
    if raw.isdigit():
        number = int(raw)
        if not 1 <= number <= len(sets):
            raise RuleError("PF-5", f"there is no set {number}; shown now: {offered}")
        index = number - 1
    elif raw and all(ch in COLOURS for ch in raw):
        if raw not in sets:
            raise RuleError("PF-5", f"{raw} is not one of the sets shown now: {offered}")
        index = sets.index(raw)
    else:
        raise ParseError("PF-5", f"expected 'pick N' with N a shown set's number; shown: {offered}")
    if index not in shown:
        raise RuleError("PF-5", f"set {index + 1} is not shown now; choose one of {offered}")
    return index


def parse_colour(text: str) -> str:
    """The colour of the last container (PF-5)."""
    raw = text.strip().lower()
    if raw.startswith("last"):
        raw = raw[4:].strip()
    for letter, name in COLOUR_NAMES.items():
        if raw in (letter.lower(), name):
            return letter
    raise ParseError("PF-5", f"the last container is R, G or B, not {text.strip()!r}")
