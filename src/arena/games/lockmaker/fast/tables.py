"""Compile a :class:`FastLock` into packed states and lazy move tables.

Why this shape (it is what makes pure Python fast here):

* A position is ONE Python int: each movable piece owns a small bit field holding the index
  of its current placement among the placements it could ever reach (a static
  over-approximation computed here: slides through cells that are never blocked, plus
  rotations about any axis it can touch, LM-5..LM-7). Hashing and comparing states is then
  the cheapest thing CPython can do, and a slide is ``state + delta``.
* Occupancy is recomputed, never stored: consecutive bit fields are grouped and a lazy table
  maps a group's bits to the cells its pieces cover, as a double bitboard (cells row-major in
  the low half, transposed in the high half) so that both a row and a column of the board are
  contiguous bit runs.
* Pieces that can never touch an axis keep one orientation on one line. All such pieces of one
  row (or column) are packed next to each other, so (their packed fields, that line's
  occupancy) is a small key, and a lazy table gives every slide of every piece of the line as a
  tuple of state deltas. One dict lookup per line replaces a per-piece, per-cell walk.
* Pieces that can touch an axis ("free" pieces) are expanded generically, with per-placement
  slide steps, rotation targets and attachment masks (LM-6..LM-8).

No adjacency is stored anywhere: moves are reversible, so neighbours are regenerated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from arena.games.lockmaker.fast.model import FastLock

Placement = tuple[int, ...]

CW, CCW, HALF = 0, 1, 2
ROTATION_NAMES = ("CW", "CCW", "180")
GROUP_BITS = 16
"""Largest packed width of one occupancy group (its lazy table holds at most one entry per
distinct value actually met, so wide groups cost nothing up front)."""


KEY_UNREACHABLE = 1 << 20
"""Key distance of a placement from which the key cannot reach a goal even alone."""

V = TypeVar("V")


class LazyTable(dict[int, V]):
    """A dict that computes a missing entry on first use (``__missing__``), so lookups of
    known keys stay on CPython's C fast path."""

    def __init__(self, compute: Callable[[int], V]) -> None:
        super().__init__()
        self._compute = compute

    def __missing__(self, key: int) -> V:
        value = self._compute(key)
        self[key] = value
        return value


def _or_of_fields(parts: list[tuple[int, int, list[int]]]) -> Callable[[int], int]:
    """For a group of consecutive bit fields: the OR of each field's row for its value
    (``parts``: field shift within the group, mask, row per value); the compute function of
    the occupancy and line-key tables."""

    def compute(v: int) -> int:
        out = 0
        for sh, m, rows in parts:
            idx = (v >> sh) & m
            if idx < len(rows):
                out |= rows[idx]
        return out

    return compute


def _rotate(dr: int, dc: int, kind: int) -> tuple[int, int]:
    """Rows grow downward: clockwise turns right (0, 1) into down (1, 0) (LM-7)."""
    if kind == CW:
        return dc, -dr
    if kind == CCW:
        return -dc, dr
    return -dr, -dc


@dataclass(frozen=True)
class KeyBound:
    """A lower bound on the moves left when the key can turn, as three disjoint kinds of
    moves that any solution needs (so their sum stays admissible):

    * moves of the key: at least its distance on an otherwise empty board (``distance``, see
      :meth:`Compiled.key_distance`);
    * one slide each for the pieces that never turn and stand on the cells every goal
      placement needs (``covers``: their shift, mask and 0/1 per placement; a slide moves
      one piece, never the key);
    * LM-8: when the key is the only piece on its one axis and no goal placement touches
      that axis, some other piece must first move to touch it (``key_attach``: the axis
      mask per key placement; ``others``: the other turning pieces' fields and masks).
      Only used when no key placement touches two axes, so that this move can never be
      one that turns the key too."""

    distance: list[int]
    covers: list[tuple[int, int, list[int]]]
    key_attach: list[int] | None
    goal_axes: int
    others: list[tuple[int, int, list[int]]]

    def value(self, c: Compiled, s: int) -> int:
        k = (s >> c.key_shift) & c.key_mask
        h = self.distance[k]
        if h >= KEY_UNREACHABLE:
            return h
        for sh, m, table in self.covers:
            h += table[(s >> sh) & m]
        if self.key_attach is not None:
            ka = self.key_attach[k]
            if ka and not ka & self.goal_axes:
                partners = 0
                for sh, m, attach in self.others:
                    partners |= attach[(s >> sh) & m]
                if not partners & ka:
                    h += 1
        return h


