"""``arena games`` and ``arena simulate GAME``."""

from __future__ import annotations

import argparse
import json

from arena.core import rng as rngmod
from arena.core import settings as schema
from arena.core.errors import RuleError
from arena.core.game import BOT_LEVELS, BotLevel
from arena.core.registry import all_games, get_game


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("games", help="list the registered games")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=_games)

    s = sub.add_parser("simulate", help="play one whole match with a bot in every seat")
    s.add_argument("game")
    s.add_argument("--seed", type=_seed_arg, default=None,
                   help="a whole number 0..2^64-1 (default: a fresh random seed, G-12)")
    s.add_argument("--json", action="store_true")
    s.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a game setting (repeatable), e.g. --set rounds=2; typed and bounded "
                        "as the API's (G-5); --settings lists them")
    s.add_argument("--settings", action="store_true",
                   help="list the game's settings (type, bounds, default, help) and exit")
    s.add_argument("--level", default="hard", metavar="LEVEL[,LEVEL...]",
                   help="the bots' level (G-8): easy, normal or hard (the default); one for "
                        "every seat, or one per seat separated by commas (hard,easy)")
    s.set_defaults(handler=_simulate)


def parse_levels(text: str, seats: int) -> dict[int, BotLevel]:
    """``--level``: one level for every seat or one per seat (G-8), by seat number."""
    names = [x.strip() for x in text.split(",")]
    chosen: list[BotLevel] = []
    for name in names:
        level = next((lv for lv in BOT_LEVELS if lv == name), None)
        if level is None:
            raise RuleError("G-8", f"--level: {name[:40]!r} is not a level; the levels are "
                                   f"{', '.join(BOT_LEVELS)}")
        chosen.append(level)
    if len(chosen) == 1:
        chosen *= seats
    if len(chosen) != seats:
        raise RuleError("G-8", f"--level names {len(chosen)} levels for {seats} seats; give "
                               "one for every seat, or one per seat")
    return dict(enumerate(chosen))


def _seed_arg(text: str) -> int:
    try:
        return rngmod.parse_seed(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{exc} (G-7)") from None


def _games(args: argparse.Namespace) -> int:
    games = all_games()
    if args.json:
        print(json.dumps([
            {"name": g.name, "title": g.title, "seats": g.seats, "chance": g.chance,
             "hidden_information": g.hidden_information, "summary": g.summary,
             "options": schema.options(g.config_type)}
            for g in games.values()
        ]))
    else:
        for g in games.values():
            print(f"{g.name:<10} {g.seats} seats  {g.title}: {g.summary}")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from arena.core.driver import simulate  # ``arena games`` need not load the driver
    from arena.core.match import MatchSettings

    game = get_game(args.game)
    if args.settings:
        _print_settings(game.config_type, as_json=args.json)
        return 0
    bad = [item for item in args.set if "=" not in item]
    if bad:
        raise RuleError("G-5", f"--set takes NAME=VALUE, not {bad[0]!r}")
    values = dict(item.split("=", 1) for item in args.set)
    # The same schema as the API's, read from text; the same whole-match bound.
    config = game.config_from_strings(values)
    schema.check_game_config(game, config, MatchSettings().time_scale)
    if args.seed is None:
        args.seed = rngmod.fresh_seed()
    levels = parse_levels(args.level, game.seat_count(config))
    # G-11: a simulation has no wall clock to wait on; its record says so.
    match = simulate(game, args.seed, config, MatchSettings(bot_pace="instant"),
                     levels=levels)
    result = match.result
    assert result is not None
    out = {
        "game": game.name,
        "seed": args.seed,
        "winner": result.winner,
        "scores": list(result.scores),
        "reason": result.reason,
        "detail": result.detail,
        "events": len(match.log),
        "phases": match.phase_no,
        "levels": [levels[i] for i in range(len(levels))],
    }
    if args.json:
        print(json.dumps(out))
    else:
        who = "no single winner" if result.winner is None else f"seat {result.winner + 1} wins"
        print(f"{game.title}, seed {args.seed}: {who} ({result.reason}); scores "
              f"{', '.join(f'{x:g}' for x in result.scores)}; {len(match.log)} events")
    return 0


def _print_settings(cls: type[object], *, as_json: bool) -> None:
    """The settings a game takes, from its schema: what ``--set`` accepts."""
    options = schema.options(cls)
    if as_json:
        print(json.dumps(options))
        return
    for o in options:
        bounds = ""
        if "min" in o or "max" in o:
            bounds = f" {o.get('min', '')}..{o.get('max', '')}"
        elif "max_length" in o:
            bounds = f" up to {o['max_length']:,} characters"
        elif "max_items" in o:
            bounds = f" up to {o['max_items']} items"
        unit = " s" if o.get("unit") == "s" else ""
        print(f"{o['name']:<20} {o['type']}{bounds}{unit}, default {json.dumps(o['default'])}"
              f"{'  ' + o['help'] if o['help'] else ''}")
