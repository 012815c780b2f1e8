"""How a season goes from step to step (SE-1 to SE-7): pure functions over :class:`SeasonState`.

Three things move a season: a step's clock running out or every actor having chosen
(:func:`resolve_step`), an act of the host or the server (:func:`act`), and nothing else. Each
returns the new state and appends the public facts it made to ``events``: these are what every
page and announcement tells, so a fact is said once, when it happens.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from arena.core import rng as rngmod
from arena.core.errors import RuleError
from arena.core.game import ChildSpec, GameEvent
from arena.core.registry import death_matches, get_game
from arena.season import acts as A
from arena.season.mainmatch import MainOptions, main_game, main_rules, main_seats
from arena.season.state import (
    DM_DECIDE,
    DM_NEXT,
    DM_PLAY,
    GIFT,
    MAIN_NEXT,
    MM_PLAY,
    NAME_EC,
    NOMINATE,
    OVER,
    STEP_WORDS,
    TIE,
    VOTE,
    Episode,
    SeasonState,
    Votes,
)
from arena.season.steps import (
    MainResult,
    check_nomination,
    gift_targets,
    give_tol,
    nominees,
    record_death_match,
    record_main,
)

DRAWN = "the clock ran out; drawn from the season's chance (SE-7)"


@dataclass(frozen=True)
class Turn:
    """Who chooses in the current step, among what, under which rule."""

    players: tuple[str, ...]
    options: tuple[str, ...]
    rule: str


# --------------------------------------------------------------------------- words
def player_list(names: Sequence[str]) -> str:
    """Names as a sentence lists them: "Ann", "Ann or Ben", "Ann, Ben or Cat"."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names) or "nobody"
    return ", ".join(names[:-1]) + " or " + names[-1]


def key_of(name: str) -> str:
    """LO-10: players are told apart ignoring case and spaces."""
    return "".join(name.split()).lower()


def name_in(text: str, options: Sequence[str]) -> str | None:
    want = key_of(text)
    return next((o for o in options if key_of(o) == want), None)


def check_cast(cast: Sequence[str]) -> None:
    """SE-1, LO-10: named players, told apart ignoring case and spaces."""
    for i, name in enumerate(cast):
        if name != " ".join(name.split()) or not name:
            raise RuleError("SE-1", f"the name of player {i + 1} has spaces around it or "
                                    "is empty")
        if any(ord(c) < 32 or ord(c) == 127 for c in name):
            raise RuleError("SE-1", f"the name of player {i + 1} holds a control character")
    if len({key_of(n) for n in cast}) != len(cast):
        raise RuleError("LO-10", "the players' names must differ (ignoring case and spaces)")


def death_games() -> list[str]:
    """SE-4: the games a Death Match may be, as each game declares it, by name (the order a
    draw of the season's chance picks from)."""
    found = sorted(death_matches())
    if not found:
        raise RuleError("SE-4", "no installed game can be a Death Match")
    return found


# --------------------------------------------------------------------------- who acts
def turn(state: SeasonState) -> Turn | None:
    ep = state.episode
    mm = ep.main
    if state.step == VOTE and mm is not None:
        return Turn(mm.trapped, mm.trapped, "LO-9")
    if state.step == TIE and mm is not None and ep.votes is not None:
        return Turn(mm.escaped, ep.votes.tied, "LO-9")
    if state.step == GIFT and mm is not None and mm.solo_winner is not None:
        return Turn((mm.solo_winner,), tuple(gift_targets(mm)), "SE-3")
    if state.step == NOMINATE and mm is not None and ep.ec is not None:
        return Turn((ep.ec,), tuple(nominees(state.ledger, mm, ep.ec)), "SE-3")
    if state.step == NOMINATE and ep.ec is not None:
        return Turn((ep.ec,), tuple(_nominees(state, ep)), "SE-3")
    return None


