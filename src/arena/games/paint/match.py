"""Paint Factory as an engine game: the phases, what each seat sees, and the result.

Flow (PF-4, PF-5, PF-8): a sealed ``design`` phase where both seats submit 8 sets for the
opponent (48 hours by default); then both seats play their own grid at the same time, in
lockstep, from the sets the opponent designed: six times a ``pick`` of one of three shown sets,
each followed by four ``shove`` decisions (one per container of the set), and finally the
``last`` colour for A1. Every decision has 2 minutes and may use the reserve (ten 30-second
periods); running out loses the match (G-3, handled by the engine).

A seat's grid, the sets it designed and the sets it is shown are its private state (G-9) while
a set is being played. At every new showing (and after turn 24) both grids, as they stand then,
become public: seats and spectators alike see them (``progress``), so a spectator can follow the
match while the set being played stays sealed, and a seat gains nothing by opening the
spectator link. The rules are silent on whether the opponent's grid is secret; this is the
reading the project follows until a ruling says otherwise.

Notation: ``GRBR,RGBB,...`` (design), ``pick 5`` (pick), ``B then 1`` / ``1`` / ``A``
(shove), ``R`` (last colour).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any, ClassVar, TypeVar

from arena.core.errors import RuleError
from arena.core.game import (
    JSON,
    BotLevel,
    Game,
    GameConfig,
    GameEvent,
    PhaseOutcome,
    PhaseSpec,
    ReservePeriod,
    ReservePeriods,
    Result,
    SubmitContext,
    seat_label,
)
from arena.core.judging import Judgement, Step
from arena.core.settings import seconds
from arena.games.paint.designer import DEFAULT_DESIGN, random_design
from arena.games.paint.grid import (
    EMPTY_GRID,
    Action,
    apply_action,
    grid_rows,
    legal_actions,
    parse_action,
    place,
)
from arena.games.paint.notation import (
    Colour,
    Design,
    PaintMove,
    SetPick,
    parse_colour,
    parse_pick,
)
from arena.games.paint.players import Player, RandomPlayer, Situation
from arena.games.paint.presentation import SHOWINGS, showing
from arena.games.paint.scoring import score_grid
from arena.games.paint.sets import format_design, parse_design

DESIGN, PICK, SHOVE, LAST, OVER = "design", "pick", "shove", "last", "over"
_V = TypeVar("_V", Design, SetPick, Action, Colour)


def _as(kind: type[_V], move: PaintMove) -> _V:
    """A standing move as the phase's kind: every move of a phase is read as that phase's
    (:meth:`PaintGame.parse`), so another kind is a bug, never a player's input."""
    assert isinstance(move, kind), move
    return move


TURNS = 24


@dataclass(frozen=True)
class PaintConfig(GameConfig):
    """PF-8 durations in the text's seconds (the engine applies the time scale, G-5)."""

    design_time: Annotated[float, seconds("PF-8: seconds to design the 8 sets "
                                          "(48 hours by default)",
                                          label="Design time")] = 48 * 3600.0
    decision_time: Annotated[float, seconds("PF-8: seconds per decision",
        label="Decision time")] = 120.0
    reserve_periods: ReservePeriods = 10
    reserve_period: ReservePeriod = 30.0


@dataclass(frozen=True)
class Board:
    """One seat's own game: the sets its opponent designed for it and its grid.

    Sets are referred to by 0-based index into ``sets`` (players see them numbered 1-8);
    ``first`` is the first showing (PF-5 keeps it out of the second), ``shown`` the showing
    open now, ``queue`` the containers of the picked set still to enter after the one on A1,
    ``seen`` every set ever shown to this seat, ``decisions`` its accepted texts in order;
    ``public`` the grid as it stood at the last showing (made public then, see the module
    docstring; empty before the second showing) and ``public_turn`` the turn it stood after.
    """

    sets: tuple[str, ...] = ()
    grid: str = EMPTY_GRID
    used: tuple[int, ...] = ()
    first: tuple[int, ...] = ()
    shown: tuple[int, ...] = ()
    queue: str = ""
    seen: tuple[int, ...] = ()
    decisions: tuple[str, ...] = ()
    public: str = ""
    public_turn: int = 0

    def publish(self, turn: int) -> Board:
        return replace(self, public=self.grid, public_turn=turn)

    def show(self, shown: tuple[int, ...]) -> Board:
        return replace(self, shown=shown, seen=tuple(sorted(set(self.seen) | set(shown))))


