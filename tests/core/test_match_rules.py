"""The engine's general rulings (G-2 to G-9) on the toy game, on an injected clock."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from arena.core.clock import ManualClock
from arena.core.driver import simulate
from arena.core.errors import RuleError, StalePhase
from arena.core.match import HOST, SPECTATOR, Match, MatchSettings
from toygame import TOY, ToyConfig

START = 1000.0


def new_match(
    config: ToyConfig | None = None, *, early_close: bool = True, scale: float = 1.0
) -> tuple[Match, ManualClock]:
    clock = ManualClock(START)
    settings = MatchSettings(time_scale=scale, early_close=early_close)
    return Match(TOY, config or ToyConfig(), 7, clock, settings), clock


def past_study(match: Match) -> None:
    match.submit(0, "ready", final=True)
    match.submit(1, "ready", final=True)
    assert match.spec is not None and match.spec.name == "pick"


def test_g4_early_close_ends_the_phase_when_all_confirm() -> None:
    match, clock = new_match()
    match.submit(0, "ready", final=True)
    assert match.spec is not None and match.spec.name == "study"
    clock.advance(5)
    match.submit(1, "ready")
    assert match.spec.name == "study", "not final yet: the phase stays open"
    match.confirm(1)
    assert match.spec.name == "pick"
    assert match.phase_start == START + 5


def test_g4_early_close_off_runs_the_full_time() -> None:
    match, clock = new_match(early_close=False)
    match.submit(0, "ready", final=True)
    match.submit(1, "ready", final=True)
    assert match.spec is not None and match.spec.name == "study"
    clock.set(START + 60)
    match.advance()
    assert match.spec.name == "pick" and match.phase_start == START + 60


def test_g2_last_valid_submission_within_the_limit_stands() -> None:
    match, clock = new_match()
    past_study(match)
    match.submit(0, "1")
    clock.advance(10)
    match.submit(0, "3")
    with pytest.raises(RuleError, match="TOY-2"):
        match.submit(0, "7")  # invalid: the previous valid one stays
    match.submit(1, "2", final=True)
    clock.advance(20)  # exactly at the 30 s limit
    match.advance()
    picks = [e for e in match.log if e.kind == "picks"]
    assert picks[-1].data["picks"] == [3, 2]


def test_g2_submission_exactly_at_the_deadline_counts() -> None:
    match, clock = new_match()
    past_study(match)
    start = match.phase_start
    match.submit(1, "1", final=True)
    clock.set(start + 30.0)
    match.submit(0, "3")  # at the limit itself: in time
    match.advance()
    assert [e for e in match.log if e.kind == "picks"][-1].data["picks"] == [3, 1]
    assert not any(e.kind == "reserve_period" for e in match.log)


def test_g2_late_submission_without_reserve_is_rejected() -> None:
    match, clock = new_match(ToyConfig(use_reserve=False))
    past_study(match)
    start = match.phase_start
    match.submit(0, "2")
    clock.set(start + 30.0)
    match.advance()
    # No reserve in this phase: the seat with nothing is missing and the phase resolves.
    resolved = [e for e in match.log if e.kind == "phase_resolved"][-1]
    assert resolved.data["missing"] == [1]
    assert [e for e in match.log if e.kind == "picks"][-1].data["picks"] == [2, 0]


def test_g3_an_empty_reserve_bank_runs_out_at_the_limit() -> None:
    match, clock = new_match(ToyConfig(reserve_periods=0))
    past_study(match)
    match.submit(1, "2")
    clock.set(match.deadline + 0.001)
    with pytest.raises(RuleError, match="over"):
        match.submit(0, "1")  # late: the limit passed and there is no reserve to spend
    assert match.result is not None and match.result.winner == 1


def test_g3_reserve_periods_are_spent_whole_and_first_valid_in_reserve_stands() -> None:
    match, clock = new_match()
    past_study(match)
    start = match.phase_start
    match.submit(1, "2", final=True)
    clock.set(start + 30.0)
    match.advance()  # seat 0 enters reserve: period 1 of 3 spent at once
    assert match.reserve_left == [2, 3]
    clock.set(start + 30.0 + 30.0 + 30.0 + 5.0)  # into the third period
    match.advance()
    assert match.reserve_left == [0, 3]
    with pytest.raises(RuleError, match="TOY-2"):
        match.submit(0, "9")  # invalid in reserve: still in reserve
    assert 0 in match.reserve_end
    match.submit(0, "1")  # the first valid one stands, ends the reserve use at once
    assert match.spec is not None and match.phase_no == 3
    assert [e for e in match.log if e.kind == "picks"][-1].data["picks"] == [1, 2]
    # The third period was spent whole even though only 5 s of it were used.
    assert match.reserve_left == [0, 3]


def test_g2_in_reserve_only_the_reserve_seat_may_still_act() -> None:
    match, clock = new_match()
    past_study(match)
    start = match.phase_start
    match.submit(1, "2")
    clock.set(start + 31.0)
    match.advance()
    with pytest.raises(RuleError, match="G-2"):
        match.submit(1, "3")  # seat 2 is past the limit and not in reserve
    match.submit(0, "3")
    assert [e for e in match.log if e.kind == "picks"][-1].data["picks"] == [3, 2]


def test_g3_running_out_of_reserve_loses_a_two_seat_match() -> None:
    match, clock = new_match(ToyConfig(reserve_periods=2))
    past_study(match)
    start = match.phase_start
    match.submit(1, "1", final=True)
    clock.set(start + 30 + 2 * 30)
    match.advance()
    assert match.finished and match.result is not None
    assert match.result.winner == 1
    assert "G-3" in match.result.reason
    with pytest.raises(RuleError, match="over"):
        match.submit(0, "1")


def test_g5_time_scale_shortens_every_duration_and_reserve() -> None:
    match, clock = new_match(scale=0.05)
    assert match.deadline == START + 3.0  # 60 s of study at 0.05
    past_study(match)
    assert match.deadline - match.phase_start == pytest.approx(1.5)
    clock.set(match.deadline)
    match.advance()
    assert next(iter(match.reserve_end.values())) - clock.now() == pytest.approx(1.5)


def test_a_24_hour_round_runs_in_microseconds_on_the_injected_clock(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Six days of match time without the engine reading the wall clock or sleeping once
    (checked as that, not by timing the machine)."""
    def wall(*_: object) -> float:
        raise AssertionError("the engine read the wall clock or slept")

    day = 24 * 3600.0
    match, clock = new_match(ToyConfig(rounds=5, pick=day, study=day))
    with monkeypatch.context() as patch:
        for name in ("time", "monotonic", "perf_counter", "sleep"):
            patch.setattr(time, name, wall)
        while not match.finished:
            # Both seats act one second before each day-long limit.
            clock.set(match.deadline - 1)
            for seat in (0, 1):
                match.submit(seat, "ready" if match.spec and match.spec.name == "study" else "2")
            clock.set(match.deadline)
            match.advance()
    assert match.result is not None
    assert clock.now() - START >= 6 * day  # six whole days of match time passed


