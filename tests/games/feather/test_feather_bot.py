"""The planning bot: shortest plans, races, spoilers, and play against a random bot."""

from __future__ import annotations

import random
from dataclasses import replace

from feather_helpers import BASINS, act, board, session

from arena.core.clock import ManualClock
from arena.core.match import Match, MatchSettings
from arena.games.feather import bot
from arena.games.feather.match import GAME
from arena.games.feather.scenario import load_scenario
from arena.games.feather.tick import check_action, step

EXAMPLE = load_scenario("example").sessions[0]


def test_search_finds_the_examples_shortest_plan_for_objective_one() -> None:
    b = replace(board(EXAMPLE), available=(1,), queue=())
    plan = bot.search(EXAMPLE, b, 0)
    assert plan is not None and plan.objective == 1
    assert [str(a) for a in plan.actions] == ["fill Z A", "transfer A -> B", "complete A 1"]


def test_search_uses_modify_like_the_text_does() -> None:
    # Objective 2 wants two equal buckets of at least 3. Without powerups, measuring 5 and 5
    # with a 10 and a 7 takes longer than the bot looks ahead; holding a Modify it finds the
    # text's own line: fill, shrink B to 5, pour, complete.
    b = replace(board(EXAMPLE), available=(2,), queue=())
    assert bot.search(EXAMPLE, b, 0) is None
    b = replace(b, seats=(replace(b.seats[0], powerups=(0, 1, 0, 0, 0)), b.seats[1]))
    plan = bot.search(EXAMPLE, b, 0)
    assert plan is not None
    assert [a.verb for a in plan.actions] == ["fill", "modify", "transfer", "complete"]
    # Replaying the plan against an idle opponent really completes the objective.
    for action in plan.actions:
        check_action(EXAMPLE, b, 0, action)
        b, _ = step(EXAMPLE, b, {0: action})
    assert b.seats[0].points == 2


def test_bot_completes_now_and_prefers_the_contested_objective() -> None:
    spec = session(BASINS + """
[[sessions.objectives]]
id = 1
buckets = 1
amount = 3
reward = { points = 2 }

[[sessions.objectives]]
id = 2
buckets = 1
amount = 5
reward = { points = 2 }
""")
    b = board(spec)
    seats = (replace(b.seats[0], waters=(3, 5)), replace(b.seats[1], waters=(0, 5)))
    b = replace(b, seats=seats)
    # Both worth 2; the opponent meets objective 2 now, so the bot takes that one first.
    assert bot.choose(spec, b, 0) == "complete B 2"


def test_bot_locks_an_opponent_about_to_complete() -> None:
    spec = session(BASINS + """
[[sessions.objectives]]
id = 1
buckets = 1
amount = 3
reward = { points = 3 }
""")
    b = board(spec)
    seats = (replace(b.seats[0], powerups=(0, 0, 0, 1, 0)), replace(b.seats[1], waters=(0, 3)))
    b = replace(b, seats=seats)
    assert bot.choose(spec, b, 0) == "lock B"


def test_bot_actions_are_always_legal_over_a_short_match() -> None:
    state = GAME.initial_state(GAME.make_config({"practice": False, "session_ticks": 12,
                                                 "study": 0}), random.Random(0))
    from arena.core.game import PhaseOutcome, Submission, SubmitContext

    while state.stage != "over":
        standing = {}
        for seat in (0, 1):
            text = GAME.bot(state, seat, random.Random(seat))
            if text is not None:
                value = GAME.validate(state, seat, text, SubmitContext(at=0.0))
                standing[seat] = Submission(seat, text, value, 0.0)
        outcome = PhaseOutcome(standing, {s: (v,) for s, v in standing.items()}, frozenset(), 1)
        state, _ = GAME.resolve(state, outcome, random.Random(0))
    assert sum(s.points for s in state.board.seats) > 0


def play_vs_random(seed: int, config_values: dict[str, object]) -> tuple[int | None, tuple[float, ...]]:
    """Seat ``seed % 2`` is the planning bot, the other seat plays random legal actions."""
    clock = ManualClock(0.0)
    config = GAME.make_config(config_values)
    match = Match(GAME, config, seed, clock, MatchSettings())
    smart = seed % 2
    rng = random.Random(seed)
    while not match.finished:
        if match.phase_no and match.spec is not None:
            for seat in (0, 1):
                if seat == smart:
                    text = GAME.bot(match.state, seat, rng)
                else:
                    text = GAME.random_submission(match.state, seat, rng)
                if text is not None:
                    match.submit(seat, text)
        when = match.next_deadline()
        assert when is not None
        clock.set(when)
        match.advance()
    assert match.result is not None
    won = match.result.winner == smart
    return (1 if won else 0), match.result.scores


def test_bot_beats_random_in_short_matches() -> None:
    config = {"practice": False, "session_ticks": 20, "study": 1}
    wins = [play_vs_random(seed, config)[0] for seed in range(4)]
    assert sum(w or 0 for w in wins) >= 3


def test_random_legal_actions_are_legal() -> None:
    b = board(EXAMPLE)
    rng = random.Random(1)
    for _ in range(30):
        text = bot.random_legal(EXAMPLE, b, 0, rng)
        a = act(EXAMPLE, text)
        check_action(EXAMPLE, b, 0, a)
        b, _ = step(EXAMPLE, b, {0: a})
