"""NumPy frontier expansion: a whole BFS level as a few dozen array operations.

Applies when the packed state fits in 63 bits; :func:`supported` says so, and callers fall
back to the pure-Python search otherwise (same tables, same answers). Pieces that can touch
an axis ("free" pieces) are expanded by :class:`_FreeMoves` with per-placement step, target
and attachment arrays (LM-5..LM-8); a level is expanded in chunks so that the neighbour
arrays of a wide level stay well inside memory.

Layout: occupancy is a handful of uint64 words in which every row and every column of the
board is a contiguous bit run (rows and columns are assigned to words greedily). Each piece's
placement has its word pattern; occupancy groups (consecutive bit fields of the packed state)
get dense tables built with array arithmetic. For every line, (its pieces' fields, its
occupancy) is a key; the line's moves for a key are computed once by the pure-Python table of
:class:`~arena.games.lockmaker.fast.tables.Compiled` and cached in a dense slot array (or a
sorted key index when the key space is wide), giving a padded matrix of state deltas.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from arena.games.lockmaker.fast.expand import Bounded
from arena.games.lockmaker.fast.pattern import PatternBound
from arena.games.lockmaker.fast.tables import KEY_UNREACHABLE, Compiled

I64 = npt.NDArray[np.int64]
DENSE_KEY_BITS = 20
GROUP_BITS = 12


CHUNK = 1 << 16
"""States expanded at once: about 40 neighbours each, so a chunk's arrays stay near 25 MB."""


def supported(c: Compiled) -> bool:
    """The vector path handles any lock whose packed states fit in 63 bits."""
    return c.total_bits <= 63


class _LineIndex:
    """Maps a line key to a row of its delta matrix, computing unseen keys on demand."""

    def __init__(self, c: Compiled, k: int) -> None:
        _fs, fm, lb, _os, _om, tab = c.line_tables[k]
        self.tab = tab
        self.bits = (fm.bit_length()) + lb
        self.dense = self.bits <= DENSE_KEY_BITS
        self.slot = np.full(1 << self.bits, -1, dtype=np.int64) if self.dense else None
        self.keys = np.zeros(0, dtype=np.int64)  # sparse: sorted known keys
        self.rows_of_keys = np.zeros(0, dtype=np.int64)
        self.deltas = np.zeros((0, 1), dtype=np.int64)
        self.counts = np.zeros(0, dtype=np.int64)

    def _add(self, new_keys: I64) -> I64:
        base = len(self.counts)
        lists = [self.tab[int(key)] for key in new_keys]
        width = max(self.deltas.shape[1], max((len(x) for x in lists), default=0), 1)
        mat = np.zeros((len(lists), width), dtype=np.int64)
        for i, lst in enumerate(lists):
            if lst:
                mat[i, : len(lst)] = np.array(lst, dtype=np.int64)
        if width > self.deltas.shape[1]:
            grown = np.zeros((self.deltas.shape[0], width), dtype=np.int64)
            grown[:, : self.deltas.shape[1]] = self.deltas
            self.deltas = grown
        self.deltas = np.concatenate([self.deltas, mat])
        self.counts = np.concatenate(
            [self.counts, np.array([len(x) for x in lists], dtype=np.int64)])
        return np.arange(base, base + len(lists), dtype=np.int64)

    def rows(self, keys: I64) -> I64:
        if self.slot is not None:
            rows = self.slot[keys]
            miss = rows < 0
            if miss.any():
                new = sorted_unique(keys[miss])
                self.slot[new] = self._add(new)
                rows = self.slot[keys]
            return rows
        pos = np.searchsorted(self.keys, keys)
        pos_c = np.minimum(pos, max(len(self.keys) - 1, 0))
        hit = (self.keys[pos_c] == keys) if len(self.keys) else np.zeros(len(keys), dtype=bool)
        if not hit.all():
            new = sorted_unique(keys[~hit])
            new_rows = self._add(new)
            merged = np.concatenate([self.keys, new])
            order = np.argsort(merged, kind="stable")
            self.keys = merged[order]
            self.rows_of_keys = np.concatenate([self.rows_of_keys, new_rows])[order]
            pos = np.searchsorted(self.keys, keys)
        return self.rows_of_keys[pos]