def _nominees(state: SeasonState, ep: Episode) -> list[str]:
    mm = ep.main or MainResult((), (), {}, (), None, ep.ec)
    return nominees(state.ledger, mm, ep.ec or "")


# --------------------------------------------------------------------------- episodes
def next_episode(state: SeasonState) -> SeasonState:
    """A new episode (SE-1): a Main Match with those still in, or the final between two."""
    still = state.still_in()
    ep = Episode(len(state.episodes) + 1)
    if len(still) <= 2:
        ep = replace(ep, final=True, players=tuple(still), dm_seats=tuple(still))
        return replace(state, episodes=(*state.episodes, ep), step=DM_NEXT)
    return replace(state, episodes=(*state.episodes, ep), step=MAIN_NEXT)


def default_players(state: SeasonState, rng: random.Random) -> tuple[str, ...]:
    """SE-1: everyone still in when six or fewer; else the six who played the fewest Main
    Matches, ties drawn from the season's chance."""
    still = state.still_in()
    if len(still) <= 6:
        return tuple(still)
    order = sorted(still, key=lambda n: (state.mm_played[state.seat(n)], rng.random()))
    chosen = set(order[:6])
    return tuple(n for n in still if n in chosen)


def check_players(state: SeasonState, players: Sequence[str]) -> tuple[str, ...]:
    still = state.still_in()
    named = tuple(name_in(p, still) or p for p in players)
    low, high = main_seats()
    if not low <= len(named) <= high or len(set(named)) != len(named):
        raise RuleError("SE-1", f"{main_game().title} is played by {low} to {high} different "
                                "players")
    for n in named:
        if n not in still:
            raise RuleError("SE-1", f"{n} is not still in the season")
    if len(still) <= 6 and set(named) != set(still):
        raise RuleError("SE-1", "with six or fewer still in, all of them play the Main Match")
    return tuple(n for n in still if n in named)


def start_main(state: SeasonState, players: tuple[str, ...],
                events: list[GameEvent]) -> SeasonState:
    """The Main Match starts with its options fixed now: a later change of the round limit
    is for the matches still to start (SE-6)."""
    ep = state.episode
    cfg = state.config
    key = f"e{ep.number}-mm"
    standings = state.ledger.standings()
    config = main_rules().config(players, MainOptions(
        cfg.mm_round_seconds, cfg.vote_seconds,
        cfg.mm_max_rounds if state.mm_rounds is None else state.mm_rounds, cfg.mm_helper,
        tuple(standings[n].garnets for n in players)))
    played = tuple(c + (state.cast[i] in players) for i, c in enumerate(state.mm_played))
    ep = replace(ep, players=players, mm_key=key, mm_config=config)
    state = replace(state.with_episode(ep), step=MM_PLAY, mm_played=played)
    events.append(GameEvent("main_started", {"episode": ep.number, "players": list(players),
                                             "key": key}))
    return state


def main_done(state: SeasonState, mm: MainResult, stats: tuple[tuple[str, int, int, int], ...],
               how: str, events: list[GameEvent], *, named: bool = False) -> SeasonState:
    """SE-3's automatic steps (garnets, the opal), then the first step that needs someone."""
    ep = state.episode
    ledger = state.ledger
    record_main(ledger, ep.number, mm)
    state = replace(state, entries=tuple(ledger.entries))
    ep = replace(ep, main=mm, stats=stats)
    events.append(GameEvent("main_result", {"episode": ep.number, "how": how,
                                            "escaped": list(mm.escaped),
                                            "trapped": list(mm.trapped), "bars": dict(mm.bars),
                                            "winners": list(mm.winners), "opal": mm.opal}))
    if mm.ec is not None:
        how_ec = ("named by the host in the recorded result (SE-2)" if named
                  else "the only player still trapped (LO-8)" if len(mm.trapped) == 1
                  else "voted by the trapped players in the Main Match (LO-9)")
        ep = replace(ep, ec=mm.ec, ec_how=how_ec)
        events.append(GameEvent("ec_chosen", {"episode": ep.number, "ec": mm.ec,
                                              "how": how_ec}))
    state = state.with_episode(ep)
    return _after(state, events)


