"""The post-match review of Paint Factory: each seat's design, picks, shoves and last colour
set against what the yardstick's search finds with hindsight.

A seat never knows the showings to come (PF-5), so no decision can be judged against what
would have been shown after another pick: the match's chance draws each showing from the
sets left, and the review is not handed that chance. It judges with hindsight instead,
against **the showings as they came**: the sets each showing actually offered (less any a
line of play has already used). For every decision, working back from the end:

- the points *within reach after it* are the best final score the rest of the match allowed
  from where the decision left the grid (the next decision's figure; the grid's own final
  score after the last colour);
- the points *within reach before it* are the best over every alternative the rules allowed
  (each shown set, each action's grid, PF-3, each colour) and the line actually played, by a
  beam of the yardstick's kind (:func:`arena.games.paint.yardstick.beam`);
- the cost is their difference, the points the decision gave away, so a seat's costs add up
  to roughly what its play left on the table, and a decision that kept the best in reach costs
  nothing.

A figure is ``exact`` when it is proven: it meets the colour ceiling (no grid can score more,
:func:`arena.games.paint.yardstick.colour_ceiling`), or the search pruned nothing (the last
turns, the last colour). The design is judged the same way from the opponent's side: the most
its sets allowed the opponent on the showings the opponent had, against the design bot's
hardest designs (:data:`arena.games.paint.designer.HARD_DESIGNS`) on the same showings; in
points held back (8,748 less what the sets allowed), so that a design that held the opponent
lower is worth more.

Nothing of the seat is public while it plays (PF-9: the grids are shown at the showings, the
set and the shoves never), so every judgement is sealed until the end reveals the match.

The work is fixed by counts (the beam's width), so a match is always judged the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from arena.core.judging import Judgement, Step
from arena.games.paint.designer import HARD_DESIGNS
from arena.games.paint.grid import COLOURS, EMPTY_GRID, next_grids, parse_action, place
from arena.games.paint.planner import children
from arena.games.paint.presentation import SHOWINGS
from arena.games.paint.scoring import score_value
from arena.games.paint.sets import COLOUR_NAMES, colour_words
from arena.games.paint.yardstick import CEILING, Node, Oracle, Values, beam, colour_bound

if TYPE_CHECKING:
    from arena.games.paint.match import Board, PaintState

WIDTH = 8
"""The beam's width for each decision: a match has some 60 decisions to judge and the review
must be ready within seconds of the end; later decisions start from the earlier ones' lines,
so the figures are consistent along the match."""

UNIT = "points"


def points(n: float) -> str:
    """``8748`` -> ``8,748 points``."""
    return f"{int(n):,} point{'s' if int(n) != 1 else ''}"


def set_words(number: int, sets: Sequence[str]) -> str:
    """``set 5 (red, green, blue, red)`` for the 0-based index ``number - 1``."""
    return f"set {number} ({colour_words(sets[number - 1])})"


def showings_oracle(showings: Sequence[tuple[int, ...]]) -> Oracle:
    """The showings as they came: showing n offers the sets it offered, less those a line has
    used already (should a line have used all three, the lowest unused sets stand in)."""

    def shown(number: int, used: frozenset[int], first: tuple[int, ...]) -> tuple[int, ...]:
        left = tuple(i for i in showings[number - 1] if i not in used)
        if left:
            return left
        return tuple(i for i in range(8) if i not in used)[:1]

    return shown


@dataclass(frozen=True)
class Decision:
    """One of a seat's decisions as the steps record it: the phase, the grid before it (the
    container on A1 at a shove), what the seat did, and the log entry."""

    phase: str
    version: int
    number: int
    """The showing (pick) or turn (shove)."""
    grid: str
    used: tuple[int, ...]
    queue: str
    shown: tuple[int, ...]
    text: str


def decisions(steps: Sequence[Step[PaintState]], seat: int) -> list[Decision]:
    """The seat's picks, shoves and last colour in order, from the resolved phases."""
    out: list[Decision] = []
    for step in steps:
        if step.name not in ("pick", "shove", "last"):
            continue
        before = step.before.boards[seat]
        after = step.after.boards[seat]
        number = (step.before.showing_no if step.name == "pick"
                  else step.before.turn)
        out.append(Decision(step.name, step.version, number, before.grid, before.used,
                            before.queue, before.shown, after.decisions[-1]))
    return out


