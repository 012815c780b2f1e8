"""A quick start for ``arena lockmaker solve --rush-file FILE [--json] [--jobs N]``.

A published Rush Hour puzzle (LM-12) costs a few milliseconds to solve with a tight search,
far less than loading argparse, the game's modules, NumPy and the fast solver's tables, and
a whole batch of them costs less than that import plus the general solver. So :func:`quick`
runs before the parser is built: it takes the command line only when it is exactly that
command, reads the file itself, and solves every puzzle with :func:`solve`. Anything else --
another command, an option it does not know, a line it cannot read plainly -- returns None
before anything is printed, and the ordinary path (with its error messages naming the rule)
handles the input. ``states`` counts the positions this search stored, so it may differ from
the fast solver's count; the move counts are the same optimum (LM-9).

The search is a breadth-first search whose positions are single integers built for lookups
rather than for reading. Each line of the grid that holds pieces (a row with horizontal cars,
a column with vertical ones) gets a 12-bit field: which of its six cells its own pieces cover,
and which are taken by anything (its own pieces, crossing pieces, walls). Pieces on one line
never pass each other, so the own bits fix where each of them stands, and the fields together
fix the position. Everything one line's pieces can do depends on that field alone, so per
line a list indexed by field holds the XOR masks of its legal slides (found on first use: a
search meets a few hundred fields); a slide's mask also flips the crossed cells in the fields
of the lines it crosses. Expanding a position is then one shift, one mask and one list index
per line, and a neighbour is one XOR: in process about a quarter of the CPU time of a search
over tuples of offsets (bench/README.md, "Rush Hour batches from the command line").
"""

import sys

MYPY = False
if MYPY:  # types only (typing loads re, which a quick start does not need; annotations that
    # name these are quoted, as ``from __future__ import annotations`` is an import too)
    from collections.abc import Callable, Sequence

RUSH_FILE_LIMIT = 64 << 20
"""The most ``lockmaker solve --rush-file`` reads: 64 MiB, over a million puzzles of one
line each."""

Piece = tuple[bool, int, int, int]
"""``(horizontal, line, length, offset)``: a row (horizontal) or column index and the first
cell along it; the red car comes first."""

LETTERS = "ABCDEF"
FIELD_BITS = 12
"""Bits per line field: own cells in the low six, taken cells in the high six."""
MASK = (1 << FIELD_BITS) - 1
GOAL = 4
"""The red car's offset when it touches the keyhole beside F (LM-3, LM-12)."""


def parse(rush: str) -> tuple[int, list[Piece]] | None:
    """Walls mask and pieces (the red car first, then by letter), or None when the string is
    not a plain, well-formed puzzle (the ordinary path then says why, LM-12)."""
    if len(rush) != 36:
        return None
    walls = 0
    cells: dict[str, list[int]] = {}
    for i, ch in enumerate(rush):
        if ch in "o.":
            continue
        if ch in "xX":
            walls |= 1 << i
        elif "A" <= ch <= "Z":
            cells.setdefault(ch, []).append(i)
        else:
            return None
    if "A" not in cells:
        return None
    pieces = []
    for letter in sorted(cells):
        cs = cells[letter]
        r, c = divmod(cs[0], 6)
        n = len(cs)
        if n >= 2 and cs == list(range(cs[0], cs[0] + n)) and c + n <= 6:
            pieces.append((True, r, n, c))
        elif n >= 2 and cs == list(range(cs[0], cs[0] + 6 * n, 6)):
            pieces.append((False, c, n, r))
        else:
            return None
    if not pieces[0][0] or pieces[0][2] != 2:
        return None
    return walls, pieces


def _offsets(own: int, lengths: "Sequence[int]") -> list[int]:
    """Where the pieces of a line stand, from the cells they cover (they keep their order)."""
    out = []
    b = 0
    for n in lengths:
        while not own >> b & 1:
            b += 1
        out.append(b)
        b += n
    return out


class _Line:
    """The pieces of one line: the XOR masks of every legal slide they have in a field (LM-9:
    a slide of any distance is one move)."""

    def __init__(self, lengths: list[int], shift: int, cross: list[int]) -> None:
        self.lengths, self.shift, self.cross = lengths, shift, cross
        self.masks: dict[int, int] = {}
        """Cells a slide empties and fills along the line -> its XOR mask (fields share them)."""

    def _mask(self, changed: int) -> int:
        dx = (changed | changed << 6) << self.shift
        for k in range(6):
            if changed >> k & 1:
                dx |= self.cross[k]
        self.masks[changed] = dx
        return dx

    def moves(self, idx: int) -> tuple[int, ...]:
        own, full = idx & 63, idx >> 6
        masks = self.masks
        out = []
        b = 0
        for n in self.lengths:
            while not own >> b & 1:
                b += 1
            p, b = b, b + n  # this piece's offset (pieces keep their order on a line)
            unit = (1 << n) - 1
            mine = unit << p
            others = full ^ mine
            q = p - 1
            while q >= 0 and not others >> q & 1:
                changed = mine ^ unit << q
                out.append(masks.get(changed) or self._mask(changed))
                q -= 1
            q = p + 1
            while q + n <= 6 and not others >> (q + n - 1) & 1:
                changed = mine ^ unit << q
                out.append(masks.get(changed) or self._mask(changed))
                q += 1
        return tuple(out)

    def win(self, idx: int) -> int:
        """On the red car's row: the XOR mask of its slide to the keyhole, 0 if it has none."""
        own, full = idx & 63, idx >> 6
        p = _offsets(own, self.lengths)[-1]  # the red car: last on its row (see Lines)
        if p == GOAL or (full ^ 3 << p) >> p:
            return 0
        changed = 3 << p ^ 3 << GOAL
        return next(dx for dx in self.moves(idx) if dx & 63 == changed)


