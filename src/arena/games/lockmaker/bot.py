"""The Lockmaker bot, and the random legal submissions the conformance suite uses.

The bot drafts as many pieces as it can, long bars first and at most one axis (a hand it can
always build; more and longer bars make harder locks), builds its lock with the hardest-lock
search (:mod:`arena.games.lockmaker.builder`: the generator's cluster walks, Fogleman's
method, in two independent searches) under a budget counted in cluster walks and states
visited, not seconds, so that a simulated match replays exactly for its seed (the config's
``bot_placements`` and the work it scales: a few to about twenty CPU seconds by default, far
inside the build phase; 0, or a hand the search cannot
place, falls back to the best of a few random locks climbed a little). It solves the
opponent's lock with the fast solver (same optimum as the reference solver, LM-9), declares
impossible only when the whole reachable set was explored, and countersolves only when its
own optimum beats the solver's count. Solver answers are cached per position, so the bot asks
each question once.
"""

from __future__ import annotations

import heapq
import random
from typing import TYPE_CHECKING

from arena.core.errors import RuleError
from arena.games.lockmaker.board import Board
from arena.games.lockmaker.builder import build_hardest
from arena.games.lockmaker.construct import buildable, random_lock
from arena.games.lockmaker.fast.api import FastSolution, fast_solve
from arena.games.lockmaker.lockfile import write_lock
from arena.games.lockmaker.moves import Move, successors
from arena.games.lockmaker.notation import format_solution
from arena.games.lockmaker.pieces import Bar, PieceKind, bar_cells
from arena.games.lockmaker.position import Position
from arena.games.lockmaker.solver import SolveResult, solve

if TYPE_CHECKING:
    from arena.games.lockmaker.match import LMState, LockmakerGame

HAND_SIZE = 8
"""The bot stops drafting at this many pieces (in practice the pool runs out first: every
extra bar blocks more, and the generator turns a fuller hand into a harder lock)."""
BUILD_CANDIDATES = 12
BUILD_BUDGET = 800
IMPROVE_STEPS = 25
SOLVE_BUDGET = 300_000
RANDOM_BUDGET = 1500
PREFERENCE = {"V3": 0, "H3": 1, "V2": 2, "H2": 3, "X": 4}


Answer = SolveResult | FastSolution
"""A solver's answer (both solvers give the same fields and the same optimum, LM-9)."""

_CACHE: dict[Position, Answer] = {}


def cached_solve(pos: Position, max_states: int) -> Answer:
    """The solver's answer, remembered: a finished search (solved, or proved impossible) is
    valid for any budget, and a cut one for any budget no larger than its own. The fast
    solver answers; the reference solver only if the fast one refuses the lock."""
    got = _CACHE.get(pos)
    if got is not None and (got.complete or got.solvable or got.states >= max_states):
        return got
    res: Answer
    try:
        res = fast_solve(pos, max_states=max_states)
    except (RuleError, ValueError):
        res = solve(pos, max_states=max_states)
    if len(_CACHE) > 512:
        _CACHE.clear()
    _CACHE[pos] = res
    return res


def solution_text(pos: Position, res: Answer) -> str:
    return ", ".join(format_solution(pos.board, res.solution))


def _rank(p: PieceKind) -> tuple[int, int]:
    return (PREFERENCE.get(str(p), 5 if p.is_axis else -p.length), -p.length)


def draft_pick(hand: tuple[PieceKind, ...], pool: tuple[PieceKind, ...], picks: int,
               rng: random.Random, *, limit: int = HAND_SIZE) -> str:
    room = min(picks, limit - len(hand))
    if room <= 0:
        return "stop"
    chosen: list[PieceKind] = []
    left = sorted(pool, key=_rank)
    axes = sum(1 for p in hand if p.is_axis)
    for p in left:
        if len(chosen) == room:
            break
        if p.is_axis and (axes >= 1 or not buildable((*hand, *chosen, p))):
            continue
        chosen.append(p)
        axes += p.is_axis
    if not chosen:
        return "stop"
    text = ",".join(str(p) for p in chosen)
    if len(hand) + len(chosen) >= limit:
        text += ",stop"
    return text


def build_lock(state: LMState, seat: int, rng: random.Random) -> str | None:
    """The hardest-lock search's lock within the configured walk budget (the config's
    ``bot_placements``, :mod:`arena.games.lockmaker.builder`; deterministic for the match's
    seed, G-7); the random-and-climb lock when the search finds none or the budget is 0."""
    board = state.current.board
    hand = state.hands[seat]
    built = build_hardest(board, hand, rng, state.config.bot_placements)
    if built is not None:
        return write_lock(built.lock)
    return _random_build(board, hand, rng)


