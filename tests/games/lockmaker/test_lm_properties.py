"""Hypothesis properties of the move model (LM-1, LM-5..LM-8): invariants under random legal
play, slides undone by their reverse, and the two move code paths agreeing."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.lockmaker.construct import sample_lock as small_random_lock
from arena.games.lockmaker.moves import Slide, apply_move, reverse, successors
from arena.games.lockmaker.pieces import bar_cells
from arena.games.lockmaker.position import Position


def _invariants(p: Position) -> None:
    board = p.board
    cells: list[int] = [p.keyhole, *p.axes]
    for bar in p.pieces:
        cells.extend(bar_cells(board, bar))
    assert len(cells) == len(set(cells)), "pieces overlap"
    assert all(board.is_open(c) for c in cells), "a piece on a blocked cell (LM-1)"
    assert all(p.attached_to(a) for a in p.axes), "an axis with nothing attached (LM-8)"
    assert p.problems() == []


@settings(deadline=None, max_examples=60)
@given(st.integers(0, 10**6), st.integers(0, 10**6))
def test_random_legal_play_keeps_every_invariant(seed: int, walk: int) -> None:
    p = small_random_lock(seed)
    rng = random.Random(walk)
    _invariants(p)
    for _ in range(25):
        options = list(successors(p))
        if not options:
            break
        move, nxt = rng.choice(options)
        assert apply_move(p, move) == nxt  # the checking path agrees with the generator
        p = nxt
        _invariants(p)


@settings(deadline=None, max_examples=60)
@given(st.integers(0, 10**6))
def test_every_move_is_undone_by_its_reverse(seed: int) -> None:
    p = small_random_lock(seed)
    for move, nxt in successors(p):
        back = reverse(move, p)
        if isinstance(move, Slide):
            assert apply_move(nxt, back) == p
        else:
            # A turn's reverse is legal whenever no other axis lost its last piece on the way.
            try:
                assert apply_move(nxt, back) == p
            except ValueError:
                raise AssertionError(f"cannot undo {move}") from None
