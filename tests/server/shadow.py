"""A test-side copy of a live match, rebuilt from the host's view of its log.

The host sees every event (G-9), including every input; replaying those with the seed
reproduces the server's match exactly (G-7). Tests use it to pick a legal submission for a
"human" seat of any game (``Game.random_submission``) and to check replay equality.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from arena.core.clock import ManualClock
from arena.core.game import Game
from arena.core.match import INPUT_KINDS, Event, Match, MatchSettings


def host_events(http: httpx.Client, base: str, match_id: str, host_token: str) -> list[Event]:
    r = http.get(f"{base}/api/matches/{match_id}/events",
                 params={"token": host_token, "since": 0})
    r.raise_for_status()
    events = []
    for e in r.json()["events"]:
        if e["kind"] == "seed":  # 64 bits travel as a string of digits
            e["data"] = {**e["data"], "seed": int(e["data"]["seed"])}
        events.append(Event.from_json(e))
    return events


def rebuild(game: Game[Any, Any], config: dict[str, Any], settings: dict[str, Any],
            log: list[Event], names: list[str] | None = None) -> Match:
    """The match the log describes, brought exactly to its last entry. ``names`` are the
    seats' names it was created with: its texts name the seats by them (LO-10)."""
    started = log[0]
    assert started.kind == "match_started"
    seed = int(next(e for e in log if e.kind == "seed").data["seed"])  # host-only entry
    inputs = [e for e in log if e.kind in INPUT_KINDS]
    until = log[-1].t
    return Match.replay(game, game.make_config(config), seed, MatchSettings.from_json(settings),
                        started.t, inputs, ManualClock(until), until=until, names=names or ())


def normalised(log: list[Event]) -> list[tuple[Any, ...]]:
    """Entries compared through JSON, as the store and the wire carry them."""
    return [(e.version, e.kind, json.dumps(e.data, sort_keys=True),
             None if e.to is None else sorted(e.to), e.t) for e in log]
