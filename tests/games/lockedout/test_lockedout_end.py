"""LO-8 end and results, LO-9 the elimination vote, LO-11 round length."""

from __future__ import annotations

from dataclasses import replace

import pytest

from arena.core.errors import RuleError
from arena.games.lockedout import GAME
from arena.games.lockedout.state import BARGAIN, OVER, ROUND, TIE, VOTE, LockedOutState, Seat
from games.lockedout.lockedout_helpers import make_state, step

ALICE, BOB, CAROL, DAVE, ERIN, FRANK = range(6)


def _with(state: LockedOutState, **seats: Seat) -> LockedOutState:
    names = ["alice", "bob", "carol", "dave", "erin", "frank"]
    new = list(state.seats)
    for name, seat in seats.items():
        new[names.index(name)] = seat
    return replace(state, seats=tuple(new))


def test_lo11_a_round_lasts_24_hours_and_everyone_inside_may_act() -> None:
    state = make_state()
    spec = GAME.phase(state)
    assert spec is not None and spec.duration == 86400.0
    assert spec.may == frozenset(range(6)) and not spec.must


def test_lo8_no_openable_safe_ends_the_match_and_bargains_resolve_first() -> None:
    state = make_state({"A": (1, 2)})
    state = replace(state, opened=(False,) + (True,) * 15,
                    announced=(None, *tuple(state.combos[1:])))
    # Only Alice holds a 1 and only Bob a 2: still openable together.
    empty = Seat(cards=(0, 0, 0, 0))
    state = _with(state, alice=Seat(cards=(1, 0, 0, 0)), bob=Seat(cards=(0, 1, 0, 0)),
                  carol=empty, dave=empty, erin=empty, frank=empty)
    after, _ = step(state, {})
    assert after.stage == ROUND and after.round == 2
    after, _events = step(state, {ALICE: "Dual, Safe A, Left 1 with Bob",
                                 BOB: "Dual, Safe A, Right 2 with Alice"})
    assert after.stage == BARGAIN and "every safe" in after.end_reason
    spec = GAME.phase(after)
    assert spec is not None and spec.may == {ALICE, BOB}
    final, _ = step(after, {ALICE: "Bargain, Safe A, Claim 0 Gold bars, 1 Keys",
                            BOB: "Bargain, Safe A, Claim 2 Gold bars, 0 Keys"})
    assert final.stage == VOTE and final.seats[BOB].bars == 2


def test_lo8_cards_gone_ends_the_match() -> None:
    state = make_state({"A": (1, 2)})
    state = replace(state, opened=(False,) + (True,) * 15)
    none = Seat(cards=(0, 0, 2, 2))
    state = _with(state, alice=none, bob=none, carol=none, dave=none, erin=none, frank=none)
    after, _ = step(state, {})
    assert after.stage == VOTE and "no closed safe" in after.end_reason


def _over(state: LockedOutState) -> LockedOutState:
    return replace(state, stage=OVER)


def test_lo8_winner_losers_garnets() -> None:
    state = _with(make_state(), alice=Seat(keys=3, bars=5, escaped=3, opened=3),
                  bob=Seat(keys=3, bars=2, escaped=4, opened=2))
    result = GAME.result(_over(state))
    assert result is not None and result.winner == ALICE
    assert result.detail["losers"] == [CAROL, DAVE, ERIN, FRANK]
    assert result.detail["garnets"] == [2, 1, 0, 0, 0, 0]
    assert result.scores[ALICE] == 5 and result.scores[CAROL] == -1


def test_lo8_tied_winners_and_nobody_escaped() -> None:
    state = _with(make_state(), alice=Seat(keys=3, bars=4, escaped=3),
                  bob=Seat(keys=3, bars=4, escaped=4))
    result = GAME.result(_over(state))
    assert result is not None and result.winner is None
    assert result.detail["winners"] == [ALICE, BOB]
    result = GAME.result(_over(make_state()))
    assert result is not None and result.winner is None and "nobody escaped" in result.reason


def test_lo8_opal_most_safes_then_most_cards_then_nobody() -> None:
    base = make_state()
    s = _with(base, alice=Seat(opened=3, cards=(1, 1, 0, 0)), bob=Seat(opened=2))
    assert GAME.opal(s) == ALICE
    s = _with(base, alice=Seat(opened=3, cards=(1, 1, 0, 0)), bob=Seat(opened=3, cards=(1, 1, 1, 0)))
    assert GAME.opal(s) == BOB
    s = _with(base, alice=Seat(opened=3, cards=(1, 1, 0, 0)), bob=Seat(opened=3, cards=(0, 1, 1, 0)))
    assert GAME.opal(s) is None


