"""The steps after a Main Match (SE-3) and the Death Match's end (SE-4), each refusing what
the rulings forbid with the rule named."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.core.errors import RuleError
from arena.season.ledger import Entry, Ledger

MAX_REASON = 300


@dataclass(frozen=True)
class MainResult:
    """What a season needs from a Main Match's result (LO-8, LO-9), by player name
    (:meth:`arena.season.mainmatch.MainMatchRules.result`)."""

    escaped: tuple[str, ...]
    trapped: tuple[str, ...]
    bars: dict[str, int]
    winners: tuple[str, ...]
    opal: str | None
    ec: str | None

    @property
    def solo_winner(self) -> str | None:
        """SE-3: one escaped player with strictly the most bars."""
        return self.winners[0] if len(self.winners) == 1 else None


def record_main(ledger: Ledger, episode: int, mm: MainResult) -> None:
    """SE-3's automatic steps: garnets (one per two bars of an escaped player) and the opal."""
    for name in mm.escaped:
        if mm.bars[name] // 2:
            ledger.add(Entry(episode, name, "garnets", mm.bars[name] // 2,
                             f"escaped with {mm.bars[name]} gold bars (SE-3)"))
    if mm.opal is not None:
        ledger.add(Entry(episode, mm.opal, "opal", 1, "opened the most safes (LO-8)"))


def gift_targets(mm: MainResult) -> list[str]:
    """Who the solo winner may give its Token of Life to: another escaped player (SE-3)."""
    return [n for n in mm.escaped if n != mm.solo_winner]


def give_tol(ledger: Ledger, episode: int, mm: MainResult, receiver: str) -> None:
    giver = mm.solo_winner
    if giver is None:
        raise RuleError("SE-3", "only a solo winner gains a Token of Life to give")
    if receiver == giver:
        raise RuleError("SE-3", "the solo winner must give its Token of Life to another player")
    if receiver not in mm.escaped:
        raise RuleError("SE-3", f"{receiver} is still trapped: the token goes to another "
                                "escaped player")
    ledger.add(Entry(episode, receiver, "tol", 1, f"gift of the solo winner {giver} (SE-3)"))


def nominees(ledger: Ledger, mm: MainResult, ec: str) -> list[str]:
    """Who the EC may nominate (SE-3): with 3+ trapped, another trapped player; otherwise any
    player still in without a ToL; never a ToL holder, unless that leaves nobody."""
    standings = ledger.standings()
    still_in = [n for n in ledger.cast if standings[n].still_in and n != ec]
    pool = [n for n in mm.trapped if n != ec] if len(mm.trapped) >= 3 else still_in
    allowed = [n for n in pool if standings[n].tols == 0]
    return allowed or still_in


def check_nomination(ledger: Ledger, mm: MainResult, ec: str, dmo: str) -> None:
    allowed = nominees(ledger, mm, ec)
    if dmo in allowed:
        return
    standings = ledger.standings()
    if dmo in standings and standings[dmo].tols:
        raise RuleError("SE-3", f"{dmo} holds a Token of Life and cannot be nominated")
    raise RuleError("SE-3", f"{ec} may nominate {', '.join(allowed)}, not {dmo}")


def record_death_match(ledger: Ledger, episode: int, game: str, winner: str, loser: str,
                       final: bool, cause: str = "") -> None:
    """SE-4: the loser is eliminated; in the final DM the winner wins the season (SE-1)."""
    why = cause or f"lost the Death Match ({game})"
    ledger.add(Entry(episode, loser, "eliminated", 1, f"{why} (SE-4)"))
    if final:
        ledger.add(Entry(episode, winner, "winner", 1, f"won the final Death Match ({game}) "
                                                       "(SE-1)"))


def main_to_json(mm: MainResult) -> dict[str, Any]:
    return {"escaped": list(mm.escaped), "trapped": list(mm.trapped), "bars": dict(mm.bars),
            "winners": list(mm.winners), "opal": mm.opal, "ec": mm.ec}


def main_from_json(data: Any, players: tuple[str, ...], *, voted: bool = True) -> MainResult:
    """A Main Match result, checked against who played it: recorded by hand (SE-2), or read
    from a match played here. ``voted`` is False for a match that ended before its vote (the
    host ended it or closed the vault, SE-6): it may name no Elimination Candidate, and the
    host then names one of the trapped players."""
    if not isinstance(data, dict):
        raise RuleError("SE-2", "a Main Match result needs 'escaped', 'trapped', 'bars', "
                                "'winners', 'opal' and 'ec'")

    def names(key: str) -> tuple[str, ...]:
        raw = data.get(key) or []
        if not isinstance(raw, list) or not all(isinstance(n, str) for n in raw):
            raise RuleError("SE-2", f"'{key}' must be a list of players")
        for n in raw:
            if n not in players:
                raise RuleError("SE-2", f"{n} did not play this Main Match")
        return tuple(raw)

    escaped, trapped = names("escaped"), names("trapped")
    if set(escaped) & set(trapped) or set(escaped) | set(trapped) != set(players) \
            or len(escaped) + len(trapped) != len(players):
        raise RuleError("SE-2", "every player of the Main Match either escaped or is trapped, "
                                "not both")
    bars_raw = data.get("bars") or {}
    if not isinstance(bars_raw, dict):
        raise RuleError("SE-2", "'bars' maps each player to a whole number of gold bars")
    bars: dict[str, int] = {}
    for n in players:
        b = bars_raw.get(n, 0)
        if isinstance(b, bool) or not isinstance(b, int) or not 0 <= b <= 10**6:
            raise RuleError("SE-2", f"the gold bars of {n} must be a whole number")
        # The trapped keep their bars in the record, as the match's result shows them; only
        # the escaped turn bars into garnets (SE-3).
        bars[n] = b
    winners = names("winners") if data.get("winners") is not None else ()
    if not winners and escaped:
        best = max(bars[n] for n in escaped)
        winners = tuple(n for n in escaped if bars[n] == best)
    if any(w not in escaped for w in winners):
        raise RuleError("LO-8", "only an escaped player can win the Main Match")
    opal = data.get("opal")
    if opal is not None and opal not in players:
        raise RuleError("LO-8", f"{opal} did not play this Main Match")
    ec = data.get("ec")
    if ec is not None and ec not in trapped:
        raise RuleError("LO-9", "the Elimination Candidate is one of the trapped players")
    if ec is None and len(trapped) == 1:
        ec = trapped[0]  # LO-8: the only seat still inside is the EC; nobody votes
    if ec is None and trapped and voted:
        raise RuleError("LO-9", "name the Elimination Candidate the trapped players voted")
    return MainResult(escaped, trapped, bars, winners, opal, ec)


def reason_of(data: dict[str, Any], rule: str, what: str) -> str:
    reason = " ".join(str(data.get("reason") or "").split())
    if not reason:
        raise RuleError(rule, f"{what} needs a written reason")
    return reason[:MAX_REASON]
