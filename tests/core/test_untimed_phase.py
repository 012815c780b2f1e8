"""A phase with no time limit (``PhaseSpec.duration`` None): nothing about it ever falls due.

The match has no deadline in it, says so as null (the ``phase_started`` entry, every view),
refuses an extension, and may still be paused and resumed (a pause then only stops the seats'
submissions). No call of ``advance``, however late, resolves it; the seats' early close (G-4)
or a game act does. A replay rebuilds it exactly (G-7).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import pytest

from arena.core.clock import ManualClock
from arena.core.errors import RuleError
from arena.core.match import HOST, SPECTATOR, Match, MatchSettings
from arena.core.settings import check_match_work, seconds
from core.toygames import WAIT, WaitConfig

START = 1000.0
YEAR = 366 * 24 * 3600.0


@dataclass(frozen=True)
class Maybe(WaitConfig):
    step: Annotated[float | None, seconds("ACT-4: seconds per step, or none")] = None


def new_match(*, early_close: bool = True) -> tuple[Match, ManualClock]:
    clock = ManualClock(START)
    return Match(WAIT, WaitConfig(), 11, clock, MatchSettings(early_close=early_close),
                 start=START), clock


def replayed(m: Match, clock: ManualClock) -> Match:
    return Match.replay(m.game, m.config, m.seed, m.settings, m.created_at, m.inputs(),
                        ManualClock(clock.now()))


def test_an_untimed_phase_has_no_deadline_anywhere() -> None:
    m, _ = new_match()
    assert m.spec is not None and m.spec.name == "wait" and m.spec.duration is None
    assert m.deadline is None and m.next_deadline() is None
    started = [e for e in m.log if e.kind == "phase_started"][-1]
    assert started.data["deadline"] is None
    for viewer in (HOST, SPECTATOR, 0, 1):
        phase = m.view(viewer)["phase"]
        assert phase["deadline"] is None and phase["next_deadline"] is None
        assert phase["name"] == "wait"


def test_advance_never_resolves_it_however_late() -> None:
    m, clock = new_match()
    before = m.snapshot()
    for t in (START, START + 30, START + 86400, START + YEAR, START + 100 * YEAR):
        clock.set(t)
        assert m.advance() is False
        assert m.advance(budget=1) is False
        assert m.snapshot() == before
    assert m.spec is not None and m.spec.name == "wait" and m.phase_no == 1


def test_extend_is_refused_naming_why_and_changes_nothing() -> None:
    m, clock = new_match()
    clock.advance(5)
    before = m.snapshot()
    with pytest.raises(RuleError, match="this phase has no time limit") as err:
        m.extend(60)
    assert err.value.rule == "host"
    assert m.snapshot() == before


def test_pause_and_resume_work_and_the_pause_stops_submissions() -> None:
    m, clock = new_match()
    clock.advance(10)
    m.pause()
    assert m.view(0)["paused"] and m.next_deadline() is None
    with pytest.raises(RuleError, match="paused"):
        m.submit(0, "ready")
    clock.advance(50)
    m.resume()
    resume = m.log[-1]
    assert resume.kind == "resume" and resume.data == {"shifted": 50.0, "deadline": None}
    assert m.deadline is None and m.next_deadline() is None
    assert m.phase_start == START + 50  # the pause shifted the phase's start, as ever
    m.submit(0, "ready", final=True)
    m.submit(1, "ready", final=True)  # G-4: both confirmed, so it closes early
    assert m.spec is not None and m.spec.name == "pick"
    assert m.deadline == clock.now() + 30.0
    rebuilt = replayed(m, clock)
    assert rebuilt.snapshot() == m.snapshot()


def test_without_early_close_only_an_act_ends_it() -> None:
    m, clock = new_match(early_close=False)
    m.submit(0, "ready", final=True)
    m.submit(1, "ready", final=True)
    clock.advance(YEAR)
    m.advance()
    assert m.spec is not None and m.spec.name == "wait"
    m.act("go", {"n": 2}, "host")
    assert m.spec.name == "pick" and m.phase_start == START + YEAR


def test_a_timed_phase_after_it_runs_on_its_clock_and_the_next_wait_is_untimed() -> None:
    m, clock = new_match()
    m.act("go", {"n": 1}, "host")
    assert m.spec is not None and m.spec.name == "pick" and m.deadline == START + 30
    clock.set(START + 30)
    m.submit(0, "2")
    m.submit(1, "1")
    m.advance()  # the pick's limit: resolved at its time, into the next untimed wait
    assert m.spec.name == "wait" and m.deadline is None and m.phase_no == 3
    assert m.view(SPECTATOR)["phase"]["next_deadline"] is None


def test_replay_and_replay_to_rebuild_it_exactly() -> None:
    m, clock = new_match()
    clock.advance(7)
    m.submit(0, "ready")
    m.checkpoint()
    clock.advance(100)
    m.pause()
    m.checkpoint()
    clock.advance(100)
    m.resume()
    m.checkpoint()
    clock.advance(1)
    m.act("go", {"n": 4}, "host")
    m.checkpoint()
    clock.advance(40)  # past the pick's 30 s: both seats go into reserve
    m.advance()
    m.checkpoint()
    clock.advance(YEAR)
    m.advance()
    assert replayed(m, clock).snapshot() == m.snapshot()
    for v in range(1, m.version + 1):
        t = m.log[v - 1].t
        inputs = [e for e in m.inputs() if e.version <= v]
        fresh = Match.replay(m.game, m.config, m.seed, m.settings, m.created_at, inputs,
                             ManualClock(t), until=t)
        assert m.replay_to(v).snapshot() == fresh.snapshot(), v


def test_the_whole_match_bound_skips_a_duration_left_unset() -> None:
    """``check_match_work`` reads each duration setting; one left None (a game whose step
    may have no limit) bounds nothing, and the set ones are still checked (G-5)."""
    check_match_work(WAIT, Maybe(), 1.0)
    with pytest.raises(RuleError, match="'step'"):
        check_match_work(WAIT, Maybe(step=0.01), 1.0)
