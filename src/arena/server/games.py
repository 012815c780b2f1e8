"""Game discovery for the server: every game that imports, with the broken ones logged."""

from __future__ import annotations

import logging

from arena.core import registry
from arena.season.game import SEASON

log = logging.getLogger("arena.server")


def load_games() -> dict[str, str]:
    """Discover the games; log and return the broken ones (name -> error)."""
    registry.register(SEASON)  # a season is a match of its own game (SE-1)
    broken = registry.broken_games()
    for name, error in broken.items():
        log.warning("game %s is not available: %s", name, error)
    return broken
