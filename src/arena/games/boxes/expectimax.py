"""Expectimax over one box for many weightings at once, each with its own roles.

The same model as :class:`arena.games.boxes.odds.Search` (one box through the bout's remaining
rounds; a card leaves the pool when played on this box, the other box's cards are not
modelled; special figures change the board as the search goes, BX-8, BX-9), but a node's
value is a vector: one entry per *column*, a column being a weighting of the 20 tile kinds
(what a landing on each is worth) and a role per round. Roles: ``max`` (the mover takes the
best option for the column), ``min`` (the worst) and ``random`` (every playable card alike,
then every legal movement of it alike: the deck's odds). One walk of the tree serves every
column, and a node's options are valued with one matrix product (landing counts x the
board's weights), which is what makes the post-match review of a whole match affordable.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from arena.games.boxes.deck import Card
from arena.games.boxes.movement import Movement
from arena.games.boxes.odds import outcomes

MODES = ("max", "min", "random")
TABLE_AFTER = 40
"""Leaves on one board before its per-card tables pay for themselves."""


@dataclass(frozen=True)
class Options:
    """The options at one node, in a stable order: the representative movement of each
    outcome (movements with the same landings, end and changed cells are one option), the
    card's number, the chance the deck's odds give it, and its value per column (the landings
    now plus the rest of the bout after it)."""

    moves: tuple[Movement, ...]
    chance: np.ndarray
    values: np.ndarray


@dataclass(frozen=True)
class _Rows:
    """Every option from one cell with one pool of cards (independent of the board)."""

    moves: tuple[Movement, ...]
    landings: np.ndarray  # options x 49: how often each cell is landed on
    chance: np.ndarray  # options: the deck's odds of each option
    rest: tuple[tuple[int, ...], ...]
    changes: tuple[tuple[Card, frozenset[int]] | None, ...]


def outcome_key(m: Movement, card: Card) -> tuple[object, ...]:
    """What makes two movements the same option (:func:`arena.games.boxes.odds.outcomes`)."""
    special = card.add != 0 or card.invert
    return (m.landings, m.final, m.passed if special else None)


def changed(board: bytes, card: Card, cells: frozenset[int]) -> bytes:
    """The board (tile codes ``2 * number + black``) after a special figure (BX-8)."""
    out = bytearray(board)
    for c in cells:
        n, black = divmod(out[c], 2)
        out[c] = 2 * ((n + card.add) % 10) + (black ^ int(card.invert))
    return bytes(out)


class Expectimax:
    """Expected weighted landings, column by column.

    ``weights`` is columns x 20 (the value of a landing on each tile kind, indexed by its
    code); ``roles`` gives each column one mode per round, all columns as many rounds."""

    def __init__(self, cards: Mapping[int, Card], weights: np.ndarray,
                 roles: Sequence[Sequence[str]]) -> None:
        depth = len(roles[0]) if roles else 0
        if len(roles) != len(weights) or any(len(r) != depth for r in roles):
            raise ValueError("one role sequence per column, all of one length")
        for r in roles:
            for mode in r:
                if mode not in MODES:
                    raise ValueError(f"unknown mode {mode!r}")
        self.cards = dict(cards)
        self.depth = depth
        self.columns = len(weights)
        self.wt = np.ascontiguousarray(np.asarray(weights, dtype=float).T)  # 20 x columns
        self.zero = np.zeros(self.columns)
        self.modes: list[tuple[str, np.ndarray | None]] = []
        for d in range(depth):
            at = [r[d] for r in roles]
            if len(set(at)) == 1:
                self.modes.append((at[0], None))
            else:
                self.modes.append(("mixed", np.array([MODES.index(m) for m in at])))
        self.memo: dict[tuple[bytes, int, tuple[int, ...], int], np.ndarray] = {}
        self._rows: dict[tuple[int, tuple[int, ...]], _Rows | None] = {}
        self._blocks: dict[tuple[int, int], _Rows | None] = {}
        self._wb: dict[bytes, np.ndarray] = {}
        self._seen: dict[bytes, int] = {}
        self._all: dict[int, tuple[np.ndarray, ...] | None] = {}
        self._tables: dict[tuple[bytes, int], tuple[np.ndarray, ...] | None] = {}

    def _block(self, number: int, pos: int) -> _Rows | None:
        """One card's options from one cell (chance within the card: its movements alike)."""
        key = (number, pos)
        if key in self._blocks:
            return self._blocks[key]
        card = self.cards[number]
        outs = outcomes(card, pos)
        out = None
        if outs:
            lands = np.zeros((len(outs), 49))
            for i, (m, _) in enumerate(outs):
                for c in m.landings:
                    lands[i, c] += 1.0
            total = sum(n for _, n in outs)
            special = card.add != 0 or card.invert
            out = _Rows(tuple(m for m, _ in outs), lands,
                        np.array([n / total for _, n in outs]), (),
                        tuple((card, m.passed) if special else None for m, _ in outs))
        self._blocks[key] = out
        return out

    def rows(self, pos: int, remaining: tuple[int, ...]) -> _Rows | None:
        """Every option from ``pos`` with the cards ``remaining`` (None: no card moves)."""
        key = (pos, remaining)
        if key in self._rows:
            return self._rows[key]
        blocks: list[_Rows] = []
        copies: list[int] = []
        rest: list[tuple[int, ...]] = []
        counts = Counter(remaining)
        for number in sorted(counts):
            block = self._block(number, pos)
            if block is None:
                continue
            left = list(remaining)
            left.remove(number)
            blocks.append(block)
            copies.append(counts[number])
            rest.extend([tuple(left)] * len(block.moves))
        out = None
        if blocks:
            playable = sum(copies)
            out = _Rows(tuple(m for b in blocks for m in b.moves),
                        np.concatenate([b.landings for b in blocks]),
                        np.concatenate([b.chance * (k / playable)
                                        for b, k in zip(blocks, copies, strict=True)]),
                        tuple(rest), tuple(c for b in blocks for c in b.changes))
        self._rows[key] = out
        return out

    def options(self, board: bytes, pos: int, remaining: tuple[int, ...], depth: int = 0
                ) -> Options | None:
        """The options of the mover at ``depth`` (None when no card can move the box)."""
        rows = self.rows(pos, remaining)
        if rows is None:
            return None
        gains = rows.landings @ self._weights_on(board)
        if depth + 1 < self.depth:
            after = [self.value(board if ch is None else changed(board, ch[0], ch[1]),
                                m.final, rest, depth + 1)
                     for m, rest, ch in zip(rows.moves, rows.rest, rows.changes, strict=True)]
            gains = gains + np.array(after)
        return Options(rows.moves, rows.chance, gains)

    def value(self, board: bytes, pos: int, remaining: tuple[int, ...], depth: int = 0
              ) -> np.ndarray:
        """Each column's expected weighted landings over the rounds from ``depth`` on;
        ``board`` is the tile codes as bytes."""
        if depth >= self.depth or not remaining:
            return self.zero
        key = (board, pos, remaining, depth)
        kept = self.memo.get(key)
        if kept is not None:
            return kept
        if depth + 1 == self.depth:
            result = self._leaf(board, pos, remaining, depth)
            self.memo[key] = result
            return result
        opts = self.options(board, pos, remaining, depth)
        if opts is None:
            # BX-7: nobody can move this box; the round passes with no landing.
            result = self.value(board, pos, remaining, depth + 1)
        else:
            result = self._reduce(opts, depth)
        self.memo[key] = result
        return result

    def _weights_on(self, board: bytes) -> np.ndarray:
        """49 x columns: what a landing on each cell of ``board`` is worth."""
        wb = self._wb.get(board)
        if wb is None:
            wb = self._wb[board] = self.wt[np.frombuffer(board, dtype=np.uint8)]
        return wb

    def _card_table(self, board: bytes, number: int) -> tuple[np.ndarray, ...] | None:
        """For one card on one board, from every cell at once: the best, the worst and the
        deck's-odds mean of the landings' worth (cells x columns), and which cells it can
        leave (None when it can leave none)."""
        key = (board, number)
        if key in self._tables:
            return self._tables[key]
        every = self._every(number)
        out = None
        if every is not None:
            lands, chance, starts, has = every
            gains = lands @ self._weights_on(board)
            full = np.zeros((3, 49, self.columns))
            full[0, has] = np.maximum.reduceat(gains, starts, axis=0)
            full[1, has] = np.minimum.reduceat(gains, starts, axis=0)
            full[2, has] = np.add.reduceat(gains * chance[:, None], starts, axis=0)
            out = (full[0], full[1], full[2], has)
        self._tables[key] = out
        return out

    def _every(self, number: int) -> tuple[np.ndarray, ...] | None:
        """One card's options from every cell, stacked (board-independent)."""
        if number in self._all:
            return self._all[number]
        present = [(p, b) for p in range(49) if (b := self._block(number, p)) is not None]
        out = None
        if present:
            has = np.zeros(49, dtype=bool)
            has[[p for p, _ in present]] = True
            out = (np.concatenate([b.landings for _, b in present]),
                   np.concatenate([b.chance for _, b in present]),
                   np.cumsum([0] + [len(b.moves) for _, b in present[:-1]]), has)
        self._all[number] = out
        return out

    def _leaf(self, board: bytes, pos: int, remaining: tuple[int, ...], depth: int
              ) -> np.ndarray:
        """The last round searched: the landings' worth alone. A board met often (the
        bout's own, before any special figure changes it) gets per-card tables over every
        cell; the many boards a special figure makes are met a few times each, and are
        valued cell by cell."""
        seen = self._seen[board] = self._seen.get(board, 0) + 1
        if seen < TABLE_AFTER:
            opts = self.options(board, pos, remaining, depth)
            return self.zero if opts is None else self._reduce(opts, depth)
        found: list[tuple[int, tuple[np.ndarray, ...]]] = []
        for number in sorted(set(remaining)):
            t = self._card_table(board, number)
            if t is not None and t[3][pos]:
                found.append((remaining.count(number), t))
        if not found:
            return self.zero  # BX-7: nobody can move this box; the round passes
        mode, per = self.modes[depth]
        if mode == "max":
            return np.asarray(np.max([t[0][pos] for _, t in found], axis=0))
        if mode == "min":
            return np.asarray(np.min([t[1][pos] for _, t in found], axis=0))
        total = sum(k for k, _ in found)
        mean = sum(k * t[2][pos] for k, t in found) / total
        if mode == "random":
            return np.asarray(mean)
        assert per is not None
        out = np.array(mean)
        mask = per == 0
        if mask.any():
            out[mask] = np.max([t[0][pos] for _, t in found], axis=0)[mask]
        mask = per == 1
        if mask.any():
            out[mask] = np.min([t[1][pos] for _, t in found], axis=0)[mask]
        return out

    def _reduce(self, opts: Options, depth: int) -> np.ndarray:
        mode, per = self.modes[depth]
        v = opts.values
        if mode == "max":
            return np.asarray(v.max(axis=0))
        if mode == "min":
            return np.asarray(v.min(axis=0))
        if mode == "random":
            return np.asarray(opts.chance @ v)
        assert per is not None
        stacked = np.stack([v.max(axis=0), v.min(axis=0), opts.chance @ v])
        return np.asarray(stacked[per, np.arange(self.columns)])


def board_bytes(codes: Sequence[int]) -> bytes:
    return bytes(codes)
