"""A season's story in an outside chat (G-14): its posts, told from its game events.

Every public outcome once, when the season's log says it: a Main Match's result (played here
or recorded by hand, with the host's reason), the vote, the gift, the Elimination Candidate,
the nominee, the Death Match's pairing and game, its result, each elimination with the
standings, ledger adjustments, the round limit, each step with its deadline, the host's clock
changes, and the end with the final standings. A deadline already past is never told. One
moment is one message: what follows from an outcome (the next step, the Elimination
Candidate a vote chose) continues its message, so a Death Match is at most three (its pairing,
its result, the elimination with the standings). The season's matches tell nothing of their
own at the "steps" level (:mod:`arena.server.news`).

Only public entries are read, and the season's public record (its state, which every
spectator's view shows in full); every name and reason is escaped (:func:`news.md`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.core.errors import RuleError
from arena.core.registry import get_game
from arena.season.game import SEASON
from arena.season.mainmatch import main_game
from arena.season.state import SeasonState
from arena.server.news import (
    CLOCK,
    NewsContext,
    Posts,
    clock_words,
    ended_reason,
    formatter,
    joined,
    listed,
    md,
    season_name,
)

RECORDED = "Main Match recorded by the host (SE-2): "
"""How the season's record notes the host's reason for a Main Match recorded by hand."""
WHAT = {"tol": ("Token of Life", "Tokens of Life"), "garnets": ("garnet", "garnets"),
        "opal": ("opal", "opals")}
STARTS_OF_PLAY = ("main_started", "death_started")


@formatter(SEASON.name)
def season_news(ctx: NewsContext, posts: Posts) -> None:
    state: SeasonState = ctx.match.state
    name = f"**{md(season_name(ctx.settings, ctx.match_id))}**"
    current = ctx.phase_before()
    for i, e in enumerate(ctx.events):
        data: Mapping[str, Any] = e.data if isinstance(e.data, dict) else {}
        head = _head(name, state, data)
        if e.kind == "match_started":
            posts.new(f"{name}: a season of {len(ctx.names)} starts: {listed(ctx.names)}")
        elif e.kind == "phase_started":
            current = str(data.get("name", ""))
            line = _step(ctx, i, data)
            if line:
                if posts.messages:
                    posts.add(f"Next: {line}")
                else:
                    posts.new(f"{name} · {line}")
        elif e.kind in CLOCK:
            words = clock_words(ctx, e.kind, data)
            if words:
                posts.new(f"{name} · {current or 'the season'} {words}")
        elif e.kind == "eliminated":
            if ctx.has("match_ended"):  # the final standings follow in the season's end
                posts.add(f"{md(data.get('player'))} is eliminated.")
            else:
                posts.new(f"{head}: {md(data.get('player'))} is eliminated.\n"
                          f"{standings(state)}")
        elif e.kind == "match_ended":
            said = ended_reason(ctx, data) or "the season is over"
            posts.new(f"{name} is over: {md(said)}\n"
                      f"{final_standings(state, data)}")
        elif e.kind in ("ec_chosen", "tie_counted"):
            posts.add(f"{head}: {_said(e.kind, data, state)}")  # follows the vote or result
        elif e.kind == "season_won":
            if not ctx.has("match_ended"):
                posts.new(f"{name}: {md(data.get('winner'))} wins the season")
        elif e.kind in SAID:
            posts.new(f"{head}: {_said(e.kind, data, state)}")


def _head(name: str, state: SeasonState, data: Mapping[str, Any]) -> str:
    number = data.get("episode")
    if not isinstance(number, int) or isinstance(number, bool):
        return name
    final = 0 < number <= len(state.episodes) and state.episodes[number - 1].final
    return f"{name} · {'final' if final else f'episode {number}'}"


def _step(ctx: NewsContext, index: int, data: Mapping[str, Any]) -> str:
    """A step as it starts: its words, who it waits for and its deadline; nothing for a step
    that ended in the same batch (its outcome tells it) or a match's play whose start the
    season already tells."""
    if ctx.resolved_later(index, data.get("no")):
        return ""
    deadline = data.get("deadline")
    if deadline is None and ctx.has(*STARTS_OF_PLAY):
        return ""
    seats = sorted({*data.get("must", []), *data.get("may", [])})
    who = f", waiting for {joined([ctx.seat(s) for s in seats])}" if seats else ""
    return f"{data.get('name', '')}{who}{ctx.until(deadline)}"


# --------------------------------------------------------------------------- outcomes
def _main_started(data: Mapping[str, Any], state: SeasonState) -> str:
    return f"the Main Match{_of_main()} starts with {listed(data.get('players') or [])}"


def _of_main() -> str:
    """`` (<the Main Match's game>)``, or nothing where no installed game is one (SE-1)."""
    try:
        return f" ({main_game().title})"
    except RuleError:
        return ""


def _main_result(data: Mapping[str, Any], state: SeasonState) -> str:
    how = str(data.get("how") or "")
    number = data.get("episode")
    if how.startswith("recorded"):
        notes = state.episodes[number - 1].notes if isinstance(number, int) \
            and 0 < number <= len(state.episodes) else ()
        reason = next((n[len(RECORDED):] for n in reversed(notes) if n.startswith(RECORDED)),
                      "")
        how = f"recorded by the host: {reason}" if reason else "recorded by the host"
    bars = _dict(data, "bars")
    escaped = [f"{md(n)} ({_count(int(bars.get(n, 0)), 'gold bar', 'gold bars')}"
               + (f", +{_count(int(bars.get(n, 0)) // 2, 'garnet', 'garnets')})"
                  if int(bars.get(n, 0)) // 2 else ")")
               for n in data.get("escaped") or []]
    parts = [f"Main Match result ({md(how)}): escaped {', '.join(escaped) or 'nobody'}",
             f"trapped {listed(data.get('trapped') or [])}"]
    winners = data.get("winners") or []
    if winners:
        parts.append(f"{'winner' if len(winners) == 1 else 'winners'} {listed(winners)}")
    if data.get("opal"):
        parts.append(f"the opal to {md(data.get('opal'))}")
    return "; ".join(parts)


def _vote(data: Mapping[str, Any], state: SeasonState) -> str:
    counts, ballots = _dict(data, "counts"), _dict(data, "ballots")
    said = ", ".join(f"{md(n)} {c}" for n, c in counts.items())
    votes = ", ".join(f"{md(v)} for {md(t)}" for v, t in ballots.items()) or "no votes cast"
    tied = data.get("tied") or []
    end = f"; tied: {listed(tied)}" if tied else ""
    return f"Elimination vote counted: {said} ({votes}){end}"


def _tie(data: Mapping[str, Any], state: SeasonState) -> str:
    counts, ballots = _dict(data, "counts"), _dict(data, "ballots")
    votes = ", ".join(f"{md(v)} for {md(t)}" for v, t in ballots.items()) or "no choices made"
    return (f"the escaped break the tie: {', '.join(f'{md(n)} {c}' for n, c in counts.items())}"
            f" ({votes})")


def _ec(data: Mapping[str, Any], state: SeasonState) -> str:
    return f"{md(data.get('ec'))} is the Elimination Candidate ({md(data.get('how'))})"


def _gift(data: Mapping[str, Any], state: SeasonState) -> str:
    to = data.get("to")
    if to is None:
        return f"no Token of Life is given: {md(data.get('how'))}"
    number = data.get("episode")
    giver = None
    if isinstance(number, int) and 0 < number <= len(state.episodes):
        main = state.episodes[number - 1].main
        giver = None if main is None else main.solo_winner
    who = md(giver) if giver else "the solo winner"
    return f"{who} gives the Token of Life to {md(to)} ({md(data.get('how'))})"


def _nominated(data: Mapping[str, Any], state: SeasonState) -> str:
    return (f"{md(data.get('ec'))} nominates {md(data.get('dmo'))} as the Death Match "
            f"Opponent ({md(data.get('how'))})")


def _death_started(data: Mapping[str, Any], state: SeasonState) -> str:
    seats = [str(s) for s in data.get("seats") or []]
    pair = " against ".join(md(s) for s in seats)
    what = "the final Death Match" if data.get("final") else "the Death Match"
    seat1 = "" if data.get("final") or not seats else \
        f" ({md(seats[0])}, the Elimination Candidate, in seat 1)"
    return f"{what}: {pair} at {game_title(data.get('game'))}{seat1}"


def _death_result(data: Mapping[str, Any], state: SeasonState) -> str:
    how = str(data.get("how") or "")
    said = "" if how == "played here" else f" ({md(how)})"
    return (f"Death Match result: {md(data.get('winner'))} beats {md(data.get('loser'))} at "
            f"{game_title(data.get('game'))}{said}")


def _undecided(data: Mapping[str, Any], state: SeasonState) -> str:
    return (f"the Death Match ended with no winner ({md(data.get('why'))}); the host decides "
            "who leaves")


def _adjusted(data: Mapping[str, Any], state: SeasonState) -> str:
    amount = int(data.get("amount") or 0)
    one, many = WHAT.get(str(data.get("what")), ("point", "points"))
    sign = "+" if amount > 0 else "-"
    return (f"ledger adjustment: {md(data.get('player'))} {sign}"
            f"{_count(abs(amount), one, many)} ({md(data.get('reason'))})")


def _mm_rounds(data: Mapping[str, Any], state: SeasonState) -> str:
    n = int(data.get("max_rounds") or 0)
    limit = "no round limit but LO-8's" if n == 0 else f"at most {_count(n, 'round', 'rounds')}"
    return f"the Main Matches still to start have {limit}"


SAID = {"main_started": _main_started, "main_result": _main_result,
        "vote_counted": _vote, "tie_counted": _tie, "ec_chosen": _ec, "gift_given": _gift,
        "nominated": _nominated, "death_started": _death_started,
        "death_result": _death_result, "death_undecided": _undecided,
        "adjusted": _adjusted, "mm_rounds": _mm_rounds}


def _said(kind: str, data: Mapping[str, Any], state: SeasonState) -> str:
    return SAID[kind](data, state)


# --------------------------------------------------------------------------- words
def _dict(data: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def game_title(game: object) -> str:
    """A Death Match's game by its title; a game the host named by hand, escaped."""
    try:
        return get_game(str(game)).title
    except (RuleError, KeyError, ValueError):
        return md(game, 40)


def standings(state: SeasonState, title: str = "Standings") -> str:
    rows = [s.to_json() for s in state.ledger.standings().values()]
    return standing_lines(rows, title)


def final_standings(state: SeasonState, result: Mapping[str, Any]) -> str:
    detail = result.get("detail")
    rows = detail.get("standings") if isinstance(detail, dict) else None
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        return standings(state, "Final standings")
    return standing_lines(rows, "Final standings")


def standing_lines(rows: list[dict[str, Any]], title: str) -> str:
    """The winner first, then those still in, then the eliminated, latest out first."""
    def order(row: dict[str, Any]) -> tuple[int, int]:
        out = row.get("eliminated_in")
        return (0 if row.get("won") else 1 if out is None else 2,
                -out if isinstance(out, int) else 0)

    lines = [title + ":"]
    for row in sorted(rows, key=order):
        out = row.get("eliminated_in")
        state = "winner" if row.get("won") else "in" if out is None \
            else f"out in episode {out}"
        counts = (_count(int(row.get("tols") or 0), "ToL", "ToLs"),
                  _count(int(row.get("garnets") or 0), "garnet", "garnets"),
                  _count(int(row.get("opals") or 0), "opal", "opals"))
        lines.append(f"- {md(row.get('name'))}: {state}; {', '.join(counts)}")
    return "\n".join(lines)
