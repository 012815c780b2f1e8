"""Seasons the old season engine stored become season matches of the same id, at start-up.

A season used to be rows of its own (``seasons``, ``season_entries``, ``season_tokens``). Now
it is a match of the ``season`` game, so each old season not converted yet becomes one, with
**the same id** and **the same links** (its host's and players' tokens are kept, so every link
already handed out goes on working), and nothing stored is lost:

- the match is a ``legacy`` season: its first step, untimed, takes only the server's
  ``import`` act, made at the old season's last change with the old engine's whole snapshot
  (:mod:`arena.season.legacy` reads it: ledger, episodes, the step it was at);
- before that act, each line of the host's private channels is logged at its own time, so
  the two readers of each channel (G-13) keep them;
- after it, the step's clock is what it was: the old deadline, or the time a paused step had
  left, paused (SE-7); a step that had no clock is paused, and its record says the host
  resumes it to start its clock, so no imported season draws a choice on a clock nobody saw;
- a Main or Death Match the old engine started and that is still stored learns the season as
  its parent (``settings.parent``), so its end reaches the season like any child's.

The match row, its log, its links and the old row's new status (``converted``) are written in
one transaction; on PostgreSQL the lease comes with it, and a match of that id already stored
means another process converted the season first. An old season whose rows cannot be read,
or whose snapshot the reader refuses, is left as it is and quarantined: its requests are
answered 503 naming why, and the next start tries again. Temporary: it goes with the tables.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from starlette.types import ASGIApp, Receive, Scope, Send

from arena.core.chat import private_channel
from arena.core.clock import ManualClock
from arena.core.deadlines import MAX_CLOCK
from arena.core.errors import RuleError
from arena.core.match import HOST, Event, Match, MatchSettings
from arena.core.settings import MAX_PHASE_SECONDS, MIN_PHASE_SECONDS
from arena.season.game import SEASON
from arena.season.state import DAY, DEFAULT_MM_ROUNDS
from arena.server.leases import LEASE_SECONDS
from arena.store import DamagedRow, MatchRecord, StoreUnavailable, TokenRecord
from arena.store.legacy import OldSeason

if TYPE_CHECKING:
    from arena.server.matches import Matches

log = logging.getLogger("arena.seasons")

GATED = ("/api/matches/", "/api/seasons", "/s/", "/m/", "/ws/")
"""The routes that wait for the start-up's conversion: a link of an old season works from
the first request, never 403 for a moment."""

SHORTEST = 1e-3
"""A clock set at the import is at least this far after it (a deadline must be after now)."""


def quarantine_reason(why: str) -> str:
    return f"it is a season the old season engine stored and it cannot be converted ({why})"


# ---------------------------------------------------------------------- building
def _bounded(value: Any, default: float, high: float) -> float:
    """A duration of the old head within the bounds the season's config holds it to now."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        return default
    return min(max(float(value), MIN_PHASE_SECONDS), high)


def season_config(head: dict[str, Any], scale: float) -> dict[str, Any]:
    """The season's config from the old head: its step clock was stored scaled (SE-7)."""
    raw_mm = head.get("mm_config")
    mm: dict[str, Any] = raw_mm if isinstance(raw_mm, dict) else {}
    rounds = mm.get("max_rounds", DEFAULT_MM_ROUNDS)
    return {"cast": list(head["cast"]), "legacy": True,
            "step_seconds": _bounded(float(head["step_seconds"]) / scale, DAY, 30 * DAY),
            "vote_seconds": _bounded(mm.get("vote_seconds"), DAY, 30 * DAY),
            "mm_round_seconds": _bounded(mm.get("round_seconds"), DAY, MAX_PHASE_SECONDS),
            "mm_max_rounds": rounds if isinstance(rounds, int) and not isinstance(rounds, bool)
            else DEFAULT_MM_ROUNDS,
            "mm_helper": mm.get("helper") is True}


def _webhook(old: OldSeason) -> str | None:
    """G-14: the host's latest change of the webhook, else the one it was created with."""
    url = old.head.get("webhook")
    for item in old.entries:
        if item.get("kind") == "webhook":
            url = item.get("url")
    return url if isinstance(url, str) else None


def _private(match: Match, clock: ManualClock, item: dict[str, Any]) -> None:
    """One line of a private channel (G-13), at its own time, from the host or the player."""
    cast = list(match.names)
    player = item.get("player")
    if player not in cast:
        raise RuleError("G-13", f"a private line is with {player!r}, who is not in its cast")
    seat = cast.index(player)
    t = item.get("t")
    if isinstance(t, (int, float)) and not isinstance(t, bool):
        clock.set(max(float(t), clock.now()))
    text = item.get("text")
    if not isinstance(text, str):
        raise RuleError("G-13", f"a private line with {player} has no text")
    sender = HOST if item.get("from") == "host" else seat
    if seat not in match.private:
        match.set_private(seat, True, by=sender)
    match.chat(sender, private_channel(seat), text)


def _clock(match: Match, record: dict[str, Any], at: float) -> None:
    """SE-7: the imported step's clock as the old one stood at ``at``."""
    spec = match.spec
    if match.finished or spec is None or spec.duration is None:
        return  # over, or a match in play (its own clock is the step's)
    deadline, left = record.get("deadline"), record.get("paused_left")
    if isinstance(left, (int, float)) and not isinstance(left, bool):
        match.set_deadline(at + min(max(float(left), SHORTEST), MAX_CLOCK))
        match.pause()
    elif isinstance(deadline, (int, float)) and not isinstance(deadline, bool):
        # Kept even if it has passed since (the old server was down when it fell due): the
        # resume resolves it at once, at its own time, as the old engine did on its next look.
        match.set_deadline(min(max(float(deadline), at + SHORTEST), at + MAX_CLOCK))
    else:
        match.pause()  # no clock before: the host starts it (legacy.NO_CLOCK_NOTE)


