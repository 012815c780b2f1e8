"""The registered games.

Each package under ``arena.games`` exposes ``GAME``, and so does each package an installed
distribution names in the entry-point group ``arena.games`` (``name = "package"``): discovery
means adding a game touches no shared file, and every fact about it is the game's own
(:mod:`arena.core.facts`). Tests may register extra games (the conformance suite's small
test game).
"""

from __future__ import annotations

import importlib
import pkgutil
from importlib import metadata
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
        for name, game in _installed().items():
            found.setdefault(name, game)  # a package under arena.games comes first
        _discovered = found
    return _discovered


ENTRY_POINTS = "arena.games"
"""The entry-point group of games installed from outside this package: each entry's value
is the package (or ``package:GAME``) that holds the game."""


def _installed() -> dict[str, Game[Any, Any]]:
    found: dict[str, Game[Any, Any]] = {}
    for entry in sorted(metadata.entry_points(group=ENTRY_POINTS), key=lambda e: e.name):
        try:
            loaded = entry.load()
        except Exception as exc:  # as above: one broken game never hides the others
            _broken[entry.name] = f"{type(exc).__name__}: {exc}"
            continue
        game = getattr(loaded, "GAME", loaded)
        if isinstance(game, Game):
            found[game.name] = game
        else:
            _broken[entry.name] = f"{entry.value} holds no game (GAME)"
    return found


def rediscover() -> None:
    """Forget what discovery found, so the next look finds the games installed now (a test
    that installs a game and takes it away again)."""
    global _discovered
    _discovered = None
    _broken.clear()


def broken_games() -> dict[str, str]:
    """Game packages that failed to import: name to error."""
    _discover()
    return dict(_broken)


def all_games(*, include_extra: bool = False) -> dict[str, Game[Any, Any]]:
    """Registered games in the order they declare (:attr:`Game.order`, then by name)."""
    found = dict(_discover())
    if include_extra:
        found.update(_extra)
    return dict(sorted(found.items(), key=lambda kv: (kv[1].order, kv[0])))


def death_matches() -> dict[str, dict[str, Any]]:
    """SE-4: the Death Match games, in the games' order, each with the config values of a
    short match of it (:attr:`Game.death_match`). Games registered in the process
    (:func:`register`: tests, the season) are never Death Matches; an installed one is."""
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


def registered() -> dict[str, Game[Any, Any]]:
    """The games :func:`register` added (no discovery: the command line asks it cheaply)."""
    return dict(_extra)


def unregister(name: str) -> None:
    """Take back a game :func:`register` added (a test done with it)."""
    _extra.pop(name, None)
