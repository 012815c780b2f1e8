"""Settings valid by construction, as properties over every game.

Settings are drawn from each game's own schema (the options the lobby and ``/api/games``
show): values inside the bounds, the bounds themselves, 0, just past them, and wrong types
(``"false"``, ``1.5`` for a count, ``"3"`` for a number, huge whole numbers, NaN and Infinity
strings, null). Each create request is either refused the way the server answers 422 (a
``RuleError`` naming the setting, or the game rule its own check breaks), or accepted, and then
the match's work is bounded: it can run at most ``MAX_MATCH_PHASES`` phases, and every phase
lasts at least ``MIN_PHASE_SECONDS`` of wall-clock time. A second property plays accepted
settings to the end with instant bots on a simulated clock and checks those bounds on the
match that actually ran; it keeps the length-driving counts near their lower edge so the
whole file stays well under a minute (the bound itself is checked by the first property).
Its bots play ``easy`` (G-8): the bounds hold whoever plays, and a hard Lockmaker bot's
hardest-lock search cost half a minute of CPU a match.
"""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.core import settings as schema
from arena.core.clock import ManualClock
from arena.core.driver import simulate
from arena.core.errors import RuleError
from arena.core.game import BotLevel, Game
from arena.core.match import Match, MatchSettings
from arena.core.registry import all_games, register
from arena.server.matches import parse_request
from toygame import TOY

register(TOY)
GAMES: dict[str, Game[Any, Any]] = {"toy": TOY, **all_games()}

WRONG = ["false", "true", "3", "1.5", "NaN", "Infinity", "-Infinity", None, [], {}]
"""Values of the wrong JSON type for any field (a JSON body can hold all of them)."""

LONG_RUNNING = {"rounds", "bouts", "session_ticks", "practice_ticks", "bot_placements",
                "target", "cards_per_bout"}
"""Counts that make a played match long or its bots slow: near their lower edge when the
match is played to the end (their upper bounds are covered by the acceptance property)."""
EASY: BotLevel = "easy"


def value_strategy(o: dict[str, Any], *, short: bool) -> st.SearchStrategy[Any]:
    """Values for one option: inside, on and just past its bounds, and of the wrong type."""
    kind, default = o["type"], o["default"]
    wrong = st.sampled_from(WRONG)
    if kind in ("int", "float"):
        lo, hi = o["min"], o["max"]
        if short and o["name"] in LONG_RUNNING:
            hi = min(hi, lo + 1)
        edges: list[Any] = [lo, hi, 0, default, lo - 1, hi + 1, -1, 10**80, 10**400]
        if kind == "int":
            inside = st.integers(lo, hi)
            edges += [1.5, float(lo), True]
        else:
            inside = st.floats(lo, hi, allow_nan=False)
            edges += [lo - 1e-9, math.nextafter(hi, math.inf), 1e308, False]
        if short and o["name"] in LONG_RUNNING:
            edges = [e for e in edges if isinstance(e, bool) or not isinstance(e, (int, float))
                     or not lo <= e <= o["max"] or e <= hi]
        return st.sampled_from(edges) | inside | wrong
    if kind == "bool":
        return st.booleans() | st.sampled_from([0, 1, "false", "true", "yes", None])
    if kind == "str":
        longest = o.get("max_length", 100)
        return st.sampled_from([default, "", "x" * longest, "x" * (longest + 1), 5, None,
                                True]) | st.text(max_size=12)
    # lists (Locked Out!'s names and garnets)
    most = o.get("max_items", 6)
    item = st.text(max_size=8) | st.integers(-2, 20) | st.sampled_from([1.5, None, "3"])
    return st.sampled_from([default, [], "a,b,c", 5, None]) | st.lists(item, max_size=most + 1)


SCALES = st.sampled_from([1.0, 0.001, 0.01, 0.05, 1000.0, 0.0009, 1000.5, 0, -1, "1", True,
                          None, "NaN", 1e308]) | st.floats(0.001, 1000.0)


