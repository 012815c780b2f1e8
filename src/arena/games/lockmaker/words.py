"""What the server itself says of a Lockmaker round and match, made from the same facts the
events carry (a round's awards, a result's detail): the pages word those facts in
``lockmaker.js``; the result's reason and the tools' texts come from here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from arena.core.game import JSON

Who = Callable[[int], str]


@dataclass(frozen=True)
class Award:
    """Points one seat gets in a round, and why (LM-17..LM-19): ``why`` is a code, ``lock``
    the seat whose lock it concerns. A cap after a correct impossible call (LM-18) is an
    award of the points taken away (negative)."""

    seat: int
    points: int
    rule: str
    why: str
    lock: int

    def to_json(self) -> JSON:
        return {"seat": self.seat, "points": self.points, "rule": self.rule, "why": self.why,
                "lock": self.lock}


WHYS = ("solved", "faster", "fewer_moves", "call_right", "call_wrong", "counter_failed",
        "counter_fewer", "counter_not_fewer", "capped")


def _pts(n: int) -> str:
    return f"{'+' if n >= 0 else ''}{n}"


def award_words(a: Award, who: Who) -> str:
    """One award as a host says it, the page's words (``lockmaker.js``): "Bob declared
    Alice's lock impossible: correct, +5 (LM-18)"."""
    s, m, other = who(a.seat), who(a.lock), who(1 - a.seat)
    pts = f"{_pts(a.points)} ({a.rule})"
    return {
        "solved": f"{s} opened {m}'s lock: {pts}",
        "faster": f"{s} opened {m}'s lock faster: {pts}",
        "fewer_moves": f"{s} opened {m}'s lock in fewer moves: {pts}",
        "call_right": f"{s} declared {m}'s lock impossible: correct, {pts}",
        "call_wrong": f"{other} declared {s}'s lock impossible: wrong, {s} opened it, {pts}",
        "counter_failed": f"{m} did not countersolve in time: {_pts(a.points)} for {s} "
                          f"({a.rule})",
        "counter_fewer": f"{s} countersolved in fewer moves: {pts}",
        "counter_not_fewer": f"{m} countersolved, not in fewer moves: {_pts(a.points)} for {s} "
                             f"({a.rule})",
        "capped": f"{s}'s points this round are held to 1 after the correct impossible call "
                  f"({a.rule})",
    }[a.why]


def result_reason(detail: JSON, who: Who) -> str:
    """The result's reason from its detail (LM-20, LM-21)."""
    assert isinstance(detail, dict)
    decided, seat = detail.get("decided"), detail.get("seat")
    if decided == "reserve":
        assert isinstance(seat, int)
        return f"{who(seat)} ran out of reserve and loses (LM-21, G-3)"
    why = "reached the target" if detail.get("after") == "target" else "after the last round"
    if decided == "points":
        return f"more points {why} (LM-20)"
    if decided == "leader":
        assert isinstance(seat, int)
        return f"tied {why}; {who(seat)} led most recently (LM-20)"
    return f"tied {why} and nobody ever led: the DMO wins (LM-20, G-8)"
