"""Light as a Feather as an engine game: study phases and real-time ticks (LF-1, LF-2).

Every tick is one engine phase lasting the tick length (10 s by default) in which both seats
*may* act and which never closes early, so ticks run on the clock like the text's 0.1 Hz game.
The seat's standing submission when the tick's phase ends (G-2: the last valid one) is the
action processed at the boundary (LF-2). Before each session a study phase (1 minute by
default) shows the new buckets, basins and objectives; it ends early when both seats say
``ready`` (G-4).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import Field

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
    Result,
    SubmitContext,
    Word,
    seat_label,
)
from arena.core.judging import Judgement, Step
from arena.core.settings import count, seconds, text
from arena.games.feather import bot as botmod
from arena.games.feather import generate as gen
from arena.games.feather import randomplay
from arena.games.feather import review as reviewing
from arena.games.feather.actions import Action, parse_action
from arena.games.feather.render import render_svg
from arena.games.feather.scenario import (
    SCENARIO_DIR,
    SessionSpec,
    load_scenario,
    parse_scenario,
    shipped,
)
from arena.games.feather.tick import Board, Outcome, check_action, new_board, step
from arena.games.feather.view import board_json

if TYPE_CHECKING:
    from arena.core.extras import Extras

GENERATED = "generated"
"""LF-12: the scenario drawn from the match's seed (the lobby's default)."""

MAX_SESSION_TICKS = 600
"""Ten times the text's 60 ticks: enough for any variant, bounded so no match is endless."""

MAX_SCENARIO_TEXT = 50_000
"""Characters of a scenario's TOML (LF-7): the shipped default is under 6,000, so this is
room for a long one; the library (:mod:`arena.games.feather.extras`) takes no more, so a
scenario that saves can also be played."""

ACTION_HELP = ("fill BASIN BUCKET | drain BUCKET [-> BASIN] | transfer A -> B | complete A+B N | "
               "exchange A B | modify B -2..2 | sip [opp] B | lock B | accelerate BASIN 1..10 | "
               "pass")

TICK_PROMPT = "one action for the next boundary: fill, drain, transfer, complete or a powerup"
"""The tick's prompt in words (the page's header); the notation is ``ACTION_HELP``."""


@dataclass(frozen=True)
class FeatherConfig(GameConfig):
    """Match settings (LF-1). ``session_ticks``/``practice_ticks`` of 0 keep the scenario's
    lengths; ``study`` 0 skips the study phases; ``ankh`` is the seat (0-based; 1 = the DMO)
    holding the ankh at the start, as the DMO decides (LF-5)."""

    scenario: Annotated[str, text("LF-12: 'generated' (a new puzzle from the match's seed), "
                                  "the name of a shipped scenario or of a saved one", 40,
                                  label="Scenario", choices_from="/api/scenarios",
                                  default_words="a new puzzle from the match's seed")
                        ] = GENERATED
    scenario_text: Annotated[str, text(
        "LF-7: a puzzle of your own, played instead of the one chosen above: paste the text "
        "file the scenario editor saves (or opens)",
        MAX_SCENARIO_TEXT, label="Custom scenario")] = ""
    """A host's own scenario as TOML (LF-7), used instead of the shipped ``scenario``."""
    tick: Annotated[float, seconds("LF-1: seconds per tick", high=3600.0,
        label="Tick length")] = 10.0
    study: Annotated[float, seconds("LF-1: seconds to study before each session (0: none)",
                                    zero_is_off=True, label="Study time")] = 60.0
    practice: Annotated[bool, Field(description="LF-1: play the scenario's practice "
                                                "session first", title="Practice session")] = True
    practice_ticks: Annotated[int, count("LF-1: ticks of the practice session (0: the "
                                         "scenario's)", 0, MAX_SESSION_TICKS,
                                         label="Practice ticks")] = 0
    session_ticks: Annotated[int, count("LF-1: ticks of each scored session (0: the "
                                        "scenario's)", 0, MAX_SESSION_TICKS,
                                        label="Ticks per session")] = 0
    ankh: Annotated[int, count("LF-5: the seat holding the ankh at the start (0: seat 1, "
                               "1: seat 2, the DMO)", 0, 1, label="Who holds the ankh first")] = 1
    difficulty: Annotated[Literal["easy", "normal", "hard"], Field(
        max_length=6, title="Difficulty",
        description="LF-12: how hard a generated scenario is (bigger buckets, stingier "
                    "basins, objectives that need more pouring)")] = "normal"
    sessions: Annotated[int, count("LF-12: scored sessions of a generated scenario",
                                   1, gen.MAX_SESSIONS, label="Sessions")] = 3


