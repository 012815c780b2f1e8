"""The whole match (PF-3, PF-5, PF-7, PF-8) through the live engine on a manual clock."""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest

from arena.core.clock import ManualClock
from arena.core.driver import simulate
from arena.core.errors import RuleError
from arena.core.match import SPECTATOR, Match
from arena.games.paint import GAME, PaintConfig
from arena.games.paint.grid import parse_grid
from arena.games.paint.match import LAST, OVER, PICK, SHOVE, Board, PaintState, decide
from arena.games.paint.players import GreedyPlayer

D1 = "RGBR,GBRG,BRGB,RBGR,GRBG,BGRB,RGRB,GBGR"
D2 = "GRBR,RGBB,BRGG,RRGB,GBRB,BGRR,GRGB,BBGR"


def new_match(seed: int = 1) -> tuple[Match, ManualClock]:
    clock = ManualClock(0.0)
    return Match(GAME, GAME.default_config(), seed, clock), clock


def both(match: Match, texts: tuple[str, str]) -> None:
    for seat, text in enumerate(texts):
        match.submit(seat, text, final=True)


def test_pf8_default_durations() -> None:
    c = GAME.default_config()
    assert c.design_time == 48 * 3600 and c.decision_time == 120
    assert (c.reserve_periods, c.reserve_period) == (10, 30.0)  # 5 minutes of reserve
    assert GAME.make_config({"decision_time": 5}).decision_time == 5.0


def test_design_phase_is_sealed_and_checked() -> None:
    match, _ = new_match()
    assert match.spec is not None and match.spec.name == "design"
    with pytest.raises(RuleError, match="PF-4"):
        match.submit(0, "RGBR,RGBR")
    match.submit(0, D1, final=True)
    assert D1 not in str(match.view(1)) and D1 not in str(match.view(SPECTATOR))
    match.submit(1, D2, final=True)
    assert match.spec is not None and match.spec.name == PICK
    # seat 0 plays from the sets seat 1 designed
    assert match.state.boards[0].sets == tuple(D2.split(","))
    assert match.state.boards[1].sets == tuple(D1.split(","))


def test_pf5_showings_and_picks_through_a_whole_match() -> None:
    match, _ = new_match(seed=11)
    both(match, (D1, D2))
    firsts: list[tuple[int, ...]] = []
    player = GreedyPlayer()
    showings: list[list[tuple[int, ...]]] = [[], []]
    while not match.finished:
        state: PaintState = match.state
        if state.stage == PICK:
            for s in (0, 1):
                shown = state.boards[s].shown
                assert len(shown) == 3 and not set(shown) & set(state.boards[s].used)
                showings[s].append(shown)
            with pytest.raises(RuleError, match="PF-5"):
                unshown = next(i for i in range(8) if i not in state.boards[0].shown)
                match.submit(0, f"pick {unshown + 1}")
        texts = tuple(decide(player, state, s) or "" for s in (0, 1))
        both(match, (texts[0], texts[1]))
    for s in (0, 1):
        assert len(showings[s]) == 6
        assert not set(showings[s][0]) & set(showings[s][1])  # PF-5: second showing is new
        firsts.append(showings[s][0])
    final: PaintState = match.state
    assert final.stage == OVER and final.turn == 25
    for b in final.boards:
        assert "." not in b.grid and len(b.used) == 6 and len(set(b.used)) == 6
        assert len(b.decisions) == 6 + 24 + 1
    assert match.result is not None and match.result.reason


def test_pf3_shove_validation_and_pf5_last_colour() -> None:
    match, _ = new_match()
    both(match, (D1, D2))
    s0 = match.state.boards[0].shown[0] + 1
    s1 = match.state.boards[1].shown[0] + 1
    both(match, (f"pick {s0}", str(s1)))
    assert match.state.stage == SHOVE and match.state.boards[0].grid[0] != "."
    with pytest.raises(RuleError, match="PF-3"):
        match.submit(0, "1 then 2")
    with pytest.raises(RuleError, match="PF-2"):
        match.submit(0, "C then 1")
    both(match, ("1", "A"))
    assert match.state.boards[0].grid[1] != "." and match.state.boards[1].grid[5] != "."
    # jump to the last decision
    state = match.state
    last = replace(state, stage=LAST, turn=24,
                   boards=tuple(replace(b, grid="." + "RG" * 12) for b in state.boards))
    from arena.core.game import SubmitContext

    assert GAME.validate(last, 0, "green", SubmitContext(0.0)).to_json() == {"colour": "G"}
    with pytest.raises(RuleError, match="PF-5"):
        GAME.validate(last, 0, "1", SubmitContext(0.0))


def over(g0: str, g1: str) -> PaintState:
    boards = (Board(grid=parse_grid(g0)), Board(grid=parse_grid(g1)))
    return PaintState(PaintConfig(), stage=OVER, turn=25, boards=boards)


ROWS5 = "RRRRR\nGGGGG\nRRRRR\nGGGGG\nBBBBB"          # 3125, none alone
PAIRS = "RRGGB\nGGBBR\nBBRRG\nRRGGB\nGGBBR"          # pairs
CHECK = "RGRGR\nGRGRG\nRGRGR\nGRGRG\nRGRGR"          # 1, 25 alone
ALL_R = "RRRRR\nRRRRR\nRRRRR\nRRRRR\nRRRRR"          # 1, 0 alone


