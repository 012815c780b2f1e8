"""The ``arena`` command.

Each module in this package that defines ``add_parser(subparsers)`` contributes a command
(``serve``, ``season``, ...), and so does each game: a game's package may hold a ``tools``
module that defines ``add_parser(subparsers)`` for the command named as the game, opening with
a docstring whose first line is the command's help (read without importing the game, for
``arena --help``), and, for a game under ``arena.games``, a ``quick`` module whose
``quick(argv)`` may answer the whole command line before argparse loads (it returns None to
leave it to the parser). So a game's tools land
without editing a shared file. A command's handler returns the process exit code; errors in
user input print one line and exit with 2, never a traceback.
"""

import sys

MYPY = False
if MYPY:  # types only: importing typing would load re, a cost a quick run should not pay
    # (annotations naming these are quoted: ``from __future__ import annotations`` costs too)
    import argparse
    from collections.abc import Sequence
    from typing import NoReturn

COMMANDS: dict[str, tuple[str, str]] = {
    "games": ("games", "list the registered games"),
    "season": ("season", "run or show a whole season (SE-1..SE-5)"),
    "serve": ("serve", "run the match server and web pages"),
    "simulate": ("games", "play one whole match with a bot in every seat"),
}
"""Command name -> (module under ``arena.cli``, help). Only the module of the command that
runs is imported: the others (and the games and NumPy they pull in) cost start-up time that a
one-puzzle command or ``arena --help`` should not pay (batch solve speed)."""


def _command_of(argv: "Sequence[str]") -> str | None:
    for arg in argv:
        if not arg.startswith("-"):
            return arg
    return None


def game_commands(installed: bool = True) -> "dict[str, tuple[str, str]]":
    """Each game with tools: command (the game's name) -> (its package, the command's help).
    Found without importing any game: the folders under ``arena.games``, games registered
    in this process and (``installed``) the packages of the ``arena.games`` entry points,
    whose look-up alone costs a quick command a few tens of milliseconds."""
    import os

    import arena.games

    found: dict[str, tuple[str, str]] = {}
    for folder in arena.games.__path__:
        for name in sorted(os.listdir(folder)):
            tools = os.path.join(folder, name, "tools.py")
            if name.isidentifier() and name not in found and os.path.isfile(tools):
                found[name] = (f"arena.games.{name}", _first_line(tools))
    for name, package in _other_games(installed):
        if name not in found and name.isidentifier():
            other = _tools_file(package)
            if other is not None:
                found[name] = (package, _first_line(other))
    return {n: found[n] for n in sorted(found) if n not in COMMANDS}


def _other_games(installed: bool) -> "list[tuple[str, str]]":
    """(name, package) of the games registered in-process or installed by entry point."""
    out: list[tuple[str, str]] = []
    registry = sys.modules.get("arena.core.registry")
    if registry is not None:  # only where something registered a game: never imported here
        for game in registry.registered().values():
            module = sys.modules.get(type(game).__module__)
            package = getattr(module, "__package__", None)
            if package:
                out.append((game.name, package))
    if installed:
        from importlib import metadata

        out += [(e.name, e.value.partition(":")[0])
                for e in metadata.entry_points(group="arena.games")]
    return out


def _tools_file(package: str) -> str | None:
    import importlib.util
    import os

    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        tools = os.path.join(folder, "tools.py")
        if os.path.isfile(tools):
            return tools
    return None


def _first_line(path: str) -> str:
    """The first line of a module's docstring, read as text (importing it would load the
    game): the help ``arena --help`` shows for the command."""
    with open(path, encoding="utf-8") as f:
        head = f.read(2000).lstrip()
    for quote in ('"""', "'''"):
        if head.startswith(quote):
            return head[3:].partition("\n")[0].strip().rstrip(".")
    return "tools"


def build_parser(argv: "Sequence[str] | None" = None) -> "argparse.ArgumentParser":
    """The parser, with the full parser of the command ``argv`` names (every command when
    ``argv`` is None) and a one-line entry for each other command."""
    import argparse
    import importlib

    class _Parser(argparse.ArgumentParser):
        """Usage mistakes as one line, like every other bad input (the full usage is --help)."""

        def error(self, message: str) -> "NoReturn":
            self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")

    parser = _Parser(
        prog="arena", description="Host and analyse online-reality-game matches."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    wanted = None if argv is None else _command_of(argv)
    games = game_commands(installed=False)
    if argv is None or (wanted not in COMMANDS and wanted not in games):
        games = game_commands()  # the installed games too: the command may be one of them
    helps = {c: text for c, (_, text) in COMMANDS.items()}
    helps.update({c: text for c, (_, text) in games.items()})
    modules = [f"arena.cli.{m}" for m in sorted({m for m, _ in COMMANDS.values()})] + \
        [f"{package}.tools" for package, _ in games.values()]
    if argv is not None:
        modules = ([f"arena.cli.{COMMANDS[wanted][0]}"] if wanted in COMMANDS else
                   [f"{games[wanted][0]}.tools"] if wanted in games else [])
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        add = getattr(module, "add_parser", None)
        if add is not None:
            add(sub)
    for command, text in sorted(helps.items()):
        if command not in sub.choices and (argv is not None or _exists(command)):
            sub.add_parser(command, help=text)
    return parser


def _exists(command: str) -> bool:
    import importlib.util

    return command not in COMMANDS or \
        importlib.util.find_spec(f"arena.cli.{COMMANDS[command][0]}") is not None


def _quick(argv: "list[str]") -> int | None:
    """The answer of the game's quick start (its package's ``quick`` module) when the
    command line names a game under ``arena.games`` that has one; None: the ordinary path."""
    name = argv[0] if argv else ""
    if not name.isidentifier() or name in COMMANDS:
        return None
    import os

    import arena.games

    if not any(os.path.isfile(os.path.join(folder, name, "quick.py"))
               for folder in arena.games.__path__):
        return None
    import importlib

    done: int | None = importlib.import_module(f"arena.games.{name}.quick").quick(argv)
    return done


def _end_now(code: int) -> "NoReturn":
    """End the process without the interpreter's teardown (freeing every module and object
    one by one), which costs a quick command more than a tenth of its run: only output is
    left to flush, and the quick path holds no files, threads or exit handlers."""
    import os

    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away: no error, as below
        code = 0
    except OSError as exc:  # a full disk, say: said in one line, as below
        sys.stderr.write(f"arena: {exc.strerror or exc}\n")
        code = 2
    os._exit(code)


def main(argv: "Sequence[str] | None" = None) -> int:
    whole_process = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and not argv[0].startswith("-") and argv[0] not in COMMANDS:
        # A game's quick start answers before argparse would have loaded.
        try:
            done = _quick(argv)
        except BrokenPipeError:  # the reader went away, as below
            done = 0
        except OSError as exc:  # writing the answers failed, as below
            print(f"arena: {exc.strerror or exc}", file=sys.stderr)
            done = 2
        if done is not None:
            if whole_process:
                _end_now(done)
            return done
    import contextlib
    import os

    from arena.core.errors import RuleError

    parser = build_parser(argv)
    args = parser.parse_args(argv)
    try:
        code: int = args.handler(args)
    except RuleError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (``arena ... | head``): nothing left to say to it.
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keeps interpreter exit quiet
        return 0
    except OSError as exc:
        print(f"arena: {exc.strerror or exc}: {getattr(exc, 'filename', '') or ''}".rstrip(": "),
              file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:
        # A file read outside :func:`arena.core.tools.read_text_arg` (a scenario path, say).
        print(f"arena: a file given is not UTF-8 text (byte {exc.start + 1} cannot be decoded)",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return code
