"""What the Boxes odds panels cost per new state: the players' and the host's panel of one
box (every single trait, over the bout's remaining rounds, BX-6), for random hands of 8, 6
and 4 cards from random cells of the default board.

Printed: the median and the slowest time of the one-walk search (the panels' own, with
no cache) and, for a few hands, of the per-trait scalar search it replaced, which gives the
same figures float for float.

    PYTHONPATH=src .venv/bin/python bench/boxes_odds.py [--hands 15] [--scalar 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from arena.games.boxes.board import parse_board
from arena.games.boxes.conditions import TRAITS, make_condition
from arena.games.boxes.deck import default_deck
from arena.games.boxes.odds import condition_odds, many_condition_odds, roles_for_round

BOARD = """
0w 1b 2w 3b 4w 5b 6w
7b 8w 9b 0b 1w 2b 3w
4b 5w 6b 7w 8b 9w 0w
1b 2w 3b 4w 5b 6w 7b
8w 9b 0w 1b 2w 3b 4w
5b 6w 7b 8w 9b 0b 1w
2b 3w 4b 5w 6b 7w 8b
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=15)
    ap.add_argument("--scalar", type=int, default=3)
    args = ap.parse_args()
    deck = default_deck()
    board = parse_board(BOARD)
    conditions = [make_condition([t]).matches for t in TRAITS]
    rng = random.Random(7)
    for size, first in ((8, 1), (6, 2), (4, 3)):
        one: list[float] = []
        per_trait: list[float] = []
        for i in range(args.hands):
            hand = [deck.card(n) for n in sorted(rng.sample(list(deck.pile()), size))]
            box = rng.randrange(len(board))
            roles = roles_for_round(first)
            t = time.perf_counter()
            many = many_condition_odds(board, box, hand, conditions, roles)
            one.append(time.perf_counter() - t)
            if i < args.scalar:
                t = time.perf_counter()
                scalar = [condition_odds(board, box, hand, f, roles) for f in conditions]
                per_trait.append(time.perf_counter() - t)
                assert scalar == many
        line = (f"{size} cards from round {first}: one walk median {statistics.median(one):.3f} s, "
                f"slowest {max(one):.3f} s over {len(one)} hands")
        if per_trait:
            line += (f"; a walk per trait median {statistics.median(per_trait):.3f} s "
                     f"({len(per_trait)} hands, same figures)")
        print(line)


if __name__ == "__main__":
    main()