@dataclass
class Judged:
    """Within reach after and before a decision, the best alternative and whether proven."""

    after: int
    before: int
    best: str
    exact: bool


class SeatReview:
    """The backward pass over one seat's decisions (see the module text)."""

    def __init__(self, sets: Sequence[str], showings: Sequence[tuple[int, ...]], final: str,
                 values: Values) -> None:
        self.sets = sets
        self.oracle = showings_oracle(showings)
        self.first = showings[0] if showings else ()
        self.final = final
        self.values = values

    def ceiling(self, used: tuple[int, ...], grid: str, queue: str, number: int) -> int:
        """The colour ceiling of the rest of the match from here (every pick still open)."""
        placed = [grid.count(c) + queue.count(c) for c in COLOURS]
        if number > SHOWINGS:
            return max(_bound(placed, k) for k in range(3))
        best = 0

        def walk(n: int, u: frozenset[int], counts: list[int]) -> None:
            nonlocal best
            if best >= CEILING:
                return
            if n > SHOWINGS:
                best = max(best, *(_bound(counts, k) for k in range(3)))
                return
            for i in self.oracle(n, u, self.first):
                walk(n + 1, u | {i}, [counts[j] + self.sets[i].count(c)
                                      for j, c in enumerate(COLOURS)])

        walk(number, frozenset(used), placed)
        return best

    def judge(self, ds: Sequence[Decision]) -> list[Judged]:
        within = score_value(self.final)
        out: list[Judged] = []
        for d in reversed(ds):
            after = within
            if d.phase == "last":
                scores = {c: score_value(place(d.grid, c)) for c in COLOURS}
                top = max(scores.values())
                best = next(c for c in COLOURS if scores[c] == top)
                out.append(Judged(after, max(top, after), best, True))
                within = max(top, after)
                continue
            used = frozenset(d.used)
            if d.phase == "pick":
                options = [str(i + 1) for i in self.oracle(d.number, used, self.first)]
                starts = [Node(d.grid, used | {int(o) - 1}, self.first,
                               self.sets[int(o) - 1], k) for k, o in enumerate(options)]
                number = d.number + 1
                ceiling = self.ceiling(d.used, d.grid, "", d.number)
            else:
                kids = children(d.grid)
                options = [_action_for(d.grid, g) for g in kids]
                starts = [Node(g, used, self.first, d.queue, k) for k, g in enumerate(kids)]
                number = len(d.used) + 1
                ceiling = self.ceiling(d.used, d.grid, d.queue, number)
            res = beam(self.sets, self.oracle, starts, number, WIDTH, self.values)
            before = max(res.score, after)
            best = options[res.root] if res.score > after else ""
            exact = before >= ceiling or not res.pruned
            out.append(Judged(after, before, best, exact))
            within = before
        out.reverse()
        return out


def _bound(counts: Sequence[int], last: int) -> int:
    return colour_bound([n + (1 if k == last else 0) for k, n in enumerate(counts)])


def _action_for(grid: str, after: str) -> str:
    """The first legal action (in the fixed order) that leaves ``after`` from ``grid``."""
    for action, g in next_grids(grid):
        if g == after:
            return str(action)
    return ""  # pragma: no cover - ``after`` is one of the grid's children


def showings_of(steps: Sequence[Step[PaintState]], seat: int) -> list[tuple[int, ...]]:
    """What each of the seat's six showings offered, from the pick phases' states."""
    return [step.before.boards[seat].shown
            for step in steps if step.name == "pick"]


