"""LO-1 and LO-4: combinations, conditions, colours; the text's worked examples (lock 2,3)."""

from __future__ import annotations

import random

import pytest

from arena.core.errors import ParseError
from arena.games.lockedout.safes import (
    COMBOS,
    MAPPINGS,
    PATTERN,
    check_mapping,
    colour_of_pattern,
    conditions,
    deal_combos,
    draw_mapping,
    light,
    pattern,
    pattern_of_colour,
)

LOCK = (2, 3)


@pytest.mark.parametrize(
    ("guess", "met"),
    [
        ((4, 3), (True, False, False)),  # |4-3| = |2-3|: C1 only
        ((4, 4), (False, True, False)),  # 4 = 3 + 1: C2 only
        ((4, 2), (False, True, False)),  # 2 = 3 - 1: C2 only
        ((3, 4), (True, True, True)),  # 3 is in the lock, and C1, C2 too: white
    ],
)
def test_lo4_golden_condition_examples(guess: tuple[int, int], met: tuple[bool, ...]) -> None:
    assert conditions(LOCK, guess) == met


def test_lo4_golden_example_white_under_every_mapping() -> None:
    assert {light(LOCK, (3, 4), m) for m in MAPPINGS} == {"white"}


def test_lo4_single_condition_takes_its_mapped_colour() -> None:
    assert light(LOCK, (4, 3), "RGB") == "red"
    assert light(LOCK, (4, 3), "GBR") == "green"
    assert light(LOCK, (4, 4), "RGB") == "green"
    assert light(LOCK, (4, 4), "RBG") == "blue"


def test_lo4_mixes() -> None:
    # bits: C1=1, C2=2, C3=4; mapping RGB colours them red, green, blue
    assert colour_of_pattern(0, "RGB") == "black"
    assert colour_of_pattern(1 | 4, "RGB") == "magenta"
    assert colour_of_pattern(1 | 2, "RGB") == "yellow"
    assert colour_of_pattern(2 | 4, "RGB") == "cyan"
    assert colour_of_pattern(7, "BRG") == "white"


def test_lo4_colour_inverts_pattern() -> None:
    for m in MAPPINGS:
        for bits in range(8):
            assert pattern_of_colour(colour_of_pattern(bits, m), m) == bits
    for lk in COMBOS:
        for g in COMBOS:
            c1, c2, c3 = conditions(lk, g)
            assert PATTERN[(lk, g)] == pattern(lk, g) == c1 + 2 * c2 + 4 * c3


def test_lo1_combinations_are_a_seeded_permutation() -> None:
    a = deal_combos(random.Random(7))
    assert sorted(a) == sorted(COMBOS) and len(set(a)) == 16
    assert a == deal_combos(random.Random(7))
    assert a != deal_combos(random.Random(8))
    assert draw_mapping(random.Random(7)) in MAPPINGS


def test_lo4_mapping_text_is_checked() -> None:
    assert check_mapping(" gbr ") == "GBR"
    with pytest.raises(ParseError, match="LO-4"):
        check_mapping("RRG")
