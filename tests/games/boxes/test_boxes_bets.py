"""Conditions, usage limits, bets and payouts (BX-3, BX-4, BX-5)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.errors import ParseError, RuleError
from arena.games.boxes.bets import Bet, fmt, parse_bets, required_count, settle
from arena.games.boxes.board import Tile
from arena.games.boxes.conditions import (
    NO_USAGE,
    TRAITS,
    Condition,
    add_usage,
    max_conditions,
    over_limit,
    parse_condition,
)

TWENTY = Fraction(20)


def test_bx3_the_rule_texts_examples_parse() -> None:
    assert parse_condition("black and 2") == Condition(("black", "2"), "and")
    assert parse_condition("6") == Condition(("6",))
    assert parse_condition("7 or 9") == Condition(("7", "9"), "or")
    assert str(parse_condition("  BLACK   And 2 ")) == "black and 2"
    assert parse_condition("black&2") == parse_condition("2 and black")
    assert parse_condition("9|7") == parse_condition("7 or 9")
    assert parse_condition("7 or 9") != parse_condition("7 and 9")


@pytest.mark.parametrize(("text", "kind", "message"), [
    ("black or white", RuleError, "'black or white' is not allowed"),
    ("white OR black", RuleError, "'black or white' is not allowed"),
    ("7 or 7", RuleError, "with itself"),
    ("red", ParseError, "'red' is not a trait"),
    ("10", ParseError, "'10' is not a trait"),
    ("1 and 2 and 3", ParseError, "at most two traits"),
    ("and", ParseError, "no trait"),
    ("", ParseError, "needs a trait"),
    ("black 2", ParseError, "joined by"),
])
def test_bx3_bad_conditions_are_named(text: str, kind: type[Exception], message: str) -> None:
    with pytest.raises(kind) as err:
        parse_condition(text)
    assert "BX-3" in str(err.value) and message in str(err.value)


def test_bx3_matching() -> None:
    b2, w2, b5 = Tile(2, True), Tile(2, False), Tile(5, True)
    cond = parse_condition("black and 2")
    assert cond.matches(b2) and not cond.matches(w2) and not cond.matches(b5)
    either = parse_condition("black or 2")
    assert either.matches(b2) and either.matches(w2) and either.matches(b5)
    assert not either.matches(Tile(5, False))


def test_bx3_usage_limits_over_the_match() -> None:
    usage = NO_USAGE
    for text in ("black", "black and 2"):
        usage = add_usage(usage, parse_condition(text))
    assert over_limit(usage) == []
    assert over_limit(add_usage(usage, parse_condition("black or 3"))) == ["black"]
    for _ in range(3):
        usage = add_usage(usage, parse_condition("4"))
    assert over_limit(add_usage(usage, parse_condition("4 or 5"))) == ["4"]
    with pytest.raises(RuleError, match="BX-3") as err:
        parse_bets("black or 1: 1; 6: 1; 7: 1", TWENTY, usage)
    assert "black" in str(err.value)
    with pytest.raises(RuleError, match="BX-3"):
        parse_bets("4: 1; 6: 1; 7: 1", TWENTY, usage)


def test_bx4_three_different_conditions_whole_stakes_within_points() -> None:
    bets = parse_bets("black and 2: 3; 6: 1; 7 or 9: 2", TWENTY, NO_USAGE)
    assert [str(b) for b in bets] == ["black and 2: 3", "6: 1", "7 or 9: 2"]
    assert parse_bets("black and 2: 3\n6: 1\n7 or 9: 2", TWENTY, NO_USAGE) == bets
    cases = [
        ("black: 3; 6: 1", "exactly three"),
        ("black: 3; 2 and black: 1; black and 2: 2", "bets 2 and 3 are on the same condition, "
                                                     "black and number 2"),
        ("black: 0; 6: 1; 7: 1", "at least 1"),
        ("black: 10; 6: 10; 7: 1", "more than your 20 points"),
    ]
    for text, message in cases:
        with pytest.raises(RuleError, match="BX-4") as err:
            parse_bets(text, TWENTY, NO_USAGE)
        assert message in str(err.value)
    for text in ("black: 1.5; 6: 1; 7: 1", "black 3; 6: 1; 7: 1", "black: x; 6: 1; 7: 1"):
        with pytest.raises(ParseError, match="BX-4"):
            parse_bets(text, TWENTY, NO_USAGE)


def test_bx4_fewer_than_three_whole_points() -> None:
    assert required_count(Fraction(5, 2), NO_USAGE) == 2
    assert parse_bets("black: 1; 6: 1", Fraction(5, 2), NO_USAGE)
    with pytest.raises(RuleError, match=r"more than your 2\.5 points"):
        parse_bets("black: 2; 6: 1", Fraction(5, 2), NO_USAGE)  # so each stake is 1
    assert required_count(Fraction(1, 2), NO_USAGE) == 0
    assert parse_bets("none", Fraction(1, 2), NO_USAGE) == ()
    with pytest.raises(RuleError, match="'none'"):
        parse_bets("6: 1", Fraction(1, 2), NO_USAGE)


def test_bx3_usage_exhausted_bets_on_as_many_as_it_can() -> None:
    # Only traits 5 (3 uses) and 6 (1 use) left: '5', '6', and '5 and 6' would need 2 of 6.
    usage = tuple(3 if t not in ("5", "6") else (0 if t == "5" else 2) for t in TRAITS)
    usage = tuple(2 if t in ("black", "white") else n for t, n in zip(TRAITS, usage, strict=True))
    assert max_conditions(usage) == 2
    assert parse_bets("5: 4; 5 or 6: 2", TWENTY, usage)
    single = (*tuple(3 if t != "5" else 0 for t in TRAITS[:10]), 2, 2)
    assert max_conditions(single) == 1 and max_conditions((3,) * 10 + (2, 2)) == 0


def test_bx5_payouts_worked_examples() -> None:
    landed = [Tile(2, True), Tile(2, True), Tile(6, False), Tile(9, False), Tile(2, False)]
    single = settle(Bet(parse_condition("6"), 1), landed)
    assert (single.hits, single.payout, single.net) == (1, 2, 1)
    both = settle(Bet(parse_condition("black and 2"), 3), landed)
    assert (both.hits, both.payout) == (2, 24)  # 4 x 3 per landing, twice
    either = settle(Bet(parse_condition("7 or 9"), 3), landed)
    assert (either.hits, either.payout) == (1, Fraction(9, 2))  # 1.5 x 3: fractional
    assert fmt(either.payout) == "4.5" and fmt(Fraction(41, 3)) == "41/3"
    miss = settle(Bet(parse_condition("white and 0"), 5), landed)
    assert (miss.hits, miss.payout, miss.net) == (0, 0, -5)


TILES = st.builds(Tile, st.integers(0, 9), st.booleans())
CONDS = st.sampled_from(
    [parse_condition(t) for t in ("black", "white", "0", "7", "black and 2", "white and 9",
                                   "3 or 4", "black or 5", "1 and 2")]
)


@settings(deadline=None, max_examples=60)
@given(cond=CONDS, stake=st.integers(1, 50), landed=st.lists(TILES, max_size=20))
def test_bx5_payout_is_multiplier_times_stake_per_landing(cond: Condition, stake: int,
                                                         landed: list[Tile]) -> None:
    result = settle(Bet(cond, stake), landed)
    hits = sum(cond.matches(t) for t in landed)
    per = {"": Fraction(2), "and": Fraction(4), "or": Fraction(3, 2)}[cond.op]
    assert result.hits == hits
    assert result.payout == per * stake * hits
    assert isinstance(result.payout, Fraction)
    assert result.net == result.payout - stake
