"""NumPy frontier expansion: a whole BFS level as a few dozen array operations.

Applies when every movable piece keeps one orientation on one line (no piece can touch an axis)
and the packed state fits in 63 bits; :func:`supported` says so, and callers fall back to the
pure-Python search otherwise (same tables, same answers).

Layout: occupancy is a handful of uint64 words in which every row and every column of the
board is a contiguous bit run (rows and columns are assigned to words greedily). Each piece's
placement has its word pattern; occupancy groups (consecutive bit fields of the packed state)
get dense tables built with array arithmetic. For every line, (its pieces' fields, its
occupancy) is a key; the line's moves for a key are computed once by the pure-Python table of
:class:`~arena.games.lockmaker.fast.tables.Compiled` and cached in a dense slot array (or a
sorted key index when the key space is wide), giving a padded matrix of state deltas.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from arena.games.lockmaker.fast.tables import Compiled

I64 = npt.NDArray[np.int64]
DENSE_KEY_BITS = 20
GROUP_BITS = 12


def supported(c: Compiled) -> bool:
    """The vector path handles fixed-orientation pieces and states of at most 63 bits."""
    return not c.free_specs and c.total_bits <= 63


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
            raise ValueError("vector path needs fixed-orientation pieces and <= 63-bit states")
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
        if not parts:
            return np.zeros(0, dtype=np.int64)
        return np.concatenate(parts)


def sorted_unique(a: I64) -> I64:
    """Sort-based unique (NumPy 2's hash-based ``np.unique`` is several times slower on
    millions of int64 states)."""
    if len(a) == 0:
        return a
    a = np.sort(a)
    keep = np.empty(len(a), dtype=bool)
    keep[0] = True
    np.not_equal(a[1:], a[:-1], out=keep[1:])
    return a[keep]


def _minus(a: I64, b: I64) -> I64:
    """Elements of sorted unique ``a`` not in sorted ``b``."""
    if len(b) == 0 or len(a) == 0:
        return a
    pos = np.searchsorted(b, a)
    pos = np.minimum(pos, len(b) - 1)
    out: I64 = a[b[pos] != a]
    return out


def next_level(ex: VectorExpander, cur: I64, prev: I64) -> I64:
    """Level d+1 of an undirected BFS from levels d (``cur``) and d-1 (``prev``), sorted."""
    cand = sorted_unique(ex.expand(cur))
    return _minus(_minus(cand, cur), prev)


def goal_mask(c: Compiled, states: I64) -> npt.NDArray[np.bool_]:
    keys = (states >> c.key_shift) & c.key_mask
    out: npt.NDArray[np.bool_] = np.isin(keys, np.array(sorted(c.goal_indices), dtype=np.int64))
    return out
