"""Light as a Feather tools.

``arena feather run SCENARIO``: replay a Light as a Feather scenario from a script of timed
actions and print the state after every tick (LF-2), so a host can settle a dispute.
``arena feather generate --seed N``: print the scenario a match with seed N plays (LF-12)."""

from __future__ import annotations

import argparse
import json
import sys
import tomllib

from arena.core import rng as rngmod
from arena.core.errors import RuleError
from arena.core.tools import command_help, input_file, read_text_arg
from arena.games.feather import generate as gen
from arena.games.feather.feasible import objective_problems
from arena.games.feather.match import GAME
from arena.games.feather.scenario import SCENARIO_DIR, parse_scenario
from arena.games.feather.script import describe_tick, parse_script, run_script


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("feather", help=command_help(__doc__))
    fsub = p.add_subparsers(dest="feather_command", metavar="COMMAND")
    fsub.required = True
    r = fsub.add_parser("run", help="run a scenario from a script of timed actions")
    r.add_argument("scenario", type=input_file,
                   help="a shipped scenario (example, default) or a .toml path")
    r.add_argument("--actions", metavar="FILE", type=input_file,
                   help="lines 'TICK SEAT ACTION' ('-' for standard input); for the shipped "
                        "example the text's own actions are the default")
    r.add_argument("--ankh", type=int, choices=(1, 2), default=2,
                   help="the seat holding the ankh at the start (LF-5; default 2, the DMO)")
    r.add_argument("--no-practice", action="store_true", help="skip the practice session")
    r.add_argument("--session-ticks", type=int, default=0,
                   help="ticks per session instead of the scenario's")
    r.add_argument("--json", action="store_true")
    r.set_defaults(handler=_run)

    g = fsub.add_parser("generate", help="print the scenario a match with this seed plays (LF-12)")
    g.add_argument("--seed", type=_seed_arg, default=None,
                   help="the match's seed, 0..2^64-1 (default: a fresh one, printed on stderr)")
    g.add_argument("--difficulty", choices=gen.DIFFICULTIES, default="normal")
    g.add_argument("--sessions", type=int, default=3,
                   help=f"scored sessions, 1..{gen.MAX_SESSIONS} (default 3)")
    g.add_argument("--no-practice", action="store_true", help="leave out the practice session")
    form = g.add_mutually_exclusive_group()
    form.add_argument("--toml", action="store_true", help="TOML, as a host writes it (default)")
    form.add_argument("--json", action="store_true", help="the same data as JSON")
    g.add_argument("--check", action="store_true",
                   help="also prove every objective reachable (LF-12) and say so on stderr")
    g.set_defaults(handler=_generate)


def _seed_arg(text: str) -> int:
    try:
        return rngmod.parse_seed(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{exc} (G-7)") from None


def _generate(args: argparse.Namespace) -> int:
    """The same draw as a match's setup (``derive(seed, "setup")``), so the printed puzzle is
    the one ``arena simulate feather --seed N`` and a served match with seed N play."""
    if not 1 <= args.sessions <= gen.MAX_SESSIONS:
        raise RuleError("LF-12", f"--sessions is 1 to {gen.MAX_SESSIONS}, not {args.sessions}")
    seed = rngmod.fresh_seed() if args.seed is None else args.seed
    if args.seed is None:
        print(f"seed {seed}", file=sys.stderr)
    text = gen.for_match(rngmod.derive(seed, "setup"), args.difficulty, args.sessions,
                         not args.no_practice)
    if args.check:
        problems = objective_problems(parse_scenario(text, "generated"))
        for p in problems:
            print(f"{p.rule}: {p.message}", file=sys.stderr)
        if problems:
            return 1
        print("every objective is proven reachable (LF-12)", file=sys.stderr)
    if args.json:
        print(json.dumps(tomllib.loads(text), indent=1))
    else:
        sys.stdout.write(text)
    return 0


def _run(args: argparse.Namespace) -> int:
    is_path = args.scenario.endswith(".toml") or "/" in args.scenario
    if args.actions is not None:
        text = read_text_arg(args.actions, "an action script")
    elif is_path:  # only a shipped scenario has default actions (a path is not joined on)
        text = ""
    else:
        default = SCENARIO_DIR / f"{args.scenario}.actions"
        text = default.read_text(encoding="utf-8") if default.is_file() else ""
    # A path is read here, by the person running the command, and goes into the config as
    # text: the game itself only knows shipped scenarios by name.
    source = ({"scenario_text": read_text_arg(args.scenario, "a scenario file")} if is_path
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