@st.composite
def create_requests(draw: st.DrawFn, game: Game[Any, Any], *, short: bool = False
                    ) -> dict[str, Any]:
    opts = schema.options(game.config_type)
    chosen = draw(st.lists(st.sampled_from(opts), max_size=3, unique_by=lambda o: o["name"]))
    config = {o["name"]: draw(value_strategy(o, short=short)) for o in chosen}
    settings_: dict[str, Any] = {"bot_pace": "instant"}
    if draw(st.booleans()):
        settings_["time_scale"] = draw(SCALES)
    return {"game": game.name, "seed": draw(st.integers(0, 2**64 - 1)), "config": config,
            "settings": settings_}


def refused_properly(err: RuleError, body: dict[str, Any], game: Game[Any, Any]) -> bool:
    """A refusal names a setting (one that was sent, or the one a sent value conflicts with:
    a default reserve period too short at the time scale sent), or the game rule its own
    whole-config check broke (a host board, deck, scenario, names)."""
    text = str(err)
    named = [*body["config"], *body["settings"],
             *(o["name"] for o in schema.options(game.config_type))]
    if any(f"'{name}'" in text for name in named):
        return True
    return bool(re.match(rf"({game.rules_prefix}|SE)-\d+: ", text))


def check_bounded(game: Game[Any, Any], body: dict[str, Any]) -> tuple[Any, MatchSettings]:
    """The request, through the server's own parser; an accepted one has a bounded match."""
    _, seed, _, settings_json, config_raw = parse_request(body)
    config = game.make_config(config_raw)
    match_settings = MatchSettings.from_json(settings_json)
    assert game.max_phases(config) <= schema.MAX_MATCH_PHASES
    # The first phase of a real match lasts at least the floor (G-5).
    match = Match(game, config, seed, ManualClock(0.0), match_settings)
    phases_start_slow_enough(match)
    return config, match_settings


def phases_start_slow_enough(match: Match) -> None:
    for event in match.log:
        if event.kind == "phase_started":
            length = event.data["deadline"] - event.t
            assert length >= schema.MIN_PHASE_SECONDS - 1e-9, (event.data["name"], length)


