"""Move notation (LM-11) and solution replay.

A slide is ``<piece> <direction><cells>`` (``BC1 L1``, ``C34 D2``, ``K R1``); a piece is named by
its run of cells (G-1), by any one of its cells, or ``K`` for the key. A rotation is
``<axis cell> CW``, ``CCW`` or ``180`` (``E5 CW``). A solution is one move per line or moves
separated by commas. Case and spaces are free.

Parsing is in two steps because names refer to where pieces stand *now*: :func:`parse_solution`
reads the text (ParseError with line and column), :func:`resolve_move` finds the piece in a
given position (RuleError naming the rule), and :func:`replay` walks a whole solution.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from arena.core.errors import ParseError, RuleError
from arena.games.lockmaker.board import LETTERS, Board
from arena.games.lockmaker.moves import Move, Rotate, Slide, apply_move
from arena.games.lockmaker.pieces import bar_cells
from arena.games.lockmaker.position import Position

_MOVE = re.compile(r"^(K|[A-K]+\d+(?:-\d+)?)(CCW|CW|180|[UDLR]\d+)$")
_NUMBERING = re.compile(r"^\s*\d+\s*[.)]\s+")
"""A leading ``12.`` or ``12)`` (as in the solver's numbered listing) is ignored."""


@dataclass(frozen=True)
class MoveText:
    """One move as written: ``piece`` (``K`` or cell letters and digits) and ``action``
    (``CW``/``CCW``/``180`` or a direction letter with ``distance``)."""

    piece: str
    action: str
    distance: int
    text: str
    line: int
    column: int

    def __str__(self) -> str:
        if self.action in ("CW", "CCW", "180"):
            return f"{self.piece} {self.action}"
        return f"{self.piece} {self.action}{self.distance}"


def parse_move_text(text: str, *, line: int = 1, column: int = 1) -> MoveText:
    squeezed = "".join(text.split()).upper()
    m = _MOVE.match(squeezed)
    if not m:
        raise ParseError("LM-11", f"cannot read move {text.strip()!r}: write a slide like "
                                  "'BC1 L1' or 'K R1', or a turn like 'E5 CW'",
                         line=line, column=column)
    piece, action = m.group(1), m.group(2)
    if action in ("CW", "CCW", "180"):
        return MoveText(piece, action, 0, text.strip(), line, column)
    distance = int(action[1:])
    if distance < 1:
        raise ParseError("LM-5", f"move {text.strip()!r}: a slide moves at least one cell",
                         line=line, column=column)
    return MoveText(piece, action[0], distance, text.strip(), line, column)


def parse_solution(text: str) -> list[MoveText]:
    """Every move of a solution text, in order (lines and commas both separate moves)."""
    out: list[MoveText] = []
    for no, raw in enumerate(text.splitlines(), 1):
        col = 1
        numbering = _NUMBERING.match(raw)
        if numbering:
            col += numbering.end()
            raw = raw[numbering.end():]
        for part in raw.split(","):
            stripped = part.strip()
            if stripped and not stripped.startswith(";"):
                lead = len(part) - len(part.lstrip())
                out.append(parse_move_text(part, line=no, column=col + lead))
            col += len(part) + 1
    return out


def named_cells(board: Board, name: str) -> list[int]:
    """The cells a G-1 name stands for: one cell, ``BC1``, ``C34`` or ``C9-11``."""
    m = re.match(r"^([A-K]+)(\d+)(?:-(\d+))?$", name)
    if not m:
        raise RuleError("G-1", f"{name!r} is not a cell or run of cells")
    letters, digits, upto = m.group(1), m.group(2), m.group(3)

    def cell(letter: str, row: int) -> int:
        col = LETTERS.index(letter)
        if not board.inside(col, row - 1):
            raise RuleError("G-1", f"{letter}{row} is not on this board")
        return board.cell(col, row - 1)

    if len(letters) > 1:
        if upto is not None:
            raise RuleError("G-1", f"{name!r}: a run is either letters then a row or a letter "
                                   "then rows")
        cols = [LETTERS.index(ch) for ch in letters]
        if any(b != a + 1 for a, b in itertools.pairwise(cols)):
            raise RuleError("G-1", f"{name!r}: the letters of a run are consecutive")
        return [cell(ch, int(digits)) for ch in letters]
    if upto is not None:
        lo, hi = int(digits), int(upto)
        if hi <= lo:
            raise RuleError("G-1", f"{name!r}: a run of rows goes downward")
        return [cell(letters, r) for r in range(lo, hi + 1)]
    if digits[0] != "0" and int(digits) <= board.height:
        return [cell(letters, int(digits))]
    rows = [int(ch) for ch in digits]
    if len(rows) < 2 or any(b != a + 1 for a, b in itertools.pairwise(rows)):
        raise RuleError("G-1", f"{name!r} is not a cell of this board nor a run of rows")
    return [cell(letters, r) for r in rows]


def resolve_move(pos: Position, mt: MoveText) -> Move:
    """The move ``mt`` names in ``pos`` (not yet checked for legality beyond naming)."""
    board = pos.board
    if mt.action in ("CW", "CCW", "180"):
        cells = named_cells(board, mt.piece) if mt.piece != "K" else []
        if len(cells) != 1 or cells[0] not in pos.axes:
            raise RuleError("LM-6", f"{mt.piece} is not an axis: only an axis turns")
        return Rotate(cells[0], mt.action)
    if mt.piece == "K":
        return Slide(pos.key, mt.action, mt.distance, True)
    cells = named_cells(board, mt.piece)
    if len(cells) == 1:
        c = cells[0]
        if c in pos.axes:
            raise RuleError("LM-6", f"{mt.piece} is an axis: an axis never slides")
        if c == pos.keyhole:
            raise RuleError("LM-2", f"{mt.piece} is the keyhole: it never moves")
        bar = pos.piece_at(c)
        if bar is None:
            raise RuleError("LM-11", f"there is no piece on {mt.piece}")
    else:
        bar = next((b for b in pos.pieces if sorted(bar_cells(board, b)) == sorted(cells)), None)
        if bar is None:
            raise RuleError("LM-11", f"no piece lies exactly on {mt.piece}")
    return Slide(bar, mt.action, mt.distance, bar == pos.key)


def format_move(board: Board, move: Move) -> str:
    if isinstance(move, Rotate):
        return f"{board.name(move.axis)} {move.turn}"
    name = "K" if move.key else board.run_name(bar_cells(board, move.bar))
    return f"{name} {move.direction}{move.distance}"


def format_solution(board: Board, moves: Iterable[Move]) -> list[str]:
    return [format_move(board, m) for m in moves]


@dataclass(frozen=True)
class Replay:
    """A solution played out. ``error`` (with ``failed_at``, 1-based) if a move was illegal;
    then ``moves`` is the number of legal moves before it."""

    final: Position
    played: tuple[Move, ...]
    error: str | None = None
    failed_at: int | None = None
    rule: str | None = None
    reason: str | None = None

    @property
    def moves(self) -> int:
        return len(self.played)

    @property
    def valid(self) -> bool:
        return self.error is None

    @property
    def solved(self) -> bool:
        return self.valid and self.final.solved


def replay(pos: Position, solution: str | Sequence[MoveText]) -> Replay:
    """Play ``solution`` from ``pos``; a syntax error raises ParseError, an illegal move is
    reported in the result with its index, its text and the rule it breaks."""
    texts = parse_solution(solution) if isinstance(solution, str) else list(solution)
    cur = pos
    played: list[Move] = []
    for i, mt in enumerate(texts, 1):
        try:
            move = resolve_move(cur, mt)
            cur = apply_move(cur, move)
        except RuleError as exc:
            return Replay(cur, tuple(played), f"move {i} ({mt.text}): {exc}", i, exc.rule,
                          f"move {i} ({mt.text}): {exc.message}")
        played.append(move)
    return Replay(cur, tuple(played))