Moves = list[tuple[int, ...] | None]
"""A line's slides by field, None until first needed: a list, as indexing one is cheaper
than a dictionary lookup in the search's innermost loop."""


class Lines:
    """A puzzle compiled for :func:`solve`: the start as one integer of line fields (the red
    car's row first, at shift 0), one move table per line, and the red car's winning slides.

    ``solvable_at_all`` is False when the red car can never reach the keyhole: a car of its
    row stands to its right, or a wall does."""

    def __init__(self, walls: int, pieces: list[Piece]) -> None:
        self.pieces = pieces
        key_h, key_row, _, key_off = pieces[0]
        lines: list[tuple[bool, int]] = [(key_h, key_row)]
        for h, line, _n, _o in pieces:
            if (h, line) not in lines:
                lines.append((h, line))
        slot = {ln: j for j, ln in enumerate(lines)}
        self.members: list[list[int]] = [
            sorted((i for i, p in enumerate(pieces) if (p[0], p[1]) == ln),
                   key=lambda i: pieces[i][3]) for ln in lines]
        self.lengths = [[pieces[i][2] for i in m] for m in self.members]
        start = 0
        for j, (h, line) in enumerate(lines):
            taken = 0
            for k in range(6):
                if walls >> (line * 6 + k if h else k * 6 + line) & 1:
                    taken |= 1 << k
            own = 0
            for i in self.members[j]:
                own |= ((1 << pieces[i][2]) - 1) << pieces[i][3]
            start |= (own | (own | taken) << 6) << (FIELD_BITS * j)
        for h, line, n, off in pieces:  # a piece's cells are taken in the lines it crosses
            for k in range(off, off + n):
                if (not h, k) in slot:
                    start |= 1 << (FIELD_BITS * slot[(not h, k)] + 6 + line)
        self.start = start
        self.lines: list[_Line] = []
        for j, (h, line) in enumerate(lines):
            cross = [1 << (FIELD_BITS * slot[(not h, k)] + 6 + line) if (not h, k) in slot else 0
                     for k in range(6)]
            self.lines.append(_Line(self.lengths[j], FIELD_BITS * j, cross))
        self.plan: list[tuple[Moves, Callable[[int], tuple[int, ...]]]] = [
            ([None] * (MASK + 1), ln.moves) for ln in self.lines]
        """Per line, its slides by field so far and how to find them for a new field."""
        self.wins: list[int | None] = [None] * (MASK + 1)
        """The red car's winning slide by field of its row (0: none), None until needed."""
        row = self.members[0]
        beyond = sum(1 << (key_row * 6 + k) for k in range(key_off + 2, 6))
        self.solvable_at_all = row[-1] == 0 and not walls & beyond

    def win(self, x: int) -> int:
        """The XOR mask of the red car's winning slide from position ``x``, or 0."""
        w = self.wins[x & MASK]
        if w is None:
            w = self.wins[x & MASK] = self.lines[0].win(x & MASK)
        return w

    def move_text(self, before: int, after: int) -> str:
        """The LM-11 text of the one slide from position ``before`` to ``after``."""
        diff = before ^ after
        shift = 0
        while not diff >> shift & 63:
            shift += FIELD_BITS
        j = shift // FIELD_BITS
        own = before >> shift & 63
        vacated = own & diff >> shift
        filled = after >> shift & 63 & ~own
        left = (vacated & -vacated).bit_length() - 1  # a cell the moving piece left
        lengths = self.lengths[j]
        k = 0
        for k, p in enumerate(_offsets(own, lengths)):  # the piece that moved
            if p <= left < p + lengths[k]:
                break
        i = self.members[j][k]
        horizontal, line, length, _ = self.pieces[i]
        if filled > vacated:  # towards higher cells: compare the far ends
            delta = filled.bit_length() - p - length
        else:
            delta = (filled & -filled).bit_length() - 1 - p
        if i == 0:
            name = "K"
        elif horizontal:
            name = LETTERS[p:p + length] + str(line + 1)
        else:
            name = LETTERS[line] + "123456"[p:p + length]
        way = ("R" if delta > 0 else "L") if horizontal else ("D" if delta > 0 else "U")
        return f"{name} {way}{abs(delta)}"


