"""A season as a game of the core engine (SE-1 to SE-7).

Its steps are phases, run by the same match runner as every game, so a season has the
matches' clocks (SE-7 is the match clock: pause, extend and a clock-time deadline on every
step), their sealed submissions (G-10: the vote, the gift and the nomination), their log,
replay, owner and socket. The players' choices are submissions (``Vote Ben``, ``Gift Cat``,
``Nominate Dan``); what the host and the server decide are the game's acts; the matches a
season plays are children the server runs and whose results come back as the ``match_result``
act. When a step's clock runs out, a legal choice is drawn from the season's chance (SE-7), so
a replay draws the same.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from arena.core.errors import RuleError
from arena.core.game import (
    JSON,
    ActContext,
    ActSpec,
    ChildSpec,
    Game,
    GameEvent,
    PhaseOutcome,
    PhaseSpec,
    Result,
)
from arena.core.registry import register
from arena.season import acts as A
from arena.season import flow, host_acts
from arena.season.flow import name_in, player_list
from arena.season.state import (
    DM_DECIDE,
    DM_NEXT,
    GIFT,
    IMPORTED,
    MAIN_NEXT,
    MAX_CAST,
    NAME_EC,
    NOMINATE,
    OVER,
    STEP_WORDS,
    TIE,
    VOTE,
    SeasonConfig,
    SeasonState,
)
from arena.season.view import season_view

HOST = frozenset({"host"})
SERVER = frozenset({"server"})

TIMED = {MAIN_NEXT: "step", VOTE: "vote", TIE: "vote", GIFT: "step", NAME_EC: "step",
         NOMINATE: "step", DM_NEXT: "step", DM_DECIDE: "step"}
"""SE-7: the steps with a clock, and which of the season's durations each runs on. The rest
wait for a match (its own clock runs) or for the host's hand record, which nothing can draw."""

PROMPTS = {
    VOTE: "Vote and a name: who of the trapped should be the Elimination Candidate (LO-9)",
    TIE: "Vote and a name: the escaped choose among the tied (LO-9)",
    GIFT: "Gift and a name: who gets your Token of Life (SE-3)",
    NOMINATE: "Nominate and a name: your Death Match Opponent (SE-3)",
}
VERBS = {VOTE: "vote", TIE: "vote", GIFT: "gift", NOMINATE: "nominate"}


@dataclass(frozen=True)
class Choice:
    """A player's sealed choice of a step (G-10): a vote (LO-9), a gift of the Token of Life
    or a nomination (SE-3). ``name`` is the chosen player as the cast spells it, which is
    what the log records; the notation is the step's verb and the name (``Gift Cat``)."""

    verb: str
    name: str

    def __str__(self) -> str:
        return f"{self.verb.title()} {self.name}"

    def to_json(self) -> JSON:
        return self.name


