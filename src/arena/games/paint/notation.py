"""Reading a pick and the last colour (PF-5); shoves live in :mod:`grid`, sets in :mod:`sets`.

- pick: ``pick 5`` or ``5`` (the set's number in its designer's list, 1-8, as shown), or the
  set's own letters (``GRBR``), which are unique within a design;
- last colour: ``R``, ``G`` or ``B`` (also ``red``, ``green``, ``blue``, ``last R``).

Each phase's move is a value whose ``str()`` is its canonical notation and whose ``to_json()``
is its facts, what the match log records and the pages word: a :class:`Design` (PF-4,
``{"sets": [["G", "R", "B", "R"], ...]}``), a :class:`SetPick` (PF-5, ``{"set": 5}``), a
shove's :class:`arena.games.paint.grid.Action` (PF-2, PF-3, ``{"shoves": [{"column": "A",
"direction": "down"}, {"row": 2, "direction": "right"}]}``) or the last :class:`Colour` (PF-5,
``{"colour": "R"}``).
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.core.errors import ParseError, RuleError
from arena.games.paint.grid import COLOURS, Action
from arena.games.paint.sets import COLOUR_NAMES, format_design, set_numbers


@dataclass(frozen=True)
class Design:
    """The 8 sets a seat designs for its opponent, in order (PF-4)."""

    sets: tuple[str, ...]

    def __str__(self) -> str:
        return format_design(self.sets)

    def to_json(self) -> dict[str, list[list[str]]]:
        return {"sets": [list(s) for s in self.sets]}


@dataclass(frozen=True)
class SetPick:
    """A shown set, by its number in its designer's list, from 1 (PF-5)."""

    number: int

    def __str__(self) -> str:
        return f"pick {self.number}"

    def to_json(self) -> dict[str, int]:
        return {"set": self.number}


@dataclass(frozen=True)
class Colour:
    """The colour of the last container, ``R``, ``G`` or ``B`` (PF-5)."""

    letter: str

    def __str__(self) -> str:
        return self.letter

    def to_json(self) -> dict[str, str]:
        return {"colour": self.letter}


PaintMove = Design | SetPick | Action | Colour
"""Every move of a Paint Factory match."""


def parse_pick(text: str, sets: tuple[str, ...], shown: tuple[int, ...]) -> int:
    """The 0-based index of the picked set, which must be one of ``shown`` (PF-5)."""
    raw = text.strip().upper()
    if raw.startswith("PICK"):
        raw = raw[4:].strip()
    raw = raw.removeprefix("SET").strip()
    offered = set_numbers(shown)
    if raw.isascii() and raw.isdigit():
        number = int(raw)
        if not 1 <= number <= len(sets):
            raise RuleError("PF-5", f"the sets are numbered 1 to {len(sets)}; shown now: "
                                    f"{offered}")
        index = number - 1
    elif raw and all(ch in COLOURS for ch in raw):
        if raw not in sets:
            raise RuleError("PF-5", f"no set of yours has those colours; shown now: {offered}")
        index = sets.index(raw)
    else:
        raise ParseError("PF-5", f"take a shown set by its number; shown now: {offered}")
    if index not in shown:
        raise RuleError("PF-5", f"set {index + 1} is not shown now; take one of {offered}")
    return index


def parse_colour(text: str) -> str:
    """The colour of the last container (PF-5)."""
    raw = text.strip().lower()
    if raw.startswith("last"):
        raw = raw[4:].strip()
    for letter, name in COLOUR_NAMES.items():
        if raw in (letter.lower(), name):
            return letter
    raise ParseError("PF-5", "the last container is red, green or blue, written R, G or B")
