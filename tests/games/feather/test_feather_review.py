"""Light as a Feather's review: objectives a seat's buckets met while they were out and that
the seat never completed (LF-6, LF-7), and objectives nobody completed that one seat alone can
be shown to meet (LF-12's search)."""

from __future__ import annotations

from arena.core import review
from arena.core.driver import simulate
from arena.core.registry import get_game
from arena.games.feather.review import _meeting

GAME = get_game("feather")


def test_objectives_left_on_the_table_were_really_met_and_never_taken() -> None:
    judged_any = 0
    for seed in range(1, 5):
        match = simulate(GAME, seed)
        steps = {s.version: s for s in review.steps(match)}
        judged = review.judge(match)
        taken = {(o["seat"], e.data["session"], o["action"].get("objective"))
                 for e in match.log if e.kind == "tick"
                 for o in e.data["outcomes"] if o["done"]}
        for j in judged:
            judged_any += 1
            step = steps[j.version]
            state = step.before
            oid = int(j.did.lower().split("objective ")[1].split(" ")[0])
            me = state.board.seats[j.seat]
            assert oid in state.board.available
            if j.exact:  # its buckets met it there and then
                assert _meeting(state.session.objective(oid), me.waters, me.caps) is not None
                assert (j.seat, state.index, oid) not in taken
            else:  # nobody ever completed it
                assert all((s, state.index, oid) not in taken for s in (0, 1))
            assert j.value == 0 and j.best == j.cost == state.session.objective(oid).reward.points
            assert j.public and not state.session.practice
    assert judged_any > 0
