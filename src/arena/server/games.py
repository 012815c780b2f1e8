"""Game discovery that survives one broken game package.

``arena.core.registry`` imports every package under ``arena.games`` and fails as a whole if
one of them does not import (a game in the middle of being written). A server should still
serve the others, so at start-up it discovers them one by one, logs the broken ones, and
hands the registry the working set. (Core change requested: let the registry do this.)
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from typing import Any

from arena.core import registry
from arena.core.game import Game

log = logging.getLogger("arena.server")


def load_games() -> dict[str, str]:
    """Import every game package; returns the broken ones (name -> error)."""
    import arena.games as pkg

    found: dict[str, Game[Any, Any]] = {}
    broken: dict[str, str] = {}
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if not info.ispkg:
            continue
        try:
            module = importlib.import_module(f"arena.games.{info.name}")
        except Exception as exc:  # a half-written game must not take the server down
            broken[info.name] = f"{type(exc).__name__}: {exc}"
            log.warning("game %s is not available: %s", info.name, exc)
            continue
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            found[game.name] = game
    registry._discovered = found
    return broken
