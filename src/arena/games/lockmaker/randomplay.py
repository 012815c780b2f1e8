"""Lockmaker's random legal submissions at engine speed.

The random policy the bot module had (kept as the reference in
``tests/games/lockmaker/test_lm_randomplay.py``) -- the same random draws in the same order, so the
same texts for the same state and generator -- with one cost taken out. Most random locks
cannot be solved because the key can never reach the keyhole, and the old policy learned that
by compiling the fast solver's tables for every lock (about a millisecond each, most of a
random playout's time). Here a small search first moves the key *alone* on the board; only
when that relaxed key reaches a target does the real solver run.

Why the shortcut is a proof: removing every other piece only frees cells, and dropping LM-8
(every axis keeps an attached piece) only allows more moves; a rotation that turns the key
with other attached pieces needs their destinations free too, so moving the key alone is
again the looser test. The key placements the relaxed search reaches therefore include every
placement the real lock can reach; if none of them is a target (LM-3), no solution exists and
the answer is "impossible", exactly what the full solver would say.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import TYPE_CHECKING

from arena.games.lockmaker.board import Board
from arena.games.lockmaker.construct import buildable, random_lock
from arena.games.lockmaker.pieces import Bar, PieceKind
from arena.games.lockmaker.position import Position

if TYPE_CHECKING:
    from arena.games.lockmaker.match import LMState, LockmakerGame

_TURNS = ((0, -1, 1, 0), (0, 1, -1, 0), (-1, 0, 0, -1))
"""CW, CCW, 180 as (dc->dc, dr->dc, dc->dr, dr->dr) factors: rows grow downward (G-1), so
CW sends an offset (dc, dr) to (-dr, dc), CCW to (dr, -dc), 180 to (-dc, -dr) (LM-7)."""


@lru_cache(maxsize=256)
def _free_mask(board: Board, keyhole: int, axes: tuple[int, ...]) -> int:
    """Cells a lone key may cover: open, not the keyhole, not an axis (LM-1, LM-2, LM-6)."""
    m = board.open_mask & ~(1 << keyhole)
    for a in axes:
        m &= ~(1 << a)
    return m


def key_can_reach(pos: Position) -> bool:
    """Whether the key, moved alone on the lock's board (slides, LM-5, and turns about an
    axis it is attached to, LM-6/LM-7), reaches a target placement (LM-3).

    A relaxation of the real lock (see the module text): False proves the lock impossible;
    True proves nothing, and the caller asks the real solver."""
    board = pos.board
    w, h = board.width, board.height
    free = _free_mask(board, pos.keyhole, pos.axes)
    targets = pos.targets
    axes = [(a % w, a // w) for a in pos.axes]
    start = (pos.key.cell, pos.key.horizontal)
    seen = {start}
    stack = [start]
    while stack:
        cell, horizontal = stack.pop()
        if Bar(cell, 2, horizontal) in targets:
            return True
        c, r = cell % w, cell // w
        # slides: one step at a time along the key's own line (any distance, LM-5)
        step = 1 if horizontal else w
        nxt: list[tuple[int, bool]] = []
        # backwards: the cell before the key must be free
        cc, rr, x = c, r, cell
        while (cc > 0 if horizontal else rr > 0) and free >> (x - step) & 1:
            x -= step
            cc, rr = (cc - 1, rr) if horizontal else (cc, rr - 1)
            nxt.append((x, horizontal))
        # forwards: the cell after the key's far end must be free
        cc, rr, x = c, r, cell
        while ((cc + 2 < w) if horizontal else (rr + 2 < h)) and free >> (x + 2 * step) & 1:
            x += step
            cc, rr = (cc + 1, rr) if horizontal else (cc, rr + 1)
            nxt.append((x, horizontal))
        # turns about an axis the key is attached to (an end next to the axis, LM-6)
        c1, r1 = (c + 1, r) if horizontal else (c, r + 1)
        for ac, ar in axes:
            if horizontal:
                if not (r == ar and (c - 1 == ac or c1 + 1 == ac)):
                    continue
            elif not (c == ac and (r - 1 == ar or r1 + 1 == ar)):
                continue
            for f in _TURNS:
                cells = []
                for pc, pr in ((c, r), (c1, r1)):
                    dc, dr = pc - ac, pr - ar
                    nc, nr = ac + f[0] * dc + f[1] * dr, ar + f[2] * dc + f[3] * dr
                    if not (0 <= nc < w and 0 <= nr < h) or not free >> (nr * w + nc) & 1:
                        break
                    cells.append(nr * w + nc)
                else:
                    nxt.append((min(cells), horizontal if f is _TURNS[2] else not horizontal))
        for s in nxt:
            if s not in seen:
                seen.add(s)
                stack.append(s)
    return False


def _solution(pos: Position) -> str | None:
    """The text of a solution within the random budget, or None (impossible, or not found
    within the budget: the old policy's answer either way)."""
    if not key_can_reach(pos):
        return None
    from arena.games.lockmaker import bot as botmod  # NumPy and the solvers load on first use

    res = botmod.cached_solve(pos, botmod.RANDOM_BUDGET)
    return botmod.solution_text(pos, res) if res.solvable else None


def random_move(game: LockmakerGame, state: LMState, seat: int, rng: random.Random
                ) -> str | None:
    """A random legal submission for the current phase (the conformance suite's driver and
    the throughput bench's policy); the draws of the former ``bot.random_move``, in its order."""
    st = state.stage
    if st == "study":
        return rng.choice(["first", "second"]) if state.round == 0 and seat == 1 else "ready"
    if st == "draft":
        if rng.random() < 0.15:
            return "stop"
        hand = state.hands[seat]
        pool = list(state.pool)
        rng.shuffle(pool)
        chosen: list[PieceKind] = []
        want = rng.randint(1, state.turn_picks())
        for p in pool:
            if len(chosen) >= want:
                break
            if buildable((*hand, *chosen, p)):
                chosen.append(p)
        if not chosen:
            return "stop"
        return ",".join(str(p) for p in chosen) + (",stop" if rng.random() < 0.1 else "")
    if st == "build":
        pos = random_lock(state.current.board, state.hands[seat], rng)
        from arena.games.lockmaker.submissions import lock_text

        return None if pos is None else lock_text(pos)
    if st == "solve":
        # Within one phase a seat always offers the same kind of answer: a solution after an
        # impossible call would be rightly refused (LM-16).
        if (state.round + seat) % 2 == 0:
            return "impossible"
        lock = state.locks[1 - seat]
        assert lock is not None
        text = _solution(lock)
        return "impossible" if text is None else text
    if st in ("pick", "decide") and state.forced_active(seat):
        own = state.locks[seat]
        assert own is not None
        text = _solution(own)
        if text is not None and rng.random() < 0.7:
            return text
        if st == "decide" or len(state.solutions[seat]) < 2:
            return None
    if st == "pick":
        return str(rng.randint(1, len(state.solutions[seat])))
    if st == "decide":
        return rng.choice(["countersolve", "pass"])
    if st == "counter":
        own = state.locks[seat]
        assert own is not None
        return _solution(own)
    return None
