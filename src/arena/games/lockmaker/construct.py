"""Building legal locks for a drafted hand (LM-15): random placements for bots and tests.

:func:`random_lock` places the keyhole on a non-label edge (LM-2), then each axis with a piece
attached to it (LM-6, LM-8; the key counts), then the remaining bars in their drafted
orientation (LM-4), and retries on a dead end. :func:`buildable` is the cheap test a drafter
uses so that it never takes a hand it cannot build: every axis needs its own attached piece,
and the key is a piece too.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import lru_cache

from arena.games.lockmaker.board import Board
from arena.games.lockmaker.pieces import Bar, PieceKind, bar_cells
from arena.games.lockmaker.position import Position, attached, key_targets


def buildable(hand: Iterable[PieceKind]) -> bool:
    """A conservative test: at most one axis per bar, plus one for the key."""
    pieces = list(hand)
    axes = sum(1 for p in pieces if p.is_axis)
    return axes <= len(pieces) - axes + 1


def _free_bar(board: Board, taken: set[int], bar: Bar) -> bool:
    c, r = board.col(bar.cell), board.row(bar.cell)
    if bar.horizontal:
        if not board.inside(c + bar.length - 1, r):
            return False
    elif not board.inside(c, r + bar.length - 1):
        return False
    return all(board.is_open(x) and x not in taken for x in bar_cells(board, bar))


@lru_cache(maxsize=256)
def _fitting(board: Board, length: int, horizontal: bool
             ) -> tuple[tuple[Bar, frozenset[int]], ...]:
    """Every bar of ``length`` in that orientation that lies inside the board on open cells
    (LM-4), with its cells, in the order of ``board.open_cells()``: the candidates
    :func:`random_lock` filters by the cells already taken. Listed once per board, since a
    random match places thousands of bars on one board."""
    out = []
    for c in board.open_cells():
        bar = Bar(c, length, horizontal)
        if _free_bar(board, set(), bar):
            out.append((bar, frozenset(bar_cells(board, bar))))
    return tuple(out)


@lru_cache(maxsize=256)
def _holes(board: Board) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The board's open cells, and those a keyhole may take (LM-2, with a target placement,
    LM-3): listed once per board rather than per lock."""
    cells = tuple(board.open_cells())
    return cells, tuple(c for c in cells if board.keyhole_sides(c) and key_targets(board, c))


def _attached_spots(board: Board, axis: int, length: int, horizontal: bool) -> list[Bar]:
    """Placements of a bar of ``length`` in that orientation with an end next to ``axis``."""
    ac, ar = board.col(axis), board.row(axis)
    out = []
    if horizontal:
        if board.inside(ac + 1, ar):
            out.append(Bar(board.cell(ac + 1, ar), length, True))
        if ac - length >= 0:
            out.append(Bar(board.cell(ac - length, ar), length, True))
    else:
        if board.inside(ac, ar + 1):
            out.append(Bar(board.cell(ac, ar + 1), length, False))
        if ar - length >= 0:
            out.append(Bar(board.cell(ac, ar - length), length, False))
    return out


def _in_line(board: Board, keyhole: int, bar: Bar) -> bool:
    if bar.horizontal:
        return board.row(bar.cell) == board.row(keyhole)
    return board.col(bar.cell) == board.col(keyhole)


def random_lock(board: Board, hand: Iterable[PieceKind], rng: random.Random, *,
                tries: int = 200, unsolved: bool = True, key_in_line: bool = False
                ) -> Position | None:
    """A random legal lock using exactly ``hand`` on ``board``, or None if none was found.

    With ``unsolved`` the key never starts on the keyhole's doorstep; with ``key_in_line``
    it starts in line with the keyhole (so the lock is more often solvable)."""
    pieces = list(hand)
    n_axes = sum(1 for p in pieces if p.is_axis)
    bars_kinds = [p for p in pieces if not p.is_axis]
    cells, holes = _holes(board)
    if not holes:
        return None
    for _ in range(tries):
        keyhole = rng.choice(holes)
        taken = {keyhole}
        # Mostly lay the key the way the keyhole wants it (LM-3); an axis may still turn it.
        wanted = sorted({t.horizontal for t in key_targets(board, keyhole)})
        key_orient = rng.choice(wanted) if rng.random() < 0.85 else rng.random() < 0.5
        # The key's orientation is the maker's choice (LM-3); None until placed.
        to_place: list[tuple[int, bool | None]] = [(k.length, k.kind == "H") for k in bars_kinds]
        rng.shuffle(to_place)
        to_place.insert(rng.randrange(len(to_place) + 1), (2, None))
        placed: list[tuple[Bar, bool]] = []  # (bar, is_key)
        axes: list[int] = []
        ok = True
        for _a in range(n_axes):
            free_cells = [c for c in cells if c not in taken]
            rng.shuffle(free_cells)
            done = False
            for axis in free_cells[:30]:
                if not to_place:
                    break
                length, horizontal = to_place[0]
                orient = horizontal if horizontal is not None else key_orient
                spots = [b for b in _attached_spots(board, axis, length, orient)
                         if _free_bar(board, taken | {axis}, b)]
                if spots:
                    bar = rng.choice(spots)
                    taken.add(axis)
                    taken.update(bar_cells(board, bar))
                    axes.append(axis)
                    placed.append((bar, horizontal is None))
                    to_place.pop(0)
                    done = True
                    break
            if not done:
                ok = False
                break
        if not ok:
            continue
        for length, horizontal in to_place:
            orient = horizontal if horizontal is not None else key_orient
            options = [b for b, covered in _fitting(board, length, orient)
                       if taken.isdisjoint(covered)]
            if horizontal is None and key_in_line:
                line = [b for b in options if _in_line(board, keyhole, b)]
                options = line or options
            if not options:
                ok = False
                break
            bar = rng.choice(options)
            taken.update(bar_cells(board, bar))
            placed.append((bar, horizontal is None))
        if not ok:
            continue
        key = next(b for b, is_key in placed if is_key)
        bars = [b for b, is_key in placed if not is_key]
        pos = Position.make(board, keyhole, key, bars, axes)
        if unsolved and pos.solved:
            continue
        if pos.problems():
            continue
        if not all(any(attached(board, a, b) for b in pos.pieces) for a in axes):
            continue
        return pos
    return None


def sample_lock(seed: int, *, axes: bool = True) -> Position:
    """A small random legal lock (4x4 to 5x5, up to four bars, often an axis or two) from a
    seed: the test suites' and benchmarks' source of varied positions."""
    from arena.games.lockmaker.pieces import parse_piece_list

    rng = random.Random(seed)
    w, h = rng.randint(4, 5), rng.randint(4, 5)
    board = Board(w, h, frozenset(rng.sample(range(w * h), rng.randint(0, 2))))
    hand = list(parse_piece_list(",".join(
        rng.choice(["H2", "V2", "H3", "V3"]) for _ in range(rng.randint(1, 4)))))
    if axes and rng.random() < 0.7:
        hand.append(PieceKind("X"))
        if rng.random() < 0.3:
            hand.append(PieceKind("X"))
    for _ in range(50):
        pos = random_lock(board, hand, rng, tries=50, unsolved=False)
        if pos is not None:
            return pos
        hand = hand[:-1] if len(hand) > 1 else hand
    pos = random_lock(Board(5, 5), [PieceKind("H2")], rng, unsolved=False)
    assert pos is not None
    return pos
