"""The game is the one source of its facts (DESIGN.md): no shared module names a game, and
every fact a shared module needs is declared by the game (:mod:`arena.core.facts`) or shipped
in its package, where the shared code finds it.

The shared modules are the engine (core), the season, the server, the store, the command
line and the web layer, except two places that are the games' by design: the board scripts
and sheets under ``web/static/games`` (a game's page code, named by the game's
``board_script``), and the rulings of every game and of seasons (``web/rulings.json``: the
project's own rule texts, which cite the games they come from as any rule text may)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from arena.cli import build_parser, game_commands
from arena.core.facts import RULES_FILE, RULINGS_FILE
from arena.core.game import Game
from arena.core.registry import all_games

SRC = Path(__file__).resolve().parents[1] / "src" / "arena"
SHARED = [SRC / d for d in ("core", "season", "server", "store", "cli", "web")]
NOT_SHARED = [SRC / "web" / "static" / "games", SRC / "web" / "static" / "vendor",
              SRC / "web" / "rulings.json"]
TEXT = {".py", ".js", ".html", ".css", ".json", ".toml", ".mako", ".ini", ".txt"}

GAMES = all_games()


def _words(game: Game[Any, Any]) -> re.Pattern[str]:
    """The game's name and title as words (any case), as prose or code would write them."""
    names = {game.name, game.title, game.title.rstrip("!")}
    return re.compile("|".join(rf"(?<!\w){re.escape(n)}(?!\w)" for n in sorted(names)),
                      re.IGNORECASE)


def _shared_files() -> list[Path]:
    return [p for d in SHARED for p in sorted(d.rglob("*"))
            if p.is_file() and p.suffix in TEXT and "__pycache__" not in p.parts
            and not any(p == n or n in p.parents for n in NOT_SHARED)]


def test_the_scan_reads_the_shared_modules() -> None:
    files = {str(p.relative_to(SRC)) for p in _shared_files()}
    assert {"core/game.py", "season/flow.py", "server/app.py", "cli/__init__.py",
            "web/pages.py", "web/static/ui.js", "web/templates/lobby.html"} <= files
    assert not any(f.startswith("web/static/games/") for f in files)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_shared_module_names_the_game(name: str) -> None:
    words = _words(GAMES[name])
    found = [f"{p.relative_to(SRC)}:{i}: {line.strip()}"
             for p in _shared_files()
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if words.search(line)]
    assert found == [], "\n".join(found)


def test_the_scan_would_find_a_name() -> None:
    """The pattern finds the names as they would be written (a title with its "!" or not)."""
    for game in GAMES.values():
        words = _words(game)
        assert words.search(f'x = "{game.name}"') and words.search(f"({game.title}'s)")
        assert not words.search(f"x{game.name}y")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_game_declares_its_facts_and_ships_its_files(name: str) -> None:
    game = GAMES[name]
    assert isinstance(game.order, int)
    rules = game.own_file(RULES_FILE)
    assert rules is not None and rules.strip(), f"{name} ships no {RULES_FILE}"
    rulings = json.loads(game.own_file(RULINGS_FILE) or "{}")["rulings"]
    assert rulings and all(r["id"].startswith(f"{game.rules_prefix}-") for r in rulings)
    for script in (game.board_script, game.board_sheet):
        if script is not None:  # one of the server's files: it serves /static only
            assert script.startswith("/static/") and (SRC / "web" / script[1:]).is_file()
    if name in game_commands(installed=False):  # its tools' help is its docstring's first line
        package, words = game_commands(installed=False)[name]
        assert package == f"arena.games.{name}" and words


def test_every_game_has_its_own_place_in_the_lobby() -> None:
    orders = [g.order for g in GAMES.values()]
    assert orders == sorted(orders) and len(set(orders)) == len(orders)


def test_a_game_command_lists_without_loading_its_game() -> None:
    """``arena --help`` shows each game's command with its help (its tools module's first
    docstring line), the same words the command's own parser carries."""
    parser = build_parser(None)
    sub = next(a for a in parser._actions if a.dest == "command")
    helps = {c.dest: c.help for c in sub._choices_actions}  # type: ignore[attr-defined]
    for name, (_package, words) in game_commands().items():
        assert words and helps[name] == words
