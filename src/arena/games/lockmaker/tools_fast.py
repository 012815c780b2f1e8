"""Fast Lockmaker tools, hooked into ``arena lockmaker`` by :mod:`arena.games.lockmaker.tools`.

- ``solve --rush-file FILE [--json]``: every puzzle of a file (one a line: name, Rush Hour
  string, anything after ignored) in one process, one line (JSON with ``name`` added) each.
- ``hardest LOCK [--json]`` (LOCK a lock file, ``-``, or ``--rush STRING``): Fogleman's cluster
  walk -> ``{"states", "moves", "lock"}``, the lock being a farthest position of the set.
- ``generate --board FILE --pieces LIST [--seconds N] [--seed N] [--jobs N] [--minimal]
  [--json]``: the hardest lock the generator finds -> ``{"moves", "lock", "searched"}``. A
  ``@`` in the board file fixes the keyhole; otherwise the generator places it (LM-2).
  ``--jobs`` runs that many independent searches at once (default: one per core).

This module deliberately has no ``add_parser``: the commands live under ``arena lockmaker``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

from arena.core.errors import ParseError, RuleError
from arena.core.tools import (
    PUZZLE_LIMIT,
    emit,
    input_file,
    read_text_arg,
    seed_arg,
)
from arena.games.lockmaker.quick import RUSH_FILE_LIMIT

if TYPE_CHECKING:
    from arena.games.lockmaker.board import Board

# The game's modules are imported by the handler that needs them: building the parser must
# not load the solver, and a batch of small puzzles never loads NumPy.


def extend_lockmaker(cmds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``hardest`` and ``generate`` to the ``arena lockmaker`` subcommands."""
    h = cmds.add_parser("hardest", help="cluster walk: reachable set and its hardest position")
    h.add_argument("lock", nargs="?", type=input_file, help="lock file (LM-10), or - for stdin")
    h.add_argument("--rush", metavar="STRING", help="a 36-character Rush Hour string (LM-12)")
    h.add_argument("--json", action="store_true")
    h.set_defaults(handler=_hardest)

    g = cmds.add_parser("generate", help="search placements of a hand for the hardest lock")
    g.add_argument("--board", required=True, type=input_file,
                   help="board file (. and #; an @ fixes the keyhole)")
    g.add_argument("--pieces", required=True, help="the drafted hand, e.g. H2,H3,V2,X (LM-22)")
    g.add_argument("--seconds", type=float, default=10.0)
    g.add_argument("--seed", type=seed_arg, default=None)
    g.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="independent searches in parallel (default: one per core)")
    g.add_argument("--minimal", action="store_true",
                   help="only keep locks where every unmoved bar is needed (Fogleman)")
    g.add_argument("--json", action="store_true")
    g.set_defaults(handler=_generate)


def _hardest(args: argparse.Namespace) -> int:
    from arena.games.lockmaker.fast.api import hardest
    from arena.games.lockmaker.lockfile import write_lock
    from arena.games.lockmaker.tools_io import load_position

    pos = load_position(args.lock, args.rush)
    res = hardest(pos)
    text = write_lock(res.lock)
    data = {"states": res.states, "moves": res.moves, "lock": text}
    if res.moves < 0:
        human = f"{res.states} reachable positions, none solved (impossible)"
    else:
        human = (f"{res.states} reachable positions; the hardest needs {res.moves} moves:\n"
                 + text)
    emit(data, args.json, human)
    return 0


def read_generator_board(text: str) -> tuple[Board, int | None]:
    """A draft board file; an ``@`` marks a fixed keyhole (LM-2, LM-10)."""
    from arena.games.lockmaker.lockfile import read_board

    keyhole: int | None = None
    rows = [ln.rstrip() for ln in text.splitlines()
            if ln.strip() and not ln.lstrip().startswith(";")]
    if not rows:
        raise ParseError("LM-10", "the board file has no rows")
    for r, row in enumerate(rows):
        c = row.find("@")
        if c >= 0:
            if keyhole is not None or row.count("@") > 1:
                raise ParseError("LM-2", "a board has one keyhole", line=r + 1, column=c + 1)
            keyhole = r * len(rows[0]) + c
    board = read_board("\n".join(row.replace("@", ".") for row in rows) + "\n")
    if keyhole is not None and not board.keyhole_sides(keyhole):
        raise RuleError("LM-2", "the keyhole must be on the outermost row or column of a side "
                                "without labels")
    return board, keyhole


def _generate(args: argparse.Namespace) -> int:
    # The generator and its process pool load only for this command (start-up).
    from arena.games.lockmaker.fast.generator import terminal_progress
    from arena.games.lockmaker.fast.jobs import generate_jobs
    from arena.games.lockmaker.lockfile import write_lock
    from arena.games.lockmaker.pieces import parse_piece_list

    board, keyhole = read_generator_board(read_text_arg(args.board, "a board file", PUZZLE_LIMIT))
    hand = parse_piece_list(args.pieces)
    rng = random.Random(args.seed)
    if args.jobs < 1:
        raise RuleError("LM-22", "--jobs must be at least 1")
    res = generate_jobs(board, hand, jobs=args.jobs, seconds=args.seconds, rng=rng,
                        keyhole=keyhole, minimal=args.minimal,
                        progress=terminal_progress(args.seconds))
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    text = write_lock(res.lock)
    emit({"moves": res.moves, "lock": text, "searched": res.searched}, args.json,
         f"{res.moves} moves ({res.searched} placements searched):\n{text}")
    return 0


def _solve_one(rush: str) -> dict[str, object]:
    from arena.games.lockmaker.fast.api import fast_solve
    from arena.games.lockmaker.notation import format_solution
    from arena.games.lockmaker.rush import read_rush

    pos = read_rush(rush)
    res = fast_solve(pos)
    return {"solvable": res.solvable, "moves": res.moves,
            "solution": format_solution(pos.board, res.solution), "states": res.states}


def solve_rush_file(path: str, as_json: bool, jobs: int | None = None) -> int:
    """``arena lockmaker solve --rush-file FILE``: one result line per puzzle, in file order.

    Every line is read and checked first (a bad line stops the run before any work). The
    puzzles are independent, so with ``jobs`` > 1 they are solved by that many worker
    processes (forked, so they share the already imported solver) and printed in order."""
    from arena.games.lockmaker.fast.api import fast_solve  # noqa: F401 - before the fork
    from arena.games.lockmaker.rush import read_rush

    text = read_text_arg(path, "a Rush Hour file", RUSH_FILE_LIMIT)
    puzzles: list[tuple[str, str]] = []
    for no, line in enumerate(text.splitlines(), 1):
        fields = line.split()
        if not fields or fields[0].startswith(("#", ";")):
            continue
        if len(fields) < 2:
            raise ParseError("LM-12", "expected: name, Rush Hour string", line=no)
        name, rush = fields[0], fields[1]
        try:
            read_rush(rush)
        except ParseError as exc:
            raise ParseError("LM-12", f"{name}: {exc.message}", line=no) from None
        puzzles.append((name, rush))
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(puzzles)))
    results: Iterator[dict[str, object]]
    if jobs > 1:
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(jobs)
        results = pool.imap(_solve_one, [r for _, r in puzzles], chunksize=1)
    else:
        pool = None
        results = map(_solve_one, [r for _, r in puzzles])
    try:
        for (name, _), res in zip(puzzles, results, strict=True):
            data = {"name": name, **res}
            if as_json:
                print(json.dumps(data), flush=True)
            else:
                verdict = f"{res['moves']} moves" if res["solvable"] else "impossible"
                print(f"{name}: {verdict} ({res['states']} states)", flush=True)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return 0
