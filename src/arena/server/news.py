"""What a match or a season tells an outside chat (G-14): the posts made of a batch of new log
entries, by the match's game.

Only what a spectator may see is told: the public entries of the batch (``to`` is None and a
spectator may read it), words of the server's own, and never a link or a token. Every text a
person typed (a seat's name, a season's name, a reason) goes through :func:`md`, so a
Discord channel shows it as typed and not as markdown, a masked link or a mention.

Each game may register its own formatter (:func:`formatter`): a season tells its steps from
its game events (:mod:`arena.server.season_news`); any other game gets :func:`plain_news`,
its start, its phases with their deadlines, clock changes and its result. A match a season
started tells what the season's host chose (``news`` in the season's settings, copied into the
match's): at ``"steps"`` nothing of its own, since the season's posts tell its start and its
result; at ``"phases"`` its phases, summarised (:func:`plain_news`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from arena.core.match import SPECTATOR, Event, Match, phase_label

MAX_TEXT = 1900
"""Discord takes 2000 characters per message."""
NewsLevel = Literal["steps", "phases"]
"""A season's news levels (G-14): its own steps only, or its matches' phases too."""
LEVELS: tuple[str, ...] = get_args(NewsLevel)
DEFAULT_LEVEL = "steps"
MARKDOWN = frozenset("\\*_~`|><[]()#-@:/")
"""Characters Discord may read as markdown, a mention, a timestamp, an emoji or a link; each is
sent after a backslash, which Discord drops, so it shows the character as typed."""
MAX_SAID = 300
"""The longest text a person typed that a post repeats (a reason is at most 300)."""

Level = Literal["match", "phases"]


# --------------------------------------------------------------------------- words
def md(text: object, most: int = MAX_SAID) -> str:
    """Text a person typed, as Discord should show it (G-14): on one line (a new line could
    start a heading or a quote) and every markdown character escaped, so ``[x](https://y)``
    is no link, ``@everyone`` no mention and ``**x**`` not bold."""
    flat = " ".join(str(text).split())[:most]
    return "".join("\\" + c if c in MARKDOWN else c for c in flat)


def listed(names: Iterable[object]) -> str:
    """Names a person typed, escaped, as a sentence lists them."""
    return joined([md(n) for n in names])


def joined(said: Sequence[str]) -> str:
    """Words already escaped, as a sentence lists them: "A", "A and B", "A, B and C"."""
    if len(said) <= 1:
        return "".join(said) or "nobody"
    return ", ".join(said[:-1]) + " and " + said[-1]


def when(t: float) -> str:
    """A deadline as Discord shows it in each reader's own clock, with the time left."""
    return f"<t:{int(t)}:f> (<t:{int(t)}:R>)"


def season_level(settings: Mapping[str, Any]) -> str:
    """A season's news level (or its match's, which copies it): "steps" unless the host
    chose "phases"."""
    chosen = settings.get("news")
    return chosen if chosen in LEVELS else DEFAULT_LEVEL


def level(settings: Mapping[str, Any]) -> str | None:
    """None for a match of its own; for a match a season started, the season's news level."""
    return season_level(settings) if isinstance(settings.get("parent"), dict) else None


def silent(settings: Mapping[str, Any]) -> bool:
    """A season's match at the "steps" level posts nothing of its own."""
    return level(settings) == "steps"


def season_name(settings: Mapping[str, Any], ident: str) -> str:
    """The season's name as its host gave it, else one made of its id (never escaped here)."""
    name = settings.get("name")
    return name if isinstance(name, str) and name.strip() else f"Season {ident[:6]}"


# --------------------------------------------------------------------------- posts
@dataclass
class Posts:
    """The messages of one batch: each outcome starts one, what follows from it (the next
    step, who was chosen by it) continues it, so one moment is one message."""

    messages: list[list[str]] = field(default_factory=list)

    def new(self, line: str) -> None:
        self.messages.append([line])

    def add(self, line: str) -> None:
        if self.messages:
            self.messages[-1].append(line)
        else:
            self.new(line)

    def texts(self) -> list[str]:
        """Each message as text, cut between lines to stay within :data:`MAX_TEXT`."""
        out: list[str] = []
        for lines in self.messages:
            text = ""
            for line in lines:
                line = line[:MAX_TEXT]
                if text and len(text) + 1 + len(line) > MAX_TEXT:
                    out.append(text)
                    text = ""
                text = f"{text}\n{line}" if text else line
            if text:
                out.append(text)
        return out


@dataclass(frozen=True)
class NewsContext:
    """What a formatter knows of a batch: the match (as it stands after the batch), its
    record's settings, the batch's public entries and the time now."""

    match_id: str
    match: Match
    names: tuple[str, ...]
    settings: Mapping[str, Any]
    events: Sequence[Event]
    """The batch's entries a spectator may see, in log order."""
    first: int
    """The version of the batch's first entry (public or not)."""
    now: float
    level: Level

    def seat(self, seat: object) -> str:
        """A seat by its player's name, escaped."""
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.names):
            return md(self.names[seat])
        return "?"

    def until(self, deadline: object, words: str = "; deadline ") -> str:
        """The deadline in words, or nothing when there is none or it has passed (G-14:
        never a deadline already past)."""
        if isinstance(deadline, (int, float)) and not isinstance(deadline, bool) \
                and deadline > self.now:
            return words + when(float(deadline))
        return ""

    def resolved_later(self, index: int, no: object) -> bool:
        """The phase ``no`` started at ``events[index]`` also ended within this batch."""
        return any(e.kind == "phase_resolved" and isinstance(e.data, dict)
                   and e.data.get("no") == no for e in self.events[index + 1:])

    def has(self, *kinds: str) -> bool:
        return any(e.kind in kinds for e in self.events)

    def phase_before(self) -> str:
        """The name of the phase that was running when the batch began ("" for none)."""
        for e in reversed(self.match.log):
            if e.version < self.first and e.kind == "phase_started" \
                    and isinstance(e.data, dict):
                return str(e.data.get("name", ""))
        return ""


