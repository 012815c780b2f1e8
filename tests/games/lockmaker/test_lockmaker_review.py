"""Lockmaker's post-match review: each lock, solution and impossible call judged in moves.

Whole matches are simulated with bots (small rounds and a small build budget, so the file
stays quick) and judged by the engine's review; one scripted match checks the figures against
locks whose optima are known (LM-9, LM-16, LM-18).
"""

from __future__ import annotations

from arena.core.clock import ManualClock
from arena.core.driver import simulate
from arena.core.match import Match
from arena.core.review import judge
from arena.games.lockmaker import GAME
from arena.games.lockmaker.pieces import parse_piece_list
from arena.games.lockmaker.review import hardest_for, pieces_words
from arena.games.lockmaker.rounds import DEFAULT_ROUNDS

CHEAP = {"rounds": 1, "bot_placements": 200}
"""One round, and a hard bot that builds in under a second."""
ROUND = "......\n......\n......\npieces: H2,V2\n"
LOCK0 = "......\naa....\n.KK..@\n"  # seat 1's hand H2; optimum: K R2 (1 move)
LOCK1 = "......\na.....\naKK..@\n"  # seat 2's hand V2; optimum: K R2 (1 move)
IMPOSSIBLE1 = "K.....\nK.a...\n..a..@\n"  # a vertical key never reaches the keyhole


def _scripted(lock1: str = LOCK1) -> tuple[Match, ManualClock]:
    clock = ManualClock(0.0)
    m = Match(GAME, GAME.make_config({"setup": ROUND, "rounds": 1}), 7, clock)
    m.submit(0, "ready", final=True)
    m.submit(1, "second", final=True)
    m.submit(0, "H2", final=True)
    m.submit(1, "V2", final=True)
    m.submit(0, LOCK0, final=True)
    m.submit(1, lock1, final=True)
    assert m.state.stage == "solve"
    return m, clock


def test_judgements_are_costs_at_resolved_phases_and_repeat_exactly() -> None:
    for seed in (3, 4):
        match = simulate(GAME, seed, GAME.make_config(CHEAP))
        got = judge(match)
        assert got and got == judge(match)  # the same match, the same review (G-7)
        resolved = {n: e for n, e in enumerate(match.log, 1) if e.kind == "phase_resolved"}
        for j in got:
            assert j.cost >= 0 and j.seat in (0, 1) and not j.public
            assert j.version in resolved and resolved[j.version].data["name"] == j.phase
            assert "," not in j.did and "@" not in j.did  # words, never notation
            if j.phase == "build":
                assert not j.exact and j.best >= j.value and j.cost == j.best - j.value
            else:
                assert j.exact
        assert {j.phase for j in got} >= {"build", "solve"}
        assert {j.seat for j in got if j.phase == "build"} == {0, 1}


def test_an_easy_seat_gives_away_more_than_a_hard_one() -> None:
    easy = hard = 0.0
    for seed in (11, 12):
        config = GAME.make_config(CHEAP)
        easy += sum(j.cost for j in judge(simulate(GAME, seed, config, levels={0: "easy"}))
                    if j.seat == 0)
        hard += sum(j.cost for j in judge(simulate(GAME, seed, config)) if j.seat == 0)
    assert easy > hard


def test_a_long_solution_and_a_wrong_call_are_set_against_the_optimum() -> None:
    m, clock = _scripted()
    m.submit(0, "impossible", final=True)  # LOCK1 opens in 1 move: a wrong call (LM-18)
    clock.advance(30)
    m.submit(1, "K R1, K R1", final=True)  # 2 moves where 1 does (LM-9)
    m.submit(0, "pass", final=True)
    m.submit(1, "K R2", final=True)  # the forced countersolve, at the optimum
    assert m.result is not None
    got = {(j.seat, j.phase): j for j in judge(m)}
    call = got[(0, "solve")]
    assert (call.value, call.best, call.cost, call.exact) == (0, 1, 1, True)
    assert "impossible" in call.did and "1 move" in call.better
    long = got[(1, "solve")]
    assert (long.value, long.best, long.cost, long.unit) == (2, 1, 1, "moves")
    assert long.did.endswith("took 2 moves.") and "shortest solution takes 1 move" in long.better
    counter = got[(1, "decide")]
    assert (counter.value, counter.best, counter.cost) == (1, 1, 0)
    assert "countersolve" in counter.did and "shortest possible" in counter.better
    for seat in (0, 1):  # a 1-move lock where the review finds no harder one for one bar
        lock = got[(seat, "build")]
        assert lock.value == 1 and lock.best >= 1 and not lock.exact


def test_a_right_call_costs_nothing() -> None:
    m, clock = _scripted(IMPOSSIBLE1)
    m.submit(0, "impossible", final=True)
    m.submit(1, "K R2", final=True)
    m.submit(0, "pass", final=True)
    clock.advance(10_000)
    m.advance()
    assert m.result is not None
    got = judge(m)
    call = next(j for j in got if j.seat == 0 and j.phase == "solve")
    assert call.cost == 0 and call.better.startswith("Right")
    lock = next(j for j in got if j.seat == 1 and j.phase == "build")
    assert lock.value == 0 and lock.cost == lock.best >= 1 and "cannot be opened" in lock.did


def test_the_hardest_lock_is_a_function_of_board_and_hand() -> None:
    board = DEFAULT_ROUNDS[0].board
    hand = parse_piece_list("V2,V2,V3,X")
    one, two = hardest_for(board, hand), hardest_for(board, tuple(reversed(hand)))
    assert one is not None and one == two and one[0] >= 1
    assert pieces_words(hand) == "two vertical bars of 2, a vertical bar of 3 and an axis"