@dataclass(frozen=True)
class PaintState:
    config: PaintConfig
    stage: str = DESIGN
    turn: int = 0
    showing_no: int = 0
    designs: tuple[tuple[str, ...], ...] = ()
    boards: tuple[Board, ...] = (Board(), Board())
    seat_names: tuple[str, ...] = ()
    """The players' names, for the texts people read (LO-10, G-6); empty in a simulation."""

    def who(self, seat: int) -> str:
        return seat_label(self.seat_names, seat)


def grid_tag(seat: int, grid: str) -> str:
    """The grid in one token tagged with its seat (``1:R..../.....``): the private fact the
    G-9 checks look for in every other reader's view, whatever the view's serialisation."""
    return f"{seat + 1}:" + "/".join(grid_rows(grid))


def design_tag(seat: int, sets: tuple[str, ...]) -> str:
    """The sets a seat designed in one token tagged with its seat, the other private fact."""
    return f"{seat + 1}:" + format_design(sets)


def colours(letters: str) -> list[str]:
    """A set (or what is still to come of it) as the list of its colours, first in first:
    ``GRBR`` -> ``["G", "R", "B", "R"]`` (facts, not notation, in events and views)."""
    return list(letters)


def situation(state: PaintState, seat: int) -> Situation:
    """What ``seat`` knows now, for its bot (nothing of the other seat's private state)."""
    b = state.boards[seat]
    return Situation(
        grid=b.grid,
        queue=b.queue,
        shown=tuple(b.sets[i] for i in b.shown),
        seen=tuple(b.sets[i] for i in b.seen),
        used=tuple(b.sets[i] for i in b.used),
        showings_left=SHOWINGS - state.showing_no,
    )