def review(steps: Sequence[Step[PaintState]], final: PaintState,
           names: Sequence[str] = ("Seat 1", "Seat 2")) -> list[Judgement]:
    """Every decision of both seats judged (see the module text), in match order per seat.
    The words name the seats: the seat, the host and the audience read the same ones."""
    boards = final.boards
    designs = final.designs
    if not designs or len(showings_of(steps, 0)) < SHOWINGS:
        return []  # the match ended before the grids were played out (G-3 forfeit)
    values = Values()
    out: list[Judgement] = []
    design = [s for s in steps if s.name == "design"]
    for seat in (0, 1):
        if design:
            out.append(_design(seat, design[0].version, steps, boards, values, names))
        board = boards[seat]
        ds = decisions(steps, seat)
        judged = SeatReview(board.sets, showings_of(steps, seat), board.grid,
                            values).judge(ds)
        out.extend(_words(d, j, seat, board.sets, names[seat])
                   for d, j in zip(ds, judged, strict=True))
    return out


def _design(seat: int, version: int, steps: Sequence[Step[PaintState]], boards: Sequence[Board],
            values: Values, names: Sequence[str]) -> Judgement:
    """The seat's design against the design bot's hardest ones, on the showings the
    opponent had, each searched alike (see the module text)."""
    opp = 1 - seat
    oracle = showings_oracle(showings_of(steps, opp))
    scored = score_value(boards[opp].grid)
    reached = [beam(design, oracle, [Node(EMPTY_GRID, frozenset(), (), "", 0)], 1, WIDTH,
                    values).score
               for design in (boards[opp].sets, *HARD_DESIGNS)]
    # What the opponent made of the sets is itself a line on those showings: the sets
    # allowed at least that, however short the search falls of it.
    searched = reached[0]
    own = reached[0] = max(searched, scored)
    lowest = min(reached)
    found = (f"; a search with hindsight reached {points(searched)} with the same showings"
             if searched > scored else "")
    did = (f"On the 8 sets {names[seat]} designed, {names[opp]} scored {points(scored)} "
           f"with the showings {names[opp]} had{found}: the sets held "
           f"{points(CEILING - own)} back from the best grid's {points(CEILING)}.")
    if lowest < own:
        better = (f"On the design bot's hardest sets a search with hindsight reached only "
                  f"{points(lowest)} with those showings, holding "
                  f"{points(CEILING - lowest)} back.")
    else:
        better = ("On none of the design bot's hardest sets did a search with hindsight "
                  "reach less with those showings.")
    return Judgement(seat, version, "design", did, better, float(CEILING - own),
                     float(CEILING - lowest), "points held back", float(own - lowest),
                     exact=False, public=False)


def _words(d: Decision, j: Judged, seat: int, sets: Sequence[str], who: str) -> Judgement:
    cost = j.before - j.after
    if d.phase == "pick":
        picked = int(d.text.split()[-1])
        did = (f"Showing {d.number}: {who} picked {set_words(picked, sets)}, which left "
               f"{points(j.after)} within reach with the showings as they came.")
        if cost > 0 and j.best:
            better = (f"Picking {set_words(int(j.best), sets)} would have kept "
                      f"{points(j.before)} within reach.")
        else:
            better = "No other set shown would have kept more within reach."
    elif d.phase == "shove":
        colour = COLOUR_NAMES.get(d.grid[0], d.grid[0])
        did = (f"Turn {d.number}: with {colour} on A1 {who} shoved "
               f"{parse_action(d.text).words()}, which left {points(j.after)} within reach "
               "with the containers that came.")
        if cost > 0 and j.best:
            better = (f"Shoving {parse_action(j.best).words()} would have kept "
                      f"{points(j.before)} within reach.")
        else:
            better = "No other shove would have kept more within reach."
    else:
        colour = COLOUR_NAMES.get(d.text, d.text)
        did = f"Turn 25: {who} chose {colour} for the last container: {points(j.after)}."
        if cost > 0:
            better = (f"{COLOUR_NAMES[j.best].capitalize()} would have scored "
                      f"{points(j.before)}.")
        else:
            better = "No other colour would have scored more."
    return Judgement(seat, d.version, d.phase, did, better, float(j.after), float(j.before),
                     UNIT, float(cost), exact=j.exact, public=False)
