"""G-11 bot pace: at ``bot_pace: "human"`` a bot waits a time drawn from the match's chance
(scaled like the match's clocks, at most 60 % of the phase or of its own window) and is
charged that time; a seat facing a bot never loses a point to machine speed (Lockmaker's
"faster" point, LM-19, and its countersolve window, LM-17); ``arena simulate`` keeps bots
instant.

No test here times the machine. The wait is a pure function of the match
(:func:`~arena.server.pace.human_wait`), checked over many draws; the scheduling runs a
match owner on a simulated clock (:class:`~arena.core.clock.ManualClock`): :func:`drive` does
what the owner's scheduler loop does, except that instead of sleeping it moves the clock to
the next moment anyone acts at (a deadline, a bot's drawn moment, the scripted human's
move), so every offset below is exact whatever the load. One test on a live server checks
the wiring on the wall clock, asserting only what load cannot change: a bot never acts
before its drawn moment nor outside its phase, and is charged what it waited.

Offsets are read from the match's log: the ``t`` of each bot ``submit`` minus the ``t`` of
the ``phase_started`` it answers (shifted by any resume).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core import rng as rngmod
from arena.core.clock import ManualClock
from arena.core.driver import BotMove, bot_think, simulate
from arena.core.game import BotLevel, Game
from arena.core.match import INPUT_KINDS, Match, MatchSettings
from arena.games.lockmaker import GAME as LOCKMAKER
from arena.games.lockmaker.bot import cached_solve, solution_text
from arena.games.lockmaker.notation import replay
from arena.games.lockmaker.position import Position
from arena.server import thinkers
from arena.server.owner import MatchOwner
from arena.server.pace import BOT_SHARE, human_wait
from arena.store import MatchRecord, Store
from arena.store.asyncstore import AsyncStore
from core.toygames import WAIT
from server.serverproc import ServerProcess
from toygame import TOY, ToyGame

T0 = 1_000_000.0
"""Where every simulated clock starts (any moment would do)."""

HUMAN_BOTS = [{"name": "Bot A", "bot": True}, {"name": "Bot B", "bot": True}]

TOY_SCALE = 0.2  # the toy's think time is the default 3-9 s: 0.6-1.8 s here
TOY_RANGE = TOY.bot_think_time(TOY.initial_state(TOY.default_config(), random.Random(0)), 0)
EXACT = 1e-6
"""Simulated offsets are exact up to float rounding (a phase start plus a wait, minus it)."""


# ----------------------------------------------------------------------------- helpers
@dataclass(frozen=True)
class BotAct:
    """One bot decision as the host's log shows it."""

    phase_no: int
    phase: str
    seat: int
    offset: float  # seconds from the phase start to the submit
    limit: float  # the phase's time limit, in seconds from its start
    charged: float  # the ``at`` the engine stamped on the accepted submission


def bot_acts(log: list[dict[str, Any]]) -> list[BotAct]:
    """The bots' submissions in ``log`` (entries as JSON), each against its phase's start
    and deadline, both as a resume shifted them."""
    acts: list[BotAct] = []
    phase: dict[str, Any] = {}
    start = deadline = 0.0
    submitted: dict[int, float] = {}
    for e in log:
        d = e["data"]
        if e["kind"] == "phase_started":
            phase, start, deadline, submitted = d, e["t"], d["deadline"], {}
        elif e["kind"] == "resume":
            start, deadline = start + d["shifted"], d["deadline"]
        elif e["kind"] == "submit" and d.get("bot"):
            submitted[d["seat"]] = e["t"]
        elif e["kind"] == "accepted" and d["seat"] in submitted:
            t = submitted.pop(d["seat"])
            acts.append(BotAct(phase["no"], phase["name"], d["seat"], t - start,
                               deadline - start, d["at"]))
    return acts


def drawn(seed: int, phase_no: int, seat: int, low: float, high: float, scale: float,
          limit: float) -> float:
    """The owner's draw, recomputed here: the match's chance alone decides it (G-7)."""
    wait = rngmod.derive(seed, "pace", phase_no, seat).uniform(low, high) * scale
    return min(wait, BOT_SHARE * limit)


