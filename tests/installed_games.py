"""Games installed the way a game from another distribution is: ``tests/installable`` holds
each one's package and its distribution's metadata (a ``.dist-info`` folder naming the package
in the ``arena.games`` entry-point group). :func:`installed` puts that folder on the path, as
installing the distribution would, so the registry, the command line and the server find the
games there exactly as they would find one a host installed; nothing in ``src/arena`` names
them. Taken away again on leaving, so no other test sees them."""

from __future__ import annotations

import contextlib
import importlib
import sys
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

from arena.core import registry
from arena.core.game import Game

FOLDER = Path(__file__).resolve().parent / "installable"


def _entries() -> list[metadata.EntryPoint]:
    return [e for dist in metadata.distributions(path=[str(FOLDER)])
            for e in dist.entry_points if e.group == registry.ENTRY_POINTS]


def names() -> list[str]:
    """The games the folder installs, by the names their entry points give."""
    return sorted(e.name for e in _entries())


@contextlib.contextmanager
def installed() -> Iterator[dict[str, Game[Any, Any]]]:
    """The folder's games installed for the duration: their names -> games."""
    sys.path.insert(0, str(FOLDER))
    importlib.invalidate_caches()
    registry.rediscover()
    try:
        games = registry.all_games()
        yield {name: games[name] for name in names()}
    finally:
        sys.path.remove(str(FOLDER))
        importlib.invalidate_caches()
        registry.rediscover()


def games() -> dict[str, Game[Any, Any]]:
    """The folder's games, each found through its entry point as the registry finds it (for
    a suite that runs over every game: the games stay usable once taken away again)."""
    with installed() as found:
        return dict(found)
