"""What a game declares and implements so the engine can run it.

A game is a set of pure functions over an immutable state: the engine owns time, submissions,
reserve and the log; the game owns the rules. Seats are numbered from 0 in code; seat 0 is the
ruling texts' "seat 1" (the Elimination Candidate, G-8) and seat 1 is the DMO.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Annotated, Any, ClassVar, Generic, Literal, TypeVar, get_args

import pydantic
from pydantic import ConfigDict

from arena.core import settings as schema
from arena.core.chat import ChatChannel
from arena.core.errors import RuleError
from arena.core.facts import GameFacts
from arena.core.frozen import fast_init
from arena.core.judging import Judgement, Step
from arena.core.moves import JSON as JSON
from arena.core.moves import READY as READY
from arena.core.moves import M as M
from arena.core.moves import Move as Move
from arena.core.moves import PhaseOutcome as PhaseOutcome
from arena.core.moves import Submission as Submission
from arena.core.moves import SubmitContext as SubmitContext
from arena.core.moves import Word as Word

BotLevel = Literal["easy", "normal", "hard"]
"""How strongly a bot plays its seat (G-8): ``hard`` is each game's full
bot; ``easy`` makes a beginner's mistakes (it is never a random mover); ``normal`` is between.
A seat that names no level gets ``hard``, the only bot there was before levels."""

BOT_LEVELS: tuple[BotLevel, ...] = get_args(BotLevel)
DEFAULT_LEVEL: BotLevel = "hard"


ReservePeriods = Annotated[int, schema.count(
    "G-3: how many reserve periods each seat's bank holds (0: no reserve)",
    0, schema.MAX_RESERVE_PERIODS, label="Reserve periods")]
ReservePeriod = Annotated[float, schema.seconds(
    "G-3: seconds in one reserve period (spent whole as soon as it begins)",
    when="reserve_periods", high=3600.0, label="Length of a reserve period")]


@dataclass(frozen=True)
class GameConfig:
    """Base of every game's typed configuration.

    Durations are seconds as the rule texts give them (G-5); the engine multiplies them by the
    match's time scale. Reserve is a bank of ``reserve_periods`` periods of ``reserve_period``
    seconds each (G-3); a game without reserve leaves ``reserve_periods`` at 0.

    Every field of a game's config is typed and bounded (``Annotated`` with
    :mod:`arena.core.settings`'s helpers) and validated strictly: a subclass that
    changes a default keeps the annotation, e.g. ``reserve_periods: ReservePeriods = 16``.
    """

    __pydantic_config__: ClassVar[ConfigDict] = schema.STRICT

    reserve_periods: ReservePeriods = 0
    reserve_period: ReservePeriod = 30.0


@dataclass(frozen=True)
class PhaseSpec:
    """The phase the match is in: who must act, who may, for how long, and with what reserve.

    ``must`` seats go into reserve (where ``reserve`` is set) when the limit passes without a
    valid submission; ``may`` seats can act but are never waited for beyond the limit.
    ``early_close`` lets a game opt a phase out of G-4 (real-time ticks always run full time).
    ``scaled`` is False for durations the game already measured in real seconds (a countersolve
    lasting as long as the solver took, LM-17).
    ``sealed`` (G-10): nobody but the host learns whether or when another seat submitted or
    confirmed; phases where acting reveals nothing (study, ready) may unseal to show who is ready.
    ``duration`` None: the phase has no time limit; only the seats' early close (G-4) or a
    game act (:class:`ActSpec`) ends it, for a step that waits on the host or on another
    match (a season's Main Match in play).
    """

    name: str
    duration: float | None
    must: frozenset[int] = frozenset()
    may: frozenset[int] = frozenset()
    reserve: bool = False
    early_close: bool = True
    scaled: bool = True
    prompt: str = ""
    sealed: bool = True

    @cached_property
    def actors(self) -> frozenset[int]:
        """``must | may``, worked out once per phase: the match asks it on every submission
        and every look at who it waits for."""
        return self.must | self.may


@fast_init  # the games make a few per phase
@dataclass(frozen=True)
class GameEvent:
    """Something that happened, with who may see it: ``to=None`` is public, a set is those
    seats only (the host always sees everything)."""

    kind: str
    data: JSON = None
    to: frozenset[int] | None = None


ActBy = Literal["host", "server"]
"""Who makes a game act: the host's link, or the server itself (a child match's result)."""


@dataclass(frozen=True)
class ActSpec:
    """A kind of act a game takes besides the seats' submissions: a host's or the server's
    move that the game defines (a season's "start the Main Match", a child match's result).

    ``model`` is the strict pydantic model the act's data must satisfy (the value handed to
    :meth:`Game.act` is its instance); None: the act carries no data (``{}`` or null).
    ``phases`` names the phases it is meant for, for documents and forms only: the game's
    :meth:`Game.act` decides whether it is legal now, so a replay never depends on it."""

    by: frozenset[str]
    model: type[pydantic.BaseModel] | None = None
    phases: frozenset[str] | None = None


@dataclass(frozen=True)
class ActContext:
    """What a game may consider when applying an act. ``at`` is the match's clock time (epoch
    seconds, not seconds into the phase: an act may close a phase that has no limit);
    ``rng`` is seeded from the match seed and the act's log version, so a replay draws the
    same (G-7), and is seeded only if drawn from."""

    at: float
    phase_no: int
    by: str
    rng: random.Random
    scale: float = 1.0


@dataclass(frozen=True)
class ChildSpec:
    """One match a parent game wants run (a season's Main or Death Match): the parent names
    it in its state, the server makes sure it exists and hands its result back as an act, so
    a restart rebuilds every child from the parent's log.

    ``key`` names the child within its parent (its id is the parent's id and the key, so
    asking twice never makes two); ``seats`` maps each child seat to the parent's seat that
    plays it, so the server gives each player the child's link and bot flag of their seat.
    ``live`` is True while the parent waits for this child's result. ``match_id`` names a
    child made before its id was derived so (a season the old season engine stored): it is
    found by that id, and never made again."""

    key: str
    game: str
    seed: int
    seats: tuple[int, ...]
    names: tuple[str, ...]
    config: JSON = field(default_factory=dict)
    settings: JSON = field(default_factory=dict)
    levels: tuple[str, ...] = ()
    live: bool = False
    match_id: str | None = None


@dataclass(frozen=True)
class Result:
    """The end of a match. ``winner`` is a seat or None (a draw, or no single winner);
    ``scores`` has one entry per seat; ``detail`` holds the game's own extras (ranks, garnets)."""

    winner: int | None
    scores: tuple[float, ...]
    reason: str
    detail: JSON = field(default=None)
    losers: tuple[int, ...] = ()
    """Seats that lost together with no winner (a double loss, LM-21); empty otherwise."""

    @property
    def double_loss(self) -> bool:
        return len(self.losers) > 1

    def facts(self) -> dict[str, JSON]:
        """The result without its words: what the match_ended event carries (its readers word
        it themselves; the reason stays in the view and the stored result)."""
        return {
            "winner": self.winner,
            "scores": list(self.scores),
            "detail": self.detail,
            "losers": list(self.losers),
            "double_loss": self.double_loss,
        }

    def to_json(self) -> JSON:
        return {**self.facts(), "reason": self.reason}


def seat_label(names: Sequence[str], seat: int, *, start: bool = False) -> str:
    """A seat in words for people: its player's name (LO-10, G-6), or "seat N" ("Seat N" at
    the ``start`` of a sentence) only where the seat has no name (a simulation, a tool)."""
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return f"{'Seat' if start else 'seat'} {seat + 1}"


S = TypeVar("S")
C = TypeVar("C", bound=GameConfig)


class Game(GameFacts, ABC, Generic[S, C, M]):
    """The skeleton every game follows (after OpenSpiel's ``pyspiel.Game``): ``S`` its state,
    ``C`` its config, ``M`` its moves (:class:`arena.core.moves.Move`); what it says of
    itself beyond its rules (its place in the lobby, its files, its hooks) is
    :class:`arena.core.facts.GameFacts`."""

    name: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]
    seats: ClassVar[int]
    chance: ClassVar[bool]
    hidden_information: ClassVar[bool]
    rules_prefix: ClassVar[str]
    config_type: ClassVar[type[GameConfig]]

    death_match: ClassVar[dict[str, Any] | None] = None
    """SE-4: None for a game that is not a Death Match; for one that is, the config values
    of a short match of it (a season simulated with bots plays these), ``{}`` for the
    rule text's own. The seasons' list of Death Matches is the games that declare one
    (:func:`arena.core.registry.death_matches`)."""

    # --- setup -----------------------------------------------------------------------------
    def default_config(self) -> C:
        return self.config_type()  # type: ignore[return-value]

    seat_range: ClassVar[tuple[int, int] | None] = None
    """(fewest, most) seats for a game whose seat count is chosen per match (SE-1: a Main
    Match plays with 3 to 6); None for a fixed ``seats``."""

    def seat_count(self, config: C) -> int:
        """How many seats this match has (``seats`` unless the game varies it by config)."""
        return self.seats

    def config_for_seats(self, values: dict[str, Any], names: list[str]) -> dict[str, Any]:
        """The config values adapted to the seats a match is created with (their count and the
        names every page shows, LO-10). Most games ignore the seats."""
        return values

    def with_seat_names(self, state: S, names: tuple[str, ...]) -> S:
        """The initial state told the seats' names (the match hands them over once, at its
        start), so every text the game writes for people names a seat by its player (LO-10,
        G-6). The names decide no rule. A game that names no seat, or that reads the names
        from its config (LO-10), keeps the state as it is."""
        return state

    def seat_name(self, state: S, seat: int) -> str:
        """A seat in the game's texts: its player's name where the state has it."""
        return seat_label((), seat)

    def default_seat_name(self, seat: int, bot: bool) -> str:
        """The name of a seat its creator left unnamed."""
        return f"Bot {seat + 1}" if bot else f"Seat {seat + 1}"

    phase_fields: ClassVar[tuple[str, ...]] = ()
    """The settings that decide how many phases a match runs (named when the whole-match
    bound of :func:`arena.core.settings.check_match_work` refuses them)."""

    def make_config(self, values: Mapping[str, Any] | None = None) -> C:
        """A config from JSON values (a request body, a form), strictly typed and bounded:
        unknown names, wrong types and values out of bounds raise ``RuleError`` (G-5)."""
        config: C = schema.validate(self.config_type, values or {})
        return config

    def config_from_strings(self, values: Mapping[str, str]) -> C:
        """A config from text values (the command line's ``--set NAME=VALUE``)."""
        config: C = schema.config_from_strings(self.config_type, values)
        return config

    def config_from_record(self, values: Mapping[str, Any]) -> C:
        """The config of a stored match: the same schema, read leniently about types for
        records created before settings were strict."""
        config: C = schema.validate(self.config_type, values, stored=True)
        return config

    @abstractmethod
    def initial_state(self, config: C, rng: random.Random) -> S: ...

    @abstractmethod
    def max_phases(self, config: C) -> int:
        """An upper bound on the phases of any match: the conformance suite holds games to it."""

    # --- flow ------------------------------------------------------------------------------
    @abstractmethod
    def phase(self, state: S) -> PhaseSpec | None:
        """The current phase, or None once the match is over."""

    @abstractmethod
    def parse(self, state: S, seat: int, text: str) -> M:
        """Read ``text`` as the move the current phase asks of ``seat``; its ``str()`` is the
        canonical notation. The phase decides which notation applies, and a name in it refers
        to the state as a SAN move names a piece where it stands (a card by its number in the
        hand, a player by name). Text that is no move raises ``ParseError``, a name that fits
        nothing ``RuleError``, each naming the rule (G-6)."""

    def check(self, state: S, seat: int, move: M, ctx: SubmitContext[M]) -> M:
        """Whether ``move`` may be played now (the position, the time, what the seat sent
        before): ``RuleError`` naming the rule if not. Returns the move that stands: ``move``
        itself, or the same move completed by what checking it found (a solution's move count
        and its pieces' canonical names). Every parsed move is legal by default."""
        return move

    def validate(self, state: S, seat: int, text: str, ctx: SubmitContext[M]) -> M:
        """A submitted text as the move it stands for: read once, then checked. This is what
        the match runner calls; games implement :meth:`parse` and :meth:`check`."""
        return self.check(state, seat, self.parse(state, seat, text), ctx)

    @abstractmethod
    def resolve(
        self, state: S, outcome: PhaseOutcome[M], rng: random.Random
    ) -> tuple[S, list[GameEvent]]:
        """The phase's end: the standing moves (values, never texts to read again) applied
        to the state, with the events they make."""

    @abstractmethod
    def result(self, state: S) -> Result | None: ...

    def scores(self, state: S) -> tuple[float, ...]:
        """Scores so far; used when a match ends early (reserve ran out, host ended it)."""
        return tuple(0.0 for _ in range(self.seats))  # games with a seat_range override this

    def ended_early(self, state: S, reason: str) -> Result:
        """The result of a match the host ends before it ends by itself (``reason`` is the
        host's). By default nobody wins and the scores are as they stand; a game whose match
        can be scored as it stands says so here (a season's Main Match, SE-6).
        The result is written to the log, so a game changes it only behind a new config
        value: every stored log must replay unchanged (G-7)."""
        return Result(None, self.scores(state), reason)

    def forfeit(self, state: S, seat: int) -> Result:
        """G-3: a seat out of reserve loses; in a two-seat game the other seat wins at once."""
        winner = 1 - seat if self.seats == 2 else None
        return Result(winner, self.scores(state),
                      f"{self.seat_name(state, seat)} ran out of reserve (G-3)")

    def forfeit_together(self, state: S, seats: frozenset[int]) -> Result:
        """G-3 with LM-21: seats that run out of reserve at the same moment all lose; seat order
        never decides. The host (or the season, SE-4) settles what follows."""
        names = " and ".join(self.seat_name(state, s) for s in sorted(seats))
        return Result(None, self.scores(state),
                      f"double loss: {names} ran out of reserve at the same moment (LM-21, G-3)",
                      losers=tuple(sorted(seats)))

    listed: ClassVar[bool] = True
    """Whether the lobby offers this game. A season is run by the engine like any game but
    is made from a cast, never from the lobby's match form."""

    has_children: ClassVar[bool] = False
    """Whether this game starts matches of its own (:meth:`children`): the server follows
    such a game after every change."""

    def children(self, state: S) -> tuple[ChildSpec, ...]:
        """The matches this game has started, the one it waits for marked ``live``: the
        server makes sure each exists and hands its result back as an act (a season's Main
        and Death Matches). None by default."""
        return ()

    acts: ClassVar[Mapping[str, ActSpec]] = {}
    """The acts this game takes (:meth:`act`), by name; none by default."""

    def act(self, state: S, name: str, value: Any,
            ctx: ActContext) -> tuple[S, list[GameEvent], bool]:
        """Apply act ``name`` (declared in :attr:`acts`; ``value`` is its validated model
        instance, or None) and return the new state, the events it makes (each with its own
        audience: the public facts go here, since the act's input entry is the host's alone)
        and whether it closes the current phase. Raise ``RuleError`` naming the rule when the
        act is not legal now; the match is then unchanged."""
        raise RuleError("host", "this game takes no acts")

    # --- information -----------------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, viewer: int | None) -> JSON:
        """What ``viewer`` may see: a seat, or None for a spectator (public state only, G-9)."""

    def host_view(self, state: S) -> JSON:
        """Everything, for the host (G-9). Games with hidden information override this."""
        return self.view(state, None)

    def private_facts(self, state: S, seat: int) -> list[str]:
        """Strings that only ``seat`` (and the host) may see. The conformance suite checks
        that none of them appears in any other seat's or a spectator's view."""
        return []

    def render_svg(self, state: S, viewer: int | None) -> str | None:
        """The board as an SVG document for ``viewer``, or None where the game has no board."""
        return None

    def host_svg(self, state: S) -> str | None:
        """The board with everything shown: for the host, and for all once a finished match
        is revealed (G-9). Games whose spectator picture hides something override this."""
        return self.render_svg(state, None)

    # --- players ---------------------------------------------------------------------------
    @abstractmethod
    def bot(self, state: S, seat: int, rng: random.Random) -> str | None:
        """What a bot in ``seat`` submits now (as text), or None to submit nothing.

        A bot should decide from what its seat may see; it is handed the state for speed.
        """

    def level_bot(self, state: S, seat: int, rng: random.Random,
                  level: BotLevel) -> str | None:
        """What a bot playing at ``level`` submits now. ``hard`` is :meth:`bot` itself, so
        every match played before levels replays unchanged; a game with weaker bots
        overrides this for ``easy`` and ``normal`` (a game without them plays ``hard``)."""
        return self.bot(state, seat, rng)

    def review(self, steps: Sequence[Step[S]], final: S) -> list[Judgement]:
        """Each seat's decisions in a finished match, judged against the best one the rules
        allowed (the post-match review, :mod:`arena.core.review`); a game judges only where
        it can compute the truth, and none by default."""
        return []

    def host_options(self, state: S) -> dict[str, tuple[bool, str]]:
        """Switches the host may flip during a live match, by name: (value, words for the host
        page). LO-12: the seats' helper, in the games that have one. None by default."""
        return {}

    def set_host_option(self, state: S, name: str, value: bool) -> S:
        """The state with option ``name`` set; a game without it refuses (the engine checks
        ``host_options`` first, so this is reached only for a known name)."""
        raise RuleError("host", f"this game has no option called {name!r}")

    def chat_channels(self, state: S) -> list[ChatChannel]:
        """The private channels the rules open now (G-13, LO-12); none by default."""
        return []

    def chat_refusal(self, state: S, seat: int, channel: str) -> str | None:
        """Why ``seat`` may not speak in ``channel`` now, as "RULE-ID: words", or None."""
        return None

    def bot_think_time(self, state: S, seat: int) -> tuple[float, float]:
        """How long, in seconds at time scale 1, a practised player takes over the current
        decision (low, high): a bot at human pace waits a time drawn in this range (G-11)."""
        return (3.0, 9.0)

    def bot_time_limit(self, state: S, seat: int) -> float | None:
        """Real seconds after the phase start by which ``seat`` must have acted, when its own
        window inside the phase ends before the phase does (countersolves that share
        one phase, each in its own window, LM-17); None: the phase's limit (G-11)."""
        return None

    def bot_state(self, state: S) -> S:
        """The state as a bot's decision needs it, for sending to a bot worker (server
        thinkers): a game may leave out what its bots never read, so that a decision's
        arguments pickle small (a real-time game's state may be mostly its scenario, 12 KB
        with the puzzle's text, of which the bot reads one session). The bots must decide
        exactly as on the whole state (each game's tests check it)."""
        return state

    def random_submission(self, state: S, seat: int, rng: random.Random) -> str | None:
        """A random legal submission, for the conformance suite; defaults to the bot's."""
        return self.bot(state, seat, rng)

    def notation_help(self, state: S, seat: int) -> str:
        """A one-line reminder of what to type in the current phase."""
        spec = self.phase(state)
        return spec.prompt if spec else ""
