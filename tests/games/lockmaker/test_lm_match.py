"""The match on the engine (LM-13..LM-21): setup, draft, build, solve, countersolve, points,
the end and reserve. Scenarios run on a manual clock with small host-given rounds."""

from __future__ import annotations

import json
import random
import time
from dataclasses import replace

import pytest

from arena.core.clock import ManualClock
from arena.core.driver import simulate
from arena.core.errors import RuleError
from arena.core.match import Match, MatchSettings
from arena.games.lockmaker import GAME
from arena.games.lockmaker.bot import bot_move, draft_pick
from arena.games.lockmaker.construct import buildable, random_lock
from arena.games.lockmaker.lockfile import read_lock
from arena.games.lockmaker.match import LMState
from arena.games.lockmaker.pieces import parse_piece_list
from arena.games.lockmaker.rounds import DEFAULT_ROUNDS
from arena.games.lockmaker.validate import construction_problems

ROUND = "......\n......\n......\npieces: H2,V2\n"
LOCK0 = "......\naa....\n.KK..@\n"  # seat 1's hand H2; optimum: K R2 (1 move)
LOCK1 = "......\na.....\naKK..@\n"  # seat 2's hand V2; optimum: K R2 (1 move)
IMPOSSIBLE1 = "K.....\nK.a...\n..a..@\n"  # a vertical key never reaches the keyhole


def start(rounds: int = 1, **over: object) -> tuple[Match, ManualClock]:
    clock = ManualClock(0.0)
    config = GAME.make_config({"setup": "---\n".join([ROUND] * rounds), "rounds": rounds,
                               **over})
    return Match(GAME, config, 7, clock), clock


def to_build(m: Match) -> None:
    m.submit(0, "ready", final=True)
    m.submit(1, "second", final=True)  # LM-13: the DMO drafts second; seat 1 drafts first
    m.submit(0, "H2", final=True)
    m.submit(1, "V2", final=True)
    assert m.state.stage == "build"


def to_solve(m: Match, lock1: str = LOCK1) -> None:
    to_build(m)
    m.submit(0, LOCK0, final=True)
    m.submit(1, lock1, final=True)
    assert m.state.stage == "solve"


def events(m: Match, kind: str) -> list[dict[str, object]]:
    return [e.data for e in m.log if e.kind == kind]


# ----------------------------------------------------------------------------- LM-13
def test_lm13_default_rounds_boards_6_to_9_with_blocked_cells() -> None:
    assert len(DEFAULT_ROUNDS) == 5
    sizes = [(r.board.width, r.board.height) for r in DEFAULT_ROUNDS]
    assert sizes[0] == (6, 6) and sizes[-1] == (9, 9)
    assert all(r.board.blocked for r in DEFAULT_ROUNDS)
    for r in DEFAULT_ROUNDS:  # the whole pool fits the board, so any hand does
        assert random_lock(r.board, [p for p in r.pool if not p.is_axis],
                           random.Random(1)) is not None


def test_lm13_dmo_chooses_draft_order_and_it_alternates() -> None:
    m, _ = start(rounds=2)
    with pytest.raises(RuleError, match="LM-13"):
        m.submit(1, "ready")
    m.submit(0, "ready", final=True)
    m.submit(1, "first", final=True)
    assert m.state.first_drafter == 1 and m.state.turn_seat() == 1
    assert events(m, "draft_order")[0]["first"] == 1
    state = replace(m.state, round=1)
    assert state.drafter_this_round() == 0


def test_lm13_study_phase_is_ninety_seconds_and_host_setup_is_checked() -> None:
    m, _ = start()
    assert m.spec is not None and m.spec.duration == 90.0
    with pytest.raises(RuleError, match="LM-13"):  # a round without its pieces line
        GAME.initial_state(GAME.make_config({"setup": "....\n....\n"}), random.Random(0))


