"""What a season shows each reader (G-9, G-10): its record is public, since every outcome of a
season is announced; what is private is a standing choice, which the state never holds before
its step closes (the core keeps submissions), and each player's own call to act."""

from __future__ import annotations

from typing import Any

from arena.season import flow
from arena.season.state import (
    DM_DECIDE,
    DM_NEXT,
    DM_PLAY,
    GIFT,
    IMPORTED,
    MAIN_NEXT,
    MM_PLAY,
    MM_RECORD,
    NAME_EC,
    NOMINATE,
    OVER,
    STEP_WORDS,
    TIE,
    VOTE,
    SeasonState,
)

ASK = {VOTE: "vote for the Elimination Candidate among",
       TIE: "choose the Elimination Candidate among",
       GIFT: "give your Token of Life to", NOMINATE: "nominate your Death Match Opponent among"}


def waiting(state: SeasonState, me: str | None) -> str:
    """What happens now and who it waits for, in words for this reader: a player is never
    told to wait for themselves."""
    ep, step = state.episode, state.step
    t = flow.turn(state)
    if t is not None and me in t.players:
        return f"Your turn: {ASK[step]} {flow.player_list(t.options)}."
    seats = flow.player_list(ep.dm_seats)
    what = "the final Death Match" if ep.final else "the Death Match"
    words = {
        MAIN_NEXT: f"The host starts episode {ep.number}'s Main Match, or records one played "
                   "elsewhere.",
        MM_PLAY: f"{flow.player_list(ep.players).replace(' or ', ' and ')} are playing the "
                 "Main Match; the season goes on when it ends.",
        MM_RECORD: "The Main Match's result cannot be read: the host records it by hand.",
        NAME_EC: "Nobody was trapped: the host names the Elimination Candidate.",
        DM_NEXT: f"The host picks the game of {what} between {seats.replace(' or ', ' and ')}"
                 "; its loser leaves the season.",
        DM_PLAY: f"{seats.replace(' or ', ' and ')} are playing {what}.",
        DM_DECIDE: f"{what[:1].upper()}{what[1:]} had no winner: the host decides who leaves.",
        OVER: "The season is over.",
        IMPORTED: "The season is being imported from the old season engine.",
    }
    if step in words:
        return words[step]
    assert t is not None
    who = flow.player_list(t.players).replace(" or ", " and ")
    verb = {VOTE: "vote for the Elimination Candidate", TIE: "break the tie",
            GIFT: "gives the Token of Life", NOMINATE: "nominates the Death Match Opponent"}
    return f"Waiting for {who} to {verb[step]}." if step in (VOTE, TIE) else \
        f"Waiting for {who}, who {verb[step]}."


def season_view(state: SeasonState, viewer: int | None, *, host: bool = False) -> dict[str, Any]:
    standings = state.ledger.standings()
    winner = next((n for n in state.cast if standings[n].won), None)
    me = state.cast[viewer] if viewer is not None and 0 <= viewer < len(state.cast) else None
    t = flow.turn(state)
    out: dict[str, Any] = {
        "cast": list(state.cast), "step": state.step, "step_words": STEP_WORDS[state.step],
        "episode": state.episode.number, "final": state.episode.final,
        "waiting": waiting(state, me),
        "turn": None if t is None else {"players": list(t.players), "options": list(t.options),
                                         "rule": t.rule},
        "mm_rounds": state.config.mm_max_rounds if state.mm_rounds is None else state.mm_rounds,
        "winner": winner, "ended": state.ended,
        "episodes": [e.to_json() for e in state.episodes],
        "ledger": [e.to_json() for e in state.entries],
        "standings": [standings[n].to_json() for n in state.cast],
        "death_games": flow.death_games(),
    }
    if me is not None:
        out["me"] = {"name": me, "in": standings[me].still_in,
                     "to_act": t is not None and me in t.players,
                     "options": list(t.options) if t is not None and me in t.players else []}
    return out