class SeasonGame(Game[SeasonState, SeasonConfig, Choice]):
    """A season: the frame around the matches (SE-1). Not one of the lobby's games."""

    name = "season"
    title = "Season"
    summary = "Main Matches, the steps after them and Death Matches, down to one winner."
    seats = 3
    chance = True
    hidden_information = True
    rules_prefix = "SE"
    board_script = "/static/games/season.js"
    board_sheet = "/static/games/season.css"
    config_type = SeasonConfig
    seat_range = (3, MAX_CAST)
    listed: ClassVar[bool] = False
    has_children: ClassVar[bool] = True
    acts: ClassVar[Mapping[str, ActSpec]] = {
        "start_main": ActSpec(HOST, A.StartMain),
        "record_main": ActSpec(HOST, A.RecordMain),
        "name_ec": ActSpec(HOST, A.NameEC),
        "start_death": ActSpec(HOST, A.StartDeath),
        "record_death": ActSpec(HOST, A.RecordDeath),
        "decide": ActSpec(HOST, A.Decide),
        "adjust": ActSpec(HOST, A.Adjust),
        "mm_rounds": ActSpec(HOST, A.MainMatchRounds),
        "match_result": ActSpec(SERVER, A.MatchResult),
        "import": ActSpec(SERVER, A.Import),
    }

    # --- setup -----------------------------------------------------------------------------
    def seat_count(self, config: SeasonConfig) -> int:
        return len(config.cast)

    def config_for_seats(self, values: dict[str, Any], names: list[str]) -> dict[str, Any]:
        return {**values, "cast": list(names)}

    def initial_state(self, config: SeasonConfig, rng: random.Random) -> SeasonState:
        flow.check_cast(config.cast)
        state = SeasonState(config, rng.getrandbits(64),
                            mm_played=tuple(0 for _ in config.cast))
        state = flow.next_episode(state)
        # A season the old engine stored waits, untimed, for the server's import act (SE-5).
        return replace(state, step=IMPORTED) if config.legacy else state

    def max_phases(self, config: SeasonConfig) -> int:
        # At most 11 steps an episode, an episode per elimination, and the final.
        return 12 * len(config.cast) + 2

    def seat_name(self, state: SeasonState, seat: int) -> str:
        return state.cast[seat] if 0 <= seat < len(state.cast) else f"seat {seat + 1}"

    def default_seat_name(self, seat: int, bot: bool) -> str:
        return f"Player {seat + 1}"

    # --- flow ------------------------------------------------------------------------------
    def phase(self, state: SeasonState) -> PhaseSpec | None:
        if state.step == OVER:
            return None
        if state.step == IMPORTED:
            return PhaseSpec(STEP_WORDS[IMPORTED], None)
        cfg = state.config
        clock = TIMED.get(state.step)
        duration = None if clock is None else (cfg.vote_seconds if clock == "vote"
                                               else cfg.step_seconds)
        turn = flow.turn(state)
        seats = frozenset(state.seat(n) for n in turn.players) if turn else frozenset()
        must = seats if state.step in (GIFT, NOMINATE) else frozenset()
        may = seats if state.step in (VOTE, TIE) else frozenset()
        label = "final" if state.episode.final else f"episode {state.episode.number}"
        return PhaseSpec(f"{label}: {STEP_WORDS[state.step]}", duration, must=must, may=may,
                         prompt=PROMPTS.get(state.step, ""), sealed=True)

    def parse(self, state: SeasonState, seat: int, text: str) -> Choice:
        """The step's verb and a name among the players the step offers (SE-3, LO-9): the
        name is read against them, case and spaces forgiven (LO-10)."""
        turn = flow.turn(state)
        verb = VERBS.get(state.step)
        if turn is None or verb is None or state.cast[seat] not in turn.players:
            raise RuleError("SE-1", f"{state.cast[seat]} has nothing to choose now")
        word, _, rest = text.strip().partition(" ")
        if word.lower() != verb:
            raise RuleError(turn.rule, f"write '{verb.title()} <name>', one of "
                                       f"{player_list(turn.options)}")
        choice = name_in(rest, turn.options)
        if choice is None:
            raise RuleError(turn.rule, f"choose one of {player_list(turn.options)}, not "
                                       f"{rest.strip()[:40]!r}")
        return Choice(verb, choice)

    def resolve(self, state: SeasonState, outcome: PhaseOutcome[Choice],
                rng: random.Random) -> tuple[SeasonState, list[GameEvent]]:
        events: list[GameEvent] = []
        chosen = {state.cast[s]: sub.value.name for s, sub in outcome.standing.items()}
        state = flow.resolve_step(state, chosen, rng, events)
        return state, events

    def act(self, state: SeasonState, name: str, value: Any,
            ctx: ActContext) -> tuple[SeasonState, list[GameEvent], bool]:
        events: list[GameEvent] = []
        state, closes = host_acts.act(state, name, value, ctx.rng, events, ctx.scale)
        return state, events, closes

    def result(self, state: SeasonState) -> Result | None:
        if state.step != OVER:
            return None
        return self._result(state, state.ended or "the season is over")

    def ended_early(self, state: SeasonState, reason: str) -> Result:
        """The host ends the season (SE-1): the standings as they are, no winner."""
        return self._result(state, reason)

    def _result(self, state: SeasonState, reason: str) -> Result:
        standings = state.ledger.standings()
        winner = next((i for i, n in enumerate(state.cast) if standings[n].won), None)
        scores = tuple(1.0 if i == winner else 0.0 for i in range(len(state.cast)))
        return Result(winner, scores, reason, detail={
            "standings": [standings[n].to_json() for n in state.cast],
            "episodes": [e.to_json() for e in state.episodes]})

    def scores(self, state: SeasonState) -> tuple[float, ...]:
        return tuple(0.0 for _ in state.cast)

    def children(self, state: SeasonState) -> tuple[ChildSpec, ...]:
        return flow.children(state)

    # --- information -----------------------------------------------------------------------
    def view(self, state: SeasonState, viewer: int | None) -> JSON:
        return season_view(state, viewer)

    def host_view(self, state: SeasonState) -> JSON:
        return season_view(state, None, host=True)

    # --- players ---------------------------------------------------------------------------
    def bot(self, state: SeasonState, seat: int, rng: random.Random) -> str | None:
        turn = flow.turn(state)
        verb = VERBS.get(state.step)
        if turn is None or verb is None or state.cast[seat] not in turn.players \
                or not turn.options:
            return None
        options = [o for o in turn.options if o != state.cast[seat]] or list(turn.options)
        return f"{verb.title()} {rng.choice(options)}"

    def bot_think_time(self, state: SeasonState, seat: int) -> tuple[float, float]:
        return (5.0, 30.0)

    def notation_help(self, state: SeasonState, seat: int) -> str:
        turn = flow.turn(state)
        verb = VERBS.get(state.step)
        if turn is None or verb is None or not turn.options:
            return ""
        return f"'{verb.title()} {turn.options[0]}': one of {player_list(turn.options)}"


SEASON = SeasonGame()
register(SEASON)  # found by name (a rebuild, a bot worker) though not under arena.games
