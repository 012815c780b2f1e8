"""Last Stone tools: the winning take.

``arena nim best STONES [--take-most K] [--json]``: the take that leaves the opponent a
losing pile (NIM-1, NIM-2), or that there is none against best play.
"""

from __future__ import annotations

import argparse

from arena.core.errors import RuleError
from arena.core.tools import command_help, emit, positive_int
from sixth_game import best_take


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("nim", help=command_help(__doc__))
    tools = p.add_subparsers(dest="nim_command", metavar="TOOL")
    tools.required = True
    b = tools.add_parser("best", help="the winning take from a pile (NIM-1, NIM-2)")
    b.add_argument("stones", type=positive_int, help="stones in the pile")
    b.add_argument("--take-most", type=positive_int, default=3,
                   help="the most stones one turn may take (NIM-2)")
    b.add_argument("--json", action="store_true")
    b.set_defaults(handler=_best)


def _best(args: argparse.Namespace) -> int:
    if args.take_most > 10:
        raise RuleError("NIM-2", "a turn takes at most 10 stones")
    take = best_take(args.stones, min(args.take_most, args.stones))
    words = (f"take {take}" if take is not None
             else "every take loses against best play; take 1")
    emit({"stones": args.stones, "take": take}, args.json, words)
    return 0
