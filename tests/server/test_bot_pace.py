"""G-11 bot pace on a live server: at ``bot_pace: "human"`` a bot waits a time drawn from the
match's chance (scaled like the match's clocks, at most 60 % of the phase) and is charged
that time; a seat facing a bot never loses a point to machine speed (Lockmaker's "faster"
point, LM-19, and its countersolve window, LM-17); ``arena simulate`` keeps bots instant.

Offsets are measured in the host's event log: the ``t`` of each bot ``submit`` minus the ``t``
of the ``phase_started`` it answers, both stamped by the server's own clock.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from arena.core import rng as rngmod
from arena.core.driver import simulate
from arena.core.match import MatchSettings
from arena.games.lockmaker import GAME as LOCKMAKER
from arena.games.lockmaker.bot import cached_solve, solution_text
from arena.games.lockmaker.lockfile import read_lock
from arena.games.lockmaker.notation import replay
from arena.games.lockmaker.position import Position
from server.serverproc import ServerProcess
from toygame import TOY

LATENCY = 1.0  # generous: a loaded 2-core CI machine runs two test workers
"""How late after its due moment a bot's submission may be stamped on a shared 2-core box
(the scheduler's wake-up, the lock, the store write)."""

HUMAN_BOTS = [{"name": "Bot A", "bot": True}, {"name": "Bot B", "bot": True}]
HUMAN_VS_BOT = [{"name": "Ann", "bot": False}, {"name": "Bot", "bot": True}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("pace")
    proc = ServerProcess(f"sqlite:///{folder / 'pace.db'}", folder / "server.log").start()
    try:
        yield proc
    finally:
        proc.stop()


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


def events(server: ServerProcess, created: dict[str, Any], since: int = 0
           ) -> list[dict[str, Any]]:
    r = server.http.get(f"{server.url}/api/matches/{created['id']}/events",
                        params={"token": created["tokens"]["host"], "since": since})
    assert r.status_code == 200, r.text
    got: list[dict[str, Any]] = r.json()["events"]
    return got


def bot_acts(log: list[dict[str, Any]]) -> list[BotAct]:
    acts: list[BotAct] = []
    phase: dict[str, Any] = {}
    start = 0.0
    submitted: dict[int, float] = {}
    for e in log:
        d = e["data"]
        if e["kind"] == "phase_started":
            phase, start, submitted = d, e["t"], {}
        elif e["kind"] == "resume":
            start += d["shifted"]
        elif e["kind"] == "submit" and d.get("bot"):
            submitted[d["seat"]] = e["t"]
        elif e["kind"] == "accepted" and d["seat"] in submitted:
            t = submitted.pop(d["seat"])
            acts.append(BotAct(phase["no"], phase["name"], d["seat"], t - start,
                               phase["deadline"] - start, d["at"]))
    return acts


def wait_finished(server: ServerProcess, created: dict[str, Any], timeout: float
                  ) -> list[dict[str, Any]]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = server.http.get(f"{server.url}/api/matches/{created['id']}")
        if r.json()["status"] == "finished":
            return events(server, created)
        time.sleep(0.1)
    raise AssertionError(f"match {created['id']} did not finish in {timeout} s")


def drawn(seed: int, phase_no: int, seat: int, low: float, high: float, scale: float,
          limit: float) -> float:
    """The owner's draw, recomputed: the match's chance alone decides it (G-7)."""
    wait = rngmod.derive(seed, "pace", phase_no, seat).uniform(low, high) * scale
    return min(wait, 0.6 * limit)


def create(server: ServerProcess, game: str, seats: list[dict[str, Any]], seed: int,
           scale: float, config: dict[str, Any] | None = None) -> dict[str, Any]:
    # ``ServerProcess.create`` defaults to instant bots: say "human" explicitly.
    created: dict[str, Any] = server.create(game, seats=seats, seed=seed, config=config,
                         settings={"bot_pace": "human", "time_scale": scale})
    return created


# ----------------------------------------------------------------------------- toy game
TOY_SCALE = 0.2  # the toy's think time is the default 3-9 s: 0.6-1.8 s here
TOY_RANGE = TOY.bot_think_time(TOY.initial_state(TOY.default_config(), random.Random(0)), 0)


def test_human_pace_bots_take_seconds_per_decision_within_the_phase(
        server: ServerProcess) -> None:
    created = create(server, "toy", HUMAN_BOTS, seed=11, scale=TOY_SCALE,
                     config={"rounds": 1})
    acts = bot_acts(wait_finished(server, created, timeout=30))
    assert len(acts) == 4  # two seats, study and one pick
    low, high = TOY_RANGE
    for a in acts:
        # Seconds, not milliseconds: at least the low end of the range in match time.
        assert a.offset >= low * TOY_SCALE - 0.01, a
        assert a.offset / TOY_SCALE >= low - 0.05, a
        assert a.offset <= high * TOY_SCALE + LATENCY, a
        assert a.offset < a.limit, a  # never late for its own phase
        expected = drawn(11, a.phase_no, a.seat, low, high, TOY_SCALE, a.limit)
        assert expected - 0.01 <= a.offset <= expected + LATENCY, (a, expected)
        # G-11: the bot is charged its waiting time.
        assert abs(a.charged - a.offset) < 1e-6, a


def test_the_wait_is_drawn_from_the_match_chance(server: ServerProcess) -> None:
    """G-7: the same seed gives the same waits (two matches at once); another seed others."""
    same = [create(server, "toy", HUMAN_BOTS, seed=21, scale=TOY_SCALE, config={"rounds": 1})
            for _ in range(2)]
    other = create(server, "toy", HUMAN_BOTS, seed=22, scale=TOY_SCALE, config={"rounds": 1})
    runs = [bot_acts(wait_finished(server, c, timeout=30)) for c in (*same, other)]
    keyed = [{(a.phase_no, a.seat): a.offset for a in run} for run in runs]
    assert keyed[0].keys() == keyed[1].keys() == keyed[2].keys()
    for key in keyed[0]:
        assert abs(keyed[0][key] - keyed[1][key]) < LATENCY, key
    assert max(abs(keyed[0][k] - keyed[2][k]) for k in keyed[0]) > 0.1


def host(server: ServerProcess, created: dict[str, Any], action: str) -> None:
    r = server.http.post(f"{server.url}/api/matches/{created['id']}/host/{action}",
                         params={"token": created["tokens"]["host"]}, json={})
    assert r.status_code == 200, r.text


def test_a_pause_holds_a_waiting_bot_and_its_wait_resumes_with_the_phase(
        server: ServerProcess) -> None:
    """A bot whose drawn moment passes while the host has paused does not try to act in the
    pause (which the engine refuses, and the bot would lose its turn); after the resume it
    acts at its drawn offset of the phase, which the pause shifted like every clock."""
    created = create(server, "toy", HUMAN_BOTS, seed=31, scale=TOY_SCALE,
                     config={"rounds": 1})
    host(server, created, "pause")
    time.sleep(2.2)  # past the longest drawn wait (9 s x 0.2)
    assert not any(e["kind"] == "submit" for e in events(server, created))
    host(server, created, "resume")
    acts = bot_acts(wait_finished(server, created, timeout=8))
    assert len(acts) == 4
    low, high = TOY_RANGE
    for a in acts:
        expected = drawn(31, a.phase_no, a.seat, low, high, TOY_SCALE, a.limit)
        assert expected - 0.01 <= a.offset <= expected + LATENCY, (a, expected)
        assert abs(a.charged - a.offset) < 1e-6, a


def test_a_restart_keeps_a_waiting_bot_to_its_drawn_moment(tmp_path: Path) -> None:
    """A bot move decided but not yet due is not stored (only inputs are): the restarted
    server decides it again and draws the same wait from the match's chance, so the bot still
    acts at its drawn offset of the phase, neither at once nor a whole wait later."""
    # Seed 34 draws 8.2 s and 8.9 s for the study, at full scale: a restart (and the bot
    # workers' start) on a loaded machine has about 8 s to be back before the bots are due.
    scale, seed = 1.0, 34
    proc = ServerProcess(f"sqlite:///{tmp_path / 'restart.db'}", tmp_path / "server.log").start()
    try:
        created = create(proc, "toy", HUMAN_BOTS, seed=seed, scale=scale)
        time.sleep(0.3)
        proc.kill()
        proc.start()
        deadline = time.monotonic() + 20
        while len(acts := bot_acts(events(proc, created))) < 2:
            assert time.monotonic() < deadline, "the bots did not act after the restart"
            time.sleep(0.05)
        low, high = TOY_RANGE
        for a in acts[:2]:
            assert a.phase == "study"
            expected = drawn(seed, a.phase_no, a.seat, low, high, scale, a.limit)
            assert expected > 8.0
            assert expected - 0.01 <= a.offset <= expected + LATENCY, (a, expected)
        host(proc, created, "end")
    finally:
        proc.stop()


# ----------------------------------------------------------------------------- Lockmaker
LM_SCALE = 0.1  # the bot solves in about 4.8 s: room for a loaded machine
LM_ROUND = "......\n......\n......\npieces: H2,V2\n"
LM_LOCKS = {"H2": "......\naa....\n.KK..@\n", "V2": "......\na.....\naKK..@\n"}
"""The human's lock for the piece the bot leaves it (one move each: K R2)."""
LM_CONFIG = {"setup": LM_ROUND, "rounds": 1, "study": 10, "draft_turn": 10, "build": 60,
             "decide": 30}
"""One tiny round; short study, draft and build (the bot's wait is capped at 60 % of each;
the build keeps 6 s here so that its search and a cold worker fit in the other 40 % on a busy
machine); the solve phase keeps its 300 s (30 s here) so the bot's 40-150 s solve draw fits
whole."""


def padded(lock: Position, answer: str) -> str:
    """``answer`` with the key moved there and back first: two moves more, still solving."""
    for there, back in ("LR", "RL", "UD", "DU"):
        text = f"K {there}1, K {back}1, {answer}"
        rep = replay(lock, text)
        if rep.error is None and rep.final.solved:
            return text
    raise AssertionError(f"no padding for {answer!r}")


class LockmakerHuman:
    """Seat 1 played through the API as fast as a script can: ready, take what is left,
    build a one-move lock, solve the bot's lock at once (the solver gives the answer),
    countersolve its own lock."""

    def __init__(self, server: ServerProcess, created: dict[str, Any], *, pad: bool = False
                 ) -> None:
        """``pad``: solve the bot's lock in two moves more than needed (the key there and
        back first), so the bot has a countersolve in fewer moves to make (LM-17)."""
        self.pad = pad
        self.server = server
        self.created = created
        self.token = created["tokens"]["seats"][0]
        self.log: list[dict[str, Any]] = []
        self.done: set[int] = set()
        self.hand = ""

    def send(self, text: str, phase_no: int) -> dict[str, Any]:
        r = self.server.http.post(
            f"{self.server.url}/api/matches/{self.created['id']}/submit",
            params={"token": self.token},
            json={"text": text, "final": True, "phase": phase_no})
        assert r.status_code == 200, r.text
        got: dict[str, Any] = r.json()
        return got

    def play(self, timeout: float) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.log += events(self.server, self.created, self.log[-1]["version"]
                               if self.log else 0)
            if self.status() == "finished":
                return self.log + events(self.server, self.created, self.log[-1]["version"])
            self.act()
            time.sleep(0.03)
        raise AssertionError("the Lockmaker match did not finish in time")

    def status(self) -> str:
        r = self.server.http.get(f"{self.server.url}/api/matches/{self.created['id']}")
        return str(r.json()["status"])

    def act(self) -> None:
        phases = [e for e in self.log if e["kind"] == "phase_started"]
        if not phases:
            return
        phase = phases[-1]["data"]
        no, name = phase["no"], phase["name"]
        if no in self.done or 0 not in (*phase["must"], *phase["may"]):
            return
        self.done.add(no)
        if name == "study":
            self.send("ready", no)
        elif name == "draft":
            taken = [p for e in self.log if e["kind"] == "drafted" for p in e["data"]["took"]]
            left = [p for p in ("H2", "V2") if p not in taken]
            self.hand = left[0]
            self.send(self.hand, no)
        elif name == "build":
            self.send(LM_LOCKS[self.hand], no)
        elif name == "solve":
            shown = next(e for e in self.log if e["kind"] == "locks_shown")["data"]
            lock = read_lock(shown["lock_2"])
            answer = solution_text(lock, cached_solve(lock, 100_000))
            self.send(padded(lock, answer) if self.pad else answer, no)
        elif name == "decide":
            self.send("countersolve", no)
        elif name == "counter":
            self.send("K R2", no)


def test_lockmaker_human_faster_than_the_bots_drawn_solve_time_gets_the_point(
        server: ServerProcess) -> None:
    """LM-19's "faster" point and LM-17's countersolve window against a human-pace bot: the
    bot's solve time is its drawn wait, so a human quicker than that takes the point, and the
    human's countersolve window lasts as long as the bot's (drawn) solve time."""
    seed = 11  # draws 47.8 s for the bot's solve (phase 5): 4.8 s here
    created = create(server, "lockmaker", HUMAN_VS_BOT, seed=seed, scale=LM_SCALE,
                     config=LM_CONFIG)
    log = LockmakerHuman(server, created).play(timeout=60)
    acts = {a.phase: a for a in bot_acts(log)}
    phases = {e["data"]["name"]: e for e in log if e["kind"] == "phase_started"}
    solve = acts["solve"]
    low, high = 40.0, 150.0  # Lockmaker's solve think time (G-11)
    expected = drawn(seed, solve.phase_no, 1, low, high, LM_SCALE, solve.limit)
    assert low * LM_SCALE - 0.01 <= expected <= high * LM_SCALE
    assert expected - 0.01 <= solve.offset <= expected + LATENCY, (solve, expected)
    # The human's solution and the bot's, as the seats' times (LM-16).
    announced = next(e for e in log if e["kind"] == "solutions_announced")["data"]
    human_time, bot_time = announced["seat_1"]["time"], announced["seat_2"]["time"]
    assert bot_time == pytest.approx(solve.offset, abs=1e-6)  # charged its wait (G-11)
    assert human_time < bot_time and bot_time > 1.0  # the script is quicker; the bot takes seconds
    scored = next(e for e in log if e["kind"] == "round_scored")["data"]
    assert "Ann solved faster: +1 (LM-19)" in scored["notes"]
    # LM-17: the human's countersolve window is the bot's solve time, as against a human.
    counter = phases["counter"]
    window = counter["data"]["deadline"] - counter["t"]
    assert window == pytest.approx(bot_time, abs=1e-6)
    countersolved = [e["data"] for e in log if e["kind"] == "countersolved"]
    assert {"seat": 0, "solved": True, "moves": 1} in countersolved
    # Every bot decision waited and stayed inside its phase.
    for a in acts.values():
        assert 0.0 < a.offset < a.limit, a
        assert abs(a.charged - a.offset) < 1e-6, a


def test_lockmaker_bot_countersolves_inside_its_own_window(server: ServerProcess) -> None:
    """LM-17: both makers countersolve in one phase as long as the longer window; the bot's
    pace is capped by its own window (the human's quick solve), not the phase's, so its
    countersolve lands in time and scores as a human's would."""
    seed = 11  # draws 47.8 s for the bot's solve (phase 5): 4.8 s here
    created = create(server, "lockmaker", HUMAN_VS_BOT, seed=seed, scale=LM_SCALE,
                     config=LM_CONFIG)
    log = LockmakerHuman(server, created, pad=True).play(timeout=60)
    announced = next(e for e in log if e["kind"] == "solutions_announced")["data"]
    human_time, bot_time = announced["seat_1"]["time"], announced["seat_2"]["time"]
    decided = next(e for e in log if e["kind"] == "countersolve_decisions")["data"]
    assert decided == {"seat_1": True, "seat_2": True}
    counter = next(a for a in bot_acts(log) if a.phase == "counter")
    bot_window = max(human_time, LOCKMAKER.default_config().min_counter)
    assert counter.limit == pytest.approx(max(bot_window, bot_time), abs=1e-6)
    assert counter.offset < bot_window, (counter, bot_window)
    countersolved = {e["data"]["seat"]: e["data"] for e in log if e["kind"] == "countersolved"}
    assert countersolved[1]["solved"] and countersolved[0]["solved"]
    scored = next(e for e in log if e["kind"] == "round_scored")["data"]
    assert "Bot countersolved in fewer moves: +1 (LM-17)" in scored["notes"]


# ----------------------------------------------------------------------------- simulate
def test_simulate_keeps_bots_instant(monkeypatch: pytest.MonkeyPatch) -> None:
    """G-11: a simulation never waits, even with settings that say "human": no sleep, and
    every bot acts at its phase's first moment on the simulated clock."""
    def no_sleep(*_: object) -> None:
        raise AssertionError("a simulation slept")

    monkeypatch.setattr(time, "sleep", no_sleep)
    started = time.monotonic()
    match = simulate(TOY, 3, settings=MatchSettings(bot_pace="human"))
    assert time.monotonic() - started < 2.0
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
