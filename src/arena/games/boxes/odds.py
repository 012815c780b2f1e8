"""Odds for players: expected landings on a condition and the chance of at least one.

The search follows one box through the bout's remaining rounds. Each round has a *role*:
``self`` (the box's controller picks the card and movement that maximise the expected
landings), ``opp`` (the opponent picks to minimise them) or ``random`` (every playable card
equally likely, then every legal movement of it equally likely, as a random-but-legal player
does). A card leaves the pool when it is played on this box; the cards the other box uses are
not modelled (they are not known in advance), which makes the figures those of a pool the
other box leaves alone. Special figures change the board as the search goes (BX-8, BX-9).

Values are exact enumerations, memoised on (board, box, remaining cards, round); the bot uses
the same search with a weight per tile (its stakes times payout multipliers) instead of 0/1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from arena.core.errors import RuleError
from arena.games.boxes.board import Board, Tile, change_tiles
from arena.games.boxes.deck import Card, Deck
from arena.games.boxes.movement import Movement, movements

ROLES = ("self", "opp", "random")
MODEL = "model"
"""A role for the bot's own search: the opponent moving our box as a player
who cannot see our bets does, taking the fewest landings most of the time
(1 - :data:`MODEL_NOISE`) and any card and movement otherwise, instead of the worst case."""
MODEL_NOISE = 0.25


@dataclass(frozen=True)
class Odds:
    expected: float
    p_any: float

    def to_json(self) -> dict[str, float]:
        return {"expected": self.expected, "p_at_least_one": self.p_any}


@cache
def outcomes(card: Card, start: int) -> tuple[tuple[Movement, int], ...]:
    """Distinct outcomes of a card from a cell, each with how many movements give it."""
    special = card.add != 0 or card.invert
    groups: dict[tuple[object, ...], list[Movement]] = {}
    for m in movements(card, start):
        key = (m.landings, m.final, m.passed if special else None)
        groups.setdefault(key, []).append(m)
    return tuple((ms[0], len(ms)) for ms in groups.values())


def after_move(board: Board, card: Card, m: Movement) -> Board:
    """The board once the card's special figure has acted on the tiles passed over (BX-8)."""
    if card.add == 0 and not card.invert:
        return board
    return change_tiles(board, m.passed, add=card.add, invert=card.invert)


def roles_for_round(round_no: int, rounds: int = 4) -> tuple[str, ...]:
    """Who moves a seat's own box from ``round_no`` on: the opponent in odd rounds, the seat
    in even ones (BX-6)."""
    return tuple("opp" if r % 2 == 1 else "self" for r in range(round_no, rounds + 1))


def codes(board: Board) -> tuple[int, ...]:
    """A board as small ints (``2 * number + black``): cheap to hash in the search memo."""
    return tuple(2 * t.number + int(t.black) for t in board)


def _change_codes(board: tuple[int, ...], card: Card, m: Movement) -> tuple[int, ...]:
    if card.add == 0 and not card.invert:
        return board
    out = list(board)
    for c in m.passed:
        n, black = divmod(out[c], 2)
        n = (n + card.add) % 10
        if card.invert:
            black ^= 1
        out[c] = 2 * n + black
    return tuple(out)


