"""Is a lock a legal construction for a drafted hand? (LM-15, pieces as in LM-22.)

Every problem is listed, not just the first, so a maker can fix them all at once: the board
shape (when a round's board is given), the placement rules of :meth:`Position.problems`, and
the pieces used against the pieces drafted (each drafted piece used, in its drafted
orientation, LM-4; nothing extra).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from arena.core.errors import RuleError
from arena.games.lockmaker.board import Board
from arena.games.lockmaker.pieces import PieceKind, kind_of
from arena.games.lockmaker.position import Position


def used_pieces(pos: Position) -> Counter[PieceKind]:
    """The draftable pieces a lock uses (bars by size and orientation, and axes)."""
    out: Counter[PieceKind] = Counter(kind_of(b) for b in pos.bars)
    if pos.axes:
        out[PieceKind("X")] = len(pos.axes)
    return out


def construction_problems(pos: Position, drafted: Iterable[PieceKind],
                          board: Board | None = None) -> list[str]:
    """Every reason ``pos`` is not a valid lock for ``drafted`` on ``board`` (empty: valid)."""
    out: list[str] = []
    if board is not None:
        if (pos.board.width, pos.board.height) != (board.width, board.height):
            out.append(f"LM-13: the round's board is {board.width} x {board.height}, this lock is "
                       f"{pos.board.width} x {pos.board.height}")
        elif pos.board.blocked != board.blocked:
            diff = sorted(pos.board.blocked ^ board.blocked)
            names = ", ".join(board.name(c) for c in diff)
            out.append(f"LM-13: the blocked cells differ from the round's board at {names}")
    out.extend(pos.problems())
    if not out and pos.solved:
        out.append("LM-15: the lock is already open (the key already touches the keyhole, LM-3); "
                   "every solution needs at least one move")
    want: Counter[PieceKind] = Counter(drafted)
    have = used_pieces(pos)
    for kind in sorted(set(want) | set(have)):
        w, h = want[kind], have[kind]
        if h < w:
            out.append(f"LM-15: {w - h} drafted {kind} not used (every drafted piece is used)")
        elif h > w:
            what = "axis" if kind.is_axis else f"{kind} bar"
            out.append(f"LM-15: {h - w} {what} more than drafted (a lock uses exactly the "
                       "drafted pieces; bars keep their drafted orientation, LM-4)")
    return out


def construction_error(problems: list[str], lead: str = "") -> RuleError:
    """One error for a list of ``"LM-n: reason"`` problems, named by the first one's rule.

    The problems carry their own ids, so the error takes the first id as its rule and keeps
    the others inline; prefixing them again would print ``LM-15: LM-15: ...``."""
    first = problems[0]
    rule, sep, rest = first.partition(": ")
    if not sep or not rule.replace("-", "").isalnum():
        rule, rest = "LM-15", first
    return RuleError(rule, lead + "; ".join([rest, *problems[1:]]))