# ----------------------------------------------------------------------------- LM-14
def test_lm14_snake_order_counts_and_stop() -> None:
    clock = ManualClock(0.0)
    setup = "......\n......\n......\npieces: H2,H2,H2,V2,V2,V2,X\n"
    m = Match(GAME, GAME.make_config({"setup": setup, "rounds": 1}), 1, clock)
    m.submit(0, "ready", final=True)
    m.submit(1, "first", final=True)  # A = seat 2
    assert m.spec is not None and m.spec.duration == 45.0 and m.spec.must == {1}
    with pytest.raises(RuleError, match="LM-14"):
        m.submit(1, "H2,V2")  # the first turn is a single pick
    m.submit(1, "H2", final=True)
    assert m.state.turn_seat() == 0 and m.state.turn_picks() == 2
    with pytest.raises(RuleError, match="LM-14"):
        m.submit(0, "H2,H2,H2")
    m.submit(0, "V2", final=True)  # a two-pick turn may take one piece
    assert m.state.turn_seat() == 1 and m.state.turn_picks() == 2  # A's AA turn
    m.submit(1, "X,H2", final=True)
    assert m.state.turn_seat() == 0
    assert m.state.hands == (parse_piece_list("V2"), parse_piece_list("H2,H2,X"))


def test_lm14_stop_lets_the_other_seat_draft_alone() -> None:
    clock = ManualClock(0.0)
    setup = "......\n......\n......\npieces: H2,H2,H2,V2,V2,V2\n"
    m = Match(GAME, GAME.make_config({"setup": setup, "rounds": 1}), 1, clock)
    m.submit(0, "ready", final=True)
    m.submit(1, "second", final=True)  # A = seat 1
    m.submit(0, "stop", final=True)
    assert m.state.turn_seat() == 1
    m.submit(1, "H2,H2", final=True)
    assert m.state.turn_seat() == 1  # seat 1 stopped: every later turn is seat 2's
    with pytest.raises(RuleError, match="LM-14"):
        m.submit(1, "X")
    m.submit(1, "V2, stop", final=True)
    assert m.state.stage == "build"
    assert [len(h) for h in m.state.hands] == [0, 3]


# ----------------------------------------------------------------------------- LM-15
def test_lm15_lock_must_use_exactly_the_drafted_pieces_on_the_round_board() -> None:
    m, _ = start()
    to_build(m)
    with pytest.raises(RuleError, match="LM-15"):
        m.submit(0, LOCK1)  # a V2 where seat 1 drafted an H2
    with pytest.raises(RuleError, match="LM-13"):
        m.submit(0, "......\naa..#.\n.KK..@\n")
    with pytest.raises(RuleError, match="LM-8"):
        m.submit(0, "..+...\naa....\n.KK..@\n")
    with pytest.raises(RuleError, match="LM-10"):
        m.submit(0, "not a lock")
    m.submit(0, "....../aa..../.KK..@")  # one line, rows split by '/'
    assert m.spec is not None and m.spec.duration == 420.0 and m.spec.reserve


def test_lm15_unsolvable_lock_is_still_a_legal_construction() -> None:
    m, _ = start()
    to_build(m)
    m.submit(1, IMPOSSIBLE1)


def test_lm21_reserve_in_build_first_valid_submission_stands() -> None:
    m, clock = start()
    to_build(m)
    m.submit(1, LOCK1, final=True)
    clock.set(421.0 + clock.now())
    m.advance()
    assert m.reserve_left[0] == 15  # a 30-second period began (G-3)
    m.submit(0, LOCK0)
    assert m.state.stage == "solve"


def test_lm21_running_out_of_reserve_loses() -> None:
    m, clock = start()
    m.submit(0, "ready", final=True)
    m.submit(1, "second", final=True)
    clock.set(45 + 16 * 30 + 1)
    m.advance()
    assert m.result is not None and m.result.winner == 1
    assert "LM-21" in m.result.reason


def test_lm21_no_reserve_in_lockpicking() -> None:
    m, _ = start()
    to_solve(m)
    assert m.spec is not None and not m.spec.reserve and m.spec.duration == 300.0