def _random_build(board: Board, hand: tuple[PieceKind, ...], rng: random.Random) -> str | None:
    best: tuple[int, Position] | None = None
    fallback: Position | None = None
    for _ in range(BUILD_CANDIDATES):
        pos = random_lock(board, hand, rng, key_in_line=True)
        if pos is None:
            continue
        fallback = fallback or pos
        res = cached_solve(pos, BUILD_BUDGET)
        if res.solvable and res.moves is not None and (best is None or res.moves > best[0]):
            best = (res.moves, pos)
    if best is not None:
        best = improve(best[1], best[0], rng)
    chosen = best[1] if best is not None else fallback
    return None if chosen is None else write_lock(chosen)


def mutate(pos: Position, rng: random.Random) -> Position | None:
    """The lock with one bar (or the key) moved to another free place in its orientation;
    None when that breaks a rule (an axis left alone, LM-8)."""
    board = pos.board
    i = rng.randrange(len(pos.pieces))
    bar = pos.pieces[i]
    rest = pos.pieces[:i] + pos.pieces[i + 1:]
    taken = {pos.keyhole, *pos.axes}
    for b in rest:
        taken.update(bar_cells(board, b))
    # Bars keep their drafted orientation (LM-4); the key mostly keeps its own.
    horizontal = bar.horizontal if i or rng.random() < 0.8 else not bar.horizontal
    spots = [Bar(c, bar.length, horizontal) for c in board.open_cells()]
    spots = [b for b in spots if b != bar and _fits(board, taken, b)]
    if not spots:
        return None
    new = rng.choice(spots)
    out = pos.with_pieces(new, rest) if i == 0 else pos.with_pieces(pos.key, (*rest[1:], new))
    return None if out.problems() or out.solved else out


def _fits(board: Board, taken: set[int], bar: Bar) -> bool:
    c, r = board.col(bar.cell), board.row(bar.cell)
    end = (c + bar.length - 1, r) if bar.horizontal else (c, r + bar.length - 1)
    if not board.inside(*end):
        return False
    return all(board.is_open(x) and x not in taken for x in bar_cells(board, bar))


def improve(pos: Position, moves: int, rng: random.Random,
            steps: int = IMPROVE_STEPS) -> tuple[int, Position]:
    """Hill-climb: keep single-piece changes that stay solvable and need at least as many
    moves (a lock the generator issue will make much harder)."""
    best = (moves, pos)
    for _ in range(steps):
        cand = mutate(best[1], rng)
        if cand is None:
            continue
        res = cached_solve(cand, BUILD_BUDGET)
        if res.solvable and res.moves is not None and res.moves >= best[0]:
            best = (res.moves, cand)
    return best


def bot_move(game: LockmakerGame, state: LMState, seat: int, rng: random.Random) -> str | None:
    st = state.stage
    if st == "study":
        return "first" if state.round == 0 and seat == 1 else "ready"
    if st == "draft":
        return draft_pick(state.hands[seat], state.pool, state.turn_picks(), rng)
    if st == "build":
        return build_lock(state, seat, rng)
    if st == "solve":
        lock = state.locks[1 - seat]
        assert lock is not None
        res = cached_solve(lock, SOLVE_BUDGET)
        if res.solvable:
            return solution_text(lock, res)
        return "impossible" if res.complete else None
    if st in ("pick", "decide") and state.forced_active(seat):
        # A lock it made was declared impossible: its countersolve runs from the end of
        # solving (LM-17, LM-18), so it answers with a solution if it has one.
        own = state.locks[seat]
        assert own is not None
        res = cached_solve(own, SOLVE_BUDGET)
        if res.solvable:
            return solution_text(own, res)
        if st == "decide" or len(state.solutions[seat]) < 2:
            return None
    if st == "pick":
        sols = state.solutions[seat]
        best = min(range(len(sols)), key=lambda i: (sols[i].moves, sols[i].at))
        return str(best + 1)
    if st == "decide":
        own = state.locks[seat]
        theirs = state.final[1 - seat]
        assert own is not None and theirs is not None
        res = cached_solve(own, SOLVE_BUDGET)
        good = res.solvable and res.moves is not None and res.moves < theirs.moves
        return "countersolve" if good else "pass"
    if st == "counter":
        own = state.locks[seat]
        assert own is not None
        res = cached_solve(own, SOLVE_BUDGET)
        return solution_text(own, res) if res.solvable else None
    return None


