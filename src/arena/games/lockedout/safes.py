"""Safes, combinations, the hidden colour mapping and the lights (LO-1, LO-4).

A combination is a ``(left, right)`` pair of card values 1-4. The sixteen safes ``A``-``P`` hold
the sixteen pairs, each exactly once, in an order drawn from the match seed (LO-1). A wrong
guess flashes a light whose colour mixes the colours of the conditions it meets; which colour
belongs to which condition is a hidden permutation drawn once per match (LO-4).
"""

from __future__ import annotations

import itertools
import random

from arena.core.errors import ParseError

Combo = tuple[int, int]
"""A (left, right) pair of card values, each 1-4."""

SAFE_NAMES = "ABCDEFGHIJKLMNOP"
VALUES = (1, 2, 3, 4)
COMBOS: tuple[Combo, ...] = tuple((a, b) for a in VALUES for b in VALUES)
COLOURS = "RGB"
MAPPINGS: tuple[str, ...] = tuple("".join(p) for p in itertools.permutations(COLOURS))
"""Every possible hidden mapping: the letter at index i is the colour of condition C(i+1)."""

_MIX: dict[frozenset[str], str] = {
    frozenset(): "black",
    frozenset("R"): "red",
    frozenset("G"): "green",
    frozenset("B"): "blue",
    frozenset("RB"): "magenta",
    frozenset("RG"): "yellow",
    frozenset("BG"): "cyan",
    frozenset("RGB"): "white",
}
LIGHT_NAMES: tuple[str, ...] = tuple(_MIX.values())
_PRIMARIES: dict[str, frozenset[str]] = {name: mix for mix, name in _MIX.items()}


def safe_index(letter: str) -> int:
    """The index 0-15 of a safe letter (any case), or a ParseError naming LO-1."""
    key = letter.strip().upper()
    if len(key) != 1 or key not in SAFE_NAMES:
        raise ParseError("LO-1", f"there is no safe {letter.strip()!r}; the safes are A-P")
    return SAFE_NAMES.index(key)


def conditions(lock: Combo, guess: Combo) -> tuple[bool, bool, bool]:
    """Which of C1-C3 a guess meets against a lock (LO-4).

    C1: the guess's two numbers differ by as much as the lock's; C2: the guess's right number
    is one away from the lock's right number; C3: the guess's left number appears in the lock.
    """
    (ll, lr), (gl, gr) = lock, guess
    return (abs(gl - gr) == abs(ll - lr), abs(gr - lr) == 1, gl in (ll, lr))


def pattern(lock: Combo, guess: Combo) -> int:
    """The conditions met as a 3-bit number (bit i set = C(i+1) met); cheap to compare."""
    c1, c2, c3 = conditions(lock, guess)
    return int(c1) | int(c2) << 1 | int(c3) << 2


PATTERN: dict[tuple[Combo, Combo], int] = {(lk, g): pattern(lk, g) for lk in COMBOS for g in COMBOS}
"""Precomputed patterns for every (lock, guess) pair; the deduction helper leans on it."""


def check_mapping(text: str) -> str:
    """A mapping such as ``RGB`` (colours of C1, C2, C3), upper-cased, or a ParseError."""
    key = text.strip().upper()
    if key not in MAPPINGS:
        raise ParseError("LO-4", f"a mapping is R, G and B in some order (e.g. GBR), not {text!r}")
    return key


def colour_of_pattern(bits: int, mapping: str) -> str:
    """The light's colour for a set of met conditions under a mapping (LO-4)."""
    return _MIX[frozenset(mapping[i] for i in range(3) if bits >> i & 1)]


def pattern_of_colour(colour: str, mapping: str) -> int:
    """The inverse of :func:`colour_of_pattern`: which conditions a colour says were met."""
    primaries = _PRIMARIES[colour]
    return sum(1 << i for i in range(3) if mapping[i] in primaries)


def light(lock: Combo, guess: Combo, mapping: str) -> str:
    """The colour a wrong guess flashes (LO-4); a right guess opens the safe and flashes
    nothing (LO-12), so asking for its light is a mistake of the caller."""
    if lock == guess:
        raise ValueError("a correct guess opens the safe and shows no light (LO-12)")
    return colour_of_pattern(PATTERN[(lock, guess)], mapping)


def check_colour(text: str) -> str:
    key = text.strip().lower()
    if key not in _PRIMARIES:
        raise ParseError("LO-4", f"a light is one of {', '.join(LIGHT_NAMES)}, not {text!r}")
    return key


def deal_combos(rng: random.Random) -> tuple[Combo, ...]:
    """The sixteen combinations shuffled over safes A-P (LO-1, G-7)."""
    combos = list(COMBOS)
    rng.shuffle(combos)
    return tuple(combos)


def draw_mapping(rng: random.Random) -> str:
    """The hidden colour mapping, once per match (LO-4, G-7)."""
    return rng.choice(MAPPINGS)


def combo_text(combo: Combo) -> str:
    return f"Left {combo[0]} Right {combo[1]}"
