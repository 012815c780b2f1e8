"""The tests are laid out like ``src/arena``: a reader who opens a module finds its tests in
the folder of the same name, and a test folder that names no package is a misplaced one.

The suite's own support (fixture logs, the test games a conformance run installs) sits in
folders that say so; tests of the whole package (conformance, layers, determinism) sit at
the top."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).parent
SRC = TESTS.parent / "src" / "arena"
SUPPORT = {"fixtures", "installable", "toygame", "__pycache__"}
"""Folders that hold what tests use, not tests of a package."""


def _packages(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir() if p.is_dir() and (p / "__init__.py").exists()}


def _test_folders(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()
            if p.is_dir() and p.name not in SUPPORT and any(p.rglob("test_*.py"))}


def test_every_test_folder_names_a_package_of_arena() -> None:
    folders = _test_folders(TESTS)
    assert folders <= _packages(SRC), sorted(folders - _packages(SRC))
    # Every package with code of its own has its tests in its folder.
    assert _packages(SRC) <= folders, sorted(_packages(SRC) - folders)


def test_every_games_test_folder_names_a_game_package() -> None:
    games = _packages(SRC / "games")
    folders = _test_folders(TESTS / "games")
    assert folders == games, (sorted(folders ^ games))


def test_store_and_cli_tests_are_not_filed_under_another_package() -> None:
    """The store's tests sit in ``tests/store`` and the command line's in ``tests/cli``."""
    misplaced = [p.relative_to(TESTS).as_posix() for p in TESTS.rglob("test_*.py")
                 if p.parent.name not in {"store", "tests"}
                 and (p.name.startswith("test_store") or p.name.startswith("test_asyncstore"))]
    misplaced += [p.relative_to(TESTS).as_posix() for p in TESTS.rglob("test_cli_*.py")
                  if p.parent.name != "cli"]
    assert misplaced == []


def test_comments_cite_rulings_not_a_trackers_numbers() -> None:
    """The tracker is not in the repository, so a number of it tells a reader nothing: code
    and tests cite a ruling (G-7, LM-16) or say the reason."""
    import re

    pattern = re.compile(r"\b[Ii]ssues? [0-9]+")
    found = [f"{p.relative_to(TESTS.parent)}:{n}"
             for root in (SRC, TESTS)
             for p in root.rglob("*") if p.suffix in {".py", ".js", ".css", ".html", ".toml"}
             and "vendor" not in p.parts
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line)]
    assert found == []