# ----------------------------------------------------------------------------- LM-16
def test_lm16_solutions_are_checked_and_timed() -> None:
    m, clock = start()
    to_solve(m)
    with pytest.raises(RuleError, match="LM-3"):
        m.submit(0, "K R1")  # legal but the key is not at the keyhole
    with pytest.raises(RuleError, match="LM-5"):
        m.submit(0, "K L2")
    clock.advance(12)
    m.submit(0, "K R1, K R1")
    clock.advance(5)
    m.submit(0, "K R2")
    clock.advance(3)
    m.submit(1, "K R2", final=True)
    m.submit(0, "K R2", final=True)
    assert m.state.stage == "pick"
    sols = m.state.solutions[0]
    assert [(s.moves, s.at) for s in sols] == [(2, 12.0), (1, 17.0), (1, 20.0)]
    assert m.spec is not None and m.spec.duration == 30.0 and m.spec.may == {0}
    m.submit(0, "1", final=True)  # only seat 1 has solutions to choose between
    assert m.state.final[0] is not None and m.state.final[0].moves == 2  # its pick counts
    announced = events(m, "solutions_announced")[0]
    assert announced["seat_1"] == {"moves": 2, "time": 12.0}


def test_lm16_impossible_call_is_final() -> None:
    m, _ = start()
    to_solve(m, IMPOSSIBLE1)
    m.submit(0, "impossible")
    with pytest.raises(RuleError, match="LM-16"):
        m.submit(0, "K R2")
    m.submit(0, "impossible")  # saying it again changes nothing


def test_lm16_solutions_are_private_until_the_end() -> None:
    m, clock = start()
    to_solve(m)
    clock.advance(3)
    m.submit(0, "K R1, K R1", final=True)
    m.submit(1, "K R2", final=True)
    mine = m.view(0)["state"]["my_solutions"]
    assert [(x["number"], x["moves"]) for x in mine] == [(1, 2)]
    assert [x["slide"] for x in mine[0]["steps"]] == ["right", "right"]
    facts = GAME.private_facts(m.state, 0)
    assert facts and all(f in json.dumps(m.view(0)) for f in facts)
    text = json.dumps(m.view(1)) + json.dumps(m.view("spectator"))
    assert not any(f in text for f in facts)


# ----------------------------------------------------------------------------- LM-17 / LM-19
def play_round(m: Match, clock: ManualClock, *, t0: float, s0: str, t1: float, s1: str,
               decide: tuple[str, str], counter: tuple[str | None, str | None]) -> None:
    """Solving by both seats at the given times, then the decisions and countersolves."""
    to_solve(m)
    base = clock.now()
    clock.set(base + t0)
    m.submit(0, s0, final=True)
    clock.set(base + t1)
    m.submit(1, s1, final=True)
    for seat in (0, 1):
        m.submit(seat, decide[seat], final=True)
    if m.state.stage == "counter":  # LM-17: both countersolves in one phase
        for seat in (0, 1):
            text = counter[seat]
            if m.state.counter_windows[seat] is not None and text is not None:
                m.submit(seat, text, final=True)
        if m.state.stage == "counter":
            clock.advance(10_000)
            m.advance()


def test_lm19_solve_faster_fewer_points() -> None:
    m, clock = start()
    play_round(m, clock, t0=10, s0="K R1, K R1", t1=20, s1="K R2",
               decide=("pass", "pass"), counter=(None, None))
    # seat 1: solved +1, faster +1; seat 2: solved +1, fewer moves +2
    assert m.state.scores == (2, 3)


def test_lm17_countersolve_fewer_moves_gives_maker_one() -> None:
    m, clock = start()
    play_round(m, clock, t0=10, s0="K R1, K R1", t1=20, s1="K R2",
               decide=("pass", "countersolve"), counter=(None, "K R2"))
    # seat 2 countersolves its lock (solved by seat 1 in 2) in 1 move: +1 to seat 2
    assert m.state.scores == (2, 4)


def test_lm17_countersolve_equal_gives_solver_two_and_failure_three() -> None:
    m, clock = start()
    play_round(m, clock, t0=10, s0="K R2", t1=20, s1="K R2",
               decide=("countersolve", "countersolve"), counter=("K R1, K R1", None))
    # faster: seat 1 +1; moves equal: no fewer points. Seat 1 countersolves its lock (solved
    # by seat 2 in 1) in 2: seat 2 +2. Seat 2 fails its countersolve: seat 1 +3.
    assert m.state.scores == (1 + 1 + 3, 1 + 2)
    assert [e["solved"] for e in events(m, "countersolved")] == [True, False]


