"""Reading a season the old season engine stored, so that it goes on as a match of the core
engine with nothing of it lost (SE-5: the ledger is the season's record).

The old engine kept, with every input, a snapshot of the whole season (``LiveSeason.to_json()``:
the cast, the ledger, each episode's record, the stage it was at). That snapshot is all this
reader needs: the season's ledger is copied entry by entry (so the standings replay to the
same), each episode keeps what it recorded and how, and the old stage becomes the step that
goes on from it. Pure: the server tells it which of the matches the old engine had started it
could not find (``missing``), and it never reads the wall clock, so a replay of the import
act rebuilds the same season.

A snapshot that cannot be read is refused naming what is wrong; the server then leaves the
old season where it is (quarantined) rather than guess.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import Any, NoReturn

from arena.core.errors import RuleError
from arena.core.game import GameEvent
from arena.season.acts import MAX_MM_ROUNDS, MIN_MM_ROUNDS
from arena.season.ledger import Entry
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
    Episode,
    SeasonState,
)
from arena.season.steps import MainResult, gift_targets

STEPS = {"main": MAIN_NEXT, "mm": MM_PLAY, "gift": GIFT, "name_ec": NAME_EC,
         "nominate": NOMINATE, "dm_pick": DM_NEXT, "dm": DM_PLAY, "dm_decide": DM_DECIDE,
         "over": OVER}
"""The old engine's stages and the step each goes on as (the vote was the Main Match's own
then, so no old stage is the season's vote)."""

CLOCKLESS = (MAIN_NEXT, NAME_EC, DM_NEXT, DM_DECIDE)
"""Steps with a clock here that had none in the old engine (or whose clock the host had not
set): imported paused, so no imported season draws a choice on a clock nobody saw run."""

NO_CLOCK_NOTE = ("imported from the old season engine without a deadline: the host resumes "
                 "it to start its clock (SE-7)")


def _fail(why: str) -> NoReturn:
    raise RuleError("SE-5", f"the old season's record cannot be read: {why}")


def _get(data: dict[str, Any], key: str, kind: type, what: str, *,
         optional: bool = False) -> Any:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        _fail(f"{what}'s {key!r} is {value!r}")
    return value


class _Names:
    """Checks that names belong to the cast (or to a Main Match's players)."""

    def __init__(self, cast: Sequence[str]) -> None:
        self.cast = tuple(cast)

    def one(self, data: dict[str, Any], key: str, what: str,
            among: Collection[str] | None = None) -> str | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or value not in (self.cast if among is None else among):
            _fail(f"{what}'s {key!r} names {value!r}, who is not one of its players")
        return value

    def many(self, data: dict[str, Any], key: str, what: str,
             among: Collection[str] | None = None) -> tuple[str, ...]:
        raw = data.get(key)
        if raw is None:
            return ()
        if not isinstance(raw, list):
            _fail(f"{what}'s {key!r} is not a list of names")
        pool = self.cast if among is None else among
        for n in raw:
            if not isinstance(n, str) or n not in pool:
                _fail(f"{what}'s {key!r} names {n!r}, who is not one of its players")
        return tuple(raw)


def _main(raw: Any, names: _Names, players: tuple[str, ...], what: str) -> MainResult | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        _fail(f"{what}'s Main Match result is not an object")
    escaped = names.many(raw, "escaped", what, players)
    trapped = names.many(raw, "trapped", what, players)
    bars_raw = raw.get("bars") or {}
    if not isinstance(bars_raw, dict):
        _fail(f"{what}'s gold bars are not an object")
    bars: dict[str, int] = {}
    for n, b in bars_raw.items():
        if n not in players or isinstance(b, bool) or not isinstance(b, int) or b < 0:
            _fail(f"{what}'s gold bars of {n!r} are {b!r}")
        bars[n] = b
    for n in players:
        bars.setdefault(n, 0)
    return MainResult(escaped, trapped, bars, names.many(raw, "winners", what, escaped),
                      names.one(raw, "opal", what, players), names.one(raw, "ec", what, trapped))


def _episode(raw: Any, number: int, names: _Names) -> Episode:
    what = f"episode {number}"
    if not isinstance(raw, dict):
        _fail(f"{what} is not an object")
    if raw.get("episode") != number:
        _fail(f"{what} is numbered {raw.get('episode')!r}")
    players = names.many(raw, "players", what)
    ep = Episode(number, final=bool(raw.get("final")), players=players)
    main = raw.get("main")
    if main is not None:
        if not isinstance(main, dict):
            _fail(f"{what}'s Main Match is not an object")
        match = _get(main, "match", str, what, optional=True)
        external = bool(main.get("external"))
        ep = replace(ep, mm_external=external, mm_match=None if external else match,
                     mm_key=f"e{number}-mm" if match and not external else None,
                     mm_config={}, main=_main(main.get("result"), names, players, what))
    dm = raw.get("death_match")
    if dm is not None:
        if not isinstance(dm, dict):
            _fail(f"{what}'s Death Match is not an object")
        match = _get(dm, "match", str, what, optional=True)
        external = bool(dm.get("external"))
        seats = names.many(dm, "seats", what)
        ep = replace(ep, dm_game=_get(dm, "game", str, what, optional=True),
                     dm_external=external, dm_match=None if external else match,
                     dm_key=f"e{number}-dm" if match and not external else None,
                     dm_seats=seats, dm_winner=names.one(dm, "winner", what, seats),
                     dm_handed=names.many(dm, "handed_to_bot", what, seats))
    ep = replace(ep, gift=names.one(raw, "gift", what), ec=names.one(raw, "ec", what),
                 dmo=names.one(raw, "dmo", what), eliminated=names.one(raw, "eliminated", what),
                 gift_how=_get(raw, "gift_how", str, what, optional=True),
                 ec_how=_get(raw, "ec_how", str, what, optional=True),
                 dmo_how=_get(raw, "dmo_how", str, what, optional=True))
    if not ep.dm_seats:
        # The old engine showed the Death Match's seats only once it was started or
        # recorded; before that they were the final's two, or the EC and the DMO (SE-4).
        if ep.final and len(players) == 2:
            ep = replace(ep, dm_seats=players)
        elif ep.ec is not None and ep.dmo is not None:
            ep = replace(ep, dm_seats=(ep.ec, ep.dmo))
    note = _get(raw, "note", str, what, optional=True)
    return ep.noted(note) if note else ep


