"""Lockmaker's random policy at engine speed keeps the old one's meaning.

- The lone-key search is a proof: when it says the key cannot reach the keyhole, the
  solver finds the lock impossible too (LM-3, LM-9).
- The new policy gives the old one's texts, draw for draw, through whole matches (G-7).
- ``Position.legal`` agrees with the full explanation of ``problems`` (LM-1..LM-8).
"""

from __future__ import annotations

import random
from typing import Any

from arena.core.clock import ManualClock
from arena.core.errors import RuleError
from arena.core.match import Match, MatchSettings
from arena.games.lockmaker import bot
from arena.games.lockmaker.board import Board
from arena.games.lockmaker.construct import random_lock, sample_lock
from arena.games.lockmaker.fast.api import fast_solve
from arena.games.lockmaker.match import GAME
from arena.games.lockmaker.pieces import Bar, parse_piece_list
from arena.games.lockmaker.position import Position
from arena.games.lockmaker.randomplay import key_can_reach, random_move


def _locks(n: int) -> list[Position]:
    """Varied legal locks: small samples (axes often) and random locks of drafted hands."""
    out = [sample_lock(seed) for seed in range(n)]
    rng = random.Random(5)
    board = Board(6, 6, frozenset({0, 35}))
    for _ in range(n):
        hand = parse_piece_list(",".join(rng.choice(["H2", "V2", "H3", "V3", "X"])
                                         for _ in range(rng.randint(2, 6))))
        pos = random_lock(board, hand, rng, tries=20)
        if pos is not None:
            out.append(pos)
    return out


def test_lm3_lone_key_unreachable_means_impossible() -> None:
    locks = _locks(150)
    refuted = 0
    for pos in locks:
        res = fast_solve(pos)
        if res.solvable:
            assert key_can_reach(pos), pos
        if not key_can_reach(pos):
            refuted += 1
            assert not res.solvable and res.complete, pos
    assert refuted >= 20  # the shortcut does take most impossible locks


def test_lm6_lone_key_turns_about_an_axis() -> None:
    # Keyhole on E3; the key stands in column A below the axis on A3. Only a quarter turn
    # (CCW: A4-A5 -> B3-C3) brings it onto the keyhole's row, where it slides to C3-D3.
    board = Board(5, 5)
    keyhole = board.cell(4, 2)
    key = Bar(board.cell(0, 3), 2, False)
    with_axis = Position.make(board, keyhole, key, [], [board.cell(0, 2)])
    assert key_can_reach(with_axis)
    assert not key_can_reach(Position.make(board, keyhole, key, [], []))
    blocked = Board(5, 5, frozenset({board.cell(1, 2)}))  # B3 blocked: the turn cannot land
    assert not key_can_reach(Position.make(blocked, keyhole, key, [], [board.cell(0, 2)]))


def _texts(policy: object, seed: int) -> list[str | None]:
    """Every text a policy gives through one whole match of random submissions."""
    clock = ManualClock(1000.0)
    match = Match(GAME, GAME.default_config(), seed, clock, MatchSettings())
    rng = random.Random(seed)
    out: list[str | None] = []
    while not match.finished:
        acted = False
        for seat in sorted(match.waiting_for()):
            if match.finished or seat not in match.waiting_for():
                continue
            text = policy(GAME, match.state, seat, rng)  # type: ignore[operator]
            out.append(text)
            if text is None:
                continue
            try:
                match.submit(seat, text, final=True)
                acted = True
            except RuleError:  # pragma: no cover - the policies only draw legal texts
                raise
        if not acted and not match.finished:
            when = match.next_deadline()
            assert when is not None
            clock.set(max(clock.now(), when))
            match.advance()
    return out


def _reference_random_move(game: Any, state: Any, seat: int,
                           rng: random.Random) -> str | None:
    """The random policy as the bot module had it before ``randomplay``: the reference whose
    draws the new policy must repeat (kept here, the one place that uses it)."""
    st = state.stage
    if st == "study":
        return rng.choice(["first", "second"]) if state.round == 0 and seat == 1 else "ready"
    if st == "draft":
        if rng.random() < 0.15:
            return "stop"
        hand = state.hands[seat]
        pool = list(state.pool)
        rng.shuffle(pool)
        chosen: list[Any] = []
        want = rng.randint(1, state.turn_picks())
        for p in pool:
            if len(chosen) >= want:
                break
            if bot.buildable((*hand, *chosen, p)):
                chosen.append(p)
        if not chosen:
            return "stop"
        return ",".join(str(p) for p in chosen) + (",stop" if rng.random() < 0.1 else "")
    if st == "build":
        pos = bot.random_lock(state.current.board, state.hands[seat], rng)
        return None if pos is None else bot.write_lock(pos)
    if st == "solve":
        # Within one phase a seat always offers the same kind of answer: a solution after an
        # impossible call would be rightly refused (LM-16).
        if (state.round + seat) % 2 == 0:
            return "impossible"
        lock = state.locks[1 - seat]
        assert lock is not None
        res = bot.cached_solve(lock, bot.RANDOM_BUDGET)
        return bot.solution_text(lock, res) if res.solvable else "impossible"
    if st in ("pick", "decide") and state.forced_active(seat):
        own = state.locks[seat]
        assert own is not None
        res = bot.cached_solve(own, bot.RANDOM_BUDGET)
        if res.solvable and rng.random() < 0.7:
            return bot.solution_text(own, res)
        if st == "decide" or len(state.solutions[seat]) < 2:
            return None
    if st == "pick":
        return str(rng.randint(1, len(state.solutions[seat])))
    if st == "decide":
        return rng.choice(["countersolve", "pass"])
    if st == "counter":
        own = state.locks[seat]
        assert own is not None
        res = bot.cached_solve(own, bot.RANDOM_BUDGET)
        return bot.solution_text(own, res) if res.solvable else None
    return None


def test_g7_random_policy_gives_the_old_policys_texts() -> None:
    for seed in range(4):
        assert _texts(random_move, seed) == _texts(_reference_random_move, seed)


def test_lm15_legal_agrees_with_the_full_explanation() -> None:
    rng = random.Random(11)
    checked = illegal = 0
    for pos in _locks(80):
        assert pos.legal() and pos.explain() == []
        board = pos.board
        for _ in range(10):  # move one piece at random, often onto something
            pieces = list(pos.pieces)
            i = rng.randrange(len(pieces))
            b = pieces[i]
            pieces[i] = Bar(rng.randrange(board.size), rng.choice([1, 2, 3, 4]),
                            rng.random() < 0.5) if rng.random() < 0.3 else Bar(
                rng.randrange(board.size), b.length, b.horizontal)
            axes = list(pos.axes)
            if axes and rng.random() < 0.3:
                axes[0] = rng.randrange(board.size)
            keyhole = rng.randrange(board.size) if rng.random() < 0.1 else pos.keyhole
            other = Position.make(board, keyhole, pieces[0], pieces[1:], axes)
            assert other.legal() == (other.explain() == []), other
            checked += 1
            illegal += not other.legal()
    assert illegal >= checked // 4