def _after(state: SeasonState, events: list[GameEvent]) -> SeasonState:
    """The next step of SE-3 still to take: the vote, the gift, naming the EC, the
    nomination."""
    ep = state.episode
    mm = ep.main
    assert mm is not None
    if ep.ec is None and len(mm.trapped) >= 2:
        return replace(state, step=VOTE)  # SE-6: however the match ended
    if mm.solo_winner is not None and ep.gift_how is None:
        if gift_targets(mm):
            return replace(state, step=GIFT)
        how = "nobody else escaped, so the token was discarded (SE-3)"
        state = state.with_episode(replace(ep, gift_how=how))
        events.append(GameEvent("gift_given", {"episode": ep.number, "to": None, "how": how}))
        ep = state.episode
    if ep.ec is None:
        return replace(state, step=NAME_EC)
    return replace(state, step=NOMINATE)


def set_ec(state: SeasonState, ec: str, how: str, events: list[GameEvent]) -> SeasonState:
    ep = state.episode
    events.append(GameEvent("ec_chosen", {"episode": ep.number, "ec": ec, "how": how}))
    return _after(state.with_episode(replace(ep, ec=ec, ec_how=how)), events)


def _fallback(state: SeasonState, tied: Sequence[str], why: str, rng: random.Random,
              events: list[GameEvent]) -> SeasonState:
    """LO-9's fallbacks (fewest keys, gold bars, cards, season garnets; then a draw), with
    the draw from the season's chance: the season holds the vote (SE-6)."""
    ep = state.episode
    players = ep.players
    stats = {n: (k, b, c) for n, k, b, c in ep.stats}
    facts = [stats.get(n, (0, 0, 0)) for n in players]
    standings = state.ledger.standings()
    garnets = [standings[n].garnets for n in players]
    seat, how = main_rules().fallback([players.index(n) for n in tied], facts, garnets, rng)
    return set_ec(state, players[seat], f"{why}; {how} (LO-9)", events)


def _ballots(state: SeasonState, chosen: dict[str, str]) -> dict[int, int]:
    """The choices made, as Main Match seats (voter -> seat voted for)."""
    players = state.episode.players
    return {players.index(v): players.index(t) for v, t in chosen.items()
            if v in players and t in players}


def _vote(state: SeasonState, chosen: dict[str, str], rng: random.Random,
          events: list[GameEvent]) -> SeasonState:
    """LO-9 held by the season (SE-6): the trapped vote among themselves; a vote not cast
    does not count. A tie goes to the escaped, or with nobody escaped to the fallbacks."""
    ep = state.episode
    mm = ep.main
    assert mm is not None
    players = ep.players
    count = main_rules().tally(_ballots(state, chosen), [players.index(n) for n in mm.trapped])
    tied = tuple(players[s] for s in count.leaders)
    ballots = tuple((players[v], players[t]) for v, t in count.votes)
    counts = {players[s]: n for s, n in count.counts.items()}
    votes = Votes(ballots, tuple(counts.items()), tied if len(tied) > 1 else ())
    state = state.with_episode(replace(ep, votes=votes))
    events.append(GameEvent("vote_counted", {"episode": ep.number, "ballots": dict(ballots),
                                             "counts": counts, "tied": list(votes.tied)}))
    if len(tied) == 1:
        return set_ec(state, tied[0], "most votes of the trapped players (LO-9)", events)
    if mm.escaped:
        return replace(state, step=TIE)
    return _fallback(state, tied, main_rules().no_winners, rng, events)


