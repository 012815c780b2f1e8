"""Box within a Box within a Box tools (odds, moves, boards).

``arena boxes ...``: tools for Box within a Box within a Box players and hosts.

- ``odds``: expected landings on a condition and the chance of at least one, for a box and the
  bout's remaining cards (see :mod:`arena.games.boxes.odds` for the model);
- ``moves``: every legal movement of a card from a cell, with its path and landings (BX-8);
- ``board``: a board drawn from a seed, as host text (BX-1);
- ``deck``: check a host deck file and list its cards (BX-10).
"""

from __future__ import annotations

import argparse
import random

from arena.core.errors import RuleError
from arena.core.tools import PUZZLE_LIMIT, command_help, emit, input_file, read_text_arg, seed_arg
from arena.games.boxes.board import (
    Board,
    board_text,
    cell_name,
    draw_board,
    parse_board,
    parse_cell,
)
from arena.games.boxes.conditions import parse_condition
from arena.games.boxes.deck import Deck, deck_from_text, parse_deck
from arena.games.boxes.movement import movements
from arena.games.boxes.odds import ROLES, check_hand, condition_odds, roles_for_round


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("boxes", help=command_help(__doc__))
    s = p.add_subparsers(dest="boxes_command", metavar="TOOL")
    s.required = True

    o = s.add_parser("odds", help="expected landings and P(at least one) for a condition")
    o.add_argument("--board", type=input_file,
                   help="board text file (7 lines of 7 tokens like 3b); "
                        "default: drawn from --seed")
    o.add_argument("--seed", type=seed_arg, default=1)
    o.add_argument("--box", default="D4", help="the box's cell (default D4)")
    o.add_argument("--cards", required=True, help="remaining card numbers, e.g. 1,5,17")
    o.add_argument("--condition", required=True, help="e.g. 'black and 2', '6', '7 or 9'")
    o.add_argument("--round", type=int, default=1,
                   help="the bout's next round (1-4): odd rounds the opponent moves your box")
    o.add_argument("--model", choices=("adversarial", "random"), default="adversarial",
                   help="adversarial: you maximise, the opponent minimises; random: uniform play")
    o.add_argument("--roles", help=f"explicit roles per round, comma-separated ({'/'.join(ROLES)})")
    o.add_argument("--deck", type=input_file,
                   help="a host deck file (TOML); default the BX-10 deck")
    o.add_argument("--json", action="store_true")
    o.set_defaults(handler=_odds)

    m = s.add_parser("moves", help="every legal movement of a card from a cell")
    m.add_argument("--card", type=int, required=True)
    m.add_argument("--box", default="D4")
    m.add_argument("--deck", type=input_file,
                   help="a host deck file (TOML); default the BX-10 deck")
    m.add_argument("--json", action="store_true")
    m.set_defaults(handler=_moves)

    b = s.add_parser("board", help="draw a board from a seed (host text)")
    b.add_argument("--seed", type=seed_arg, default=1)
    b.set_defaults(handler=_board)

    d = s.add_parser("deck", help="check a deck file and list its cards")
    d.add_argument("file", nargs="?", type=input_file,
                   help="a deck file; default the BX-10 deck")
    d.add_argument("--json", action="store_true")
    d.set_defaults(handler=_deck)


def _load_deck(path: str | None) -> Deck:
    return deck_from_text("") if not path else parse_deck(
        read_text_arg(path, "a deck file", PUZZLE_LIMIT))


def _load_board(path: str | None, seed: int) -> Board:
    return (parse_board(read_text_arg(path, "a board file", PUZZLE_LIMIT)) if path
            else draw_board(random.Random(seed)))


def _odds(args: argparse.Namespace) -> int:
    deck = _load_deck(args.deck)
    board = _load_board(args.board, args.seed)
    box = parse_cell(args.box)
    cond = parse_condition(args.condition)
    try:
        numbers = [int(x) for x in args.cards.replace(" ", "").split(",") if x]
    except ValueError:
        raise RuleError("BX-6", f"--cards takes card numbers separated by commas, "
                                f"not {args.cards!r}") from None
    cards = check_hand(deck, numbers)
    if args.roles:
        roles = tuple(r.strip() for r in args.roles.split(","))
        bad = [r for r in roles if r not in ROLES]
        if bad:
            raise RuleError("BX-6", f"unknown role(s) {', '.join(bad)} (use {', '.join(ROLES)})")
    elif not 1 <= args.round <= 4:
        raise RuleError("BX-6", "a bout has rounds 1 to 4")
    elif args.model == "random":
        roles = ("random",) * (5 - args.round)
    else:
        roles = roles_for_round(args.round)
    odds = condition_odds(board, box, cards, cond.matches, roles)
    data = {"condition": str(cond), "box": cell_name(box), "cards": numbers,
            "roles": list(roles), **odds.to_json()}
    emit(data, args.json, f"{cond} from {cell_name(box)} with cards {args.cards} "
                          f"({', '.join(roles)}): expected landings {odds.expected:.4f}, "
                          f"P(at least one) {odds.p_any:.4f}")
    return 0


def _moves(args: argparse.Namespace) -> int:
    deck = _load_deck(args.deck)
    try:
        card = deck.card(args.card)
    except KeyError:
        raise RuleError("BX-10", f"the deck has no card {args.card}") from None
    start = parse_cell(args.box)
    ms = movements(card, start)
    rows = [{"text": str(m), "path": m.path_text(), "to": cell_name(m.final),
             "landings": [cell_name(c) for c in m.landings]} for m in ms]
    human = "\n".join(f"{r['text']:<14} {r['path']:<24} lands {' '.join(r['landings'])}"
                      for r in rows) or f"card {card.number} cannot move from {args.box}"
    emit({"card": card.to_json(), "from": cell_name(start), "moves": rows}, args.json,
         f"{card}\n{human}")
    return 0


def _board(args: argparse.Namespace) -> int:
    print(board_text(draw_board(random.Random(args.seed))))
    return 0


def _deck(args: argparse.Namespace) -> int:
    deck = _load_deck(args.file)
    emit({"name": deck.name, "cards": [c.to_json() for c in deck.cards],
          "pile": len(deck.pile())}, args.json,
         "\n".join([f"{deck.name}: {len(deck.cards)} cards, {len(deck.pile())} in the pile",
                    *(f"{c} x{c.copies}" for c in deck.cards)]))
    return 0
