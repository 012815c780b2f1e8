"""``arena season simulate|show``: a whole season with bots, and a saved record (SE-1..SE-5)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from arena.core.errors import RuleError
from arena.core.tools import input_file, output_file, read_text_arg
from arena.core.wording import counted


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("season", help="run or show a whole season (SE-1..SE-5)")
    cmds = p.add_subparsers(dest="season_command", metavar="TOOL")
    cmds.required = True
    s = cmds.add_parser("simulate", help="a whole season with bots, down to the final DM")
    s.add_argument("--players", type=int, default=6)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--json", action="store_true")
    s.add_argument("--out", metavar="FILE", type=output_file,
                   help="save the record as JSON (checked before the season is played)")
    s.set_defaults(handler=_simulate)
    w = cmds.add_parser("show", help="print a saved season record")
    w.add_argument("file", type=input_file)
    w.add_argument("--json", action="store_true")
    w.set_defaults(handler=_show)


def _simulate(args: argparse.Namespace) -> int:
    from arena.season.simulate import simulate_season

    if not 3 <= args.players <= 26:
        raise RuleError("SE-1", "a season has 3 to 26 players")
    if args.seed < 0:
        raise RuleError("G-7", "seeds are non-negative whole numbers")
    data = simulate_season(args.players, args.seed).to_json()
    if args.out:
        Path(args.out).write_text(json.dumps(data, indent=1), encoding="utf-8")
    _print(data, args.json)
    return 0


def _show(args: argparse.Namespace) -> int:
    from arena.season.simulate import load_record

    text = read_text_arg(args.file, "a season record")  # its refusals are its own line
    try:
        data = json.loads(text)
        record = load_record(data)
    except (ValueError, KeyError, TypeError) as exc:
        raise RuleError("SE-5", f"{args.file} is not a season record ({exc})") from None
    _print(record.to_json(), args.json)
    return 0


def _print(data: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(data))
        return
    print(f"Season of {len(data['cast'])} (seed {data['seed']}): {data['winner']} wins")
    for ep in data["episodes"]:
        dm = ep["death_match"]
        head = f"Episode {ep['episode']}: "
        if ep["main"] is not None:
            head += (f"Main Match: escaped {', '.join(ep['main']['escaped']) or 'nobody'}; "
                     f"EC {ep['ec']} nominated {ep['dmo']}; ")
        if dm is not None:
            head += (f"{dm['game']} {dm['seats'][0]} v {dm['seats'][1]}: {dm['winner']} won, "
                     f"{ep['eliminated']} leaves")
        print(head)
    print("Ledger:")
    for e in data["ledger"]:
        print(f"  ep {e['episode']}: {e['player']} {e['kind']} {e['amount']:+d} ({e['cause']})")
    # SE-5: the standings are the ledger replayed (``to_json`` replays it), never stored apart.
    print("Final standings:" if data.get("winner") else "Standings:")
    # Ranked as the season ended them: the winner, those still in, then the later eliminated.
    ranked = sorted(data["standings"], key=lambda s: (
        not s["won"], not s["in"], -(s["eliminated_in"] or 0)))
    for place, s in enumerate(ranked, 1):
        status = "won the season" if s["won"] else (
            "still in" if s["in"] else f"eliminated in episode {s['eliminated_in']}")
        print(f"  {place}. {s['name']}: {status}; {counted(s['tols'], 'ToL')}, "
              f"{counted(s['garnets'], 'garnet')}, {counted(s['opals'], 'opal')}")
