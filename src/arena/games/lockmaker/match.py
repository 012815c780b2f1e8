"""The Lockmaker match on the engine (LM-13..LM-21).

Each round walks these stages (one engine phase each, except the draft: one phase per turn):

``study`` (90 s; in round 1 the DMO answers ``first`` or ``second``, LM-13) ->
``draft`` (45 s a turn, snake order, ``stop`` allowed, LM-14) ->
``build`` (420 s, a lock file, LM-15) -> ``solve`` (300 s, timed solutions or ``impossible``,
LM-16) -> ``pick`` (30 s, which solution counts; only for a seat with two or more) ->
``decide`` (30 s, countersolve or pass,
LM-17) -> ``counter`` (one phase per countersolving maker: as long as its solver took, or 5
minutes after an impossible call, LM-18) -> scoring (LM-19) and the end check (LM-20).

Reserve (LM-21) is on for the Lockmaking phase only: the DMO's choice, the draft turns and the
build; running out loses the match (the engine calls :meth:`forfeit`).

Choices where the rulings are silent, kept small and documented: after one seat stops, every
later turn is the other seat's with up to two picks; a seat that does not pick in the 30 s
keeps its last valid solution (as G-2 would); a maker that does not decide does not
countersolve; countersolves run after the pick and decide phases, seat 1's lock first; a
countersolve lasts at least one second; "most recently leading" is judged at round ends.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Annotated, Any, ClassVar, TypeVar

from arena.core.errors import ParseError, RuleError
from arena.core.frozen import evolve
from arena.core.game import (
    JSON,
    READY,
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
    Word,
    seat_label,
)
from arena.core.judging import Judgement, Step
from arena.core.settings import count, seconds, text
from arena.core.wording import counted
from arena.games.lockmaker.builder import BUILD_WALKS, MAX_WALKS
from arena.games.lockmaker.lockfile import read_lock, write_board
from arena.games.lockmaker.notation import format_solution, parse_solution, replay
from arena.games.lockmaker.pieces import PieceKind, parse_piece
from arena.games.lockmaker.position import Position
from arena.games.lockmaker.render import render_svg as render_lock
from arena.games.lockmaker.rounds import DEFAULT_ROUNDS, Round, parse_setup
from arena.games.lockmaker.submissions import (
    IMPOSSIBLE,
    Decide,
    Impossible,
    LMMove,
    Lock,
    Pick,
    Solve,
    Take,
    lock_facts,
    lock_text,
    move_facts,
    pieces_facts,
)
from arena.games.lockmaker.validate import construction_error, construction_problems
from arena.games.lockmaker.words import Award, result_reason

STAGES = ("study", "draft", "build", "solve", "pick", "decide", "counter", "over")


@dataclass(frozen=True)
class LockmakerConfig(GameConfig):
    """Durations are the seed's seconds (G-5). ``setup`` is the host's rounds text (see
    :mod:`rounds`); empty means the five default rounds; ``rounds`` caps how many are played."""

    # 20 rounds: four times the default five; with 25-piece pools that is under 700 phases.
    rounds: Annotated[int, count("LM-13: the most rounds of the setup that are played",
                                 1, 20, label="Rounds")] = 5
    target: Annotated[int, count("LM-20: the points after which a round ends the match",
                                 1, 100, label="Points to win")] = 16
    study: Annotated[float, seconds("LM-13: seconds to study each round's board",
        label="Study time")] = 90.0
    draft_turn: Annotated[float, seconds("LM-14: seconds per draft pick-turn",
        label="Draft turn")] = 45.0
    build: Annotated[float, seconds("LM-15: seconds to build a lock", label="Build time")] = 420.0
    solve: Annotated[float, seconds("LM-16: seconds to solve the opponent's lock",
        label="Solve time")] = 300.0
    pick: Annotated[float, seconds("LM-16: seconds to pick the solution that counts",
        label="Choosing the solution that counts")] = 30.0
    decide: Annotated[float, seconds("LM-17: seconds to decide whether to countersolve",
        label="Deciding to countersolve")] = 30.0
    impossible_counter: Annotated[float, seconds(
        "LM-18: seconds of the countersolve forced by an impossible call",
        label='Countersolve after an "impossible" call')] = 300.0
    min_counter: Annotated[float, seconds(
        "LM-17: the shortest countersolve window, in real seconds (not scaled)",
        scaled=False, high=3600.0, label="Shortest countersolve window")] = 1.0
    reserve_periods: ReservePeriods = 16
    reserve_period: ReservePeriod = 30.0
    # A round is a board of at most 11 x 11 cells (LM-1) and a pool line: 20 rounds of them
    # fit in a few kilobytes; 20,000 characters leaves room for comments.
    setup: Annotated[str, text("LM-13: the host's rounds (a board and a pool each, "
                               "separated by ---); empty: the five default rounds",
                               20_000, label="Custom rounds")] = ""
    # The bot's construction time grows with it (bench/yardstick_lockmaker.py: the default
    # builds in a few to about twenty CPU seconds, inside the build phase; the bound five
    # times that).
    bot_placements: Annotated[int, count(
        "G-11: how hard the bot searches for a difficult lock, in generator walks (more is "
        "harder and slower; 0: no search)",
        0, MAX_WALKS, label="Bot building effort")] = BUILD_WALKS
    """The bot's construction budget: cluster walks of the hardest-lock search, and the
    states it may visit in proportion (:mod:`arena.games.lockmaker.builder`; counts, not
    seconds, so a simulated match replays exactly; 0 skips the search)."""


@dataclass(frozen=True)
class Solution:
    """A checked solution: canonical text, move count (LM-9), seconds since the locks were shown."""

    text: str
    moves: int
    at: float
    steps: tuple[JSON, ...] = field(default=(), compare=False)
    """The moves as facts (:func:`move_facts`), for the log."""


@dataclass(frozen=True)
class RoundRecord:
    """What a finished round leaves behind, for views and the end check."""

    number: int
    points: tuple[int, int]
    awards: tuple[Award, ...]
    """Who got what and why, as facts (:mod:`words` says them)."""


@dataclass(frozen=True)
class LMState:
    config: LockmakerConfig
    rounds: tuple[Round, ...]
    round: int = 0
    stage: str = "study"
    scores: tuple[int, int] = (0, 0)
    first_drafter: int | None = None
    last_leader: int | None = None
    pool: tuple[PieceKind, ...] = ()
    hands: tuple[tuple[PieceKind, ...], tuple[PieceKind, ...]] = ((), ())
    draft_turn: int = 0
    stopped: tuple[bool, bool] = (False, False)
    locks: tuple[Position | None, Position | None] = (None, None)
    solutions: tuple[tuple[Solution, ...], tuple[Solution, ...]] = ((), ())
    impossible: tuple[bool, bool] = (False, False)
    final: tuple[Solution | None, Solution | None] = (None, None)
    announced: bool = False
    counter_wanted: tuple[bool, bool] = (False, False)
    counter_done: tuple[tuple[int, bool, int | None], ...] = ()
    forced_left: tuple[float | None, float | None] = (None, None)
    """Real seconds left of each maker's countersolve forced by an impossible call (LM-18):
    it starts when solving ends and runs through the pick and decide phases (LM-17)."""
    counter_windows: tuple[float | None, float | None] = (None, None)
    """Each maker's window in the countersolve phase, in real seconds from its start."""
    history: tuple[RoundRecord, ...] = ()
    result: Result | None = field(default=None)
    seat_names: tuple[str, ...] = ()
    """The players' names, for the texts people read (LO-10, G-6); empty in a simulation."""

    def who(self, seat: int) -> str:
        return seat_label(self.seat_names, seat)

    @property
    def current(self) -> Round:
        return self.rounds[self.round]

    def drafter_this_round(self) -> int:
        """The seat drafting first this round (LM-13: alternates every round)."""
        first = 1 if self.first_drafter is None else self.first_drafter
        return first if self.round % 2 == 0 else 1 - first

    def turn_seat(self) -> int:
        """Whose draft turn it is (LM-14 snake: A, BB, AA, ...; a stopped seat is skipped)."""
        a = self.drafter_this_round()
        seat = a if self.draft_turn % 2 == 0 else 1 - a
        return 1 - seat if self.stopped[seat] else seat

    def turn_picks(self) -> int:
        return 1 if self.draft_turn == 0 else 2

    def forced_active(self, maker: int) -> bool:
        """Whether ``maker`` is still countersolving a lock declared impossible (LM-18)."""
        return self.forced_left[maker] is not None and all(
            m != maker for m, _, _ in self.counter_done)


