"""SE-7 made a season step's clock every match's clock: the host sets when the current phase
ends as a clock time (``Match.set_deadline``), within 366 days, and may extend a phase by up
to 366 days. Setting a deadline runs a paused match again; in reserve it moves every running
reserve period's end. It is an input of the log, so replay and ``replay_to`` rebuild it."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.clock import ManualClock
from arena.core.deadlines import MAX_CLOCK
from arena.core.errors import RuleError
from arena.core.match import HOST, INPUT_KINDS, SPECTATOR, Match
from toygame import TOY, ToyConfig

START = 1000.0
DAY = 86400.0


def new_match() -> tuple[Match, ManualClock]:
    clock = ManualClock(START)
    return Match(TOY, ToyConfig(), 7, clock, start=START), clock


def replayed(m: Match, clock: ManualClock) -> Match:
    return Match.replay(TOY, m.config, m.seed, m.settings, START, m.inputs(), clock)


def test_the_deadline_is_the_given_moment_and_everyone_reads_it() -> None:
    m, clock = new_match()
    clock.advance(10)
    m.set_deadline(START + 5 * DAY)
    assert m.deadline == START + 5 * DAY and m.next_deadline() == START + 5 * DAY
    for viewer in (HOST, SPECTATOR, 0, 1):
        assert m.view(viewer)["phase"]["deadline"] == START + 5 * DAY
    last = m.log[-1]
    assert last.kind == "deadline" and last.to is None and "deadline" in INPUT_KINDS
    assert last.data == {"at": START + 5 * DAY, "deadline": START + 5 * DAY, "resumed": False}
    # Nothing happens at the old limit (60 s); the study ends at the new one.
    clock.set(START + 4 * DAY)
    m.advance()
    assert m.spec is not None and m.spec.name == "study"
    clock.set(START + 5 * DAY)
    m.advance()
    assert m.spec is not None and m.spec.name == "pick"
    assert m.phase_start == START + 5 * DAY


def test_an_earlier_moment_shortens_the_phase() -> None:
    m, clock = new_match()
    m.set_deadline(START + 1)
    clock.advance(1)
    m.advance()
    assert m.spec is not None and m.spec.name == "pick"


@pytest.mark.parametrize("offset", [0.0, -1.0, -DAY, MAX_CLOCK + 1, float("nan"),
                                    float("inf"), float("-inf")])
def test_a_moment_now_past_or_beyond_366_days_is_refused(offset: float) -> None:
    m, clock = new_match()
    clock.advance(10)
    before = m.snapshot()
    with pytest.raises(RuleError, match="366 days") as refused:
        m.set_deadline(clock.now() + offset)
    assert refused.value.rule == "host"
    assert m.snapshot() == before


def test_the_bound_itself_is_taken() -> None:
    m, clock = new_match()
    clock.advance(10)
    m.set_deadline(clock.now() + MAX_CLOCK)
    assert m.deadline == clock.now() + MAX_CLOCK
    assert MAX_CLOCK == 366 * DAY


def test_a_finished_match_takes_no_deadline() -> None:
    m, clock = new_match()
    m.end()
    with pytest.raises(RuleError, match="over"):
        m.set_deadline(clock.now() + 60)


def test_deadlines_before_it_resolve_first() -> None:
    """Asked after the study's limit passed (the server had not advanced yet): the study ends
    at its own time, and the new moment is the pick's."""
    m, clock = new_match()
    clock.advance(61)
    m.set_deadline(START + 3600)
    assert m.spec is not None and m.spec.name == "pick" and m.deadline == START + 3600


def test_setting_a_deadline_runs_a_paused_match() -> None:
    m, clock = new_match()
    clock.advance(10)
    m.pause()
    clock.advance(1000)
    m.set_deadline(START + 2 * DAY)
    assert m.paused_at is None and m.pause_reason is None
    assert m.next_deadline() == START + 2 * DAY
    # As a resume: the time paused does not count for the phase (a solve time, a bot's pace).
    assert m.phase_start == START + 1000
    assert m.log[-1].data["resumed"] is True
    m.submit(0, "ready")  # submissions are taken again


def test_it_runs_a_match_the_server_paused_for_g5_and_counts_afresh() -> None:
    clock = ManualClock(START)
    zero = ToyConfig(rounds=50, study=0.0, pick=0.0, use_reserve=False)
    m = Match(TOY, zero, 7, clock, start=START)
    m.advance()
    assert m.pause_reason is not None
    clock.advance(5)
    m.set_deadline(clock.now() + 60)
    assert m.pause_reason is None and m.paused_at is None and not m._recent
    assert m.next_deadline() == clock.now() + 60