@dataclass
class Geometry:
    """Board facts shared by every piece: size, cells that never hold a movable piece."""

    width: int
    height: int
    fixed: frozenset[int]
    axes: tuple[int, ...]

    def inside(self, r: int, c: int) -> bool:
        return 0 <= r < self.height and 0 <= c < self.width

    def free_cell(self, r: int, c: int) -> bool:
        return self.inside(r, c) and r * self.width + c not in self.fixed

    def attached_axes(self, cells: Placement) -> list[tuple[int, int, int]]:
        """LM-6: ``(axis index, dr, dc)`` for each axis touching an end of the bar end-on,
        with (dr, dc) the direction from the axis along the bar."""
        w = self.width
        out = []
        r0, c0 = divmod(cells[0], w)
        r1, c1 = divmod(cells[-1], w)
        dr, dc = (0, 1) if cells[1] - cells[0] == 1 else (1, 0)
        for ai, a in enumerate(self.axes):
            ar, ac = divmod(a, w)
            if (ar, ac) == (r0 - dr, c0 - dc):
                out.append((ai, dr, dc))
            elif (ar, ac) == (r1 + dr, c1 + dc):
                out.append((ai, -dr, -dc))
        return out

    def rotated(self, cells: Placement, axis_index: int, kind: int) -> Placement | None:
        """The placement after turning the bar about the axis (LM-7), or None if a
        destination cell is off the board or never free (blocked, keyhole, an axis)."""
        w = self.width
        for ai, dr, dc in self.attached_axes(cells):
            if ai != axis_index:
                continue
            ar, ac = divmod(self.axes[ai], w)
            nr, nc = _rotate(dr, dc, kind)
            out = []
            for k in range(1, len(cells) + 1):
                r, c = ar + nr * k, ac + nc * k
                if not self.free_cell(r, c):
                    return None
                out.append(r * w + c)
            return tuple(sorted(out))
        return None

    def slides(self, cells: Placement) -> list[list[Placement]]:
        """Placements one, two, ... steps each way along the bar's line through never-fixed
        cells (LM-5), ignoring movable pieces. Index 0: towards smaller cells.

        Walks cell numbers within the bar's row (or the board, for a column) instead of
        (row, column) pairs: compiling a small lock is mostly this."""
        w = self.width
        fixed = self.fixed
        if cells[1] - cells[0] == 1:
            step = 1
            lo = cells[0] - cells[0] % w
            hi = lo + w
        else:
            step, lo, hi = w, 0, w * self.height
        n = len(cells)
        back: list[Placement] = []
        x = cells[0] - step
        while x >= lo and x not in fixed:
            back.append(tuple(range(x, x + n * step, step)))
            x -= step
        ahead: list[Placement] = []
        x = cells[-1] + step
        while x < hi and x not in fixed:
            first = x - (n - 1) * step
            ahead.append(tuple(range(first, x + 1, step)))
            x += step
        return [back, ahead]


def alone_moves(geo: Geometry, p: Placement) -> list[Placement]:
    """Placements one move from ``p`` for a piece alone on the board: slides through
    never-fixed cells and turns about any axis it touches (LM-5..LM-7, LM-8 ignored)."""
    out = [q for side in geo.slides(p) for q in side]
    for ai, _dr, _dc in geo.attached_axes(p):
        for kind in (CW, CCW, HALF):
            q = geo.rotated(p, ai, kind)
            if q is not None:
                out.append(q)
    return out


def closure(geo: Geometry, start: Placement) -> list[Placement]:
    """Every placement a piece could reach if it were alone (sound over-approximation)."""
    seen = {start}
    todo = [start]
    while todo:
        for q in alone_moves(geo, todo.pop()):
            if q not in seen:
                seen.add(q)
                todo.append(q)
    return sorted(seen)


@dataclass
class PieceTable:
    """One movable piece in the packed state."""

    original: int
    placements: list[Placement]
    index: dict[Placement, int]
    free: bool
    horizontal0: bool = True
    shift: int = 0
    bits: int = 1
    both: list[int] = field(default_factory=list)
    cellmask: list[int] = field(default_factory=list)

    @property
    def mask(self) -> int:
        return (1 << self.bits) - 1


