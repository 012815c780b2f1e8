"""The ``arena`` command.

Each module in this package that defines ``add_parser(subparsers)`` contributes a command
(``lockmaker``, ``paint``, ``serve``, ...), so a game's tools land without editing a shared file.
A command's handler returns the process exit code; errors in user input print one line and
exit with 2, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence

from arena.core.errors import RuleError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arena", description="Host and analyse online-reality-game matches."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    import arena.cli as pkg

    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"arena.cli.{info.name}")
        add = getattr(module, "add_parser", None)
        if add is not None:
            add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
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
    except KeyboardInterrupt:
        return 130
    return code
