"""The matches a match starts (a season's Main and Death Matches), kept in step with it.

A parent game names each child it wants in its state (:class:`arena.core.children.ChildSpec`).
After every change of a parent that is stored, and when a parent is rebuilt or taken over,
:meth:`Children.ensure` makes sure each live child exists, is held in memory, and reports its
end back to the parent as the ``match_result`` act. The child's id is the parent's id and the
spec's key, so asking twice (two processes, a crash between two writes) never makes two: the
store refuses the second row and the existing one is used. A child that ended while nobody
held its parent reports when the parent is next ensured, so no crash window loses a result.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from arena.core.clock import SystemClock
from arena.core.errors import RuleError
from arena.core.game import BotLevel, ChildSpec
from arena.core.match import Match, MatchSettings
from arena.core.registry import get_game
from arena.server.creating import new_token
from arena.server.seats import change_seat, new_link
from arena.store import MatchRecord, TokenRecord

if TYPE_CHECKING:
    from arena.server.matches import Matches
    from arena.server.owner import MatchOwner

log = logging.getLogger("arena.children")

CHILD_SETTINGS = ("time_scale", "early_close", "reveal_at_end", "bot_pace", "spectators",
                  "webhook", "news")
"""The parent's settings a child takes over (SE-7: a season's matches run with the season's
settings unless the host set others for a Death Match; G-14: its webhook and news level)."""


def child_id(parent_id: str, key: str) -> str:
    return f"{parent_id}-{key}"


def spec_id(parent_id: str, spec: ChildSpec) -> str:
    """The id of the child ``spec`` names: derived from the parent's, unless the spec names
    one the child had before ids were derived (a season the old season engine stored)."""
    return spec.match_id or child_id(parent_id, spec.key)


def specs(owner: MatchOwner) -> tuple[ChildSpec, ...]:
    return owner.match.game.children(owner.match.state)


class Children:
    """Keeps every live child of this process's parents existing, loaded and reporting."""

    def __init__(self, matches: Matches) -> None:
        self.matches = matches
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.reported: set[str] = set()
        """Children whose result the parent has taken (or refused as already recorded)."""

    # ------------------------------------------------------------------ hooks
    def watch(self, owner: MatchOwner) -> None:
        """Follow ``owner``: ensure its children after each stored change."""
        owner.after_commit = self._soon

    def _soon(self, owner: MatchOwner) -> None:
        self.schedule(owner.record.id)

    def schedule(self, parent_id: str) -> None:
        """Ensure ``parent_id``'s children soon, outside the caller's lock."""
        task = asyncio.get_running_loop().create_task(self.ensure(parent_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ ensuring
    async def ensure(self, parent_id: str) -> None:
        """Every live child of ``parent_id`` exists and is held; a finished one reports."""
        lock = self._locks.setdefault(parent_id, asyncio.Lock())
        async with lock:
            parent = self.matches.owners.get(parent_id)
            if parent is None or parent.mirror or parent.match.finished:
                return  # a finished parent starts nothing and takes no result
            for spec in specs(parent):
                if not spec.live:
                    continue
                try:
                    child = await self._child(parent, spec)
                except RuleError as exc:
                    # The child can never be made (its options no longer hold): the parent
                    # hears it as a result that cannot be read, and its host decides.
                    await self._problem(parent, spec, f"the match could not start: {exc}")
                    continue
                except Exception:  # an outage: the store's return runs the next ensure
                    problem = self.matches.quarantined.get(spec_id(parent_id, spec))
                    if problem is not None:  # it cannot be read: the host records it
                        await self._problem(parent, spec, f"the match cannot be read: "
                                                          f"{problem}")
                        continue
                    log.warning("match %s: child %s not ready yet", parent_id, spec.key,
                                exc_info=True)
                    continue
                if child is None:
                    continue
                child.on_finished = self._finished
                if not self._waits_for(parent, spec.key):
                    await self._end_stale(child)
                elif child.match.finished:
                    await self.report(parent_id, spec.key, child)

    @staticmethod
    def _waits_for(parent: MatchOwner, key: str) -> bool:
        return not parent.match.finished and any(s.key == key and s.live for s in specs(parent))

    @staticmethod
    async def _end_stale(child: MatchOwner) -> None:
        """A child made while its parent moved on (the host recorded its result by hand or
        ended the parent before the child was stored, so nothing could end it then): it
        ends now rather than run for nobody."""
        if child.match.finished:
            return
        with contextlib.suppress(RuleError):
            await child.command(lambda m: m.end("the season no longer waits for this match"))

    async def _child(self, parent: MatchOwner, spec: ChildSpec) -> MatchOwner | None:
        cid = spec_id(parent.record.id, spec)
        owner = await self.matches.get(cid)
        if owner is not None or spec.match_id is not None:
            return owner  # a child the old season engine made is never made again
        record, tokens, match = self.build(parent, spec)
        try:
            await self.matches.store_new(record, tokens, match)
        except Exception:
            # Another process (or an earlier try) stored it first: use that one.
            owner = await self.matches.get(cid)
            if owner is None:
                raise
            return owner
        return self.matches.owners.get(cid)

    def build(self, parent: MatchOwner, spec: ChildSpec
              ) -> tuple[MatchRecord, list[TokenRecord], Match]:
        """A child's record, links and match: its seats are the parent's seats of the spec,
        with their bot flags and levels; its settings the parent's, with the spec's over
        them; it knows its parent (``settings.parent``) so its page links back."""

        prec = parent.record
        game = get_game(spec.game)
        config_raw = dict(spec.config)
        config = game.make_config(config_raw)
        settings_json: dict[str, Any] = {k: v for k, v in prec.settings.items()
                                         if k in CHILD_SETTINGS}
        settings_json.update(spec.settings)
        settings_json["parent"] = {"id": prec.id, "key": spec.key}
        if "name" in prec.settings:  # G-14: its posts name the season
            settings_json["parent"]["name"] = prec.settings["name"]
        settings = MatchSettings.from_json(settings_json)
        bots = tuple(prec.bots[s] if s < len(prec.bots) else False for s in spec.seats)
        levels = tuple(spec.levels[i] if i < len(spec.levels)
                       else (prec.levels[s] if s < len(prec.levels) else "hard")
                       for i, s in enumerate(spec.seats))
        cid = child_id(prec.id, spec.key)
        start = time.time()
        match = Match(game, config, spec.seed, SystemClock(), settings, start=start,
                      names=spec.names)
        record = MatchRecord(id=cid, game=spec.game, config=config_raw, seed=spec.seed,
                             settings=settings_json, start=start, seat_names=spec.names,
                             bots=bots, status="running", created=start, levels=levels)
        tokens = [TokenRecord(new_token(), cid, "seat", i) for i in range(len(spec.seats))]
        tokens += [TokenRecord(new_token(), cid, "spectator"),
                   TokenRecord(new_token(), cid, "host")]
        return record, tokens, match

    # ------------------------------------------------------------------ results
    def _finished(self, child: MatchOwner) -> None:
        parent = child.record.settings.get("parent")
        if not isinstance(parent, dict):
            return
        self.schedule(str(parent.get("id")))

    async def report(self, parent_id: str, key: str, child: MatchOwner) -> None:
        """Hand the child's result to its parent; a refusal (the host recorded it by hand,
        the parent ended) leaves the parent as it is."""
        cid = child.record.id
        if cid in self.reported:
            return
        parent = self.matches.owners.get(parent_id)
        m = child.match
        if parent is None or m.result is None:
            return
        ended = next((str(e.data.get("reason") or "ended by the host")
                      for e in reversed(m.log) if e.kind == "end"), None)
        handed = handed_to_bot(child)
        data = {"key": key, "result": _jsonable(m.result.to_json()), "ended": ended,
                "handed_to_bot": handed}
        with contextlib.suppress(RuleError):  # decided by hand already, or the season is over
            await parent.command(lambda pm: pm.act("match_result", data, "server"))
        self.reported.add(cid)

    async def _problem(self, parent: MatchOwner, spec: ChildSpec, why: str) -> None:
        data = {"key": spec.key, "problem": why[:300]}
        with contextlib.suppress(RuleError):
            await parent.command(lambda pm: pm.act("match_result", data, "server"))

    async def follow_seat(self, parent: MatchOwner, seat: int, *, reissued: bool = False,
                          bot: bool | None = None, level: BotLevel = "hard") -> None:
        """What the host did to ``seat`` of a parent (a new link, a bot or a person in it)
        is done to that player's seat in the running child too: a season's player handed to
        a bot is a bot in the Death Match being played, and a reissued link replaces the
        old one there as well. A child that refuses (already over) is left as it is."""
        for spec in specs(parent):
            if not spec.live or seat not in spec.seats:
                continue
            child = self.matches.owners.get(spec_id(parent.record.id, spec))
            if child is None or child.match.finished or child.mirror:
                continue
            at = spec.seats.index(seat)
            with contextlib.suppress(RuleError):
                if reissued and not child.record.bots[at]:
                    await new_link(self.matches.store, child, at)
                elif bot is not None:
                    await change_seat(self.matches.store, child, at, bot, level)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task


def handed_to_bot(child: MatchOwner) -> list[str]:
    """The players whose seat in ``child`` the host handed to a bot while it ran, and a bot
    still plays: the child's own log says so (its public seat notes), whatever happened to
    their seats in the parent meanwhile."""
    handed = {e.data.get("seat") for e in child.match.log
              if e.kind == "host_note" and e.data.get("what") == "seat" and e.data.get("bot")}
    bots = child.record.bots
    return [name for seat, name in enumerate(child.record.seat_names)
            if seat in handed and seat < len(bots) and bots[seat]]


def _jsonable(value: Any) -> Any:
    """A result as JSON has it (tuples as lists), so the logged act equals its stored copy."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value
