"""The post-match review of Paint (PF-3 to PF-7): every decision judged with hindsight against
the yardstick's search, consistent, deterministic, and harsher on a weak seat."""

from __future__ import annotations

import itertools
import re

import pytest

from arena.core.driver import simulate
from arena.core.eventlog import HOST
from arena.core.match import Match
from arena.core.registry import get_game
from arena.core.review import judge, report
from arena.games.paint.yardstick import CEILING


@pytest.fixture(scope="module")
def match() -> Match:
    """Seat 1 (0-based 0) at the easy level, seat 2 hard."""
    return simulate(get_game("paint"), 31, levels={0: "easy"})


def test_every_decision_is_judged_consistently(match: Match) -> None:
    judgements = judge(match)
    assert judgements == judge(match)  # deterministic: the same match, the same review
    for seat in (0, 1):
        mine = [j for j in judgements if j.seat == seat]
        phases = [j.phase for j in mine]
        assert phases == ["design"] + (["pick"] + ["shove"] * 4) * 6 + ["last"]
        final = match.result.scores[seat] if match.result else 0
        assert mine[-1].value == final  # the last colour's outcome is the grid's score
        for j in mine:
            assert j.cost >= 0 and j.value <= j.best and j.cost == j.best - j.value
            assert j.unit in ("points", "points held back") and j.best <= CEILING
            assert match.log[j.version - 1].kind == "phase_resolved"
            assert match.log[j.version - 1].data["name"] == j.phase
            assert not j.public  # PF-9: sets and shoves are sealed while played
            for text in (j.did, j.better):
                assert not re.search(r"\b[RGB]{2,4}\b", text), text  # colours in words
        # the design's sentences carry the figures its item shows, not their inputs alone
        design = mine[0]
        assert f"held {int(design.value):,} points back" in design.did
        # the sets allowed at least what the opponent made of them
        opponent = match.result.scores[1 - seat] if match.result else 0
        assert CEILING - design.value >= opponent
        if design.cost:
            assert f"holding {int(design.best):,} points back" in design.better
        # within reach never rises along the match: each figure is the next one's best
        plays = [j for j in mine if j.phase != "design"]
        for a, b in itertools.pairwise(plays):
            assert a.value == b.best


def test_a_weak_seat_gives_more_away_than_the_hard_bot(match: Match) -> None:
    judgements = judge(match)
    plays = {s: [j for j in judgements if j.seat == s and j.phase != "design"]
             for s in (0, 1)}
    lost = {s: sum(j.cost for j in plays[s]) for s in (0, 1)}
    assert lost[0] > lost[1]
    assert max(j.cost for j in plays[0]) > 0  # a costly decision is named
    cheap = sum(1 for j in plays[1] if j.cost == 0)
    assert cheap >= 0.8 * len(plays[1])  # the hard bot's decisions mostly cost nothing


def test_the_report_names_the_costliest(match: Match) -> None:
    rep = report(match, judge(match), HOST)
    seats = rep["seats"]
    assert isinstance(seats, list) and len(seats) == 2
    easy = seats[0]
    assert isinstance(easy, dict) and easy["costliest"] and easy["hidden"] == 0
