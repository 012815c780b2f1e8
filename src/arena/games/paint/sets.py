"""A seat's 8 sets of 4 containers and the rules they must follow (PF-4).

A set is written as its four colours in entry order: the container at the bottom of the set
enters first, so ``GRBR`` sends Green, Red, Blue, then Red. A design is the 8 sets separated by
commas (spaces and case are free): ``GRBR,RGBB,BRGG,...``. Sets are numbered 1-8 in the order
written; those numbers are what a player picks by (PF-5).

Validation collects every violation rather than stopping at the first, and names the sets
involved, so a designer can fix a design in one go (G-6).
"""

from __future__ import annotations

from collections import Counter

from arena.core.errors import RuleError
from arena.games.paint.grid import COLOURS

SETS = 8
SET_SIZE = 4
MIN_ALL_THREE = 5
MAX_PER_COLOUR = 13
COLOUR_NAMES = {"R": "red", "G": "green", "B": "blue"}


def _split(text: str) -> list[str]:
    return [p.strip().upper().replace(" ", "") for p in text.replace(";", ",").split(",")
            if p.strip()]


def colour_words(colours: str) -> str:
    """``GRBR`` -> ``green, red, blue, red`` (a set in words, first to enter first)."""
    return ", ".join(COLOUR_NAMES.get(c, c) for c in colours)


def set_numbers(idx: tuple[int, ...] | list[int]) -> str:
    """``sets 2, 4 and 8`` for the 0-based indices ``(1, 3, 7)``."""
    return _numbers(list(idx))


def _numbers(idx: list[int]) -> str:
    nums = [str(i + 1) for i in idx]
    if len(nums) == 1:
        return f"set {nums[0]}"
    if not nums:
        return "no set"
    return "sets " + ", ".join(nums[:-1]) + " and " + nums[-1]


def design_errors(text: str) -> list[str]:
    """Every PF-4 violation of a design written as text, each naming the sets involved."""
    parts = _split(text)
    errors: list[str] = []
    if len(parts) != SETS:
        errors.append(f"PF-4: a design is {SETS} sets separated by commas, this one has "
                      f"{len(parts)}")
    for i, part in enumerate(parts):
        bad = sorted({ch for ch in part if ch not in COLOURS})
        if bad:
            errors.append(f"PF-4: set {i + 1} holds something that is not a colour: write "
                          "each container as R, G or B, for red, green or blue")
        elif len(part) != SET_SIZE:
            errors.append(f"PF-4: set {i + 1} has {len(part)} containers, a set has "
                          f"{SET_SIZE}")
    if errors:
        return errors
    return rule_errors(tuple(parts))


def rule_errors(sets: tuple[str, ...]) -> list[str]:
    """PF-4 violations of well-formed sets (each 4 letters of R, G, B)."""
    errors: list[str] = []
    # No two sets identical (as sequences).
    seen: dict[str, list[int]] = {}
    for i, s in enumerate(sets):
        seen.setdefault(s, []).append(i)
    for s, idx in seen.items():
        if len(idx) > 1:
            errors.append(f"PF-4: {_numbers(idx)} are identical ({colour_words(s)}); no two "
                          "sets may be")
    # At least 5 of the 8 contain all three colours.
    full = [i for i, s in enumerate(sets) if set(s) == set(COLOURS)]
    if len(full) < MIN_ALL_THREE:
        lacking = [i for i in range(len(sets)) if i not in full]
        errors.append(
            f"PF-4: only {len(full)} of the {len(sets)} sets contain all three colours; at least "
            f"{MIN_ALL_THREE} must ({_numbers(lacking)} lack one)")
    counts = [Counter(s) for s in sets]
    # No set with four of one colour.
    for i, c in enumerate(counts):
        for colour, n in c.items():
            if n >= SET_SIZE:
                errors.append(f"PF-4: set {i + 1} is four {COLOUR_NAMES[colour]}; "
                              "no set may have four of one colour")
    # No two sets with three of the same colour.
    for colour in COLOURS:
        idx = [i for i, c in enumerate(counts) if c[colour] == 3]
        if len(idx) > 1:
            errors.append(f"PF-4: {_numbers(idx)} each have three {COLOUR_NAMES[colour]}; "
                          "at most one set may have three of a colour")
    # At most 13 of any colour across all sets.
    total: Counter[str] = Counter()
    for c in counts:
        total.update(c)
    for colour in COLOURS:
        if total[colour] > MAX_PER_COLOUR:
            errors.append(f"PF-4: {total[colour]} {COLOUR_NAMES[colour]} containers across all "
                          f"sets; at most {MAX_PER_COLOUR} of one colour")
    return errors


def parse_design(text: str) -> tuple[str, ...]:
    """A valid design as a tuple of 8 sets, or RuleError listing every violation (PF-4)."""
    errors = design_errors(text)
    if errors:
        raise RuleError("PF-4", "; ".join(e.removeprefix("PF-4: ") for e in errors))
    return tuple(_split(text))


def format_design(sets: tuple[str, ...]) -> str:
    return ",".join(sets)


def is_valid(sets: tuple[str, ...]) -> bool:
    return not design_errors(format_design(sets))
