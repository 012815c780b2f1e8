"""The scenario checker: every structural problem of a host's scenario is
named with its rule and its place, all at once; the shipped scenarios have none; and the
TOML the editor writes reads back as the same data."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.feather.check import name_problems, problems
from arena.games.feather.scenario import SCENARIO_DIR, load_scenario, parse_scenario, shipped
from arena.games.feather.toml_text import dump

GOOD = """
title = "two buckets"
[[sessions]]
name = "one"
ticks = 20
buckets = [5, 3]
[[sessions.basins]]
name = "W"
add = 1
[[sessions.objectives]]
id = 1
buckets = 1
amount = 4
reward = { points = 1, modify = 1 }
"""


def _with(**changes: str) -> str:
    text = GOOD
    for old, new in changes.items():
        text = text.replace(old.replace("_", " "), new)
    return text


def _rules(text: str) -> list[str]:
    return [p.rule for p in problems(text)]


@pytest.mark.parametrize("name", sorted(shipped()))
def test_the_shipped_scenarios_have_no_problem(name: str) -> None:
    text = (SCENARIO_DIR / f"{name}.toml").read_text(encoding="utf-8")
    assert problems(text) == []
    assert problems(load_scenario(name)) == []


def test_a_good_scenario_has_no_problem() -> None:
    assert problems(GOOD) == []


def test_an_objective_needing_more_buckets_than_the_session_has_names_lf6() -> None:
    found = problems(GOOD.replace("buckets = 1\n", "buckets = 3\n"))
    assert [(p.rule, p.where) for p in found] == [("LF-6", "sessions[0].objectives[0]")]
    assert "needs 3 buckets" in found[0].message and "gives each seat 2" in found[0].message


@pytest.mark.parametrize("cap", ["-3", "0"])
def test_a_capacity_below_one_names_lf1_and_the_bucket(cap: str) -> None:
    found = problems(GOOD.replace("buckets = [5, 3]", f"buckets = [5, {cap}]"))
    assert [(p.rule, p.where) for p in found] == [("LF-1", "sessions[0].buckets[1]")]
    assert f"bucket B's capacity is {cap}" in found[0].message


def test_a_schedule_past_the_session_end_names_lf8() -> None:
    found = problems(GOOD.replace("add = 1", "at = [[25, 10]]"))
    assert [p.rule for p in found][:1] == ["LF-8"]
    assert "ends at tick 20" in found[0].message


def test_a_basin_that_never_pays_names_lf8() -> None:
    late = GOOD.replace('name = "W"\nadd = 1', 'name = "W"\nadd = 3\nfrom = 20')
    assert "LF-8" in _rules(late)


def test_a_reward_that_is_not_a_powerup_names_lf9() -> None:
    found = problems(GOOD.replace("modify = 1", "shield = 1"))
    assert [(p.rule, p.where) for p in found] == [("LF-9", "sessions[0].objectives[0].reward")]
    assert "'shield' is not a powerup" in found[0].message


@pytest.mark.parametrize(("line", "why"), [
    ("amount = 9", "no bucket can hold exactly 9"),
    ("sum = 40", "more than the buckets hold together"),
])
def test_a_target_beyond_the_buckets_names_lf6(line: str, why: str) -> None:
    text = GOOD.replace("amount = 4", line)
    found = problems(text)
    assert [p.rule for p in found] == ["LF-6"] and why in found[0].message


def test_a_target_beyond_the_basins_water_names_the_supply() -> None:
    text = GOOD.replace("ticks = 20", "ticks = 3").replace("amount = 4", "sum = 7")
    text = text.replace("buckets = 1\n", "buckets = 2\n")
    found = problems(text)
    assert [p.rule for p in found] == ["LF-6"] and "basins bring" in found[0].message


def test_modify_lets_a_capacity_objective_through_and_its_absence_does_not() -> None:
    # Objective 1 asks for a capacity of 7: 5 + 2 with the Modify that objective 2 pays
    # (LF-9). A Modify paid only by the objective that needs it cannot come first (LF-12).
    wants = GOOD.replace("amount = 4", "capacity = 7\nfull = true") + (
        "[[sessions.objectives]]\nid = 2\nbuckets = 1\namount = 1\n"
        "reward = { points = 1, modify = 1 }\n")
    assert problems(wants) == []
    found = problems(wants.replace("modify = 1", "sip = 1"))
    assert [p.rule for p in found] == ["LF-6"] and "no Modify" in found[0].message


def test_every_problem_is_named_at_once() -> None:
    text = (GOOD.replace("buckets = [5, 3]", "buckets = [5, -1]")
            .replace("modify = 1", "shield = 1").replace("buckets = 1\n", "buckets = 3\n")
            .replace("add = 1", "at = [[99, 1]]"))
    assert sorted(set(_rules(text))) == ["LF-1", "LF-6", "LF-8", "LF-9"]


def test_text_that_is_not_toml_names_lf7() -> None:
    assert _rules("[[sessions]\n") == ["LF-7"]


def test_a_format_mistake_names_lf7_and_its_place() -> None:
    found = problems(GOOD.replace("amount = 4", "amount = { most = 4 }"))
    assert [p.rule for p in found] == ["LF-7"]
    assert found[0].where.startswith("sessions[0].objectives[0]")


@pytest.mark.parametrize("name", ["../etc/passwd", "a/b", "a\\b", "C:x", ".hidden", "x" * 41,
                                  "", "default", "generated", " lead"])
def test_a_name_that_is_a_path_or_taken_names_lf12(name: str) -> None:
    assert [p.rule for p in name_problems(name)] == ["LF-12"]


def test_a_plain_name_is_fine() -> None:
    assert name_problems("Jug puzzles 2") == []


@pytest.mark.parametrize("name", sorted(shipped()))
def test_toml_written_back_reads_as_the_same_data(name: str) -> None:
    data = tomllib.loads((SCENARIO_DIR / f"{name}.toml").read_text(encoding="utf-8"))
    text = dump(data)
    assert tomllib.loads(text) == data
    assert parse_scenario(text).sessions == load_scenario(name).sessions


_SCALAR = st.one_of(st.integers(-10**6, 10**6), st.booleans(), st.text(max_size=12))
_KEY = st.text(min_size=1, max_size=8)
_VALUE = st.recursive(_SCALAR, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(_KEY, inner, max_size=3)), max_leaves=8)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_KEY, _VALUE, max_size=4))
def test_toml_round_trip_of_any_data(data: dict[str, Any]) -> None:
    assert tomllib.loads(dump(data)) == data


@pytest.mark.parametrize(("old", "new", "why"), [
    ("buckets = [5, 3]", "buckets = [5, 10000000000000000000]", "at most 1,000"),
    ("ticks = 20", "ticks = 1000000000", "at most 600 ticks"),
])
def test_huge_numbers_are_named_not_counted_through(old: str, new: str, why: str) -> None:
    """The bounds count through amounts and ticks: a huge number is a problem (LF-1), found
    at once, never a loop the size of the number."""
    found = problems(GOOD.replace(old, new).replace("modify = 1", f"modify = {10**12}"))
    assert [p.rule for p in found] == ["LF-1"] and why in found[0].message