def _expand(frontier: list[int], plan: list[tuple[Moves, "Callable[[int], tuple[int, ...]]"]],
            parent: dict[int, int], c: Lines) -> tuple[list[int], int | None]:
    """The next breadth-first level (each new position stored in ``parent`` with the one it
    came from), or, as soon as one is met, a position the red car leaves from (LM-3)."""
    nxt: list[int] = []
    app = nxt.append
    wins = c.wins
    for x in frontier:
        y = x
        for table, find in plan:  # each line's field in turn, the red car's row first
            moves = table[y & 0xFFF]  # MASK, as a constant in the hottest loop
            if moves is None:
                moves = table[y & 0xFFF] = find(y & 0xFFF)
            for dx in moves:
                n = x ^ dx
                if n not in parent:
                    parent[n] = x
                    w = wins[n & 0xFFF]
                    if w is None:
                        w = c.win(n)
                    if w:
                        return nxt, n
                    app(n)
            y >>= 12  # FIELD_BITS
    return nxt, None


def solve(walls: int, pieces: list[Piece]) -> tuple[int | None, list[str], int]:
    """(fewest moves, or None when no position the red car can reach is solved; the
    solution's move texts; positions stored). Breadth first, so the first solved position
    met is at the optimal depth (LM-9); the red car's winning slide is looked for as each
    position is stored, so the search stops a level early."""
    c = Lines(walls, pieces)
    start = c.start
    if not c.solvable_at_all:
        return None, [], 1
    if (start & 63) >> GOAL == 3:
        return 0, [], 1
    parent = {start: start}
    frontier = [start]
    last = start if c.win(start) else None
    while frontier and last is None:
        frontier, last = _expand(frontier, c.plan, parent, c)
    if last is None:
        return None, [], len(parent)
    path = [last ^ c.win(last), last]
    while path[-1] != start:
        path.append(parent[path[-1]])
    path.reverse()
    texts = [c.move_text(path[k], path[k + 1]) for k in range(len(path) - 1)]
    return len(texts), texts, len(parent) + 1


def _options(argv: "Sequence[str]") -> tuple[str, bool] | None:
    """(file, json) when ``argv`` is exactly ``lockmaker solve --rush-file FILE`` with
    ``--json`` and ``--jobs N`` (N >= 1) at most, in any order; else None. ``--jobs`` is
    accepted and has nothing to do: this process solves the whole batch, a published puzzle
    costing a few milliseconds here, less than the fast solver's per-puzzle work that the
    ordinary path spreads over workers."""
    if len(argv) < 4 or list(argv[:3]) != ["lockmaker", "solve", "--rush-file"]:
        return None
    path, rest = argv[3], list(argv[4:])
    if path.startswith("-"):
        return None
    as_json = False
    while rest:
        arg = rest.pop(0)
        if arg == "--json" and not as_json:
            as_json = True
        elif arg == "--jobs" and rest and rest[0].isdigit() and int(rest[0]) >= 1:
            rest.pop(0)
        else:
            return None
    return path, as_json


_PLAIN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.+")


def _json(name: str, moves: int | None, texts: list[str], states: int) -> str:
    """``json.dumps`` of the ordinary path's record, without importing json (and re): move
    texts are plain ASCII; an unusual name goes through json itself."""
    if not set(name) <= _PLAIN:
        import json

        return json.dumps({"name": name, "solvable": moves is not None, "moves": moves,
                           "solution": texts, "states": states})
    sol = ", ".join(f'"{t}"' for t in texts)
    return (f'{{"name": "{name}", "solvable": {"false" if moves is None else "true"}, '
            f'"moves": {"null" if moves is None else moves}, "solution": [{sol}], '
            f'"states": {states}}}')


def quick(argv: "Sequence[str]") -> int | None:
    """Run the command if it is a plain ``--rush-file`` batch; None: nothing was printed and
    the ordinary command line takes over. Every line is read before any is solved, so a bad
    line anywhere leaves the whole file to the ordinary path and its LM-12 message."""
    got = _options(argv)
    if got is None:
        return None
    path, as_json = got
    from arena.core.readfile import Refused, read_text

    try:
        text = read_text(path, RUSH_FILE_LIMIT, "a Rush Hour file")
    except Refused:  # the ordinary path reads it again and says why in one line
        return None
    puzzles: list[tuple[str, tuple[int, list[Piece]]]] = []
    for line in text.splitlines():
        fields = line.split()
        if not fields or fields[0].startswith(("#", ";")):
            continue
        if len(fields) < 2:
            return None
        parsed = parse(fields[1])
        if parsed is None:
            return None
        puzzles.append((fields[0], parsed))
    if not puzzles:
        return None
    out = sys.stdout
    for name, (walls, pieces) in puzzles:
        moves, texts, states = solve(walls, pieces)
        if as_json:
            out.write(_json(name, moves, texts, states) + "\n")
        else:
            verdict = "impossible" if moves is None else f"{moves} moves"
            out.write(f"{name}: {verdict} ({states} states)\n")
        out.flush()
    return 0
