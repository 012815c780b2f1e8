"""A season run by a host (SE-1..SE-5) as a list of inputs: the steps refuse what the rulings
forbid with the rule named, the clocks of the gift and the nomination, a double loss decided by
the host with a reason (LM-21), the final, and the inputs replaying to the same season."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arena.core.errors import RuleError
from arena.season.live import DM_DECIDE, DM_PICK, GIFT, MAIN, NAME_EC, NOMINATE, OVER, LiveSeason

CAST = ("Ann", "Ben", "Cat", "Dan")


def season(bots: tuple[bool, ...] = (False,) * 4) -> LiveSeason:
    return LiveSeason.new(CAST, bots, 3, 100.0, 0.0)


def replayed(s: LiveSeason) -> LiveSeason:
    head = {"cast": list(s.cast), "bots": list(s.bots), "seed": s.seed,
            "step_seconds": s.step_seconds, "created": s.created}
    return LiveSeason.replay(head, json.loads(json.dumps(s.inputs)))


def main(**over: Any) -> dict[str, Any]:
    result: dict[str, Any] = {"escaped": ["Ann", "Ben"], "trapped": ["Cat", "Dan"],
                              "bars": {"Ann": 5, "Ben": 3}, "ec": "Cat", "opal": None}
    result.update(over)
    return {"kind": "mm_result", "external": True, "reason": "stage", "result": result, "t": 10}


def test_clock_defaults_and_replay() -> None:
    s = season()
    s.apply(main())
    assert s.stage == GIFT and s.actor() == "Ann" and s.deadline == 110
    assert s.due(109) is None
    item = s.due(500)
    assert item is not None and item["to"] == "Ben" and item["t"] == 110
    s.apply(item)
    assert s.stage == NOMINATE and s.deadline == 210
    # With fewer than three trapped: anyone still in without a ToL (SE-3).
    assert s.options() == ["Ann", "Dan"]
    with pytest.raises(RuleError, match="SE-3"):
        s.apply({"kind": "nominate", "dmo": "Ben", "t": 150})
    s.apply({"kind": "nominate", "dmo": "Dan", "t": 150})
    assert s.stage == DM_PICK and s.episode.dm_seats == ("Cat", "Dan")
    again = replayed(s)
    assert again.to_json() == s.to_json()


def test_double_loss_is_decided_by_the_host_with_a_reason() -> None:
    s = season()
    s.apply(main())
    s.apply({"kind": "gift", "to": "Ben", "t": 11})
    s.apply({"kind": "nominate", "dmo": "Dan", "t": 12})
    s.apply({"kind": "dm_start", "game": "lockmaker", "match": "m1", "t": 13})
    s.apply({"kind": "dm_result", "draw": True, "why": "a double loss (LM-21)", "t": 14})
    assert s.stage == DM_DECIDE
    with pytest.raises(RuleError, match="SE-4"):
        s.apply({"kind": "dm_result", "loser": "Cat", "t": 15})
    s.apply({"kind": "dm_result", "loser": "Cat", "reason": "fewer pieces placed", "t": 15})
    assert s.stage == MAIN and s.ledger.still_in() == ["Ann", "Ben", "Dan"]
    assert "the host decided: fewer pieces placed" in s.ledger.entries[-1].cause


def test_nobody_trapped_the_host_names_the_ec_then_the_final() -> None:
    s = season(bots=(False, True, True, True))
    s.apply(main(escaped=list(CAST), trapped=[], bars={"Ann": 2, "Ben": 2}, ec=None))
    # A tie for the most bars: no solo winner, no gift; nobody voted, so the host names the EC.
    assert s.stage == NAME_EC
    with pytest.raises(RuleError, match="SE-3"):
        s.apply({"kind": "name_ec", "ec": "Cat", "t": 20})
    s.apply({"kind": "name_ec", "ec": "Cat", "reason": "fewest bars", "t": 20})
    assert s.stage == NOMINATE and s.actor() == "Cat"
    bot = s.bot_input(21)
    assert bot is not None and bot["dmo"] in s.options()
    s.apply(bot)
    s.apply({"kind": "dm_result", "external": True, "loser": "Cat", "reason": "x", "t": 22})
    assert s.stage == MAIN and s.ledger.still_in() == ["Ann", "Ben", "Dan"]
    # SE-1: with three still in, all three play; a fourth player is refused.
    with pytest.raises(RuleError, match="SE-2"):
        s.apply(main())


def test_the_final_death_match_ends_the_season() -> None:
    s = LiveSeason.new(("Ann", "Ben", "Cat"), (False,) * 3, 1, 100.0, 0.0)
    s.apply({"kind": "mm_result", "external": True, "reason": "r", "t": 1, "result": {
        "escaped": ["Ann"], "trapped": ["Ben", "Cat"], "bars": {"Ann": 4}, "ec": "Ben"}})
    assert s.stage == NOMINATE  # the solo winner had nobody to give the token to
    assert "discarded" in (s.episode.gift_how or "")
    s.apply({"kind": "nominate", "dmo": "Cat", "t": 2})
    s.apply({"kind": "dm_result", "external": True, "winner": "Cat", "reason": "r", "t": 3})
    assert s.stage == DM_PICK and s.episode.final and s.episode.dm_seats == ("Ann", "Cat")
    s.apply({"kind": "dm_start", "game": "paint", "match": "m2", "t": 4})
    s.apply({"kind": "dm_result", "winner": "Ann", "t": 5})
    assert s.stage == OVER and s.to_json()["winner"] == "Ann"
    with pytest.raises(RuleError, match="SE-1"):
        s.apply({"kind": "end", "reason": "late", "t": 6})
    assert replayed(s).to_json() == s.to_json()


# ---------------------------------------------------------------------- issue 26
def test_trapped_players_keep_their_bars_in_the_record_as_the_match_shows_them() -> None:
    s = season()
    s.apply(main(bars={"Ann": 5, "Ben": 3, "Cat": 4, "Dan": 1}))
    assert s.episode.main is not None
    assert s.episode.main.bars == {"Ann": 5, "Ben": 3, "Cat": 4, "Dan": 1}
    assert s.to_json()["episodes"][0]["main"]["result"]["bars"]["Cat"] == 4
    # Only the escaped turn bars into garnets (SE-3).
    standings = s.ledger.standings()
    assert standings["Cat"].garnets == 0 and standings["Ann"].garnets == 2


def _closed_main(**over: Any) -> dict[str, Any]:
    result: dict[str, Any] = {"escaped": ["Ann"], "trapped": ["Ben", "Cat", "Dan"],
                              "bars": {"Ann": 2, "Ben": 1, "Cat": 0, "Dan": 3}, "ec": None}
    result.update(over)
    return {"kind": "mm_result", "match": "m1", "result": result, "t": 10,
            "ended": "ended by the host"}


def test_se6_a_main_match_closed_before_its_vote_goes_to_the_host_naming_a_trapped_ec() -> None:
    s = season()
    s.apply({"kind": "mm_start", "players": list(CAST), "match": "m1", "t": 1})
    # A result read from a match that ended by itself must name the voted EC (LO-9) ...
    with pytest.raises(RuleError, match="LO-9"):
        s.apply({**_closed_main(), "ended": None})
    # ... one closed by the host is scored as it stood, and the host names the EC.
    s.apply(_closed_main())
    ep = s.episode
    assert s.stage == NAME_EC and ep.ec is None and "SE-6" in (ep.note or "")
    assert "host to name the Elimination Candidate" in s.waiting()
    with pytest.raises(RuleError, match="LO-9"):
        s.apply({"kind": "name_ec", "ec": "Ann", "reason": "x", "t": 11})  # escaped
    s.apply({"kind": "name_ec", "ec": "Dan", "reason": "most bars inside", "t": 11})
    assert s.stage == NOMINATE and s.episode.ec == "Dan"
    assert replayed(s).to_json() == s.to_json()


def test_se6_one_trapped_player_is_the_ec_without_a_vote() -> None:
    s = season()
    s.apply({"kind": "mm_start", "players": list(CAST), "match": "m1", "t": 1})
    s.apply(_closed_main(escaped=["Ann", "Ben", "Cat"], trapped=["Dan"]))
    assert s.episode.ec == "Dan" and "only player still trapped" in (s.episode.ec_how or "")


def test_se6_the_host_changes_the_main_match_round_limit_as_an_input() -> None:
    s = season()
    assert s.mm_rounds is None
    for bad in (-1, 401, True, "12", None):
        with pytest.raises(RuleError, match="SE-6"):
            s.apply({"kind": "mm_rounds", "max_rounds": bad, "t": 1})
    s.apply({"kind": "mm_rounds", "max_rounds": 8, "t": 1})
    assert s.mm_rounds == 8 and s.to_json()["mm_rounds"] == 8
    assert replayed(s).mm_rounds == 8


def test_the_episode_record_says_when_a_death_match_seat_was_handed_to_a_bot() -> None:
    s = season()
    s.apply(main())
    s.apply({"kind": "gift", "to": "Ben", "t": 11})
    s.apply({"kind": "nominate", "dmo": "Dan", "t": 12})
    s.apply({"kind": "dm_start", "game": "boxes", "match": "m2", "t": 13})
    assert "Cat and Dan are playing the Death Match" in s.waiting()
    s.apply({"kind": "dm_result", "winner": "Cat", "match": "m2", "t": 14,
             "handed_to_bot": ["Dan"]})
    dm = s.to_json()["episodes"][0]["death_match"]
    assert dm["handed_to_bot"] == ["Dan"] and dm["winner"] == "Cat"


def test_waiting_players_are_told_what_happens_and_who_waits_for_whom() -> None:
    s = season()
    assert "host to start episode 1's Main Match" in s.to_json()["waiting"]
    s.apply(main())
    assert s.waiting() == ("Everyone waits for Ann, the solo winner, to give the Token of Life "
                           "to Ben.")
    s.apply({"kind": "gift", "to": "Ben", "t": 11})
    assert s.waiting().startswith("Everyone waits for Cat, the Elimination Candidate")
    s.apply({"kind": "nominate", "dmo": "Dan", "t": 12})
    assert s.stage == DM_PICK
    assert s.to_json()["waiting"] == ("Cat and Dan wait for the host to pick the game and start "
                                      "the Death Match; the loser leaves the season.")


def test_se6_a_damaged_record_is_shown_up_to_the_step_it_names() -> None:
    s = season()
    s.apply(main())
    s.apply({"kind": "gift", "to": "Ben", "t": 11})
    head = {"cast": list(s.cast), "bots": list(s.bots), "seed": s.seed,
            "step_seconds": s.step_seconds, "created": s.created}
    inputs = [*s.inputs, {"kind": "nominate", "dmo": "Nobody", "t": 12},
              {"kind": "adjust", "t": 13}]
    again, problem = LiveSeason.replay_readable(head, inputs)
    assert again.to_json() == s.to_json()
    assert problem is not None and "step 3 ('nominate'" in problem and "nomination" in problem
    assert LiveSeason.replay_readable(head, s.inputs)[1] is None


# ---------------------------------------------------------------------- SE-7 step clocks
def test_se7_a_paused_step_does_not_run_out_and_resumes_with_its_time_left() -> None:
    s = season()
    s.apply(main())  # the gift's deadline is 110
    s.apply({"kind": "clock", "action": "pause", "t": 30})
    assert s.deadline is None and s.paused_left == 80 and s.to_json()["paused"]
    assert s.due(10_000) is None  # long past the old deadline: still the gift step
    assert s.stage == GIFT
    with pytest.raises(RuleError, match="SE-7"):
        s.apply({"kind": "clock", "action": "pause", "t": 40})
    s.apply({"kind": "clock", "action": "extend", "seconds": 600, "t": 50})
    assert s.paused_left == 680
    s.apply({"kind": "clock", "action": "resume", "t": 1000})
    assert s.deadline == 1680 and s.paused_left is None
    assert s.due(1679) is None and s.due(1680) is not None
    # The step answered: the next step (the nomination) has its own clock, not paused.
    s.apply({"kind": "gift", "to": "Ben", "t": 1100})
    assert s.stage == NOMINATE and s.deadline == 1200 and not s.to_json()["paused"]
    assert replayed(s).to_json() == s.to_json()


def test_se7_extend_by_ten_minutes_moves_the_nomination_deadline() -> None:
    s = season()
    s.apply(main())
    s.apply({"kind": "gift", "to": "Ben", "t": 20})
    assert s.stage == NOMINATE and s.deadline == 120
    s.apply({"kind": "clock", "action": "extend", "seconds": 600, "t": 60})
    assert s.deadline == 720
    assert s.due(719) is None and s.due(720) is not None
    for bad in (0, -5, True, "10", 10**9):
        with pytest.raises(RuleError, match="SE-7"):
            s.apply({"kind": "clock", "action": "extend", "seconds": bad, "t": 61})
    assert s.deadline == 720 and replayed(s).to_json() == s.to_json()


def test_se7_a_clock_time_deadline_is_stored_and_shown() -> None:
    s = season()
    s.apply(main())
    t0 = 1905000000  # a week before: the deadline is in the future, within a year
    # Friday 2030-05-17 20:00 in UTC+2, as the host's page sends it.
    s.apply({"kind": "clock", "action": "set", "at": "2030-05-17T20:00+02:00", "t": t0})
    assert s.deadline == 1905271200.0 == s.to_json()["deadline"]
    s.apply({"kind": "clock", "action": "set", "at": 1905274800, "t": t0 + 1})  # epoch seconds
    assert s.deadline == 1905274800.0
    s.apply({"kind": "clock", "action": "set", "at": "2030-05-17T18:00Z", "t": t0 + 2})
    assert s.deadline == 1905271200.0
    for bad in ("2030-05-17T20:00", "Friday 20:00", 5, float("nan"), None, "2099-01-01T00:00Z"):
        with pytest.raises(RuleError, match="SE-7"):
            s.apply({"kind": "clock", "action": "set", "at": bad, "t": t0 + 3})
    assert s.deadline == 1905271200.0
    assert replayed(s).to_json() == s.to_json()


def test_se7_starting_the_death_match_runs_on_a_clock_once_the_host_sets_one() -> None:
    s = season()
    s.apply(main())
    s.apply({"kind": "gift", "to": "Ben", "t": 11})
    s.apply({"kind": "nominate", "dmo": "Dan", "t": 12})
    assert s.stage == DM_PICK and s.deadline is None and s.dm_due(10**9) is None
    with pytest.raises(RuleError, match="SE-7"):
        s.apply({"kind": "clock", "action": "extend", "seconds": 60, "t": 13})
    s.apply({"kind": "clock", "action": "set", "at": 500, "t": 13})
    assert s.due(600) is None  # no gift or nomination to draw
    game = s.dm_due(600)
    assert game is not None and s.dm_due(499) is None
    assert replayed(s).dm_due(600) == game  # the same draw after a replay
    s.apply({"kind": "dm_start", "game": game, "match": "m1", "by": "clock", "t": 500})
    assert s.deadline is None and "SE-7" in (s.episode.note or "")


def test_se7_clocks_only_on_clocked_steps() -> None:
    s = season()
    with pytest.raises(RuleError, match="SE-1"):  # the Main Match step has no clock
        s.apply({"kind": "clock", "action": "pause", "t": 1})
    s.apply(main())
    with pytest.raises(RuleError, match="SE-7"):
        s.apply({"kind": "clock", "action": "stop", "t": 1})
