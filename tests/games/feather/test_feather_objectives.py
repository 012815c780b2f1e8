"""LF-7: the declarative objective format, its validator, and scenario files."""

from __future__ import annotations

import pytest
from feather_helpers import BASINS, session

from arena.core.errors import ParseError, RuleError
from arena.games.feather.objectives import Constraint, parse_objective
from arena.games.feather.scenario import load_scenario, parse_scenario, shipped


def obj(**table: object):
    return parse_objective({"id": 1, "reward": {"points": 1}, **table}, "o")


@pytest.mark.parametrize("table, waters, caps, ok", [
    ({"buckets": 1, "amount": 3}, [3], [10], True),
    ({"buckets": 1, "amount": 3}, [3, 3], [10, 10], False),
    ({"buckets": 2, "all_equal": True, "amount": {"min": 3}}, [5, 5], [10, 5], True),
    ({"buckets": 2, "all_equal": True, "amount": {"min": 3}}, [2, 2], [10, 5], False),
    ({"all_different": True}, [1, 2, 3], [9, 9, 9], True),
    ({"all_different": True}, [1, 2, 1], [9, 9, 9], False),
    ({"amounts": [1, 2, 3]}, [3, 1, 2], [9, 9, 9], True),
    ({"amounts": [1, 2, 3]}, [3, 1], [9, 9], False),
    ({"sum": {"min": 10, "max": 11}}, [4, 7], [9, 9], True),
    ({"buckets": 1, "full": True, "capacity": 6}, [6], [6], True),
    ({"buckets": 1, "full": True, "capacity": 6}, [5], [5], False),
    ({"headroom": 1, "amount": 8}, [8], [9], True),
    ({"spread": {"max": 2}, "buckets": {"min": 2}}, [4, 6, 5], [9, 9, 9], True),
    ({"spread": {"max": 2}, "buckets": {"min": 2}}, [4], [9], False),
    ({"amount": {"in": [2, 4], "multiple_of": 4}}, [4], [9], True),
    ({"amount": {"in": [2, 4], "multiple_of": 4}}, [2], [9], False),
])
def test_predicates(table: dict, waters: list[int], caps: list[int], ok: bool) -> None:
    assert obj(**table).predicate.holds(waters, caps) is ok


@pytest.mark.parametrize("table, fragment", [
    ({"amount": "__import__('os').system('true')"}, "expected a number or a table"),
    ({"amount": {"between": [1, 2]}}, "unknown key 'between'"),
    ({"colour": "blue"}, "unknown key 'colour'"),
    ({"amount": {"min": 5, "max": 2}}, "min 5 is above max 2"),
    ({"buckets": 0}, "no number of buckets"),
    ({"all_equal": "yes"}, "expected true or false"),
    ({"amounts": []}, "non-empty list"),
    ({"amount": {}}, "empty constraint"),
])
def test_validator_errors_name_the_place(table: dict, fragment: str) -> None:
    with pytest.raises(ParseError, match="LF-7") as info:
        obj(**table)
    assert fragment in str(info.value)


@pytest.mark.parametrize("table, fragment", [
    ({"reward": {"points": 1}}, "needs an id"),
    ({"id": 1}, "needs a reward"),
    ({"id": 1, "reward": {}}, "must reward points or a powerup"),
    ({"id": 1, "reward": {"gold": 1}}, "unknown reward 'gold'"),
    ({"id": 1, "reward": {"points": -1}}, "at least 0"),
    ({"id": 0, "reward": {"points": 1}}, "at least 1"),
])
def test_validator_errors_on_ids_and_rewards(table: dict, fragment: str) -> None:
    with pytest.raises(ParseError, match=fragment):
        parse_objective(table, "o")


def test_descriptions_are_generated_in_words() -> None:
    assert obj(buckets=2, all_equal=True, amount={"min": 3}).describe() == (
        "2 buckets: each holding at least 3; all equal")
    assert obj(buckets=1, amount=3).describe() == "1 bucket holding exactly 3"
    assert Constraint(min=1, max=4).describe() == "1 to 4"


def test_scenario_errors() -> None:
    with pytest.raises(ParseError, match="not valid TOML"):
        parse_scenario("[[sessions]", "x")
    with pytest.raises(ParseError, match="at least one basin"):
        session("")
    with pytest.raises(ParseError, match="taken by a bucket"):
        session("[[sessions.basins]]\nname = \"A\"\nadd = 1\n")
    with pytest.raises(ParseError, match="taken by a bucket or a word"):
        session("[[sessions.basins]]\nname = \"to\"\nadd = 1\n")
    with pytest.raises(ParseError, match="two objectives have id 1"):
        session(BASINS + 2 * "[[sessions.objectives]]\nid = 1\nreward = { points = 1 }\n")
    with pytest.raises(ParseError, match="until comes before from"):
        session("[[sessions.basins]]\nname = \"Y\"\nadd = 1\nfrom = 5\nuntil = 2\n")
    with pytest.raises(RuleError, match="no shipped scenario"):
        load_scenario("nope")


def test_shipped_scenarios_load() -> None:
    assert {"example", "default"} <= set(shipped())
    default = load_scenario("default")
    assert [len(s.objectives) for s in default.sessions] == [10, 10, 10, 10]
    assert default.sessions[0].practice
    # Some objectives need Modify: a full bucket of a capacity no bucket has.
    needs_modify = [
        o for s in default.sessions for o in s.objectives
        if o.predicate.full and o.predicate.capacity is not None
        and o.predicate.capacity.eq is not None and o.predicate.capacity.eq not in s.capacities
    ]
    assert len(needs_modify) >= 3