@dataclass
class Line:
    """A row or column holding fixed-orientation pieces, packed contiguously."""

    horizontal: bool
    number: int
    pieces: list[int]
    field_shift: int = 0
    field_bits: int = 0
    occ_shift: int = 0
    length: int = 0


class Compiled:
    """A lock ready for search: start state, goal test, lazy tables (see module docstring)."""

    def __init__(self, lock: FastLock, *, lm8: bool = True) -> None:
        """``lm8=False`` drops the always-attached rule (LM-8): only for relaxations, whose
        reachable sets then contain every position the real rules allow."""
        self.lock = lock
        self.lm8 = lm8
        w, h = lock.width, lock.height
        self.width, self.height = w, h
        self.ncells = w * h
        self.toff = w * h
        fixed = frozenset(lock.blocked | {lock.keyhole} | set(lock.axes))
        self.geo = Geometry(w, h, fixed, lock.axes)
        geo = self.geo
        # Pieces that can never move (even alone) are walls for everyone else: freeze them and
        # recompute the others' closures until nothing changes. Sound by induction: a piece
        # whose closure among walls is one placement never moves, whatever the others do.
        frozen: set[int] = set()
        while True:
            closures = [closure(geo, cells) for cells in lock.pieces]
            more = {i for i, pl in enumerate(closures) if len(pl) == 1 and i not in frozen
                    and not geo.attached_axes(pl[0])}
            if not more:
                break
            frozen |= more
            extra = {c for i in more for c in lock.pieces[i]}
            geo = Geometry(w, h, frozenset(geo.fixed | extra), lock.axes)
        self.geo = geo
        raw: list[PieceTable] = []
        for i, pl in enumerate(closures):
            free = any(geo.attached_axes(p) for p in pl)
            cells = lock.pieces[i]
            raw.append(PieceTable(i, pl, {p: k for k, p in enumerate(pl)}, free,
                                  cells[1] - cells[0] == 1))
        # packing order: fixed pieces by line (rows then columns, by position), then free ones
        lines: dict[tuple[bool, int], list[int]] = {}
        for i, pt in enumerate(raw):
            if pt.free:
                continue
            cells = pt.placements[0]
            horiz = cells[1] - cells[0] == 1
            num = cells[0] // w if horiz else cells[0] % w
            lines.setdefault((horiz, num), []).append(i)
        order: list[int] = []
        self.lines: list[Line] = []
        for (horiz, num) in sorted(lines, key=lambda k: (not k[0], k[1])):
            members = sorted(lines[(horiz, num)], key=lambda i: lock.pieces[i][0])
            self.lines.append(Line(horiz, num, [len(order) + k for k in range(len(members))]))
            order.extend(members)
        self.free_ids = [len(order) + k for k in range(sum(pt.free for pt in raw))]
        order.extend(i for i, pt in enumerate(raw) if pt.free)
        self.pieces = [raw[i] for i in order]
        self.packed_of = {pt.original: k for k, pt in enumerate(self.pieces)}
        shift = 0
        for pt in self.pieces:
            pt.bits = max(1, (len(pt.placements) - 1).bit_length())
            pt.shift = shift
            shift += pt.bits
            for p in pt.placements:
                cm = 0
                both = 0
                for c in p:
                    r, col = divmod(c, w)
                    cm |= 1 << c
                    both |= (1 << c) | (1 << (self.toff + col * h + r))
                pt.cellmask.append(cm)
                pt.both.append(both)
        self.total_bits = shift
        self.base = 0
        for c in fixed:
            r, col = divmod(c, w)
            self.base |= (1 << c) | (1 << (self.toff + col * h + r))
        self.start = 0
        for pt in self.pieces:
            self.start |= pt.index[lock.pieces[pt.original]] << pt.shift
        key = self.pieces[self.packed_of[0]]
        self.key_shift, self.key_mask = key.shift, key.mask
        self.goal_indices = frozenset(key.index[g] for g in lock.goals if g in key.index)
        self._build_groups()
        self._build_lines()
        self._build_keys()
        self._build_free()
        self.goal_indices = self._order_pruned_goals()

    def _order_pruned_goals(self) -> frozenset[int]:
        """Drop goals the key can never reach because of line order (LM-4, LM-5).

        Pieces that never turn stay on their line and can never pass another piece of that
        line; the goal touches the keyhole at the board's edge. So if the key never turns, any
        such piece between it and the keyhole stays there. If the key can turn, it enters the
        goal's line only at its start or where a rotation puts it; a piece that is on the
        keyhole side of every such entry even at its own farthest reach blocks the goal too.
        (Instant impossibility proofs for many random locks.)"""
        k = self.packed_of[0]
        key = self.pieces[k]
        w = self.width
        start_idx = (self.start >> key.shift) & key.mask

        def on_line(cells: Placement) -> tuple[bool, int, int]:
            horiz = cells[1] - cells[0] == 1
            return horiz, (cells[0] // w if horiz else cells[0] % w), (
                cells[0] % w if horiz else cells[0] // w)

        entries: set[int] = {start_idx}
        if key.free:
            spec = self.free_specs[self.free_ids.index(k)]
            for rd in spec[4]:
                for targets in rd.values():
                    entries.update(t for t in targets if t >= 0)
        keep = set()
        for g in self.goal_indices:
            gh, gn, g_off = on_line(key.placements[g])
            line = next((ln for ln in self.lines if (ln.horizontal, ln.number) == (gh, gn)), None)
            if line is None:
                keep.add(g)
                continue
            members = [j for j in line.pieces if j != k]
            reachable_entry = False
            for e in entries:
                eh, en, e_off = on_line(key.placements[e])
                if (eh, en) != (gh, gn):
                    continue
                toward = 1 if g_off > e_off else -1
                blocked = False
                for j in members:
                    pt = self.pieces[j]
                    if not key.free:  # order is invariant: the current offset decides
                        cur = pt.placements[(self.start >> pt.shift) & pt.mask]
                        lo = hi = on_line(cur)[2]
                    else:
                        lo, hi = on_line(pt.placements[0])[2], on_line(pt.placements[-1])[2]
                    if (toward > 0 and lo > e_off) or (toward < 0 and hi < e_off):
                        blocked = True
                        break
                if e == g or not blocked:
                    reachable_entry = True
                    break
            if reachable_entry:
                keep.add(g)
        return frozenset(keep)

    # ------------------------------------------------------------------ occupancy groups
    def _build_groups(self) -> None:
        self.groups: list[tuple[int, int, LazyTable[int]]] = []
        run: list[PieceTable] = []
        for pt in [*self.pieces, None]:
            if pt is not None and sum(p.bits for p in run) + pt.bits <= GROUP_BITS:
                run.append(pt)
                continue
            if run:
                self.groups.append(self._group(run))
            run = [pt] if pt is not None else []

    def _group(self, run: list[PieceTable]) -> tuple[int, int, LazyTable[int]]:
        shift = run[0].shift
        bits = sum(p.bits for p in run)
        parts = [(p.shift - shift, p.mask, p.both) for p in run]
        return shift, (1 << bits) - 1, LazyTable(_or_of_fields(parts))

    def key_int(self, s: int) -> int:
        """All line keys of ``s`` in one int (see :meth:`_build_keys`)."""
        k = self.key_base
        for sh, m, tab in self.key_groups:
            k |= tab[(s >> sh) & m]
        return k

    def occupancy(self, s: int) -> int:
        both = self.base
        for sh, m, tab in self.groups:
            both |= tab[(s >> sh) & m]
        return both

    # ------------------------------------------------------------------ line tables
    def _build_lines(self) -> None:
        w, h = self.width, self.height
        self.line_tables: list[tuple[int, int, int, int, int, LazyTable[tuple[int, ...]]]] = []
        for line in self.lines:
            first = self.pieces[line.pieces[0]]
            line.field_shift = first.shift
            line.field_bits = sum(self.pieces[i].bits for i in line.pieces)
            if line.horizontal:
                line.occ_shift, line.length = line.number * w, w
            else:
                line.occ_shift, line.length = self.toff + line.number * h, h
            self.line_tables.append((line.field_shift, (1 << line.field_bits) - 1, line.length,
                                     line.occ_shift, (1 << line.length) - 1,
                                     LazyTable(self._line_compute(line))))

    def _line_compute(self, line: Line) -> Callable[[int], tuple[int, ...]]:
        w = self.width
        specs = []
        for i in line.pieces:
            pt = self.pieces[i]
            offs = [(p[0] % w) if line.horizontal else (p[0] // w) for p in pt.placements]
            specs.append((pt.shift - line.field_shift, pt.mask, pt.shift, len(pt.placements[0]),
                          offs[0], offs[-1]))
        lb = line.length

        def compute(key: int) -> tuple[int, ...]:
            fields = key >> lb
            occ = key & ((1 << lb) - 1)
            out: list[int] = []
            for rel, m, sh, length, lo, hi in specs:
                off = lo + ((fields >> rel) & m)
                o = off - 1
                while o >= lo and not (occ >> o) & 1:
                    out.append((o - off) << sh)
                    o -= 1
                t = off + 1
                while t <= hi and not (occ >> (t + length - 1)) & 1:
                    out.append((t - off) << sh)
                    t += 1
            return tuple(out)

        return compute

    # ------------------------------------------------------------------ line keys at once
    def _build_keys(self) -> None:
        """Line keys of every line in one int, OR-ed from per-group tables.

        Line ``k`` owns the bit slot ``key_slots[k]`` of width field bits + line length; its
        key is ``(K >> slot) & mask`` where K ORs, per occupancy group, the placement's cells
        on each line and, for pieces of that line, their field. Two operations per line
        instead of six."""
        w, h = self.width, self.height
        self.key_slots: list[tuple[int, int]] = []
        slot = 0
        where: dict[tuple[bool, int], tuple[int, int]] = {}
        owner: dict[int, tuple[int, int]] = {}
        for line in self.lines:
            self.key_slots.append((slot, (1 << (line.field_bits + line.length)) - 1))
            where[(line.horizontal, line.number)] = (slot, line.length)
            for i in line.pieces:
                owner[i] = (slot + line.length + self.pieces[i].shift - line.field_shift, 0)
            slot += line.field_bits + line.length

        def cells_key(cells: tuple[int, ...] | frozenset[int]) -> int:
            out = 0
            for c in cells:
                r, col = divmod(c, w)
                if (True, r) in where:
                    sl, _n = where[(True, r)]
                    out |= 1 << (sl + col)
                if (False, col) in where:
                    sl, _n = where[(False, col)]
                    out |= 1 << (sl + r)
            return out

        del h
        self.key_base = cells_key(self.geo.fixed)
        contrib: list[list[int]] = []
        for k, pt in enumerate(self.pieces):
            rows = []
            for idx, p in enumerate(pt.placements):
                v = cells_key(p)
                if k in owner:
                    v |= idx << owner[k][0]
                rows.append(v)
            contrib.append(rows)
        self.key_groups: list[tuple[int, int, LazyTable[int]]] = []
        for sh, m, _tab in self.groups:
            members = [(pt.shift - sh, pt.mask, contrib[k]) for k, pt in enumerate(self.pieces)
                       if sh <= pt.shift and pt.shift + pt.bits <= sh + m.bit_length()]
            self.key_groups.append((sh, m, LazyTable(_or_of_fields(members))))

    # ------------------------------------------------------------------ free pieces
    def _build_free(self) -> None:
        """Slide steps, attachment masks and rotation targets of pieces that can meet an axis."""
        geo = self.geo
        # LM-8 checks (others | mine) & all_axes == all_axes: with lm8 off that always holds
        self.all_axes = (1 << len(self.lock.axes)) - 1 if self.lm8 else 0
        self.free_specs: list[tuple[int, int, list[tuple[tuple[tuple[int, int], ...], ...]],
                                    list[int], list[dict[int, tuple[int, int, int]]]]] = []
        for k in self.free_ids:
            pt = self.pieces[k]
            steps: list[tuple[tuple[tuple[int, int], ...], ...]] = []
            attach: list[int] = []
            rots: list[dict[int, tuple[int, int, int]]] = []
            for p in pt.placements:
                sides = []
                for side, seq in enumerate(geo.slides(p)):
                    items = []
                    for q in seq:
                        enter = q[0] if side == 0 else q[-1]
                        items.append((1 << enter, pt.index[q]))
                    sides.append(tuple(items))
                steps.append(tuple(sides))
                am = 0
                rd: dict[int, tuple[int, int, int]] = {}
                for ai, _dr, _dc in geo.attached_axes(p):
                    am |= 1 << ai
                    targets = []
                    for kind in (CW, CCW, HALF):
                        turned = geo.rotated(p, ai, kind)
                        targets.append(-1 if turned is None else pt.index[turned])
                    rd[ai] = (targets[0], targets[1], targets[2])
                attach.append(am)
                rots.append(rd)
            self.free_specs.append((pt.shift, pt.mask, steps, attach, rots))
        # Free moves depend only on the free pieces' fields (packed last) and on the cells any
        # free piece could ever enter; cache them as deltas under that key.
        relevant = 0
        for k in self.free_ids:
            for cm in self.pieces[k].cellmask:
                relevant |= cm
        self.free_shift = self.pieces[self.free_ids[0]].shift if self.free_ids else 0
        self.free_relevant = relevant
        ncells = self.ncells

        def free_compute(key: int) -> tuple[int, ...]:
            s = (key >> ncells) << self.free_shift
            return tuple(t - s for t in self.free_moves(s, key & relevant))

        self.free_table: LazyTable[tuple[int, ...]] = LazyTable(free_compute)

    def free_moves(self, s: int, both: int) -> list[int]:
        """Neighbours of ``s`` by moves of free pieces: slides and axis rotations, each kept
        only if every axis still has an attached piece afterwards (LM-8)."""
        out: list[int] = []
        specs = self.free_specs
        idx = [(s >> sh) & m for sh, m, _s, _a, _r in specs]
        att = [spec[3][i] for spec, i in zip(specs, idx, strict=True)]
        all_axes = self.all_axes
        occ = both & ((1 << self.ncells) - 1)
        for j, (sh, _m, steps, attach, _rots) in enumerate(specs):
            others = 0
            for k, a in enumerate(att):
                if k != j:
                    others |= a
            p = idx[j]
            for side in steps[p]:
                for cell, q in side:
                    if occ & cell:
                        break
                    if (others | attach[q]) & all_axes == all_axes:
                        out.append(s + ((q - p) << sh))
        for ai in range(len(self.lock.axes)):
            bit = 1 << ai
            turning = [j for j, a in enumerate(att) if a & bit]
            if not turning:
                continue
            turning_mask = 0
            for j in turning:
                turning_mask |= self.pieces[self.free_ids[j]].cellmask[idx[j]]
            rest = occ & ~turning_mask
            for kind in (CW, CCW, HALF):
                t = s
                dest = 0
                ok = True
                new_att = list(att)
                for j in turning:
                    sh, _m, _st, attach, rots = specs[j]
                    q = rots[idx[j]][ai][kind]
                    if q < 0:
                        ok = False
                        break
                    dest |= self.pieces[self.free_ids[j]].cellmask[q]
                    t += (q - idx[j]) << sh
                    new_att[j] = attach[q]
                if not ok or dest & rest:
                    continue
                union = 0
                for a in new_att:
                    union |= a
                if union & all_axes == all_axes:
                    out.append(t)
        return out

    # ------------------------------------------------------------------ helpers
    def neighbours(self, s: int) -> list[int]:
        """Every position one move (LM-9) from ``s`` (slow path, for paths and tests)."""
        both = self.occupancy(s)
        out: list[int] = []
        for fs, fm, lb, os_, om, tab in self.line_tables:
            for d in tab[(((s >> fs) & fm) << lb) | ((both >> os_) & om)]:
                out.append(s + d)
        if self.free_specs:
            out.extend(self.free_moves(s, both))
        return out

    def blocker_bound(self) -> tuple[int, int, list[int], int] | None:
        """An admissible lower bound on the moves left, for a key that never turns: one move
        for the key plus one per piece in the way between it and its goal (each must move at
        least once). Returned as (line slot in the key int, line mask, span mask per key
        placement, cells one blocker can cover); None when the key can turn."""
        k = self.packed_of[0]
        key = self.pieces[k]
        if key.free or len(self.goal_indices) != 1:
            return None
        li = next(i for i, ln in enumerate(self.lines) if k in ln.pieces)
        line = self.lines[li]
        w = self.width

        def offset(cells: Placement) -> int:
            return cells[0] % w if line.horizontal else cells[0] // w

        (g,) = self.goal_indices
        goff = offset(key.placements[g])
        spans = []
        for p in key.placements:
            off = offset(p)
            lo, hi = (off + 2, goff + 1) if goff > off else (goff, off - 1)
            m = 0
            for x in range(lo, hi + 1):
                m |= 1 << x
            spans.append(m)
        cover = 1
        for j in self.free_ids:
            pt = self.pieces[j]
            for p in pt.placements:
                along = (p[1] - p[0] == 1) == line.horizontal
                if along and (p[0] // w if line.horizontal else p[0] % w) == line.number:
                    cover = max(cover, len(p))
        slot, _mask = self.key_slots[li]
        return slot, (1 << line.length) - 1, spans, cover

    def key_distance(self) -> list[int] | None:
        """An admissible lower bound for a key that can turn (LM-6, LM-7): for each key
        placement, the fewest moves the key would need if every other movable piece vanished
        (slides through never-fixed cells, quarter and half turns about any axis it touches;
        LM-8 relaxed). One move moves the key by at most one step of that graph, so a state
        needs at least this many moves. Steps that would leave an axis that no other piece
        can ever touch are left out (LM-8 forbids them in every position). Placements that
        cannot reach a goal even so get a distance larger than any budget. None when the key
        never turns (the blocker bound is stronger there)."""
        key = self.pieces[self.packed_of[0]]
        if not key.free:
            return None
        far = KEY_UNREACHABLE
        dist = [far] * len(key.placements)
        todo = sorted(self.goal_indices)
        for g in todo:
            dist[g] = 0
        geo = self.geo
        # LM-8: an axis that no other piece can ever touch keeps the key forever once the
        # key is its only piece, so the key can never step from touching it to not touching it
        lonely = 0
        for ai in range(len(self.lock.axes) if self.lm8 else 0):
            if not any(ai in {a for a, _r, _c in geo.attached_axes(p)}
                       for pt in self.pieces if pt.original != 0 for p in pt.placements):
                lonely |= 1 << ai

        def axes_of(p: Placement) -> int:
            m = 0
            for a, _dr, _dc in geo.attached_axes(p):
                m |= 1 << a
            return m

        for i in todo:  # grows while it is walked: a breadth-first queue (backwards)
            q0 = key.placements[i]
            for p in alone_moves(geo, q0):  # the move p -> q0 must not leave a lonely axis
                j = key.index[p]
                if dist[j] == far and not (axes_of(p) & ~axes_of(q0) & lonely):
                    dist[j] = dist[i] + 1
                    todo.append(j)
        return dist

    def key_bound(self) -> KeyBound | None:
        """The admissible lower bound for a key that can turn (None when it never turns):
        see :class:`KeyBound`."""
        dist = self.key_distance()
        if dist is None or not self.goal_indices:
            return None
        key = self.pieces[self.packed_of[0]]
        goal_cells = set.intersection(*(set(key.placements[g]) for g in self.goal_indices))
        covers = []
        for pt in self.pieces:
            if pt.free:
                continue
            table = [1 if goal_cells & set(p) else 0 for p in pt.placements]
            if any(table):
                covers.append((pt.shift, pt.mask, table))
        spec = self.free_specs[self.free_ids.index(self.packed_of[0])]
        key_attach: list[int] | None = list(spec[3])
        others = []
        if not self.lm8 or any(a.bit_count() > 1 for a in spec[3]):
            key_attach = None  # a key on two axes at once could attach a partner as it turns
        else:
            for j, (sh, m, _st, attach, _r) in zip(self.free_ids, self.free_specs, strict=True):
                if j != self.packed_of[0]:
                    others.append((sh, m, list(attach)))
        goal_axes = 0
        for g in self.goal_indices:
            goal_axes |= spec[3][g]
        return KeyBound(dist, covers, key_attach, goal_axes, others)

    def as_drafted(self, s: int) -> bool:
        """Every bar (not the key) has its starting orientation (LM-4: a maker places a bar
        as drafted); only free pieces can have turned."""
        for k in self.free_ids:
            pt = self.pieces[k]
            if pt.original == 0:
                continue
            p = pt.placements[(s >> pt.shift) & pt.mask]
            if (p[1] - p[0] == 1) != pt.horizontal0:
                return False
        return True

    def is_goal(self, s: int) -> bool:
        return ((s >> self.key_shift) & self.key_mask) in self.goal_indices

    def placements_of(self, s: int) -> list[Placement]:
        """Cells of each original piece (key first) in state ``s``."""
        out: list[Placement] = [()] * len(self.pieces)
        for pt in self.pieces:
            out[pt.original] = pt.placements[(s >> pt.shift) & pt.mask]
        return out

    def encode(self, placements: list[Placement]) -> int:
        s = 0
        for pt in self.pieces:
            s |= pt.index[placements[pt.original]] << pt.shift
        return s
