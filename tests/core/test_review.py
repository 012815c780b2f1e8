"""The post-match review's engine part: the phases handed to a game are the match's own, and a
reader sees only the judgements G-9 lets it see."""

from __future__ import annotations

import itertools

import pytest

from arena.core import review
from arena.core.clock import ManualClock
from arena.core.driver import simulate
from arena.core.eventlog import HOST
from arena.core.judging import Judgement
from arena.core.match import Match, MatchSettings
from arena.core.registry import get_game


@pytest.mark.parametrize("name", ["lockedout", "feather", "boxes"])
def test_steps_are_the_match_s_own_resolutions(name: str) -> None:
    match = simulate(get_game(name), 5)
    steps = review.steps(match)
    resolved = [(n, e) for n, e in enumerate(match.log, 1) if e.kind == "phase_resolved"]
    assert [s.version for s in steps] == [n for n, _ in resolved]
    assert [s.name for s in steps] == [e.data["name"] for _, e in resolved]
    # each phase starts where the one before ended, and the last ends in the final state
    for a, b in itertools.pairwise(steps):
        assert a.after == b.before
    assert steps[-1].after == match.state
    assert all(s.outcome.standing for s in steps[1:]) or name == "feather"


def test_no_judgement_while_the_match_runs() -> None:
    game = get_game("lockedout")
    match = Match(game, game.default_config(), 3, ManualClock(0.0),
                  MatchSettings(bot_pace="instant"))
    assert review.judge(match) == []


def _j(seat: int, cost: float, public: bool, version: int = 3) -> Judgement:
    return Judgement(seat=seat, version=version, phase="round 1", did=f"did {seat} {cost}",
                     better="better", value=10 - cost, best=10, unit="points", cost=cost,
                     public=public)


@pytest.mark.parametrize("reveal", [True, False])
def test_a_reader_sees_what_g9_lets_it_see(reveal: bool) -> None:
    match = simulate(get_game("lockedout"), 4,
                     settings=MatchSettings(bot_pace="instant", reveal_at_end=reveal))
    judged = [_j(0, 5, False), _j(0, 1, True), _j(0, 0, False), _j(0, 7, False, 9),
              _j(0, 2, False, 11), _j(1, 3, False)]

    def seen(viewer: object, seat: int) -> list[str]:
        out = review.report(match, judged, viewer)  # type: ignore[arg-type]
        return [d["did"] for d in out["seats"][seat]["decisions"]]

    assert len(seen(HOST, 0)) == 5 and len(seen(HOST, 1)) == 1
    assert len(seen(0, 0)) == 5  # a seat always sees its own
    if reveal:
        assert len(seen(None, 0)) == 5 and len(seen(1, 0)) == 5
    else:
        assert seen(None, 0) == ["did 0 1"] and seen(1, 0) == ["did 0 1"]
        assert seen(0, 1) == [] and seen(None, 1) == []
        assert review.report(match, judged, None)["seats"][1]["hidden"] == 1
    mine = review.report(match, judged, 0)["seats"][0]
    # the costliest first, at most three, never one that cost nothing
    assert [mine["decisions"][i]["cost"] for i in mine["costliest"]] == [7, 5, 2]
    assert mine["lost"] == 15
