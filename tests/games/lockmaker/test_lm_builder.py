"""The bot's lock builder: the hardest-lock search under a walk budget.

Strength is the bench's job (``bench/lockmaker_builder.py``); here, with small budgets: every
lock is legal for the hand (LM-15) and solvable in the count reported (LM-9), the same seed
gives the same lock (G-7: the budget is counted, never timed), and the search never walks
more sets than its budget allows.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import arena.games.lockmaker.fast.generator as generator
from arena.games.lockmaker.board import Board
from arena.games.lockmaker.bot import build_lock
from arena.games.lockmaker.builder import BUILD_WALKS, build_hardest
from arena.games.lockmaker.fast.api import fast_solve
from arena.games.lockmaker.fast.generator import generate
from arena.games.lockmaker.lockfile import read_lock
from arena.games.lockmaker.match import LMState, LockmakerConfig
from arena.games.lockmaker.pieces import parse_piece_list
from arena.games.lockmaker.rounds import DEFAULT_ROUNDS
from arena.games.lockmaker.validate import construction_problems

HANDS = [(0, "H2,V3,H3,V2"), (1, "V2,X,H2,V3,H2"), (3, "X,H3,H2,H2"), (4, "V3,V3,H3,V2,V2")]
"""(default round, hand): hands the bot drafts there, with and without an axis."""


@pytest.mark.parametrize(("round_no", "hand_text"), HANDS)
def test_lm15_builder_locks_are_legal_and_solvable_in_the_count_given(
        round_no: int, hand_text: str) -> None:
    board = DEFAULT_ROUNDS[round_no].board
    hand = parse_piece_list(hand_text)
    built = build_hardest(board, hand, random.Random(round_no), walks=24)
    assert built is not None
    assert construction_problems(built.lock, hand, board) == []
    assert fast_solve(built.lock).moves == built.moves >= 1
    assert 1 <= built.walks <= 24


def test_g7_the_builder_is_a_function_of_its_seed() -> None:
    board = DEFAULT_ROUNDS[1].board
    hand = parse_piece_list("V2,X,H2,V3,H2")
    one = build_hardest(board, hand, random.Random(7), walks=30)
    two = build_hardest(board, hand, random.Random(7), walks=30)
    assert one is not None and one == two


@pytest.mark.parametrize("walks", [5, 9, 17, 40])
def test_the_search_walks_no_more_sets_than_its_budget(monkeypatch: pytest.MonkeyPatch,
                                                       walks: int) -> None:
    """The budget is a bound, counted in cluster walks: a restart's batch of fresh
    placements stops as soon as it is spent (it used to finish the batch of eight)."""
    calls = [0]
    real = generator.cluster_walk

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(generator, "cluster_walk", counted)
    board = Board(6, 6, frozenset({0, 35}))
    hand = parse_piece_list("H2,H3,V2,V3,V2,X")
    res = generate(board, hand, seconds=None, placements=walks, rng=random.Random(walks))
    assert res.searched <= walks
    assert calls[0] <= walks
    calls[0] = 0
    built = build_hardest(board, hand, random.Random(walks), walks=walks)
    assert built is not None and built.walks <= walks and calls[0] <= walks


def test_the_bot_builds_with_the_default_walk_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The config's default is the builder's calibrated budget, and the bot's build phase
    spends it (a zero budget skips the search: the random-and-climb lock)."""
    assert LockmakerConfig().bot_placements == BUILD_WALKS >= 600
    seen: list[int] = []
    real = build_hardest

    def spy(board: Board, hand: Any, rng: random.Random, walks: int = BUILD_WALKS) -> Any:
        seen.append(walks)
        return real(board, hand, rng, 12)

    import arena.games.lockmaker.bot as bot
    monkeypatch.setattr(bot, "build_hardest", spy)
    hand = parse_piece_list("H2,V3,H3,V2")
    state = LMState(LockmakerConfig(), DEFAULT_ROUNDS, stage="build", hands=(hand, ()))
    text = build_lock(state, 0, random.Random(3))
    assert text is not None and seen == [BUILD_WALKS]
    assert construction_problems(read_lock(text), hand, DEFAULT_ROUNDS[0].board) == []
