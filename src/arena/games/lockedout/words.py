"""The texts the server writes for Locked Out! (the state's end reason, how the Elimination
Candidate was chosen, the result's reason), made from the same facts the events carry, so
the page (``web/static/games/lockedout.js``) and the server say the same thing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.core.wording import counted


def names_words(names: Sequence[str]) -> str:
    """"Alice", "Alice and Bob", "Alice, Bob and Carol"."""
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def end_words(facts: Mapping[str, Any]) -> str:
    """Why the vault is done (LO-8), from a ``vault_done`` event's facts."""
    reason = facts.get("reason")
    rounds = int(facts.get("rounds") or 0)
    if reason == "all_opened":
        return "every safe has been opened (LO-8)"
    if reason == "all_escaped":
        return "everyone has escaped (LO-8)"
    if reason == "stuck":
        return "no closed safe can be opened with the cards left inside (LO-8)"
    if reason == "limit":
        return f"the host's limit of {counted(rounds, 'round')} was reached (LO-8)"
    return (f"the longest a match may run, {counted(rounds, 'round')}, was reached (LO-8 "
            "sets no limit of its own; the host may set a shorter one)")


def escape_words(names: Sequence[str], escaped: Sequence[int], winners: Sequence[int]) -> str:
    """Who escaped, the winners first (LO-8): "Alice escaped with the most gold bars; Bob
    escaped too", "Alice and Bob escaped tied for the most gold bars", "nobody escaped"."""
    if not escaped:
        return "nobody escaped"
    best = [names[w] for w in winners]
    others = [names[s] for s in escaped if s not in winners]
    if len(best) == 1:
        head = f"{best[0]} escaped with the most gold bars"
    else:
        head = f"{names_words(best)} escaped tied for the most gold bars"
    if others:
        head += f"; {names_words(others)} escaped too"
    return head


def ec_words(names: Sequence[str], ec: int | None, how: str) -> str:
    """Who is the Elimination Candidate and how LO-9 chose them (``how`` as the state keeps
    it, "most votes (LO-9)"), or the empty string when the match named none: "Dave is the
    Elimination Candidate (LO-9: the winners reached no majority, then fewest keys)"."""
    if ec is None:
        return ""
    bare = how.removesuffix(" (LO-9)").replace("; ", ", then ")
    return f"{names[ec]} is the Elimination Candidate (LO-9: {bare})"