class PaintGame(Game[PaintState, PaintConfig, PaintMove]):
    name = "paint"
    title = "Paint Factory"
    summary = ("shove paint containers into a 5x5 grid from sets your opponent designed; "
               "score the product of your chains' lengths")
    seats = 2
    chance = True
    hidden_information = True
    rules_prefix = "PF"
    order = 30
    board_script = "/static/games/paint.js"
    board_sheet = "/static/games/paint.css"
    screenshot_moment = (("pf-design-example", "[data-testid=pf-design-check]"),
                         ("pf-design-submit", "[data-testid=pf-pick-confirm]"))
    config_type = PaintConfig
    death_match: ClassVar[dict[str, Any] | None] = {}  # SE-4: a Death Match, as the rule text sets it out

    # ------------------------------------------------------------------ setup
    def initial_state(self, config: PaintConfig, rng: random.Random) -> PaintState:
        return PaintState(config)

    def max_phases(self, config: PaintConfig) -> int:
        return 1 + SHOWINGS * 5 + 1

    # ------------------------------------------------------------------ flow
    def phase(self, state: PaintState) -> PhaseSpec | None:
        both = frozenset({0, 1})
        c = state.config
        if state.stage == DESIGN:
            return PhaseSpec(DESIGN, c.design_time, must=both, reserve=True,
                             prompt="8 sets for your opponent, first-entering colour first, "
                                    "separated by commas (PF-4)")
        if state.stage == PICK:
            return PhaseSpec(PICK, c.decision_time, must=both, reserve=True,
                             prompt=f"showing {state.showing_no} of {SHOWINGS}: "
                                    "pick a shown set by its number (PF-5)")
        if state.stage == SHOVE:
            return PhaseSpec(SHOVE, c.decision_time, must=both, reserve=True,
                             prompt=f"turn {state.turn} of {TURNS + 1}: clear A1 with a shove: "
                                    "a row number or a column letter, then another after "
                                    "\"then\" (PF-2, PF-3)")
        if state.stage == LAST:
            return PhaseSpec(LAST, c.decision_time, must=both, reserve=True,
                             prompt="the colour of the last container on A1: R, G or B (PF-5)")
        return None

    def notation_help(self, state: PaintState, seat: int) -> str:
        """The phase's notation with examples taken from this seat's board, each accepted as
        it stands (a set shown now, shoves its grid allows)."""
        board = state.boards[seat]
        if state.stage == PICK and board.shown:
            return (f"showing {state.showing_no} of {SHOWINGS}: pick a shown set by its "
                    f"number, e.g. 'pick {board.shown[0] + 1}' (PF-5)")
        if state.stage == SHOVE:
            shoves = [str(a) for a, _ in legal_actions(board.grid)]
            plain = [x for x in shoves if "then" not in x][:2]
            twice = [x for x in shoves if "then" in x][:1]
            shown = ", ".join(f"'{x}'" for x in plain + twice)
            return (f"turn {state.turn} of {TURNS + 1}: clear A1 with a shove (a row number or "
                    f"a column letter, then another after \"then\")"
                    + (f", e.g. {shown}" if shown else "") + " (PF-2, PF-3)")
        return super().notation_help(state, seat)

    def parse(self, state: PaintState, seat: int, text: str) -> PaintMove:
        """A design is read whole against PF-4, a pick against the sets shown now (PF-5); a
        shove's notation alone here, what the grid allows in :meth:`check`."""
        if len(text) > 500:
            raise RuleError("G-6", "the submission is too long: at most 500 characters")
        board = state.boards[seat]
        if state.stage == DESIGN:
            return Design(parse_design(text))
        if state.stage == PICK:
            return SetPick(parse_pick(text, board.sets, board.shown) + 1)
        if state.stage == SHOVE:
            return parse_action(text)
        if state.stage == LAST:
            return Colour(parse_colour(text))
        raise RuleError("G-2", "the match is over")

    def check(self, state: PaintState, seat: int, move: PaintMove,
              ctx: SubmitContext[PaintMove]) -> PaintMove:
        if isinstance(move, Action):
            apply_action(state.boards[seat].grid, move)  # PF-2, PF-3: the grid allows it
        return move

    def resolve(self, state: PaintState, outcome: PhaseOutcome[PaintMove], rng: random.Random
                ) -> tuple[PaintState, list[GameEvent]]:
        events: list[GameEvent] = []
        values: dict[int, PaintMove] = {}
        for seat in (0, 1):
            sub = outcome.standing.get(seat)
            if sub is not None:
                values[seat] = sub.value
            else:
                values[seat] = self._default(state, seat)
                events.append(GameEvent("defaulted",
                                        {"seat": seat, "value": values[seat].to_json()},
                                        frozenset({seat})))
        if state.stage == DESIGN:
            return self._after_design(state, values, rng, events)
        if state.stage == PICK:
            return self._after_pick(state, values, events)
        if state.stage == SHOVE:
            return self._after_shove(state, values, rng, events)
        return self._after_last(state, values, events)

    def _default(self, state: PaintState, seat: int) -> PaintMove:
        """What stands for a seat with no submission (only when the config has no reserve)."""
        board = state.boards[seat]
        if state.stage == DESIGN:
            return Design(DEFAULT_DESIGN)
        if state.stage == PICK:
            return SetPick(board.shown[0] + 1)
        if state.stage == SHOVE:
            return legal_actions(board.grid)[0][0]
        return Colour("R")

    def _after_design(self, state: PaintState, values: dict[int, PaintMove],
                      rng: random.Random, events: list[GameEvent]
                      ) -> tuple[PaintState, list[GameEvent]]:
        designs = tuple(_as(Design, values[s]).sets for s in (0, 1))
        boards = []
        for seat in (0, 1):
            sets = designs[1 - seat]
            first = showing(rng, 1, (), ())
            boards.append(Board(sets=sets, first=first).show(first))
            events.append(GameEvent("shown", self._shown_data(seat, sets, first, 1),
                                    frozenset({seat})))
        events.insert(0, GameEvent("sets_sealed", {"designs": 2}))
        return replace(state, stage=PICK, showing_no=1, designs=designs,
                       boards=tuple(boards)), events

    @staticmethod
    def _shown_data(seat: int, sets: tuple[str, ...], shown: tuple[int, ...], number: int
                    ) -> JSON:
        return {"seat": seat, "showing": number,
                "sets": [{"number": i + 1, "colours": colours(sets[i])} for i in shown]}

    def _after_pick(self, state: PaintState, values: dict[int, PaintMove],
                    events: list[GameEvent]) -> tuple[PaintState, list[GameEvent]]:
        boards = []
        for seat in (0, 1):
            b = state.boards[seat]
            index = _as(SetPick, values[seat]).number - 1
            chosen = b.sets[index]
            grid = place(b.grid, chosen[0])
            boards.append(replace(
                b, used=(*b.used, index), shown=(), queue=chosen[1:], grid=grid,
                decisions=(*b.decisions, f"pick {index + 1}")))
            to = frozenset({seat})
            events.append(GameEvent("picked", {"seat": seat, "number": index + 1,
                                               "colours": colours(chosen)}, to))
            events.append(GameEvent("entered", {"seat": seat, "turn": state.turn + 1,
                                                "colour": chosen[0], "grid": grid_rows(grid)},
                                    to))
        events.append(GameEvent("turn", {"turn": state.turn + 1}))
        return replace(state, stage=SHOVE, turn=state.turn + 1, boards=tuple(boards)), events

    def _after_shove(self, state: PaintState, values: dict[int, PaintMove],
                     rng: random.Random, events: list[GameEvent]
                     ) -> tuple[PaintState, list[GameEvent]]:
        boards = []
        for seat in (0, 1):
            b = state.boards[seat]
            action = _as(Action, values[seat])
            grid = apply_action(b.grid, action)
            events.append(GameEvent("shoved", {"seat": seat, "turn": state.turn,
                                               **action.to_json(), "grid": grid_rows(grid)},
                                    frozenset({seat})))
            boards.append(replace(b, grid=grid, decisions=(*b.decisions, str(action))))
        if state.turn >= TURNS:
            boards = [b.publish(state.turn) for b in boards]
            return replace(state, stage=LAST, boards=tuple(boards)), events
        if boards[0].queue:
            placed = []
            for seat in (0, 1):
                b = boards[seat]
                grid = place(b.grid, b.queue[0])
                placed.append(replace(b, grid=grid, queue=b.queue[1:]))
                events.append(GameEvent("entered", {"seat": seat, "turn": state.turn + 1,
                                                    "colour": b.queue[0],
                                                    "grid": grid_rows(grid)},
                                        frozenset({seat})))
            events.append(GameEvent("turn", {"turn": state.turn + 1}))
            return replace(state, turn=state.turn + 1, boards=tuple(placed)), events
        number = state.showing_no + 1
        shown_boards = []
        for seat in (0, 1):
            b = boards[seat].publish(state.turn)
            shown = showing(rng, number, b.used, b.first)
            shown_boards.append(b.show(shown))
            events.append(GameEvent("shown", self._shown_data(seat, b.sets, shown, number),
                                    frozenset({seat})))
        return replace(state, stage=PICK, showing_no=number, boards=tuple(shown_boards)), events

    def _after_last(self, state: PaintState, values: dict[int, PaintMove],
                    events: list[GameEvent]) -> tuple[PaintState, list[GameEvent]]:
        boards = []
        for seat in (0, 1):
            b = state.boards[seat]
            colour = _as(Colour, values[seat]).letter
            grid = place(b.grid, colour)
            boards.append(replace(b, grid=grid, decisions=(*b.decisions, colour)))
            events.append(GameEvent("entered", {"seat": seat, "turn": TURNS + 1,
                                                "colour": colour, "grid": grid_rows(grid)},
                                    frozenset({seat})))
        done = replace(state, stage=OVER, turn=TURNS + 1, boards=tuple(boards))
        events.append(GameEvent("grids_full", {"scores": list(self.scores(done))}))
        return done, events

    def scores(self, state: PaintState) -> tuple[float, ...]:
        if state.stage == DESIGN:
            return (0.0, 0.0)
        return tuple(float(score_grid(b.grid).score) for b in state.boards)

    def result(self, state: PaintState) -> Result | None:
        """PF-7: the higher score wins; tie: fewer non-connected containers; tie: the DMO."""
        if state.stage != OVER:
            return None
        s0, s1 = (score_grid(b.grid) for b in state.boards)
        detail = {"seats": [{"score": s.score, "lengths": s.lengths,
                             "non_connected": s.non_connected} for s in (s0, s1)]}
        scores = (float(s0.score), float(s1.score))
        if s0.score != s1.score:
            winner = 0 if s0.score > s1.score else 1
            return Result(winner, scores, "higher score (PF-7)", detail)
        if s0.non_connected != s1.non_connected:
            winner = 0 if s0.non_connected < s1.non_connected else 1
            return Result(winner, scores, "equal scores; fewer non-connected containers (PF-7)",
                          detail)
        return Result(1, scores, "equal scores and non-connected counts; the DMO wins (PF-7)",
                      detail)

    # ------------------------------------------------------------------ information
    def _board_view(self, state: PaintState, seat: int) -> JSON:
        b = state.boards[seat]
        out: dict[str, JSON] = {"seat": seat, "grid": grid_rows(b.grid),
                                "grid_tag": grid_tag(seat, b.grid)}
        if state.designs:
            out["designed"] = [colours(s) for s in state.designs[seat]]
            out["design_tag"] = design_tag(seat, state.designs[seat])
        if state.stage == DESIGN:
            return out
        out["shown"] = [{"number": i + 1, "colours": colours(b.sets[i])} for i in b.shown]
        out["picked"] = [{"number": i + 1, "colours": colours(b.sets[i])} for i in b.used]
        out["coming"] = colours(b.queue)
        out["decisions"] = list(b.decisions)
        if state.stage == SHOVE:
            actions = legal_actions(b.grid)
            out["legal"] = [str(a) for a, _ in actions]
            out["previews"] = {str(a): grid_rows(g) for a, g in actions}
        out["score"] = score_grid(b.grid).to_json()
        return out

    @staticmethod
    def _progress(state: PaintState) -> list[JSON]:
        """Both grids as made public at the last showing, with their scores (public state)."""
        return [{"seat": s, "turn": b.public_turn, "grid": grid_rows(b.public),
                 "score": score_grid(b.public).to_json()}
                for s, b in enumerate(state.boards) if b.public]

    def _public_view(self, state: PaintState) -> dict[str, JSON]:
        out: dict[str, JSON] = {"stage": state.stage, "turn": state.turn,
                                "showing": state.showing_no, "turns": TURNS + 1}
        progress = self._progress(state)
        if progress and state.stage != OVER:
            out["progress"] = progress
        return out

    def view(self, state: PaintState, viewer: int | None) -> JSON:
        out = self._public_view(state)
        if viewer is not None and viewer in (0, 1):
            out["you"] = self._board_view(state, viewer)
        return out

    def host_view(self, state: PaintState) -> JSON:
        out = self._public_view(state)
        out["boards"] = [self._board_view(state, s) for s in (0, 1)]
        if state.designs:  # the sets each seat designed for the other (hidden from the seats)
            out["designs"] = [[colours(s) for s in d] for d in state.designs]
        return out

    def private_facts(self, state: PaintState, seat: int) -> list[str]:
        facts = []
        board = state.boards[seat]
        if state.stage != DESIGN and board.grid != board.public:  # else public since the showing
            facts.append(grid_tag(seat, board.grid))
            facts.append(design_tag(seat, state.designs[seat]))
        return facts

    def with_seat_names(self, state: PaintState, names: tuple[str, ...]) -> PaintState:
        return replace(state, seat_names=names)

    def seat_name(self, state: PaintState, seat: int) -> str:
        return state.who(seat)

    def render_svg(self, state: PaintState, viewer: int | None) -> str | None:
        from arena.games.paint.render import render_state

        return render_state(state, viewer)

    def host_svg(self, state: PaintState) -> str | None:
        from arena.games.paint.render import render_state

        return render_state(state, None, reveal=True)

    def review(self, steps: Sequence[Step[PaintState]], final: PaintState) -> list[Judgement]:
        """Each seat's design, picks, shoves and last colour against the yardstick's search
        with hindsight (:mod:`arena.games.paint.review`)."""
        from arena.games.paint.review import review

        return review(steps, final, [self.seat_name(final, s) for s in (0, 1)])

    # ------------------------------------------------------------------ players
    def bot(self, state: PaintState, seat: int, rng: random.Random) -> str | None:
        from arena.games.paint.bot import match_bot

        return match_bot(state, seat, rng)

    def level_bot(self, state: PaintState, seat: int, rng: random.Random,
                  level: BotLevel) -> str | None:
        from arena.games.paint.bot import level_bot, match_bot

        return match_bot(state, seat, rng) if level == "hard" else level_bot(state, seat, rng,
                                                                            level)

    def random_submission(self, state: PaintState, seat: int, rng: random.Random) -> str | None:
        if state.stage == DESIGN:
            return format_design(random_design(rng))
        player = RandomPlayer(rng)
        return decide(player, state, seat)


def decide(p: Player, state: PaintState, seat: int) -> str | None:
    """The text player ``p`` submits now."""
    sit = situation(state, seat)
    b = state.boards[seat]
    if state.stage == PICK:
        return f"pick {b.shown[p.pick(sit)] + 1}"
    if state.stage == SHOVE:
        return str(p.shove(sit))
    if state.stage == LAST:
        return p.last(b.grid)
    return None


GAME = PaintGame()
