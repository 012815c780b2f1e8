"""A whole season with bots at instant pace (SE-1), and a season's record as a file.

The season is the same :data:`arena.season.game.SEASON` a server runs, driven on a simulated
clock (:func:`arena.core.driver.simulate`): its Main and Death Matches are played by bots where
the server would play them (:func:`arena.core.driver.play_children`), and every step nobody
takes is drawn when its clock runs out (SE-7): the Main Match's players, the Death Match's
game. The record (:class:`SeasonRecord`) is what ``arena season simulate --out`` writes and
``arena season show`` reads, files written before the season ran on the engine included: its
ledger replays to the standings (SE-5)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arena.core.driver import play_children, simulate
from arena.season.ledger import Entry, Ledger
from arena.season.steps import MainResult, main_to_json


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


def simulate_season(players: int, seed: int) -> SeasonRecord:
    """A season of ``players`` bots (P1, P2, ...) played through on the engine."""
    from arena.season.game import SEASON  # the game imports the season's steps, and so this

    if not 3 <= players <= 26:
        raise ValueError("a simulated season has 3 to 26 players")
    cast = [f"P{i + 1}" for i in range(players)]
    match = simulate(SEASON, seed, SEASON.make_config({"cast": cast}), children=play_children)
    state = match.state
    record = SeasonRecord(seed, state.ledger)
    for ep in state.episodes:
        mm = ep.main
        record.episodes.append(Episode(
            ep.number, None if mm is None else _main(mm), ep.gift, ep.ec, ep.dmo, ep.dm_game,
            None if not ep.dm_seats else (ep.dm_seats[0], ep.dm_seats[1]), ep.dm_winner,
            ep.eliminated))
    standings = state.ledger.standings()
    record.winner = next((n for n in state.cast if standings[n].won), None)
    return record


def _main(mm: MainResult) -> dict[str, Any]:
    """A Main Match as the record shows it (the file format of ``arena season show``)."""
    shown = main_to_json(mm)
    return {key: shown[key] for key in ("escaped", "trapped", "bars", "winners", "opal")}


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
