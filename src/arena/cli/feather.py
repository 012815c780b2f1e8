"""``arena feather run SCENARIO``: replay a Light as a Feather scenario from a script of timed
actions and print the state after every tick (LF-2), so a host can settle a dispute."""

from __future__ import annotations

import argparse
import json

from arena.cli._util import read_text_arg
from arena.games.feather.match import GAME
from arena.games.feather.scenario import SCENARIO_DIR
from arena.games.feather.script import describe_tick, parse_script, run_script


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("feather", help="Light as a Feather tools")
    fsub = p.add_subparsers(dest="feather_command", metavar="COMMAND")
    fsub.required = True
    r = fsub.add_parser("run", help="run a scenario from a script of timed actions")
    r.add_argument("scenario", help="a shipped scenario (example, default) or a .toml path")
    r.add_argument("--actions", metavar="FILE",
                   help="lines 'TICK SEAT ACTION' ('-' for standard input); for the shipped "
                        "example the text's own actions are the default")
    r.add_argument("--ankh", type=int, choices=(1, 2), default=2,
                   help="the seat holding the ankh at the start (LF-5; default 2, the DMO)")
    r.add_argument("--no-practice", action="store_true", help="skip the practice session")
    r.add_argument("--session-ticks", type=int, default=0,
                   help="ticks per session instead of the scenario's")
    r.add_argument("--json", action="store_true")
    r.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    if args.actions is not None:
        text = read_text_arg(args.actions)
    else:
        default = SCENARIO_DIR / f"{args.scenario}.actions"
        text = default.read_text(encoding="utf-8") if default.is_file() else ""
    # A path is read here, by the person running the command, and goes into the config as
    # text: the game itself only knows shipped scenarios by name (issue 20).
    source = ({"scenario_text": read_text_arg(args.scenario)}
              if args.scenario.endswith(".toml") or "/" in args.scenario
              else {"scenario": args.scenario})
    config = GAME.make_config({
        **source, "ankh": args.ankh - 1, "practice": not args.no_practice,
        "session_ticks": args.session_ticks,
    })
    record = run_script(config, parse_script(text))
    if args.json:
        print(json.dumps(record))
        return 0
    for tick in record["ticks"]:
        print(describe_tick(tick))
    res = record["result"]
    who = "no winner" if res["winner"] is None else f"seat {res['winner'] + 1} wins"
    print(f"result: {who} ({res['reason']}); points "
          f"{', '.join(f'{x:g}' for x in res['scores'])}")
    return 0
