"""Line sets: every lock of a hand whose bars keep their lines, walked whole at once.

A bar only ever slides along its own row or column and never passes another bar of that line,
so which line each bar lies on, and in what order, never changes while a lock is played: the
whole reachable set of a lock lies inside its *line set* (rows and columns with the lengths
of their bars, in order). A line set of a dense hand is small (fog51's has 4,805 positions,
4,780 of them in fog51's own reachable set), so it can be listed whole, joined line by line
with NumPy, and one breadth-first search from all its solved positions at once gives every
position's distance to the nearest solved one of its own reachable set (moves are
reversible, so each set's distances stay inside it). The farthest position of the line set
is then the hardest lock of every set in it, found with no luck about which set a random
placement happened to land in.

Why it matters: the hardest set of a hand can be a needle among
placements (fog51's single-piece neighbours score 7 to 29, so a climb over placements meets
it about once per 20-140 CPU seconds), while among line sets a local optimum's whole
neighbourhood (one bar to another line or place in its line: about 70 line sets) costs a
fraction of a second, so a climb that scans it finds a needle next to where it stalls. The
climb here: first improvement over shuffled neighbours, a tabu list of the line sets it
stood on, sideways moves to the best neighbour when none is better, and a restart after
:data:`STALL` such moves.

Only hands of bars (no axes: a turn changes a bar's line, LM-6) on boards of at most 63
cells apply (:func:`frame_for`); the generator (:mod:`.generator`) uses the placement climb
for the rest.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from arena.games.lockmaker.board import Board
from arena.games.lockmaker.pieces import Bar, PieceKind
from arena.games.lockmaker.position import Position, key_targets

KEY = -2
"""The key's entry in a line set (a bar of two cells that is not one of the hand's)."""
CAP = 30_000
"""Largest line set walked (positions): hard locks are tight, and a loose line set (few bars
on a big board) would cost more than it could be worth. Larger ones score -1."""
STALL = 3
"""Sideways moves (no neighbour better) before the climb restarts."""
SEEDS = 5
"""Random line sets with a solvable lock drawn per restart (the best one starts the climb)."""
DRAWS = 60
"""Random line sets drawn at most per restart to find those: on fog51's hand 85 % of them
have no lock at all (bars that cannot all cross) or none that opens."""
MAX_CELLS = 63
"""Boards up to this many cells: a position's occupied cells are one int64."""

LineSet = tuple[tuple[int, ...], ...]
"""Per line (the rows top to bottom, then the columns left to right): the lengths of its
bars in order along the line, the key as :data:`KEY`."""
Scored = tuple[int, Position | None]


@dataclass
class Frame:
    """What every line set of one board, keyhole and key target shares."""

    board: Board
    keyhole: int
    target: Bar
    cells: list[list[int]]
    """Per line, its cells in order (left to right, top to bottom)."""
    key_line: int
    key_first: bool
    """The key comes first on its line (a keyhole on the left or top), else last."""
    walls: int
    """Cells no bar may cover: blocked cells and the keyhole."""
    bits: int
    """Bits per bar offset in a position's code."""
    options: dict[tuple[int, tuple[int, ...]], tuple[npt.NDArray[np.int8],
                                                     npt.NDArray[np.int64]]] = field(
        default_factory=dict)
    """Per line and lengths: every placement of those bars on it (offsets, cell masks)."""

    @property
    def rows(self) -> int:
        return self.board.height

    def horizontal(self, line: int) -> bool:
        return line < self.board.height


