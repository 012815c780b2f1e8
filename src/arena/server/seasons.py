"""Seasons on the server (SE-1..SE-5): create one from a cast, start its Main Matches and
Death Matches as ordinary matches, read their results back into the season, and let the solo
winner and the EC answer their steps from their own season links, each step on its own clock.

A season is its inputs: every accepted step is stored (append-only, with its version) before it
is answered, and a restarted server replays the inputs with :class:`LiveSeason` to the very
same season. On a shared PostgreSQL (issue 20) every process may serve and watch a season:
each reads the inputs other processes stored before it decides anything, and the unique
version makes each write optimistic: the process that loses the race reads the winner's
input and decides again, so two processes never disagree about a season. A step's deadline that passed while the server was down resolves at its own moment
on the first look after the restart, the way a match's deadline does."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse

from arena.core import rng as rngmod
from arena.core import settings as schema
from arena.core.errors import RuleError
from arena.core.match import MatchSettings
from arena.core.registry import get_game
from arena.season import live as lv
from arena.season.live import LiveSeason
from arena.season.simulate import DEATH_MATCHES, detail_as_it_stands, main_result
from arena.server import announce
from arena.server import api as match_api
from arena.server.access import token_of
from arena.server.damage import contain_match, partly_damaged, tell_once
from arena.server.errors import ApiError
from arena.server.limits import RateLimit, address_key, check_host_entries, limited
from arena.server.matches import Matches
from arena.server.requests import (
    SEASON_HOST_ACTIONS,
    B,
    CloseVault,
    CreateSeason,
    Gift,
    Nominate,
    SeasonInput,
    SeasonPrivate,
    SeasonReissue,
    StartDeath,
    StartMain,
    Webhook,
    parse,
    validate,
)
from arena.server.tasks import stop_task
from arena.store import DamagedRow, SeasonConflict, StoreUnavailable
from arena.store.asyncstore import AsyncStore
from arena.web.pages import error_page
from arena.web.season_page import render_season

log = logging.getLogger("arena.server")

WATCH_EVERY = 0.25
DISCOVER_EVERY = 5.0
"""On a shared database, how often a process looks for running seasons another one created
(so a season's clocks and bots go on when the process that created it dies)."""


STEP_WORDS = {"mm_result": "the Main Match's result", "dm_result": "the Death Match's result",
              "gift": "the Token of Life gift", "nominate": "the nomination"}


def webhook_of(owner: SeasonOwner) -> str | None:
    """The season's webhook (G-14): the host's latest change, else the one it was created
    with."""
    if owner.season.webhook_changed:
        return owner.season.webhook
    url = owner.head.get("webhook")
    return url if isinstance(url, str) else None


def _token() -> str:
    return secrets.token_urlsafe(18)


@dataclass(frozen=True)
class Who:
    """A season link resolved: ``host``, ``player`` (with ``player``) or ``public``."""

    role: str
    player: str | None = None


@dataclass(eq=False)
class SeasonOwner:
    id: str
    head: dict[str, Any]
    season: LiveSeason
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    problem: str | None = None
    """Why the season waits for the host (a match that ended without a usable result), or
    what of its stored record cannot be read; shown on its pages, never a 500 (SE-6)."""
    broken: bool = False
    """The stored inputs could not all be replayed: the season is shown as far as they go and
    accepts nothing more (a new input would not follow the stored ones)."""

    @property
    def version(self) -> int:
        return len(self.season.inputs)


def parse_season(body: CreateSeason | Any
                 ) -> tuple[dict[str, Any], tuple[str, ...], tuple[bool, ...]]:
    """Check a create-season request (its model, or its JSON as a dict) and return the
    season's head (without id and time). The model has checked each field's type and bounds;
    what needs several fields, or the game, is checked here."""
    request = validate(CreateSeason, body)
    cast, bots = lv.check_cast([entry if isinstance(entry, str)
                                else {"name": entry.name, "bot": entry.bot}
                                for entry in request.cast])
    seed_raw = request.seed
    try:
        seed = rngmod.fresh_seed() if seed_raw in (None, "") else rngmod.parse_seed(seed_raw)
    except ValueError as exc:
        raise RuleError("G-7", str(exc)) from None
    settings = request.settings or MatchSettings()
    mm_raw = {} if request.mm_config is None else request.mm_config.model_dump(exclude_unset=True)
    mm_raw.setdefault("max_rounds", lv.DEFAULT_MM_ROUNDS)  # SE-6: a limit by default
    lockedout = get_game("lockedout")
    mm = lockedout.make_config({**mm_raw, "names": list(cast[:6]) if len(cast) >= 3 else []})
    # The season's Main Matches are bounded like any match, checked now (G-5).
    schema.check_match_work(lockedout, mm, settings.time_scale, lockedout.phase_fields)
    # G-5: a step's clock (the gift, the nomination) is scaled like the matches' phases, and
    # held to the same floor of wall-clock time.
    step = request.step_seconds * settings.time_scale
    if step < schema.MIN_PHASE_SECONDS:
        raise RuleError("G-5", f"field 'step_seconds': {request.step_seconds:g} x time scale "
                               f"{settings.time_scale:g} = {step:.4g} s; every step clock must "
                               f"last at least {schema.MIN_PHASE_SECONDS} s of wall-clock time")
    head = {"cast": list(cast), "bots": list(bots), "seed": seed,
            "settings": settings.to_json(), "mm_config": mm_raw, "step_seconds": step}
    webhook = announce.webhook_setting(request.webhook)  # G-14: allowed hosts only
    if webhook is not None:
        head["webhook"] = webhook  # the host's secret: the head is never shown
    return head, cast, bots


def season_quarantine_error(reason: str) -> ApiError:
    """What a request for a quarantined season answers (and its page shows)."""
    return ApiError(503, "", f"this season could not be resumed: {reason}. The rest of the "
                             "server goes on; a restart tries again")


class Seasons:
    """Every season the server knows, and one watcher that feeds finished matches, passed
    deadlines and bots' choices into them."""

    def __init__(self, store: AsyncStore, matches: Matches) -> None:
        self.store = store
        self.matches = matches
        self.owners: dict[str, SeasonOwner] = {}
        self.quarantined: dict[str, str] = {}  # season id -> why it could not be rebuilt
        self._loading = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ lifetime
    async def start(self) -> None:
        for season_id in await self.store.running_seasons():
            try:
                await self.get(season_id)
            except ApiError:
                pass  # quarantined: logged once, the other seasons go on
            except (RuleError, KeyError, ValueError, TypeError) as exc:
                log.error("cannot resume season %s: %s", season_id, exc)
        self._task = asyncio.get_running_loop().create_task(self._watch(), name="seasons")

    async def stop(self) -> None:
        task, self._task = self._task, None
        await stop_task(task)

    async def _watch(self) -> None:
        discovered = time.monotonic()
        while True:
            await asyncio.sleep(WATCH_EVERY)
            if self.matches.cluster and time.monotonic() - discovered > DISCOVER_EVERY:
                discovered = time.monotonic()
                try:
                    running = await self.store.running_seasons()
                except StoreUnavailable:  # the database is down: logged once, by the store
                    running = []
                for season_id in running:
                    with contextlib.suppress(ApiError, RuleError, KeyError, ValueError,
                                             TypeError):
                        await self.get(season_id)
            for owner in list(self.owners.values()):
                if owner.season.stage == lv.OVER:
                    continue
                try:
                    await self.sync(owner)
                except asyncio.CancelledError:
                    raise
                except StoreUnavailable:
                    break  # the database is down: logged once, by the store; tried again later
                except DamagedRow as exc:  # steps another process stored cannot be read
                    if exc.of == "season" and exc.table != "season_tokens":
                        self.quarantine(exc.key, exc.reason)
                    else:
                        tell_once(exc)
                except Exception:  # one season's trouble must not stop the others
                    log.exception("season %s: the watcher failed", owner.id)

    # ------------------------------------------------------------------ loading
    async def create(self, body: Any) -> tuple[SeasonOwner, str, dict[str, str]]:
        head, cast, bots = parse_season(body)
        season_id = secrets.token_hex(6)
        now = time.time()
        head.update({"id": season_id, "created": now})
        season = LiveSeason.new(cast, bots, head["seed"], head["step_seconds"], now)
        host = _token()
        players = {name: _token() for name in cast}
        tokens: list[tuple[str, str, str | None]] = [(host, "host", None)]
        tokens += [(tok, "player", name) for name, tok in players.items()]
        await self.store.create_season(season_id, head, season.to_json(), now, tokens)
        owner = SeasonOwner(season_id, head, season)
        self.owners[season_id] = owner
        if "webhook" in head:  # G-14: held from now on, not only from its first news
            announce.ANNOUNCER.hold(announce.holder("season", season_id), head["webhook"])
        return owner, host, players

    # ------------------------------------------------------------------ quarantine
    def quarantine(self, season_id: str, reason: str) -> ApiError:
        """Keep a season whose stored record cannot be read out of the way, as a match that
        cannot be resumed is (server/matches.py): one log line, every request for it answered
        503 naming the problem, and the other seasons go on; a restart tries again. Returns
        the error to answer."""
        if self.quarantined.get(season_id) != reason:
            self.quarantined[season_id] = reason
            log.error("season %s could not be resumed: %s", season_id, reason)
        self.owners.pop(season_id, None)
        return season_quarantine_error(reason)

    def check_quarantine(self, season_id: str) -> None:
        reason = self.quarantined.get(season_id)
        if reason is not None:
            raise season_quarantine_error(reason)

    def contain(self, damaged: DamagedRow) -> ApiError:
        """A damaged row of a season (server/damage.py): a season not in memory cannot be
        rebuilt without its own row and steps, so it is quarantined; one in memory goes on,
        and a damaged link fails only the request that used it."""
        if damaged.table in ("seasons", "season_entries") and damaged.key not in self.owners:
            return self.quarantine(damaged.key, damaged.reason)
        tell_once(damaged)
        return partly_damaged("season", damaged.reason)

    async def get(self, season_id: str) -> SeasonOwner | None:
        self.check_quarantine(season_id)
        owner = self.owners.get(season_id)
        if owner is not None:
            return owner
        async with self._loading:
            self.check_quarantine(season_id)
            owner = self.owners.get(season_id)
            if owner is not None:
                return owner
            try:
                stored = await self.store.get_season(season_id)
            except DamagedRow as exc:
                raise self.quarantine(season_id, exc.reason) from None
            if stored is None:
                return None
            head, inputs = stored
            try:
                season, problem = LiveSeason.replay_readable(head, inputs)
            except (RuleError, KeyError, TypeError, ValueError) as exc:
                raise self.quarantine(season_id, f"its head cannot be read ({type(exc).__name__}"
                                                 f": {exc})"[:300]) from None
            owner = SeasonOwner(season_id, head, season, problem=problem,
                                broken=problem is not None)
            if problem is not None:
                log.error("season %s: %s", season_id, problem)
            self.owners[season_id] = owner
            return owner

    async def who(self, season_id: str, token: str | None) -> Who:
        if not token:
            return Who("public")
        if len(token) > 128:
            raise ApiError(401, "access", "unknown token")
        found = await self.store.season_token(token)
        if found is None or found[0] != season_id:
            # A replaced link is unknown too: say what a player can do about it (issue 26).
            raise ApiError(403, "access", "this link is not valid for this season: it may "
                                          "have been replaced; ask the host for a new one")
        return Who(found[1], found[2])

    # ------------------------------------------------------------------ changes
    async def _apply(self, owner: SeasonOwner, item: dict[str, Any]) -> None:
        """Apply one input and store it before anything is answered; a refused input (or a
        failed write) leaves the season as the store has it. :class:`SeasonConflict` means
        another process stored this version first: the season has been brought up to the
        store, and the caller decides again."""
        before = list(owner.season.inputs)
        was = owner.season.to_json() if webhook_of(owner) else {}
        try:
            owner.season.apply(item)
            status = "finished" if owner.season.stage == lv.OVER else "running"
            record = owner.season.to_json()
            await self.store.append_season_entry(owner.id, len(owner.season.inputs), item,
                                           record, status)
        except Exception as exc:
            owner.season = LiveSeason.replay(owner.head, before)
            if isinstance(exc, SeasonConflict):
                await self._catch_up(owner)
            raise
        # G-14: the step's public news, once it is stored (queued, never waited for).
        if item.get("kind") not in lv.HIDDEN_INPUTS:
            announce.announce_season(webhook_of(owner), owner.id, was, record)

    async def _catch_up(self, owner: SeasonOwner) -> None:
        """Apply the inputs other processes stored since this one last read (on SQLite there
        is one process, so there are none to read)."""
        if not self.matches.cluster:
            return
        newer = await self.store.season_entries_after(owner.id, owner.version)
        if not newer:
            return
        try:
            for item in newer:
                owner.season.apply(item)
        except Exception:  # stored inputs were accepted once: replay them from the start
            stored = await self.store.get_season(owner.id)
            if stored is not None:
                owner.season = LiveSeason.replay(owner.head, stored[1])

    @staticmethod
    def check_readable(owner: SeasonOwner) -> None:
        if owner.broken:
            raise RuleError("SE-5", f"{owner.problem}: the season takes no new step until its "
                                    "record is repaired")

    async def act(self, owner: SeasonOwner, item: dict[str, Any]) -> None:
        self.check_readable(owner)
        async with owner.lock:
            await self._settle(owner, time.time())
            try:
                await self._apply(owner, item)
            except SeasonConflict:  # decided again on the newer season: accepted or refused
                await self._settle(owner, time.time())
                await self._apply(owner, item)
            await self._settle(owner, time.time())

    async def sync(self, owner: SeasonOwner) -> None:
        async with owner.lock:
            await self._settle(owner, time.time())

    async def _settle(self, owner: SeasonOwner, now: float) -> None:
        """Everything that happens by itself, in order, until nothing more does: a finished
        match's result, a bot's choice, a step's passed deadline. Each is decided on the
        season as stored, so two processes watching it write each step once."""
        if owner.broken:
            return
        await self._catch_up(owner)
        for _ in range(20):
            item = await self._from_match(owner, now) or owner.season.bot_input(now) \
                or owner.season.due(now)
            if item is None:
                game = owner.season.dm_due(now)
                if game is None or owner.season.deadline is None:
                    return
                # SE-7: the host's deadline for starting the Death Match passed: the game is
                # drawn from the season's chance and starts with the season's settings.
                try:
                    await self._start_death(owner, validate(StartDeath, {"game": game}),
                                            owner.season.deadline, by="clock")
                except ApiError:  # another process started it first: read its input
                    await self._catch_up(owner)
                except (RuleError, ValueError) as exc:
                    self._problem(owner, f"the Death Match could not start by itself "
                                         f"({exc}); the host starts it (SE-7)")
                    return
                continue
            try:
                await self._apply(owner, item)
            except SeasonConflict:  # the other process stored it first
                continue
            except StoreUnavailable:
                raise
            except Exception as exc:
                # A step the season made by itself was refused: the host is asked for it
                # (SE-6), and the season page still answers.
                rule, text = (exc.rule, exc.message) if isinstance(exc, RuleError) \
                    else ("SE-6", str(exc))
                if not isinstance(exc, RuleError) and owner.problem is None:
                    log.exception("season %s: a step of its own failed", owner.id)
                self._problem(owner, f"the season could not take its next step "
                                     f"({STEP_WORDS.get(str(item.get('kind')), 'a step')}) by "
                                     f"itself ({rule}: {text}); the host records it by hand "
                                     "(SE-2, SE-4)")
                return

    def _problem(self, owner: SeasonOwner, text: str) -> None:
        """Tell the host (on the season's pages) why the season waits; logged once."""
        if owner.problem != text:
            log.warning("season %s: %s", owner.id, text)
        owner.problem = text

    async def _from_match(self, owner: SeasonOwner, now: float) -> dict[str, Any] | None:
        season, ep = owner.season, owner.season.episode
        match_id = ep.mm_match if season.stage == lv.MM else (
            ep.dm_match if season.stage == lv.DM else None)
        if match_id is None:
            return None
        reason = self.matches.quarantined.get(match_id)
        if reason is None:
            try:
                record = await self.store.get_match(match_id)
            except DamagedRow as exc:  # memory has it whole while the match is live
                record = self.matches.in_memory(match_id)
                if record is None:
                    reason = exc.reason
                    contain_match(self.matches, exc)
        if reason is not None:
            # The match's stored record cannot be read (it is quarantined): the host records
            # its result by hand, and the season goes on.
            self._problem(owner, f"episode {season.episode.number}'s match {match_id} cannot "
                                 f"be read ({reason}): the host records its result by hand "
                                 "with a reason (SE-2, SE-4)")
            return None
        if record is None or record.status != "finished":
            return None
        result = record.result if isinstance(record.result, dict) else {}
        names = list(record.seat_names)
        if season.stage == lv.MM:
            return await self._main_from_match(owner, match_id, result, names, now)
        handed = [n for n, bot in zip(names, record.bots, strict=False)
                  if bot and n in season.cast and not season.is_bot(n)]
        winner = result.get("winner")
        if isinstance(winner, int) and not isinstance(winner, bool) \
                and 0 <= winner < len(names):
            return {"kind": "dm_result", "winner": names[winner], "match": match_id, "t": now,
                    "handed_to_bot": handed}
        how = "a double loss (LM-21)" if result.get("double_loss") else "no winner"
        return {"kind": "dm_result", "draw": True, "match": match_id, "t": now,
                "handed_to_bot": handed,
                "why": f"the Death Match ended with {how}: {result.get('reason', '')}"[:300]}

    async def _main_from_match(self, owner: SeasonOwner, match_id: str, result: dict[str, Any],
                               names: list[str], now: float) -> dict[str, Any] | None:
        """The season's input for a finished Main Match (SE-6): the game's own result when it
        ended by itself; otherwise (the host ended it or closed the vault) the match scored as
        it stood. Where neither can be read, the host is asked to record it by hand."""
        item: dict[str, Any] = {"kind": "mm_result", "match": match_id, "t": now}
        try:
            detail = result.get("detail")
            if not isinstance(detail, dict):
                live = await self.matches.get(match_id)
                if live is None:
                    raise ValueError("the Main Match cannot be loaded")
                detail = detail_as_it_stands(live.match.state)
                item["ended"] = str(result.get("reason") or "ended by the host")[:200]
            item["result"] = lv.main_to_json(main_result(detail, names))
        except (ValueError, KeyError, TypeError, IndexError, AttributeError, RuleError) as exc:
            self._problem(owner, f"episode {owner.season.episode.number}'s Main Match ended "
                                 f"without a result the season can read ({exc}): the host "
                                 "records it by hand with a reason (SE-6, SE-2)")
            return None
        owner.problem = None
        return item

    # ------------------------------------------------------------------ matches
    def _seat(self, owner: SeasonOwner, name: str) -> dict[str, Any]:
        return {"name": name, "bot": owner.season.is_bot(name)}

    @staticmethod
    def mm_rounds(owner: SeasonOwner) -> int:
        """The round limit of the next Main Match (SE-6): the host's latest change, else the
        one the season was created with (a limit by default; an older season without one
        gets the default too)."""
        if owner.season.mm_rounds is not None:
            return owner.season.mm_rounds
        rounds = owner.head.get("mm_config", {}).get("max_rounds", lv.DEFAULT_MM_ROUNDS)
        return int(rounds)

    async def close_vault(self, owner: SeasonOwner) -> None:
        """The host closes the running Main Match's vault now (SE-6): the match ends, and the
        season scores it as it stands under LO-8's host limit."""
        self.check_readable(owner)
        async with owner.lock:
            await self._settle(owner, time.time())
            owner.season.need(lv.MM)
            match_id = owner.season.episode.mm_match
            match = None if match_id is None else await self.matches.get(match_id)
            if match is None:
                raise RuleError("SE-6", "the Main Match cannot be loaded: record its result by "
                                        "hand with a reason (SE-2)")
            if not match.match.finished:
                await match.command(lambda m: m.end(
                    "the host closed the vault now"))
            await self._settle(owner, time.time())

    async def start_main(self, owner: SeasonOwner, body: StartMain) -> str:
        self.check_readable(owner)
        async with owner.lock:
            await self._settle(owner, time.time())
            season = owner.season
            season.need(lv.MAIN)
            players = season.mm_players(None if body.players is None else list(body.players))
            standings = season.ledger.standings()
            number = season.episode.number
            created = await self.matches.create({
                "game": "lockedout",
                # G-12: at least 64 bits (drawn from the season's seed, itself 64 bits
                # from a cryptographic source unless the host gave one).
                "seed": rngmod.derive(season.seed, "mm", number).getrandbits(rngmod.SEED_BITS),
                "seats": [self._seat(owner, n) for n in players],
                "settings": self._match_settings(owner),
                # LO-9's last tiebreak reads the season garnets.
                "config": {**owner.head.get("mm_config", {}),
                           "max_rounds": self.mm_rounds(owner),
                           "garnets": [standings[n].garnets for n in players]},
            })
            match_id = created.owner.record.id
            await self._start(owner, match_id, {"kind": "mm_start", "players": list(players),
                                                "match": match_id, "t": time.time()})
            return match_id

    async def start_death(self, owner: SeasonOwner, body: StartDeath) -> str:
        self.check_readable(owner)
        async with owner.lock:
            await self._settle(owner, time.time())
            return await self._start_death(owner, body, time.time())

    async def _start_death(self, owner: SeasonOwner, body: StartDeath, t: float,
                           by: str | None = None) -> str:
        """Create the episode's Death Match (the caller holds the season's lock). SE-7: it
        takes the options any match takes (time scale, bot pace, the game's settings), over
        the season's (only those given), and they are checked by the same schema as ``POST
        /api/matches``."""
        season = owner.season
        season.need(lv.DM_PICK)
        game = body.game
        config = body.config or {}
        options = {} if body.settings is None else body.settings.model_dump(exclude_unset=True)
        seats = season.episode.dm_seats
        assert seats is not None
        created = await self.matches.create({
            "game": game,
            "seed": rngmod.derive(season.seed, "dm", season.episode.number).getrandbits(
                rngmod.SEED_BITS),  # G-12
            # SE-4: the EC in seat 1, the DMO in seat 2.
            "seats": [self._seat(owner, seats[0]), self._seat(owner, seats[1])],
            "settings": {**self._match_settings(owner), **options},
            "config": config,
        })
        match_id = created.owner.record.id
        item: dict[str, Any] = {"kind": "dm_start", "game": game, "match": match_id, "t": t}
        if options:
            item["settings"] = options
        if by is not None:
            item["by"] = by
        await self._start(owner, match_id, item)
        return match_id

    @staticmethod
    def _match_settings(owner: SeasonOwner) -> dict[str, Any]:
        """A season match's settings: the season's, and its webhook (G-14), so the phases
        and the result of each match are announced where the season's steps are."""
        settings = dict(owner.head["settings"])
        webhook = webhook_of(owner)
        if webhook:
            settings["webhook"] = webhook
        return settings

    async def _start(self, owner: SeasonOwner, match_id: str, item: dict[str, Any]) -> None:
        """Record a match this process has just created as the episode's; if another process
        changed the season meanwhile (the host pressed start on two of them), the match is
        ended unplayed and the host is told to look again."""
        try:
            await self._apply(owner, item)
        except (SeasonConflict, RuleError):
            await self.end_match(match_id, "the season moved on before this match started")
            raise ApiError(409, "season", "the season changed meanwhile (another request was "
                                          "first); reload the season page") from None

    async def end_match(self, match_id: str, reason: str) -> None:
        """End a match of the season that the host replaced by a result recorded by hand."""
        match = await self.matches.get(match_id)
        if match is None or match.match.finished:
            return
        with contextlib.suppress(RuleError):
            await match.command(lambda m: m.end(reason))

    # ------------------------------------------------------------------ views
    async def view(self, request: Request, owner: SeasonOwner, who: Who) -> dict[str, Any]:
        """The season as ``who`` may see it: everything public, plus the viewer's own links
        (a player's seat in each match; for the host every link)."""
        base = str(request.base_url).rstrip("/")
        data = owner.season.to_json()
        data["mm_rounds"] = self.mm_rounds(owner)
        host = who.role == "host"
        mine = who.player if who.role == "player" else None
        # G-10/G-13: the version counts only the inputs this reader may know of, and the
        # private lines are the reader's own channel's (the host's: every channel's).
        data.update({"id": owner.id, "now": time.time(),
                     "version": owner.season.version_for(mine, host=host),
                     "private": owner.season.private_for(None) if host
                     else owner.season.private_for(mine) if mine is not None else [],
                     "problem": owner.problem, "created": owner.head.get("created"),
                     "you": {"role": who.role, "player": who.player}})
        data["death_matches"] = list(DEATH_MATCHES)
        data["game_titles"] = {g: get_game(g).title for g in DEATH_MATCHES}
        data["time_scale"] = owner.head["settings"].get("time_scale", 1.0)  # the DM form's
        for ep in data["episodes"]:
            for key in ("main", "death_match"):
                block = ep.get(key)
                if block and block.get("match"):
                    block["links"] = await self._match_links(base, block["match"], who)
        if who.role == "host":
            data["webhook"] = webhook_of(owner) is not None  # G-14: set or not, never the URL
            data["player_links"] = {p: f"{base}/s/{owner.id}?token={tok}"
                                    for tok, role, p in await self.store.season_tokens(owner.id)
                                    if role == "player" and p is not None}
        return data

    async def _match_links(self, base: str, match_id: str, who: Who) -> dict[str, Any]:
        try:
            record = await self.store.get_match(match_id)
        except DamagedRow as exc:  # that match's problem: the season's page still answers
            return {"problem": str(contain_match(self.matches, exc))}
        if record is None:
            return {}
        page = f"{base}/m/{match_id}?token="
        tokens = await self.store.tokens_for(match_id)
        out: dict[str, Any] = {"status": record.status}
        spectator = next((t.token for t in tokens if t.role == "spectator"), None)
        if spectator is not None and record.settings.get("spectators") is not False:
            out["watch"] = page + spectator
        if who.role == "host":
            host = next((t.token for t in tokens if t.role == "host"), None)
            if host is not None:
                out["host"] = page + host
            out["seats"] = {record.seat_names[t.seat]: page + t.token for t in tokens
                            if t.role == "seat" and t.seat is not None
                            and not record.bots[t.seat]}
        elif who.role == "player" and who.player in record.seat_names:
            seat = record.seat_names.index(who.player)
            mine = next((t.token for t in tokens if t.role == "seat" and t.seat == seat), None)
            if mine is not None:
                out["yours"] = page + mine
        return out


# ---------------------------------------------------------------------- handlers
def seasons_of(request: Request) -> Seasons:
    s: Seasons = request.app.state.seasons
    return s


async def _who(request: Request) -> Who:
    """The request's season link, looked up once per request (the write limit's key and the
    handler both need it, and season links are not cached by the store)."""
    known = getattr(request.state, "season_who", None)
    if isinstance(known, Who):
        return known
    who = await seasons_of(request).who(request.path_params["season_id"], token_of(request))
    request.state.season_who = who
    return who


async def season_key(request: Request) -> str:
    """The write limit's bucket of a season link: the season, the role and the player."""
    who = await _who(request)
    return f"season:{request.path_params['season_id']}:{who.role}:{who.player}"


async def _owner(request: Request) -> tuple[SeasonOwner, Who]:
    seasons = seasons_of(request)
    season_id = request.path_params["season_id"]
    who = await _who(request)
    owner = await seasons.get(season_id)
    if owner is None:
        raise ApiError(404, "access", "no such season")
    return owner, who


@limited(lambda r: match_api.CREATE_LIMIT, address_key)
async def create_season(request: Request) -> JSONResponse:
    body = await parse(CreateSeason, request)
    owner, host, players = await seasons_of(request).create(body)
    await seasons_of(request).sync(owner)
    base = str(request.base_url).rstrip("/")
    page = f"{base}/s/{owner.id}?token="
    return JSONResponse({
        "id": owner.id,
        "links": {"host": page + host, "players": {n: page + t for n, t in players.items()},
                  "public": f"{base}/s/{owner.id}"},
        "tokens": {"host": host, "players": players},
    }, status_code=201)


async def list_seasons(request: Request) -> JSONResponse:
    out = []
    for season_id, status, record in await seasons_of(request).store.list_seasons():
        out.append({"id": season_id, "status": status, "cast": record.get("cast"),
                    "episode": record.get("episode"), "stage": record.get("stage_words"),
                    "winner": record.get("winner")})
    return JSONResponse(out)


async def get_season(request: Request) -> JSONResponse:
    owner, who = await _owner(request)
    seasons = seasons_of(request)
    async with owner.lock:  # no view of an input that is still being stored
        await seasons._settle(owner, time.time())
        return JSONResponse(await seasons.view(request, owner, who))


async def _player_step(request: Request, stage: str, model: type[B], key: str
                       ) -> JSONResponse:
    """A player's own step (SE-3): ``key`` of the ``model`` body is the choice."""
    owner, who = await _owner(request)
    body = await parse(model, request)
    seasons = seasons_of(request)
    await seasons.sync(owner)
    season = owner.season
    if who.role != "player":
        raise ApiError(403, "access", "only the player's own season link answers this step")
    season.need(stage)
    if season.actor() != who.player:
        rule = "SE-3"
        raise RuleError(rule, f"it is {season.actor()}'s step, not {who.player}'s")
    await seasons.act(owner, {"kind": stage, key: getattr(body, key), "by": "player",
                              "t": time.time()})
    return JSONResponse({"ok": True, "version": owner.version})


@limited(lambda r: match_api.STEP_LIMIT, season_key)
async def gift(request: Request) -> JSONResponse:
    return await _player_step(request, lv.GIFT, Gift, "to")


@limited(lambda r: match_api.STEP_LIMIT, season_key)
async def nominate(request: Request) -> JSONResponse:
    return await _player_step(request, lv.NOMINATE, Nominate, "dmo")


@limited(lambda r: match_api.CHAT_LIMIT, season_key)
async def private(request: Request) -> JSONResponse:
    """A line in the host's private channel with one player (G-13 in a season): the host
    names the player; a player writes in its own channel only, once the host has opened it
    by writing first. Nobody else may read or write it."""
    owner, who = await _owner(request)
    body = await parse(SeasonPrivate, request)
    if who.role == "host":
        player, sender = body.player, "host"
    elif who.role == "player" and body.player in (None, who.player):
        player, sender = who.player, "player"
    else:
        raise ApiError(403, "access", "only the host and that player write in their private "
                                      "channel (G-13)")
    seasons = seasons_of(request)
    await seasons.act(owner, {"kind": "private", "player": player, "from": sender,
                              "text": body.text, "t": time.time()})
    return JSONResponse({"ok": True, "version": owner.season.version_for(
        who.player, host=who.role == "host")})


HOST_REPEATS = frozenset({"clock", "adjust", "mm_rounds", "webhook"})
"""Season inputs only the host makes and may make again and again (a clock paused and
resumed, a ledger adjusted); the other host steps move the season on, so its stages bound
them. Past ``limits.HOST_ENTRIES_MAX`` of these, only a resume or the end is taken."""

CAPPED_ACTIONS = frozenset({action for action, model in SEASON_HOST_ACTIONS.items()
                            if issubclass(model, SeasonInput) and model.input_kind in HOST_REPEATS}
                           | {"webhook"})


def _host_limit(request: Request) -> RateLimit:
    """A new player link spends the link budget and a webhook change the webhook budget, as
    on a match; every other season host action spends the host budget."""
    action = request.path_params.get("action")
    if action == "reissue":
        return match_api.LINK_LIMIT
    if action == "webhook":
        return match_api.WEBHOOK_LIMIT
    return match_api.HOST_LIMIT


@limited(_host_limit, season_key)
async def host_action(request: Request) -> JSONResponse:
    owner, who = await _owner(request)
    if who.role != "host":
        raise ApiError(403, "access", "only the season's host link may do this")
    action = request.path_params["action"]
    model = SEASON_HOST_ACTIONS.get(action)
    if model is None:
        raise ApiError(404, "host", f"unknown season action {action!r}")
    if action in CAPPED_ACTIONS:
        made = sum(1 for item in owner.season.inputs if item.get("kind") in HOST_REPEATS)
        check_host_entries(made, action, "season's record")
    body = await parse(model, request)
    seasons = seasons_of(request)
    if isinstance(body, StartMain):
        match_id = await seasons.start_main(owner, body)
        return JSONResponse({"ok": True, "match": match_id, "version": owner.version})
    if isinstance(body, StartDeath):
        match_id = await seasons.start_death(owner, body)
        return JSONResponse({"ok": True, "match": match_id, "version": owner.version})
    if isinstance(body, CloseVault):
        await seasons.close_vault(owner)
        return JSONResponse({"ok": True, "version": owner.version})
    if isinstance(body, Webhook):
        # G-14: set, change or clear where the season's news goes; the same allowlist as at
        # creation. Matches started afterwards announce there too.
        url = announce.webhook_setting(body.url, None if owner.season.stage == lv.OVER
                                       else announce.holder("season", owner.id))
        await seasons.act(owner, {"kind": "webhook", "url": url, "t": time.time()})
        return JSONResponse({"ok": True, "webhook": url is not None, "version": owner.version})
    if isinstance(body, SeasonReissue):
        return JSONResponse(await _reissue(request, owner, body))
    assert isinstance(body, SeasonInput)  # every other action is one input of the season
    if action == "decide":
        owner.season.need(lv.DM_DECIDE)
    ep = owner.season.episode
    playing = ep.mm_match if owner.season.stage == lv.MM else (
        ep.dm_match if owner.season.stage == lv.DM else None)
    running = {"record_main": ep.mm_match if owner.season.stage == lv.MM else None,
               "record_death": ep.dm_match if owner.season.stage == lv.DM else None,
               "end": playing}.get(action)
    await seasons.act(owner, body.season_input(time.time()))
    if running is not None:
        await seasons.end_match(running, "the host ended the season (SE-1)" if action == "end"
                                else "the host recorded this match's result by hand in the "
                                     "season (SE-2, SE-4)")
    return JSONResponse({"ok": True, "version": owner.version})


async def _reissue(request: Request, owner: SeasonOwner, body: SeasonReissue
                   ) -> dict[str, Any]:
    """A cast member's new season link (issue 26 point 3): a player who lost theirs gets it
    again from the host, and the old one stops working at once. A link is a secret of the
    server, not an input of the season, so nothing is added to the season's record."""
    player = body.player
    if player not in owner.season.cast:
        raise ApiError(400, "request", "'player' must be a name of the season's cast (SE-1)")
    token = _token()
    await seasons_of(request).store.replace_season_token(owner.id, player, token)
    base = str(request.base_url).rstrip("/")
    return {"ok": True, "player": player, "link": f"{base}/s/{owner.id}?token={token}"}


async def season_page(request: Request) -> HTMLResponse:
    """``/s/{season_id}``: the page's shell once the link is known good (a bad link gets an
    error page); its script draws the season from the API's view for that link."""
    try:
        owner, who = await _owner(request)
    except ApiError as exc:  # a bad link, or a quarantined season (503 naming why)
        return error_page(exc.status, str(exc))
    del who  # the link is checked here; the page's script reads the view for it
    return render_season(owner.id)