def test_host_pause_resume_and_extend_move_the_deadline() -> None:
    match, clock = new_match()
    deadline = match.deadline
    clock.advance(10)
    match.pause()
    with pytest.raises(RuleError, match="paused"):
        match.submit(0, "ready")
    clock.advance(1000)
    match.advance()
    assert match.spec is not None and match.spec.name == "study", "paused: nothing resolves"
    match.resume()
    assert match.deadline == deadline + 1000
    match.extend(15)
    assert match.deadline == deadline + 1015
    with pytest.raises(RuleError):
        match.extend(-1)


def test_host_can_end_a_match() -> None:
    match, _ = new_match()
    match.end()
    assert match.finished and match.result is not None and match.result.winner is None


def test_g9_sealed_submissions_and_private_state() -> None:
    match, _ = new_match()
    past_study(match)
    match.submit(0, "3")
    mine = match.view(0)
    theirs = match.view(1)
    spectator = match.view(SPECTATOR)
    assert mine["seats"][0]["submissions"][0]["text"] == "3"
    assert "submissions" not in theirs["seats"][0]
    assert theirs["seats"][0]["acted"] is None  # G-10: not even that it acted
    assert mine["seats"][0]["acted"] is True
    assert "submissions" not in spectator["seats"][0]
    secret0 = TOY.private_facts(match.state, 0)[0]
    assert secret0 in str(mine) and secret0 not in str(theirs) and secret0 not in str(spectator)
    assert secret0 in str(match.view(HOST))
    texts = [e.data.get("text") for e in match.events_for(1) if isinstance(e.data, dict)]
    assert "3" not in texts


def test_g9_everything_is_revealed_at_the_end_unless_the_host_keeps_it() -> None:
    match = simulate(TOY, 3)
    secret0 = TOY.private_facts(match.state, 0)[0]
    assert secret0 in str(match.view(1))
    kept = simulate(TOY, 3, settings=MatchSettings(reveal_at_end=False))
    assert secret0 not in str(kept.view(1))


def test_g7_replay_after_a_simulated_restart_is_identical() -> None:
    match, clock = new_match()
    past_study(match)
    match.submit(0, "2")
    clock.advance(40)  # seat 1 goes into reserve, seat 0's pick stands
    match.advance()
    clock.advance(3)
    match.submit(1, "3")
    # "Restart": rebuild from the stored inputs alone, then keep playing both.
    rebuilt = Match.replay(TOY, match.config, match.seed, match.settings, match.created_at,
                           match.inputs(), clock, until=clock.now())
    assert rebuilt.snapshot() == match.snapshot()
    for m in (match, rebuilt):
        m.submit(0, "1", final=True)
        m.submit(1, "1", final=True)
    assert rebuilt.snapshot() == match.snapshot()