class VectorExpander:
    """Expands whole arrays of packed states (int64) into their neighbours (LM-5, LM-9)."""

    def __init__(self, c: Compiled) -> None:
        if not supported(c):
            raise ValueError("vector path needs <= 63-bit states")
        self.c = c
        w, h = c.width, c.height
        # assign every row and column to a (word, shift)
        lines = [(True, r, w) for r in range(h)] + [(False, col, h) for col in range(w)]
        place: dict[tuple[bool, int], tuple[int, int]] = {}
        word, used = 0, 0
        for horiz, num, length in lines:
            if used + length > 64:
                word, used = word + 1, 0
            place[(horiz, num)] = (word, used)
            used += length
        self.nwords = word + 1

        def pattern(cells: tuple[int, ...] | frozenset[int]) -> list[int]:
            out = [0] * self.nwords
            for cell in cells:
                r, col = divmod(cell, w)
                wi, sh = place[(True, r)]
                out[wi] |= 1 << (sh + col)
                wi, sh = place[(False, col)]
                out[wi] |= 1 << (sh + r)
            return out

        fixed = c.geo.fixed
        self.base = np.array(pattern(fixed), dtype=np.uint64)
        self.free = _FreeMoves(c, self.nwords, {r: place[(True, r)] for r in range(h)})
        # occupancy groups with dense tables
        self.groups: list[tuple[int, int, npt.NDArray[np.uint64]]] = []
        run: list[int] = []
        for k in [*range(len(c.pieces)), -1]:
            if k >= 0 and sum(c.pieces[j].bits for j in run) + c.pieces[k].bits <= GROUP_BITS:
                run.append(k)
                continue
            if run:
                shift0 = c.pieces[run[0]].shift
                bits = sum(c.pieces[j].bits for j in run)
                v = np.arange(1 << bits, dtype=np.int64)
                table = np.zeros((1 << bits, self.nwords), dtype=np.uint64)
                for j in run:
                    pt = c.pieces[j]
                    pats = np.zeros((1 << pt.bits, self.nwords), dtype=np.uint64)
                    for i, p in enumerate(pt.placements):
                        pats[i] = np.array(pattern(p), dtype=np.uint64)
                    table |= pats[(v >> (pt.shift - shift0)) & pt.mask]
                self.groups.append((shift0, (1 << bits) - 1, table))
            run = [k] if k >= 0 else []
        self.group_cols = [[np.ascontiguousarray(t[:, wi]) for wi in range(self.nwords)]
                           for _sh, _m, t in self.groups]
        # lines of pieces
        self.lines: list[tuple[int, int, int, int, int, int, _LineIndex]] = []
        for k, (fs, fm, lb, _os, om, _tab) in enumerate(c.line_tables):
            line = c.lines[k]
            wi, sh = place[(line.horizontal, line.number)]
            self.lines.append((fs, fm, lb, wi, sh, om, _LineIndex(c, k)))

    def words(self, states: I64) -> list[npt.NDArray[np.uint64]]:
        """Occupancy of every state, one uint64 array per word."""
        out: list[npt.NDArray[np.uint64]] = []
        idx = [(states >> sh) & m for sh, m, _t in self.groups]
        for wi in range(self.nwords):
            acc = self.group_cols[0][wi][idx[0]] | self.base[wi]
            for g in range(1, len(self.groups)):
                acc |= self.group_cols[g][wi][idx[g]]
            out.append(acc)
        return out

    def expand(self, states: I64) -> I64:
        """All neighbours of all states (with repeats), as one int64 array."""
        if len(states) == 0:
            return states
        words = self.words(states)
        parts: list[I64] = []
        for fs, fm, lb, wi, sh, om, index in self.lines:
            occ = ((words[wi] >> np.uint64(sh)) & np.uint64(om)).astype(np.int64)
            keys = (((states >> fs) & fm) << lb) | occ
            rows = index.rows(keys)
            cnt = index.counts[rows]
            kmax = int(cnt.max())
            if kmax == 0:
                continue
            nb = index.deltas[rows, :kmax]
            nb += states[:, None]
            parts.append(nb[np.arange(kmax) < cnt[:, None]])
        if self.free.pieces:
            parts.extend(self.free.expand(states, words))
        if not parts:
            return np.zeros(0, dtype=np.int64)
        return np.concatenate(parts)


