"""Small builders for Feather tests: a session from a few lines of TOML, actions by notation."""

from __future__ import annotations

from arena.games.feather.actions import Action, parse_action
from arena.games.feather.scenario import SessionSpec, parse_scenario
from arena.games.feather.tick import Board, new_board


def session(body: str, *, buckets: str = "[10, 7]", ticks: int = 20) -> SessionSpec:
    text = f"""
[[sessions]]
name = "s"
ticks = {ticks}
buckets = {buckets}
{body}
"""
    return parse_scenario(text, "test").sessions[0]


BASINS = """
[[sessions.basins]]
name = "Y"
add = 1

[[sessions.basins]]
name = "Z"
add = 10
every = 6
"""


def act(spec: SessionSpec, text: str) -> Action:
    return parse_action(text, len(spec.capacities), spec.basin_names)


def board(spec: SessionSpec, *, ankh: int = 1) -> Board:
    return new_board(spec, None, ankh)
