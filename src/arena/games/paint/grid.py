"""The 5 x 5 grid, shoves and a turn's action (PF-1, PF-2, PF-3).

A grid is a 25-character string, row by row from A1 (G-1: A1 top-left, rows grow downward),
one of ``R``, ``G``, ``B`` or ``.`` (empty) per cell. A string is immutable, hashable and cheap
to slice, which keeps the search bots fast and states trivially comparable for replay.

Notation (the text a seat submits for a turn, PF-3):

- ``1`` .. ``5``: shove that row (the container in column A moves right, PF-2);
- ``A`` .. ``E``: shove that column (the container in row 1 moves down);
- ``B then 1``, ``A then 2``, ``1 then C``: one of each, in the order written.

``shove`` may prefix the text (the rule text's own wording, "Shove A then 2"); ``,`` or a space
may stand for ``then``; case is free.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from arena.core.errors import ParseError, RuleError

SIZE = 5
CELLS = SIZE * SIZE
EMPTY = "."
COLOURS = "RGB"
COLUMNS = "ABCDE"
ROWS = "12345"
EMPTY_GRID = EMPTY * CELLS


def cell_name(index: int) -> str:
    """``0`` -> ``A1`` (G-1)."""
    return f"{COLUMNS[index % SIZE]}{index // SIZE + 1}"


def cell_index(name: str) -> int:
    """``A1`` -> ``0``; raises ParseError for anything that is not a cell of the grid."""
    text = name.strip().upper()
    if len(text) != 2 or text[0] not in COLUMNS or text[1] not in ROWS:
        raise ParseError("PF-1", f"{name!r} is not a cell: columns A-E, rows 1-5")
    return (int(text[1]) - 1) * SIZE + COLUMNS.index(text[0])


def parse_grid(text: str) -> str:
    """Read 5 lines of 5 letters ``R``/``G``/``B`` (``.`` for empty allowed) into a grid.

    Blank lines and spaces between letters are ignored; lines starting with ``;`` or ``#`` are
    comments.
    """
    rows: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith((";", "#")):
            continue
        row = line.replace(" ", "").upper()
        if len(row) != SIZE:
            raise ParseError("PF-1", f"a row has {SIZE} cells, this one has {len(row)}",
                             line=number)
        for col, ch in enumerate(row, start=1):
            if ch not in COLOURS and ch != EMPTY:
                raise ParseError("PF-1", f"{ch!r} is not a colour: use R, G, B (or . for empty)",
                                 line=number, column=col)
        rows.append(row)
    if len(rows) != SIZE:
        raise ParseError("PF-1", f"a grid has {SIZE} rows, got {len(rows)}")
    return "".join(rows)


def grid_rows(grid: str) -> list[str]:
    return [grid[r * SIZE:(r + 1) * SIZE] for r in range(SIZE)]


def format_grid(grid: str) -> str:
    return "\n".join(grid_rows(grid))


def is_row(name: str) -> bool:
    return name in ROWS


def line_words(name: str) -> str:
    """A row or column in words: ``1`` -> ``row 1``, ``A`` -> ``column A``."""
    return f"row {name}" if name in ROWS else f"column {name}"


def shove_fact(name: str) -> dict[str, str | int]:
    """One shove as a fact (PF-2): ``{"row": 1, "direction": "right"}`` or
    ``{"column": "A", "direction": "down"}``."""
    if name in ROWS:
        return {"row": int(name), "direction": "right"}
    return {"column": name, "direction": "down"}


def shove_error(grid: str, name: str) -> str | None:
    """Why shoving ``name`` (a row digit or column letter) is illegal now, in words, or None
    (PF-2)."""
    if name in ROWS:
        r = int(name) - 1
        start, step, head = r * SIZE, 1, f"A{name}"
    elif name in COLUMNS:
        c = COLUMNS.index(name)
        start, step, head = c, SIZE, f"{name}1"
    else:
        return "a shove names a row, numbered 1 to 5, or a column, lettered A to E"
    where = line_words(name)
    if grid[start] == EMPTY:
        return f"{where} cannot be shoved: there is no container on {head}"
    for k in range(1, SIZE):
        if grid[start + k * step] == EMPTY:
            return None
    return f"{where} cannot be shoved: it is full, its containers have nowhere to go"


def shove(grid: str, name: str) -> str:
    """The grid after shoving row or column ``name`` (PF-2): the unbroken run starting at the
    named edge cell moves one cell into the first empty cell beyond it."""
    if name in ROWS:
        start, step = (int(name) - 1) * SIZE, 1
    elif name in COLUMNS:
        start, step = COLUMNS.index(name), SIZE
    else:
        raise ParseError("PF-2", "a shove names a row, numbered 1 to 5, or a column, "
                                 "lettered A to E")
    if grid[start] == EMPTY:
        raise RuleError("PF-2", shove_error(grid, name) or "")
    cells = list(grid)
    for k in range(1, SIZE):
        idx = start + k * step
        if cells[idx] == EMPTY:
            # shift the run start .. idx-step one cell along
            for j in range(k, 0, -1):
                cells[start + j * step] = cells[start + (j - 1) * step]
            cells[start] = EMPTY
            return "".join(cells)
    raise RuleError("PF-2", shove_error(grid, name) or "")


@dataclass(frozen=True, order=True)
class Action:
    """A turn's action (PF-3): one shove, or a row shove and a column shove in either order.

    ``str()`` is the notation and parses back with :func:`parse_action`.
    """

    first: str
    second: str | None = None

    def __str__(self) -> str:
        return self.first if self.second is None else f"{self.first} then {self.second}"

    def to_json(self) -> dict[str, list[dict[str, str | int]]]:
        """The action as facts, its shoves in order (PF-2, PF-3): a row shove moves right, a
        column shove down."""
        return {"shoves": [shove_fact(n) for n in self.shoves]}

    def words(self) -> str:
        """``column A down, then row 2 right``: the action as the server's texts say it."""
        return ", then ".join(f"{line_words(n)} {'right' if n in ROWS else 'down'}"
                              for n in self.shoves)

    @property
    def shoves(self) -> tuple[str, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


_SPLIT = re.compile(r"\bthen\b|[,;\s]+")


def parse_action(text: str) -> Action:
    """Read ``1``, ``A``, ``B then 1`` (also ``shove B then 1``, ``b,1``, ``B 1``)."""
    raw = text.strip().lower()
    if raw.startswith("shove"):
        raw = raw[5:]
    parts = [p for p in _SPLIT.split(raw) if p]
    names = [p.upper() for p in parts]
    if not names or len(names) > 2:
        raise ParseError("PF-3", "a turn's action is one shove, a row number 1 to 5 or a column "
                                 "letter A to E, or one of each joined by then")
    for n in names:
        if len(n) != 1 or (n not in ROWS and n not in COLUMNS):
            raise ParseError("PF-2", "a shove names a row, numbered 1 to 5, which moves right, "
                                     "or a column, lettered A to E, which moves down")
    if len(names) == 2 and is_row(names[0]) == is_row(names[1]):
        kind = "rows" if is_row(names[0]) else "columns"
        raise RuleError("PF-3", f"an action is one row shove and one column shove, not two {kind}")
    return Action(names[0], names[1] if len(names) == 2 else None)


def apply_action(grid: str, action: Action) -> str:
    """The grid after ``action``; raises RuleError naming PF-2 (a shove that cannot happen) or
    PF-3 (A1 not empty afterwards)."""
    if grid[0] == EMPTY:
        raise RuleError("PF-3", "there is no container on A1 to make room for")
    out = grid
    for name in action.shoves:
        why = shove_error(out, name)
        if why is not None:
            raise RuleError("PF-2", why)
        out = shove(out, name)
    if out[0] != EMPTY:
        raise RuleError("PF-3", f"after shoving {action.words()} A1 still holds a container; "
                                "the action must clear A1")
    return out


def _candidates() -> tuple[Action, ...]:
    acts: list[Action] = [Action("1"), Action("A")]
    for c in COLUMNS[1:]:
        acts.append(Action(c, "1"))
        acts.append(Action("1", c))
    for r in ROWS[1:]:
        acts.append(Action("A", r))
        acts.append(Action(r, "A"))
    return tuple(acts)


CANDIDATES = _candidates()
"""Every action that can clear A1 (PF-3): a column shove not on A leaves A1 as it is, and so does
a row shove not on 1, so a two-shove action pairs row 1 with a column or column A with a row."""


def legal_actions(grid: str) -> list[tuple[Action, str]]:
    """Every legal action of the turn with the grid it leaves (PF-3), in a fixed order."""
    out: list[tuple[Action, str]] = []
    if grid[0] == EMPTY:
        return out
    for action in CANDIDATES:
        g = grid
        ok = True
        for name in action.shoves:
            if shove_error(g, name) is not None:
                ok = False
                break
            g = shove(g, name)
        if ok and g[0] == EMPTY:
            out.append((action, g))
    return out


def next_grids(grid: str) -> list[tuple[Action, str]]:
    """Like :func:`legal_actions` but one action per distinct resulting grid (for search)."""
    seen: set[str] = set()
    out: list[tuple[Action, str]] = []
    for action, g in legal_actions(grid):
        if g not in seen:
            seen.add(g)
            out.append((action, g))
    return out


def place(grid: str, colour: str) -> str:
    """A new container entering at A1 (PF-3)."""
    if grid[0] != EMPTY:
        raise RuleError("PF-3", "A1 is not empty")
    return colour + grid[1:]


def count_filled(grid: str) -> int:
    return CELLS - grid.count(EMPTY)