@dataclass(frozen=True)
class FeatherState:
    config: FeatherConfig
    title: str
    sessions: tuple[SessionSpec, ...]
    index: int
    stage: str  # "study", "tick" or "over"
    board: Board
    banked: tuple[int, int] = (0, 0)
    last: tuple[Outcome, ...] = ()
    ended: Board | None = None
    """The final board of the session that ended last (for the record and the page)."""
    seat_names: tuple[str, ...] = ()
    """The players' names, for the texts people read (LO-10, G-6); empty in a simulation."""
    scenario_toml: str = ""
    """The whole scenario as TOML (LF-7, LF-12): a generated one is shown to the host and can
    be downloaded, kept, edited and played again."""

    @property
    def session(self) -> SessionSpec:
        sessions = self.sessions
        return sessions[self.index] if self.index < len(sessions) else sessions[-1]


def scenario_source(config: FeatherConfig, rng: random.Random | None) -> tuple[str, str]:
    """The scenario's name and TOML text (LF-12): the host's own, a shipped one, or one
    generated from the match's setup chance ``rng``."""
    if config.scenario_text:
        # A generated puzzle kept in the match's record at creation stays "generated".
        return ("generated" if config.scenario == GENERATED else "host scenario",
                config.scenario_text)
    if config.scenario == GENERATED:
        if rng is None:
            raise RuleError("LF-12", "a generated scenario needs the match's seed")
        return GENERATED, gen.for_match(rng, config.difficulty, config.sessions, config.practice)
    if config.scenario not in shipped():
        load_scenario(config.scenario)  # raises, naming the shipped ones
    return config.scenario, (SCENARIO_DIR / f"{config.scenario}.toml").read_text(encoding="utf-8")


def _scenario_name(config: FeatherConfig) -> str:
    """What the view calls the scenario (the name ``scenario_source`` gives, without
    reading a file on every tick)."""
    if config.scenario_text:
        return GENERATED if config.scenario == GENERATED else "host scenario"
    return config.scenario


def _sessions(config: FeatherConfig, rng: random.Random | None
              ) -> tuple[str, tuple[SessionSpec, ...], str]:
    for ticks in (config.session_ticks, config.practice_ticks):
        if ticks > MAX_SESSION_TICKS:
            raise RuleError("LF-1", f"a session has at most {MAX_SESSION_TICKS} ticks")
    name, source = scenario_source(config, rng)
    scenario = (gen.read_generated(source) if name == GENERATED
                else parse_scenario(source, name) if name != config.scenario
                else load_scenario(name))
    out: list[SessionSpec] = []
    for s in scenario.sessions:
        if s.practice and not config.practice:
            continue
        ticks = config.practice_ticks if s.practice else config.session_ticks
        out.append(replace(s, ticks=ticks) if ticks > 0 else s)
    if not out:
        raise RuleError("LF-1", f"scenario {config.scenario!r} has no session left to play")
    return scenario.title, tuple(out), source


FeatherMove = Word | Action
"""Every move of a Feather match: ``ready`` before a session, an action in a tick."""