async def inline_think(game: Game[Any, Any], seed: int, state: Any, phase_no: int,
                       seats: Collection[int],
                       levels: Mapping[int, BotLevel] | None = None) -> list[BotMove]:
    """The bots decide on the test's own thread: :func:`bot_think` is what a worker runs."""
    return bot_think(game, seed, game.bot_state(state), phase_no, sorted(seats),
                     {s: levels[s] for s in seats if levels and s in levels})


@pytest.fixture(autouse=True)
def bots_think_inline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(thinkers, "think", inline_think)


@dataclass
class Sim:
    """One match run by a real :class:`MatchOwner` on a simulated clock."""

    clock: ManualClock
    owner: MatchOwner
    store: Store

    @property
    def match(self) -> Match:
        return self.owner.match

    def log(self) -> list[dict[str, Any]]:
        return [e.to_json() for e in self.match.log]

    def acts(self) -> list[BotAct]:
        return bot_acts(self.log())

    def restarted(self) -> Sim:
        """The server killed now and started again: the decided but not yet due bot moves
        (never stored) are lost, and the match is rebuilt from its stored inputs, as the
        server's resume does, on the same clock."""
        record = self.owner.record
        stored = self.store.events(record.id)
        m = self.match
        match = Match.replay(m.game, m.config, m.seed, m.settings, record.start,
                             [e for e in stored if e.kind in INPUT_KINDS], self.clock,
                             names=record.seat_names)
        owner = MatchOwner(record, match, AsyncStore(self.store), stored[-1].version)
        return Sim(self.clock, owner, self.store)


Human = Callable[[Match], tuple[float, Callable[[Match], object]] | None]
"""A scripted human: the moment of its next move in the match as it stands, and the move."""


@pytest.fixture
def sims(tmp_path: Path) -> Iterator[Callable[..., Sim]]:
    """Makes matches like the server's ``create`` (seat names, bots, settings), each with its
    own simulated clock and database."""
    stores: list[Store] = []

    def make(game: Game[Any, Any], seats: list[dict[str, Any]], seed: int, *, scale: float,
             pace: Literal["human", "instant"] = "human", config: dict[str, Any] | None = None) -> Sim:
        store = Store(f"sqlite:///{tmp_path / f'pace{len(stores)}.db'}")
        stores.append(store)
        clock = ManualClock(T0)
        settings = MatchSettings(bot_pace=pace, time_scale=scale)
        names = [s["name"] for s in seats]
        match = Match(game, game.make_config(config or {}), seed, clock, settings, start=T0,
                      names=names)
        record = MatchRecord(id=f"m{len(stores)}", game=game.name, config=config or {},
                             seed=seed, settings=settings.to_json(), start=T0,
                             seat_names=tuple(names), bots=tuple(s["bot"] for s in seats),
                             created=T0)
        store.create_match(record, [])
        return Sim(clock, MatchOwner(record, match, AsyncStore(store), persisted=0), store)

    yield make
    for store in stores:
        store.close()


async def drive(sim: Sim, *, until: float | None = None, human: Human | None = None) -> None:
    """Run the owner's scheduler as its loop does, on simulated time: a step (deadlines
    due, bot moves due, decisions), again at once while a bot is still to decide; then,
    where the loop would sleep, the clock jumps to the earliest moment anyone acts at (the
    scheduler's own :meth:`MatchOwner.next_moment`, or the human's next move, which goes
    in as a command). Returns when the match ends, or with the clock at ``until`` when
    nothing happens before it (a paused match has no moment at all)."""
    owner, clock = sim.owner, sim.clock
    for _ in range(1000):
        await owner._step()
        if owner.match.finished:
            return
        if owner._bots_pending():
            continue
        ours = owner.next_moment()
        theirs = human(owner.match) if human is not None else None
        moment = theirs[0] if theirs is not None and (ours is None or theirs[0] < ours) else ours
        if until is not None and (moment is None or moment > until):
            clock.set(max(clock.now(), until))
            return
        assert moment is not None, "the match waits for a command nobody sends"
        clock.set(max(clock.now(), moment))
        if theirs is not None and moment == theirs[0]:
            await owner.command(theirs[1])
    raise AssertionError("the match did not end in 1,000 scheduler steps")


def run(sim: Sim, *, human: Human | None = None) -> list[BotAct]:
    """Play the match to its end on its simulated clock; the bots' decisions."""
    asyncio.run(drive(sim, human=human))
    assert sim.match.finished
    return sim.acts()