def _tie(state: SeasonState, chosen: dict[str, str], rng: random.Random,
         events: list[GameEvent]) -> SeasonState:
    """LO-9: a majority of the escaped among the tied; else the fallbacks."""
    ep = state.episode
    mm, votes = ep.main, ep.votes
    assert mm is not None and votes is not None
    players = ep.players
    picks = {v: t for v, t in chosen.items() if v in mm.escaped and t in votes.tied}
    ballots = tuple(sorted(picks.items(), key=lambda vt: players.index(vt[0])))
    state = state.with_episode(replace(ep, votes=replace(votes, tie_ballots=ballots)))
    events.append(GameEvent("tie_counted", {"episode": ep.number, "ballots": dict(ballots)}))
    rules = main_rules()
    seat = rules.winners_choice([players.index(n) for n in votes.tied],
                                {players.index(n) for n in mm.escaped}, _ballots(state, picks))
    if seat is not None:
        return set_ec(state, players[seat], f"{rules.majority} (LO-9)", events)
    return _fallback(state, votes.tied, rules.no_majority, rng, events)


def _gift(state: SeasonState, to: str, how: str, events: list[GameEvent]) -> SeasonState:
    ep = state.episode
    assert ep.main is not None
    ledger = state.ledger
    give_tol(ledger, ep.number, ep.main, to)
    state = replace(state, entries=tuple(ledger.entries))
    events.append(GameEvent("gift_given", {"episode": ep.number, "to": to, "how": how}))
    return _after(state.with_episode(replace(ep, gift=to, gift_how=how)), events)


def _nominate(state: SeasonState, dmo: str, how: str, events: list[GameEvent]) -> SeasonState:
    ep = state.episode
    assert ep.ec is not None
    if ep.main is not None:
        check_nomination(state.ledger, ep.main, ep.ec, dmo)
    events.append(GameEvent("nominated", {"episode": ep.number, "ec": ep.ec, "dmo": dmo,
                                          "how": how}))
    ep = replace(ep, dmo=dmo, dmo_how=how, dm_seats=(ep.ec, dmo))  # SE-4: EC in seat 1
    return replace(state.with_episode(ep), step=DM_NEXT)


def start_death(state: SeasonState, game: str, config: dict[str, Any],
                 settings: dict[str, Any], levels: tuple[str, ...], how: str,
                 events: list[GameEvent]) -> SeasonState:
    ep = state.episode
    key = f"e{ep.number}-dm"
    ep = replace(ep, dm_key=key, dm_game=game, dm_config=config, dm_settings=settings,
                 dm_levels=levels)
    if how:
        ep = ep.noted(how)
    events.append(GameEvent("death_started", {"episode": ep.number, "game": game,
                                              "seats": list(ep.dm_seats), "key": key,
                                              "final": ep.final}))
    return replace(state.with_episode(ep), step=DM_PLAY)


def death_done(state: SeasonState, winner: str, cause: str,
                events: list[GameEvent]) -> SeasonState:
    """SE-4: the loser leaves; in the final the winner wins the season (SE-1)."""
    ep = state.episode
    loser = ep.dm_seats[1] if winner == ep.dm_seats[0] else ep.dm_seats[0]
    game = title(ep.dm_game) if ep.dm_game else "a game played elsewhere"
    ledger = state.ledger
    record_death_match(ledger, ep.number, game, winner, loser, ep.final, cause)
    state = replace(state, entries=tuple(ledger.entries))
    state = state.with_episode(replace(ep, dm_winner=winner, eliminated=loser))
    events.append(GameEvent("death_result", {"episode": ep.number, "game": game,
                                             "winner": winner, "loser": loser,
                                             "how": cause or "played here"}))
    events.append(GameEvent("eliminated", {"episode": ep.number, "player": loser}))
    if ep.final:
        ended = f"{winner} won the season"
        events.append(GameEvent("season_won", {"winner": winner}))
        return replace(state, step=OVER, ended=ended)
    return next_episode(state)


def title(game: str) -> str:
    """A game as players know it (its title), not its id; a game recorded by hand as the
    host wrote it."""
    try:
        return get_game(game).title
    except RuleError:
        return game


