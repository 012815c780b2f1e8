"""The game in the engine: sessions (LF-1), real-time ticks (LF-2), session ends (LF-7), the
end of the match (LF-11), and whole simulated matches."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from arena.core.clock import ManualClock
from arena.core.driver import simulate
from arena.core.errors import RuleError
from arena.core.match import Match, MatchSettings
from arena.core.registry import get_game
from arena.games.feather.match import GAME, FeatherState

SHORT = {"session_ticks": 8, "practice_ticks": 4, "study": 5, "tick": 1}


def test_registered() -> None:
    assert get_game("feather") is GAME


def test_lf1_default_sessions_and_phases() -> None:
    config = GAME.default_config()
    state = GAME.initial_state(config, random.Random(0))
    assert [s.name for s in state.sessions] == ["practice", "session 1", "session 2", "session 3"]
    assert [len(s.capacities) for s in state.sessions[1:]] == [3, 4, 5]
    assert [s.ticks for s in state.sessions] == [30, 60, 60, 60]
    assert [len(s.objectives) for s in state.sessions] == [10, 10, 10, 10]
    assert GAME.max_phases(config) == 30 + 180 + 4
    study = GAME.phase(state)
    assert study is not None and study.name == "study" and study.duration == 60
    assert study.may == {0, 1} and not study.must
    tick = GAME.phase(replace(state, stage="tick"))
    assert tick is not None and tick.duration == 10 and tick.early_close is False
    assert tick.may == {0, 1}


def test_lf1_config_shortens_and_skips() -> None:
    config = GAME.make_config({"practice": False, "session_ticks": 5, "study": 0})
    state = GAME.initial_state(config, random.Random(0))
    assert [s.ticks for s in state.sessions] == [5, 5, 5]
    assert state.stage == "tick"
    assert GAME.max_phases(config) == 15
    with pytest.raises(RuleError, match="LF-5"):
        GAME.initial_state(GAME.make_config({"ankh": 3}), random.Random(0))


def _match(**values: object) -> tuple[Match, ManualClock]:
    clock = ManualClock(0.0)
    config = GAME.make_config({"scenario": "example", "study": 0, **values})
    return Match(GAME, config, 1, clock, MatchSettings()), clock


def test_lf2_action_submitted_mid_tick_is_processed_at_the_next_boundary() -> None:
    match, clock = _match()
    clock.set(3.0)  # "13 seconds into the game" is 3 s into tick 1 ... here: tick 0 at 3 s
    match.submit(0, "fill Z A")
    assert match.state.board.seats[0].waters == (0, 0)
    clock.set(9.99)
    match.advance()
    assert match.state.board.tick == 0
    clock.set(10.0)
    match.advance()
    assert match.state.board.tick == 1 and match.state.board.seats[0].waters == (10, 0)


def test_lf2_most_recent_valid_action_counts_and_bad_ones_are_rejected() -> None:
    match, clock = _match()
    clock.set(1.0)
    match.submit(0, "fill Z A")
    clock.set(2.0)
    with pytest.raises(RuleError, match="LF-6"):
        match.submit(0, "complete A 1")  # A is empty: rejected, the fill stands
    clock.set(4.0)
    match.submit(0, "fill Z B")
    clock.set(10.0)
    match.advance()
    assert match.state.board.seats[0].waters == (0, 7)
    with pytest.raises(RuleError, match="LF-4"):
        match.submit(0, "fill Y A")


def test_lf2_no_action_means_nothing_happens_and_ticks_run_full_time() -> None:
    match, clock = _match()
    match.submit(0, "pass", final=True)
    match.submit(1, "pass", final=True)
    assert match.state.board.tick == 0  # confirmed by both, still no early close
    clock.set(90.0)
    match.advance()
    assert match.finished
    assert match.result is not None and match.result.winner == 1  # all equal: the ankh (DMO)


def test_lf7_session_end_removes_leftovers_and_lf1_practice_counts_for_nothing() -> None:
    config = GAME.make_config({**SHORT, "scenario": "default"})
    state: FeatherState = GAME.initial_state(config, random.Random(0))
    from arena.core.game import PhaseOutcome, Submission

    def tick(state: FeatherState, texts: dict[int, str]) -> FeatherState:
        standing = {s: Submission(s, t, GAME.validate(state, s, t, _ctx()), 0.0)
                    for s, t in texts.items()}
        out = PhaseOutcome(standing, {s: (v,) for s, v in standing.items()}, frozenset(), 1.0)
        return GAME.resolve(state, out, random.Random(0))[0]

    state = tick(state, {0: "ready"})
    assert state.stage == "tick"
    state = tick(state, {0: "fill X A"})  # practice: X gives 6 into A (cap 6)
    state = tick(state, {0: "transfer A -> B"})  # 2 left in A, 4 in B
    state = tick(state, {0: "complete B 1"})  # "a bucket with 4": 1 point
    assert state.board.seats[0].points == 1
    state = tick(state, {})
    assert state.index == 1 and state.stage == "study"
    assert state.board.seats[0].points == 0  # practice points do not carry
    assert state.banked == (0, 0)
    assert state.board.available == (1, 2, 3, 4, 5)
    assert state.ended is not None and state.ended.seats[0].points == 1


def _ctx():
    from arena.core.game import SubmitContext

    return SubmitContext(at=0.0)


def _final(points: tuple[int, int], water: tuple[int, int], ankh: int) -> FeatherState:
    config = GAME.make_config({"scenario": "example", "study": 0})
    state = GAME.initial_state(config, random.Random(0))
    seats = tuple(replace(s, points=p) for s, p in zip(state.board.seats, points, strict=True))
    return replace(state, stage="over", board=replace(state.board, seats=seats, ankh=ankh),
                   banked=water)


def test_lf11_points_then_water_then_ankh() -> None:
    r = GAME.result(_final((5, 3), (0, 9), 1))
    assert r is not None and r.winner == 0 and r.reason == "more points"
    r = GAME.result(_final((4, 4), (2, 9), 0))
    assert r is not None and r.winner == 1 and "water" in r.reason
    r = GAME.result(_final((4, 4), (9, 9), 0))
    assert r is not None and r.winner == 0 and "ankh" in r.reason
    assert GAME.result(replace(_final((0, 0), (0, 0), 0), stage="tick")) is None


def test_lf11_water_banked_at_each_session_end() -> None:
    match = simulate(GAME, 3, GAME.make_config({**SHORT, "practice": False}))
    assert match.result is not None
    assert match.result.detail["water"] == list(match.state.banked)
    ends = [e.data for e in match.log if e.kind == "session_over"]
    assert len(ends) == 3
    assert list(match.state.banked) == [sum(e["water"][s] for e in ends) for s in (0, 1)]


def test_full_default_match_bot_vs_bot() -> None:
    match = simulate(GAME, 7)
    assert match.result is not None and match.finished
    assert match.phase_no == GAME.max_phases(match.config)
    ticks = [e for e in match.log if e.kind == "tick"]
    assert len(ticks) == 210
    assert max(match.result.scores) >= 20  # the bots really complete objectives


def test_views_and_svg() -> None:
    match, _ = _match()
    for viewer in (0, 1, None):
        view = GAME.view(match.state, viewer)
        assert view["basins"][0]["name"] == "Y" and view["you"] == viewer
        svg = GAME.render_svg(match.state, viewer)
        assert svg is not None and svg.startswith("<svg") and "ankh" in svg


def test_svg_shows_locks_cooldowns_and_the_ankh() -> None:
    from arena.games.feather.render import render_svg
    from arena.games.feather.tick import Lock

    state = GAME.initial_state(GAME.make_config({"scenario": "example", "study": 0}),
                               random.Random(0))
    seats = (replace(state.board.seats[0], last_fill=0, waters=(4, 7)), state.board.seats[1])
    b = replace(state.board, seats=seats, locks=(Lock(1, 0, 2, 0),), ankh=0)
    svg = render_svg(state.session, b, 0)
    assert "fill blocked until tick 5" in svg and "locked" in svg and "(you)" in svg
    assert 'data-testid="feather-ankh"' in svg and "A 4/10" in svg and "B 7/7" in svg
    assert "One bucket holding exactly 3" in svg


def test_scenarios_are_shipped_names_or_inline_text_never_paths(tmp_path) -> None:
    """A path (even a real .toml file) is refused without telling whether it exists;
    a host's own scenario travels inline as scenario_text, so the record replays anywhere."""
    good = tmp_path / "mine.toml"
    text = (Path(__file__).parents[3] / "src/arena/games/feather/scenarios/example.toml"
            ).read_text()
    good.write_text(text)
    errors = []
    for name in (str(good), str(tmp_path / "missing.toml"), "../../../etc/passwd", "x" * 10_000):
        # A name longer than a shipped one's bound is refused by the schema (G-5)
        # before anything could look for a file; a short one by the game (LF-7).
        with pytest.raises(RuleError, match=r"LF-7|G-5: setting 'scenario'") as err:
            GAME.initial_state(GAME.make_config({"scenario": name}), random.Random(0))
        errors.append(str(err.value).replace(name[:40], "NAME"))
    assert errors[0] == errors[1]  # the same answer whether or not the file exists
    state = GAME.initial_state(GAME.make_config({"scenario_text": text}), random.Random(0))
    assert state.session.capacities == (10, 7)
    with pytest.raises(RuleError, match="LF-1"):
        GAME.initial_state(GAME.make_config({"session_ticks": 20_000}), random.Random(0))


def test_lf11_practice_water_is_not_banked_and_the_sum_decides_ties() -> None:
    """LF-11 (check): only scored sessions' end water counts, added over sessions."""
    match = simulate(GAME, 5, GAME.make_config({**SHORT, "practice": True}))
    assert match.result is not None
    ends = [e.data for e in match.log if e.kind == "session_over"]
    assert [e["practice"] for e in ends] == [True, False, False, False]
    scored = [e for e in ends if not e["practice"]]
    assert list(match.state.banked) == [sum(e["water"][s] for e in scored) for s in (0, 1)]
    tied = _final((4, 4), (sum(e["water"][0] for e in scored) + 1, 0), 1)
    r = GAME.result(tied)
    assert r is not None and r.winner == 0 and "LF-11" in r.reason