# --- levels (G-8) -----------------------------------------------------------
EASY_HAND = 4
"""An easy bot stops drafting at this many pieces: fewer bars make an easier lock."""
GREEDY_BUDGET = 20_000
"""Positions the greedy solver may look at before it gives up on a lock."""


def greedy_solve(pos: Position, budget: int = GREEDY_BUDGET) -> list[Move] | None:
    """A beginner's solution: always try the position that looks closest to open (the key's
    distance to the keyhole plus the pieces in the way), never comparing lengths, so the
    moves it finds are usually more than the optimum (LM-9). None: gave up within ``budget``."""
    if pos.solved:
        return []
    board = pos.board
    w = board.width

    def guess(p: Position) -> int:
        key = p.key
        best = 1 << 30
        for t in p.targets:
            far = abs(key.cell % w - t.cell % w) + abs(key.cell // w - t.cell // w)
            blocked = sum(1 for c in bar_cells(board, t) if p.piece_at(c) not in (None, key))
            best = min(best, far + 2 * blocked)
        return best

    seen: dict[tuple[Bar, tuple[Bar, ...]], tuple[tuple[Bar, tuple[Bar, ...]] | None,
                                                    Move | None]] = {pos.state: (None, None)}
    heap: list[tuple[int, int, Position]] = [(guess(pos), 0, pos)]
    order = 1
    while heap and len(seen) < budget:
        _, _, cur = heapq.heappop(heap)
        for move, nxt in successors(cur):
            if nxt.state in seen:
                continue
            seen[nxt.state] = (cur.state, move)
            if nxt.solved:
                path: list[Move] = []
                at: tuple[Bar, tuple[Bar, ...]] | None = nxt.state
                while at is not None:
                    parent, step = seen[at]
                    if step is not None:
                        path.append(step)
                    at = parent
                return path[::-1]
            heapq.heappush(heap, (guess(nxt), order, nxt))
            order += 1
    return None


def level_move(game: LockmakerGame, state: LMState, seat: int, rng: random.Random,
               level: str) -> str | None:
    """The bot at ``easy`` or ``normal`` (``hard`` is :func:`bot_move`).

    ``easy`` is a beginner: it drafts the first pieces the pool lists and stops at
    :data:`EASY_HAND`, builds the first valid lock it finds, solves greedily (a solution, not
    the shortest; none when the greedy search gives up), never declares a lock impossible and
    never countersolves by choice. ``normal`` drafts and solves as the full bot does but builds
    the best of a few random locks climbed a little, without the hardest-lock generator."""
    st = state.stage
    if level == "normal":
        if st == "build":
            return _random_build(state.current.board, state.hands[seat], rng)
        return bot_move(game, state, seat, rng)
    if st == "study":
        return "first" if state.round == 0 and seat == 1 else "ready"
    if st == "draft":
        return _first_pieces(state.hands[seat], state.pool, state.turn_picks())
    if st == "build":
        for _ in range(BUILD_CANDIDATES):
            pos = random_lock(state.current.board, state.hands[seat], rng, key_in_line=True)
            if pos is not None:
                return write_lock(pos)
        return build_lock(state, seat, rng)
    own = state.locks[seat]
    if st == "solve":
        lock = state.locks[1 - seat]
        assert lock is not None
        found = greedy_solve(lock)
        return None if found is None else ", ".join(format_solution(lock.board, found))
    if (st in ("pick", "decide") and state.forced_active(seat)) or st == "counter":
        assert own is not None
        found = greedy_solve(own)
        if found is not None:
            return ", ".join(format_solution(own.board, found))
        if st != "pick" or len(state.solutions[seat]) < 2:
            return None
    if st == "pick":
        return "1"
    if st == "decide":
        return "pass"
    return None


def _first_pieces(hand: tuple[PieceKind, ...], pool: tuple[PieceKind, ...], picks: int) -> str:
    """A beginner's draft: the pool's first pieces in the order listed, up to a small hand."""
    room = min(picks, EASY_HAND - len(hand))
    chosen: list[PieceKind] = []
    for p in pool:
        if len(chosen) >= room:
            break
        if buildable((*hand, *chosen, p)):
            chosen.append(p)
    if not chosen:
        return "stop"
    text = ",".join(str(p) for p in chosen)
    return text + ",stop" if len(hand) + len(chosen) >= EASY_HAND else text