def death_winner(state: SeasonState, body: A.WinnerOrLoser) -> str:
    seats = state.episode.dm_seats
    named = name_in(body.winner or body.loser or "", seats)
    if named is None:
        raise RuleError("SE-4", f"the Death Match is between {player_list(seats)}")
    if body.winner is not None:
        return named
    return seats[1] if named == seats[0] else seats[0]


# --------------------------------------------------------------------------- the clock
def resolve_step(state: SeasonState, chosen: dict[str, str], rng: random.Random,
                 events: list[GameEvent]) -> SeasonState:
    """The step closes: every actor chose (G-4) or its clock ran out (SE-7), when a legal
    choice is drawn. A standing choice that became illegal meanwhile (a ToL given to the
    nominee by an adjustment) counts as missing, so it is drawn."""
    step, ep = state.step, state.episode
    t = turn(state)
    if step == VOTE:
        return _vote(state, chosen, rng, events)
    if step == TIE:
        return _tie(state, chosen, rng, events)
    if step in (GIFT, NOMINATE) and t is not None:
        actor = t.players[0]
        pick = chosen.get(actor)
        how = f"chosen by {actor}"
        if pick not in t.options:
            if not t.options:
                raise RuleError("SE-3", "nobody can be chosen")
            pick, how = rng.choice(t.options), DRAWN
        assert pick is not None
        return _gift(state, pick, how, events) if step == GIFT else \
            _nominate(state, pick, how, events)
    if step == MAIN_NEXT:
        return start_main(state, default_players(state, rng), events)
    if step == NAME_EC:
        pool = (ep.main.trapped if ep.main and ep.main.trapped else ep.players)
        return set_ec(state, rng.choice(pool), DRAWN, events)
    if step == DM_NEXT:
        game = rng.choice(death_games())
        return start_death(state, game, dict(_short(game)), {}, (), "the host's deadline "
                            "for starting the Death Match passed; the game was drawn from "
                            "the season's chance (SE-7)", events)
    if step == DM_DECIDE:
        winner = rng.choice(ep.dm_seats)
        return death_done(state, winner, f"no winner in the Death Match "
                           f"({title(ep.dm_game or '')}); "
                           f"{DRAWN}", events)
    raise RuleError("SE-7", f"'{STEP_WORDS[step]}' has no clock")


def _short(game: str) -> dict[str, Any]:
    """SE-4: the config of a short Death Match of ``game``, as the game declares it."""
    return death_matches().get(game, {})


# --------------------------------------------------------------------------- children
def children(state: SeasonState) -> tuple[ChildSpec, ...]:
    """The matches this season has started, the live one marked: a Main Match among its
    players (the season holds the vote, SE-6), a Death Match with the EC in seat 1 and the
    DMO in seat 2 (SE-4)."""
    out: list[ChildSpec] = []
    last = state.episodes[-1].number if state.episodes else 0
    main = main_game().name if any(ep.mm_key for ep in state.episodes) else ""
    for ep in state.episodes:
        if ep.mm_key and not ep.mm_external:
            out.append(ChildSpec(
                ep.mm_key, main, _seed(state, "mm", ep.number),
                tuple(state.seat(n) for n in ep.players), ep.players, dict(ep.mm_config),
                live=ep.number == last and state.step == MM_PLAY, match_id=ep.mm_match))
        if ep.dm_key and ep.dm_game and not ep.dm_external:
            out.append(ChildSpec(
                ep.dm_key, ep.dm_game, _seed(state, "dm", ep.number),
                tuple(state.seat(n) for n in ep.dm_seats), ep.dm_seats,
                dict(ep.dm_config or {}), dict(ep.dm_settings or {}), ep.dm_levels,
                live=ep.number == last and state.step == DM_PLAY, match_id=ep.dm_match))
    return tuple(out)


def _seed(state: SeasonState, kind: str, number: int) -> int:
    return rngmod.derive(state.child_seed, kind, number).getrandbits(64)