_STATE_FIELDS = frozenset(f.name for f in fields(LMState))
_K = TypeVar("_K", Pick, Decide)


def replace(state: LMState, **changes: Any) -> LMState:
    """``dataclasses.replace`` for the match state, by the engine's fast copy (LMState has no
    ``__post_init__``): a random playout makes a few of these per decision."""
    assert changes.keys() <= _STATE_FIELDS, set(changes) - _STATE_FIELDS
    return evolve(state, **changes)


def _last_of(outcome: PhaseOutcome[LMMove], seat: int, kind: type[_K]) -> _K | None:
    """The seat's last accepted move of one kind in the phase (a pick or a decision; a
    forced countersolve in the same phase is kept apart, LM-17)."""
    for sub in reversed(outcome.history.get(seat, ())):
        if isinstance(sub.value, kind):
            return sub.value
    return None


def _last_counter(outcome: PhaseOutcome[LMMove], seat: int) -> Solve | None:
    for sub in reversed(outcome.history.get(seat, ())):
        if isinstance(sub.value, Solve) and sub.value.counter:
            return sub.value
    return None


def _read_lock_text(text: str) -> Position:
    """A lock file; on one line, ``/`` separates rows (for single-line text boxes)."""
    if "\n" not in text.strip() and "/" in text:
        text = "\n".join(text.split("/"))
    return read_lock(text)