# ----------------------------------------------------------------------------- the wait
def toy_at_phase(seed: int, scale: float, study: float) -> Match:
    return Match(TOY, TOY.make_config({"study": study}), seed, ManualClock(T0),
                 MatchSettings(bot_pace="human", time_scale=scale), start=T0)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), seat=st.sampled_from([0, 1]),
       scale=st.floats(0.05, 4.0), study=st.floats(1.0, 600.0))
def test_the_wait_is_a_share_of_the_phase_drawn_from_the_match_chance(
        seed: int, seat: int, scale: float, study: float) -> None:
    """G-11: the drawn think time (3-9 s for the toy) at the match's time scale, never more
    than 60 % of the phase's limit; the match's chance alone decides it (G-7), so the same
    match draws the same wait again, and the wait does not depend on the clock."""
    m = toy_at_phase(seed, scale, study)
    move = BotMove(m.phase_no, seat, "ready")
    limit = m.deadline - m.phase_start
    assert limit == pytest.approx(study * scale)
    wait = human_wait(m, move, m.state)
    low, high = TOY_RANGE
    assert 0.0 < wait <= BOT_SHARE * limit + EXACT
    assert wait <= high * scale + EXACT
    assert wait >= min(low * scale, BOT_SHARE * limit) - EXACT  # seconds, never at once
    assert wait == pytest.approx(drawn(seed, m.phase_no, seat, low, high, scale, limit))
    assert human_wait(toy_at_phase(seed, scale, study), move, m.state) == wait
    m.clock.advance(limit / 2)  # type: ignore[attr-defined]
    assert human_wait(m, move, m.state) == wait


def test_the_wait_scales_with_the_match_clocks() -> None:
    """A phase twice as long (time scale 2) gives a bot twice the wait, the same draw."""
    low, high = TOY_RANGE
    for seed in range(40):
        m1, m2 = toy_at_phase(seed, 1.0, 600.0), toy_at_phase(seed, 2.0, 600.0)
        move = BotMove(m1.phase_no, 0, "ready")
        one = human_wait(m1, move, m1.state)
        assert low <= one <= high
        assert human_wait(m2, move, m2.state) == pytest.approx(2 * one)


def test_the_waits_spread_over_the_think_time_range() -> None:
    """Different matches, phases and seats draw different waits over the whole range
    (a constant wait would pass the bounds above)."""
    low, high = TOY_RANGE
    waits = []
    for seed in range(60):
        m = toy_at_phase(seed, 1.0, 600.0)
        waits += [human_wait(m, BotMove(no, seat, "ready"), m.state)
                  for no in (1, 2) for seat in (0, 1)]
    assert len(set(waits)) == len(waits)
    assert min(waits) < low + 0.5 and max(waits) > high - 0.5


class OwnWindowToy(ToyGame):
    """The toy with a seat window inside the phase, as Lockmaker's countersolves have."""

    name = "ownwindow"
    window = 2.0

    def bot_time_limit(self, state: Any, seat: int) -> float | None:
        return self.window if seat == 1 else None


def test_the_wait_keeps_inside_the_seats_own_window() -> None:
    """A seat whose own window ends before the phase does waits at most 60 % of that
    window; the other seat keeps the phase's limit."""
    game = OwnWindowToy()
    for seed in range(20):
        m = Match(game, game.make_config({}), seed, ManualClock(T0),
                  MatchSettings(bot_pace="human"), start=T0)
        own = human_wait(m, BotMove(m.phase_no, 1, "ready"), m.state)
        assert own <= BOT_SHARE * game.window + EXACT
        other = human_wait(m, BotMove(m.phase_no, 0, "ready"), m.state)
        assert TOY_RANGE[0] <= other <= TOY_RANGE[1]


def test_a_phase_with_no_time_limit_caps_no_wait() -> None:
    """A phase with no time limit gives no cap: the bot waits its whole drawn think time."""
    low, high = TOY_RANGE  # the waiting toy keeps the default think time too
    for seed in range(20):
        m = Match(WAIT, WAIT.make_config({}), seed, ManualClock(T0),
                  MatchSettings(bot_pace="human", time_scale=2.0), start=T0)
        assert m.deadline is None
        wait = human_wait(m, BotMove(m.phase_no, 0, "ready"), m.state)
        draw = rngmod.derive(seed, "pace", m.phase_no, 0).uniform(low, high)
        assert wait == pytest.approx(draw * 2.0)


