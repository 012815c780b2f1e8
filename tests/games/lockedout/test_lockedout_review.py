"""Locked Out!'s review: each attempt's chance of opening, from what its seat knew, against
the likeliest attempt its cards allowed (LO-4, LO-12's deduction)."""

from __future__ import annotations

import statistics

from arena.core import review
from arena.core.driver import simulate
from arena.core.registry import get_game
from arena.games.lockedout.commands import Solo
from arena.games.lockedout.review import _judge
from arena.games.lockedout.state import ROUND

GAME = get_game("lockedout")


def test_every_attempt_is_judged_and_no_opening_attempt_was_ruled_out() -> None:
    match = simulate(GAME, 21, levels={s: "easy" for s in range(6)})
    judged = review.judge(match)
    resolved = {n for n, e in enumerate(match.log, 1) if e.kind == "phase_resolved"}
    attempts = 0
    for step in review.steps(match):
        if step.before.stage != ROUND:
            continue
        for seat, sub in step.outcome.standing.items():
            for cmd in sub.value.commands:
                if not isinstance(cmd, Solo):
                    continue
                attempts += 1
                j = _judge(step, seat, cmd)
                # the lights never rule out the truth: an attempt that opens had a chance
                if step.before.combos[cmd.safe] == (cmd.left, cmd.right):
                    assert j.value > 0, j
    assert attempts and len(judged) >= attempts
    for j in judged:
        assert j.version in resolved and j.phase.startswith("round")
        assert 0 <= j.value <= j.best <= 100
        assert abs(j.cost - (j.best - j.value)) < 0.11
        assert not j.public  # attempts are sealed (G-9)
        assert "ruled it out" not in j.did or j.value == 0


def test_a_beginner_gives_away_more_chance_than_the_full_bot() -> None:
    def mean_cost(level: str) -> float:
        costs = []
        for seed in (1, 2, 3):
            judged = review.judge(simulate(GAME, seed, levels={s: level for s in range(6)}))
            costs += [j.cost for j in judged]
        return statistics.mean(costs)

    assert mean_cost("easy") > mean_cost("hard")
