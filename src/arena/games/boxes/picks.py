"""Card picks in the play phase (BX-6, BX-7): notation, legality and what may be played.

Notation: the card number, then one token per leg of its number figure, e.g. ``3 U``,
``14 U L``, ``19 R D``, ``17 R2D1``, ``36 R2D1 U1L2`` (a leading ``card`` is allowed). The
movement may instead be given as its path of cells after ``path`` (``17 path D4-E4-F4-F5``,
the start optional, one cell for a move of one: ``1 path D2``; dashes or spaces between the
cells) or, when only one movement ends there, its destination (``3 to D1``). ``pass`` is
accepted only when no remaining card has any legal movement for the box the seat moves (BX-7).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from arena.core.errors import ParseError, RuleError
from arena.games.boxes.board import cell_name
from arena.games.boxes.movement import Movement, find_movement, movements
from arena.games.boxes.state import BoxesState
from arena.games.boxes.words import shown


@dataclass(frozen=True, slots=True)
class Pick:
    """A seat's pick: the movement and the board whose box it moves (BX-6). ``str()`` is the
    pick notation (``17 R2D1``); ``to_json()`` the facts the pages word ("You played card 17
    on board B, a knight's jump ...")."""

    board: int
    movement: Movement

    def __str__(self) -> str:
        return str(self.movement)

    def to_json(self) -> dict[str, object]:
        return {"board": "AB"[self.board], **self.movement.to_json()}


PICK_HELP = ("pick one of the remaining cards and say where it takes the box; you may pass "
             "only when no card can move it (BX-6, BX-7)")
"""What a pick round asks, in words, for the phase's prompt; :func:`pick_help` gives the
notation with examples."""


def pick_help(state: BoxesState, seat: int) -> str:
    """The pick notation with examples that this seat can play now, taken from a card in
    its hand: a player who types one of them has it accepted (BX-6..BX-8)."""
    b = state.target_board(seat)
    start = state.boxes[b]
    for n in dict.fromkeys(state.hand):
        ms = movements(state.card(n), start)
        if not ms:
            continue
        m = ms[0]
        path = "-".join(cell_name(c) for c in m.path)
        ends = [x for x in ms if x.final == m.final]
        to = (f", or where it ends when only one movement ends there: '{n} to "
              f"{cell_name(m.final)}'" if len({(x.landings, x.path) for x in ends}) == 1
              else "")
        return (f"the card's number and one direction for each part of its move (U, D, L or "
                f"R for up, down, left or right; UL, UR, DL or DR for a diagonal; a knight's "
                f"jump as R2D1, two right then one down), e.g. '{m}'; or the cells it enters: "
                f"'{n} path {path}' (or '{n} path {cell_name(start)}-{path}'){to}")
    return "no card can move the box: 'pass' (BX-7)"


def playable(state: BoxesState, seat: int) -> list[int]:
    """Distinct card numbers in hand with at least one legal movement for the box ``seat``
    moves this round."""
    b = state.target_board(seat)
    out: list[int] = []
    for n in dict.fromkeys(state.hand):
        if movements(state.card(n), state.boxes[b]):
            out.append(n)
    return out


def parse_pick(state: BoxesState, seat: int, text: str) -> Movement | None:
    """The movement a pick names (None for a legal pass), or an error naming the rule."""
    words = text.replace(",", " ").split()
    if words and words[0].lower() == "card":
        words = words[1:]
    if not words:
        raise ParseError("BX-6", f"name a card and how it moves: {pick_help(state, seat)}")
    b = state.target_board(seat)
    if len(words) == 1 and words[0].lower() == "pass":
        if playable(state, seat):
            cards = playable(state, seat)
            raise RuleError("BX-7", "you may pass only when no remaining card can move the box "
                                    f"on board {'AB'[b]}, and card"
                                    f"{'' if len(cards) == 1 else 's'} "
                                    f"{_listed(cards)} can")
        return None
    head = words[0].lstrip("#")
    if not re.fullmatch(r"[0-9]{1,4}", head):
        raise ParseError("BX-6", f"{shown(words[0])} is not a card number: "
                                 f"{pick_help(state, seat)}")
    number = int(head)
    if number not in state.hand:
        raise RuleError("BX-6", f"card {number} is not among this bout's remaining cards, "
                                f"which are {_listed(sorted(set(state.hand)))}")
    card = state.card(number)
    if len(words) == 1:
        raise ParseError("BX-8", f"say how card {number} moves, for example "
                                 f"'{_example(state, seat, number)}'")
    return find_movement(card, state.boxes[b], words[1:])


def _example(state: BoxesState, seat: int, number: int) -> str:
    ms = movements(state.card(number), state.boxes[state.target_board(seat)])
    return str(ms[0]) if ms else "none, it cannot move this box"


def _listed(numbers: list[int]) -> str:
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def moves_view(state: BoxesState, seat: int) -> dict[str, object]:
    """For a seat's own view in a pick round: the box it moves and every legal movement of
    every remaining card (what the page offers as buttons)."""
    b = state.target_board(seat)
    start = state.boxes[b]
    cards: list[dict[str, object]] = []
    for n in dict.fromkeys(state.hand):
        ms = movements(state.card(n), start)
        cards.append({
            "card": n,
            "moves": [{"text": str(m), "path": m.path_text(), "to": cell_name(m.final),
                       "landings": [cell_name(c) for c in m.landings]} for m in ms],
        })
    return {"board": "AB"[b], "box": cell_name(start), "cards": cards,
            "may_pass": not any(c["moves"] for c in cards)}