def test_in_reserve_every_running_period_ends_at_the_moment() -> None:
    m, clock = new_match()
    clock.set(START + 60)
    m.advance()  # the study's limit: the pick starts
    assert m.spec is not None and m.spec.name == "pick"
    pick_limit = m.deadline
    clock.set(pick_limit)
    m.advance()  # nobody picked: both seats begin a reserve period
    assert m.base_passed and set(m.reserve_end) == {0, 1}
    assert m.reserve_left == [2, 2]
    clock.advance(5)
    m.set_deadline(clock.now() + 3600)
    assert m.reserve_end == {0: clock.now() + 3600, 1: clock.now() + 3600}
    assert m.deadline == pick_limit  # the base limit has passed; it stays as it was
    assert m.next_deadline() == clock.now() + 3600
    assert m.reserve_left == [2, 2]  # no period given back, none spent by the move
    # Seat 0 picks in its period: only seat 1's is left, still ending then.
    m.submit(0, "2")
    assert m.reserve_end == {1: clock.now() + 3600}
    # At the moment, seat 1's period ends: it begins its next one, as it would have.
    clock.advance(3600)
    m.advance()
    assert m.reserve_left[1] == 1 and m.reserve_end == {1: clock.now() + 30.0}


def test_extend_goes_up_to_366_days() -> None:
    m, _ = new_match()
    deadline = m.deadline
    m.extend(MAX_CLOCK)
    assert m.deadline == deadline + MAX_CLOCK
    for bad in (0.0, -1.0, MAX_CLOCK + 1):
        with pytest.raises(RuleError, match="366 days"):
            m.extend(bad)


def test_replay_rebuilds_a_set_deadline() -> None:
    m, clock = new_match()
    clock.advance(10)
    m.pause()
    clock.advance(50)  # past the old limit while paused
    m.set_deadline(START + 500)
    clock.advance(1000)
    m.advance()
    again = replayed(m, clock)
    assert [e.to_json() for e in again.log] == [e.to_json() for e in m.log]
    assert again.snapshot() == m.snapshot()


WAITS = st.sampled_from([0, 0, 1, 5, 10, 29, 30, 31, 60, 400])
ACTIONS = st.one_of(
    st.tuples(st.just("deadline"), st.sampled_from([0.0, 1, 30, 45, 600, 3600, MAX_CLOCK])),
    st.tuples(st.just("submit"), st.sampled_from([0, 1]), st.sampled_from(["ready", "1", "3"])),
    st.tuples(st.just("pause"), st.just(0)),
    st.tuples(st.just("resume"), st.just(0)),
    st.tuples(st.just("extend"), st.sampled_from([1.0, 30.0])),
    st.tuples(st.just("chat"), st.just(0)),
    st.tuples(st.just("advance"), st.just(0)),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(WAITS, ACTIONS), min_size=1, max_size=14))
def test_replay_and_replay_to_equal_the_live_match(
        steps: list[tuple[int, tuple[object, ...]]]) -> None:
    """G-7: with deadlines set at, before and after the others' moments (in reserve, paused),
    the inputs rebuild the log, and the match as it stood after any entry is the same rebuilt
    from the start or from a checkpoint."""
    m, clock = new_match()
    for wait, action in steps:
        clock.advance(wait)
        what = action[0]
        with contextlib.suppress(RuleError):
            if what == "deadline":
                m.set_deadline(clock.now() + float(str(action[1])))
            elif what == "submit":
                m.submit(int(str(action[1])), str(action[2]))
            elif what == "pause":
                m.pause()
            elif what == "resume":
                m.resume()
            elif what == "extend":
                m.extend(float(str(action[1])))
            elif what == "chat":
                m.chat(HOST, "table", "hello")
            else:
                m.advance()
        m.checkpoint()
    m.advance()
    again = replayed(m, clock)
    assert [e.to_json() for e in again.log] == [e.to_json() for e in m.log]
    assert again.snapshot() == m.snapshot()
    for version in range(1, m.version + 1):
        cut = m.replay_to(version)
        t = m.log[version - 1].t
        inputs = [e for e in m.inputs() if e.version <= version]
        fresh = Match.replay(TOY, m.config, m.seed, m.settings, START, inputs,
                             ManualClock(t), until=t)
        assert cut.snapshot() == fresh.snapshot(), version