def build(old: OldSeason, missing: Sequence[str], spectator: str
          ) -> tuple[MatchRecord, list[TokenRecord], list[Event]]:
    """The season match an old season becomes: its record, links and log. Raises RuleError
    (or KeyError, TypeError, ValueError for a head that is not what the old engine wrote)
    naming what cannot be read."""
    head = old.head
    cast = tuple(str(n) for n in head["cast"])
    settings_json = dict(head.get("settings") or {})
    settings = MatchSettings.from_json(settings_json)
    config_raw = season_config(head, settings.time_scale)
    config = SEASON.make_config(config_raw)
    created = float(old.created)
    clock = ManualClock(created)
    match = Match(SEASON, config, int(head["seed"]), clock, settings, start=created, names=cast)
    for item in old.entries:
        if item.get("kind") == "private":
            _private(match, clock, item)
    at = max(float(old.updated), clock.now())
    clock.set(at)
    match.act("import", {"record": old.record, "missing": sorted(missing)}, "server")
    _clock(match, old.record, at)
    stored = {**settings.to_json(), "spectators": True, "webhook": _webhook(old)}
    result = None if match.result is None else match.result.to_json()
    record = MatchRecord(
        id=old.id, game=SEASON.name, config=config_raw, seed=int(head["seed"]),
        settings=stored, start=created, seat_names=cast,
        bots=tuple(bool(b) for b in head["bots"]),
        status="finished" if match.finished else "running", result=result, created=created)
    tokens = [TokenRecord(spectator, old.id, "spectator")]
    for token, role, player in old.tokens:
        if role == "host":
            tokens.append(TokenRecord(token, old.id, "host"))
        elif player in cast:
            tokens.append(TokenRecord(token, old.id, "seat", cast.index(player)))
        else:
            raise RuleError("SE-1", f"a link names {player!r}, who is not in its cast")
    return record, tokens, list(match.log)


def _started(record: dict[str, Any]) -> tuple[str, str] | None:
    """(match id, child key) of the match the old season was playing, if any."""
    stage = record.get("stage")
    episodes = record.get("episodes")
    if stage not in ("mm", "dm") or not isinstance(episodes, list) or not episodes:
        return None
    last = episodes[-1]
    block = last.get("main" if stage == "mm" else "death_match") if isinstance(last, dict) \
        else None
    match = block.get("match") if isinstance(block, dict) else None
    if not isinstance(match, str):
        return None
    return match, f"e{len(episodes)}-{stage}"


# ---------------------------------------------------------------------- converting
async def convert(matches: Matches, season_id: str) -> bool:
    """Convert one old season; False when there was nothing to do (another process did it).
    Raises DamagedRow, RuleError (and the like) for a season that cannot be converted."""
    store = matches.store
    old = await store.old_season(season_id)
    if old is None or old.status == "converted":
        return False
    missing: list[str] = []
    children: dict[str, dict[str, Any]] = {}
    started = _started(old.record)
    if started is not None:
        child_id, key = started
        try:
            child = await store.get_match(child_id)
        except DamagedRow:
            child = None
        if child is None:
            missing.append(child_id)
        else:  # its end reaches the season as any child's does (server/children.py)
            children[child_id] = {**child.settings, "parent": {"id": season_id, "key": key}}
    record, tokens, events = build(old, missing, secrets.token_urlsafe(18))
    lease = None
    if matches.cluster:
        lease = (matches.process_id, matches.process_url, LEASE_SECONDS)
    stored, _ = await store.convert_season(record, tokens, events, lease, children)
    if stored:
        for child_id, settings in children.items():
            owner = matches.owners.get(child_id)
            if owner is not None:  # loaded before the conversion: its record follows
                owner.record = replace(owner.record, settings=settings)
        log.info("season %s: converted from the old season engine (%s)", season_id,
                 old.record.get("stage"))
    return stored


async def convert_all(matches: Matches) -> None:
    """Every old season not converted yet, one at a time. One that
    cannot be converted is quarantined (503 naming why) and the others go on; the database
    being down leaves the rest for the next start."""
    try:
        pending = await matches.store.unconverted_seasons()
    except Exception as exc:
        log.error("listing the seasons the old season engine stored failed (%s); the next "
                  "start tries again", exc)
        return
    done = 0
    for season_id in pending:
        try:
            done += await convert(matches, season_id)
        except StoreUnavailable:
            log.error("the database went away while converting old seasons; the next start "
                      "tries again")
            break
        except DamagedRow as exc:
            matches.quarantine(season_id, quarantine_reason(exc.reason))
        except (RuleError, KeyError, TypeError, ValueError, AttributeError) as exc:
            why = str(exc) if isinstance(exc, RuleError) else f"{type(exc).__name__}: {exc}"
            matches.quarantine(season_id, quarantine_reason(why[:300]))
        except Exception as exc:  # one season's trouble must not stop the others
            log.exception("season %s: converting it failed", season_id)
            matches.quarantine(season_id, quarantine_reason(type(exc).__name__))
        await asyncio.sleep(0)
    if done:
        log.info("%d seasons the old season engine stored are season matches now", done)


class AfterConversion:
    """Requests for a match or a season wait while the start-up converts old seasons (it
    runs in the background, like the resume), so an old link is never refused for a moment."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") \
                and str(scope.get("path", "")).startswith(GATED):
            matches = getattr(scope["app"].state, "matches", None)
            if matches is not None:
                await matches.converted()
        await self.app(scope, receive, send)