def _vote_state() -> LockedOutState:
    state = _with(make_state(), alice=Seat(keys=3, bars=4, escaped=2),
                  bob=Seat(keys=3, bars=2, escaped=2))
    return replace(state, stage=VOTE)


def test_lo9_vote_among_those_inside_a_clear_majority_decides() -> None:
    state = _vote_state()
    spec = GAME.phase(state)
    assert spec is not None and spec.may == {CAROL, DAVE, ERIN, FRANK}  # winners do not vote
    with pytest.raises(RuleError, match="LO-9"):
        GAME.validate(state, CAROL, "Vote Alice", None)  # type: ignore[arg-type]
    end, events = step(state, {CAROL: "Vote Dave", DAVE: "Vote Carol", ERIN: "Vote Dave"})
    assert end.ec == DAVE and end.stage == OVER
    assert [e.data for e in events if e.kind == "ec_chosen"] == [
        {"seat": DAVE, "how": "votes", "why": None, "step": None}]
    assert end.ec_how == "most votes (LO-9)"


def test_lo9_a_tie_is_announced_then_the_winners_choose_in_their_own_phase() -> None:
    state = _vote_state()
    votes = {CAROL: "Vote Dave", DAVE: "Vote Carol", ERIN: "Vote Dave", FRANK: "Vote Carol"}
    tie, events = step(state, votes)
    assert tie.stage == TIE and tie.ec is None and tie.tied == (CAROL, DAVE)
    counted = [e.data for e in events if e.kind == "vote_counted"]
    assert counted and counted[0]["tied"] == [CAROL, DAVE]  # announced before any pick
    assert counted[0]["tally"] == [{"seat": s, "votes": 2 if s in (CAROL, DAVE) else 0}
                                   for s in (CAROL, DAVE, ERIN, FRANK)]
    assert not [e for e in events if e.kind == "ec_chosen"]
    spec = GAME.phase(tie)
    assert spec is not None and spec.may == {ALICE, BOB} and spec.name == "winners break the tie"
    with pytest.raises(RuleError, match="LO-9"):
        GAME.validate(tie, ALICE, "Vote Erin", None)  # type: ignore[arg-type]
    end, events = step(tie, {ALICE: "Vote Dave", BOB: "Vote Dave"})
    assert end.ec == DAVE and end.stage == OVER
    assert next(e.data for e in events if e.kind == "ec_chosen")["how"] == "majority"
    assert "winners' majority" in end.ec_how
    result = GAME.result(end)
    assert result is not None and result.detail["ec"] == DAVE


def test_lo9_no_majority_among_winners_falls_back_to_fewest_keys_bars_cards() -> None:
    state = _vote_state()
    state = _with(state, carol=Seat(keys=1), dave=Seat(keys=0, bars=2),
                  erin=Seat(keys=0, bars=0, cards=(2, 2, 2, 0)),
                  frank=Seat(keys=0, bars=0, cards=(2, 2, 2, 1)))
    tie, _ = step(state, {})  # nobody votes: all four tied
    assert tie.stage == TIE and tie.tied == (CAROL, DAVE, ERIN, FRANK)
    end, events = step(tie, {ALICE: "Vote Carol", BOB: "Vote Frank"})  # 1-1: no majority
    assert end.ec == ERIN
    chosen = next(e.data for e in events if e.kind == "ec_chosen")
    assert (chosen["how"], chosen["why"], chosen["step"]) == ("fallback", "no_majority", "cards")
    assert "fewest cards" in end.ec_how


def test_lo9_without_winners_the_fallbacks_decide_at_once_then_garnets_then_a_draw() -> None:
    state = replace(make_state(), stage=VOTE)  # nobody escaped
    end, events = step(state, {})
    assert end.stage == OVER and end.ec is not None
    chosen = next(e.data for e in events if e.kind == "ec_chosen")
    assert (chosen["why"], chosen["step"]) == ("no_winners", "draw")
    assert "no winners" in end.ec_how and "draw from the match's chance" in end.ec_how
    rich = replace(state, config=replace(state.config, garnets=(0, 3, 3, 3, 3, 3)))
    end, events = step(rich, {})
    assert end.ec == ALICE
    assert next(e.data for e in events if e.kind == "ec_chosen")["step"] == "garnets"
    assert "garnets" in end.ec_how
