"""The Feather bot's search: legal along random playouts, and a decision that
depends on the board alone, never on what the process thought about before.

The server's bot workers are a pool (``server/thinkers.py``): consecutive ticks of one match
may be decided by different processes, and a replayed or taken-over match may ask again for a
board already decided. So whatever the bot keeps between calls may only make a decision
cheaper, never different (G-7: a match is reproducible from its record and its seed).
"""

from __future__ import annotations

import random
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest
from feather_helpers import act
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.feather import bot
from arena.games.feather.scenario import SessionSpec, load_scenario
from arena.games.feather.tick import Board, check_action, new_board, step

SESSIONS = load_scenario("default").sessions


def _playout(spec: SessionSpec, b: Board, ticks: int, rng: random.Random,
             smart: frozenset[int]) -> list[tuple[SessionSpec, Board, int, str | None]]:
    """Play ``ticks`` ticks from ``b``: the seats in ``smart`` ask the bot, and each of its
    actions must pass the submission check; the others play random legal actions. Returns
    every board the bot decided on, with the seat and the decision."""
    seen: list[tuple[SessionSpec, Board, int, str | None]] = []
    for _ in range(min(ticks, spec.ticks - b.tick)):
        actions = {}
        for seat in (0, 1):
            if seat in smart:
                text = bot.choose(spec, b, seat)
                seen.append((spec, b, seat, text))
            else:
                text = bot.random_legal(spec, b, seat, rng)
            if text is not None:
                action = act(spec, text)
                check_action(spec, b, seat, action)  # LF-4, LF-6, LF-9: raises if illegal
                actions[seat] = action
        b, _ = step(spec, b, actions)
    return seen


@settings(deadline=None, max_examples=25)
@given(session=st.sampled_from(SESSIONS), seed=st.integers(0, 2**32),
       smart=st.sampled_from([frozenset({0}), frozenset({1}), frozenset({0, 1})]),
       powerups=st.tuples(*[st.integers(0, 2)] * 5), ticks=st.integers(1, 25))
def test_bot_actions_are_legal_along_random_playouts(session: SessionSpec, seed: int,
                                                     smart: frozenset[int],
                                                     powerups: tuple[int, ...],
                                                     ticks: int) -> None:
    # Powerups held from the start make the search use Modify and Exchange, and the spoiler
    # Lock and Sip (LF-9), which a random playout would rarely earn.
    start = new_board(session, None, 1)
    b = replace(start, seats=tuple(replace(s, powerups=powerups) for s in start.seats))
    assert _playout(session, b, ticks, random.Random(seed), smart)


def test_a_decision_depends_on_the_board_alone() -> None:
    # Decide along two noisy playouts, then ask again about every board in the reverse order:
    # the same board gets the same decision (a plan remembered from the previous tick, or a
    # memo of searches that failed, would make a fresh worker decide otherwise).
    decided = []
    for seed, spec in ((1, SESSIONS[1]), (2, SESSIONS[3])):
        start = new_board(spec, None, 1)
        start = replace(start, seats=tuple(replace(s, powerups=(1, 1, 1, 1, 1))
                                           for s in start.seats))
        decided += _playout(spec, start, 40, random.Random(seed), frozenset({seed % 2}))
    again = [bot.choose(spec, b, seat) for spec, b, seat, _ in reversed(decided)]
    assert list(reversed(again)) == [text for *_, text in decided]
    assert sum(text is not None for *_, text in decided) > 20


def test_search_gives_the_same_plan_with_cold_and_warm_tables() -> None:
    spec = SESSIONS[2]
    b = new_board(spec, None, 1)
    b = replace(b, seats=(replace(b.seats[0], powerups=(1, 1, 0, 0, 0)), b.seats[1]))
    bot._LOCAL.tables = bot._Tables()  # as in a fresh worker
    cold = bot.search(spec, b, 0)
    for tick in range(1, 6):
        bot.search(spec, replace(b, tick=tick), 0)
    warm = bot.search(spec, b, 0)
    assert cold is not None and warm == cold


def test_the_shared_tables_start_afresh_past_their_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # A bot worker lives as long as the server: its tables must not grow without bound.
    spec = SESSIONS[3]
    b = new_board(spec, None, 1)
    bot._LOCAL.tables = bot._Tables()
    first = bot.search(spec, b, 0)
    before = bot._tables()
    big = before.size()
    assert big > 100
    monkeypatch.setattr(bot, "TABLE_LIMIT", 100)
    again = bot.search(spec, replace(b, tick=1), 0)
    assert bot._tables() is not before and bot._LOCAL.tables.size() < 2 * big
    assert bot.search(spec, b, 0) == first and again is not None


def test_bots_thinking_in_threads_decide_as_one_thread_does() -> None:
    # Without worker processes the server's bots think in a thread pool (server/thinkers.py);
    # each thread has its own tables, since numbering a new bucket state is not atomic.
    spec = SESSIONS[3]
    start = new_board(spec, None, 1)
    start = replace(start, seats=tuple(replace(s, powerups=(1, 1, 0, 0, 0)) for s in start.seats))
    boards = [(b, seat) for _, b, seat, _ in _playout(spec, start, 30, random.Random(5),
                                                      frozenset({0, 1}))]
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        with ThreadPoolExecutor(4) as pool:  # fresh threads: cold tables, filled at once
            runs = list(pool.map(lambda _: [bot.choose(spec, b, seat) for b, seat in boards],
                                 range(4)))
    finally:
        sys.setswitchinterval(old)
    bot._LOCAL.tables = bot._Tables()
    alone = [bot.choose(spec, b, seat) for b, seat in boards]
    assert all(run == alone for run in runs)
    mine = bot._tables()
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(bot._tables).result() is not mine
