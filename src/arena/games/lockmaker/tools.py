"""Lockmaker tools: solve, check, render, validate.

``arena lockmaker solve|check|render|validate``: the host's tools for Lockmaker.

- ``solve LOCK`` (a lock file, ``-`` for stdin) or ``solve --rush STRING``: the optimal solution
  or a proof of impossibility; ``--json`` gives ``{"solvable", "moves", "solution", "states"}``.
- ``check LOCK SOLUTION`` (SOLUTION a file or ``-``) or ``check LOCK --moves "..."`` (the moves
  themselves; ``--rush STRING`` in place of LOCK): ``{"valid", "solved", "moves", "error"}``;
  exit 0 when valid and solved, else 1.
- ``render LOCK -o FILE``: SVG or PNG by the file's extension.
- ``validate LOCK --pieces LIST``: is it a legal construction for those drafted pieces (LM-15,
  LM-22)? ``{"valid", "problems"}``; exit 0 when valid, else 1.

A lock that cannot be read exits 2 with one line naming the rule, line and column.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from arena.core.errors import ParseError, RuleError
from arena.core.tools import (
    PUZZLE_LIMIT,
    command_help,
    emit,
    input_file,
    output_file,
    positive_int,
    read_text_arg,
)
from arena.games.lockmaker.tools_fast import extend_lockmaker, solve_rush_file

# Each handler imports the game modules it uses: ``solve --rush-file`` loads neither the
# renderer nor the reference solver nor the validator (start-up).


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("lockmaker", help=command_help(__doc__))
    cmds = p.add_subparsers(dest="lm_command", metavar="TOOL")
    cmds.required = True

    s = cmds.add_parser("solve", help="optimal solution of a lock, or proof it is impossible")
    s.add_argument("lock", nargs="?", type=input_file, help="lock file (LM-10), or - for stdin")
    s.add_argument("--rush", metavar="STRING", help="a 36-character Rush Hour string (LM-12)")
    s.add_argument("--max-states", type=positive_int, default=None,
                   help="give up after this many states (the answer is then not a proof)")
    s.add_argument("--json", action="store_true")
    s.add_argument("--rush-file", metavar="FILE", type=input_file,
                   help="solve every puzzle of a file (a file of plain Rush Hour lines is "
                        "solved in this process by a quick search; stdin (-) by the fast solver)")
    s.add_argument("--jobs", type=positive_int, default=None,
                   help="with --rush-file -: puzzles solved at once (default: one per core)")
    s.set_defaults(handler=_solve)

    c = cmds.add_parser("check", help="replay a solution on a lock (LM-11)")
    c.add_argument("items", nargs="*", metavar="FILE", type=input_file,
                   help="the lock file (or -), then the solution file (or -); with --rush "
                        "only the solution file; with --moves only the lock file")
    c.add_argument("--moves", metavar="TEXT", help='the solution itself, e.g. "BC1 L1, K R1"')
    c.add_argument("--rush", metavar="STRING")
    c.add_argument("--json", action="store_true")
    c.set_defaults(handler=_check)

    r = cmds.add_parser("render", help="draw a lock as SVG or PNG with algebraic labels")
    r.add_argument("lock", nargs="?", type=input_file, help="lock or board file, or -")
    r.add_argument("--rush", metavar="STRING")
    r.add_argument("-o", "--output", required=True, type=output_file, help="FILE.svg or FILE.png")
    r.add_argument("--title", default=None)
    r.set_defaults(handler=_render)

    v = cmds.add_parser("validate", help="is a lock a legal construction for a drafted hand?")
    v.add_argument("lock", type=input_file, help="lock file, or -")
    v.add_argument("--pieces", required=True, help="drafted pieces, e.g. H2,H2,V3,X (LM-22)")
    v.add_argument("--board", default=None, type=input_file,
                   help="the round's board file, to check the shape")
    v.add_argument("--json", action="store_true")
    v.set_defaults(handler=_validate)
    extend_lockmaker(cmds)  # hardest, generate (tools_fast)


def _solve(args: argparse.Namespace) -> int:
    if args.rush_file is not None:
        return solve_rush_file(args.rush_file, args.json, args.jobs)
    from arena.games.lockmaker.notation import format_solution
    from arena.games.lockmaker.solver import solve
    from arena.games.lockmaker.tools_io import load_position

    pos = load_position(args.lock, args.rush)
    res = solve(pos, max_states=args.max_states)
    moves = format_solution(pos.board, res.solution)
    data = {"solvable": res.solvable, "moves": res.moves, "solution": moves,
            "states": res.states}
    if not res.complete:
        data["complete"] = False
    if res.solvable:
        human = f"solvable in {res.moves} moves ({res.states} states explored):\n" + "\n".join(
            f"{i:3}. {m}" for i, m in enumerate(moves, 1))
    elif res.complete:
        human = f"impossible: all {res.states} reachable positions explored, none solved"
    else:
        human = f"no solution found within {res.states} states (not a proof)"
    emit(data, args.json, human)
    return 0


def _check(args: argparse.Namespace) -> int:
    from arena.games.lockmaker.lockfile import read_lock
    from arena.games.lockmaker.notation import replay
    from arena.games.lockmaker.rush import read_rush
    from arena.games.lockmaker.validate import construction_error

    items: list[str] = args.items
    # Files are files and moves are --moves: a mistyped file name is never read as moves.
    wanted = (0 if args.rush is not None else 1) + (0 if args.moves is not None else 1)
    if len(items) != wanted:
        lock = "--rush STRING" if args.rush is not None else "a lock file"
        sol = '--moves "..."' if args.moves is not None else 'a solution file (or --moves "...")'
        raise RuleError("LM-11", f"give {lock} and {sol}; got {len(items)} file argument(s)")
    if args.rush is not None:
        pos = read_rush(args.rush)
    else:
        pos = read_lock(_read_named("lock file", items[0]))
    problems = pos.problems()
    if problems:
        raise construction_error(problems, "not a legal lock: ")
    text = args.moves if args.moves is not None else _read_named("solution file", items[-1])
    try:
        rep = replay(pos, text)
        data = {"valid": rep.valid, "solved": rep.solved, "moves": rep.moves, "error": rep.error}
    except ParseError as exc:
        data = {"valid": False, "solved": False, "moves": 0, "error": str(exc)}
    if data["error"]:
        human = f"invalid: {data['error']}"
    elif data["solved"]:
        human = f"valid: solved in {data['moves']} moves"
    else:
        human = f"valid but not solved after {data['moves']} moves"
    emit(data, args.json, human)
    return 0 if data["solved"] else 1


def _read_named(what: str, path: str) -> str:
    """A file argument's text; a missing file says which of the arguments it was."""
    if path != "-" and not Path(path).exists():
        raise RuleError("LM-11", f"{what} {path!r} not found")
    return read_text_arg(path, f"a {what}", PUZZLE_LIMIT)


