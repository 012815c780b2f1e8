"""Game acts: host's or server's moves a game defines (``Game.acts``, ``Match.act``).

An act is checked (the game has it, ``by`` may make it, its data fits the act's strict model,
the game finds it legal now) and, when any check fails, refused naming the rule with the match
unchanged and nothing logged. An accepted act is logged first as an input the host alone sees
(so no seat's version counts it, G-10), then the game's events; a closing act ends the phase
(and a pause with it) and starts the next. Replays rebuild all of it exactly (G-7): a
Hypothesis test interleaves acts with submissions, confirmations, pauses, extensions and the
clock, and checks ``replay``, ``replay_to`` and the checkpoints against the live match.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.core import rng as rngmod
from arena.core.clock import ManualClock
from arena.core.deadlines import TOO_FAST
from arena.core.errors import RuleError
from arena.core.game import ActContext
from arena.core.match import HOST, SPECTATOR, Match, MatchSettings
from core.toygames import WAIT, WaitConfig
from toygame import TOY

START = 1000.0


def new_match(seed: int = 5, **config: Any) -> tuple[Match, ManualClock]:
    clock = ManualClock(START)
    return Match(WAIT, WaitConfig(**config), seed, clock, MatchSettings(), start=START), clock


def at_pick() -> tuple[Match, ManualClock]:
    m, clock = new_match()
    m.act("go", {"n": 1}, "host")
    assert m.spec is not None and m.spec.name == "pick"
    return m, clock


def refused(m: Match, name: str, data: Any, by: str, rule: str, words: str) -> None:
    """The act is refused naming ``rule`` and ``words``; the match is as it was."""
    before, log = m.snapshot(), list(m.log)
    with pytest.raises(RuleError, match=words) as err:
        m.act(name, data, by)
    assert err.value.rule == rule
    assert m.snapshot() == before and m.log == log


# ----------------------------------------------------------------------------- refusals
def test_an_act_in_the_wrong_phase_is_refused_by_the_games_rule() -> None:
    m, _ = at_pick()
    m.submit(0, "2")
    refused(m, "go", {"n": 2}, "host", "ACT-1", "only in the wait phase")


def test_an_act_by_the_wrong_maker_is_refused_naming_who_may() -> None:
    m, _ = new_match()
    refused(m, "go", {"n": 2}, "server", "host", "made by the host, not by the server")
    refused(m, "note", None, "host", "host", "made by the server, not by the host")
    refused(m, "go", {"n": 2}, "anyone", "host", "made by the host")


@pytest.mark.parametrize(("data", "words"), [
    ({"n": 9}, r"go field 'n' \(ACT-1\): input should be less than or equal to 5, not 9"),
    ({"n": 0}, r"'n' \(ACT-1\): input should be greater than or equal to 1"),
    ({"n": "3"}, r"'n' \(ACT-1\): input should be a valid integer"),
    ({"n": True}, r"'n' \(ACT-1\): input should be a valid integer"),
    ({"n": 2.0}, r"'n' \(ACT-1\): input should be a valid integer"),
    ({}, r"go field 'n' \(ACT-1\): field required"),
    ({"n": 2, "m": 1}, "unknown go field 'm'"),
    (None, "must be a JSON object"),
    ([2], "must be a JSON object"),
])
def test_data_that_does_not_fit_the_model_is_refused_naming_the_field(
        data: Any, words: str) -> None:
    m, _ = new_match()
    refused(m, "go", data, "host", "host", words)


def test_an_act_without_a_model_takes_no_data() -> None:
    m, _ = new_match()
    refused(m, "note", {"x": 1}, "server", "host", "takes no data")
    refused(m, "note", 3, "server", "host", "takes no data")
    m.act("note", {}, "server")
    m.act("note", None, "server")
    assert m.state.notes == 2


def test_an_unknown_act_a_game_without_acts_and_a_finished_match_refuse() -> None:
    m, _ = new_match()
    refused(m, "stop", {}, "host", "host", "this game has no act called 'stop'")
    toy = Match(TOY, TOY.default_config(), 1, ManualClock(START), MatchSettings())
    refused(toy, "go", {}, "host", "host", "this game has no act called 'go'")
    ctx = ActContext(at=START, phase_no=1, by="host", rng=random.Random(0), scale=1.0)
    with pytest.raises(RuleError, match="this game takes no acts"):
        TOY.act(toy.state, "go", None, ctx)
    m.end()
    refused(m, "note", None, "server", "host", "the match is over")


# ----------------------------------------------------------------------------- applying
def test_a_closing_act_logs_its_input_for_the_host_first_then_closes_the_phase() -> None:
    m, clock = new_match()
    m.submit(0, "ready")  # standing when the act closes the phase: dropped with it
    clock.advance(12)
    v = m.version
    entry = m.act("go", {"n": 3}, "host")
    kinds = [(e.kind, e.to) for e in m.log[v:]]
    assert kinds == [("act", frozenset()), ("went", None), ("phase_resolved", None),
                     ("phase_started", None)]
    assert entry is m.log[v] and entry.data == {"name": "go", "data": {"n": 3}, "by": "host"}
    assert entry.t == START + 12
    assert m.log[v + 2].data == {"no": 1, "name": "wait", "missing": [], "by": "go"}
    assert m.phase_ends[1] == ("wait", START + 12)
    assert m.spec is not None and m.spec.name == "pick" and m.phase_no == 2
    assert m.history == {} and m.deadline == START + 12 + 30
    assert m.state.pot == 3
    # The act's chance: seeded by the match seed and the act's own log version (G-7).
    draw = rngmod.derive(m.seed, "act", entry.version).randrange(100)
    assert m.log[v + 1].data == {"n": 3, "draw": draw, "by": "host"}


def test_a_non_closing_act_keeps_the_phase_and_its_clock() -> None:
    m, clock = at_pick()
    m.submit(1, "3")
    deadline, phase_no, history = m.deadline, m.phase_no, dict(m.history)
    clock.advance(5)
    m.act("note", None, "server")
    assert (m.deadline, m.phase_no, m.history) == (deadline, phase_no, history)
    assert m.state.notes == 1 and m.log[-1].kind == "noted"


def test_a_seats_versions_count_the_games_events_never_the_acts_entry() -> None:
    m, _ = at_pick()
    before = {v: m.version_for(v) for v in (0, 1, SPECTATOR, HOST)}
    m.act("note", None, "server")  # its event goes to seat 0 alone
    after = {v: m.version_for(v) for v in (0, 1, SPECTATOR, HOST)}
    assert after == {0: before[0] + 1, 1: before[1], SPECTATOR: before[SPECTATOR],
                     HOST: before[HOST] + 2}
    assert [e.kind for _, e in m.events_seen(1, before[1])] == []
    assert [e.kind for _, e in m.events_seen(0, before[0])] == ["noted"]
    assert all(e.kind != "act" for e in m.events_for(SPECTATOR))
    assert all(e.kind != "act" for e in m.events_for(0))


def test_acts_are_taken_while_paused_and_a_closing_one_ends_the_pause() -> None:
    m, clock = new_match()
    clock.advance(3)
    m.pause()
    clock.advance(100)
    m.act("note", None, "server")  # taken, and the match stays paused
    assert m.paused_at == START + 3 and m.view(0)["paused"]
    m.act("go", {"n": 5}, "host")
    assert m.paused_at is None and m.pause_reason is None and not m.view(HOST)["paused"]
    assert m.spec is not None and m.spec.name == "pick"
    assert m.phase_start == START + 103 and m.deadline == START + 133
    assert m.next_deadline() == START + 133
    m.submit(0, "1")  # the new phase takes submissions at once
    with pytest.raises(RuleError, match="not paused"):
        m.resume()
    assert Match.replay(m.game, m.config, m.seed, m.settings, START, m.inputs(),
                        ManualClock(clock.now())).snapshot() == m.snapshot()


def test_a_closing_act_ends_a_g5_pause_and_its_count() -> None:
    """The server's G-5 pause holds the phase it happened in; the act that closes that phase
    starts the next with G-5's count afresh, as the host's resume does."""
    m, _ = new_match()
    m.paused_at, m.pause_reason = START, TOO_FAST
    m._recent.extend([START] * 10)
    m.act("go", {"n": 1}, "host")
    assert m.paused_at is None and m.pause_reason is None and not m._recent


def test_a_closing_act_at_the_end_finishes_the_match_with_the_games_result() -> None:
    m, clock = new_match(rounds=1)
    m.act("go", {"n": 1}, "host")
    m.submit(0, "3")
    m.submit(1, "1")
    clock.advance(30)
    m.advance()
    assert m.finished and m.result is not None and m.result.winner == 0


# ----------------------------------------------------------------------------- replays
def _ops() -> st.SearchStrategy[list[tuple[Any, ...]]]:
    clock = st.tuples(st.just("clock"),
                      st.sampled_from([0.0, 0.5, 3.0, 12.0, 25.0, 40.0, 70.0, -1.0, -1.0]))
    submit = st.tuples(st.just("submit"), st.sampled_from([0, 1]),
                       st.sampled_from(["1", "2", "3", "7", "ready"]), st.booleans())
    go = st.tuples(st.just("act"), st.just("go"), st.sampled_from([{"n": 1}, {"n": 4}]),
                   st.just("host"))
    act = st.tuples(st.just("act"), st.sampled_from(["go", "note", "nope"]),
                    st.sampled_from([{"n": 1}, {"n": 4}, {"n": 8}, {}, None, {"n": "2"}]),
                    st.sampled_from(["host", "server"]))
    op = st.one_of(
        clock, clock, st.tuples(st.just("tie")), submit, submit, go, act,
        st.tuples(st.just("confirm"), st.sampled_from([0, 1])),
        st.tuples(st.just("pause")),
        st.tuples(st.just("resume")),
        st.tuples(st.just("extend"), st.sampled_from([5.0, 60.0])),
        st.tuples(st.just("chat"), st.sampled_from([0, 1, HOST])),
    )
    return st.lists(op, min_size=20, max_size=80)


def _play(ops: list[tuple[Any, ...]], seed: int, rounds: int) -> tuple[Match, ManualClock]:
    """The ops as a live owner runs them: each command resolves what fell due before it; a
    ``clock`` op moves time (-1: exactly to the next deadline) and advances; a ``tie`` op
    moves to the next deadline without advancing, so the next command comes at the very
    moment of a deadline it does not resolve (the log's order decides, as in a replay); a
    checkpoint is offered between commands."""
    m, clock = new_match(seed, rounds=rounds)
    for op in ops:
        kind = op[0]
        try:
            if kind == "tie":  # to the next deadline, unresolved: the next command ties it
                due = m.next_deadline()
                if due is not None:
                    clock.set(max(due, clock.now()))
            elif kind == "clock":
                due = m.next_deadline()
                step = op[1] if op[1] >= 0 else (max(0.0, due - clock.now()) if due else 1.0)
                clock.advance(step)
                m.advance()
            elif kind == "submit":
                m.submit(op[1], op[2], final=op[3])
            elif kind == "confirm":
                m.confirm(op[1])
            elif kind == "act":
                before = m.snapshot()
                try:
                    m.act(op[1], op[2], op[3])
                except RuleError:
                    # Refused: nothing but the deadlines before it changed the match.
                    log = m.log[len(before[-1]):]
                    assert all(e.kind != "act" for e in log)
                    raise
            elif kind == "pause":
                m.pause()
            elif kind == "resume":
                m.resume()
            elif kind == "extend":
                m.extend(op[1])
            elif kind == "chat":
                m.chat(op[1], "table", f"line {m.version}")
        except RuleError:
            pass
        m.checkpoint()
        if m.finished:
            break
    return m, clock


def _from_start(m: Match, version: int) -> Match:
    t = m.log[version - 1].t
    inputs = [e for e in m.inputs() if e.version <= version]
    return Match.replay(m.game, m.config, m.seed, m.settings, m.created_at, inputs,
                        ManualClock(t), until=t)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=_ops(), seed=st.integers(0, 2**32), rounds=st.sampled_from([1, 3]),
       picks=st.lists(st.floats(0, 1), max_size=4))
def test_any_interleaving_of_acts_and_inputs_replays_exactly(
        ops: list[tuple[Any, ...]], seed: int, rounds: int, picks: list[float]) -> None:
    m, clock = _play(ops, seed, rounds)
    m.advance()  # what a replay brought to the same moment also resolves
    rebuilt = Match.replay(m.game, m.config, m.seed, m.settings, m.created_at, m.inputs(),
                           ManualClock(clock.now()))
    assert rebuilt.snapshot() == m.snapshot()
    assert [e.to_json() for e in rebuilt.log] == [e.to_json() for e in m.log]
    # A seat's versions never count an act's entry: only what the game told it.
    for seat in (0, 1):
        assert m.version_for(seat) == rebuilt.version_for(seat)
        if not m.finished:
            assert all(e.kind != "act" for _, e in m.events_seen(seat))
    checkpoints = [c[0] for c in m._checkpoints]
    versions = {1, m.version, *checkpoints, *(c + 1 for c in checkpoints if c < m.version),
                *(max(1, round(p * m.version)) for p in picks)}
    for v in sorted(versions):
        fresh = _from_start(m, v).snapshot()
        assert m.replay_to(v).snapshot() == fresh, v
        assert rebuilt.replay_to(v).snapshot() == fresh, v  # the replay's own checkpoints
