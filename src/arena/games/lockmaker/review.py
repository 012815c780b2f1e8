"""Lockmaker's post-match review: each seat's locks, solutions and calls against the best.

Three kinds of decision are judged, each in moves (LM-9), the review's one measure:

- **the lock a seat built** (LM-15): the moves its lock needs against the hardest lock the
  generator finds for the same board and hand (:func:`hardest_for`: a small budget counted in
  walks and states visited, seeded from the board and hand, so the same match always gets the
  same judgement, G-7), or the hardest a maker could build in its own lock's reachable set;
  not proven, so ``exact`` is False. A lock harder than the one found
  costs nothing; a lock that cannot be opened gives a correct "impossible" call 5 points
  (LM-18) and is judged as a lock of no moves;
- **each solution a seat sent** (LM-16, and each countersolve, LM-17, LM-18): its length
  against the shortest solution, which the exhaustive solver proves (``exact``);
- **the "impossible" call** (LM-16, LM-18): a call on a lock that opens gives away the
  whole solution (its optimal length); silence on a lock that cannot be opened gives away
  the call (:data:`MISSED_CALL`: the 5 points it was worth, in "points", and counted as
  moves where the costliest decisions are ranked).

None of these was public as it was made: a lock is sealed until both are shown (LM-16), and
solutions and calls stay a seat's own until announced (G-10), so every judgement is
``public=False`` and G-9 decides who reads it.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from arena.core.errors import RuleError
from arena.core.judging import Judgement, Step
from arena.core.wording import counted
from arena.games.lockmaker.board import Board
from arena.games.lockmaker.fast.api import fast_solve
from arena.games.lockmaker.fast.generator import generate, score
from arena.games.lockmaker.lockfile import write_board
from arena.games.lockmaker.pieces import PieceKind, format_piece_list
from arena.games.lockmaker.position import Position
from arena.games.lockmaker.submissions import Impossible, Solve

if TYPE_CHECKING:
    from arena.games.lockmaker.match import LMState

REVIEW_WALKS = 120
"""Cluster walks the review's generator may take per hand (a bound; work ends it first)."""
REVIEW_WORK = 30_000
"""States the review's generator may visit per hand: a few tenths of a second each, so a
five-round match's ten locks are judged in about two seconds on the reference machine."""
SOLVE_STATES = 2_000_000
"""Positions the solver may visit to prove a lock's shortest solution; a lock it cannot
settle within them is not judged (no truth, no judgement)."""
MISSED_CALL = 5
"""What silence on a lock that cannot be opened gives away, counted as moves: the 5 points
of a correct call (LM-18)."""

_NAMES = {"H": "horizontal", "V": "vertical"}


def review(steps: Sequence[Step[LMState]], names: Sequence[str] = ("Seat 1", "Seat 2")
           ) -> list[Judgement]:
    """Every seat's judged decisions in match order (the engine ranks and filters them). The
    words name the seats: the seat, the host and the audience read the same ones."""
    judge = _Judge(names)
    out: list[Judgement] = []
    for step in steps:
        before, after = step.before, step.after
        if step.name == "build":
            for seat in (0, 1):
                lock = after.locks[seat]
                if lock is not None:
                    got = judge.lock(step, seat, before.round, before.hands[seat], lock)
                    out += [got] if got is not None else []
        elif step.name in ("solve", "pick", "decide", "counter"):
            for seat in (0, 1):
                out += judge.answers(step, before, seat)
    return out


def hardest_for(board: Board, hand: Sequence[PieceKind], built: Position | None = None
                ) -> tuple[int, Position] | None:
    """The hardest lock the review's small search finds for ``hand`` on ``board`` and its
    moves; seeded from the board and hand alone (the same pair, the same lock, G-7). With
    ``built`` (the seat's own lock) the hardest lock a maker could build in that lock's own
    reachable set counts too (one cluster walk: a lock one slide from a harder one of the
    same pieces). None when neither finds a solvable lock."""
    hand = sorted(hand, key=str)  # the same pieces in any order: the same search
    key = f"{write_board(board)}|{format_piece_list(hand)}"
    rng = random.Random(zlib.crc32(key.encode()))
    best: tuple[int, Position] | None = None
    try:
        got = generate(board, hand, seconds=None, rng=rng, placements=REVIEW_WALKS,
                       work=REVIEW_WORK)
        best = (got.moves, got.lock)
    except RuleError:
        pass
    if built is not None:
        moves, lock = score(built)
        if moves >= 1 and (best is None or moves > best[0]):
            best = (moves, lock)
    return best