def _render(args: argparse.Namespace) -> int:
    from arena.games.lockmaker.lockfile import read
    from arena.games.lockmaker.render import render_png, render_svg
    from arena.games.lockmaker.rush import read_rush

    out = Path(args.output)
    if out.suffix.lower() not in (".png", ".svg"):  # before the lock is read
        raise RuleError("", f"{out}: the output file must end in .svg or .png")
    lock = read_rush(args.rush) if args.rush is not None else read(
        read_text_arg(args.lock or "-", "a lock file", PUZZLE_LIMIT))
    if out.suffix.lower() == ".png":
        out.write_bytes(render_png(lock, title=args.title))
    else:
        out.write_text(render_svg(lock, title=args.title), encoding="utf-8")
    print(out)
    return 0


def _validate(args: argparse.Namespace) -> int:
    from arena.games.lockmaker.lockfile import read_board, read_lock
    from arena.games.lockmaker.pieces import parse_piece_list
    from arena.games.lockmaker.validate import construction_problems

    pos = read_lock(read_text_arg(args.lock, "a lock file", PUZZLE_LIMIT))
    drafted = parse_piece_list(args.pieces)
    board = (read_board(read_text_arg(args.board, "a board file", PUZZLE_LIMIT)) if args.board
             else None)
    problems = construction_problems(pos, drafted, board)
    data = {"valid": not problems, "problems": problems}
    human = "valid lock" if not problems else "invalid lock:\n" + "\n".join(
        f"- {p}" for p in problems)
    emit(data, args.json, human)
    return 0 if not problems else 1
