"""The hardest-lock generator: random restarts and local moves over placements of a hand.

After Fogleman's Rush Hour generator: every candidate placement is scored by its cluster walk
(the whole reachable set and each member's distance to the nearest solved position), and the
lock we keep is the *farthest* position of that set, so the exact placement we tried matters
only through the set it lies in. The search is simulated annealing over placements: mutate
the current set's hardest lock or one of a few members spread over that set (a set's
neighbourhood is far larger than one position's; nudge or move one bar, move the key along
its line, move an axis), keep the mutation when its set is at least as hard (sometimes when a
little easier), and after a short stall restart from the best of a few fresh random placements
(:data:`STALL`; kicking the best lock so far, :data:`KICK`, is off by default), or from a
library shape that fits the board and hand (:mod:`.library`). The hand is fixed (LM-15), so the
local moves relocate one piece or swap two bars of different sizes; a move that is just one
slide of the current lock (the same set) is not walked again, and every scored placement (and
each set's hardest member) is cached, so no placement is walked twice; a candidate in a set
walked before is recognised from a sample of that set's members (:mod:`.sets`) and not walked
again either. Independent searches on every core: :mod:`.jobs`. Candidates whose
reachable set is larger than :data:`CLUSTER_CAP` are not walked: a dense hand skips them, a
sparse one (few bars on a big board, where every set is loose) is scored by its own optimum.

When the hand has no axes and the board at most 63 cells, restarts climb over *line sets*
instead (:mod:`.linesets`, :data:`LINES_SHARE`): which line each bar lies on and in what order,
each scored by walking every lock in it at once. That finds needles the placement climb only
meets by luck (fog51's 51 moves: every seed within 7 s on 2 jobs, against 1 hit in 8 seeds per
20 CPU s). A line set scored counts as one walk of the budget.

The budget is wall time, a number of cluster walks, or both; walks alone make a run a pure
function of its random generator, which the bot needs for replayable matches.

Every lock produced is legal per LM-15 (it uses exactly the drafted hand, the key and keyhole,
on open cells, axes attached: checked with the game's own :meth:`Position.problems`) and
solvable (its score is its optimal move count). With ``minimal`` a lock only counts when no
bar that its optimal solution never moves could be taken out without changing the count
(Fogleman's minimality, restricted to bars so that the hand stays usable).
"""

from __future__ import annotations

import functools
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from arena.core.errors import RuleError
from arena.games.lockmaker.board import Board
from arena.games.lockmaker.fast.convert import from_position, state_position
from arena.games.lockmaker.fast.library import kept_bars, shapes_for
from arena.games.lockmaker.fast.search import TOO_BIG, cluster_walk, solve
from arena.games.lockmaker.fast.sets import SetRegistry
from arena.games.lockmaker.fast.tables import Compiled
from arena.games.lockmaker.pieces import Bar, PieceKind, bar_cells
from arena.games.lockmaker.position import Position, attached, key_targets

STALL = 40
"""Mutations without improvement before a restart. Short climbs and many fresh restarts
: the hardest set of a hand can be a needle whose neighbours are weak sets (on
fog51's hand the single-piece neighbours of the 51-move set score 7 to 29), which a long
climb stuck on a 28-move optimum never visits, while the early part of fresh climbs passes
through such sets. Measured, one search on fog51's hand, CPU seconds to reach 51 (capped runs
counted as censored): 300 (with KICK 0.6) about 45 s per hit, 40 (KICK 0) about 16 s; on the
default rounds' 30 hands at the bot's 300 walks no weaker (moves summed 198 against 191)."""
CLUSTER_CAP = 5_000
"""Reachable sets larger than this are not walked (the candidate is scored by its own optimum
instead): hard locks are tight (fog51's set has 4,780 positions), and a loose set costs more
than a hundred tight ones. Halving the cap from 10,000 doubled the walk rate on fog51's hand
at equal strength."""
KICK = 0.0
"""Share of restarts that perturb the best lock so far instead of starting afresh (iterated
local search). Kicking the best lock kept the search near an optimum it had already stalled
on; fresh restarts found more (see :data:`STALL`), so none by default."""
SEEDS = 8
"""Random placements tried per restart (the best one seeds the climb)."""
TEMPERATURE = 1.5
"""Starting annealing temperature, in moves."""
LINES_SHARE = 1.0
"""Share of restarts that climb over line sets (:mod:`.linesets`) instead of placements, when
the hand has no axes and the board is small enough. Measured on fog51's hand, search alone,
CPU seconds to the 51-move lock: about 8 (median of 10 seeds) over line sets against tens to
hundreds over placements (bench/README.md)."""
BARREN = 3
"""Line climbs in a row without a solvable lock after which only placements are climbed (every
line set too loose to walk, :data:`.linesets.CAP`: the placement climb scores those)."""
LIBRARY_SHARE = 0.2
"""Share of restarts that begin from a library shape (:mod:`.library`) when one fits the board
and the hand; the first restart begins from the best of all that fit."""