def sorted_unique(a: I64, *, own: bool = False) -> I64:
    """Sort-based unique (NumPy 2's hash-based ``np.unique`` is several times slower on
    millions of int64 states). ``own``: ``a`` is a temporary of the caller's, sorted in place
    rather than copied (one level-sized array less at the peak)."""
    if len(a) == 0:
        return a
    if own:
        a.sort()
    else:
        a = np.sort(a)
    keep = np.empty(len(a), dtype=bool)
    keep[0] = True
    np.not_equal(a[1:], a[:-1], out=keep[1:])
    return a[keep]


def minus(a: I64, b: I64) -> I64:
    """Elements of sorted unique ``a`` not in sorted ``b``."""
    if len(b) == 0 or len(a) == 0:
        return a
    pos = np.searchsorted(b, a)
    pos = np.minimum(pos, len(b) - 1)
    out: I64 = a[b[pos] != a]
    return out


def next_level(ex: VectorExpander, cur: I64, prev: I64, frontier: I64 | None = None,
               admit: Callable[[I64, I64, I64], I64] | None = None) -> I64:
    """Level d+1 of an undirected BFS from levels d (``cur``) and d-1 (``prev``), sorted;
    ``frontier`` (default ``cur``: the part of it a bounded search expands) is expanded a
    chunk at a time. Each chunk's neighbours are sorted and deduplicated, pass through
    ``admit`` (given them, ``cur`` and ``prev``; it returns the ones to keep), and only
    then are the two levels subtracted: on a deep bounded search most neighbours are over
    budget, and the differences against levels of millions cost most."""
    todo = cur if frontier is None else frontier
    merged = cur[:0]
    pending: list[I64] = []
    waiting = 0
    for i in range(0, len(todo), CHUNK):
        cand = sorted_unique(ex.expand(todo[i:i + CHUNK]), own=True)
        if admit is not None:
            cand = admit(cand, cur, prev)
        cand = minus(minus(cand, cur), prev)
        pending.append(cand)
        waiting += len(cand)
        # Chunks of one level share most of their new states: folding the pending ones in
        # once they outgrow what is merged keeps the repeats (and the peak) near one level's
        # size instead of one copy per chunk, at a logarithmic number of
        # merges per state.
        if waiting >= max(len(merged), CHUNK):
            merged = _fold(merged, pending)
            pending, waiting = [], 0
    return _fold(merged, pending) if pending else merged


def reachable_levels(ex: VectorExpander, start: int, cap: int | None = None
                     ) -> list[I64] | None:
    """Every position reachable from ``start``, level by level (each a sorted array); None
    as soon as more than ``cap`` are found. The cluster walk and the pattern tables both
    begin with it."""
    cur = np.array([start], dtype=np.int64)
    prev = cur[:0]
    levels = [cur]
    count = 1
    while len(cur):
        nxt = next_level(ex, cur, prev)
        if not len(nxt):
            break
        count += len(nxt)
        if cap is not None and count > cap:
            return None
        levels.append(nxt)
        prev, cur = cur, nxt
    return levels


def levels_from(ex: VectorExpander, first: I64) -> Iterator[I64]:
    """The levels outward from the positions ``first`` (itself not given): level d holds
    those d moves from the nearest of them, since moves can be undone."""
    cur = first
    prev = cur[:0]
    while True:
        nxt = next_level(ex, cur, prev)
        if not len(nxt):
            return
        yield nxt
        prev, cur = cur, nxt


def _fold(merged: I64, parts: list[I64]) -> I64:
    """Sorted unique union of ``merged`` (sorted unique) and ``parts``."""
    if not len(merged) and len(parts) == 1:
        return parts[0]
    return sorted_unique(np.concatenate([merged, *parts]), own=True)


DEAD = KEY_UNREACHABLE
"""Lower bound of a state that can never be solved (its key cannot reach a goal even alone)."""


def lower_bounds(ex: VectorExpander, bounded: Bounded, states: I64) -> I64:
    """The admissible lower bound of :mod:`~arena.games.lockmaker.fast.expand` for a whole
    array of states: 1 + ceil(blockers / cover) for a key that never turns, the
    :class:`~arena.games.lockmaker.fast.tables.KeyBound` for one that can (DEAD when it
    cannot arrive), and the larger of that and the pattern's relaxed distance.

    Computed a chunk at a time: the bound takes half a dozen temporaries per state, which on
    a level of millions was the search's peak memory."""
    if len(states) <= CHUNK:
        return _lower_bounds(ex, bounded, states)
    out = np.empty(len(states), dtype=np.int64)
    for i in range(0, len(states), CHUNK):
        out[i:i + CHUNK] = _lower_bounds(ex, bounded, states[i:i + CHUNK])
    return out


