"""G-5's bound on a match's pace: a match whose deadlines fall due faster
than the server allows pauses itself with a reason for the host, instead of looping the
server; the pause is replay-deterministic, and the server's slices of ``advance`` reach the
same log as one call."""

from __future__ import annotations

import dataclasses

import pytest

from arena.core.clock import ManualClock
from arena.core.errors import RuleError
from arena.core.match import DEADLINE_WINDOW, HOST, MAX_DEADLINES, SPECTATOR, Match
from arena.core.registry import get_game
from toygame import TOY, ToyConfig

START = 1000.0

# Zero-length phases and no reserve: every deadline falls due at the same instant.
ZERO = ToyConfig(rounds=2000, study=0.0, pick=0.0, use_reserve=False)


def replayed(m: Match, clock: ManualClock) -> Match:
    return Match.replay(m.game, m.config, m.seed, m.settings, START, m.inputs(), clock)


def test_zero_length_phases_pause_the_match_with_a_reason_for_the_host() -> None:
    clock = ManualClock(START)
    m = Match(TOY, ZERO, 7, clock, start=START)
    clock.advance(0.5)
    m.advance()
    assert not m.finished, "the 2,000 rounds must not all run"
    assert m.paused_at == START and m.next_deadline() is None
    assert m.phase_no <= MAX_DEADLINES + 1
    last = m.log[-1]
    assert last.kind == "server_pause" and last.data["rule"] == "G-5"
    assert "faster than the server allows" in m.view(HOST)["pause_reason"]
    assert m.view(SPECTATOR)["paused"] is True
    with pytest.raises(RuleError, match="paused") as refused:
        m.submit(0, "1")
    assert refused.value.rule == "G-5"
    # Waiting does not resume it: the scheduler has nothing to do.
    clock.advance(3600)
    m.advance()
    assert m.log[-1] is last

    again = replayed(m, clock)
    assert [e.to_json() for e in again.log] == [e.to_json() for e in m.log]
    assert again.snapshot() == m.snapshot()


def test_the_host_may_resume_a_paused_match_and_it_pauses_again_after_the_bound() -> None:
    clock = ManualClock(START)
    m = Match(TOY, ZERO, 7, clock, start=START)
    m.advance()
    first = m.phase_no
    clock.advance(0.25)
    m.chat(HOST, "table", "going on")
    m.resume()
    assert m.pause_reason is None
    m.advance()
    assert m.pause_reason is not None and m.phase_no == first + MAX_DEADLINES
    clock.advance(2)
    m.end()
    assert m.finished
    again = replayed(m, clock)
    assert [e.to_json() for e in again.log] == [e.to_json() for e in m.log]


def test_a_fast_match_under_the_bound_runs_to_its_end() -> None:
    # 40 deadlines a second: fast, but within the bound.
    pace = DEADLINE_WINDOW / (MAX_DEADLINES - 10)
    clock = ManualClock(START)
    m = Match(TOY, ToyConfig(rounds=200, study=pace, pick=pace, use_reserve=False), 7, clock,
              start=START)
    clock.advance(10)
    m.advance()
    assert m.finished and m.pause_reason is None
    assert not any(e.kind == "server_pause" for e in m.log)


def test_advance_in_slices_reaches_the_same_log_as_one_call() -> None:
    config = ToyConfig(rounds=300, study=0.1, pick=0.1, use_reserve=False)
    whole_clock, sliced_clock = ManualClock(START), ManualClock(START)
    whole = Match(TOY, config, 7, whole_clock, start=START)
    sliced = Match(TOY, config, 7, sliced_clock, start=START)
    whole_clock.advance(100)
    sliced_clock.advance(100)
    whole.advance()
    slices = 0
    while sliced.advance(budget=7):
        slices += 1
    assert slices > 10
    assert sliced.snapshot() == whole.snapshot() and whole.finished


def test_the_audits_locked_out_request_pauses_instead_of_looping() -> None:
    """``{"round_seconds": 0}`` with no round limit (finding 1): before, one
    ``advance`` resolved a million rounds and grew the server by gigabytes."""
    game = get_game("lockedout")
    # The settings schema refuses this now (G-5); built past it, as a setting that slipped
    # through would be: the engine's own bound must still hold.
    config = dataclasses.replace(game.make_config(game.config_for_seats(
        {}, ["A", "B", "C", "D", "E", "F"])), round_seconds=0.0)
    clock = ManualClock(START)
    m = Match(game, config, 3, clock, start=START)
    clock.advance(1)
    m.advance()
    assert m.pause_reason is not None and len(m.log) < 50 * MAX_DEADLINES
    again = replayed(m, clock)
    assert [e.to_json() for e in again.log] == [e.to_json() for e in m.log]