@dataclass(frozen=True)
class Generated:
    """The best lock found: its optimal move count, the lock, and candidates scored."""

    moves: int
    lock: Position
    searched: int
    trajectory: tuple[tuple[float, int], ...] = ()
    """(seconds since the start, best moves) each time the best lock improved."""
    cpu_trajectory: tuple[tuple[float, int], ...] = ()
    """The same with the search's own CPU seconds (this process's, so that a busy machine's
    waits are not counted: the bench reports both)."""
    work: int = 0
    """States visited, as the work budget counts them (:class:`_Budget`)."""


def keyhole_cells(board: Board) -> list[int]:
    """LM-2: open cells on a non-label edge that have a target placement for the key."""
    return [c for c in board.open_cells() if board.keyhole_sides(c) and key_targets(board, c)]


def _fits(board: Board, taken: set[int], bar: Bar) -> bool:
    c, r = board.col(bar.cell), board.row(bar.cell)
    end_c = c + (bar.length - 1 if bar.horizontal else 0)
    end_r = r + (0 if bar.horizontal else bar.length - 1)
    if not (board.inside(c, r) and board.inside(end_c, end_r)):
        return False
    return all(board.is_open(x) and x not in taken for x in bar_cells(board, bar))


@functools.lru_cache(maxsize=64)
def _placements(board: Board, length: int, horizontal: bool) -> tuple[tuple[Bar, int], ...]:
    """Every placement of a bar on the empty board with its cell mask, in the order of its
    anchor cell: mutations look spots up thousands of times per second, and testing each
    cell of each spot again was a tenth of the search's time."""
    out = []
    for cell in board.open_cells():
        b = Bar(cell, length, horizontal)
        if _fits(board, set(), b):
            out.append((b, _mask(board, b)))
    return tuple(out)


def _spots(board: Board, taken: int, length: int, horizontal: bool) -> list[Bar]:
    """Placements of a bar clear of the ``taken`` cells (a bit mask)."""
    return [b for b, m in _placements(board, length, horizontal) if not m & taken]


def _key_spots(board: Board, taken: set[int], keyhole: int) -> list[Bar]:
    """Key placements in line with the keyhole (a key elsewhere needs an axis to turn it)."""
    out = []
    for t in key_targets(board, keyhole):
        step = 1 if t.horizontal else board.width
        line = [x for x in board.cells()
                if (board.row(x) == board.row(t.cell) if t.horizontal
                    else board.col(x) == board.col(t.cell))]
        for cell in line:
            b = Bar(cell, 2, t.horizontal)
            if b != t and _fits(board, taken, b) and (cell - t.cell) % step == 0:
                out.append(b)
    return out


