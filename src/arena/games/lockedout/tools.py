"""Locked Out! tools: lights and the deduction helper.

``arena lockedout light`` and ``arena lockedout deduce``: the safes' lights and the deduction
helper on the command line (LO-4, LO-1)."""

from __future__ import annotations

import argparse
import json

from arena.core.errors import ParseError
from arena.core.tools import command_help, emit, input_file, read_text_arg
from arena.games.lockedout.deduce import deduce, guess_value, observations_from_json
from arena.games.lockedout.safes import (
    SAFE_NAMES,
    Combo,
    check_mapping,
    colour_of_pattern,
    conditions,
    pattern,
    safe_index,
)


def _pair(text: str, what: str) -> Combo:
    parts = [p for p in text.replace(" ", "").replace("-", ",").split(",") if p]
    if len(parts) != 2 or not all(p.isdigit() and 1 <= int(p) <= 4 for p in parts):
        raise ParseError("LO-1", f"{what} is two cards 1-4 as LEFT,RIGHT (e.g. 2,3), not {text!r}")
    return int(parts[0]), int(parts[1])


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("lockedout", help=command_help(__doc__))
    tools = p.add_subparsers(dest="tool", metavar="TOOL")
    tools.required = True

    lp = tools.add_parser("light", help="the conditions a guess meets, and its colour")
    lp.add_argument("--lock", required=True, help="the combination, LEFT,RIGHT")
    lp.add_argument("--guess", required=True, help="the guess, LEFT,RIGHT")
    lp.add_argument("--mapping", help="the colours of C1, C2, C3, e.g. RGB")
    lp.add_argument("--json", action="store_true")
    lp.set_defaults(handler=_light)

    dp = tools.add_parser("deduce", help="what each safe can still be, from one seat's "
                          "observations (JSON file, - for stdin)")
    dp.add_argument("file", type=input_file)
    dp.add_argument("--guess", action="append", default=[], metavar="SAFE:L,R",
                    help="rate a candidate guess (repeatable), e.g. C:3,1")
    dp.add_argument("--json", action="store_true")
    dp.set_defaults(handler=_deduce)


def _light(args: argparse.Namespace) -> int:
    lock, guess = _pair(args.lock, "--lock"), _pair(args.guess, "--guess")
    met = [i + 1 for i, ok in enumerate(conditions(lock, guess)) if ok]
    out: dict[str, object] = {"conditions": met}
    human = "conditions met: " + (", ".join(f"C{i}" for i in met) or "none")
    if guess == lock:
        # LO-12: the right combination opens the safe and shows no light at all.
        out["opens"] = True
        out["colour"] = None
        human += "; no light: this guess opens the safe (LO-12)"
    elif args.mapping:
        colour = colour_of_pattern(pattern(lock, guess), check_mapping(args.mapping))
        out["colour"] = colour
        human += f"; light: {colour}"
    emit(out, args.json, human)
    return 0


def _deduce(args: argparse.Namespace) -> int:
    try:
        data = json.loads(read_text_arg(args.file, "an observations file"))
    except json.JSONDecodeError as exc:
        raise ParseError("LO-4", f"the observations are not JSON: {exc}") from None
    obs = observations_from_json(data)
    ded = deduce(obs)
    out = ded.to_json()
    lines = [f"mappings still possible: {', '.join(ded.mappings) or 'none (contradiction)'}"]
    for s in range(16):
        combos = " ".join(f"{a}{b}" for a, b in ded.possible(s))
        state = " (opened)" if s in ded.opened else ""
        lines.append(f"Safe {SAFE_NAMES[s]}{state}: {combos}")
    rated = []
    for item in args.guess:
        if ":" not in item:
            raise ParseError("LO-4", f"a guess to rate is SAFE:LEFT,RIGHT (e.g. C:3,1), not {item!r}")
        letter, pair = item.split(":", 1)
        safe, combo = safe_index(letter), _pair(pair, "the guess")
        value = guess_value(ded, safe, combo)
        rated.append({"safe": SAFE_NAMES[safe], "guess": list(combo), **value.to_json()})
        lines.append(f"guess Safe {SAFE_NAMES[safe]} {combo[0]},{combo[1]}: opens with "
                     f"p={value.p_open:.3f}; expected {value.expected_left:.2f} of "
                     f"{value.now} possibilities left")
    if rated:
        out["guesses"] = rated
    emit(out, args.json, "\n".join(lines))
    return 0
