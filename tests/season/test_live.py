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
