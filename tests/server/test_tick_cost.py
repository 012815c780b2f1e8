"""A Feather tick's view reuses the parts that did not change, and the
difference a socket gets passes over them, without giving up exactness."""

from __future__ import annotations

import json
import pickle

from arena.core.clock import ManualClock
from arena.core.match import SPECTATOR, Match, MatchSettings
from arena.core.registry import get_game
from arena.games.feather.objectives import Constraint, Objective, Predicate, Reward
from arena.server import viewdiff


def _feather() -> tuple[Match, ManualClock]:
    game = get_game("feather")
    config = game.make_config({"tick": 1, "study": 0, "practice": False, "session_ticks": 50})
    clock = ManualClock(1000.0)
    return Match(game, config, 7, clock, MatchSettings(), start=1000.0), clock


def test_objective_json_is_built_once_and_never_pickled() -> None:
    obj = Objective(3, Predicate(amount=Constraint(min=2)), Reward(2, (0, 1, 0, 0, 0)))
    first = obj.to_json()
    assert obj.to_json() is first  # the same dict: viewdiff's ``is`` passes over it
    assert first == {"id": 3, "text": obj.describe(), "reward": {"points": 2, "modify": 1},
                     "reward_text": "2 points, 1 modify"}
    copy = pickle.loads(pickle.dumps(obj))  # a frozen state on its way to a bot worker
    assert "_json" not in copy.__dict__ and copy == obj and hash(copy) == hash(obj)
    assert copy.to_json() == first


def test_two_ticks_share_the_objectives_and_the_difference_stays_exact() -> None:
    match, clock = _feather()
    views = []
    for _ in range(3):
        deadline = match.next_deadline()
        assert deadline is not None
        clock.set(deadline)
        match.advance()
        views.append(match.view(SPECTATOR, svg=False))
    old, new = views[-2]["state"], views[-1]["state"]
    assert old["objectives"] and all(
        a is b for a, b in zip(old["objectives"], new["objectives"], strict=True))
    ops = viewdiff.diff(views[-2], views[-1])
    assert not any(op[1][:2] == ["state", "objectives"] for op in ops)
    assert json.dumps(viewdiff.apply(views[-2], ops), sort_keys=True) == \
        json.dumps(views[-1], sort_keys=True)


def test_a_shared_subtree_is_passed_over_but_a_changed_type_is_not() -> None:
    shared = {"a": [1, 2, {"b": True}]}
    assert viewdiff.diff({"x": shared, "n": 1}, {"x": shared, "n": 1}) == []
    # Exactness: equal in Python, yet not in the page's JSON.
    assert viewdiff.diff({"x": [1, 0]}, {"x": [True, 0]}) == [["s", ["x", 0], True]]
    assert viewdiff.diff({"x": {"k": 1}}, {"x": {"k": 1.0}}) == [["s", ["x", "k"], 1.0]]
    assert viewdiff.diff({"a": 1, "b": 2}, {"a": 1, "c": 2}) == [["s", ["c"], 2], ["d", ["b"]]]


def test_owners_due_within_a_few_ms_are_woken_together_and_never_early() -> None:
    """One loop timer for every owner (``Ticker``), not a ``wait_for`` per match and tick."""
    import asyncio
    import time

    from arena.server import ticker

    async def scenario() -> None:
        timer = ticker.ticker()
        assert ticker.ticker() is timer
        start = time.time() + 0.05
        events = [asyncio.Event() for _ in range(3)]
        woke: list[float] = [0.0] * 3
        for i, ev in enumerate(events):
            timer.wake_at(start + i * 0.001, ev)
        late = asyncio.Event()
        far = timer.wake_at(start + 0.5, late)

        set_when_woken: list[list[bool]] = [[]] * 3

        async def watch(i: int) -> None:
            await events[i].wait()
            woke[i] = time.time()
            set_when_woken[i] = [ev.is_set() for ev in events]

        await asyncio.wait_for(asyncio.gather(*(watch(i) for i in range(3))), 60)  # hang guard
        assert all(w >= start + i * 0.001 for i, w in enumerate(woke))  # never early
        # One batch: whichever owner runs first finds the other two woken already (an order,
        # not a timing: a loaded machine may run the three a while apart).
        assert all(all(seen) for seen in set_when_woken), set_when_woken
        timer.cancel(far)  # woken otherwise: dropped, and never set
        await asyncio.sleep(0.6)
        assert not late.is_set()

    asyncio.run(scenario())


def test_dropped_waits_do_not_pile_up() -> None:
    import asyncio
    import time

    from arena.server import ticker

    async def scenario() -> None:
        timer = ticker.ticker()
        for _ in range(1000):  # a chatty match: every command wakes its owner early
            timer.cancel(timer.wake_at(time.time() + 60, asyncio.Event()))
        assert len(timer._heap) <= 130

    asyncio.run(scenario())
