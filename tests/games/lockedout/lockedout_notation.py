"""Locked Out!'s notation as tokens (LO-10), for the checks that no line a reader is shown
holds notation (``tests/web/test_log_words.py``).

Built from the parser's own token shapes (``arena.games.lockedout.commands``: its safe and
separator patterns, the words of each command): a whole command (``Solo, Safe C, Left 3
Right 1``, ``Dual, Safe C, Left 4 with Alice``, ``Bargain, Safe C, Claim 1 Gold bars, 0
Keys``, ``Vote Alice``) and the pieces a line could quote of one (``Left 3 Right 1``,
``Right 2 with Bob``, ``Claim 1 Gold bars``, ``Solo, Safe C``). Plain words about the same
facts ("3 on the left and 1 on the right", "you voted for Bob", "claimed 2 gold bars") are
not notation."""

from __future__ import annotations

import re

from arena.games.lockedout.commands import _SAFE, _SEP

_I = "(?i:{})".format
_NUM = r"\s*\d+"
TOKENS = (
    # A command's head and safe: "Solo, Safe C", "dual: safe c", "Bargain, Safe C".
    re.compile(r"\b" + _I(rf"(?:solo|dual|bargain){_SEP}{_SAFE}") + r"\b"),
    # A Solo's two numbers: "Left 3 Right 1", "left 3, right 1".
    re.compile(r"\b" + _I(rf"left{_NUM}{_SEP}right{_NUM}") + r"\b"),
    # A Dual's side, number and partner: "Left 4 with Alice".
    re.compile(r"\b" + _I(rf"(?:left|right){_NUM}{_SEP}with") + r"\s+\S"),
    # A claim: "Claim 1 Gold bars", "claims 2 gold bar".
    re.compile(r"\b" + _I(rf"claims?{_NUM}\s*gold\s*bars?") + r"\b"),
    # A vote: "Vote Alice", "vote for Bob", "Vote seat 3" (a name starts with a capital).
    re.compile(r"\b" + _I(r"vote\s+(?:for\s+)?") + r"(?:[A-Z][\w'-]*|" + _I(r"seat\s*\d+")
               + r")"),
)


def notation_in(text: str) -> str | None:
    """The first notation token found in ``text`` (the earliest in the text), else None."""
    hits = [m for pattern in TOKENS for m in [pattern.search(text)] if m]
    if not hits:
        return None
    return min(hits, key=lambda m: m.start()).group(0)
