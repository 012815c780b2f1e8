"""A season's story for its recap page: the standings after each episode, every step in order
with who took it, its outcome, its cause and the rulings it followed, and every match's result.

It is made of what a spectator reads and nothing else (G-10, G-13): the season's view as a
spectator has it and the public entries of its log (``to`` is None). A sealed vote, gift or
nomination is in neither until its step closes (the core keeps it); a private channel's lines
never are. Even once a finished season shows its spectators the whole log (G-9), the recap
keeps to the public entries, so a recap says the same before and after the end.

The standings after an episode are the ledger replayed up to it (SE-5: every entry names its
episode), so no replay of the season's match is needed. Pure functions over JSON, so the
server, a test or a tool can build a recap from a view and an event list alike.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.season.flow import title
from arena.season.recap_steps import (
    Step,
    Story,
    and_list,
    bars_words,
    closers,
    plural,
    untimed,
)

STEP_OF = re.compile(r"episode (\d+):")

COUNTED = (("tols", "tol"), ("garnets", "garnets"), ("opals", "opal"))
"""The standings a chart draws, as (the standing's name, the ledger's kind) (SE-5)."""


# --------------------------------------------------------------------------- values
@dataclass(frozen=True)
class Totals:
    """What a player holds at one moment (SE-5)."""

    tols: int = 0
    garnets: int = 0
    opals: int = 0

    def get(self, name: str) -> int:
        value: int = getattr(self, name)
        return value


@dataclass(frozen=True)
class Line:
    """One player through the season: ``points[0]`` at the start, ``points[k]`` after
    episode k (the last one so far while it is under way)."""

    name: str
    points: tuple[Totals, ...]
    eliminated_in: int | None
    won: bool


@dataclass(frozen=True)
class MatchLine:
    """A Main or Death Match's result. ``key`` names the season's match (its watch link);
    None for one played elsewhere and recorded by hand (SE-2, SE-4)."""

    episode: int
    what: str
    game: str
    key: str | None
    players: tuple[str, ...]
    result: str
    rules: tuple[str, ...]


@dataclass(frozen=True)
class EpisodeStory:
    number: int
    final: bool
    under_way: bool
    eliminated: str | None
    matches: tuple[MatchLine, ...]
    steps: tuple[Step, ...]
    notes: tuple[str, ...]


@dataclass(frozen=True)
class Recap:
    cast: tuple[str, ...]
    started: float | None
    ended: float | None
    over: bool
    winner: str | None
    lead: str
    labels: tuple[str, ...]
    """The chart's points: "Start", then each episode ("1", "2", ..., "Final")."""
    lines: tuple[Line, ...]
    episodes: tuple[EpisodeStory, ...]
    final: str | None
    """The final in one sentence, once it is played (SE-1)."""
    steps_before: tuple[Step, ...] = field(default=())


# --------------------------------------------------------------------------- standings
def standings_after(cast: Sequence[str], ledger: Sequence[Mapping[str, Any]],
                    episodes: int) -> tuple[Line, ...]:
    """Each player's totals at the start and after every episode: the ledger's entries up to
    that episode, replayed (SE-5)."""
    lines = []
    for name in cast:
        mine = [e for e in ledger if e.get("player") == name]
        points = []
        for k in range(episodes + 1):
            held = {kind: sum(int(e.get("amount") or 0) for e in mine
                              if e.get("kind") == kind and int(e.get("episode") or 0) <= k)
                    for _, kind in COUNTED}
            points.append(Totals(held["tol"], held["garnets"], held["opal"]))
        out = next((int(e["episode"]) for e in mine if e.get("kind") == "eliminated"), None)
        won = any(e.get("kind") == "winner" for e in mine)
        lines.append(Line(name, tuple(points), out, won))
    return tuple(lines)


# --------------------------------------------------------------------------- matches
def _matches(ep: Mapping[str, Any], mm_title: str) -> tuple[MatchLine, ...]:
    n = int(ep["episode"])
    out = []
    main = ep.get("main")
    if main:
        r = main.get("result")
        external = bool(main.get("external"))
        if r is None:
            text = "Being played." if not external else "Not recorded yet."
        else:
            escaped = r.get("escaped") or []
            text = (f"Escaped: {bars_words(escaped, r.get('bars') or {}) if escaped else 'nobody'}"
                    f"; trapped: {and_list(r.get('trapped') or [])}.")
            if r.get("winners"):
                text += f" Won by {and_list(r['winners'])}."
        rules = ("SE-2", "LO-8") if external else ("LO-8",)
        out.append(MatchLine(n, "Main Match", "played elsewhere" if external else mm_title,
                             None if external else main.get("key"),
                             tuple(ep.get("players") or ()), text, rules))
    dm = ep.get("death_match")
    if dm:
        seats = tuple(dm.get("seats") or ())
        external = bool(dm.get("external"))
        game = title(str(dm.get("game") or "played elsewhere"))
        winner = dm.get("winner")
        if winner:
            loser = next((s for s in seats if s != winner), "")
            text = f"{winner} beat {loser}." if loser else f"Won by {winner}."
        else:
            text = "Being played." if dm.get("key") and not external else "Not decided yet."
        what = "Final Death Match" if ep.get("final") else "Death Match"
        out.append(MatchLine(n, what, game, None if external else dm.get("key"), seats, text,
                             ("SE-4", "SE-2") if external else ("SE-4",)))
    return tuple(out)