def random_placement(board: Board, hand: Sequence[PieceKind], rng: random.Random,
                     keyhole: int | None = None, tries: int = 100) -> Position | None:
    """A random legal lock for ``hand`` (LM-15), key in line with the keyhole."""
    bars_kinds = [k for k in hand if not k.is_axis]
    n_axes = len(hand) - len(bars_kinds)
    holes = [keyhole] if keyhole is not None else keyhole_cells(board)
    if not holes:
        return None
    for _ in range(tries):
        hole = rng.choice(holes)
        taken = {hole}
        keys = _key_spots(board, taken, hole)
        if not keys:
            return None
        key = rng.choice(keys)
        taken |= set(bar_cells(board, key))
        todo = [(k.length, k.kind == "H") for k in bars_kinds]
        rng.shuffle(todo)
        bars: list[Bar] = []
        axes: list[int] = []
        ok = True
        for _a in range(n_axes):
            # an axis with a freshly placed bar (or the key) attached to it (LM-8)
            placed = False
            for _t in range(60):
                axis = rng.choice(board.open_cells())
                if axis in taken:
                    continue
                if attached(board, axis, key):
                    axes.append(axis)
                    taken.add(axis)
                    placed = True
                    break
                if not todo:
                    continue
                length, horiz = todo[-1]
                cands = [b for b in _spots(board, _mask_of(taken) | 1 << axis, length, horiz)
                         if attached(board, axis, b)]
                if cands:
                    b = rng.choice(cands)
                    todo.pop()
                    bars.append(b)
                    axes.append(axis)
                    taken |= set(bar_cells(board, b)) | {axis}
                    placed = True
                    break
            if not placed:
                ok = False
                break
        if not ok:
            continue
        for length, horiz in todo:
            spots = _spots(board, _mask_of(taken), length, horiz)
            if not spots:
                ok = False
                break
            b = rng.choice(spots)
            bars.append(b)
            taken |= set(bar_cells(board, b))
        if not ok:
            continue
        pos = Position.make(board, hole, key, bars, axes)
        if not pos.problems():
            return pos
    return None


def from_shape(shape: Position, hand: Sequence[PieceKind], rng: random.Random,
               tries: int = 20) -> Position | None:
    """A lock for ``hand`` started from a library shape (:mod:`.library`, same board and
    keyhole): the shape's key and the bars of it the hand has stay where they are, the hand's
    other bars go to random free spots and its axes to random free cells beside a piece
    (LM-8); None when no such lock is legal (LM-15) within ``tries``."""
    board = shape.board
    order = list(range(len(shape.bars)))
    rng.shuffle(order)
    kept, rest = kept_bars(shape, hand, order)
    n_axes = sum(1 for k in hand if k.is_axis)
    base = 1 << shape.keyhole | _mask(board, shape.key)
    for b in kept:
        base |= _mask(board, b)
    for _ in range(tries):
        bars = list(kept)
        taken = base
        ok = True
        for k in rest:
            spots = _spots(board, taken, k.length, k.kind == "H")
            if not spots:
                ok = False
                break
            b = rng.choice(spots)
            bars.append(b)
            taken |= _mask(board, b)
        axes: list[int] = []
        for _a in range(n_axes if ok else 0):
            cands = [c for c in board.open_cells() if not (taken >> c) & 1
                     and any(attached(board, c, p) for p in (shape.key, *bars))]
            if not cands:
                ok = False
                break
            axes.append(rng.choice(cands))
            taken |= 1 << axes[-1]
        if not ok:
            continue
        pos = Position.make(board, shape.keyhole, shape.key, bars, axes)
        if not pos.problems():
            return pos
    return None


def mutate(pos: Position, rng: random.Random) -> Position | None:
    """One local move between placements: a bar elsewhere, the key along its line, or an axis
    to another cell; None when the result is not a legal lock."""
    board = pos.board
    roll = rng.random()
    bars = list(pos.bars)
    key = pos.key
    axes = list(pos.axes)
    if roll < 0.75 and bars:
        i = rng.randrange(len(bars))
        old = bars.pop(i)
        taken = (pos.occupied & ~_mask(board, old))
        spots = [b for b in _spots(board, taken, old.length, old.horizontal) if b != old]
        if roll < 0.4:  # a nudge: one cell across its line or along it
            oc, orow = board.col(old.cell), board.row(old.cell)
            spots = [b for b in spots
                     if abs(board.col(b.cell) - oc) + abs(board.row(b.cell) - orow) <= 2]
        if not spots:
            return None
        bars.append(rng.choice(spots))
    elif roll < 0.88 or not axes:
        taken = pos.occupied & ~_mask(board, key)
        spots = [b for b in _key_spots(board, _cells(taken), pos.keyhole) if b != key]
        if not spots:
            return None
        key = rng.choice(spots)
    else:
        i = rng.randrange(len(axes))
        free = [c for c in board.open_cells() if not (pos.occupied >> c) & 1]
        if not free:
            return None
        axes[i] = rng.choice(free)
    new = Position.make(board, pos.keyhole, key, bars, axes)
    return None if new.problems() else new


