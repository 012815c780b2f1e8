"""Counts in a host's words: "1 key", "2 keys" (a player reads "1 keys" as a program's slip)."""

from __future__ import annotations


def counted(n: int, one: str, many: str | None = None) -> str:
    """``n`` with its noun in the right number (``many`` where adding an s is wrong)."""
    return f"{n} {one if abs(n) == 1 else many or one + 's'}"
