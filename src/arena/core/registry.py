"""The registered games.

Each package under ``arena.games`` exposes ``GAME``; discovery means adding a game touches no
shared file. Tests may register extra games (the conformance suite's small test game).
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from arena.core.errors import RuleError
from arena.core.game import Game

_extra: dict[str, Game[Any, Any]] = {}
_discovered: dict[str, Game[Any, Any]] | None = None
_broken: dict[str, str] = {}


def _discover() -> dict[str, Game[Any, Any]]:
    """Import every game package once. A package that fails to import is recorded in
    :func:`broken_games` and skipped, so one broken game cannot take the others down (the
    server keeps serving the rest; ``tests/test_layers.py`` fails the suite on any)."""
    global _discovered
    if _discovered is None:
        import arena.games as pkg

        found: dict[str, Game[Any, Any]] = {}
        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
            if not info.ispkg:
                continue
            try:
                module = importlib.import_module(f"arena.games.{info.name}")
            except Exception as exc:  # a half-written game must not hide the others
                _broken[info.name] = f"{type(exc).__name__}: {exc}"
                continue
            game = getattr(module, "GAME", None)
            if isinstance(game, Game):
                found[game.name] = game
        _discovered = found
    return _discovered


def broken_games() -> dict[str, str]:
    """Game packages that failed to import: name to error."""
    _discover()
    return dict(_broken)


ORDER = ("lockmaker", "boxes", "paint", "feather", "lockedout")


def all_games(*, include_extra: bool = False) -> dict[str, Game[Any, Any]]:
    """Registered games in the order the project presents them."""
    found = dict(_discover())
    if include_extra:
        found.update(_extra)
    return dict(sorted(found.items(), key=lambda kv: (ORDER.index(kv[0]) if kv[0] in ORDER else 99, kv[0])))


def death_matches() -> dict[str, dict[str, Any]]:
    """SE-4: the Death Match games, by name in the project's order, each with the config
    values of a short match of it (:attr:`Game.death_match`). Games registered from
    outside ``arena.games`` (tests, the season) are never Death Matches."""
    return {name: dict(game.death_match) for name, game in all_games().items()
            if game.death_match is not None}


def get_game(name: str) -> Game[Any, Any]:
    games = all_games(include_extra=True)
    if name not in games:
        raise RuleError("", f"unknown game {name!r}; registered: {', '.join(games) or 'none'}")
    return games[name]


def register(game: Game[Any, Any]) -> None:
    """Register a game that does not live under ``arena.games`` (tests)."""
    _extra[game.name] = game