Formatter = Callable[[NewsContext, Posts], None]
FORMATTERS: dict[str, Formatter] = {}
"""Each game's own formatter, by game name; :func:`plain_news` for the others."""


def formatter(game: str) -> Callable[[Formatter], Formatter]:
    """Register ``game``'s formatter (the hook a game's news is told through)."""
    def register(fn: Formatter) -> Formatter:
        FORMATTERS[game] = fn
        return fn
    return register


def match_news(match_id: str, match: Match, names: tuple[str, ...], events: Sequence[Event],
               settings: Mapping[str, Any] | None = None, now: float | None = None
               ) -> list[str]:
    """The posts for new log entries of a match: what a spectator sees of them (G-14), so no
    seat's activity shows (G-10)."""
    settings = settings or {}
    chosen = level(settings)
    if chosen == "steps" or not events:
        return []
    public = [e for e in events if e.to is None and match.can_see(SPECTATOR, e)]
    ctx = NewsContext(match_id, match, names, settings, public, events[0].version,
                      time.time() if now is None else now,
                      "match" if chosen is None else "phases")
    posts = Posts()
    FORMATTERS.get(match.game.name, plain_news)(ctx, posts)
    return posts.texts()


# --------------------------------------------------------------------------- any game
def group(name: str) -> str:
    """The part of a phase's name that names its stage ("bout 2" of "bout 2: round 3")."""
    return name.split(":", 1)[0].strip()


def told(match: Match, no: int) -> set[str]:
    """The stages of the phases before phase ``no``: a summary tells each stage once, when it
    first starts (every bout, every round, a game's picks and shoves once), never one post per
    inner round."""
    return {group(name) for k, (name, _) in match.phase_ends.items() if k < no}


def plain_news(ctx: NewsContext, posts: Posts) -> None:
    """A match of its own: its start, each phase with its deadline, the host's clock changes
    and its result. A season's match at "phases": its start and result are the season's to
    tell, and its phases are summarised (:func:`told`): a bout of many rounds is one post,
    not one per round."""
    head = _head(ctx)
    current = ctx.phase_before()
    for i, e in enumerate(ctx.events):
        data = e.data if isinstance(e.data, dict) else {}
        if e.kind == "match_started" and ctx.level == "match":
            posts.new(f"{head} started: {listed(ctx.names)}")
        elif e.kind == "phase_started":
            current = name = str(data.get("name", ""))
            no = int(data.get("no", 0))
            if ctx.level == "phases" and group(name) in told(ctx.match, no):
                continue
            # A phase that also ended in this batch has no deadline left to tell.
            until = "" if ctx.resolved_later(i, no) else ctx.until(data.get("deadline"))
            posts.new(f"{head}: {phase_label(no, name)} started{until}")
        elif e.kind in CLOCK:
            line = clock_words(ctx, e.kind, data)
            if line:
                posts.new(f"{head}: {current or 'the match'} {line}")
        elif e.kind == "match_ended" and ctx.level == "match":
            posts.new(f"{head} is over: {result_words(ctx, data)}")


def _head(ctx: NewsContext) -> str:
    title = ctx.match.game.title
    parent = ctx.settings.get("parent")
    if ctx.level == "phases" and isinstance(parent, dict):
        key = str(parent.get("key", ""))
        number, _, kind = key.removeprefix("e").partition("-")
        what = {"mm": "Main Match", "dm": "Death Match"}.get(kind, "match")
        name = season_name(parent, str(parent.get("id", "")))
        return f"**{md(name)}** · episode {md(number)} {what} ({title})"
    return f"**{title}** match {ctx.match_id}"


CLOCK = ("pause", "resume", "extend", "deadline")
"""The host's clock changes (SE-7 for a season's step): each is news when a deadline moves."""


def clock_words(ctx: NewsContext, kind: str, data: Mapping[str, Any]) -> str:
    """A clock change in words, or "" when it tells nothing (a deadline already past)."""
    if kind == "pause":
        return "is paused by the host"
    if kind == "resume":
        return "goes on" + ctx.until(data.get("deadline"))
    moved = ctx.until(data.get("deadline"), "")
    if not moved:
        return ""
    return f"has a new deadline: {moved}"


def ended_reason(ctx: NewsContext, result: Mapping[str, Any]) -> str:
    """Why the match (or season) ended, in words: a match_ended event holds the result's facts,
    its words are the match's own result (an entry logged before events were facts still
    carries them)."""
    said = result.get("reason") or (ctx.match.result.reason if ctx.match.result else "")
    return said if isinstance(said, str) else ""


def result_words(ctx: NewsContext, result: Mapping[str, Any]) -> str:
    winner = result.get("winner")
    parts = [f"{ctx.seat(winner)} wins" if isinstance(winner, int) else "no single winner"]
    scores = result.get("scores")
    if isinstance(scores, list) and len(scores) == len(ctx.names):
        parts.append("scores " + ", ".join(f"{md(n)} {s}"
                                           for n, s in zip(ctx.names, scores, strict=True)))
    reason = ended_reason(ctx, result)
    if reason:
        parts.append(md(reason, 200))
    return "; ".join(parts)
