"""The season as a game of the core engine: each SE rule on a real ``Match`` (SE-1 to SE-7),
whole seasons with bots and their children, and random interleavings that must replay."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.core.clock import ManualClock
from arena.core.driver import play_children, simulate
from arena.core.errors import RuleError
from arena.core.match import Match, MatchSettings
from arena.season.game import SEASON
from arena.season.state import (
    DM_DECIDE,
    DM_NEXT,
    DM_PLAY,
    GIFT,
    MAIN_NEXT,
    MM_PLAY,
    NAME_EC,
    NOMINATE,
    OVER,
    TIE,
    VOTE,
)

CAST = ("Ann", "Ben", "Cat", "Dan")
STEP = 100.0


def season(cast: tuple[str, ...] = CAST, seed: int = 7, **cfg: Any) -> Match:
    config = SEASON.make_config({"cast": list(cast), "step_seconds": STEP,
                                 "vote_seconds": STEP, **cfg})
    return Match(SEASON, config, seed, ManualClock(1000.0),
                 MatchSettings(bot_pace="instant"), names=cast)


def mm_result(escaped: list[str], trapped: list[str], bars: dict[str, int],
              ec: str | None = None) -> dict[str, Any]:
    return {"result": {"escaped": escaped, "trapped": trapped, "bars": bars, "ec": ec},
            "reason": "played on another server"}


def later(m: Match, seconds: float) -> None:
    clock = m.clock
    assert isinstance(clock, ManualClock)
    clock.set(clock.now() + seconds)
    m.advance()


def test_a_season_starts_at_its_first_main_match_with_a_step_clock() -> None:
    m = season()
    assert m.state.step == MAIN_NEXT
    assert m.spec is not None and m.spec.name == "episode 1: Main Match next"
    assert m.next_deadline() == 1000.0 + STEP


def test_the_main_match_in_play_has_no_clock_of_its_own_in_the_season() -> None:
    m = season()
    m.act("start_main", {}, "host")
    assert m.state.step == MM_PLAY
    assert m.next_deadline() is None  # the child's clock runs; the season waits (SE-7)
    later(m, 10 * STEP)
    assert m.state.step == MM_PLAY
    (spec,) = [c for c in SEASON.children(m.state) if c.live]
    assert spec.game == "lockedout" and spec.names == CAST and spec.config["vote"] == "season"


def test_a_result_the_season_does_not_wait_for_is_refused_and_changes_nothing() -> None:
    m = season()
    m.act("start_main", {}, "host")
    before = m.version
    with pytest.raises(RuleError, match="SE-1"):
        m.act("match_result", {"key": "e9-dm", "result": {}}, "server")
    with pytest.raises(RuleError, match="host"):
        m.act("match_result", {"key": "e1-mm", "result": {}}, "host")  # the server's alone
    assert m.version == before and m.state.step == MM_PLAY


def test_the_vote_follows_a_hand_record_with_two_trapped_se6() -> None:
    m = season()
    m.act("record_main", mm_result(["Ann", "Ben"], ["Cat", "Dan"],
                                   {"Ann": 5, "Ben": 2, "Cat": 0, "Dan": 0}), "host")
    assert m.state.step == VOTE  # SE-6: the seats still inside vote, however it ended
    assert m.spec is not None and m.spec.may == frozenset({2, 3}) and m.spec.sealed
    m.extend(50.0)  # SE-7: the vote's clock is the match clock: the host may extend it
    m.submit(2, "Vote dan", final=True)
    m.submit(3, "vote Dan", final=True)
    assert m.state.episode.ec == "Dan"
    # Ann escaped alone with the most bars: her gift comes next (SE-3).
    assert m.state.step == GIFT


def test_a_tie_goes_to_the_escaped_and_their_majority_decides_lo9() -> None:
    m = season(("Ann", "Ben", "Cat", "Dan", "Eve"))
    m.act("start_main", {}, "host")
    m.act("record_main", mm_result(["Ann", "Ben"], ["Cat", "Dan", "Eve"],
                                   {"Ann": 2, "Ben": 2}), "host")
    m.submit(2, "Vote Dan", final=True)
    m.submit(3, "Vote Cat", final=True)
    later(m, STEP + 1)  # Eve never votes: her vote does not count (LO-9)
    assert m.state.step == TIE
    m.submit(0, "Vote Cat", final=True)
    m.submit(1, "Vote Cat", final=True)
    assert m.state.episode.ec == "Cat"
    assert "majority" in (m.state.episode.ec_how or "")
    assert m.state.step == NOMINATE  # no solo winner: no gift


def test_nobody_trapped_the_host_names_the_ec_or_the_clock_draws_one() -> None:
    m = season()
    m.act("start_main", {}, "host")
    m.act("record_main", mm_result(list(CAST), [], {"Ann": 4, "Ben": 4}), "host")
    assert m.state.step == NAME_EC
    with pytest.raises(RuleError, match="SE-6"):
        m.act("name_ec", {"ec": "Zed", "reason": "why not"}, "host")
    later(m, STEP + 1)
    ep = m.state.episode
    assert ep.ec in CAST and "drawn" in (ep.ec_how or "")
    assert m.state.step == NOMINATE


def test_gift_and_nomination_run_out_to_a_legal_draw_se7() -> None:
    m = season()
    m.act("record_main", mm_result(["Ann", "Ben"], ["Cat", "Dan"],
                                   {"Ann": 5, "Ben": 2, "Cat": 0, "Dan": 0}, ec="Dan"), "host")
    assert m.state.step == GIFT
    later(m, STEP + 1)
    ep = m.state.episode
    assert ep.gift == "Ben" and "drawn" in (ep.gift_how or "")
    assert m.state.step == NOMINATE
    later(m, STEP + 1)
    ep = m.state.episode
    # SE-3: two trapped, so any player still in without a ToL; never Ben (he holds one).
    assert ep.dmo in ("Ann", "Cat") and ep.dm_seats == ("Dan", ep.dmo)
    assert m.state.step == DM_NEXT


def test_a_tol_holder_cannot_be_nominated_and_a_standing_choice_made_illegal_is_drawn() -> None:
    m = season()
    m.act("record_main", mm_result(["Ann", "Ben"], ["Cat", "Dan"],
                                   {"Ann": 2, "Ben": 2}, ec="Dan"), "host")
    assert m.state.step == NOMINATE
    with pytest.raises(RuleError, match="SE-3"):
        m.submit(3, "Nominate Dan", final=False)
    m.submit(3, "Nominate Cat", final=False)  # standing, not final
    m.act("adjust", {"player": "Cat", "what": "tol", "amount": 1, "reason": "prize"}, "host")
    assert m.state.step == NOMINATE  # an adjustment never closes a step
    later(m, STEP + 1)
    assert m.state.episode.dmo in ("Ann", "Ben") and "drawn" in (m.state.episode.dmo_how or "")


def test_a_bad_death_match_config_is_refused_naming_the_field_and_nothing_changes() -> None:
    m = season()
    m.act("record_main", mm_result(["Ann", "Ben"], ["Cat", "Dan"], {}, ec="Dan"), "host")
    m.submit(3, "Nominate Cat", final=True)
    assert m.state.step == DM_NEXT
    before = (m.version, m.state)
    with pytest.raises(RuleError, match="bouts"):
        m.act("start_death", {"game": "boxes", "config": {"bouts": 999}}, "host")
    with pytest.raises(RuleError, match="SE-4"):
        m.act("start_death", {"game": "lockedout"}, "host")
    assert (m.version, m.state) == before
    m.act("start_death", {"game": "boxes", "config": {"bouts": 2}}, "host")
    assert m.state.step == DM_PLAY


def test_a_draw_goes_to_the_host_who_decides_with_a_reason_se4() -> None:
    m = season(("Ann", "Ben", "Cat"))
    m.act("record_main", mm_result(["Ann"], ["Ben", "Cat"], {"Ann": 1}, ec="Cat"), "host")
    m.submit(2, "Nominate Ben", final=True)
    m.act("start_death", {"game": "lockmaker", "config": {"rounds": 1}}, "host")
    m.act("match_result", {"key": "e1-dm", "result": {"winner": None, "reason": "LM-21"}},
          "server")
    assert m.state.step == DM_DECIDE
    with pytest.raises(RuleError):
        m.act("decide", {"loser": "Ben"}, "host")  # a reason is required (SE-4)
    m.act("decide", {"loser": "Ben", "reason": "fewer locks solved"}, "host")
    # Two left: the final Death Match between them (SE-1).
    assert m.state.step == DM_NEXT and m.state.episode.final
    assert m.state.episode.dm_seats == ("Ann", "Cat")
    m.act("record_death", {"winner": "Cat", "reason": "played at the meetup"}, "host")
    assert m.finished and m.result is not None
    assert m.result.winner == 2 and m.state.step == OVER


def test_the_host_ends_the_season_with_the_standings_as_they_are() -> None:
    m = season()
    m.end("the group disbanded")
    assert m.result is not None and m.result.winner is None
    assert [s["name"] for s in m.result.detail["standings"]] == list(CAST)


def run_season(players: int, seed: int) -> Match:
    cast = tuple(f"P{i + 1}" for i in range(players))
    config = SEASON.make_config({"cast": list(cast), "mm_max_rounds": 12})
    return simulate(SEASON, seed, config, children=play_children)


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (5, 2), (8, 3)])
def test_a_whole_season_with_bots_and_its_matches_ends_with_one_winner(players: int,
                                                                       seed: int) -> None:
    m = run_season(players, seed)
    assert m.result is not None and m.result.winner is not None
    standings = m.result.detail["standings"]
    assert sum(s["won"] for s in standings) == 1
    assert sum(not s["in"] for s in standings) == players - 1
    assert m.phase_no <= SEASON.max_phases(m.config)
    again = Match.replay(SEASON, m.config, m.seed, m.settings, m.created_at, m.inputs(),
                         m.clock, names=m.names)
    assert again.snapshot() == m.snapshot()


ACTIONS = st.lists(st.tuples(
    st.sampled_from(["wait", "start", "record", "vote", "adjust", "pause", "resume",
                     "extend", "decide", "death", "result", "name"]),
    st.integers(0, 4), st.integers(0, 4)), max_size=40)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ACTIONS, st.integers(0, 2**32))
def test_any_interleaving_replays_to_the_same_season(actions: list[tuple[str, int, int]],
                                                     seed: int) -> None:
    cast = ("Ann", "Ben", "Cat", "Dan", "Eve")
    m = season(cast, seed)
    for kind, a, b in actions:
        try:
            if kind == "wait":
                later(m, [1, 30, STEP + 1, 3 * STEP, 0.5][a])
            elif kind == "start":
                m.act("start_main", {}, "host")
            elif kind == "record":
                trapped = list(cast[a:a + b % 3])
                m.act("record_main", mm_result([n for n in cast if n not in trapped],
                                               trapped, {cast[b]: a}), "host")
            elif kind == "vote":
                verb = {"vote": "Vote", "tie": "Vote", "gift": "Gift", "nominate": "Nominate"}
                m.submit(a, f"{verb.get(m.state.step, 'Vote')} {cast[b]}", final=a % 2 == 0)
            elif kind == "adjust":
                m.act("adjust", {"player": cast[a], "what": "tol", "amount": b - 2 or 1,
                                 "reason": "fix"}, "host")
            elif kind == "pause":
                m.pause()
            elif kind == "resume":
                m.resume()
            elif kind == "extend":
                m.extend(10.0 * (a + 1))
            elif kind == "decide":
                m.act("decide", {"loser": cast[a], "reason": "host"}, "host")
            elif kind == "death":
                m.act("start_death", {"game": ["boxes", "lockmaker", "paint"][a % 3]}, "host")
            elif kind == "result":
                key = f"e{m.state.episode.number}-{'mm' if b % 2 else 'dm'}"
                m.act("match_result", {"key": key, "result": {"winner": a % 3 if a < 3
                                                              else None}}, "server")
            elif kind == "name":
                m.act("name_ec", {"ec": cast[a], "reason": "host's pick"}, "host")
        except RuleError:
            pass
        standings = m.state.ledger.standings()
        assert sum(not s.still_in for s in standings.values()) <= len(cast) - 1
        assert m.phase_no <= SEASON.max_phases(m.config)
    again = Match.replay(SEASON, m.config, m.seed, m.settings, m.created_at, m.inputs(),
                         m.clock, names=m.names)
    assert again.snapshot() == m.snapshot()
