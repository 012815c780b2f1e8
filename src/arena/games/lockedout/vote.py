"""LO-9's elimination vote as pure functions over plain values: the tally of the seats still
inside, the winners' choice among the tied seats, and the fallbacks (fewest keys, then gold
bars, then cards, then season garnets, then a draw).

Both the match (``vote="match"``, the vote as a phase of its own) and a season that holds the
vote as a step (``vote="season"``, SE-6) decide with these, so the two can never disagree. A
seat is a number of the Main Match's seats; the fallbacks read each seat's keys, bars and cards
either from the match's state or from a finished match's result detail
(:func:`facts_from_detail`), so a season can run them on a result alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

MATCH_CHANCE = "the match's chance"
SEASON_CHANCE = "the season's chance"


@dataclass(frozen=True)
class Tally:
    """The count of one vote (LO-9): a count per candidate (every candidate, in their order,
    zero included), the seats with the most votes, and the votes that counted as
    (voter, candidate) pairs, by voter."""

    counts: dict[int, int]
    leaders: tuple[int, ...]
    votes: tuple[tuple[int, int], ...]

    @property
    def chosen(self) -> int | None:
        """The candidate with strictly the most votes; None on a tie."""
        return self.leaders[0] if len(self.leaders) == 1 else None


def tally(votes: Mapping[int, int], voters: Sequence[int]) -> Tally:
    """The seats still inside vote among themselves (LO-9): ``votes`` maps a voter to the seat
    it named; a vote from a seat that is not a voter, or for one that is not a candidate, does
    not count, and a voter who did not vote abstains."""
    candidates = set(voters)
    counted = tuple((v, votes[v]) for v in sorted(votes)
                    if v in candidates and votes[v] in candidates)
    counts = {s: 0 for s in voters}
    for _, target in counted:
        counts[target] += 1
    top = max(counts.values())
    return Tally(counts, tuple(s for s in voters if counts[s] == top), counted)


@dataclass(frozen=True)
class SeatFacts:
    """What LO-9's fallbacks compare of a seat: its keys, gold bars and cards left."""

    keys: int = 0
    bars: int = 0
    cards: int = 0


def facts_from_detail(detail: Any, names: Sequence[str]) -> tuple[SeatFacts, ...]:
    """Each seat's keys, bars and cards from a Locked Out! result's detail (lists by seat, as
    :meth:`LockedOutGame.result` gives them, or maps by player name, as a result the host
    recorded by hand gives bars). A value the detail lacks, or cannot say, compares as 0."""
    detail = detail if isinstance(detail, Mapping) else {}

    def column(key: str) -> list[int]:
        raw = detail.get(key)
        out: list[int] = []
        for i, name in enumerate(names):
            if isinstance(raw, Sequence) and not isinstance(raw, str) and i < len(raw):
                value = raw[i]
            elif isinstance(raw, Mapping):
                value = raw.get(name, 0)
            else:
                value = 0
            ok = isinstance(value, int) and not isinstance(value, bool)
            out.append(value if ok else 0)
        return out

    keys, bars, cards = column("keys"), column("bars"), column("cards_left")
    return tuple(SeatFacts(k, b, c) for k, b, c in zip(keys, bars, cards, strict=True))


def winners_choice(tied: Sequence[int], winners: Collection[int],
                   votes: Mapping[int, int]) -> int | None:
    """LO-9: the winners (the escaped seats) choose among the tied seats by majority: the tied
    seat that more than half of them named, or None. Only winners' votes for a tied seat
    count; a winner who did not vote counts against every majority."""
    picks = {s: 0 for s in tied}
    for voter, target in votes.items():
        if voter in winners and target in picks:
            picks[target] += 1
    best = max(picks.values())
    if best * 2 > len(winners):
        return max(picks, key=lambda t: picks[t])
    return None


STEPS = ("keys", "bars", "cards", "garnets")
"""LO-9's fallbacks, in their order; ``"draw"`` when all of them leave a tie."""
STEP_WORDS = {"keys": "fewest keys", "bars": "fewest gold bars", "cards": "fewest cards",
              "garnets": "fewest season garnets"}


