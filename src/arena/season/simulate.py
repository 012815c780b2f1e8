"""A whole season with bots at instant pace (SE-1): Locked Out! as each episode's Main Match
with the players still in, the SE-3 steps decided by simple bot choices drawn from the
season's seed, then a Death Match between the EC (seat 1) and the DMO (seat 2), down to the
final Death Match between the last two. The record replays: its ledger gives the standings."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from typing import Any

from arena.core import rng as rngmod
from arena.core.driver import simulate
from arena.core.registry import death_matches, get_game
from arena.games.lockedout.season import main_from_detail
from arena.season.ledger import Entry, Ledger
from arena.season.steps import (
    check_nomination,
    gift_targets,
    give_tol,
    nominees,
    record_death_match,
    record_main,
)

DEATH_MATCHES = tuple(death_matches())
"""SE-4: the Death Match games, as the games declare them (:attr:`Game.death_match`)."""

main_result = main_from_detail
"""A Locked Out! result's detail by player name (it lives with the game now,
:mod:`arena.games.lockedout.season`); kept here for the season code that reads it so."""


@dataclass
class Episode:
    number: int
    main: dict[str, Any] | None = None
    gift: str | None = None
    ec: str | None = None
    dmo: str | None = None
    dm_game: str | None = None
    dm_seats: tuple[str, str] | None = None
    dm_winner: str | None = None
    eliminated: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"episode": self.number, "main": self.main, "gift": self.gift, "ec": self.ec,
                "dmo": self.dmo, "death_match": None if self.dm_game is None else {
                    "game": self.dm_game, "seats": list(self.dm_seats or ()),
                    "winner": self.dm_winner},
                "eliminated": self.eliminated}


@dataclass
class SeasonRecord:
    seed: int
    ledger: Ledger
    episodes: list[Episode] = field(default_factory=list)
    winner: str | None = None

    def to_json(self) -> dict[str, Any]:
        standings = self.ledger.standings()
        return {"seed": self.seed, "cast": list(self.ledger.cast), "winner": self.winner,
                "episodes": [e.to_json() for e in self.episodes],
                "ledger": [e.to_json() for e in self.ledger.entries],
                "standings": [standings[n].to_json() for n in self.ledger.cast]}


def detail_as_it_stands(state: Any) -> dict[str, Any]:
    """SE-6: a Locked Out! match closed before its end, scored as it stands under LO-8 (as if
    the host's round limit had been reached now): who is out, their bars, the winners, the
    opal, and the EC if the vote had already chosen one. Raises ValueError when ``state`` is
    not a Locked Out! state."""
    game = get_game("lockedout")
    try:
        result = game.result(dataclasses.replace(state, stage="over"))
    except (TypeError, AttributeError, KeyError, IndexError, ValueError) as exc:
        raise ValueError(f"the Main Match cannot be scored as it stands ({exc!r})") from None
    if result is None or not isinstance(result.detail, dict):
        raise ValueError("the Main Match cannot be scored as it stands")
    return result.detail


def simulate_season(players: int, seed: int) -> SeasonRecord:
    if not 3 <= players <= 26:
        raise ValueError("a simulated season has 3 to 26 players")
    cast = tuple(f"P{i + 1}" for i in range(players))
    record = SeasonRecord(seed, Ledger(cast))
    ledger = record.ledger
    number = 0
    while len(ledger.still_in()) > 2:
        number += 1
        rng = rngmod.derive(seed, "season", number)
        ep = Episode(number)
        record.episodes.append(ep)
        still = ledger.still_in()[:6]  # SE-1: at most six play the Main Match
        standings = ledger.standings()
        lo = get_game("lockedout")
        config = lo.make_config({"names": still, "max_rounds": 40,
                                 "garnets": [standings[n].garnets for n in still]})
        match = simulate(lo, rng.getrandbits(64), config)
        assert match.result is not None
        mm = main_result(match.result.detail, still)
        ep.main = {"escaped": list(mm.escaped), "trapped": list(mm.trapped),
                   "bars": mm.bars, "winners": list(mm.winners), "opal": mm.opal}
        record_main(ledger, number, mm)
        if mm.solo_winner is not None:
            targets = gift_targets(mm)
            if targets:
                ep.gift = rng.choice(targets)
                give_tol(ledger, number, mm, ep.gift)
        ec = mm.ec
        if ec is None:  # nobody trapped to vote: the host names one (recorded as such)
            ec = min(still, key=lambda n: (mm.bars[n], n))
        ep.ec = ec
        options = nominees(ledger, mm, ec)
        dmo = rng.choice(options)
        check_nomination(ledger, mm, ec, dmo)
        ep.dmo = dmo
        _death_match(record, ep, ec, dmo, rng, final=False)
    a, b = ledger.still_in()
    number += 1
    final = Episode(number)
    record.episodes.append(final)
    _death_match(record, final, a, b, rngmod.derive(seed, "season", number), final=True)
    record.winner = final.dm_winner
    return record


def _death_match(record: SeasonRecord, ep: Episode, ec: str, dmo: str, rng: random.Random,
                 *, final: bool) -> None:
    """SE-4: EC in seat 1 (code seat 0), DMO in seat 2; the loser is eliminated."""
    game_name = rng.choice(DEATH_MATCHES)
    game = get_game(game_name)
    match = simulate(game, rng.getrandbits(64), game.make_config(game.death_match))
    assert match.result is not None
    ep.dm_game, ep.dm_seats = game_name, (ec, dmo)
    winner_seat = match.result.winner
    cause = ""
    if winner_seat is None:  # a double loss or a draw: the host decides (SE-4)
        winner_seat = rng.choice((0, 1))
        cause = f"no winner in the Death Match ({game_name}); the host decided"
    winner, loser = (ec, dmo) if winner_seat == 0 else (dmo, ec)
    ep.dm_winner, ep.eliminated = winner, loser
    record_death_match(record.ledger, ep.number, game_name, winner, loser, final, cause)


def load_record(data: dict[str, Any]) -> SeasonRecord:
    ledger = Ledger(tuple(data["cast"]), [Entry.from_json(e) for e in data["ledger"]])
    record = SeasonRecord(int(data["seed"]), ledger, winner=data.get("winner"))
    for e in data["episodes"]:
        ep = Episode(int(e["episode"]), e.get("main"), e.get("gift"), e.get("ec"), e.get("dmo"))
        dm = e.get("death_match")
        if dm:
            ep.dm_game, ep.dm_seats, ep.dm_winner = dm["game"], tuple(dm["seats"]), dm["winner"]
        ep.eliminated = e.get("eliminated")
        record.episodes.append(ep)
    return record
