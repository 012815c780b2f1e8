"""LO-12: the host turns the seats' helper on and off during a live match (Locked Out!'s
deduction helper, Boxes' odds helper); the switch is an input of the log, so a replay agrees."""

from __future__ import annotations

import pytest

from arena.core.clock import ManualClock
from arena.core.errors import RuleError
from arena.core.match import HOST, Match, MatchSettings
from arena.core.registry import get_game

START = 1000.0


def new(game_name: str) -> Match:
    game = get_game(game_name)
    return Match(game, game.make_config({}), 5, ManualClock(START), MatchSettings())


def test_lo12_host_turns_the_deduction_helper_on_for_seats() -> None:
    m = new("lockedout")
    assert "deduction" not in m.view(0)["state"]["you"]
    assert m.view(HOST)["host_options"] == {
        "helper": {"value": False, "label": "The deduction helper for seats (LO-12)"}}
    assert m.view(0)["host_options"] is None
    m.host_option("helper", True)
    assert "deduction" in m.view(0)["state"]["you"]
    with pytest.raises(RuleError, match="already on"):
        m.host_option("helper", True)
    with pytest.raises(RuleError, match="no option"):
        m.host_option("speed", True)
    again = Match.replay(m.game, m.config, m.seed, m.settings, START, m.inputs(), m.clock)
    assert "deduction" in again.view(0)["state"]["you"]
    m.host_option("helper", False)
    assert "deduction" not in m.view(0)["state"]["you"]


def test_lo12_boxes_odds_helper_switch() -> None:
    m = new("boxes")
    assert m.view(HOST)["host_options"]["odds_helper"]["value"] is False
    m.host_option("odds_helper", True)
    assert m.view(0)["state"]["odds_helper"] is True


def test_games_without_switches_have_none() -> None:
    m = new("paint")
    assert m.view(HOST)["host_options"] == {}
    with pytest.raises(RuleError, match="no option"):
        m.host_option("helper", True)