class FeatherGame(Game[FeatherState, FeatherConfig, FeatherMove]):
    name = "feather"
    title = "Light as a Feather"
    summary = "real-time ticks: fill, pour and drain buckets to meet objectives before your rival"
    seats = 2
    chance = False
    hidden_information = False
    rules_prefix = "LF"
    order = 40
    board_script = "/static/games/feather.js"
    board_sheet = "/static/games/feather.css"
    screenshot_moment = (("feather-ready", "[data-testid=feather-prompt]"),
                         ("feather-verb-fill", "[data-testid=feather-prompt][data-verb=fill]"))
    config_type = FeatherConfig
    # SE-4: a Death Match; a season simulated with bots plays one short session.
    death_match: ClassVar[dict[str, Any] | None] = {"session_ticks": 6, "practice": False, "study": 0}
    phase_fields = ("session_ticks", "practice_ticks", "scenario_text")

    def extras(self) -> Extras:
        """The scenario editor, the scenario library and its API (LF-12)."""
        from arena.games.feather.extras import EXTRAS

        return EXTRAS

    # --- setup ---------------------------------------------------------------------------
    def initial_state(self, config: FeatherConfig, rng: random.Random) -> FeatherState:
        if config.ankh not in (0, 1):
            raise RuleError("LF-5", f"the ankh starts with seat 0 or 1, not {config.ankh}")
        if not config.tick > 0:
            raise RuleError("LF-1", "a tick must last a positive time")
        title, sessions, source = _sessions(config, rng)
        board = new_board(sessions[0], None, config.ankh)
        return FeatherState(config, title, sessions, 0, self._stage_start(config), board,
                            scenario_toml=source)

    @staticmethod
    def _stage_start(config: FeatherConfig) -> str:
        return "study" if config.study > 0 else "tick"

    def max_phases(self, config: FeatherConfig) -> int:
        study = 1 if config.study > 0 else 0
        if config.scenario == GENERATED and not config.scenario_text:
            # Known before any draw: a generated scenario's shape depends on the knobs only.
            shape = gen.session_ticks(config.sessions, config.practice)
            over = (((config.practice_ticks,) if config.practice else ())
                    + (config.session_ticks,) * config.sessions)
            return sum((o or t) + study for t, o in zip(shape, over, strict=True))
        _, sessions, _ = _sessions(config, None)
        return sum(s.ticks + study for s in sessions)

    # --- flow ----------------------------------------------------------------------------
    def phase(self, state: FeatherState) -> PhaseSpec | None:
        both = frozenset({0, 1})
        if state.stage == "study":
            return PhaseSpec("study", state.config.study, may=both,
                             prompt=f"look over {state.session.name} before it starts")
        if state.stage == "tick":
            return _tick_phase(state.config.tick)
        return None

    def parse(self, state: FeatherState, seat: int, text: str) -> FeatherMove:
        """An action names the session's buckets and basins (LF-1, LF-8, LF-9); whether the
        board allows it now is :meth:`check`'s."""
        if state.stage == "study":
            if text.strip().lower() != "ready":
                raise ParseError("LF-1", "this is study time before the session: send ready when you are")
            return READY
        if state.stage != "tick":
            raise RuleError("LF-11", "the match is over")
        spec = state.session
        return _read_action(text, len(spec.capacities), spec.basin_names)

    def check(self, state: FeatherState, seat: int, move: FeatherMove,
              ctx: SubmitContext[FeatherMove]) -> FeatherMove:
        if isinstance(move, Action):
            check_action(state.session, state.board, seat, move)
        return move

    def resolve(self, state: FeatherState, outcome: PhaseOutcome[FeatherMove],
                rng: random.Random) -> tuple[FeatherState, list[GameEvent]]:
        if state.stage == "study":
            ev = GameEvent("session_started", _session_facts(state, state.index))
            return replace(state, stage="tick", last=()), [ev]
        actions = {seat: sub.value for seat, sub in outcome.standing.items()
                   if isinstance(sub.value, Action)}
        board, outcomes = step(state.session, state.board, actions)
        events = [GameEvent("tick", {"session": state.index, "tick": board.tick,
                                     "outcomes": [o.to_json() for o in outcomes]})]
        state = _with_board(state, board, outcomes)
        if board.tick >= state.session.ticks:
            state, more = self._end_session(state)
            events += more
        return state, events

    def _end_session(self, state: FeatherState) -> tuple[FeatherState, list[GameEvent]]:
        spec = state.session
        board = state.board
        banked = state.banked
        carry: tuple[Any, ...] | None = board.seats
        ankh = board.ankh
        if spec.practice:
            carry, ankh = None, state.config.ankh  # practice counts for nothing (LF-1)
        else:
            banked = (banked[0] + board.seats[0].water, banked[1] + board.seats[1].water)
        ev = GameEvent("session_over", {
            **_session_facts(state, state.index),
            "points": [s.points for s in board.seats], "water": [s.water for s in board.seats],
        })
        index = state.index + 1
        if index >= len(state.sessions):
            return replace(state, index=index, stage="over", banked=banked, ended=board), [ev]
        nxt = state.sessions[index]
        new = new_board(nxt, carry, ankh)
        stage = self._stage_start(state.config)
        events = [ev]
        if stage == "tick":
            events.append(GameEvent("session_started", _session_facts(state, index)))
        return replace(state, index=index, stage=stage, board=new, banked=banked,
                       ended=board), events

    def review(self, steps: Sequence[Step[FeatherState]], final: FeatherState
               ) -> list[Judgement]:
        return reviewing.review(steps, [self.seat_name(final, s) for s in (0, 1)])

    def scores(self, state: FeatherState) -> tuple[float, ...]:
        if state.session.practice and state.stage != "over":
            return (0.0, 0.0)
        return tuple(float(s.points) for s in state.board.seats)

    def result(self, state: FeatherState) -> Result | None:
        """LF-11: points; then water at the ends of the sessions; then the ankh."""
        if state.stage != "over":
            return None
        points = tuple(s.points for s in state.board.seats)
        water = state.banked
        if points[0] != points[1]:
            winner, reason = (0 if points[0] > points[1] else 1), "more points"
        elif water[0] != water[1]:
            winner, reason = (0 if water[0] > water[1] else 1), "equal points; more water (LF-11)"
        else:
            winner, reason = state.board.ankh, "equal points and water; the ankh holder (LF-11)"
        return Result(winner, tuple(float(p) for p in points), reason,
                      {"water": list(water), "ankh": state.board.ankh})

    # --- information ---------------------------------------------------------------------
    def session_label(self, state: FeatherState, index: int) -> str:
        """One name per session for every line of the page: "Practice
        session", or "Session 2 of 3" counting the scored sessions only."""
        spec = state.sessions[index]
        if spec.practice:
            return "Practice session (not scored)"
        scored = [i for i, x in enumerate(state.sessions) if not x.practice]
        k, n = scored.index(index) + 1, len(scored)
        default = spec.name.strip().lower() == f"session {k}"
        return (f"Session {k} of {n}" if default
                else f"{spec.name[:1].upper()}{spec.name[1:]} (session {k} of {n})")

    def view(self, state: FeatherState, viewer: int | None) -> JSON:
        data = board_json(state.session, state.board)
        index = min(state.index, len(state.sessions) - 1)
        ended = None
        if state.ended is not None and state.index > 0 and (state.stage != "tick"
                                                             or state.board.tick == 0):
            # The boundary that closed the last session, shown until the next one plays its
            # first tick: what scored between the last tick and the study screen (point 11).
            before = state.index - 1
            ended = {"label": self.session_label(state, before),
                     "practice": state.sessions[before].practice,
                     "points": [x.points for x in state.ended.seats],
                     "water": [x.water for x in state.ended.seats]}
        data.update({
            "title": state.title,
            "stage": state.stage,
            "session": {"index": index, "label": self.session_label(state, index),
                        "name": state.session.name,
                        "practice": state.session.practice, "ticks": state.session.ticks,
                        "count": len(state.sessions)},
            "sessions": [s.name for s in state.sessions],
            "banked_water": list(state.banked),
            "last": [o.to_json() for o in state.last],
            "ended": ended,
            "tick_seconds": state.config.tick,
            "help": ACTION_HELP,
            "you": viewer,
            # LF-12: the scenario is data; every viewer may read it (G-9: nothing is hidden).
            "scenario": {"name": _scenario_name(state.config), "toml": state.scenario_toml},
        })
        return data

    def render_svg(self, state: FeatherState, viewer: int | None) -> str | None:
        return render_svg(state.session, state.board, viewer, stage=state.stage,
                          names=state.seat_names)

    def with_seat_names(self, state: FeatherState, names: tuple[str, ...]) -> FeatherState:
        return replace(state, seat_names=names)

    def seat_name(self, state: FeatherState, seat: int) -> str:
        return seat_label(state.seat_names, seat)

    # --- players -------------------------------------------------------------------------
    def bot_think_time(self, state: FeatherState, seat: int) -> tuple[float, float]:
        """G-11: a tick is short; a practised player answers within the first part of it."""
        return (0.3, 1.5) if state.stage == "tick" else (3.0, 9.0)

    def bot_state(self, state: FeatherState) -> FeatherState:
        """The bot reads the stage, the board and the current session only: the other
        sessions and the scenario's text (twice: in the state and in the config) stay home."""
        return replace(state, config=replace(state.config, scenario_text=""),
                       sessions=(state.session,), index=0, scenario_toml="")

    def bot(self, state: FeatherState, seat: int, rng: random.Random) -> str | None:
        if state.stage == "study":
            return "ready"
        if state.stage != "tick":
            return None
        return botmod.choose(state.session, state.board, seat)

    def level_bot(self, state: FeatherState, seat: int, rng: random.Random,
                  level: BotLevel) -> str | None:
        if level == "hard" or state.stage != "tick":
            return self.bot(state, seat, rng)
        return botmod.choose_level(state.session, state.board, seat, level)

    def random_submission(self, state: FeatherState, seat: int, rng: random.Random) -> str | None:
        if state.stage == "study":
            return "ready"
        if state.stage != "tick":
            return None
        return randomplay.random_legal(state.session, state.board, seat, rng)

    def notation_help(self, state: FeatherState, seat: int) -> str:
        return ACTION_HELP if state.stage == "tick" else "ready"