class LockmakerGame(Game[LMState, LockmakerConfig, LMMove]):
    name = "lockmaker"
    title = "Lockmaker"
    summary = "draft pieces, build a sliding lock for your opponent, pick theirs faster"
    seats = 2
    chance = False
    hidden_information = True
    rules_prefix = "LM"
    order = 10
    board_script = "/static/games/lockmaker.js"
    board_sheet = "/static/games/lockmaker.css"
    screenshot_moment = (("lm-ready", "[data-testid=lm-board][data-stage=draft]"),
                         ("lm-pool-0", "[data-testid=lm-pool-0][aria-pressed=true]"))
    config_type = LockmakerConfig
    # SE-4: a Death Match; a season simulated with bots plays one round.
    death_match: ClassVar[dict[str, Any] | None] = {"rounds": 1}
    phase_fields = ("rounds", "setup")

    # ------------------------------------------------------------------ setup
    def initial_state(self, config: LockmakerConfig, rng: random.Random) -> LMState:
        rounds = parse_setup(config.setup) if config.setup.strip() else DEFAULT_ROUNDS
        if config.rounds < 1:
            raise RuleError("LM-13", "a match has at least one round")
        rounds = rounds[: config.rounds]
        return LMState(config, rounds, pool=rounds[0].pool)

    def max_phases(self, config: LockmakerConfig) -> int:
        rounds = parse_setup(config.setup) if config.setup.strip() else DEFAULT_ROUNDS
        return sum(len(r.pool) + 9 for r in rounds[: max(config.rounds, 1)])

    # ------------------------------------------------------------------ flow
    def bot_think_time(self, state: LMState, seat: int) -> tuple[float, float]:
        """G-11: building and solving a lock take a human minutes, a draft pick seconds; the
        solve time is what the "faster" point compares, so a human quicker than this wins it."""
        return {"build": (90.0, 240.0), "solve": (40.0, 150.0), "counter": (30.0, 120.0),
                "draft": (5.0, 20.0)}.get(state.stage, (3.0, 9.0))

    def bot_time_limit(self, state: LMState, seat: int) -> float | None:
        """G-11: a countersolving maker's own window (LM-17; a forced one, LM-18, runs through
        the pick and decide phases), which may end before the shared phase does."""
        if state.stage == "counter":
            return state.counter_windows[seat]
        if state.stage in ("pick", "decide") and state.forced_active(seat):
            return state.forced_left[seat]
        return None

    def phase(self, state: LMState) -> PhaseSpec | None:
        c = state.config
        st = state.stage
        if st == "over":
            return None
        if st == "study":
            if state.round == 0:
                return PhaseSpec("study", c.study, must=frozenset({1}), may=frozenset({0}),
                                 reserve=True, prompt="DMO: first or second; others: ready")
            return PhaseSpec("study", c.study, may=frozenset({0, 1}), prompt="ready",
                             sealed=False)
        if st == "draft":
            seat = state.turn_seat()
            n = state.turn_picks()
            return PhaseSpec("draft", c.draft_turn, must=frozenset({seat}), reserve=True,
                             prompt=f"take {'a piece' if n == 1 else 'one or two pieces'} "
                                    "from the pool (like H3, V2 or X; two separated by a "
                                    "comma) or stop")
        if st == "build":
            return PhaseSpec("build", c.build, must=frozenset({0, 1}), reserve=True,
                             prompt="your lock as a lock file (rows of . # @ K + letters)")
        if st == "solve":
            return PhaseSpec("solve", c.solve, must=frozenset({0, 1}),
                             prompt="a solution: moves separated by commas, each the cells "
                                    "of a piece and its slide (like BC1 L1 or K R1); or "
                                    "impossible")
        forced = frozenset(m for m in (0, 1) if state.forced_active(m))
        if st == "pick":
            may = frozenset(s for s in (0, 1) if len(state.solutions[s]) > 1)
            return PhaseSpec("pick", c.pick, may=may | forced,
                             prompt="the number of the solution that counts"
                                    + ("; a lock declared impossible: its solution" if forced
                                       else ""))
        if st == "decide":
            may = frozenset(m for m in (0, 1) if state.final[1 - m] is not None)
            return PhaseSpec("decide", c.decide, may=may | forced,
                             prompt="countersolve or pass"
                                    + ("; a lock declared impossible: its solution" if forced
                                       else ""))
        if st == "counter":
            # LM-17: both countersolves at once, each maker in its own window.
            makers = frozenset(m for m in (0, 1) if state.counter_windows[m] is not None)
            longest = max(w for w in state.counter_windows if w is not None)
            return PhaseSpec("counter", longest, must=makers, scaled=False,
                             prompt="solve your own lock")
        raise AssertionError(st)  # pragma: no cover

    def notation_help(self, state: LMState, seat: int) -> str:
        """The phase's notation for this seat, its examples quoted and taken from the state,
        so that each is accepted as it stands (the DMO's choice, pieces still in the pool)."""
        st = state.stage
        if st == "study":
            if state.round == 0 and seat == 1:
                return "as the DMO, draft 'first' or 'second' (LM-13)"
            return "'ready' when you have studied the board (LM-13)"
        if st == "draft":
            kinds = list(dict.fromkeys(str(p) for p in state.pool))
            if not kinds:
                return "the pool is empty: 'stop' (LM-14)"
            one = f"'{kinds[0]}'"
            if state.turn_picks() == 1:
                return f"take a piece from the pool, e.g. {one}, or 'stop' (LM-14)"
            pair = [str(p) for p in state.pool[:2]]
            two = f" or '{','.join(pair)}'" if len(pair) == 2 else ""
            return (f"take one or two pieces from the pool, e.g. {one}{two}, or 'stop' "
                    "(LM-14)")
        if st == "decide" and not state.forced_active(seat):
            return "'countersolve' or 'pass' (LM-17)"
        if st == "pick" and not state.forced_active(seat) and state.solutions[seat]:
            n = len(state.solutions[seat])
            return f"the number of the solution that counts, '1' to '{n}' (LM-16)"
        return super().notation_help(state, seat)

    def parse(self, state: LMState, seat: int, text: str) -> LMMove:
        st = state.stage
        word = text.strip().lower()
        if st == "study":
            if state.round == 0 and seat == 1:
                if word in ("first", "second"):
                    return Word(word)
                raise ParseError("LM-13", "as the DMO, choose to draft 'first' or 'second'")
            if word != "ready":
                raise ParseError("LM-13", "say 'ready' when you have studied the board")
            return READY
        if st == "draft":
            return _parse_take(text)
        if st == "build":
            return Lock(_read_lock_text(text))
        if st == "solve":
            if word == "impossible":
                return IMPOSSIBLE
            return _parse_solve(text, counter=False)
        if st in ("pick", "decide") and state.forced_active(seat) and not (
                word.removeprefix("pick").strip().lstrip("#").isdigit()
                or word in ("countersolve", "counter", "yes", "pass", "no")):
            return _parse_solve(text, counter=True)
        if st == "pick":
            n = len(state.solutions[seat])
            digits = word.removeprefix("pick").strip().lstrip("#")
            if not digits.isdigit():
                raise ParseError("LM-16", f"give the number of a solution, 1 to {n}")
            return Pick(int(digits))
        if st == "decide":
            if word in ("countersolve", "counter", "yes"):
                return Decide(True)
            if word in ("pass", "no"):
                return Decide(False)
            raise ParseError("LM-17", "answer 'countersolve' or 'pass'")
        if st == "counter":
            return _parse_solve(text, counter=True)
        raise RuleError("G-2", "the match is over")

    def check(self, state: LMState, seat: int, move: LMMove, ctx: SubmitContext[LMMove]
              ) -> LMMove:
        if isinstance(move, Take):
            return self._check_take(state, move)
        if isinstance(move, Lock):
            problems = construction_problems(move.position, state.hands[seat],
                                             state.current.board)
            if problems:
                raise construction_error(problems)
            return move
        if isinstance(move, Solve):
            if move.counter:
                return self._check_counter(state, seat, move, ctx)
            if any(isinstance(p.value, Impossible) for p in ctx.previous):
                raise RuleError("LM-16", "you declared this lock impossible: that call is final")
            lock = state.locks[1 - seat]
            assert lock is not None
            return _checked(lock, move)
        if isinstance(move, Pick):
            n = len(state.solutions[seat])
            if not 1 <= move.number <= n:
                raise RuleError("LM-16", f"you submitted solutions 1 to {n}, not {move.number}")
        return move

    def _check_counter(self, state: LMState, seat: int, move: Solve,
                       ctx: SubmitContext[LMMove]) -> Solve:
        """A countersolve of the seat's own lock, inside the seat's own window (LM-17)."""
        window = (state.counter_windows[seat] if state.stage == "counter"
                  else state.forced_left[seat])
        if window is None:
            raise RuleError("LM-17", "you have no countersolve to make")
        if ctx.at > window:
            raise RuleError("LM-17", f"your countersolve time ended {ctx.at - window:.1f} s ago")
        lock = state.locks[seat]
        assert lock is not None
        return _checked(lock, move)

    def _check_take(self, state: LMState, move: Take) -> Take:
        n = state.turn_picks()
        if len(move.pieces) > n:
            raise RuleError("LM-14", f"this turn takes at most {n} piece{'s' if n > 1 else ''}")
        left = list(state.pool)
        for p in move.pieces:
            if p not in left:
                raise RuleError("LM-14", f"no {p} left in the pool")
            left.remove(p)
        return move

    def resolve(self, state: LMState, outcome: PhaseOutcome[LMMove], rng: random.Random
                ) -> tuple[LMState, list[GameEvent]]:
        st = state.stage
        standing = outcome.standing
        if st == "study":
            events: list[GameEvent] = []
            if state.round == 0:
                choice = str(standing[1].value) if 1 in standing else "first"
                first = 1 if choice == "first" else 0
                state = replace(state, first_drafter=first)
                events.append(GameEvent("draft_order", {"dmo_chose": choice,
                                                        "first": first}))
            return self._after_draft_turn(replace(state, stage="draft", draft_turn=0), events)
        if st == "draft":
            seat = state.turn_seat()
            got = standing[seat].value if seat in standing else None
            take = got if isinstance(got, Take) else Take((), True)
            picks = take.pieces
            pool = list(state.pool)
            for p in picks:
                pool.remove(p)
            hands = list(state.hands)
            hands[seat] = tuple(sorted((*hands[seat], *picks)))
            stopped = list(state.stopped)
            if take.stop:
                stopped[seat] = True
            ev = GameEvent("drafted", {"seat": seat, "took": pieces_facts(picks),
                                       "stopped": take.stop})
            state = replace(state, pool=tuple(sorted(pool)), hands=(hands[0], hands[1]),
                            stopped=(stopped[0], stopped[1]), draft_turn=state.draft_turn + 1)
            return self._after_draft_turn(state, [ev])
        if st == "build":
            locks = tuple(v.position if s in standing and isinstance(v := standing[s].value, Lock)
                          else None for s in (0, 1))
            missing = [s for s in (0, 1) if locks[s] is None]
            if missing:  # only without reserve periods: the seat is out of reserve (LM-21)
                if len(missing) == 2:  # both at the same moment: a double loss (LM-21)
                    res = self.forfeit_together(state, frozenset(missing))
                    return replace(state, stage="over", result=res), [
                        GameEvent("no_lock", {"seat": s}) for s in missing]
                return self._forfeit_state(state, missing[0])
            shown: dict[str, JSON] = {"locks": [lock_facts(lock) for lock in locks if lock]}
            return (replace(state, stage="solve", locks=(locks[0], locks[1])),
                    [GameEvent("locks_shown", shown)])
        if st == "solve":
            c = state.config
            sols: list[tuple[Solution, ...]] = [(), ()]
            imp = [False, False]
            for s in (0, 1):
                for sub in outcome.history.get(s, ()):
                    v = sub.value
                    if isinstance(v, Impossible):
                        imp[s] = True
                        break
                    assert isinstance(v, Solve)
                    steps = v.to_json()
                    assert isinstance(steps, dict) and isinstance(steps["steps"], list)
                    sols[s] = (*sols[s], Solution(v.text, v.moves, float(sub.at),
                                                  tuple(steps["steps"])))
                if imp[s]:
                    sols[s] = ()
            # G-10: how many solutions a seat sent is its own business; what becomes public is
            # the announcement of the final solutions (LM-16).
            events = [GameEvent("solving_over", {
                "seat": s, "impossible": imp[s], "solutions": len(sols[s])}, to=frozenset({s}))
                for s in (0, 1)]
            for s in (0, 1):
                if sols[s]:
                    events.append(GameEvent("your_solutions", {
                        "solutions": [{"moves": x.moves, "at": x.at, "steps": list(x.steps)}
                                      for x in sols[s]]}, to=frozenset({s})))
            # LM-17/LM-18: a lock declared impossible is countersolved from now, through the
            # pick and decide phases, for the rule's 5 minutes (real seconds at this scale).
            forced = tuple(c.impossible_counter * outcome.scale if imp[1 - m] else None
                           for m in (0, 1))
            state = replace(state, solutions=(sols[0], sols[1]), impossible=(imp[0], imp[1]),
                            stage="pick", forced_left=(forced[0], forced[1]))
            if not any(len(x) > 1 for x in sols):  # nothing to choose between: no pick phase
                return self._announce(state, {}, events)
            return state, events
        if st == "pick":
            state, events = self._forced_progress(state, outcome)
            chosen = {s: got.number for s in standing
                      if (got := _last_of(outcome, s, Pick)) is not None}
            return self._announce(state, chosen, events)
        if st == "decide":
            state, events = self._forced_progress(state, outcome)
            wanted = tuple(got is not None and got.counter
                           for got in (_last_of(outcome, m, Decide) for m in (0, 1)))
            events.append(GameEvent("countersolve_decisions", {
                "seat_1": wanted[0], "seat_2": wanted[1]}))
            state = replace(state, counter_wanted=(wanted[0], wanted[1]))
            return self._open_counter(state, events)
        if st == "counter":
            events = []
            done = list(state.counter_done)
            for maker in (0, 1):
                if state.counter_windows[maker] is None:
                    continue
                got = _last_counter(outcome, maker)
                moves = None if got is None else got.moves
                done.append((maker, got is not None, moves))
                events.append(GameEvent("countersolved", {"seat": maker, "solved": got is not None,
                                                          "moves": moves}))
            state = replace(state, counter_done=tuple(done), counter_windows=(None, None))
            return self._score_round(state, events)
        raise AssertionError(st)  # pragma: no cover

    # ------------------------------------------------------------------ stage helpers
    def _after_draft_turn(self, state: LMState, events: list[GameEvent]
                          ) -> tuple[LMState, list[GameEvent]]:
        if not state.pool or all(state.stopped):
            return replace(state, stage="build"), [*events, GameEvent("draft_over", {
                "hands": [pieces_facts(h) for h in state.hands]})]
        return replace(state, stage="draft"), events

    def _announce(self, state: LMState, picks: dict[int, int], events: list[GameEvent]
                  ) -> tuple[LMState, list[GameEvent]]:
        """LM-16: fix each seat's final solution and announce move counts and times."""
        final: list[Solution | None] = [None, None]
        for s in (0, 1):
            if state.solutions[s]:
                k = picks.get(s, len(state.solutions[s]))
                final[s] = state.solutions[s][k - 1]
        data: dict[str, JSON] = {}
        for s in (0, 1):
            got = final[s]
            data[f"seat_{s + 1}"] = ({"impossible": True} if state.impossible[s] else
                                     None if got is None else {"moves": got.moves, "time": got.at})
        f = final[0], final[1]
        state = replace(state, final=f, announced=True, stage="decide")
        events = [*events, GameEvent("solutions_announced", data)]
        if not any(f[1 - m] is not None for m in (0, 1)):  # nothing to decide
            return self._open_counter(state, events)
        return state, events

    def _forced_progress(self, state: LMState, outcome: PhaseOutcome[LMMove]
                         ) -> tuple[LMState, list[GameEvent]]:
        """A pick or decide phase ended: forced countersolves made in it are done; the others
        lose the phase's time from their window (LM-17, LM-18)."""
        events: list[GameEvent] = []
        left = list(state.forced_left)
        done = list(state.counter_done)
        for m in (0, 1):
            if not state.forced_active(m):
                continue
            got = _last_counter(outcome, m)
            remaining = (left[m] or 0.0) - outcome.ended_at
            if got is not None or remaining <= 0:
                moves = None if got is None else got.moves
                done.append((m, got is not None, moves))
                events.append(GameEvent("countersolved", {"seat": m, "solved": got is not None,
                                                          "moves": moves}))
            else:
                left[m] = remaining
        return replace(state, forced_left=(left[0], left[1]), counter_done=tuple(done)), events

    def _open_counter(self, state: LMState, events: list[GameEvent]
                      ) -> tuple[LMState, list[GameEvent]]:
        """LM-17: the round's countersolves in one phase, each maker in its own window: a
        voluntary one lasts as long as the solver took, a forced one what is left of its 5
        minutes. No countersolve at all: the round is scored."""
        windows: list[float | None] = [None, None]
        for m in (0, 1):
            sol = state.final[1 - m]
            if state.forced_active(m):
                windows[m] = state.forced_left[m]
            elif state.counter_wanted[m] and sol is not None:
                windows[m] = max(sol.at, state.config.min_counter)
        if windows == [None, None]:
            return self._score_round(state, events)
        return replace(state, stage="counter", counter_windows=(windows[0], windows[1])), events

    def _score_round(self, state: LMState, events: list[GameEvent]
                     ) -> tuple[LMState, list[GameEvent]]:
        """LM-17..LM-19 for the round, then the end check (LM-20)."""
        pts = [0, 0]
        awards: list[Award] = []

        def award(seat: int, points: int, rule: str, why: str, lock: int) -> None:
            pts[seat] += points
            awards.append(Award(seat, points, rule, why, lock))

        fin, imp = state.final, state.impossible
        for s in (0, 1):
            if fin[s] is not None:
                award(s, 1, "LM-19", "solved", 1 - s)
        if not any(imp) and fin[0] is not None and fin[1] is not None:
            a, b = fin[0], fin[1]
            if a.at != b.at:
                w = 0 if a.at < b.at else 1
                award(w, 1, "LM-19", "faster", 1 - w)
            if a.moves != b.moves:
                w = 0 if a.moves < b.moves else 1
                award(w, 2, "LM-19", "fewer_moves", 1 - w)
        counter = {m: (ok, moves) for m, ok, moves in state.counter_done}
        declared_ok = [False, False]
        # LM-18: a correct call's +5 is kept apart, so the cap below never reaches it.
        own_call = [0, 0]
        for m in (0, 1):
            solver = 1 - m
            if m not in counter:
                continue
            ok, moves = counter[m]
            if imp[solver]:
                if ok:
                    award(m, 1, "LM-18", "call_wrong", m)
                else:
                    own_call[solver] += 5
                    declared_ok[solver] = True
                    awards.append(Award(solver, 5, "LM-18", "call_right", m))
                continue
            sol = fin[solver]
            assert sol is not None
            if not ok:
                award(solver, 3, "LM-17", "counter_failed", m)
            elif moves is not None and moves < sol.moves:
                award(m, 1, "LM-17", "counter_fewer", m)
            else:
                award(solver, 2, "LM-17", "counter_not_fewer", m)
        for s in (0, 1):
            if declared_ok[s] and pts[1 - s] > 1:
                award(1 - s, 1 - pts[1 - s], "LM-18", "capped", 1 - s)
        pts = [pts[0] + own_call[0], pts[1] + own_call[1]]
        scores = (state.scores[0] + pts[0], state.scores[1] + pts[1])
        leader = state.last_leader
        if scores[0] != scores[1]:
            leader = 0 if scores[0] > scores[1] else 1
        record = RoundRecord(state.round + 1, (pts[0], pts[1]), tuple(awards))
        events = [*events, GameEvent("round_scored", {
            "round": state.round + 1, "points": pts, "scores": list(scores),
            "awards": [a.to_json() for a in awards]})]
        state = replace(state, scores=scores, last_leader=leader,
                        history=(*state.history, record))
        result = self._end_check(state)
        if result is not None:
            return replace(state, stage="over", result=result), events
        nxt = state.round + 1
        return replace(
            state, round=nxt, stage="study", pool=state.rounds[nxt].pool, hands=((), ()),
            draft_turn=0, stopped=(False, False), locks=(None, None), solutions=((), ()),
            impossible=(False, False), final=(None, None), announced=False,
            counter_wanted=(False, False), counter_done=(),
            forced_left=(None, None), counter_windows=(None, None),
        ), events

    def _end_check(self, state: LMState) -> Result | None:
        """LM-20: 16+ after a round ends the match; else after the last round; ties go to
        the seat that led most recently, and if none ever led, to the DMO (G-8)."""
        a, b = state.scores
        target = state.config.target
        last = state.round + 1 >= len(state.rounds)
        if max(a, b) < target and not last:
            return None
        after = "target" if max(a, b) >= target else "last_round"
        if a != b:
            return self._result(state, 0 if a > b else 1, {"decided": "points", "after": after})
        if state.last_leader is not None:
            return self._result(state, state.last_leader, {
                "decided": "leader", "after": after, "seat": state.last_leader})
        return self._result(state, 1, {"decided": "dmo", "after": after})

    def _result(self, state: LMState, winner: int, detail: dict[str, JSON]) -> Result:
        """A result whose reason is said from its facts, the detail the log carries."""
        return Result(winner, self.scores(state), result_reason(detail, state.who), detail)

    def _forfeit_state(self, state: LMState, seat: int) -> tuple[LMState, list[GameEvent]]:
        res = self.forfeit(state, seat)
        return replace(state, stage="over", result=res), [GameEvent("no_lock", {"seat": seat})]

    def with_seat_names(self, state: LMState, names: tuple[str, ...]) -> LMState:
        return replace(state, seat_names=names)

    def seat_name(self, state: LMState, seat: int) -> str:
        return state.who(seat)

    def forfeit(self, state: LMState, seat: int) -> Result:
        return self._result(state, 1 - seat, {"decided": "reserve", "seat": seat})

    def result(self, state: LMState) -> Result | None:
        return state.result

    def scores(self, state: LMState) -> tuple[float, ...]:
        return (float(state.scores[0]), float(state.scores[1]))

    # ------------------------------------------------------------------ information
    def view(self, state: LMState, viewer: int | None) -> JSON:
        return self._view(state, viewer, host=False)

    def host_view(self, state: LMState) -> JSON:
        return self._view(state, None, host=True)

    def _view(self, state: LMState, viewer: int | None, *, host: bool) -> JSON:
        rnd = state.current
        out: dict[str, JSON] = {
            "round": state.round + 1,
            "rounds": len(state.rounds),
            "stage": state.stage,
            "scores": list(state.scores),
            "target": state.config.target,
            "board": write_board(rnd.board),
            "width": rnd.board.width,
            "height": rnd.board.height,
            "pool": [str(p) for p in state.pool],
            "hands": [[str(p) for p in h] for h in state.hands],
            "first_drafter": None if state.first_drafter is None
            else state.drafter_this_round(),
            "stopped": list(state.stopped),
            "history": [{"round": r.number, "points": list(r.points),
                         "awards": [a.to_json() for a in r.awards]} for r in state.history],
            "result": None if state.result is None else state.result.to_json(),
        }
        if state.stage == "draft":
            out["turn"] = {"seat": state.turn_seat(), "picks": state.turn_picks()}
        if state.locks[0] is not None and state.locks[1] is not None:
            out["locks"] = [lock_text(lock) for lock in state.locks if lock is not None]
        if state.stage in ("pick", "decide", "counter") or state.announced:
            out["impossible"] = list(state.impossible)
            out["solution_counts"] = [len(s) for s in state.solutions]
        if state.announced:
            out["final"] = [None if f is None else {"moves": f.moves, "time": f.at}
                            for f in state.final]
            # LM-17: the window each maker would get by countersolving, so the page can say
            # (and refuse in advance) a window too short to use.
            out["counter_offer"] = [None if (f := state.final[1 - m]) is None
                                    else max(f.at, state.config.min_counter) for m in (0, 1)]
            out["counter_floor"] = state.config.min_counter
            out["countersolvers"] = [m for m in (0, 1) if state.counter_windows[m] is not None
                                     or (state.stage != "counter" and state.forced_active(m))]
        if host:
            out["solutions"] = {"seat_1": _solution_facts(state, 0),
                                "seat_2": _solution_facts(state, 1)}
        elif viewer is not None:
            out["my_solutions"] = _solution_facts(state, viewer)
        return out

    def private_facts(self, state: LMState, seat: int) -> list[str]:
        """Each solution a seat sent, written as its view writes it: were the list to reach
        another seat (G-10: solutions stay private until announced, LM-16), this text would
        be in that seat's view. The time sent makes it the seat's own."""
        return [json.dumps(x) for x in _solution_facts(state, seat)]

    def render_svg(self, state: LMState, viewer: int | None) -> str | None:
        """The round's empty board until the locks are shown (LM-16); then both locks side by
        side, the viewer's own marked, since a maker countersolves its own (LM-17)."""
        locks = state.locks
        if locks[0] is None or locks[1] is None:
            return render_lock(state.current.board, title=f"Round {state.round + 1}")

        def title(s: int) -> str:
            if viewer is None:
                return f"{seat_label(state.seat_names, s, start=True)}'s lock"
            return "Your lock" if s == viewer else f"{seat_label(state.seat_names, s, start=True)}'s lock (yours to pick)"

        order = (1 - viewer, viewer) if viewer is not None else (0, 1)
        parts = []
        for s in order:
            lock = locks[s]
            assert lock is not None
            parts.append(render_lock(lock, title=title(s)))
        return _side_by_side(parts[0], parts[1])

    # ------------------------------------------------------------------ players
    def bot(self, state: LMState, seat: int, rng: random.Random) -> str | None:
        from arena.games.lockmaker import bot as botmod  # NumPy and the solvers load on first use

        return botmod.bot_move(self, state, seat, rng)

    def level_bot(self, state: LMState, seat: int, rng: random.Random,
                  level: BotLevel) -> str | None:
        from arena.games.lockmaker import bot as botmod  # NumPy and the solvers load on first use

        if level == "hard":
            return botmod.bot_move(self, state, seat, rng)
        return botmod.level_move(self, state, seat, rng, level)

    def review(self, steps: Sequence[Step[LMState]], final: LMState) -> list[Judgement]:
        """Each seat's locks, solutions and calls against the best (the post-match review,
        :mod:`arena.games.lockmaker.review`)."""
        from arena.games.lockmaker.review import review  # the solvers load on first use

        return review(steps, [self.seat_name(final, s) for s in (0, 1)])

    def random_submission(self, state: LMState, seat: int, rng: random.Random) -> str | None:
        from arena.games.lockmaker.randomplay import random_move  # the solvers load on first use

        return random_move(self, state, seat, rng)


