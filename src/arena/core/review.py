"""The post-match review: every seat's decisions judged, the costliest first.

Built from the finished match alone: its inputs are replayed with the game's ``resolve``
watched, which hands :meth:`arena.core.game.Game.review` each phase exactly as the rules
resolved it (the state before, the moves that stood, the state after), with the log entry to
link to. What a reader is shown follows G-9: the host, and everyone once a finished match
reveals its secrets, see every seat's decisions; otherwise a seat sees its own and the
decisions that were public anyway, and a spectator only those.
"""

from __future__ import annotations

import random
from typing import Any

from arena.core.clock import ManualClock
from arena.core.eventlog import HOST, Viewer
from arena.core.game import Game
from arena.core.judging import Judgement, Step
from arena.core.moves import JSON, PhaseOutcome

COSTLIEST = 3
"""How many decisions head each seat's review: the ones that gave away the most."""


class _Watched:
    """The game with its ``resolve`` recorded: everything else is the game itself, so the
    replay is the match's own (the same seed, the same draws, the same log)."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self._game = game
        self.calls: list[tuple[Any, PhaseOutcome[Any], Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def resolve(self, state: Any, outcome: PhaseOutcome[Any],
                rng: random.Random) -> tuple[Any, Any]:
        after, events = self._game.resolve(state, outcome, rng)
        self.calls.append((state, outcome, after))
        return after, events


def steps(match: Any) -> list[Step[Any]]:
    """Every resolved phase of ``match`` (a finished :class:`arena.core.match.Match`), in order.

    The replay logs the same entries as the match did, so the n-th ``resolve`` is the n-th
    ``phase_resolved`` entry of the match's own log."""
    from arena.core.match import Match

    watched = _Watched(match.game)
    inputs = match.inputs()
    end = match.log[-1].t if match.log else match.created_at
    Match.replay(watched, match.config, match.seed, match.settings,  # type: ignore[arg-type]
                 match.created_at, inputs, ManualClock(end), until=end, names=match.names)
    marks = [(n, e) for n, e in enumerate(match.log, 1) if e.kind == "phase_resolved"]
    out: list[Step[Any]] = []
    for (before, outcome, after), (version, event) in zip(watched.calls, marks, strict=False):
        out.append(Step(int(event.data["no"]), str(event.data["name"]), version,
                        before, outcome, after))
    return out


def judge(match: Any) -> list[Judgement]:
    """The game's judgements of every seat's decisions in a finished match (none while it
    runs: a review during the match would coach the seats)."""
    if match.result is None:
        return []
    game: Game[Any, Any] = match.game
    return list(game.review(steps(match), match.state))


def report(match: Any, judgements: list[Judgement], viewer: Viewer) -> dict[str, Any]:
    """The review as ``viewer`` may read it (G-9): per seat, its judged decisions in match
    order and the indices of its costliest, plus what the whole seat gave away."""
    reveal = viewer == HOST or match.settings.reveal_at_end
    seats: list[JSON] = []
    for seat in range(match.seats):
        mine = [j for j in judgements if j.seat == seat
                and (reveal or j.public or viewer == seat)]
        hidden = sum(1 for j in judgements if j.seat == seat) - len(mine)
        ranked = sorted(range(len(mine)), key=lambda i: (-mine[i].cost, i))
        costliest = [i for i in ranked if mine[i].cost > 0][:COSTLIEST]
        seats.append({
            "seat": seat,
            "name": match.seat_name(seat),
            "decisions": [j.to_json() for j in mine],
            "costliest": costliest,
            "lost": round(sum(j.cost for j in mine), 2),
            "hidden": hidden,
        })
    return {"seats": seats, "game": match.game.name}
