"""The layering rule of DESIGN.md: games and core never import the server, the store, the web
assets or the CLI. Checked two ways: statically over the source, and at run time by importing
every game in a fresh interpreter and looking at what got loaded."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "arena"
FORBIDDEN = ("arena.server", "arena.store", "arena.web", "arena.cli")


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            names.extend(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_core_and_games_source_never_import_outer_layers() -> None:
    offenders = []
    files = [*(SRC / "core").rglob("*.py"), *(SRC / "games").rglob("*.py"),
             *(SRC / "season").rglob("*.py")]  # the season model is pure too
    assert len(files) > 5
    for path in files:
        for name in imported_modules(path):
            if name.startswith(FORBIDDEN) or name in {"arena.server", "arena.store", "arena.web", "arena.cli"}:
                offenders.append(f"{path.relative_to(SRC)} imports {name}")
    assert not offenders, offenders


def test_importing_every_game_loads_no_outer_layer() -> None:
    code = (
        "import json, sys\n"
        "from arena.core.registry import all_games\n"
        "games = all_games()\n"
        "print(json.dumps({'games': sorted(games), 'loaded': sorted(m for m in sys.modules"
        " if m.startswith(('arena.server', 'arena.store', 'arena.web', 'arena.cli')))}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["loaded"] == [], report


def test_the_checker_itself_catches_an_offending_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from arena.server import app\nimport arena.cli\n")
    names = imported_modules(bad)
    assert any(n.startswith(FORBIDDEN) for n in names)


def test_every_game_package_imports() -> None:
    from arena.core.registry import all_games, broken_games

    assert broken_games() == {}
    assert set(all_games()) == {"lockmaker", "boxes", "paint", "feather", "lockedout"}


def test_the_page_layer_never_imports_the_server_store_or_cli() -> None:
    """DESIGN.md: every page reads the API like any client; a route that needs the server's
    state lives in the server and hands the page layer plain data."""
    offenders = [f"{path.relative_to(SRC)} imports {name}"
                 for path in (SRC / "web").rglob("*.py")
                 for name in imported_modules(path)
                 if name.startswith(("arena.server", "arena.store", "arena.cli"))]
    assert not offenders, offenders
