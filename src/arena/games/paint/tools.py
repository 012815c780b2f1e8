"""Paint Factory tools: score a grid, check a set design.

``arena paint score BOARD`` and ``arena paint check-sets SETS`` (PF-4, PF-6, PF-7)."""

from __future__ import annotations

import argparse

from arena.core.tools import PUZZLE_LIMIT, command_help, emit, input_file, read_text_arg
from arena.games.paint.grid import cell_name, parse_grid
from arena.games.paint.scoring import score_grid
from arena.games.paint.sets import design_errors


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("paint", help=command_help(__doc__))
    psub = p.add_subparsers(dest="paint_command", metavar="TOOL")
    psub.required = True

    s = psub.add_parser("score", help="score a full or partial grid (PF-6, PF-7)")
    s.add_argument("board", type=input_file,
                   help="a file of 5 lines of 5 letters R/G/B ('.' empty), or - for stdin")
    s.add_argument("--json", action="store_true")
    s.set_defaults(handler=_score)

    c = psub.add_parser("check-sets", help="check 8 sets against PF-4")
    c.add_argument("sets", help='the sets, first-entering colour first: "GRBR,RGBB,..."')
    c.add_argument("--json", action="store_true")
    c.set_defaults(handler=_check_sets)


def _score(args: argparse.Namespace) -> int:
    grid = parse_grid(read_text_arg(args.board, "a grid file", PUZZLE_LIMIT))
    result = score_grid(grid)
    lines = [f"score {result.score} = {result.formula}",
             f"non-connected containers: {result.non_connected}"]
    for chain in result.chains:
        if chain.length > 1:
            cells = " ".join(cell_name(i) for i in chain.cells)
            lines.append(f"chain {chain.colour} length {chain.length}: {cells}")
    for comp in result.looped:
        cells = " ".join(cell_name(i) for i in comp.cells)
        lines.append(f"looped {comp.colour} (scores nothing): {cells}")
    emit(result.to_json(), args.json, "\n".join(lines))
    return 0


def _check_sets(args: argparse.Namespace) -> int:
    errors = design_errors(args.sets)
    human = "valid: the 8 sets follow PF-4" if not errors else "\n".join(errors)
    emit({"valid": not errors, "errors": errors}, args.json, human)
    return 0 if not errors else 1