def test_lm17_countersolve_lasts_as_long_as_the_solver_took() -> None:
    m, clock = start()
    to_solve(m)
    base = clock.now()
    clock.set(base + 40)
    m.submit(0, "K R2", final=True)
    m.submit(1, "K R2", final=True)
    m.submit(0, "pass", final=True)
    m.submit(1, "countersolve", final=True)
    assert m.spec is not None and m.spec.name == "counter"
    assert m.spec.duration == 40.0 and not m.spec.scaled and m.spec.must == {1}


def test_lm17_unsolved_lock_has_no_countersolve() -> None:
    m, clock = start()
    to_solve(m)
    clock.advance(301)
    m.advance()
    assert m.state.stage == "study" or m.result is not None
    assert m.state.scores == (0, 0)


# ----------------------------------------------------------------------------- LM-18
def test_lm18_correct_impossible_call_earns_five_and_caps_the_maker() -> None:
    m, clock = start()
    to_solve(m, IMPOSSIBLE1)
    m.submit(0, "impossible", final=True)
    m.submit(1, "K R2", final=True)  # seat 2 solves seat 1's lock: +1
    assert m.state.stage == "decide"
    m.submit(0, "countersolve", final=True)  # seat 1 countersolves and fails: seat 2 +3 ...
    # seat 2's lock was declared impossible: its countersolve has run since solving ended
    assert m.state.forced_active(1) and not m.state.forced_active(0)
    clock.advance(10_000)
    m.advance()
    assert m.spec is None or m.state.stage != "counter"
    # seat 1: +5 for the call. Seat 2 would have 1 + 3 but is capped at 1 (seed clarification).
    assert m.state.scores == (5, 1)
    assert "LM-18" in [a["rule"] for a in events(m, "round_scored")[0]["awards"]]


def test_lm18_wrong_impossible_call_maker_solves_and_earns_one() -> None:
    m, clock = start()
    to_solve(m)
    m.submit(0, "impossible", final=True)
    clock.advance(30)
    m.submit(1, "K R2", final=True)
    m.submit(0, "pass", final=True)
    # LM-17: seat 2's forced countersolve started when solving ended, so it may answer
    # during the decide phase already, with the rule's 5 minutes as its window.
    assert m.spec is not None and m.spec.name == "decide" and m.state.forced_left[1] == 300.0
    m.submit(1, "K R2", final=True)
    # seat 2: solved +1 (no faster/fewer points in a round with an impossible call), +1 for
    # solving its own lock declared impossible.
    assert m.state.scores == (0, 2)


# ----------------------------------------------------------------------------- LM-20
def _ended(scores: tuple[int, int], leader: int | None, last: bool = True) -> LMState:
    m, _ = start(rounds=2)
    state: LMState = m.state
    return replace(state, scores=scores, last_leader=leader, round=1 if last else 0)


def test_lm20_end_conditions_and_tiebreak() -> None:
    end = GAME._end_check
    res = end(_ended((16, 9), 0, last=False))
    assert res is not None and res.winner == 0
    assert end(_ended((15, 9), 0, last=False)) is None
    res = end(_ended((17, 18), 0, last=False))
    assert res is not None and res.winner == 1
    res = end(_ended((8, 8), 0))
    assert res is not None and res.winner == 0 and "led most recently" in res.reason
    res = end(_ended((8, 8), None))
    assert res is not None and res.winner == 1 and "DMO" in res.reason


def test_lm20_match_stops_after_the_round_reaching_the_target() -> None:
    m, clock = start(rounds=2, target=3)
    play_round(m, clock, t0=10, s0="K R1, K R1", t1=20, s1="K R2",
               decide=("pass", "pass"), counter=(None, None))
    assert m.result is not None and m.result.winner == 1


# ----------------------------------------------------------------------------- bot, views
def test_bot_declares_impossible_only_on_proof_and_solves_otherwise() -> None:
    m, _ = start()
    to_solve(m, IMPOSSIBLE1)
    assert bot_move(GAME, m.state, 0, random.Random(0)) == "impossible"
    assert bot_move(GAME, m.state, 1, random.Random(0)) == "K R2"