SWAP = 0.25
MEMBER_SHARE = 0.5
"""Share of the climb's local moves made from a sample member instead of the hardest one."""
"""Share of the climb's local moves that swap two bars of different sizes (the hand is fixed,
so swapping is how a placement changes which piece blocks where)."""


def swap(pos: Position, rng: random.Random) -> Position | None:
    """Two bars of different kinds trade anchor cells (each keeps its own orientation, LM-4);
    None when either no longer fits or an axis is left alone (LM-8)."""
    board = pos.board
    bars = list(pos.bars)
    if len(bars) < 2:
        return None
    i, j = rng.sample(range(len(bars)), 2)
    a, b = bars[i], bars[j]
    if (a.length, a.horizontal) == (b.length, b.horizontal):
        return None
    rest = [x for k, x in enumerate(bars) if k not in (i, j)]
    taken = pos.occupied & ~_mask(board, a) & ~_mask(board, b)
    new_a, new_b = Bar(b.cell, a.length, a.horizontal), Bar(a.cell, b.length, b.horizontal)
    cells = _cells(taken)
    if not _fits(board, cells, new_a):
        return None
    cells |= set(bar_cells(board, new_a))
    if not _fits(board, cells, new_b):
        return None
    new = Position.make(board, pos.keyhole, pos.key, [*rest, new_a, new_b], pos.axes)
    return None if new.problems() else new