def test_g7_a_deadline_passed_while_down_resolves_at_its_own_time() -> None:
    match, clock = new_match()
    past_study(match)
    match.submit(0, "2", final=True)
    match.submit(1, "1")
    inputs = match.inputs()
    deadline = match.deadline
    clock.advance(3600)  # the server was down for an hour
    rebuilt = Match.replay(TOY, match.config, match.seed, match.settings, match.created_at,
                           inputs, clock)
    resolved = [e for e in rebuilt.log if e.kind == "phase_resolved"]
    assert resolved[-1].t == deadline
    match.advance()
    assert rebuilt.snapshot() == match.snapshot()


def test_the_same_seed_gives_the_same_match_and_another_seed_may_not() -> None:
    a = simulate(TOY, 11)
    b = simulate(TOY, 11)
    assert a.snapshot() == b.snapshot()
    outcomes = {simulate(TOY, s).result for s in range(12)}
    assert len(outcomes) > 1


def test_seat_not_acting_and_unknown_seat_are_rejected() -> None:
    match, _ = new_match()
    with pytest.raises(RuleError, match="G-8"):
        match.submit(5, "ready")
    with pytest.raises(RuleError, match="G-4"):
        match.confirm(0)


def test_config_is_typed_and_rejects_nonsense() -> None:
    """JSON values are taken strictly ("4" is not a count); text from a command
    line is read as the field's type says, with the same bounds."""
    assert TOY.make_config({"rounds": 4, "pick": 12.5}) == replace(
        ToyConfig(), rounds=4, pick=12.5
    )
    assert TOY.config_from_strings({"rounds": "4", "pick": "12.5"}) == replace(
        ToyConfig(), rounds=4, pick=12.5
    )
    with pytest.raises(RuleError, match="G-5: setting 'rounds'"):
        TOY.make_config({"rounds": "4"})
    with pytest.raises(RuleError, match="G-5"):
        TOY.make_config({"rounds": "many"})
    with pytest.raises(RuleError, match="G-5"):
        TOY.config_from_strings({"rounds": "many"})
    with pytest.raises(RuleError, match="G-5"):
        TOY.make_config({"pick": -3})


def _seen(match: Match, viewer: int | str) -> tuple[object, ...]:
    view = match.view(viewer)  # type: ignore[arg-type]
    view.pop("now")
    return (view, [(e.kind, e.data, e.to) for e in match.events_for(viewer)])  # type: ignore[arg-type]


def test_g10_another_seats_submission_changes_nothing_others_see() -> None:
    match, _ = new_match()
    past_study(match)
    before = {v: _seen(match, v) for v in (1, SPECTATOR)}
    acted = [e.kind for e in match.events_for(HOST)].count("seat_acted")
    match.submit(0, "3")
    match.submit(0, "2")  # a resubmission
    match.confirm(0)
    for v in (1, SPECTATOR):
        assert _seen(match, v) == before[v], v
    host_kinds = [e.kind for e in match.events_for(HOST)]
    assert host_kinds.count("seat_acted") == acted + 3  # the host alone sees the activity


def test_g10_unsealed_ready_phases_show_who_is_ready() -> None:
    match, _ = new_match()
    assert match.spec is not None and match.spec.name == "study" and not match.spec.sealed
    match.submit(0, "ready")
    assert match.view(1)["seats"][0]["acted"] is True
    assert any(e.kind == "seat_acted" for e in match.events_for(SPECTATOR))


def test_g2_a_late_submission_names_the_phase_that_closed_and_changes_nothing() -> None:
    match, _clock = new_match()
    past_study(match)
    pick = match.phase_no
    assert match.spec is not None and match.spec.name == "pick"
    match.submit(0, "1", final=True, phase=pick)  # on time: accepted
    match.submit(1, "2", final=True, phase=pick)  # closes the phase early (G-4)
    assert match.phase_no != pick
    before = match.snapshot()
    with pytest.raises(StalePhase, match=rf"G-2: phase {pick} \(pick\) closed at "
                       r"\d\d:\d\d:\d\d UTC, before this was sent") as err:
        match.submit(0, "3", phase=pick)
    assert "nothing was applied" in str(err.value)
    assert (err.value.phase, err.value.title, err.value.current) == (pick, "pick", match.phase_no)
    with pytest.raises(StalePhase, match=r"phase \d+ \(pick\) closed"):
        match.confirm(0, phase=pick)
    assert match.snapshot() == before
    with pytest.raises(RuleError, match="G-2: there is no phase"):
        match.submit(0, "3", phase=pick + 50)
