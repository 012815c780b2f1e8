"""Every legal movement of a card from a box position, and what it lands on (BX-8, BX-9).

A card's number figure has one part per *leg*; the player chooses each leg's direction.
Directions are written ``U D L R`` (up = towards row 1, G-1) and ``UL UR DL DR`` for the
diagonals (compass words ``N S E W NE NW SE SW`` are accepted too). A Knightwise leg is written
as its two segments, e.g. ``R2D1`` (two right, then one down) or ``D1R2`` (one down, then two
right): the two name different cells passed over, so the player gives the exact path.

The *path* of a movement is every cell the box enters, in order, the start excluded; the
*landings* follow the card's type: A the final cell, A+ the cell at the end of each leg, B the
whole path, C the path without its final cell. Without Wrap every cell of the path must be on
the board; with Wrap the box re-enters at the opposite edge.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import cache

from arena.core.errors import ParseError, RuleError
from arena.games.boxes.board import SIZE, cell_name, parse_cell
from arena.games.boxes.deck import Card
from arena.games.boxes.words import DIRECTION_WORDS, number_word, shown, squares

ORTHOGONAL: dict[str, tuple[int, int]] = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
DIAGONAL: dict[str, tuple[int, int]] = {
    "UL": (-1, -1), "UR": (-1, 1), "DL": (1, -1), "DR": (1, 1)
}
STRAIGHT: dict[str, tuple[int, int]] = {**ORTHOGONAL, **DIAGONAL}
COMPASS = {"N": "U", "S": "D", "E": "R", "W": "L", "NE": "UR", "NW": "UL", "SE": "DR",
           "SW": "DL", "UP": "U", "DOWN": "D", "LEFT": "L", "RIGHT": "R"}
PERPENDICULAR = {"U": ("L", "R"), "D": ("L", "R"), "L": ("U", "D"), "R": ("U", "D")}


@dataclass(frozen=True, slots=True)
class Movement:
    """One way to play a card: its legs as written, the path and the landings (BX-8).

    ``str()`` is the pick notation (``17 R2D1``); ``ends`` holds the cell at the end of each
    leg; ``passed`` is the set of distinct cells a special figure changes.
    """

    card: int
    legs: tuple[str, ...]
    start: int
    path: tuple[int, ...]
    ends: tuple[int, ...]
    landings: tuple[int, ...]
    counts: tuple[int, ...] = ()
    """The card's number figure: squares (or knight's jumps) per leg."""

    @property
    def final(self) -> int:
        return self.path[-1]

    @property
    def passed(self) -> frozenset[int]:
        return frozenset(self.path)

    def __str__(self) -> str:
        return f"{self.card} {' '.join(self.legs)}"

    def to_json(self) -> dict[str, object]:
        """The movement as facts: the card, each leg's direction and length, where the box
        started, the cells it entered and those it landed on (BX-8)."""
        counts = self.counts or (1,) * len(self.legs)
        return {"card": self.card,
                "legs": [leg_facts(t, n) for t, n in zip(self.legs, counts, strict=True)],
                "from": cell_name(self.start), "path": [cell_name(c) for c in self.path],
                "landings": [cell_name(c) for c in self.landings]}

    def words(self) -> str:
        """The movement in words, for the server's texts: "card 3, three squares up"."""
        counts = self.counts or (1,) * len(self.legs)
        legs = ", then ".join(leg_words(t, n) for t, n in zip(self.legs, counts, strict=True))
        return f"card {self.card}, {legs}"

    def path_text(self) -> str:
        return "-".join(cell_name(c) for c in (self.start, *self.path))


def leg_facts(token: str, count: int) -> dict[str, object]:
    """One leg as facts: a line leg's direction and squares (``{"dir": "U", "squares": 3}``),
    or a knight leg's jumps and the two segments of each jump (``R2D1``: two right, then one
    down)."""
    k = _KNIGHT_TOKEN.match(token)
    if k:
        return {"jumps": count, "knight": [{"dir": k.group(1), "squares": int(k.group(2))},
                                           {"dir": k.group(3), "squares": int(k.group(4))}]}
    return {"dir": token, "squares": count}


