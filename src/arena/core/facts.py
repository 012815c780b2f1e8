"""What a game says of itself beyond its rules (DESIGN.md: the game owns its facts).

Every fact a shared module needs about one game is declared by the game and read from it:
its place in the lobby, the script and stylesheet of its board, a moment for the
documentation's pictures, whether it can be a Death Match (:attr:`Game.death_match`) or a
season's Main Match, what it adds to the server, and the files its package ships (its rules
page ``rules.html`` and its rulings ``rulings.json``). Its command-line tools are its
package's ``tools`` module (:mod:`arena.cli`). So no shared module names a game, and a new
game is one folder (and its board script).
"""

from __future__ import annotations

import sys
from importlib import resources
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:  # types only: the season and the hooks are built on the core
    from arena.core.extras import Extras
    from arena.season.mainmatch import MainMatchRules

RULES_FILE = "rules.html"
"""A game's rules page: an HTML fragment in the project's own words, ruling ids as text."""

RULINGS_FILE = "rulings.json"
"""A game's rulings (``{"rulings": [{"id", "title", "text"}, ...]}``), ids under its
:attr:`Game.rules_prefix`, shown in its section of ``/rulings``."""


class GameFacts:
    """The facts part of :class:`arena.core.game.Game` (a base of it, so a game declares
    them beside its rules)."""

    order: ClassVar[int] = 1000
    """Where the game comes in the lobby and in every list of games: lowest first, then by
    name."""

    board_script: ClassVar[str | None] = None
    """The address of the page module that draws the game's board and controls (it calls
    ``registerGame``); None: the match page shows the shell's own plain view."""

    board_sheet: ClassVar[str | None] = None
    """The address of the stylesheet of the game's board, if it has one (the pages'
    Content-Security-Policy takes styles from the server's own files only)."""

    screenshot_moment: ClassVar[tuple[tuple[str, str], ...]] = ()
    """A moment of play for the documentation's pictures (``scripts/screenshots.py``),
    reached with the board's own controls: (the ``data-testid`` to click, the selector to
    wait for), in order. A trailing ``*`` on a test id clicks again each time the seat's
    move comes round, until the selector shows."""

    def extras(self) -> Extras | None:
        """What the game adds to the server besides its matches (:mod:`arena.core.extras`):
        pages, JSON endpoints, a shelf of texts hosts save, a step at match creation. A
        method, so that code loads only where a server asks for it. None by default."""
        return None

    def main_match(self) -> MainMatchRules | None:
        """SE-1: what a season needs of the game that is its Main Match (the options it
        starts one with, how it reads a result, the vote the season holds), or None for a
        game that is not one. A season plays the listed game that answers."""
        return None

    def own_file(self, name: str) -> str | None:
        """The text of file ``name`` shipped in the game's package (:data:`RULES_FILE`,
        :data:`RULINGS_FILE`), or None where the game ships none. Read through
        :mod:`importlib.resources`, so an installed wheel serves the same files."""
        module = sys.modules.get(type(self).__module__)
        package = getattr(module, "__package__", None)
        if not package:
            return None  # a game defined in a module of its own, outside any package
        try:
            found = resources.files(package).joinpath(name)
            return found.read_text(encoding="utf-8") if found.is_file() else None
        except (ModuleNotFoundError, OSError):
            return None