def test_the_scheduler_idles_with_no_timer_in_a_phase_with_no_time_limit(
        sims: Callable[..., Sim]) -> None:
    """Once its bots have passed (at their drawn moments: the toy's bots say nothing while
    waiting), the owner has no moment to wake at (its loop waits for a command with no
    timer) and no step, however late, changes the match; the host's act starts the timed
    pick, which the bots play as ever, and the next wait idles again. The stored log, act
    included, rebuilds the same match after a restart."""
    sim = sims(WAIT, HUMAN_BOTS, 7, scale=TOY_SCALE)

    async def scenario() -> None:
        owner = sim.owner
        await drive(sim, until=T0 + 3600.0)
        assert not owner._bots_pending() and not owner.pending
        assert owner.next_moment() is None
        version = sim.match.version
        assert not [e for e in sim.match.log if e.kind == "submit"]
        sim.clock.advance(366 * 86400.0)
        await owner._step()
        assert sim.match.version == version and owner.next_moment() is None
        assert sim.match.spec is not None and sim.match.spec.name == "wait"
        await owner.command(lambda m: m.act("go", {"n": 2}, "host"))
        assert owner.next_moment() is not None
        await drive(sim, until=sim.clock.now() + 3600.0)
        assert sim.match.spec is not None and sim.match.spec.name == "wait"
        assert sim.match.phase_no == 3 and owner.next_moment() is None

    asyncio.run(scenario())
    bots = [e for e in sim.match.log if e.kind == "submit" and e.data["bot"]]
    assert len(bots) == 2
    stored = sim.store.events(sim.owner.record.id)
    assert [e.to for e in stored if e.kind == "act"] == [frozenset()]
    assert sim.restarted().match.snapshot() == sim.match.snapshot()


# ----------------------------------------------------------------------------- toy game
def test_human_pace_bots_take_seconds_per_decision_within_the_phase(
        sims: Callable[..., Sim]) -> None:
    """Each bot acts exactly at its drawn moment of the phase (seconds, not at once), inside
    the phase, in the order of the draws, and is charged its wait."""
    sim = sims(TOY, HUMAN_BOTS, 11, scale=TOY_SCALE, config={"rounds": 1})
    acts = run(sim)
    assert len(acts) == 4  # two seats, study and one pick
    low, high = TOY_RANGE
    for a in acts:
        expected = drawn(11, a.phase_no, a.seat, low, high, TOY_SCALE, a.limit)
        assert a.offset == pytest.approx(expected, abs=EXACT), a
        assert low * TOY_SCALE - EXACT <= a.offset <= high * TOY_SCALE + EXACT, a
        assert a.offset < a.limit, a  # never late for its own phase
        assert a.charged == pytest.approx(a.offset, abs=EXACT), a  # G-11: charged its wait
    for no in {a.phase_no for a in acts}:
        offsets = [a.offset for a in acts if a.phase_no == no]  # in the log's order
        assert offsets == sorted(offsets)


def test_instant_bots_act_at_the_phase_start(sims: Callable[..., Sim]) -> None:
    """``bot_pace: "instant"`` never waits: every bot acts at its phase's first moment."""
    sim = sims(TOY, HUMAN_BOTS, 11, scale=TOY_SCALE, pace="instant", config={"rounds": 1})
    acts = run(sim)
    assert len(acts) == 4
    assert all(a.offset == 0.0 and a.charged == 0.0 for a in acts), acts


def test_the_wait_is_drawn_from_the_match_chance(sims: Callable[..., Sim]) -> None:
    """G-7: the same seed gives the same waits; another seed others."""
    runs = [run(sims(TOY, HUMAN_BOTS, seed, scale=TOY_SCALE, config={"rounds": 1}))
            for seed in (21, 21, 22)]
    keyed = [{(a.phase_no, a.seat): a.offset for a in acts} for acts in runs]
    assert keyed[0] == keyed[1]
    assert keyed[0].keys() == keyed[2].keys()
    assert max(abs(keyed[0][k] - keyed[2][k]) for k in keyed[0]) > 0.1