def test_bot_drafts_only_buildable_hands() -> None:
    hand = parse_piece_list("X")
    text = draft_pick(hand, parse_piece_list("X,X,H2"), 2, random.Random(0))
    assert "H2" in text and text.count("X") == 0
    assert buildable(parse_piece_list("X,H2")) and not buildable(parse_piece_list("X,X,X"))


def test_views_hide_nothing_public_and_render() -> None:
    m, _ = start()
    to_solve(m)
    v = m.view(0)
    assert v["state"]["locks"] and v["svg"].startswith("<svg")
    assert "data-cell" in v["svg"]
    assert read_lock(v["state"]["locks"][1]) == read_lock(LOCK1)


def test_bot_match_plays_to_the_end_quickly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Quickly as in: on the simulated clock, never sleeping (the builder's search notes
    its own times, and never decides by them). The old builder budget: the default one
    (bench/lockmaker_builder.py) thinks seconds a lock, and how long the search takes is
    the bench's business, not this test's."""
    def no_sleep(*_: object) -> None:
        raise AssertionError("the simulation slept")

    with monkeypatch.context() as patch:
        patch.setattr(time, "sleep", no_sleep)
        match = simulate(GAME, 3, GAME.make_config({"bot_placements": 80}),
                         settings=MatchSettings(time_scale=0.05))
    assert match.result is not None and match.result.winner in (0, 1)
    assert any(e.kind == "round_scored" for e in match.log)


@pytest.mark.parametrize("bot_seat", [0, 1])
def test_bot_takes_either_seat_against_random_play(bot_seat: int) -> None:
    """The hard bot in either seat submits only what the match takes and never runs out of
    reserve. Its builder walks a smaller budget (``bot_placements``, LM-15): the same code
    path at a tenth of the CPU (13 s a match with the default one); the default budget's
    locks are tests/games/lockmaker/test_lm_builder.py's."""
    from arena.core import rng as rngmod

    clock = ManualClock(0.0)
    m = Match(GAME, GAME.make_config({"rounds": 2, "bot_placements": 80}), 21 + bot_seat, clock)
    steps = 0
    while not m.finished:
        steps += 1
        assert steps < 2000
        for seat in sorted(m.waiting_for()):
            if m.finished or seat not in m.waiting_for():
                continue
            r = rngmod.derive(m.seed, "t", steps, seat)
            text = (GAME.bot(m.state, seat, r) if seat == bot_seat
                    else GAME.random_submission(m.state, seat, r))
            if text is not None and not m.is_final(seat):
                m.submit(seat, text, final=True)
        if m.finished:
            break
        when = m.next_deadline()
        assert when is not None
        clock.set(max(when, clock.now()))
        m.advance()
    assert m.result is not None
    assert "reserve" not in m.result.reason  # the bot never ran out of reserve


# ----------------------------------------------------------------------------- batch solving
OPEN0 = "......\naa....\n...KK@\n"  # seat 1's hand H2, key already on the keyhole's doorstep
IMPOSSIBLE0 = "K.....\nK.aa..\n.....@\n"  # seat 1's H2 hand, a vertical key that never turns


def test_lm15_a_lock_that_is_already_open_is_refused_at_construction() -> None:
    problems = construction_problems(read_lock(OPEN0), parse_piece_list("H2"))
    assert any("already open" in p and p.startswith("LM-15") for p in problems)
    m, _ = start()
    to_build(m)
    with pytest.raises(RuleError, match="already open") as err:
        m.submit(0, OPEN0)
    assert err.value.rule == "LM-15"
    assert m.state.stage == "build" and not m.history.get(0)  # nothing applied


def test_lm15_error_text_names_its_rule_once() -> None:
    m, _ = start()
    to_build(m)
    with pytest.raises(RuleError) as err:
        m.submit(0, "......\n......\n.KK..@\n")  # the drafted H2 is not used
    assert err.value.rule == "LM-15"
    assert str(err.value) == "LM-15: 1 drafted H2 not used (every drafted piece is used)"