def _session_facts(state: FeatherState, index: int) -> dict[str, Any]:
    """A session as the events name it: its place among the sessions played and, if it is
    scored, its number among the scored ones ("session 2 of 3"); the page words it (the
    scenario's own name for it is in the view's ``sessions``)."""
    spec = state.sessions[index]
    scored = [i for i, x in enumerate(state.sessions) if not x.practice]
    return {"index": index, "practice": spec.practice,
            "number": scored.index(index) + 1 if index in scored else 0, "of": len(scored)}


_STATE_FIELDS = frozenset(f.name for f in fields(FeatherState))
assert "board" in _STATE_FIELDS and "last" in _STATE_FIELDS


def _with_board(state: FeatherState, board: Board, last: tuple[Outcome, ...]) -> FeatherState:
    """``replace(state, board=board, last=last)`` by the engine's fast copy, once per tick of
    every match: FeatherState has no ``__post_init__`` and no cached values."""
    return evolve(state, board=board, last=last)


@lru_cache(maxsize=64)
def _tick_phase(duration: float) -> PhaseSpec:
    """The phase of every tick (LF-1), one frozen object per tick length: a match asks for it
    on each of its hundreds of ticks."""
    return PhaseSpec("tick", duration, may=frozenset({0, 1}), early_close=False,
                     prompt=TICK_PROMPT)


@lru_cache(maxsize=4096)
def _read_action(text: str, buckets: int, basins: tuple[str, ...]) -> Action:
    """``parse_action``, remembered: the one reading of an action is pure, and the ticks of a
    session repeat the same few texts, so each is read once per session shape rather than
    once per tick (``bench/throughput.py``: about a tenth of a Feather playout otherwise). An
    action is frozen, so sharing one is safe; a text that is refused raises and is not
    remembered."""
    return parse_action(text, buckets, basins)


GAME = FeatherGame()