def step_words(step: str, chance: str = MATCH_CHANCE) -> str:
    """A fallback step (:data:`STEPS` or ``"draw"``) as the host says it."""
    if step == "draw":
        return f"still tied after keys, bars, cards and garnets: a draw from {chance}"
    return STEP_WORDS[step]


def fallback_step(tied: Sequence[int], facts: Sequence[SeatFacts], garnets: Sequence[int],
                  rng: random.Random) -> tuple[int, str]:
    """LO-9's fallbacks in order among ``tied``: fewest keys, gold bars, cards, season garnets
    (SE-3; none given: all 0); still tied, one draw from ``rng``, the chance of whoever
    holds the vote (the match's, or the season's when the season holds the vote, SE-6).
    Returns the seat and the deciding step as a code (:data:`STEPS` or ``"draw"``). The only
    draw is one ``rng.choice`` among the seats still tied, in ``tied``'s order."""
    keys: dict[str, Callable[[int], int]] = {
        "keys": lambda s: facts[s].keys,
        "bars": lambda s: facts[s].bars,
        "cards": lambda s: facts[s].cards,
        "garnets": lambda s: garnets[s] if s < len(garnets) else 0}
    left = list(tied)
    for step in STEPS:
        low = min(keys[step](s) for s in left)
        left = [s for s in left if keys[step](s) == low]
        if len(left) == 1:
            return left[0], step
    return rng.choice(left), "draw"


def fallback(tied: Sequence[int], facts: Sequence[SeatFacts], garnets: Sequence[int],
             rng: random.Random, *, chance: str = MATCH_CHANCE) -> tuple[int, str]:
    """:func:`fallback_step` with the step in words (``chance`` names whose chance a draw
    is), as a season that holds the vote words its own events (SE-6)."""
    seat, step = fallback_step(tied, facts, garnets, rng)
    return seat, step_words(step, chance)


NO_WINNERS = "no winners to break the tie"
NO_MAJORITY = "the winners reached no majority"
MOST_VOTES = "most votes"
MAJORITY = "the winners' majority among the tied"


WHY_WORDS = {"no_winners": NO_WINNERS, "no_majority": NO_MAJORITY}


@dataclass(frozen=True)
class How:
    """How LO-9 chose the Elimination Candidate, as facts: ``by`` ``"votes"`` (most votes),
    ``"majority"`` (the winners' majority among the tied) or ``"fallback"``, then ``why``
    the fallbacks decided (``"no_winners"``, ``"no_majority"``) and the ``step`` that did
    (:data:`STEPS` or ``"draw"``)."""

    by: str
    why: str | None = None
    step: str | None = None

    def facts(self) -> dict[str, str | None]:
        return {"how": self.by, "why": self.why, "step": self.step}

    def words(self, chance: str = MATCH_CHANCE) -> str:
        """The host's words, without the rule id (the caller adds it)."""
        if self.by == "votes":
            return MOST_VOTES
        if self.by == "majority":
            return MAJORITY
        return f"{WHY_WORDS[self.why or 'no_winners']}; {step_words(self.step or 'draw', chance)}"


def decide_tie(tied: Sequence[int], winners: Collection[int], votes: Mapping[int, int],
               facts: Sequence[SeatFacts], garnets: Sequence[int],
               rng: random.Random) -> tuple[int, How]:
    """LO-9 after a tied vote: the winners' majority among ``tied`` (``votes`` are the
    winners' votes); with no winners, or no majority, the fallbacks. Returns the chosen seat
    and how, as facts."""
    if winners:
        chosen = winners_choice(tied, winners, votes)
        if chosen is not None:
            return chosen, How("majority")
        why = "no_majority"
    else:
        why = "no_winners"
    seat, step = fallback_step(tied, facts, garnets, rng)
    return seat, How("fallback", why, step)


def break_tie(tied: Sequence[int], winners: Collection[int], votes: Mapping[int, int],
              facts: Sequence[SeatFacts], garnets: Sequence[int],
              rng: random.Random, *, chance: str = MATCH_CHANCE) -> tuple[int, str]:
    """:func:`decide_tie` with how in words (without the rule id, which the caller adds)."""
    seat, how = decide_tie(tied, winners, votes, facts, garnets, rng)
    return seat, how.words(chance)
