"""LO-10: the text's own formats, verbatim and forgiving; errors that say what was expected."""

from __future__ import annotations

import pytest

from arena.core.errors import ParseError
from arena.games.lockedout.commands import (
    Claim,
    Dual,
    Plan,
    Solo,
    Vote,
    parse,
    parse_line,
    to_json,
)

NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Mary Ann")


def test_lo10_formats_verbatim() -> None:
    assert parse_line("Solo, Safe C, Left 3 Right 1", NAMES) == Solo(2, 3, 1)
    assert parse_line("Dual, Safe C, Left 4 with Alice", NAMES) == Dual(2, "left", 4, 0)
    assert parse_line("Bargain, Safe C, Claim 1 Gold bars, 0 Keys", NAMES) == Claim(2, 1, 0)


def test_lo10_forgiving_case_spacing_and_names() -> None:
    assert parse_line("  solo safe c left 3 right 1 ", NAMES) == Solo(2, 3, 1)
    assert parse_line("DUAL,SAFE p,RIGHT 2 WITH maryann", NAMES) == Dual(15, "right", 2, 5)
    assert parse_line("dual, safe a, left 1 with mary  ann", NAMES) == Dual(0, "left", 1, 5)
    assert parse_line("Dual, Safe A, Left 1 with seat 2", NAMES) == Dual(0, "left", 1, 1)
    assert parse_line("bargain safe c claim 2 gold bar 1 key", NAMES) == Claim(2, 2, 1)
    assert parse_line("Vote Bob", NAMES) == Vote(1)
    assert parse_line("pass", NAMES) is None


def test_lo10_several_commands_one_per_line() -> None:
    text = "Solo, Safe C, Left 3 Right 1\n\nDual, Safe D, Right 4 with Bob\npass"
    assert parse(text, NAMES) == (Solo(2, 3, 1), Dual(3, "right", 4, 1))


def test_lo10_canonical_text_round_trips() -> None:
    for cmd in (Solo(2, 3, 1), Claim(5, 2, 0)):
        assert parse_line(str(cmd), NAMES) == cmd
    d = Dual(0, "right", 2, 5)
    assert parse_line(d.text(NAMES), NAMES) == d
    plan = Plan((Solo(2, 3, 1), d, Claim(5, 2, 0), Vote(3)), NAMES)
    assert str(plan) == ("Solo, Safe C, Left 3 Right 1\nDual, Safe A, Right 2 with Mary Ann\n"
                         "Bargain, Safe F, Claim 2 Gold bars, 0 Keys\nVote Dave")
    assert Plan(parse(str(plan), NAMES), NAMES) == plan
    assert plan.to_json() == [to_json(c) for c in plan.commands]
    assert str(Plan((), NAMES)) == "pass" and Plan(parse("pass", NAMES)) == Plan(())


@pytest.mark.parametrize(
    ("text", "rule", "words"),
    [
        ("Solo, Safe C, Left 3", "LO-10", "Left 3 Right 1"),
        ("Solo, Safe Q, Left 3 Right 1", "LO-1", "A-P"),
        ("Solo, Safe C, Left 5 Right 1", "LO-2", "1 to 4"),
        ("Dual, Safe C, Left 4 with Zed", "LO-10", "no player named 'Zed'"),
        ("Bargain, Safe C, Claim 3 Gold bars, 0 Keys", "LO-5", "0-2 gold bars"),
        ("open the safe please", "LO-10", "Solo, Safe C"),
    ],
)
def test_lo10_errors_name_the_rule_and_the_format(text: str, rule: str, words: str) -> None:
    with pytest.raises(ParseError) as info:
        parse(text, NAMES)
    assert info.value.rule == rule
    assert words in str(info.value)
