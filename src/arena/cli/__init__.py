"""The ``arena`` command.

Each module in this package that defines ``add_parser(subparsers)`` contributes a command
(``lockmaker``, ``paint``, ``serve``, ...), so a game's tools land without editing a shared file.
A command's handler returns the process exit code; errors in user input print one line and
exit with 2, never a traceback.
"""

import sys

MYPY = False
if MYPY:  # types only: importing typing would load re, a cost a quick run should not pay
    # (annotations naming these are quoted: ``from __future__ import annotations`` costs too)
    import argparse
    from collections.abc import Sequence
    from typing import NoReturn

COMMANDS: dict[str, tuple[str, str]] = {
    "boxes": ("boxes", "Box within a Box within a Box tools (odds, moves, boards)"),
    "feather": ("feather", "Light as a Feather tools"),
    "games": ("games", "list the registered games"),
    "lockedout": ("lockedout", "Locked Out! tools: lights and the deduction helper"),
    "lockmaker": ("lockmaker", "Lockmaker tools: solve, check, render, validate"),
    "paint": ("paint", "Paint Factory tools: score a grid, check a set design"),
    "season": ("season", "run or show a whole season (SE-1..SE-5)"),
    "serve": ("serve", "run the match server and web pages"),
    "simulate": ("games", "play one whole match with a bot in every seat"),
}
"""Command name -> (module under ``arena.cli``, help). Only the module of the command that
runs is imported: the others (and the games and NumPy they pull in) cost start-up time that a
one-puzzle command or ``arena --help`` should not pay (issue 18: batch solve speed)."""


def _command_of(argv: "Sequence[str]") -> str | None:
    for arg in argv:
        if not arg.startswith("-"):
            return arg
    return None


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
    modules = sorted({m for m, _ in COMMANDS.values()}) if argv is None else (
        [COMMANDS[wanted][0]] if wanted in COMMANDS else [])
    for name in modules:
        try:
            module = importlib.import_module(f"arena.cli.{name}")
        except ModuleNotFoundError:
            continue
        add = getattr(module, "add_parser", None)
        if add is not None:
            add(sub)
    for command, (_, text) in COMMANDS.items():
        if command not in sub.choices and (argv is not None or _exists(command)):
            sub.add_parser(command, help=text)
    return parser


def _exists(command: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(f"arena.cli.{COMMANDS[command][0]}") is not None


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
    if argv[:3] == ["lockmaker", "solve", "--rush-file"]:
        # Rush Hour batches solve before argparse would have loaded (issue 29 point 5).
        from arena.cli.lockmaker_rush import quick

        try:
            done = quick(argv)
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
        # A file read outside :func:`arena.cli._util.read_text_arg` (a scenario path, say).
        print(f"arena: a file given is not UTF-8 text (byte {exc.start + 1} cannot be decoded)",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return code