def pieces_words(hand: Sequence[PieceKind]) -> str:
    """A hand in words ("two horizontal bars of 2 and an axis"), never LM-22's notation."""
    counts: dict[str, int] = {}
    for p in sorted(hand, key=lambda p: (p.is_axis, p.kind, p.length)):
        name = "axis" if p.is_axis else f"{_NAMES[p.kind]} bar of {p.length}"
        counts[name] = counts.get(name, 0) + 1
    words = {1: "a", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
    parts = []
    for name, n in counts.items():
        many = name.replace("axis", "axes").replace(" bar ", " bars ") if n > 1 else name
        parts.append(f"{words.get(n, str(n)) if n > 1 else ('an' if name == 'axis' else 'a')}"
                     f" {many}")
    if not parts:
        return "only the key"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


class _Judge:
    """The review of one match: the solver's answers remembered per lock (one lock is judged
    for its maker and for each solution sent on it)."""

    def __init__(self, names: Sequence[str]) -> None:
        self._solved: dict[Position, int | None] = {}
        self.names = names

    def optimum(self, lock: Position) -> tuple[bool, int | None]:
        """(settled, shortest solution's moves or None when the lock cannot be opened)."""
        if lock in self._solved:
            return True, self._solved[lock]
        res = fast_solve(lock, max_states=SOLVE_STATES)
        if not res.solvable and not res.complete:
            return False, None
        self._solved[lock] = res.moves
        return True, res.moves

    def lock(self, step: Step[LMState], seat: int, rnd: int, hand: Sequence[PieceKind],
             lock: Position) -> Judgement | None:
        settled, moves = self.optimum(lock)
        found = hardest_for(lock.board, hand, lock)
        if not settled or found is None:
            return None
        value = moves or 0
        best = max(found[0], value)
        pieces, who = pieces_words(hand), self.names[seat]
        did = (f"Round {rnd + 1}: {who}'s lock opens in {counted(value, 'move')}." if moves
               else f"Round {rnd + 1}: {who}'s lock cannot be opened, so a correct "
                    "\"impossible\" call against it scores 5.")
        if value >= found[0]:
            better = (f"The hardest lock the review found for those pieces ({pieces}) opens "
                      f"in {counted(found[0], 'move')}: {who}'s is at least as hard.")
        else:
            better = (f"The hardest lock the review found for those pieces ({pieces}) opens "
                      f"in {counted(found[0], 'move')}.")
        return Judgement(seat, step.version, step.name, did, better, value, best, "moves",
                         best - value, exact=False, public=False)

    def answers(self, step: Step[LMState], before: LMState, seat: int) -> list[Judgement]:
        """The seat's solutions, countersolves and call in one phase."""
        out: list[Judgement] = []
        rnd = before.round + 1
        who, opp = self.names[seat], self.names[1 - seat]
        subs = step.outcome.history.get(seat, ())
        sent = 0
        called = False
        for sub in subs:
            value = sub.value
            if isinstance(value, Impossible):
                called = True
                lock = before.locks[1 - seat]
                if lock is None:
                    continue
                settled, moves = self.optimum(lock)
                if not settled:
                    continue
                if moves is None:
                    out.append(Judgement(
                        seat, step.version, step.name,
                        f"Round {rnd}: {who} called {opp}'s lock impossible.",
                        "Right: it cannot be opened.", 0, 0, "moves", 0))
                else:
                    out.append(Judgement(
                        seat, step.version, step.name,
                        f"Round {rnd}: {who} called {opp}'s lock impossible.",
                        f"It opens in {counted(moves, 'move')}: a solution would have "
                        "scored, and the call gives its maker a point.",
                        0, moves, "moves", moves))
            elif isinstance(value, Solve):
                own = value.counter
                lock = before.locks[seat if own else 1 - seat]
                if lock is None:
                    continue
                settled, moves = self.optimum(lock)
                if not settled or moves is None:
                    continue
                sent += 1
                whose = f"{who}'s own lock (a countersolve)" if own else f"{opp}'s lock"
                did = (f"Round {rnd}: {who}'s solution of {whose} took "
                       f"{counted(value.moves, 'move')}.")
                better = ("That is the shortest possible." if value.moves <= moves else
                          f"The shortest solution takes {counted(moves, 'move')}.")
                out.append(Judgement(seat, step.version, step.name, did, better, value.moves,
                                     moves, "moves", max(0, value.moves - moves)))
        if step.name == "solve" and not called and not sent:
            lock = before.locks[1 - seat]
            if lock is not None:
                settled, moves = self.optimum(lock)
                if settled and moves is None:
                    out.append(Judgement(
                        seat, step.version, step.name,
                        f"Round {rnd}: {who} did not call {opp}'s lock impossible.",
                        "It cannot be opened: calling it impossible scores 5 unless its "
                        "maker opens it.", 0, MISSED_CALL, "points", MISSED_CALL))
                elif settled and moves is not None:
                    out.append(Judgement(
                        seat, step.version, step.name,
                        f"Round {rnd}: {who} sent no solution of {opp}'s lock.",
                        f"It opens in {counted(moves, 'move')}.", 0, moves, "moves", moves))
        return out