def _parse_take(text: str) -> Take:
    """A draft turn: one or two pieces and or ``stop``, separated by commas (LM-14)."""
    items = [t.strip() for t in text.replace(";", ",").split(",") if t.strip()]
    stop = bool(items) and items[-1].lower() == "stop"
    if stop:
        items = items[:-1]
    if not items and not stop:
        raise ParseError("LM-14", "name one or two pieces (H3, V2, X) or say stop")
    return Take(tuple(parse_piece(t) for t in items), stop)


def _parse_solve(text: str, *, counter: bool) -> Solve:
    """A solution's moves as written (LM-11); :func:`_checked` plays them on the lock."""
    steps = tuple(parse_solution(text))
    if not steps:
        raise ParseError("LM-11", "a solution lists at least one move")
    return Solve(", ".join(str(mt) for mt in steps), len(steps), counter, steps)


def _checked(lock: Position, move: Solve) -> Solve:
    """LM-16: a submitted solution is replayed at once; only a legal, solving one is taken,
    with its pieces named as the rules record them."""
    rep = replay(lock, move.steps)
    if rep.error is not None:
        raise RuleError(rep.rule or "LM-11", rep.reason or rep.error)
    if not rep.final.solved:
        raise RuleError("LM-3", f"after {counted(rep.moves, 'move')} the key does not touch "
                                "the keyhole")
    return Solve(", ".join(format_solution(lock.board, rep.played)), rep.moves, move.counter,
                 move.steps, tuple(move_facts(lock.board, m) for m in rep.played))


def _solution_facts(state: LMState, seat: int) -> list[JSON]:
    """The solutions a seat sent this round, as facts for its pick (LM-16): the number it
    picks by, the move count (LM-9), seconds since the locks were shown and the moves as
    played (:func:`move_facts`). The page words them; the notation stays in the record."""
    return [{"number": i, "moves": x.moves, "at": x.at, "steps": list(x.steps)}
            for i, x in enumerate(state.solutions[seat], 1)]



def _side_by_side(a: str, b: str) -> str:
    import re

    def size(svg: str) -> tuple[float, float]:
        m = re.search(r'width="([\d.]+)" height="([\d.]+)"', svg)
        assert m
        return float(m.group(1)), float(m.group(2))

    wa, ha = size(a)
    wb, hb = size(b)
    w, h = wa + 20 + wb, max(ha, hb)
    inner_b = b.replace("<svg ", f'<svg x="{wa + 20}" ', 1)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}">{a}{inner_b}</svg>')


GAME = LockmakerGame()