def test_a_pause_holds_a_waiting_bot_and_its_wait_resumes_with_the_phase(
        sims: Callable[..., Sim]) -> None:
    """A bot whose drawn moment passes while the host has paused does not try to act in the
    pause (which the engine refuses, and the bot would lose its turn); after the resume it
    acts at its drawn offset of the phase, which the pause shifted like every clock."""
    seed = 31
    sim = sims(TOY, HUMAN_BOTS, seed, scale=TOY_SCALE, config={"rounds": 1})
    low, high = TOY_RANGE

    async def scenario() -> None:
        await drive(sim, until=T0 + 0.1)  # both bots decided, neither due yet
        assert sim.owner.pending and not sim.acts()
        paused = sim.clock.now()
        await sim.owner.command(lambda m: m.pause())
        await drive(sim, until=paused + 100.0)  # far past every drawn moment and deadline
        assert not [e for e in sim.match.log if e.kind == "submit"]
        assert sim.match.paused_at == paused
        await sim.owner.command(lambda m: m.resume())
        await drive(sim)

    asyncio.run(scenario())
    acts = sim.acts()
    assert len(acts) == 4
    for a in acts:
        expected = drawn(seed, a.phase_no, a.seat, low, high, TOY_SCALE, a.limit)
        assert a.offset == pytest.approx(expected, abs=EXACT), (a, expected)
        assert a.charged == pytest.approx(a.offset, abs=EXACT), a
    resumed = next(e for e in sim.match.log if e.kind == "resume")
    study = [e for e in sim.match.log if e.kind == "submit"][:2]
    assert all(e.t > resumed.t for e in study)  # after the resume, never in the pause


def test_a_restart_keeps_a_waiting_bot_to_its_drawn_moment(sims: Callable[..., Sim]) -> None:
    """A bot move decided but not yet due is not stored (only inputs are): the restarted
    server decides it again and draws the same wait from the match's chance, so the bot still
    acts at its drawn offset of the phase, neither at once nor a whole wait later."""
    seed, scale = 34, 1.0  # seed 34 draws 8.2 s and 8.9 s for the study
    sim = sims(TOY, HUMAN_BOTS, seed, scale=scale)
    low, high = TOY_RANGE

    async def scenario() -> Sim:
        await drive(sim, until=T0 + 0.3)
        assert sorted(sim.owner.pending) == [0, 1]  # decided, waiting for their moments
        again = sim.restarted()  # 0.3 s into the study
        assert not again.owner.pending
        await drive(again, until=T0 + 20.0)
        return again

    again = asyncio.run(scenario())
    acts = again.acts()
    assert [a.phase for a in acts[:2]] == ["study", "study"]
    for a in acts[:2]:
        expected = drawn(seed, a.phase_no, a.seat, low, high, scale, a.limit)
        assert expected > 8.0
        assert a.offset == pytest.approx(expected, abs=EXACT), (a, expected)


# ----------------------------------------------------------------------------- Lockmaker
HUMAN_VS_BOT = [{"name": "Ann", "bot": False}, {"name": "Bot", "bot": True}]
LM_ROUND = "......\n......\n......\npieces: H2,V2\n"
LM_LOCKS = {"H2": "......\naa....\n.KK..@\n", "V2": "......\na.....\naKK..@\n"}
"""The human's lock for the piece the bot leaves it (one move each: K R2)."""
LM_CONFIG = {"setup": LM_ROUND, "rounds": 1, "study": 10, "draft_turn": 10, "build": 60,
             "decide": 30}
"""One tiny round; short study, draft and build (the bot's wait is capped at 60 % of each);
the solve phase keeps its 300 s so the bot's 40-150 s solve draw fits whole."""
HUMAN_DELAY = 2.0
"""Seconds the scripted human takes over each of its moves (quicker than any bot draw)."""


def padded(lock: Position, answer: str) -> str:
    """``answer`` with the key moved there and back first: two moves more, still solving."""
    for there, back in ("LR", "RL", "UD", "DU"):
        text = f"K {there}1, K {back}1, {answer}"
        rep = replay(lock, text)
        if rep.error is None and rep.final.solved:
            return text
    raise AssertionError(f"no padding for {answer!r}")


