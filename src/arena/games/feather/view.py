"""The board as plain JSON: what every viewer sees (all of Feather's state is public, G-9).

Shared by the engine's view, the ``arena feather run`` record and the browser page, so a host
settling a dispute reads the same fields the players saw.
"""

from __future__ import annotations

from typing import Any

from arena.games.feather.actions import LETTERS
from arena.games.feather.basins import forecast
from arena.games.feather.objectives import POWERUPS
from arena.games.feather.scenario import SessionSpec
from arena.games.feather.tick import Board

FORECAST_TICKS = 6


def board_json(spec: SessionSpec, board: Board) -> dict[str, Any]:
    nxt = board.tick + 1
    seats = []
    for s, me in enumerate(board.seats):
        buckets = []
        for i, (w, c) in enumerate(zip(me.waters, me.caps, strict=True)):
            until = max((lk.until for lk in board.locks if lk.owner == s and lk.bucket == i),
                        default=None)
            buckets.append({"name": LETTERS[i], "water": w, "capacity": c,
                            "locked_until": until if until is not None and until >= nxt else None})
        seats.append({
            "seat": s,
            "points": me.points,
            "water": me.water,
            "powerups": dict(zip(POWERUPS, me.powerups, strict=True)),
            "last_fill": me.last_fill,
            "fill_ready_at": me.fill_ready_at(),
            "can_fill_next": nxt >= me.fill_ready_at(),
            "buckets": buckets,
        })
    basins = [
        {"name": bs.name, "amount": b.amount, "clock": b.clock, "schedule": bs.describe(),
         "forecast": list(forecast(bs, b, FORECAST_TICKS))}
        for bs, b in zip(spec.basins, board.basins, strict=True)
    ]
    return {
        "tick": board.tick,
        "ticks": spec.ticks,
        "seats": seats,
        "basins": basins,
        "objectives": [spec.objective(i).to_json() for i in board.available],
        "queue": [spec.objective(i).to_json() for i in board.queue],
        "ankh": board.ankh,
        "locks": [{"seat": lk.owner, "bucket": LETTERS[lk.bucket], "until": lk.until,
                   "by": lk.by} for lk in board.locks if lk.until >= nxt],
    }