def test_lm18_two_correct_impossible_calls_score_five_each() -> None:
    m, clock = start()
    to_build(m)
    m.submit(0, IMPOSSIBLE0, final=True)
    m.submit(1, IMPOSSIBLE1, final=True)
    assert m.state.stage == "solve"
    m.submit(0, "impossible", final=True)
    m.submit(1, "impossible", final=True)
    clock.advance(100_000)  # neither maker can countersolve an impossible lock
    m.advance()
    assert m.result is not None or m.state.stage != "counter"
    assert m.state.scores == (5, 5), m.state.history[-1].awards


def test_lm18_cap_still_applies_to_the_other_seats_points() -> None:
    m, clock = start()
    to_build(m)
    m.submit(0, LOCK0, final=True)
    m.submit(1, IMPOSSIBLE1, final=True)
    m.submit(0, "impossible", final=True)
    m.submit(1, "K R2", final=True)
    m.submit(0, "countersolve", final=True)
    clock.advance(100_000)
    m.advance()
    # seat 2 would earn 1 (solve) + 3 (seat 1's failed countersolve): capped at 1.
    assert m.state.scores == (5, 1)


@pytest.mark.parametrize("periods", [0, 2])
def test_lm21_both_seats_out_of_reserve_at_once_is_a_double_loss(periods: int) -> None:
    m, clock = start(reserve_periods=periods)
    to_build(m)
    clock.advance(10_000)  # neither seat builds: both reserves run out at the same moment
    m.advance()
    assert m.result is not None
    assert m.result.winner is None and m.result.losers == (0, 1) and m.result.double_loss
    assert "double loss" in m.result.reason and "LM-21" in m.result.reason
    ended = [e.data for e in m.log if e.kind == "match_ended"][-1]
    assert isinstance(ended, dict) and ended["double_loss"] is True and ended["winner"] is None


def test_lm21_one_seat_out_of_reserve_still_loses_alone() -> None:
    m, clock = start(reserve_periods=2)
    to_build(m)
    m.submit(1, LOCK1, final=True)
    clock.advance(10_000)
    m.advance()
    assert m.result is not None and m.result.winner == 1 and not m.result.double_loss


def test_lm17_both_countersolves_run_at_once_each_in_its_own_window() -> None:
    m, clock = start()
    to_solve(m)
    clock.advance(40)
    m.submit(0, "K R2", final=True)  # seat 1 solved seat 2's lock in 40 s
    clock.advance(20)
    m.submit(1, "K R2", final=True)  # seat 2 solved seat 1's lock in 60 s
    m.submit(0, "countersolve", final=True)
    m.submit(1, "countersolve", final=True)
    assert m.spec is not None and m.spec.name == "counter" and m.spec.must == {0, 1}
    assert m.state.counter_windows == (60.0, 40.0)  # each maker as long as its solver took
    assert m.spec.duration == 60.0 and not m.spec.scaled
    clock.advance(45)
    with pytest.raises(RuleError, match="LM-17") as err:
        m.submit(1, "K R2")  # seat 2's 40 s are over, though the phase still runs
    assert "ended" in str(err.value)
    m.submit(0, "K R2", final=True)  # seat 1 is still inside its 60 s
    clock.advance(100)
    m.advance()
    solved = {e["seat"]: e["solved"] for e in events(m, "countersolved")}
    assert solved == {0: True, 1: False}


def test_lm17_a_forced_countersolve_starts_when_solving_ends() -> None:
    m, clock = start()
    to_build(m)
    m.submit(0, IMPOSSIBLE0, final=True)
    m.submit(1, LOCK1, final=True)
    m.submit(1, "impossible", final=True)  # seat 2 calls seat 1's lock impossible
    clock.advance(100)
    m.submit(0, "K R2", final=True)  # seat 1 solves seat 2's lock at 100 s: solving ends
    assert m.state.stage == "decide" and m.state.forced_active(0)
    clock.advance(30)
    m.advance()  # the decide phase runs out: 30 s of seat 1's 5 minutes are gone
    assert m.spec is not None and m.spec.name == "counter"
    assert m.state.counter_windows[0] == pytest.approx(270.0)
