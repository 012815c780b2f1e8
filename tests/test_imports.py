"""The shape of the source: no import cycle among arena's modules outside one game's folder,
and no module of the core, the server or the store past 500 lines (DESIGN.md: one module per
concept, each small enough to read whole).

What counts as an import, for the cycle check:

- every ``import`` and ``from ... import`` in a module counts, at module level or inside a
  function alike: an import moved into a function still runs, and moving it there is the
  usual way to hide a cycle, not to remove one;
- an import under ``if TYPE_CHECKING:`` does not count: it never runs, and it is how a module
  names a type of a module that imports it (``MatchOwner`` in ``server/children.py``);
- ``from package import name`` depends on the submodule ``package.name`` when there is one,
  and otherwise on the package's ``__init__``; importing a submodule runs its parent
  packages' ``__init__`` too, but that implicit step is not an edge (every submodule of a
  package whose ``__init__`` re-exports it would otherwise form a cycle with it).

A cycle inside one game's folder (``arena/games/<name>/`` or the season's, ``arena/season/``)
is that game's own business: its modules are written, read and changed together.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "arena"
MAX_LINES = 500
LAYERS_WITH_A_BOUND = ("core", "server", "store")


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of every node under an ``if TYPE_CHECKING:`` (its ``else`` still runs)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else \
                test.attr if isinstance(test, ast.Attribute) else None
            if name == "TYPE_CHECKING":
                for child in node.body:
                    skipped.update(id(n) for n in ast.walk(child))
    return skipped


def import_graph(root: Path) -> dict[str, set[str]]:
    """Each module of the package at ``root`` -> the modules of that package it imports."""
    paths = {_module_name(p, root): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _type_checking_only(tree)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*up, *([node.module] if node.module else [])])
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else base
                           for alias in node.names]
            for target in targets:
                while target and target not in paths:  # ``import a.b.c`` of a name inside c
                    target = target.rpartition(".")[0]
                if target and target != name:
                    found.add(target)
        graph[name] = found
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without
    recursion: the graph has hundreds of modules)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def game_folder(module: str) -> str | None:
    """The game whose folder holds ``module`` (``arena.games.<name>`` or ``arena.season``)."""
    parts = module.split(".")
    if parts[:2] == ["arena", "games"] and len(parts) >= 3:
        return ".".join(parts[:3])
    if parts[:2] == ["arena", "season"]:
        return "arena.season"
    return None


def foreign_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The cycles that are not all inside one game's folder."""
    return [group for group in cycles(graph)
            if None in {game_folder(m) for m in group}
            or len({game_folder(m) for m in group}) > 1]


def test_no_import_cycle_outside_one_games_folder() -> None:
    graph = import_graph(SRC)
    assert len(graph) > 100
    assert "arena.server.owner" in graph["arena.server.matches"]  # the graph has edges
    bad = foreign_cycles(graph)
    detail = [{m: sorted(graph[m] & set(group)) for m in group} for group in bad]
    assert not bad, detail


def test_no_module_of_the_core_server_or_store_is_longer_than_500_lines() -> None:
    lengths = {str(path.relative_to(SRC)): len(path.read_text(encoding="utf-8").splitlines())
               for layer in LAYERS_WITH_A_BOUND for path in (SRC / layer).rglob("*.py")}
    assert len(lengths) > 30
    assert {name: n for name, n in lengths.items() if n > MAX_LINES} == {}


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "arena" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "arena"


def test_the_checker_sees_function_level_imports_and_skips_type_checking(
        tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "__init__.py": "",
        "server/__init__.py": "from arena.server.a import run\n",
        "server/a.py": "from arena.server import b\n",
        # A function-level import still closes the cycle...
        "server/b.py": "def f():\n    from arena.server.a import run\n",
        # ...an import only for the type checker does not.
        "server/c.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                        "    from arena.server.d import D\nelse:\n    import json\n"),
        "server/d.py": "from . import c\n",
        "games/__init__.py": "",
        "games/toy/__init__.py": "from arena.games.toy.match import M\n",
        "games/toy/match.py": "from arena.games.toy import helper\n",
        "games/toy/helper.py": "import arena.games.toy.match\n",
    })
    graph = import_graph(root)
    assert graph["arena.server.d"] == {"arena.server.c"}  # a relative import, resolved
    assert graph["arena.server.c"] == set()
    assert graph["arena.server.a"] == {"arena.server.b"}  # the submodule, not the package
    assert sorted(cycles(graph)) == [["arena.games.toy.helper", "arena.games.toy.match"],
                                     ["arena.server.a", "arena.server.b"]]
    assert foreign_cycles(graph) == [["arena.server.a", "arena.server.b"]]