def leg_words(token: str, count: int) -> str:
    """One leg in words: "three squares up", "a knight's jump, two right then one down"."""
    k = _KNIGHT_TOKEN.match(token)
    if k:
        jumps = "a knight's jump" if count == 1 else f"{number_word(count)} knight's jumps"
        return (f"{jumps}, {number_word(int(k.group(2)))} {DIRECTION_WORDS[k.group(1)]} then "
                f"{number_word(int(k.group(4)))} {DIRECTION_WORDS[k.group(3)]}")
    return f"{squares(count)} {DIRECTION_WORDS[token]}"


def _steps(start: int, moves: list[tuple[int, int]], wrap: bool) -> tuple[int, ...] | None:
    """The cells entered by unit steps from ``start``; None when a step leaves the board."""
    r, c = divmod(start, SIZE)
    out: list[int] = []
    for dr, dc in moves:
        r, c = r + dr, c + dc
        if wrap:
            r, c = r % SIZE, c % SIZE
        elif not (0 <= r < SIZE and 0 <= c < SIZE):
            return None
        out.append(r * SIZE + c)
    return tuple(out)


def leg_options(displacement: str, n: int) -> list[tuple[str, list[tuple[int, int]]]]:
    """Each way to play one leg of ``n``: its written token and its unit steps in order."""
    if displacement == "Knightwise":
        out: list[tuple[str, list[tuple[int, int]]]] = []
        for first in "UDLR":
            for k in (2, 1):
                for second in PERPENDICULAR[first]:
                    steps = [ORTHOGONAL[first]] * k + [ORTHOGONAL[second]] * (3 - k)
                    out.append((f"{first}{k}{second}{3 - k}", steps * n))
        return out
    table = {"Orthogonal": ORTHOGONAL, "Diagonal": DIAGONAL, "Straight": STRAIGHT}[displacement]
    return [(name, [vec] * n) for name, vec in table.items()]


def _landings(card: Card, path: tuple[int, ...], ends: tuple[int, ...]) -> tuple[int, ...]:
    if card.type == "A":
        return (path[-1],)
    if card.type == "A+":
        return ends
    if card.type == "B":
        return path
    return path[:-1]


@cache
def movements(card: Card, start: int) -> tuple[Movement, ...]:
    """Every legal movement of ``card`` from ``start`` (BX-8, BX-9), in a stable order."""
    per_leg = [leg_options(card.displacement_of(i), n) for i, n in enumerate(card.legs)]
    out: list[Movement] = []
    for combo in itertools.product(*per_leg):
        pos = start
        path: list[int] = []
        ends: list[int] = []
        ok = True
        for _, steps in combo:
            cells = _steps(pos, steps, card.wrap)
            if cells is None:
                ok = False
                break
            path.extend(cells)
            pos = cells[-1]
            ends.append(pos)
        if ok:
            p, e = tuple(path), tuple(ends)
            out.append(Movement(card.number, tuple(t for t, _ in combo), start, p, e,
                                _landings(card, p, e), card.legs))
    return tuple(out)


@cache
def distinct_movements(card: Card, start: int) -> tuple[Movement, ...]:
    """One movement per distinct outcome (landings, final cell, cells changed): what a search
    needs, since movements with the same outcome are interchangeable."""
    seen: set[tuple[object, ...]] = set()
    out: list[Movement] = []
    special = card.add != 0 or card.invert
    for m in movements(card, start):
        key = (m.landings, m.final, m.passed if special else None)
        if key not in seen:
            seen.add(key)
            out.append(m)
    return tuple(out)


_DISP_WORDS = {"Orthogonal": "only up, down, left or right",
               "Diagonal": "only along a diagonal", "Straight": "in a straight line",
               "Knightwise": "by knight's jumps"}


def _dir_kind(word: str) -> str:
    if word in DIAGONAL:
        return "a diagonal"
    if word in ORTHOGONAL:
        return "not a diagonal"
    return "not a direction"


_KNIGHT_TOKEN = re.compile(r"^([UDLR])([12])-?([UDLR])([12])$")
_LEG_TOKEN = re.compile(r"^([A-Z]+?)([0-9]*)$")