def _lower_bounds(ex: VectorExpander, bounded: Bounded, states: I64) -> I64:
    c = ex.c
    keys = (states >> c.key_shift) & c.key_mask
    kb = bounded.key
    h: I64 = np.ones(len(states), dtype=np.int64)
    if kb is not None:
        h = np.array(kb.distance, dtype=np.int64)[keys]
        for sh, m, table in kb.covers:
            h += np.array(table, dtype=np.int64)[(states >> sh) & m]
        if kb.key_attach is not None:
            ka = np.array(kb.key_attach, dtype=np.int64)[keys]
            partners = np.zeros(len(states), dtype=np.int64)
            for sh, m, attach in kb.others:
                partners |= np.array(attach, dtype=np.int64)[(states >> sh) & m]
            h += ((ka != 0) & ((ka & kb.goal_axes) == 0) & ((partners & ka) == 0))
    elif bounded.blockers is not None:
        line, spans, cover = bounded.blockers
        _fs, _fm, _lb, wi, sh, om, _index = ex.lines[line]
        words = ex.words(states)
        occ = (words[wi] >> np.uint64(sh)) & np.uint64(om)
        span = np.array(spans, dtype=np.uint64)[keys]
        count = np.bitwise_count(occ & span).astype(np.int64)
        h = 1 + (count + cover - 1) // cover
    if isinstance(bounded.pattern, PatternBound):
        h = np.maximum(h, bounded.pattern.values_of(states))
    capped: I64 = np.minimum(h, DEAD)
    return capped


def goal_mask(c: Compiled, states: I64) -> npt.NDArray[np.bool_]:
    keys = (states >> c.key_shift) & c.key_mask
    out: npt.NDArray[np.bool_] = np.isin(keys, np.array(sorted(c.goal_indices), dtype=np.int64))
    return out


@dataclass
class _FreePiece:
    """One free piece's moves per placement, as plain ints (states are grouped by
    placement, so each step is a scalar test on a column of words)."""

    shift: int
    mask: int
    slides: list[tuple[list[tuple[int, int, int]], ...]]
    """Per placement, per side: (word, bit, placement reached) of each step outwards."""
    attach: list[int]
    rot: list[dict[int, tuple[int, int, int]]]
    cells: list[list[int]]
    """Per placement: its cells in the row runs of each occupancy word."""
    attach_arr: I64