def _step(stage: str, state: SeasonState, missing: Collection[str]) -> SeasonState:
    """The step the old stage goes on as, checked against what that step needs; a match the
    old engine started that cannot be found is started again (or recorded) by the host."""
    step = STEPS[stage]
    ep = state.episode
    need: dict[str, Callable[[Episode], bool]] = {
        GIFT: lambda e: e.main is not None and e.main.solo_winner is not None
        and bool(gift_targets(e.main)) and e.gift is None,
        NOMINATE: lambda e: e.ec is not None and e.dmo is None,
        NAME_EC: lambda e: e.ec is None and bool(e.players),
        DM_NEXT: lambda e: len(e.dm_seats) == 2 and e.eliminated is None,
        DM_PLAY: lambda e: len(e.dm_seats) == 2 and e.eliminated is None,
        DM_DECIDE: lambda e: len(e.dm_seats) == 2 and e.eliminated is None,
        MM_PLAY: lambda e: e.main is None and bool(e.players),
        MAIN_NEXT: lambda e: e.main is None and not e.final,
    }
    check = need.get(step)
    if check is not None and not check(ep):
        _fail(f"its stage {stage!r} does not fit episode {ep.number}'s record")
    if step == MM_PLAY and (ep.mm_match is None or ep.mm_match in missing):
        ep = replace(ep, mm_key=None, mm_match=None, mm_config=None, players=()).noted(
            f"the Main Match the old season engine started ({ep.mm_match or 'no id'}) cannot "
            "be found or read: the host starts it again or records its result by hand (SE-2)")
        step = MAIN_NEXT
    elif step == DM_PLAY and (ep.dm_match is None or ep.dm_match in missing):
        ep = replace(ep, dm_key=None, dm_match=None, dm_game=None).noted(
            f"the Death Match the old season engine started ({ep.dm_match or 'no id'}) cannot "
            "be found or read: the host starts it again or records its result by hand (SE-4)")
        step = DM_NEXT
    return replace(state.with_episode(ep), step=step)


def read(state: SeasonState, record: dict[str, Any], missing: Collection[str],
         events: list[GameEvent]) -> SeasonState:
    """The season ``record`` (the old engine's snapshot) describes, on ``state``'s config and
    seed; the fact that it was imported is appended to ``events``."""
    cast = record.get("cast")
    if cast != list(state.cast):
        _fail(f"its cast {cast!r} is not the season's {list(state.cast)!r}")
    names = _Names(state.cast)
    stage = record.get("stage")
    if stage not in STEPS:
        _fail(f"its stage {stage!r} is none of {', '.join(STEPS)}")
    raw_episodes = record.get("episodes")
    if not isinstance(raw_episodes, list) or not raw_episodes:
        _fail("it has no episodes")
    episodes = tuple(_episode(raw, i + 1, names) for i, raw in enumerate(raw_episodes))
    raw_ledger = record.get("ledger")
    if not isinstance(raw_ledger, list):
        _fail("its ledger is not a list")
    entries: list[Entry] = []
    for i, item in enumerate(raw_ledger):
        try:
            entries.append(Entry.from_json(item))
        except (KeyError, TypeError, ValueError):
            _fail(f"its ledger's entry {i + 1} is {item!r}"[:300])
    mm_rounds = _get(record, "mm_rounds", int, "it", optional=True)
    if mm_rounds is not None and not MIN_MM_ROUNDS <= mm_rounds <= MAX_MM_ROUNDS:
        _fail(f"its Main Match round limit is {mm_rounds}")
    ended = _get(record, "ended", str, "it", optional=True)
    try:
        new = replace(state, episodes=episodes, mm_rounds=mm_rounds,
                      ended=ended if stage == "over" else None).add(*entries)
    except ValueError as exc:
        _fail(f"its ledger is wrong ({exc})")
    _check_standings(record, new)
    new = _step(str(stage), new, missing)
    # SE-1: who played fewest Main Matches plays the next one when more than six are in.
    new = replace(new, mm_played=tuple(
        sum(1 for e in new.episodes if not e.final and name in e.players
            and (e.main is not None or e.mm_key is not None)) for name in new.cast))
    if new.step == OVER and new.ended is None:
        new = replace(new, ended="the season is over")
    timed = record.get("deadline") is not None or record.get("paused_left") is not None
    if new.step in CLOCKLESS and not timed:
        new = new.with_episode(new.episode.noted(NO_CLOCK_NOTE))
    events.append(GameEvent("imported", {"episode": new.episode.number, "step": new.step,
                                         "stage": stage, "ended": new.ended}))
    return new


def _check_standings(record: dict[str, Any], state: SeasonState) -> None:
    """The old snapshot's standings were its ledger replayed (SE-5): the copied ledger must
    replay to the same, or the record is not what it claims."""
    shown = record.get("standings")
    if shown is None:
        return
    mine = [s.to_json() for s in state.ledger.standings().values()]
    if shown != mine:
        _fail("its standings are not what its ledger replays to")
