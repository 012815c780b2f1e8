"""Lockmaker's notation tokens, as the parsers read them: a move (LM-11: ``BC1 L1``,
``K R1``, ``E5 CW``), a cell or run of cells (G-1: ``E5``, ``BC1``, ``C34``, ``C9-11``), a
slide's direction and distance (``L1``), a draftable piece or a list of them (LM-22: ``H3``,
``V2``, ``X``, ``H2,V3,X``) and a row of a lock file (LM-10: ``..AAA.``, ``#KK...``, rows joined by
``/``). :func:`notation_in` finds the first of them in a text; the log-words test holds every
log line to having none."""

from __future__ import annotations

import re

_MOVE = re.compile(r"(?<![A-Za-z0-9])(?:K|[A-K]{1,11}\d{1,9}(?:-\d{1,2})?)[ \t]*"
                   r"(?:CCW|CW|180|[UDLR]\d{1,2})(?![A-Za-z0-9])", re.IGNORECASE)
_CELL = re.compile(r"(?<![A-Za-z0-9-])[A-K]{1,11}\d{1,9}(?:-\d{1,2})?(?![A-Za-z0-9])")
_SLIDE = re.compile(r"(?<![A-Za-z0-9-])[UDLR]\d{1,2}(?![A-Za-z0-9])")
_PIECE = re.compile(r"(?<![A-Za-z0-9-])[HV]\d{1,2}(?![A-Za-z0-9])")
_PIECE_LIST = re.compile(r"(?<![A-Za-z0-9])(?:[HV]\d{1,2}|X)(?:[ \t]*,[ \t]*(?:[HV]\d{1,2}|X))+"
                         r"(?![A-Za-z0-9])")
_AXIS = re.compile(r"(?<![A-Za-z0-9'-])X(?![A-Za-z0-9'])")
_ROW_RUN = re.compile(r"[.#@+A-Za-z/]{3,}")


def _lock_row(token: str) -> bool:
    """A run of lock-file characters reads as a row when it has a blocked cell, the keyhole or
    an axis, open cells beside a piece (five characters or more, or ``..``), or five pieces
    side by side; a word ending a sentence ("open."), an abbreviation ("e.g.") or an ellipsis
    ("wait...") does not; four open cells or more do."""
    if "...." in token:
        return True
    if len(token) >= 5 and token.isupper() and token.isalpha():
        return True  # a row full of pieces ("DDDBCK"): no word of the log is five capitals
    if any(c in token for c in "#@+"):
        return any(c.isalpha() or c == "." for c in token)
    if len(token) >= 5 and (re.search(r"\.[A-Za-z]", token) or re.search(r"[A-Z]{2}\.\.", token)):
        return True
    return ".." in token and re.search(r"\.[^./]", token) is not None


def notation_in(text: str) -> str | None:
    """The first Lockmaker notation token in ``text`` (by position), else None."""
    hits: list[tuple[int, str]] = []
    for pattern in (_MOVE, _PIECE_LIST, _CELL, _SLIDE, _PIECE, _AXIS):
        m = pattern.search(text)
        if m:
            hits.append((m.start(), m.group(0)))
    for m in _ROW_RUN.finditer(text):
        if _lock_row(m.group(0)):
            hits.append((m.start(), m.group(0)))
            break
    if not hits:
        return None
    return min(hits, key=lambda h: (h[0], -len(h[1])))[1]