# --------------------------------------------------------------------------- the whole
def _lead(state: Mapping[str, Any], result: Any, lines: Sequence[Line],
          final: str | None) -> str:
    cast = list(state.get("cast") or [])
    still = [ln.name for ln in lines if ln.eliminated_in is None]
    number = int(state.get("episode") or 1)
    winner = state.get("winner")
    if winner:
        return f"{winner} won the season of {len(cast)} players after " \
               f"{plural(number, 'episode')}."
    if result is not None:
        return (f"The host ended the season in episode {number}; nobody won it. "
                f"Still in at the end: {and_list(still)}.")
    what = "The final" if state.get("final") else f"Episode {number}"
    step = str(state.get("step_words") or "").strip()
    return (f"{what} is under way ({step}). {len(still)} of {len(cast)} players are still "
            f"in: {and_list(still)}.")


def gather(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> Recap:
    """The recap of a season from its spectator's view (``GET /api/seasons/{id}`` without a
    seat) and the events a spectator reads; only the public ones are used (G-10, G-13)."""
    state: Mapping[str, Any] = view.get("state") or {}
    cast = tuple(str(n) for n in state.get("cast") or ())
    episodes = list(state.get("episodes") or [])
    public = [e for e in events if e.get("to") is None]
    story = Story(state)
    closed = closers(public)
    current = 1
    final_no = next((int(ep["episode"]) for ep in episodes if ep.get("final")), 0)
    ended: float | None = None
    for i, e in enumerate(public):
        data = e.get("data")
        if isinstance(data, dict) and isinstance(data.get("episode"), int):
            current = data["episode"]
        elif isinstance(data, dict) and e.get("kind") == "phase_started":
            # A step's name says its episode ("episode 2: Main Match next", "final: ...").
            name = str(data.get("name") or "")
            numbered = STEP_OF.match(name)
            if numbered:
                current = int(numbered.group(1))
            elif name.startswith("final") and final_no:
                current = final_no
        if e.get("kind") in ("match_ended", "end"):
            ended = float(e["t"])
        story.read(e, closed.get(i, (None, False)), current)
    lines = standings_after(cast, state.get("ledger") or [], len(episodes))
    over = view.get("result") is not None
    stories = []
    final_text: str | None = None
    for ep in episodes:
        n = int(ep["episode"])
        steps = tuple(s for s in story.steps if s.episode == n)
        if all(s.kind == "imported" for s in steps):  # its steps are in its record only
            steps = (*untimed(ep), *steps)
        matches = _matches(ep, story.mm_title)
        stories.append(EpisodeStory(n, bool(ep.get("final")), not over and n == len(episodes)
                                    and not ep.get("eliminated"), ep.get("eliminated"),
                                    matches, steps, tuple(str(x) for x in ep.get("notes") or ()
                                                          if (n, str(x)) not in story.used)))
        dm = ep.get("death_match") or {}
        if ep.get("final") and dm.get("winner"):
            loser = next((s for s in dm.get("seats") or [] if s != dm["winner"]), "")
            game = title(str(dm.get("game") or "played elsewhere"))
            at = f" at {game}" if "played elsewhere" not in game else ", played elsewhere"
            final_text = (f"{dm['winner']} beat {loser} in the final Death Match{at}, and "
                          f"won the season (SE-1). {loser} is the runner-up.")
    labels = ("Start", *("Final" if ep.get("final") else str(ep["episode"]) for ep in episodes))
    started = next((float(e["t"]) for e in public if e.get("kind") == "match_started"), None)
    return Recap(cast, started, ended, over, state.get("winner"),
                 _lead(state, view.get("result"), lines, final_text), labels, lines,
                 tuple(stories), final_text,
                 tuple(s for s in story.steps if s.episode not in {e.number for e in stories}))