def frame_for(board: Board, hand: Sequence[PieceKind], keyhole: int,
              target: Bar) -> Frame | None:
    """The frame of a hand and key target, or None when line sets do not apply (axes in the
    hand, a board over :data:`MAX_CELLS` cells, or positions too wide for one int64)."""
    if any(k.is_axis for k in hand) or board.size > MAX_CELLS:
        return None
    w, h = board.width, board.height
    bits = max(w, h).bit_length()
    if bits * (len(hand) + 1) > 62:
        return None
    cells = [[r * w + c for c in range(w)] for r in range(h)]
    cells += [[r * w + c for r in range(h)] for c in range(w)]
    walls = 1 << keyhole
    for c in board.cells():
        if not board.is_open(c):
            walls |= 1 << c
    key_line = board.row(target.cell) if target.horizontal else h + board.col(target.cell)
    key_first = (board.col(keyhole) < board.col(target.cell) if target.horizontal
                 else board.row(keyhole) < board.row(target.cell))
    return Frame(board, keyhole, target, cells, key_line, key_first, walls, bits)


def _placements(frame: Frame, line: int, lengths: tuple[int, ...]
                ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """Every placement of ``lengths`` (in order, apart) on ``line`` clear of the walls."""
    got = frame.options.get((line, lengths))
    if got is not None:
        return got
    cells = frame.cells[line]
    size = len(cells)
    sizes = [abs(n) for n in lengths]
    offsets: list[tuple[int, ...]] = []
    masks: list[int] = []

    def place(i: int, start: int, acc: list[int], mask: int) -> None:
        if i == len(sizes):
            offsets.append(tuple(acc))
            masks.append(mask)
            return
        n = sizes[i]
        for o in range(start, size - n - sum(sizes[i + 1:]) + 1):
            m = 0
            for k in range(o, o + n):
                m |= 1 << cells[k]
            if not m & frame.walls:
                place(i + 1, o + n, [*acc, o], mask | m)

    place(0, 0, [], 0)
    out = (np.array(offsets, dtype=np.int8).reshape(len(offsets), len(sizes)),
           np.array(masks, dtype=np.int64))
    frame.options[(line, lengths)] = out
    return out


def evaluate(frame: Frame, lines: LineSet) -> Scored:
    """(largest optimal move count of any lock in the line set, that lock), or (-1, None)
    when it has no solvable lock, none that needs a move (LM-15), no lock at all, or more
    than :data:`CAP` positions."""
    offs = np.zeros((1, 0), dtype=np.int8)
    masks = np.full(1, frame.walls, dtype=np.int64)  # walls count as taken when sliding
    pieces: list[tuple[int, int]] = []  # (line, length) in column order of ``offs``
    key = -1
    for line, lengths in enumerate(lines):
        if not lengths:
            continue
        lo, lm = _placements(frame, line, lengths)
        hit = (masks[:, None] & lm[None, :]) == 0
        a, b = np.nonzero(hit)
        if len(a) > 4 * CAP or not len(a):
            return -1, None
        masks = masks[a] | lm[b]
        offs = np.concatenate([offs[a], lo[b]], axis=1)
        for n in lengths:
            if n == KEY:
                key = len(pieces)
            pieces.append((line, abs(n)))
    n_pos = len(masks)
    if n_pos > CAP or key < 0:
        return -1, None
    bits = frame.bits
    codes = np.zeros(n_pos, dtype=np.int64)
    for p in range(len(pieces)):
        codes |= offs[:, p].astype(np.int64) << (bits * p)
    order = np.argsort(codes)
    codes, offs, masks = codes[order], offs[order], masks[order]
    goal = (frame.board.col(frame.target.cell) if frame.target.horizontal
            else frame.board.row(frame.target.cell))
    solved = np.flatnonzero(offs[:, key] == goal)
    if not len(solved):
        return -1, None
    src, dst = _slides(frame, pieces, codes, offs, masks)
    dist = _distances(n_pos, src, dst, solved)
    best = int(dist.max())
    if best < 1:
        return -1, None  # every lock of it is open already: none is a lock (LM-15)
    return best, _lock(frame, pieces, key, offs[int(np.argmax(dist == best))])


def _slides(frame: Frame, pieces: list[tuple[int, int]], codes: npt.NDArray[np.int64],
            offs: npt.NDArray[np.int8], masks: npt.NDArray[np.int64]
            ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every move between the positions (sorted by ``codes``): (from, to) index pairs. A slide
    of any length is one move (LM-9), so each one-cell step is followed as far as it goes."""
    src_parts = [np.zeros(0, dtype=np.int64)]
    dst_parts = [np.zeros(0, dtype=np.int64)]
    full = np.int64(-1)  # every bit: off the line's ends counts as taken
    for p, (line, n) in enumerate(pieces):
        cellbits = np.array([1 << c for c in frame.cells[line]], dtype=np.int64)
        ahead = np.append(cellbits, full)  # the cell entered stepping on from offset o: o+n
        behind = np.concatenate([[full], cellbits])  # stepping back: o-1, shifted by one
        o = offs[:, p].astype(np.int64)
        one = np.int64(1) << np.int64(frame.bits * p)
        for entered, delta in ((ahead[o + n], one), (behind[o], -one)):
            ok = np.flatnonzero((masks & entered) == 0)
            step = np.full(len(codes), -1, dtype=np.int64)
            step[ok] = np.searchsorted(codes, codes[ok] + delta)
            s, d = ok, step[ok]
            while len(s):
                src_parts.append(s)
                dst_parts.append(d)
                nxt = step[d]
                more = nxt >= 0
                s, d = s[more], nxt[more]
    return np.concatenate(src_parts), np.concatenate(dst_parts)


def _distances(n_pos: int, src: npt.NDArray[np.int64], dst: npt.NDArray[np.int64],
               solved: npt.NDArray[np.int64]) -> npt.NDArray[np.int32]:
    """Moves from each position to the nearest solved one (-1: none), breadth first from all
    of them at once over the moves grouped by their start; moves can be undone, so each
    reachable set's distances stay inside it."""
    dst = dst[np.argsort(src, kind="stable")]
    starts = np.zeros(n_pos + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n_pos), out=starts[1:])
    dist = np.full(n_pos, -1, dtype=np.int32)
    dist[solved] = 0
    front, depth = solved, 0
    while len(front):
        first, count = starts[front], starts[front + 1] - starts[front]
        ends = np.cumsum(count)
        nb = dst[np.repeat(first - (ends - count), count) + np.arange(int(ends[-1]))]
        nb = nb[dist[nb] < 0]
        depth += 1
        dist[nb] = depth
        front = np.flatnonzero(dist == depth)
    return dist


def _lock(frame: Frame, pieces: list[tuple[int, int]], key: int,
          offs: npt.NDArray[np.int8]) -> Position:
    bars = []
    key_bar = frame.target
    for p, (line, n) in enumerate(pieces):
        bar = Bar(frame.cells[line][int(offs[p])], n, frame.horizontal(line))
        if p == key:
            key_bar = bar
        else:
            bars.append(bar)
    return Position.make(frame.board, frame.keyhole, key_bar, bars)


def lineset_of(frame: Frame, pos: Position) -> LineSet:
    """The line set a lock lies in (its bars by line, in order along each)."""
    lines: list[list[tuple[int, int]]] = [[] for _ in frame.cells]
    board = pos.board
    for bar in pos.pieces:
        line = board.row(bar.cell) if bar.horizontal else frame.rows + board.col(bar.cell)
        lines[line].append((frame.cells[line].index(bar.cell),
                            KEY if bar == pos.key else bar.length))
    return tuple(tuple(n for _, n in sorted(x)) for x in lines)


def _fits(frame: Frame, line: int, lengths: Sequence[int]) -> bool:
    """The bars have at least one placement on the line (its walls counted, not crossings)."""
    return (sum(abs(n) for n in lengths) <= len(frame.cells[line])
            and len(_placements(frame, line, tuple(lengths))[1]) > 0)


def random_lineset(frame: Frame, hand: Sequence[PieceKind], rng: random.Random,
                   tries: int = 50) -> LineSet | None:
    """Each bar on a random line of its direction with room, in a random place along it (on
    the key's line only beyond the key, as seen from the keyhole)."""
    h = frame.rows
    for _ in range(tries):
        lines: list[list[int]] = [[] for _ in frame.cells]
        lines[frame.key_line] = [KEY]
        ok = True
        for kind in sorted(hand, key=lambda k: -k.length):
            choices = [ln for ln in (range(h) if kind.kind == "H" else
                                     range(h, len(frame.cells)))
                       if _fits(frame, ln, [*lines[ln], kind.length])]
            if not choices:
                ok = False
                break
            ln = rng.choice(choices)
            lines[ln].insert(_slot(frame, ln, lines[ln], rng), kind.length)
        if ok:
            return tuple(tuple(x) for x in lines)
    return None


def _slot(frame: Frame, line: int, now: list[int], rng: random.Random) -> int:
    if line != frame.key_line:
        return rng.randrange(len(now) + 1)
    k = now.index(KEY)
    return rng.randrange(k + 1, len(now) + 1) if frame.key_first else rng.randrange(k + 1)


def neighbours(frame: Frame, lines: LineSet) -> list[LineSet]:
    """Every line set one bar away: a bar to another place on its line or to another line of
    its direction (never between the key and the keyhole)."""
    h = frame.rows
    out: set[LineSet] = set()
    for src, seq in enumerate(lines):
        for i, n in enumerate(seq):
            if n == KEY:
                continue
            rest = [list(x) for x in lines]
            del rest[src][i]
            for dst in range(h) if src < h else range(h, len(lines)):
                tgt = rest[dst]
                if not _fits(frame, dst, [*tgt, n]):
                    continue
                slots = range(len(tgt) + 1)
                if dst == frame.key_line:
                    k = tgt.index(KEY)
                    slots = range(k + 1, len(tgt) + 1) if frame.key_first else range(k + 1)
                for at in slots:
                    new = [*tgt[:at], n, *tgt[at:]]
                    cand = tuple(tuple(new) if j == dst else tuple(x) for j, x in enumerate(rest))
                    if cand != lines:
                        out.add(cand)
    return sorted(out)


def climb(frame: Frame, hand: Sequence[PieceKind], rng: random.Random,
          score: Callable[[LineSet], Scored], go_on: Callable[[], bool],
          consider: Callable[[int, Position], None]) -> int:
    """One climb from the best of :data:`SEEDS` random line sets until :data:`STALL`
    sideways moves in a row (or ``go_on`` says stop). ``score`` is :func:`evaluate` behind
    the caller's cache and budget; every scored lock goes to ``consider``. Returns the best
    score seen (-1: no solvable lock met)."""
    top = -1
    cur: LineSet | None = None
    cur_score = -1
    found = 0
    for _ in range(DRAWS):
        start = random_lineset(frame, hand, rng)
        if start is None or not go_on():
            continue
        s, lock = score(start)
        if lock is None:
            continue  # most random line sets have no lock, or none that opens
        consider(s, lock)
        top = max(top, s)
        found += 1
        if s > cur_score:
            cur, cur_score = start, s
        if found == SEEDS:
            break
    if cur is None:
        return top
    tabu = {cur}
    stall = 0
    while stall < STALL and go_on():
        cands = [x for x in neighbours(frame, cur) if x not in tabu]
        rng.shuffle(cands)
        best: tuple[int, LineSet] | None = None
        for cand in cands:
            if not go_on():
                return top
            s, lock = score(cand)
            if lock is not None:
                consider(s, lock)
                top = max(top, s)
            if best is None or s > best[0]:
                best = (s, cand)
            if s > cur_score:
                break  # first improvement
        if best is None:
            return top
        stall = 0 if best[0] > cur_score else stall + 1
        cur_score, cur = best
        tabu.add(cur)
    return top


def frames(board: Board, hand: Sequence[PieceKind], keyholes: Sequence[int]) -> list[Frame]:
    """A frame per keyhole and key target that line sets apply to."""
    out = []
    for hole in keyholes:
        for target in sorted(key_targets(board, hole)):
            fr = frame_for(board, hand, hole, target)
            if fr is not None:
                out.append(fr)
    return out
