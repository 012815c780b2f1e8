"""A Locked Out! result as the season reads it (SE-3, SE-6): who escaped, who is trapped, the
winners and bars (LO-8), the opal, and the Elimination Candidate if the match named one
(LO-9). When the season holds the vote itself, LO-9's fallbacks read each seat's keys, bars
and cards from the same result's detail (:func:`arena.games.lockedout.vote.facts_from_detail`).

The season's own value, :class:`arena.season.steps.MainResult`, is by player name, since a
season knows its players by name and a Main Match seats only some of them (SE-1).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from arena.games.lockedout import vote
from arena.season.mainmatch import Facts, MainOptions
from arena.season.steps import MainResult


def main_result(result: Any, names: Sequence[str]) -> MainResult:
    """The season's Main Match result from a Locked Out! match's ``Result.to_json()``, whose
    seats are the players ``names``. A result without the game's detail (a match that holds
    its own vote and was ended by the host) or with a damaged one raises ValueError, never
    anything else, so the season can ask the host to record it (SE-2, SE-6)."""
    detail = result.get("detail") if isinstance(result, dict) else None
    return main_from_detail(detail, names)


def main_from_detail(detail: Any, names: Sequence[str]) -> MainResult:
    """:func:`main_result` from the result's detail alone (a detail scored as it stands,
    SE-6). With one seat trapped and no EC named, that seat is the EC: nobody votes (LO-9,
    SE-6)."""
    if not isinstance(detail, dict):
        raise ValueError("the Main Match's result has no Locked Out! scores")
    try:
        def who(seats: list[int]) -> tuple[str, ...]:
            return tuple(names[s] for s in seats)

        trapped = who(detail["losers"])
        ec = detail.get("ec")
        ec_name = names[ec] if ec is not None else trapped[0] if len(trapped) == 1 else None
        return MainResult(escaped=who(detail["escaped"]), trapped=trapped,
                          bars={names[i]: int(b) for i, b in enumerate(detail["bars"])},
                          winners=who(detail["winners"]),
                          opal=None if detail.get("opal") is None else names[detail["opal"]],
                          ec=ec_name)
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as exc:
        raise ValueError(f"the Main Match's result cannot be read ({exc!r})") from None



class LockedOutMain:
    """Locked Out! as a season's Main Match (SE-1, SE-6): its config with the season holding
    the vote, its result and LO-9's vote as the season asks for them
    (:class:`arena.season.mainmatch.MainMatchRules`)."""

    no_winners = vote.NO_WINNERS
    no_majority = vote.NO_MAJORITY
    majority = vote.MAJORITY

    def config(self, players: Sequence[str], options: MainOptions) -> dict[str, Any]:
        return {"names": list(players), "round_seconds": options.round_seconds,
                "vote_seconds": options.vote_seconds, "max_rounds": options.max_rounds,
                "helper": options.helper, "vote": "season", "garnets": list(options.garnets)}

    def result(self, detail: Any, names: Sequence[str]) -> MainResult:
        return main_from_detail(detail, names)

    def facts(self, detail: Any, names: Sequence[str]) -> Facts:
        """Keys, gold bars and cards left per player (LO-9's fallbacks, in their order)."""
        return tuple((n, int(detail["keys"][i]), int(detail["bars"][i]),
                      int(detail["cards_left"][i])) for i, n in enumerate(names))

    def tally(self, votes: Mapping[int, int], voters: Sequence[int]) -> vote.Tally:
        return vote.tally(votes, voters)

    def winners_choice(self, tied: Sequence[int], winners: Collection[int],
                       votes: Mapping[int, int]) -> int | None:
        return vote.winners_choice(tied, winners, votes)

    def fallback(self, tied: Sequence[int], facts: Sequence[tuple[int, int, int]],
                 garnets: Sequence[int], rng: random.Random) -> tuple[int, str]:
        return vote.fallback(tied, [vote.SeatFacts(*f) for f in facts], garnets, rng,
                             chance=vote.SEASON_CHANCE)


MAIN = LockedOutMain()
