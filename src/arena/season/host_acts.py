"""The host's and the server's acts on a season (SE-1 to SE-7): each checks that the season is
at a step that takes it, applies it through the steps of :mod:`arena.season.flow` and says
whether it closes the step. Kept apart from the flow, which the clock and the players move."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from arena.core.errors import RuleError
from arena.core.game import GameEvent
from arena.core.registry import get_game
from arena.core.settings import check_game_config
from arena.season import acts as A
from arena.season import legacy
from arena.season.flow import (
    check_players,
    death_done,
    death_games,
    death_winner,
    default_players,
    main_done,
    name_in,
    player_list,
    set_ec,
    start_death,
    start_main,
    title,
)
from arena.season.ledger import Entry
from arena.season.mainmatch import main_rules
from arena.season.state import (
    DM_DECIDE,
    DM_NEXT,
    DM_PLAY,
    IMPORTED,
    MAIN_NEXT,
    MM_PLAY,
    MM_RECORD,
    NAME_EC,
    OVER,
    STEP_WORDS,
    SeasonState,
)
from arena.season.steps import main_from_json


def _need(state: SeasonState, *steps: str) -> None:
    if state.step not in steps:
        want = " or ".join(STEP_WORDS[s] for s in steps)
        raise RuleError("SE-1", f"the season is at '{STEP_WORDS[state.step]}', not {want}")


def act(state: SeasonState, name: str, value: Any, rng: random.Random,
        events: list[GameEvent], scale: float) -> tuple[SeasonState, bool]:
    """An act of the host or the server; (the new state, whether it closes the step)."""
    handler = ACTS.get(name)
    if handler is None:
        raise RuleError("SE-1", f"a season takes no act called {name!r}")
    if name == "import" and state.step != IMPORTED:
        raise RuleError("SE-5", "only a season the old season engine stored is imported, and "
                                "only as its first step")
    if state.step == IMPORTED and name != "import":
        raise RuleError("SE-5", "this season is being imported from the old season engine; "
                                "it takes nothing before that")
    if state.step == OVER and name not in ("adjust",):
        raise RuleError("SE-1", "the season is over")
    return handler(state, value, rng, events, scale)


Handler = Callable[[SeasonState, Any, random.Random, list[GameEvent], float],
                   tuple[SeasonState, bool]]


def _act_start_main(state: SeasonState, body: A.StartMain, rng: random.Random,
                    events: list[GameEvent], scale: float) -> tuple[SeasonState, bool]:
    _need(state, MAIN_NEXT)
    players = (check_players(state, body.players) if body.players is not None
               else default_players(state, rng))
    return start_main(state, players, events), True


def _act_record_main(state: SeasonState, body: A.RecordMain, rng: random.Random,
                     events: list[GameEvent], scale: float) -> tuple[SeasonState, bool]:
    _need(state, MAIN_NEXT, MM_PLAY, MM_RECORD)
    ep = state.episode
    if state.step == MAIN_NEXT:
        players = (check_players(state, body.players) if body.players is not None
                   else default_players(state, rng))
        played = tuple(c + (state.cast[i] in players) for i, c in enumerate(state.mm_played))
        state = replace(state, mm_played=played)
        ep = replace(ep, players=players)
    mm = main_from_json(body.result.model_dump(), ep.players, voted=False)
    ep = replace(ep, mm_external=state.step == MAIN_NEXT).noted(
        f"Main Match recorded by the host (SE-2): {body.reason}")
    state = state.with_episode(ep)
    return main_done(state, mm, (), "recorded by the host (SE-2)", events,
                      named=body.result.ec is not None), True


def _act_name_ec(state: SeasonState, body: A.NameEC, rng: random.Random,
                 events: list[GameEvent], scale: float) -> tuple[SeasonState, bool]:
    _need(state, NAME_EC)
    ep = state.episode
    pool = ep.main.trapped if ep.main is not None and ep.main.trapped else ep.players
    ec = name_in(body.ec, pool)
    if ec is None:
        raise RuleError("SE-6", f"the Elimination Candidate is one of {player_list(pool)}")
    return set_ec(state, ec, f"named by the host: {body.reason} (SE-6)", events), True


def _act_start_death(state: SeasonState, body: A.StartDeath, rng: random.Random,
                     events: list[GameEvent], scale: float) -> tuple[SeasonState, bool]:
    _need(state, DM_NEXT)
    if body.game not in death_games():
        raise RuleError("SE-4", f"the Death Match is one of {player_list(death_games())}")
    game = get_game(body.game)
    config = game.make_config(body.config)  # refused naming the field (G-5)
    settings = body.settings.model_dump(exclude_none=True)
    check_game_config(game, config, float(settings.get("time_scale", scale)))
    return start_death(state, body.game, dict(body.config), settings, tuple(body.levels), "",
                        events), True


def _act_record_death(state: SeasonState, body: A.RecordDeath, rng: random.Random,
                      events: list[GameEvent], scale: float) -> tuple[SeasonState, bool]:
    _need(state, DM_NEXT, DM_PLAY)
    winner = death_winner(state, body)
    ep = state.episode
    if state.step == DM_NEXT:
        state = state.with_episode(replace(ep, dm_external=True,
                                           dm_game=(body.game or "played elsewhere")[:40]))
    game = title(state.episode.dm_game or "played elsewhere")
    return death_done(state, winner, f"lost the Death Match ({game}), recorded by the host: "
                                      f"{body.reason}", events), True


def _act_decide(state: SeasonState, body: A.Decide, rng: random.Random,
                events: list[GameEvent], scale: float) -> tuple[SeasonState, bool]:
    _need(state, DM_DECIDE)
    winner = death_winner(state, body)
    game = title(state.episode.dm_game or "played elsewhere")
    return death_done(state, winner, f"no winner in the Death Match ({game}); the host "
                                      f"decided: {body.reason}", events), True


def _act_adjust(state: SeasonState, body: A.Adjust, rng: random.Random,
                events: list[GameEvent], scale: float) -> tuple[SeasonState, bool]:
    player = name_in(body.player, state.cast)
    if player is None:
        raise RuleError("SE-5", f"adjust a player of the cast: {player_list(state.cast)}")
    if body.amount == 0:
        raise RuleError("SE-5", "an adjustment is a whole number other than 0")
    standing = state.ledger.standings()[player]
    have = {"tol": standing.tols, "garnets": standing.garnets, "opal": standing.opals}
    if have[body.what] + body.amount < 0:
        raise RuleError("SE-5", f"{player} has {have[body.what]}, so cannot lose "
                                f"{-body.amount}")
    number = state.episode.number
    state = state.add(Entry(number, player, body.what, body.amount,
                            f"host adjustment: {body.reason} (SE-5)"))
    events.append(GameEvent("adjusted", {"episode": number, "player": player,
                                         "what": body.what, "amount": body.amount,
                                         "reason": body.reason}))
    return state, False


def _act_mm_rounds(state: SeasonState, body: A.MainMatchRounds, rng: random.Random,
                   events: list[GameEvent], scale: float) -> tuple[SeasonState, bool]:
    events.append(GameEvent("mm_rounds", {"max_rounds": body.max_rounds}))
    return replace(state, mm_rounds=body.max_rounds), False


def _act_match_result(state: SeasonState, body: A.MatchResult, rng: random.Random,
                      events: list[GameEvent], scale: float) -> tuple[SeasonState, bool]:
    """A match the season started has ended (or cannot be read). Refused unless it is the
    match the current step waits for: a result the host already recorded by hand stays."""
    ep = state.episode
    if state.step == MM_PLAY and body.key == ep.mm_key:
        return _main_from_match(state, body, events), True
    if state.step == DM_PLAY and body.key == ep.dm_key:
        return _death_from_match(state, body, events), True
    raise RuleError("SE-1", f"the season is not waiting for match {body.key!r}")


def _main_from_match(state: SeasonState, body: A.MatchResult,
                     events: list[GameEvent]) -> SeasonState:
    ep = replace(state.episode, mm_handed=tuple(n for n in state.episode.players
                                                if n in body.handed_to_bot))
    if body.ended:
        ep = ep.noted(f"the Main Match ended early ({body.ended.rstrip('.')}), so it is "
                      "scored as it stood (SE-6, LO-8)")
    detail: Any = (body.result or {}).get("detail")
    try:
        if body.problem:
            raise ValueError(body.problem)
        rules = main_rules()
        mm = rules.result(detail, list(ep.players))
        stats = rules.facts(detail, list(ep.players))
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        ep = ep.noted(f"the Main Match's result cannot be read ({exc}); the host records it "
                      "by hand (SE-6)"[:300])
        return replace(state.with_episode(ep), step=MM_RECORD)
    if mm.ec is not None and len(mm.trapped) != 1 and ep.mm_match is None:
        # SE-6: the season holds the vote, not the match; a Main Match the old season
        # engine started held its own vote (LO-9), and its outcome stands.
        mm = replace(mm, ec=None)
    return main_done(state.with_episode(ep), mm, stats, "played here", events)


def _death_from_match(state: SeasonState, body: A.MatchResult,
                      events: list[GameEvent]) -> SeasonState:
    ep = state.episode
    ep = replace(ep, dm_handed=tuple(n for n in ep.dm_seats if n in body.handed_to_bot))
    result = body.result or {}
    winner = result.get("winner")
    if body.problem or not isinstance(winner, int) or isinstance(winner, bool) \
            or winner not in (0, 1):
        why = body.problem or str(result.get("reason") or "the Death Match ended with no "
                                                           "winner")
        ep = ep.noted(why[:300])
        events.append(GameEvent("death_undecided", {"episode": ep.number, "why": why[:300]}))
        return replace(state.with_episode(ep), step=DM_DECIDE)
    return death_done(state.with_episode(ep), ep.dm_seats[winner], "", events)


def _act_import(state: SeasonState, body: A.Import, rng: random.Random,
                events: list[GameEvent], scale: float) -> tuple[SeasonState, bool]:
    """A season the old season engine stored, read in from its snapshot (SE-5)."""
    return legacy.read(state, body.record, frozenset(body.missing), events), True


ACTS: dict[str, Handler] = {
    "start_main": _act_start_main, "record_main": _act_record_main,
    "name_ec": _act_name_ec, "start_death": _act_start_death,
    "record_death": _act_record_death, "decide": _act_decide, "adjust": _act_adjust,
    "mm_rounds": _act_mm_rounds, "match_result": _act_match_result, "import": _act_import,
}


