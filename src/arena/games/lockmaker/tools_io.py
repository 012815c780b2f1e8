"""Reading the LOCK argument of the ``arena lockmaker`` tools, shared by both of its modules."""

from __future__ import annotations

from arena.core.errors import RuleError
from arena.core.tools import PUZZLE_LIMIT, read_text_arg
from arena.games.lockmaker.lockfile import read_lock
from arena.games.lockmaker.position import Position
from arena.games.lockmaker.rush import read_rush


def load_position(lock: str | None, rush: str | None) -> Position:
    """A lock file (``-`` for stdin) or a Rush Hour string (LM-10, LM-12)."""
    if rush is not None:
        return read_rush(rush)
    if lock is None:
        raise RuleError("LM-10", "give a lock file (or - for stdin) or --rush STRING")
    return read_lock(read_text_arg(lock, "a lock file", PUZZLE_LIMIT))
