"""PF-4: set text and validation naming each violation and the sets involved."""

from __future__ import annotations

import pytest

from arena.core.errors import RuleError
from arena.games.paint.designer import DEFAULT_DESIGN, random_design
from arena.games.paint.sets import design_errors, format_design, parse_design

GOOD = "RGBR,GBRG,BRGB,RBGR,GRBG,BGRB,RGRB,GBGR"


def test_pf4_valid_design_parses_in_entry_order() -> None:
    sets = parse_design(" rgbr, GBRG ,BRGB,RBGR,GRBG,BGRB,RGRB,GBGR ")
    assert sets[0] == "RGBR"  # first letter enters first: the text's GRBR = Green first
    assert format_design(sets) == GOOD
    assert design_errors(GOOD) == []


def test_pf4_identical_sets_named() -> None:
    errors = design_errors("RGBR,RGBR,BRGB,RBGR,GRBG,BGRB,RGRB,GBGR")
    assert errors == [("PF-4: sets 1 and 2 are identical (red, green, blue, red); no two "
                      "sets may be")]


def test_pf4_five_of_eight_need_all_three_colours() -> None:
    errors = design_errors("RRGG,GGBB,BBRR,RGRG,GRBG,BGRB,RGRB,GBGR")
    assert errors == ["PF-4: only 4 of the 8 sets contain all three colours; at least 5 must "
                      "(sets 1, 2, 3 and 4 lack one)"]


def test_pf4_no_two_sets_with_three_of_a_colour() -> None:
    errors = design_errors("RRGR,GBRG,BRGB,RBRR,GRBG,BGRB,RGRB,GBGR")
    assert "PF-4: sets 1 and 4 each have three red; at most one set may have three of a colour" in errors
    # one triple per colour is fine
    assert design_errors("RRGR,GBGG,BRBB,RBGR,GRBG,BGRB,RGRB,GBGR") == []


def test_pf4_no_set_of_four() -> None:
    errors = design_errors("RRRR,GBRG,BRGB,RBGB,GRBG,BGRB,RGBB,GBGR")
    assert any("set 1 is four red" in e for e in errors)


def test_pf4_at_most_13_of_a_colour_over_all_sets() -> None:
    errors = design_errors("RRGB,RRBG,RGRB,RBRG,GRRB,BRRG,RGBR,RBGR")
    assert "PF-4: 16 red containers across all sets; at most 13 of one colour" in errors


def test_pf4_shape_errors_collected() -> None:
    errors = design_errors("RGB,XYZW,RGBR")
    assert errors[0] == "PF-4: a design is 8 sets separated by commas, this one has 3"
    assert any("set 1 has 3 containers" in e for e in errors)
    assert any("set 2 holds something that is not a colour" in e for e in errors)
    with pytest.raises(RuleError, match="PF-4"):
        parse_design("RGB")


def test_random_and_default_designs_are_valid() -> None:
    import random

    assert design_errors(format_design(DEFAULT_DESIGN)) == []
    rng = random.Random(5)
    for _ in range(50):
        assert design_errors(format_design(random_design(rng))) == []