def _norm_leg(token: str, card: Card, n: int, disp: str) -> str:
    """A written leg in canonical form, or a ParseError saying how to write it."""
    t = token.upper()
    if disp == "Knightwise":
        m = _KNIGHT_TOKEN.match(t)
        if not m or int(m.group(2)) + int(m.group(4)) != 3:
            raise ParseError("BX-8", f"{shown(token)} is not a knight's jump: write its two "
                                     "segments, for example R2D1 for two right then one down")
        if m.group(3) not in PERPENDICULAR[m.group(1)]:
            raise RuleError("BX-8", f"a knight's jump turns a right angle between its two "
                                    f"segments, and {shown(token)} does not")
        return f"{m.group(1)}{m.group(2)}{m.group(3)}{m.group(4)}"
    m = _LEG_TOKEN.match(t)
    if not m:
        raise ParseError("BX-8", f"{shown(token)} is not a direction: write U, D, L or R for "
                                 "up, down, left or right, UL, UR, DL or DR for a diagonal")
    word = COMPASS.get(m.group(1), m.group(1))
    allowed = {"Orthogonal": ORTHOGONAL, "Diagonal": DIAGONAL, "Straight": STRAIGHT}
    table = allowed[disp]
    if word not in table:
        raise RuleError("BX-8", f"card {card.number} moves {_DISP_WORDS[disp]} here, and "
                                f"{shown(token)} is {_dir_kind(word)}")
    if m.group(2) and int(m.group(2)) != n:
        raise RuleError("BX-8", f"this leg of card {card.number} moves exactly "
                                f"{squares(n)}, not {number_word(int(m.group(2)))}")
    return word


def find_movement(card: Card, start: int, words: list[str]) -> Movement:
    """The movement ``words`` describe: leg tokens (``R2D1``, ``U L``), a path of cells
    (``D4-E4-F4-F5``, after an optional ``path``), or ``to F5`` when only one movement ends
    there. Raises with the rule broken when the words name no legal movement."""
    legal = movements(card, start)
    as_path = bool(words) and words[0].lower() == "path"
    if as_path:
        words = words[1:]
    if words and words[0].lower() == "to":
        if len(words) != 2:
            raise ParseError("BX-8", "after to, name the one cell where the box ends, for "
                                     "example 3 to D1")
        target = parse_cell(words[1])
        hits = [m for m in legal if m.final == target]
        if not hits:
            raise RuleError("BX-9", f"card {card.number} cannot bring the box from "
                                    f"{cell_name(start)} to {cell_name(target)}")
        if len({(m.landings, m.path) for m in hits}) > 1:
            raise RuleError("BX-8", f"card {card.number} has several movements that end on "
                                    f"{cell_name(target)}: say which by its directions or "
                                    "by its path")
        return hits[0]
    # ``D1-D2`` reads both as cells and as a knight leg: after ``path`` it is always cells,
    # and without it, a knight leg only for a Knightwise card.
    knight_leg = card.displacement_of(0) == "Knightwise" and bool(words) and bool(
        _KNIGHT_TOKEN.match(words[0].upper()))
    # After ``path`` every word is cells, however few: ``1 path D2`` is the one cell a move
    # of one enters (read as a leg, D2 would be "two down").
    if as_path or (len(words) == 1 and "-" in words[0] and not knight_leg):
        if not words:
            raise ParseError("BX-8", "after path, name the cells the box enters, for "
                                     "example path D4-E4")
        cells = tuple(parse_cell(x) for w in words for x in w.split("-") if x)
        for m in legal:
            if cells in (m.path, (start, *m.path)):
                return m
        raise RuleError("BX-9", f"card {card.number} has no legal movement from "
                                f"{cell_name(start)} through "
                                f"{', '.join(cell_name(c) for c in cells)}")
    if len(words) != len(card.legs):
        n = len(card.legs)
        raise RuleError("BX-8", f"card {card.number} moves in {number_word(n)} "
                                f"part{'' if n == 1 else 's'}: give one direction for each")
    legs = tuple(_norm_leg(w, card, n, d)
                 for w, n, d in zip(words, card.legs, card.displacements, strict=True))
    for m in legal:
        if m.legs == legs:
            return m
    counts = card.legs
    said = ", then ".join(leg_words(t, n) for t, n in zip(legs, counts, strict=True))
    raise RuleError("BX-9", f"card {card.number} moving {said} from {cell_name(start)} would "
                            "leave the board (only a card with Wrap crosses an edge)")