class LockmakerHuman:
    """Seat 1 played :data:`HUMAN_DELAY` into each phase it acts in: ready, take what is
    left, build a one-move lock, solve the bot's lock (the solver gives the answer),
    countersolve its own lock."""

    def __init__(self, *, pad: bool = False) -> None:
        """``pad``: solve the bot's lock in two moves more than needed (the key there and
        back first), so the bot has a countersolve in fewer moves to make (LM-17)."""
        self.pad = pad
        self.done: set[int] = set()
        self.hand = ""

    def __call__(self, m: Match) -> tuple[float, Callable[[Match], object]] | None:
        spec = m.spec
        if spec is None or m.phase_no in self.done or 0 not in spec.must | spec.may:
            return None
        return m.phase_start + HUMAN_DELAY, self.act

    def act(self, m: Match) -> None:
        assert m.spec is not None
        no, name = m.phase_no, m.spec.name
        self.done.add(no)
        log = [e.to_json() for e in m.log]
        if name == "study":
            text = "ready"
        elif name == "draft":
            taken = [p for e in log if e["kind"] == "drafted" for p in e["data"]["took"]]
            self.hand = next(p for p in ("H2", "V2") if p not in taken)
            text = self.hand
        elif name == "build":
            text = LM_LOCKS[self.hand]
        elif name == "solve":
            lock = m.state.locks[1]  # the bot's lock, shown to both seats now (LM-16)
            assert lock is not None
            answer = solution_text(lock, cached_solve(lock, 100_000))
            text = padded(lock, answer) if self.pad else answer
        elif name == "decide":
            text = "countersolve"
        elif name == "counter":
            text = "K R2"
        else:
            raise AssertionError(f"the script has no move for {name}")
        m.submit(0, text, final=True, phase=no)


def test_lockmaker_human_faster_than_the_bots_drawn_solve_time_gets_the_point(
        sims: Callable[..., Sim]) -> None:
    """LM-19's "faster" point and LM-17's countersolve window against a human-pace bot: the
    bot's solve time is its drawn wait, so a human quicker than that takes the point, and the
    human's countersolve window lasts as long as the bot's (drawn) solve time."""
    seed = 11  # draws 47.8 s for the bot's solve (phase 5)
    sim = sims(LOCKMAKER, HUMAN_VS_BOT, seed, scale=1.0, config=LM_CONFIG)
    acts = {a.phase: a for a in run(sim, human=LockmakerHuman())}
    log = sim.log()
    phases = {e["data"]["name"]: e for e in log if e["kind"] == "phase_started"}
    solve = acts["solve"]
    low, high = 40.0, 150.0  # Lockmaker's solve think time (G-11)
    expected = drawn(seed, solve.phase_no, 1, low, high, 1.0, solve.limit)
    assert low <= expected <= high
    assert solve.offset == pytest.approx(expected, abs=EXACT), (solve, expected)
    # The human's solution and the bot's, as the seats' times (LM-16).
    announced = next(e for e in log if e["kind"] == "solutions_announced")["data"]
    human_time, bot_time = announced["seat_1"]["time"], announced["seat_2"]["time"]
    assert human_time == pytest.approx(HUMAN_DELAY, abs=EXACT)
    assert bot_time == pytest.approx(solve.offset, abs=EXACT)  # charged its wait (G-11)
    assert human_time < bot_time
    scored = next(e for e in log if e["kind"] == "round_scored")["data"]
    awards = [(a["seat"], a["why"], a["points"], a["rule"]) for a in scored["awards"]]
    assert (0, "faster", 1, "LM-19") in awards  # Ann solved faster
    # LM-17: the human's countersolve window is the bot's solve time, as against a human.
    counter = phases["counter"]
    window = counter["data"]["deadline"] - counter["t"]
    assert window == pytest.approx(bot_time, abs=EXACT)
    countersolved = [e["data"] for e in log if e["kind"] == "countersolved"]
    assert {"seat": 0, "solved": True, "moves": 1} in countersolved
    # Every bot decision waited and stayed inside its phase.
    for a in acts.values():
        assert 0.0 < a.offset < a.limit, a
        assert a.charged == pytest.approx(a.offset, abs=EXACT), a