class _FreeMoves:
    """Slides and axis turns of the pieces that can touch an axis, for whole arrays of states
    (the array form of :meth:`Compiled.free_moves`; same moves, LM-5..LM-8).

    States are grouped by what decides a free move: a piece's slides by its placement (then
    every step is one scalar word test on the group), the turns about an axis by which pieces
    are attached to it and where (a handful of combinations), so the per-state work is plain
    array masking and the per-group work is a few integer operations."""

    def __init__(self, c: Compiled, nwords: int, rows: dict[int, tuple[int, int]]) -> None:
        w = c.width
        self.nwords = nwords
        self.all_axes = c.all_axes
        self.naxes = len(c.lock.axes)

        def where(cell: int) -> tuple[int, int]:
            r, col = divmod(cell, w)
            wi, sh = rows[r]
            return wi, sh + col

        self.pieces: list[_FreePiece] = []
        for k, (sh, m, steps, attach, rots) in zip(c.free_ids, c.free_specs, strict=True):
            pt = c.pieces[k]
            slides = []
            for sides in steps:
                per_side = []
                for items in sides:
                    out = []
                    for cellbit, q in items:
                        wi, b = where(cellbit.bit_length() - 1)
                        out.append((wi, 1 << b, q))
                    per_side.append(out)
                slides.append(tuple(per_side))
            cells = []
            for pl in pt.placements:
                per_word = [0] * nwords
                for cell in pl:
                    wi, b = where(cell)
                    per_word[wi] |= 1 << b
                cells.append(per_word)
            self.pieces.append(_FreePiece(sh, m, slides, list(attach), list(rots), cells,
                                          np.array(attach, dtype=np.int64)))
        self.radix = max((len(fp.attach) for fp in self.pieces), default=0) + 1

    def expand(self, states: I64, words: list[npt.NDArray[np.uint64]]) -> list[I64]:
        out: list[I64] = []
        idx = [(states >> fp.shift) & fp.mask for fp in self.pieces]
        att = [fp.attach_arr[i] for fp, i in zip(self.pieces, idx, strict=True)]
        all_axes = self.all_axes
        for j, fp in enumerate(self.pieces):
            others = np.zeros(len(states), dtype=np.int64)
            for k, a in enumerate(att):
                if k != j:
                    others |= a
            for p, sel in _groups(idx[j], len(fp.attach)):
                sub = states[sel]
                sub_others = others[sel]
                sub_words: dict[int, npt.NDArray[np.uint64]] = {}
                for side in fp.slides[p]:
                    open_: npt.NDArray[np.bool_] | None = None
                    for wi, bit, q in side:
                        col = sub_words.get(wi)
                        if col is None:
                            col = sub_words[wi] = words[wi][sel]
                        free = (col & np.uint64(bit)) == 0
                        open_ = free if open_ is None else open_ & free
                        if not open_.any():
                            break
                        ok = open_ if fp.attach[q] & all_axes == all_axes else (
                            open_ & (((sub_others | fp.attach[q]) & all_axes) == all_axes))
                        out.append(sub[ok] + ((q - p) << fp.shift))
        for ai in range(self.naxes):
            self._turns(ai, states, words, idx, att, out)
        return out

    def _turns(self, ai: int, states: I64, words: list[npt.NDArray[np.uint64]],
               idx: list[I64], att: list[I64], out: list[I64]) -> None:
        """LM-7/LM-8: every piece attached to axis ``ai`` turns together; grouped by which
        pieces are attached and where (the code below: placement + 1 per piece, 0 if not)."""
        code = np.zeros(len(states), dtype=np.int64)
        for i, a in zip(idx, att, strict=True):
            code = code * self.radix + np.where((a >> ai) & 1 == 1, i + 1, 0)
            if (int(code.max()) + 1) * self.radix >= 1 << 62:  # renumber densely
                code = np.unique(code, return_inverse=True)[1].astype(np.int64)
        for _code, sel in _groups(code, None):
            rep = int(sel[0])  # every state of the group has the same attached pieces
            turning = [(j, int(i[rep])) for j, (i, a) in enumerate(zip(idx, att, strict=True))
                       if (int(a[rep]) >> ai) & 1]
            if not turning:
                continue
            moving = {j for j, _p in turning}
            fixed_att = np.zeros(len(sel), dtype=np.int64)
            for j, a in enumerate(att):
                if j not in moving:
                    fixed_att |= a[sel]
            mine = [0] * self.nwords
            for j, p in turning:
                for wi, bits in enumerate(self.pieces[j].cells[p]):
                    mine[wi] |= bits
            sub = states[sel]
            sub_words: dict[int, npt.NDArray[np.uint64]] = {}
            for kind in range(3):
                delta, new_att = 0, 0
                dest = [0] * self.nwords
                ok_turn = True
                for j, p in turning:
                    fp = self.pieces[j]
                    q = fp.rot[p][ai][kind]
                    if q < 0:
                        ok_turn = False
                        break
                    delta += (q - p) << fp.shift
                    new_att |= fp.attach[q]
                    for wi, bits in enumerate(fp.cells[q]):
                        dest[wi] |= bits
                if not ok_turn:
                    continue
                ok = ((fixed_att | new_att) & self.all_axes) == self.all_axes
                for wi in range(self.nwords):
                    hit = dest[wi] & ~mine[wi]
                    if hit:
                        col = sub_words.get(wi)
                        if col is None:
                            col = sub_words[wi] = words[wi][sel]
                        ok &= (col & np.uint64(hit)) == 0
                if ok.any():
                    out.append(sub[ok] + delta)


def _groups(values: I64, size: int | None) -> list[tuple[int, I64]]:
    """(value, indices holding it) for each value present (``size``: values < size)."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    if size is not None:
        cuts = np.searchsorted(ordered, np.arange(size + 1))
        return [(v, order[cuts[v]:cuts[v + 1]]) for v in range(size) if cuts[v + 1] > cuts[v]]
    keys, starts = np.unique(ordered, return_index=True)
    ends = [*starts[1:].tolist(), len(ordered)]
    return [(int(k), order[a:b]) for k, a, b in zip(keys.tolist(), starts.tolist(), ends,
                                                     strict=True)]