def test_pf7_higher_score_wins() -> None:
    res = GAME.result(over(ROWS5, CHECK))
    assert res is not None and res.winner == 0 and res.scores == (3125.0, 1.0)


def test_pf7_tie_fewer_non_connected_then_dmo() -> None:
    res = GAME.result(over(CHECK, ALL_R))
    assert res is not None and res.winner == 1 and "non-connected" in res.reason
    res = GAME.result(over(ALL_R, CHECK))
    assert res is not None and res.winner == 0
    res = GAME.result(over(ROWS5, ROWS5))
    assert res is not None and res.winner == 1 and "DMO" in res.reason


def test_grids_are_private_until_the_end() -> None:
    match, _ = new_match()
    both(match, (D1, D2))
    both(match, (str(match.state.boards[0].shown[0] + 1), str(match.state.boards[1].shown[0] + 1)))
    v1 = match.view(1)
    assert "boards" not in v1["state"] and v1["state"]["you"]["seat"] == 1
    assert "you" not in match.view(SPECTATOR)["state"]
    for fact in GAME.private_facts(match.state, 0):
        assert fact not in str(match.view(1)) and fact in str(match.view(0))


def test_grids_become_public_at_each_showing_only() -> None:
    """Spectators follow both grids. Each grid is made public as it stands at every
    new showing (and after turn 24), for seats and spectators alike; the set being played stays
    private (G-9), so the grid a seat is shoving now never reaches the other seat or a
    spectator before the next showing."""
    match, _ = new_match(seed=5)
    both(match, (D1, D2))
    player = GreedyPlayer()
    seen_turns: list[int] = []
    while not match.finished:
        state: PaintState = match.state
        spectator = match.view(SPECTATOR)["state"]
        progress = spectator.get("progress")
        if state.showing_no <= 1 and state.stage in (PICK, SHOVE):
            assert progress is None
        else:
            assert progress is not None and [p["seat"] for p in progress] == [0, 1]
            for p, b in zip(progress, state.boards, strict=True):
                assert "".join(p["grid"]) == b.public and p["turn"] == b.public_turn
                assert p["turn"] == 4 * (state.showing_no - 1) or state.stage == LAST
            if state.stage == PICK:  # the showing has just made the grids public
                assert [p["turn"] for p in progress] == [state.turn, state.turn]
                assert all("".join(p["grid"]) == b.grid
                           for p, b in zip(progress, state.boards, strict=True))
            if not seen_turns or seen_turns[-1] != progress[0]["turn"]:
                seen_turns.append(progress[0]["turn"])
            assert match.view(0)["state"]["progress"] == progress  # the same for the seats
        for seat in (0, 1):  # what is still private never reaches the other seat
            for fact in GAME.private_facts(state, seat):
                assert fact not in str(match.view(1 - seat)) and fact not in str(spectator)
        texts = tuple(decide(player, state, s) or "" for s in (0, 1))
        both(match, (texts[0], texts[1]))
    assert seen_turns == [4, 8, 12, 16, 20, 24]
    svg = GAME.render_svg(match.state, None)
    assert svg is not None and "seat 2" in svg


def test_spectator_picture_follows_the_public_grids() -> None:
    state = replace(GAME.initial_state(GAME.default_config(), random.Random(0)), stage=SHOVE,
                    turn=6, showing_no=2)
    grid = "." + "R" * 5 + "." * 19
    boards = tuple(replace(Board(), grid=grid, public=grid.replace(".", "G", 1)[:25],
                           public_turn=4) for _ in range(2))
    svg = GAME.render_svg(replace(state, boards=boards), None)
    assert svg is not None and "seat 1 after turn 4" in svg and "seat 2 after turn 4" in svg
    assert GAME.render_svg(replace(state, boards=(Board(), Board())), None) is None


def test_reserve_then_forfeit_g3() -> None:
    match, clock = new_match()
    both(match, (D1, D2))
    match.submit(1, str(match.state.boards[1].shown[0] + 1), final=True)
    clock.set(120 + 10 * 30 + 1)
    match.advance()
    assert match.result is not None and match.result.winner == 1


def test_simulated_bot_match_is_quick_and_replays() -> None:
    # this process's CPU time, not the wall clock: the machine is shared, and the hard bot's
    # work (fixed by counts, G-7) is what the bound is about
    t = time.process_time()
    match = simulate(GAME, 5)
    assert time.process_time() - t < 15
    assert match.result is not None and match.result.winner in (0, 1)
    assert match.phase_no == GAME.max_phases(match.config)
    again = simulate(GAME, 5)
    assert again.snapshot() == match.snapshot()


def test_random_submissions_are_legal() -> None:
    match, _ = new_match(seed=3)
    rng = random.Random(3)
    while not match.finished:
        for seat in (0, 1):
            text = GAME.random_submission(match.state, seat, rng)
            assert text is not None
            match.submit(seat, text, final=True)
    assert match.result is not None