def one_slide(before: Position, after: Position) -> bool:
    """True when ``after`` is one slide (LM-5) of one piece away from ``before``: the same
    reachable set, so walking it again would only repeat the walk of ``before``."""
    if before.axes != after.axes:
        return False
    old = set(before.pieces) - set(after.pieces)
    new = set(after.pieces) - set(before.pieces)
    if len(old) != 1 or len(new) != 1:
        return False
    a, b = old.pop(), new.pop()
    board = before.board
    if a.horizontal != b.horizontal or a.length != b.length:
        return False
    if a.horizontal and board.row(a.cell) != board.row(b.cell):
        return False
    if not a.horizontal and board.col(a.cell) != board.col(b.cell):
        return False
    step = 1 if a.horizontal else board.width
    lo, hi = min(a.cell, b.cell), max(a.cell, b.cell)
    swept = Bar(lo, (hi - lo) // step + a.length, a.horizontal)
    others = before.occupied & ~_mask(board, a)
    return not others & _mask(board, swept)


def _mask(board: Board, bar: Bar) -> int:
    m = 0
    for c in bar_cells(board, bar):
        m |= 1 << c
    return m


def _mask_of(cells: set[int]) -> int:
    m = 0
    for c in cells:
        m |= 1 << c
    return m


def _cells(mask: int) -> set[int]:
    out = set()
    i = 0
    while mask:
        if mask & 1:
            out.add(i)
        mask >>= 1
        i += 1
    return out


Members = dict[Position, tuple[Position, ...]]
"""Sample members of each scored set, by the set's hardest position."""

SCORE_CACHE = 50_000
"""Scored placements remembered per :func:`generate` call (most local moves revisit one);
cleared when full, so a long run's memory stays bounded (tens of MB)."""


def score(pos: Position, cache: dict[Position, tuple[int, Position]] | None = None,
          members: Members | None = None,
          walked: SetRegistry[tuple[int, Position]] | None = None,
          work: list[int] | None = None) -> tuple[int, Position]:
    """Cluster walk of a candidate: (largest optimal move count in its set, that position).

    With ``cache``, a placement already scored (the climb proposes the same one again and
    again: two thirds of its candidates, measured on fog51's hand) costs a dictionary look-up,
    and every scored cluster's hardest member is remembered too, since restarts and kicks
    come back to it. With ``members``, each solvable set's sample members are recorded there
    (and cached: they lie in the same set). With ``work``, the states the scoring visited
    are added to ``work[0]`` (:data:`PROPOSAL_WORK` at least: the generator's work budget)."""
    if cache is not None:
        got = cache.get(pos)
        if got is not None:
            return got
        if len(cache) > SCORE_CACHE:
            cache.clear()
        out = _score(pos, members, walked, work)
        cache[pos] = out
        if out[0] >= 0:
            cache.setdefault(out[1], out)
            for m in (members or {}).get(out[1], ()):
                cache.setdefault(m, out)
        return out
    return _score(pos, members, walked, work)


REMEMBER_SETS = True
"""Recognise candidates in sets walked before (:mod:`.sets`) instead of walking them again."""
MEMBERS = 8
"""Members of each solvable set kept as places to mutate from (besides its hardest one)."""

def _score(pos: Position, members: Members | None = None,
           walked: SetRegistry[tuple[int, Position]] | None = None,
           work: list[int] | None = None) -> tuple[int, Position]:
    c = Compiled(from_position(pos))
    if not c.goal_indices:
        return -1, pos  # proved impossible without a walk (no reachable target, line order)
    if walked is not None:
        known = walked.lookup(c)
        if known is not None:
            return known
    res = cluster_walk(c, buildable=True, cap=CLUSTER_CAP,
                       sample=MEMBERS if members is not None else 0,
                       members=walked is not None)
    if work is not None:
        work[0] += CLUSTER_CAP if res.moves == TOO_BIG.moves else res.states
    if res.moves == TOO_BIG.moves:
        if pos.occupied.bit_count() * 2 > len(pos.board.open_cells()):
            if walked is not None:  # near candidates often fall in the same loose set
                walked.add(c, res.members, (-1, pos))
            return -1, pos  # a dense hand has tight sets to find: skip this one cheaply
        # A loose set (few pieces on a big board): too costly to walk whole, so the candidate
        # is scored by its own optimum instead (the climb still improves it, only slower).
        own = solve(c, max_states=CLUSTER_CAP)
        if work is not None:
            work[0] += own.states
        return (-1, pos) if own.moves is None else (own.moves, pos)
    if res.moves < 0:
        return -1, pos
    hard = state_position(c, pos, res.hardest)
    if members is not None:
        if len(members) > SCORE_CACHE:
            members.clear()
        members[hard] = tuple(state_position(c, pos, s) for s in res.sample)
    if walked is not None:
        walked.add(c, res.members, (res.moves, hard))
    return res.moves, hard


def is_minimal(pos: Position) -> bool:
    """Fogleman's minimality: every bar the optimal solution leaves in place is needed (taking
    it out changes the optimal move count)."""
    c = Compiled(from_position(pos))
    res = solve(c)
    if res.moves is None:
        return False
    moved: set[int] = set()
    for s0, s1 in zip(res.path, res.path[1:], strict=False):
        for pt in c.pieces:
            if (s0 >> pt.shift) & pt.mask != (s1 >> pt.shift) & pt.mask:
                moved.add(pt.original)
    for i, b in enumerate(pos.bars, 1):  # piece i of the fast lock is bar i-1
        if i in moved:
            continue
        rest = list(pos.bars)
        rest.remove(b)
        smaller = Position.make(pos.board, pos.keyhole, pos.key, rest, pos.axes)
        if smaller.problems():
            continue  # needed to keep an axis attached (LM-8)
        if solve(Compiled(from_position(smaller))).moves == res.moves:
            return False
    return True


PROPOSAL_WORK = 200
"""Work (in states) charged for every candidate the search proposes, on top of the states its
scoring visits: compiling a candidate's tables costs about as much as walking this many
states, and a candidate the cache or the set registry answers still costs a little, so a
work budget always ends."""
LINES_WORK = 800
"""Work (in states) charged for scoring one line set (:mod:`.linesets`: NumPy over every lock
of the set at once), about the CPU time of walking that many states one lock at a time."""


class _Budget:
    """Wall time, scored placements and/or work. A placement or work budget alone makes a run
    a pure function of its random generator (the bot's matches replay exactly); time is
    checked only when ``seconds`` is given. Work counts the states the search visited
    (:func:`score`'s ``work``): unlike walks, whose cost ranges over a hundredfold (a tight
    set of a few dozen states against a loose one abandoned at :data:`CLUSTER_CAP`), it tracks
    the CPU time a search takes."""

    def __init__(self, seconds: float | None, placements: int | None,
                 work: int | None = None) -> None:
        if seconds is None and placements is None and work is None:
            raise ValueError("give the generator seconds, placements or work")
        self.t0 = time.monotonic()
        self.seconds = seconds
        self.placements = placements
        self.work = work
        self.walks = 0
        self.proposals = 0
        self.spent = [0]

    def elapsed(self) -> float:
        return time.monotonic() - self.t0

    def propose(self) -> None:
        """One more candidate proposed (scored, recognised or refused)."""
        self.proposals += 1
        self.spent[0] += PROPOSAL_WORK

    def left(self, slack: float = 1.0) -> bool:
        """Budget left (``slack`` times the budget, for a first lock that is still missing)."""
        if self.placements is not None and (self.walks >= slack * self.placements
                                            or self.proposals >= 20 * slack * self.placements):
            return False
        if self.work is not None and self.spent[0] >= slack * self.work:
            return False
        return self.seconds is None or self.elapsed() < slack * self.seconds


def generate(board: Board, hand: Sequence[PieceKind], *, seconds: float | None = 10.0,
             rng: random.Random | None = None, keyhole: int | None = None,
             minimal: bool = False, progress: Callable[[float, int, int], None] | None = None,
             placements: int | None = None, library: bool = True,
             work: int | None = None) -> Generated:
    """The hardest lock found for ``hand`` on ``board`` within ``seconds``, ``placements``
    cluster walks and/or ``work`` states visited (:class:`_Budget`; LM-15 legal, solvable;
    placements already scored come from a cache and are not counted as walks). Raises RuleError when the hand cannot be placed at all.
    With ``library`` the first restart (and :data:`LIBRARY_SHARE` of the others) starts from
    a library shape that fits (:mod:`.library`); without one, or with ``library=False``,
    nothing changes (not even the random draws)."""
    rng = rng or random.Random()
    budget = _Budget(seconds, placements, work)
    cpu0 = time.process_time()
    shapes = shapes_for(board, hand, keyhole) if library else []
    cache: dict[Position, tuple[int, Position]] = {}
    sets: Members = {}
    walked: SetRegistry[tuple[int, Position]] = SetRegistry()
    best: tuple[int, Position] | None = None
    failures = 0

    trajectory: list[tuple[float, int]] = []
    cpu_trajectory: list[tuple[float, int]] = []
    restarts = 0

    def consider(s: int, lock: Position) -> None:
        nonlocal best
        if s >= 0 and (best is None or s > best[0]) and (not minimal or is_minimal(lock)):
            best = (s, lock)
            trajectory.append((budget.elapsed(), s))
            cpu_trajectory.append((time.process_time() - cpu0, s))

    def scored(p: Position) -> tuple[int, Position]:
        budget.propose()
        before, hits = len(cache), walked.hits
        out = score(p, cache, sets, walked if REMEMBER_SETS else None, budget.spent)
        if len(cache) != before and walked.hits == hits:
            budget.walks += 1  # recognised sets cost no walk
        return out

    from arena.games.lockmaker.fast import linesets  # NumPy: only once a search runs

    holes = [keyhole] if keyhole is not None else keyhole_cells(board)
    frames = linesets.frames(board, hand, holes) if LINES_SHARE > 0 else []
    lines_cache: dict[tuple[int, linesets.LineSet], linesets.Scored] = {}
    barren = 0  # line climbs in a row that met no solvable lock (a loose hand: placements)

    def lines_scored(frame_no: int, lines: linesets.LineSet) -> linesets.Scored:
        budget.propose()
        got = lines_cache.get((frame_no, lines))
        if got is None:
            if len(lines_cache) > SCORE_CACHE:
                lines_cache.clear()
            budget.walks += 1
            budget.spent[0] += LINES_WORK
            got = lines_cache[(frame_no, lines)] = linesets.evaluate(frames[frame_no], lines)
        if progress is not None:
            progress(budget.elapsed(), best[0] if best else -1, budget.walks)
        return got

    while budget.left() or best is None:
        if best is None and not budget.left(slack=2.0):
            raise RuleError("LM-15", "found no solvable lock for these pieces in time")
        if (frames and barren < BARREN and not (shapes and restarts == 0)
                and rng.random() < LINES_SHARE):
            # a climb over line sets: every lock whose bars keep the same lines at once
            restarts += 1
            fno = rng.randrange(len(frames))
            top = linesets.climb(frames[fno], hand, rng, functools.partial(lines_scored, fno),
                                 budget.left, consider)
            barren = barren + 1 if top < 0 else 0
            continue
        seed: tuple[int, Position] | None = None
        starts: list[Position | None] = []
        if shapes and restarts == 0:
            starts = [from_shape(shape, hand, rng) for shape in shapes]
        elif shapes and rng.random() < LIBRARY_SHARE:
            starts = [from_shape(rng.choice(shapes), hand, rng)]
        restarts += 1
        for start_shape in starts:
            # a strong shape someone found before, adapted to this hand (see .library); the
            # first restart tries every shape that fits
            if start_shape is not None:
                got = scored(start_shape)
                consider(*got)
                if seed is None or got[0] > seed[0]:
                    seed = got
        if seed is None and best is not None and rng.random() < KICK:
            # iterated local search: kick the best lock found so far with a few mutations
            kicked: Position | None = best[1]
            for _ in range(3):
                nxt = mutate(kicked, rng) if kicked is not None else None
                kicked = nxt or kicked
            if kicked is not None:
                sc, hard = scored(kicked)
                consider(sc, hard)
                seed = (sc, hard)
        elif seed is None:
            # the best of a few random placements (most dense ones are unsolvable)
            for _ in range(SEEDS):
                if best is not None and not budget.left():
                    break  # a walk budget is a bound, not a target (the bot's, G-7)
                start = random_placement(board, hand, rng, keyhole)
                if start is None:
                    budget.propose()
                    failures += 1
                    if best is None and failures > 50:
                        raise RuleError("LM-15",
                                        "no legal placement of these pieces on this board")
                    continue
                sc, hard = scored(start)
                consider(sc, hard)
                if seed is None or sc > seed[0]:
                    seed = (sc, hard)
        if seed is None or seed[0] < 0:
            continue
        cur_score, cur = seed
        stall = 0
        temp = TEMPERATURE
        while stall < STALL and budget.left():
            # mutate the hardest member or another member of the current set: the set's
            # neighbourhood is far larger than one position's (a climb stalls less)
            others = sets.get(cur, ())
            base = rng.choice(others) if others and rng.random() < MEMBER_SHARE else cur
            cand = swap(base, rng) if rng.random() < SWAP else mutate(base, rng)
            if cand is not None and one_slide(base, cand):
                cand = None  # the same set as the current lock: nothing new to learn
            if cand is None:
                stall += 1
                budget.propose()
                continue
            sc, hard = scored(cand)
            # simulated annealing: always take equal or better, sometimes a little worse
            if sc >= 0 and (sc >= cur_score or rng.random() < math.exp((sc - cur_score) / temp)):
                stall = 0 if sc > cur_score else stall + 1
                cur_score, cur = sc, hard
                consider(sc, hard)
            else:
                stall += 1
            temp = max(0.2, temp * 0.995)
            if progress is not None:
                progress(budget.elapsed(), best[0] if best else -1, budget.walks)
    assert best is not None
    return Generated(best[0], best[1], budget.walks, tuple(trajectory), tuple(cpu_trajectory),
                     budget.spent[0])


def build_hard_lock(board: Board, pieces: Sequence[PieceKind], seconds: float | None,
                    rng: random.Random, *, placements: int | None = None) -> Position:
    """For the bot: the hardest legal, solvable lock found within ``seconds`` and/or
    ``placements`` cluster walks (placements alone: deterministic for a given ``rng``)."""
    return generate(board, pieces, seconds=seconds, rng=rng, placements=placements).lock


def terminal_progress(total: float) -> Callable[[float, int, int], None]:
    """A one-line progress bar on stderr (only when stderr is a terminal)."""
    last = [0.0]

    def show(elapsed: float, best: int, searched: int) -> None:
        if not sys.stderr.isatty() or elapsed - last[0] < 0.2:
            return
        last[0] = elapsed
        frac = min(1.0, elapsed / total) if total > 0 else 1.0
        bar = "#" * int(frac * 30)
        sys.stderr.write(f"\r[{bar:<30}] {elapsed:5.1f}s best {best} moves, "
                         f"{searched} searched")
        sys.stderr.flush()

    return show
