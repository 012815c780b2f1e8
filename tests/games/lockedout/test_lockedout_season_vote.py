"""SE-6 with LO-8 and LO-9: a season's Main Match (``vote="season"``) ends at the vault's end
with no Elimination Candidate, since the season holds the vote; a host's end scores it as it
stands (LO-8). A match that holds its own vote (the default) is unchanged. And the season's
reading of a result (``lockedout/season.py``), and the Death Match games as the games declare
them (SE-4)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from arena.core.clock import ManualClock
from arena.core.driver import BotTracker, bot_apply, bot_think, bots_to_think, simulate
from arena.core.errors import RuleError
from arena.core.match import INPUT_KINDS, Match, MatchSettings
from arena.core.registry import death_matches, get_game
from arena.games.lockedout import GAME
from arena.games.lockedout.season import main_from_detail, main_result
from arena.games.lockedout.state import BARGAIN, OVER, VOTE, LockedOutConfig, Seat
from arena.games.lockedout.vote import SeatFacts, facts_from_detail
from arena.season.flow import death_games
from arena.season.steps import MainResult
from games.lockedout.lockedout_helpers import make_state, step

ALICE, BOB, CAROL, DAVE, ERIN, FRANK = range(6)
NAMES = ["Ann", "Ben", "Cat", "Dan"]


def _config(vote: str, **extra: object) -> LockedOutConfig:
    return GAME.make_config({"names": NAMES, "max_rounds": 6, "round_seconds": 60,
                             "vote_seconds": 60, "vote": vote, **extra})


def test_the_vote_option_is_strict_and_the_match_holds_the_vote_by_default() -> None:
    assert GAME.default_config().vote == "match"
    assert _config("season").vote == "season"
    for bad in ("Season", "", 1, None):
        with pytest.raises(RuleError, match="vote"):
            GAME.make_config({"vote": bad})


def test_se6_a_season_main_match_ends_at_the_vaults_end_without_a_vote() -> None:
    # Seed 1 is the stored log's match in which Cat and Dan stay inside, tie, and the
    # winners choose (tests/fixtures/logs/lockedout_vote_tie.json).
    held = simulate(GAME, 1, _config("match"))
    season = simulate(GAME, 1, _config("season"))
    names = [e.data["name"] for e in season.log if e.kind == "phase_started"]
    assert "elimination vote" not in names and "winners break the tie" not in names
    assert "elimination vote" in [e.data["name"] for e in held.log if e.kind == "phase_started"]
    assert not [e for e in season.log if e.kind in ("vote_counted", "ec_chosen")]
    assert held.result is not None and season.result is not None
    mine, theirs = season.result.detail, held.result.detail
    assert mine["ec"] is None and mine["votes"] == {} and theirs["ec"] == 3
    assert set(mine) == set(theirs)  # the same shape, the same game up to the vote
    assert theirs["elimination_candidate"] == [3] and mine["elimination_candidate"] == []
    assert {k: v for k, v in mine.items() if k not in ("ec", "votes", "elimination_candidate")} \
        == {k: v for k, v in theirs.items() if k not in ("ec", "votes", "elimination_candidate")}
    assert season.result.scores == held.result.scores
    assert season.result.winner == held.result.winner
    assert "the season holds the elimination vote (SE-6)" in season.result.reason


def test_se6_with_one_seat_inside_the_match_names_no_ec_either() -> None:
    state = replace(make_state(), stage=BARGAIN, end_reason="the vault is empty (LO-8)")
    state = replace(state, seats=tuple(Seat(keys=3, escaped=2) if i != DAVE else s
                                       for i, s in enumerate(state.seats)))
    season = replace(state, config=replace(state.config, vote="season"))
    end, _ = step(season, {})
    assert end.stage == OVER and end.ec is None
    held, _ = step(state, {})
    assert held.stage == OVER and held.ec == DAVE
    result = GAME.result(end)
    assert result is not None and "holds the elimination vote" not in result.reason
    mm = main_result(result.to_json(), ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"])
    assert mm.ec == "Dave" and mm.trapped == ("Dave",)  # SE-6: the only one inside is the EC


def test_se6_with_two_inside_the_match_would_vote_the_season_match_ends() -> None:
    state = replace(make_state(), stage=BARGAIN, end_reason="the vault is empty (LO-8)")
    state = replace(state, seats=tuple(Seat(keys=3, escaped=2) if i < CAROL else s
                                       for i, s in enumerate(state.seats)))
    assert step(state, {})[0].stage == VOTE
    season = replace(state, config=replace(state.config, vote="season"))
    end, events = step(season, {})
    assert end.stage == OVER and end.ec is None and end.votes == ()
    assert GAME.phase(end) is None and [e.kind for e in events] == []


def _play_then_end(config: LockedOutConfig, seed: int, phases: int) -> Match:
    clock = ManualClock(0.0)
    match = Match(GAME, config, seed, clock, MatchSettings(bot_pace="instant"), names=NAMES)
    tracker = BotTracker()
    while match.phase_no < phases:  # one phase's decisions at a time
        seats = bots_to_think(match, range(4), tracker)
        if seats:
            moves = bot_think(GAME, match.seed, match.state, match.phase_no, seats)
            bot_apply(match, moves, tracker)
            continue
        when = match.next_deadline()
        assert when is not None
        clock.set(when)
        match.advance()
    clock.advance(1.0)
    match.end("the host closed the vault")
    return match


def test_se6_a_hosts_end_scores_the_season_main_match_as_it_stands() -> None:
    """LO-8 as it stands: the escaped with the most bars wins, the seats inside lose, each
    seat's keys, bars and cards are in the detail, and there is no EC (the season votes)."""
    match = _play_then_end(_config("season"), 2, 6)
    result = match.result
    assert result is not None
    state = match.state
    escaped = [i for i, s in enumerate(state.seats) if not s.inside]
    assert escaped, "the host should end it after someone escaped"
    detail = result.detail
    assert detail["escaped"] == escaped and detail["losers"] == list(state.inside())
    assert detail["ec"] is None and detail["votes"] == {}
    assert detail["keys"] == [s.keys for s in state.seats]
    assert detail["bars"] == [s.bars for s in state.seats]
    assert detail["cards_left"] == [s.card_count for s in state.seats]
    assert detail["garnets"] == [s.bars // 2 if not s.inside else 0 for s in state.seats]
    best = max(state.seats[i].bars for i in escaped)
    top = [i for i in escaped if state.seats[i].bars == best]
    assert detail["winners"] == top
    assert result.winner == (top[0] if len(top) == 1 else None)
    assert result.scores == GAME.scores(state)
    assert "the host closed the vault: scored as it stands (LO-8, SE-6)" in result.reason
    ended = match.log[-1]
    assert ended.kind == "match_ended" and ended.data == result.facts()
    # The season reads it as any other end.
    mm = main_result(result.to_json(), NAMES)
    assert mm.escaped == tuple(NAMES[i] for i in escaped) and mm.ec in (None, *mm.trapped)
    assert facts_from_detail(detail, NAMES) == tuple(SeatFacts(s.keys, s.bars, s.card_count)
                                                     for s in state.seats)
    # And it replays (G-7).
    inputs = [e for e in match.log if e.kind in INPUT_KINDS]
    again = Match.replay(GAME, match.config, match.seed, match.settings, match.created_at,
                         inputs, ManualClock(match.log[-1].t), names=NAMES)
    assert [e.to_json() for e in again.log] == [e.to_json() for e in match.log]


def test_a_hosts_end_of_a_match_that_holds_its_own_vote_is_as_before() -> None:
    match = _play_then_end(_config("match"), 2, 6)
    result = match.result
    assert result is not None
    assert (result.winner, result.detail, result.reason) == (None, None,
                                                             "the host closed the vault")
    assert result.scores == GAME.scores(match.state)
    with pytest.raises(ValueError, match="no Locked Out! scores"):
        main_result(result.to_json(), NAMES)


def test_main_result_reads_a_result_by_name_and_refuses_a_damaged_one() -> None:
    detail = {"escaped": [0, 2], "losers": [1, 3], "bars": [4, 1, 4, 0], "winners": [0, 2],
              "opal": 2, "ec": 3, "keys": [3, 1, 3, 0], "cards_left": [1, 2, 3, 4]}
    mm = main_result({"winner": None, "detail": detail}, NAMES)
    assert mm == MainResult(("Ann", "Cat"), ("Ben", "Dan"),
                            {"Ann": 4, "Ben": 1, "Cat": 4, "Dan": 0}, ("Ann", "Cat"), "Cat",
                            "Dan")
    assert main_from_detail(detail, NAMES) == mm
    assert mm.solo_winner is None
    # Two trapped and no EC: the season votes.
    assert main_from_detail({**detail, "ec": None}, NAMES).ec is None
    for bad in (None, [], {"detail": None}, {"detail": {**detail, "losers": [9]}},
                {"detail": {**detail, "bars": "x"}}, {"detail": {"escaped": []}}):
        with pytest.raises(ValueError):
            main_result(bad, NAMES)


def test_se4_the_death_matches_are_the_games_that_declare_one() -> None:
    declared = death_matches()
    assert list(declared) == ["lockmaker", "boxes", "paint", "feather"]
    assert death_games() == sorted(declared)  # a season draws among them by name
    assert get_game("lockedout").death_match is None
    for name, short in declared.items():
        game = get_game(name)
        assert game.seats == 2
        game.make_config(short)  # strict: every short setting is a real one
    declared["paint"]["x"] = 1  # a copy: the game's own declaration is untouched
    assert get_game("paint").death_match == {}