KINDS = tuple(Tile(code // 2, bool(code % 2)) for code in range(20))
"""The 20 tile kinds, indexed by their code."""


class Search:
    """Expectimax over one box: ``weight(tile)`` is what a landing on the tile is worth."""

    def __init__(self, cards: dict[int, Card], weight: Callable[[Tile], float],
                 roles: Sequence[str]) -> None:
        for r in roles:
            if r not in ROLES and r != MODEL:
                raise ValueError(f"unknown role {r!r}")
        self.cards = cards
        self.roles = tuple(roles)
        self.memo: dict[tuple[object, ...], tuple[float, float]] = {}
        self.w = tuple(weight(t) for t in KINDS)

    def step(self, board: tuple[int, ...], m: Movement, card: Card
             ) -> tuple[float, bool, tuple[int, ...]]:
        w = self.w
        gain = 0.0
        hit = False
        for c in m.landings:
            x = w[board[c]]
            if x:
                gain += x
                hit = hit or x > 0
        return gain, hit, _change_codes(board, card, m)

    def value(self, board: tuple[int, ...], pos: int, remaining: tuple[int, ...],
              depth: int = 0) -> tuple[float, float]:
        """(expected total weight, probability of at least one positive landing) over the
        rounds from ``depth`` on; ``board`` is in :func:`codes` form."""
        if depth >= len(self.roles) or not remaining:
            return 0.0, 0.0
        key = (board, pos, remaining, depth)
        hit_memo = self.memo.get(key)
        if hit_memo is not None:
            return hit_memo
        role = self.roles[depth]
        counts = Counter(remaining)
        options: list[tuple[float, float, float]] = []  # (weight of option, E, P)
        lands: list[int] = []  # landings of each option (the model's opponent counts them)
        playable = 0
        for number, copies in counts.items():
            card = self.cards[number]
            outs = outcomes(card, pos)
            if not outs:
                continue
            playable += copies
            rest = list(remaining)
            rest.remove(number)
            rest_t = tuple(rest)
            total = sum(n for _, n in outs)
            last = depth + 1 >= len(self.roles) or not rest_t
            for m, n in outs:
                gain, hit, nb = self.step(board, m, card)
                if last:
                    e, p = 0.0, 0.0
                else:
                    e, p = self.value(nb, m.path[-1], rest_t, depth + 1)
                options.append((copies * n / total, gain + e, 1.0 if hit else p))
                lands.append(len(m.landings))
        if not options:
            # BX-7: nobody can move this box; the round passes with no landing.
            result = self.value(board, pos, remaining, depth + 1)
        elif role == "random":
            result = (sum(w * e for w, e, _ in options) / playable,
                      sum(w * p for w, _, p in options) / playable)
        elif role == MODEL:
            fewest = min(lands)
            low = [o for o, n in zip(options, lands, strict=True) if n == fewest]
            mass = sum(w for w, _, _ in low)
            q = MODEL_NOISE
            result = ((1 - q) * sum(w * e for w, e, _ in low) / mass
                      + q * sum(w * e for w, e, _ in options) / playable,
                      (1 - q) * sum(w * p for w, _, p in low) / mass
                      + q * sum(w * p for w, _, p in options) / playable)
        elif role == "self":
            best = max(options, key=lambda o: (o[1], o[2]))
            result = (best[1], best[2])
        else:
            worst = min(options, key=lambda o: (o[1], o[2]))
            result = (worst[1], worst[2])
        self.memo[key] = result
        return result


def condition_odds(board: Board, box: int, cards: Sequence[Card],
                   matches: Callable[[Tile], bool], roles: Sequence[str]) -> Odds:
    """Expected landings meeting a condition and P(at least one), for the given roles."""
    table = {c.number: c for c in cards}
    search = Search(table, lambda t: 1.0 if matches(t) else 0.0, roles)
    e, p = search.value(codes(board), box, tuple(sorted(c.number for c in cards)))
    return Odds(e, p)


class ManySearch:
    """:func:`condition_odds` for many conditions at once, for the players' and the host's
    odds panels (BX-6: the opponent steers in rounds 1 and 3, the owner in 2 and 4).

    One walk of the tree serves every condition: the enumeration of cards, movements and
    changed boards is shared, and only the choice of the best or worst option is made per
    condition. With only the ``self`` and ``opp`` roles every value is that of one path: the
    expected count is a whole number and the chance of a landing is 0 or 1, so a condition's
    value is kept as the one number ``2 * E + P``, whose order is the scalar search's order on
    (E, P); the best option of every condition is then one ``max`` over the options, float for
    float the scalar search's choice (a property test checks equality).
    """

    def __init__(self, cards: dict[int, Card], conditions: Sequence[Callable[[Tile], bool]],
                 roles: Sequence[str]) -> None:
        for r in roles:
            if r not in ("self", "opp"):
                raise ValueError(f"role {r!r} is not searched for many conditions")
        self.cards = cards
        self.roles = tuple(roles)
        self.memo: dict[tuple[object, ...], tuple[float, ...]] = {}
        # For each tile kind, the conditions a landing on it meets.
        self.hits = tuple(tuple(i for i, f in enumerate(conditions) if f(t)) for t in KINDS)
        self.zero: tuple[float, ...] = (0.0,) * len(conditions)

    def value(self, board: tuple[int, ...], pos: int, remaining: tuple[int, ...],
              depth: int = 0) -> tuple[float, ...]:
        """``2 * E + P`` per condition over the rounds from ``depth`` on."""
        if depth >= len(self.roles) or not remaining:
            return self.zero
        key = (board, pos, remaining, depth)
        kept = self.memo.get(key)
        if kept is not None:
            return kept
        options: list[tuple[float, ...]] = []
        hits = self.hits
        for number in sorted(set(remaining)):
            card = self.cards[number]
            outs = outcomes(card, pos)
            if not outs:
                continue
            rest = list(remaining)
            rest.remove(number)
            rest_t = tuple(rest)
            last = depth + 1 >= len(self.roles) or not rest_t
            for m, _n in outs:
                after = self.zero if last else self.value(
                    _change_codes(board, card, m), m.path[-1], rest_t, depth + 1)
                gains: dict[int, float] = {}
                for c in m.landings:
                    for i in hits[board[c]]:
                        gains[i] = gains.get(i, 0.0) + 1.0
                if not gains:
                    options.append(after)
                    continue
                mine = list(after)
                for i, g in gains.items():
                    # A landing here: E grows by the landings, P is 1 (a hit).
                    mine[i] = 2.0 * (g + (after[i] // 2)) + 1.0
                options.append(tuple(mine))
        if not options:
            # BX-7: nobody can move this box; the round passes with no landing.
            result = self.value(board, pos, remaining, depth + 1)
        elif self.roles[depth] == "self":
            result = tuple(map(max, *options)) if len(options) > 1 else options[0]
        else:
            result = tuple(map(min, *options)) if len(options) > 1 else options[0]
        self.memo[key] = result
        return result


def many_condition_odds(board: Board, box: int, cards: Sequence[Card],
                        conditions: Sequence[Callable[[Tile], bool]],
                        roles: Sequence[str]) -> list[Odds]:
    """:func:`condition_odds` for several conditions in one search (roles ``self``/``opp``)."""
    table = {c.number: c for c in cards}
    search = ManySearch(table, conditions, roles)
    values = search.value(codes(board), box, tuple(sorted(c.number for c in cards)))
    return [Odds(v // 2, v % 2) for v in values]


BOUT_CARDS = 8
"""Cards drawn per bout (BX-6): no hand of remaining cards holds more."""


def check_hand(deck: Deck, numbers: Sequence[int]) -> list[Card]:
    """The cards a bout could really still hold, or a RuleError naming the rule broken: only
    the deck's cards (BX-10), no number more often than its copies (BX-10), at most eight
    (BX-6). Odds over an impossible hand would answer a question the game never asks."""
    if len(numbers) > BOUT_CARDS:
        raise RuleError("BX-6", f"a bout draws {BOUT_CARDS} cards; {len(numbers)} cannot remain")
    cards: list[Card] = []
    for n, count in sorted(Counter(numbers).items()):
        if n not in deck.by_number:
            raise RuleError("BX-10", f"the deck has no card {n}")
        card = deck.card(n)
        if count > card.copies:
            raise RuleError("BX-10", f"card {n} is in the deck {card.copies} time(s), "
                                     f"not {count}")
    for n in numbers:
        cards.append(deck.card(n))
    return cards