def test_lockmaker_bot_countersolves_inside_its_own_window(sims: Callable[..., Sim]) -> None:
    """LM-17: both makers countersolve in one phase as long as the longer window; the bot's
    pace is capped by its own window (the human's quick solve), not the phase's, so its
    countersolve lands in time and scores as a human's would."""
    seed = 11
    sim = sims(LOCKMAKER, HUMAN_VS_BOT, seed, scale=1.0, config=LM_CONFIG)
    acts = run(sim, human=LockmakerHuman(pad=True))
    log = sim.log()
    announced = next(e for e in log if e["kind"] == "solutions_announced")["data"]
    human_time, bot_time = announced["seat_1"]["time"], announced["seat_2"]["time"]
    decided = next(e for e in log if e["kind"] == "countersolve_decisions")["data"]
    assert decided == {"seat_1": True, "seat_2": True}
    counter = next(a for a in acts if a.phase == "counter")
    bot_window = max(human_time, LOCKMAKER.default_config().min_counter)
    assert counter.limit == pytest.approx(max(bot_window, bot_time), abs=EXACT)
    assert counter.offset <= BOT_SHARE * bot_window + EXACT, (counter, bot_window)
    low, high = 30.0, 120.0  # Lockmaker's countersolve think time
    expected = drawn(seed, counter.phase_no, 1, low, high, 1.0, bot_window)
    assert counter.offset == pytest.approx(expected, abs=EXACT), (counter, expected)
    countersolved = {e["data"]["seat"]: e["data"] for e in log if e["kind"] == "countersolved"}
    assert countersolved[1]["solved"] and countersolved[0]["solved"]
    scored = next(e for e in log if e["kind"] == "round_scored")["data"]
    awards = [(a["seat"], a["why"], a["points"], a["rule"]) for a in scored["awards"]]
    assert (1, "counter_fewer", 1, "LM-17") in awards  # the bot countersolved in fewer moves


# ----------------------------------------------------------------------------- live server
def test_a_live_server_paces_its_bots_on_the_wall_clock(tmp_path: Path) -> None:
    """The wiring, end to end (the API's settings, the owner's timer, the bot workers): on
    the wall clock a bot may be late on a loaded machine, so this asserts only what lateness
    cannot change. Each bot acts no earlier than its drawn moment and inside its phase (the
    phases here are long, and close early once both bots are done), and is charged exactly
    the offset the server stamped."""
    seed = 11
    proc = ServerProcess(f"sqlite:///{tmp_path / 'pace.db'}", tmp_path / "server.log").start()
    try:
        created: dict[str, Any] = proc.create(
            "toy", seats=HUMAN_BOTS, seed=seed, config={"rounds": 1, "study": 600, "pick": 300},
            settings={"bot_pace": "human", "time_scale": TOY_SCALE})
        url = f"{proc.url}/api/matches/{created['id']}"
        # Not a bound on the pace: the match must end; the suite's timeout guards a hang.
        while proc.http.get(url).json()["status"] != "finished":
            time.sleep(0.1)
        r = proc.http.get(f"{url}/events", params={"token": created["tokens"]["host"]})
        assert r.status_code == 200, r.text
        acts = bot_acts(r.json()["events"])
    finally:
        proc.stop()
    assert len(acts) == 4
    low, high = TOY_RANGE
    for a in acts:
        expected = drawn(seed, a.phase_no, a.seat, low, high, TOY_SCALE, a.limit)
        assert a.offset >= expected - 0.01, (a, expected)  # never early
        assert a.offset < a.limit, a
        assert a.charged == pytest.approx(a.offset, abs=EXACT), a


# ----------------------------------------------------------------------------- simulate
def test_simulate_keeps_bots_instant(monkeypatch: pytest.MonkeyPatch) -> None:
    """G-11: a simulation never waits, even with settings that say "human": no sleep, and
    every bot acts at its phase's first moment on the simulated clock."""
    def no_sleep(*_: object) -> None:
        raise AssertionError("a simulation slept")

    monkeypatch.setattr(time, "sleep", no_sleep)
    match = simulate(TOY, 3, settings=MatchSettings(bot_pace="human"))
    assert match.finished
    ats = [e.data["at"] for e in match.log if e.kind == "accepted"]
    assert ats and all(at == 0.0 for at in ats)


def test_simulate_command_records_instant_bots(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    import arena.core.driver as driver
    from arena.cli import main

    seen: list[MatchSettings | None] = []
    real = driver.simulate

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(args[3] if len(args) > 3 else kwargs.get("settings"))
        return real(*args, **kwargs)

    monkeypatch.setattr(driver, "simulate", spy)
    assert main(["simulate", "lockedout", "--seed", "3", "--json"]) == 0
    assert seen and seen[0] is not None and seen[0].bot_pace == "instant"
    capsys.readouterr()