@pytest.mark.parametrize("name", list(GAMES))
def test_every_setting_is_refused_naming_the_field_or_bounds_the_match(name: str) -> None:
    game = GAMES[name]

    @settings(max_examples=120, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(create_requests(game))
    def run(body: dict[str, Any]) -> None:
        try:
            check_bounded(game, body)
        except RuleError as err:
            assert refused_properly(err, body, game), (str(err), body)

    run()


@pytest.mark.parametrize("name", list(GAMES))
def test_accepted_settings_play_a_whole_match_in_bounded_phases(name: str) -> None:
    game = GAMES[name]
    played: list[int] = []

    @settings(max_examples=6, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(create_requests(game, short=True))
    def run(body: dict[str, Any]) -> None:
        try:
            config, match_settings = check_bounded(game, body)
        except RuleError as err:
            assert refused_properly(err, body, game), (str(err), body)
            return
        levels = dict.fromkeys(range(game.seat_count(config)), EASY)
        match = simulate(game, body["seed"], config, match_settings, levels=levels)
        assert match.finished and match.result is not None
        bound = game.max_phases(config)
        assert match.phase_no <= bound <= schema.MAX_MATCH_PHASES
        phases_start_slow_enough(match)
        # Memory: the log grows with the phases and reserve deadlines, never on its own.
        deadlines = bound + match.seats * config.reserve_periods + 1
        assert len(match.log) <= 100 * deadlines
        played.append(match.phase_no)

    run()
    assert played, "no example was accepted: the strategy never reaches a playable match"


def test_the_audits_zero_length_round_is_refused_naming_the_field() -> None:
    """The request that looped the server: Locked Out! rounds of 0 s with no
    round limit (LO-8's default). Refused; the limit of rounds is no longer unbounded."""
    with pytest.raises(RuleError, match=r"^G-5: setting 'round_seconds' \(LO-11\)"):
        parse_request({"game": "lockedout", "config": {"round_seconds": 0}})
    with pytest.raises(RuleError, match=r"^G-5: setting 'round_seconds': 1 x time scale "
                                        r"0.001 = 0.001 s; every phase must last at least"):
        parse_request({"game": "lockedout", "config": {"round_seconds": 1},
                       "settings": {"time_scale": 0.001}})
    assert GAMES["lockedout"].max_phases(GAMES["lockedout"].default_config()) <= 403


def test_locked_out_without_a_limit_ends_at_the_engines_cap() -> None:
    """LO-8: no round limit unless the host sets one; the engine's cap of 400 rounds ends a
    match as the host's limit would (with 24 h rounds, after more than a year)."""
    from arena.games.lockedout.state import ROUND_CAP

    game = GAMES["lockedout"]
    config = game.make_config({"round_seconds": 1})
    match = simulate(game, 3, config, MatchSettings(bot_pace="instant"), bots=[])
    assert match.result is not None
    assert f"{ROUND_CAP} rounds, was reached" in match.result.reason
    assert match.phase_no <= game.max_phases(config)


@pytest.mark.parametrize("flag", ["false", "true", 0, 1, None, "", [], {}])
def test_a_seat_flag_that_is_not_a_boolean_is_refused(flag: Any) -> None:
    """``{"bot": "false"}`` made a bot seat: strict types, never truthy."""
    with pytest.raises(RuleError, match=r"^G-8: seat 1 field 'bot'"):
        parse_request({"game": "toy", "seats": [{"bot": flag}, {}]})


@pytest.mark.parametrize(("settings_", "field"), [
    ({"early_close": "false"}, "early_close"), ({"reveal_at_end": 0}, "reveal_at_end"),
    ({"spectators": "no"}, "spectators"), ({"bot_pace": "fast"}, "bot_pace"),
    ({"time_scale": "1"}, "time_scale"), ({"time_scale": 1e-300}, "time_scale"),
    ({"speed": 2}, "speed"),
])
def test_match_settings_are_strict(settings_: dict[str, Any], field: str) -> None:
    with pytest.raises(RuleError, match=rf"^G-5: (unknown )?match setting '{field}'"):
        parse_request({"game": "toy", "settings": settings_})


def test_seat_names_are_bounded_and_typed() -> None:
    with pytest.raises(RuleError, match=r"^G-8: seat 2 field 'name'"):
        parse_request({"game": "toy", "seats": [{}, {"name": "x" * 41}]})
    with pytest.raises(RuleError, match=r"^G-8: seat 1 field 'name'"):
        parse_request({"game": "toy", "seats": [{"name": 5}, {}]})
    with pytest.raises(RuleError, match=r"^G-8: unknown seat 1 field 'robot'"):
        parse_request({"game": "toy", "seats": [{"robot": True}, {}]})
    _, _, seats, _, _ = parse_request({"game": "toy", "seats": [{"bot": False},
                                                                {"name": " Ann ", "bot": True}]})
    assert seats == [{"name": "Seat 1", "bot": False, "level": "hard"},
                     {"name": "Ann", "bot": True, "level": "hard"}]


def test_every_option_of_every_game_has_bounds_and_help() -> None:
    """The lobby and the OpenAPI document show what the schema enforces: every number has
    a minimum and a maximum, every text and list a longest length, every field help."""
    for game in GAMES.values():
        for o in schema.options(game.config_type):
            assert o["help"], (game.name, o["name"])
            if o["type"] in ("int", "float"):
                assert "min" in o and "max" in o, (game.name, o["name"])
            elif o["type"] == "str":
                assert "max_length" in o, (game.name, o["name"])
            elif o["type"] == "list":
                assert "max_items" in o, (game.name, o["name"])


def test_a_seasons_main_match_settings_are_bounded_at_creation() -> None:
    """A season stores its Main Match options and starts matches later: a zero-length round
    is refused when the season is created, not when its first match would start."""
    from arena.server.refusals import validate
    from arena.server.season_api import create_request
    from arena.server.season_requests import CreateSeason

    def parse_season(body: dict[str, Any]) -> Any:
        """What ``POST /api/seasons`` checks: its model, then the season match it makes."""
        return parse_request(create_request(validate(CreateSeason, body)))

    cast = [{"name": n} for n in ("Ann", "Bob", "Cy")]
    with pytest.raises(RuleError, match=r"^G-5: setting 'round_seconds'"):
        parse_season({"cast": cast, "mm_config": {"round_seconds": 0}})
    # The season's config holds the Main Matches' round length as 'mm_round_seconds'.
    with pytest.raises(RuleError, match=r"^G-5: setting 'mm_round_seconds': 10 x time scale"):
        parse_season({"cast": cast, "mm_config": {"round_seconds": 10},
                      "settings": {"time_scale": 0.001}})
    parse_season({"cast": cast, "mm_config": {"round_seconds": 60}})
