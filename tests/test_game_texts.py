"""The games' own words on their pages (the per-game points): what the Python side
of each game hands the page, checked in-process. Each test names the defect it keeps away.

- Boxes (points 6, 9): phase prompts without quoted commands; one "Best bout" number beside
  the score, no second copy of the points as text.
- Light as a Feather (points 6, 11): one label per session ("Session 1 of 3", never "session 1
  · session 2 of 4"); the boundary that closed a session is in the view until the next one
  plays, with its final points.
- Locked Out! (points 6, 9): a failed Dual says why as data, so each partner can be told in
  the second person; the result has no seat-pair list a table would show as columns "0" and
  "1", a per-seat column in words, and a reason that explains the score of -1 (LO-8).
- Lockmaker (point 13): the decide phase tells each maker the countersolve window it would get
  (LM-17), so the page can refuse a window too short to use before it opens.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.core.game import PhaseOutcome, Submission
from arena.games.boxes.match import GAME as BOXES
from arena.games.feather.match import GAME as FEATHER
from arena.games.feather.match import FeatherState
from arena.games.lockedout import GAME as LOCKEDOUT
from arena.games.lockedout.state import OVER, Seat
from games.lockedout.lockedout_helpers import make_state, step
from playouts import random_playout
from wording import ONE_OF_MANY

QUOTED_COMMAND = re.compile(r"'[a-z]+'|\bsay '")


def test_boxes_prompts_have_no_quoted_commands() -> None:
    state = BOXES.initial_state(BOXES.default_config(), random.Random(1))
    spec = BOXES.phase(state)
    assert spec is not None and spec.name == "study boards"
    assert not QUOTED_COMMAND.search(spec.prompt), spec.prompt


def test_boxes_result_has_one_points_number_and_a_short_best_bout_column() -> None:
    from arena.games.boxes.match import final_result

    state = BOXES.initial_state(BOXES.default_config(), random.Random(1))
    result = final_result(state)
    assert isinstance(result.detail, dict)
    assert "points" not in result.detail  # the Score column is the points (point 9)
    assert list(result.detail) == ["best_bout"]
    assert all(isinstance(x, float) for x in result.detail["best_bout"])


def _feather_tick(state: FeatherState, texts: dict[int, str]) -> FeatherState:
    class Ctx:
        at = 0.0
        phase_no = 1
        reserve = False

    standing = {s: Submission(s, t, FEATHER.validate(state, s, t, Ctx()),  # type: ignore[arg-type]
                              0.0) for s, t in texts.items()}
    out = PhaseOutcome(standing, {s: (v,) for s, v in standing.items()}, frozenset(), 1.0)
    return FEATHER.resolve(state, out, random.Random(0))[0]


def test_feather_one_session_label_and_the_closing_boundary_in_the_view() -> None:
    # The shipped scenario, whose basin X this test fills from (a generated one names others).
    config = FEATHER.make_config({"scenario": "default", "session_ticks": 8,
                                  "practice_ticks": 2, "study": 5, "tick": 1})
    state: FeatherState = FEATHER.initial_state(config, random.Random(0))
    view: Any = FEATHER.view(state, 0)
    assert view["session"]["label"] == "Practice session (not scored)"
    assert view["ended"] is None
    spec = FEATHER.phase(state)
    assert spec is not None and not QUOTED_COMMAND.search(spec.prompt), spec.prompt
    state = _feather_tick(state, {0: "ready"})
    state = _feather_tick(state, {0: "fill X A"})
    state = _feather_tick(state, {0: "transfer A -> B"})
    assert state.stage == "study" and state.index == 1
    view = FEATHER.view(state, 0)
    assert view["session"]["label"] == "Session 1 of 3"
    # The last boundary of the practice is still told: its actions and its final points.
    assert view["ended"] == {"label": "Practice session (not scored)", "practice": True,
                             "points": [0, 0], "water": list(view["ended"]["water"])}
    assert [o["action"] for o in view["last"]] == [{"act": "transfer", "from": "A", "to": "B"}]
    state = _feather_tick(state, {0: "ready"})
    assert FEATHER.view(state, 0)["ended"] is not None  # tick 0: nothing played yet
    state = _feather_tick(state, {})
    assert FEATHER.view(state, 0)["ended"] is None


def test_lockedout_failed_dual_says_why_as_data() -> None:
    alice, bob = 0, 1
    _, events = step(make_state({"C": (1, 2)}), {alice: "Dual, Safe C, Left 4 with Bob",
                                                 bob: "Dual, Safe E, Right 2 with Alice"})
    failed = {e.data["seat"]: e.data for e in events if e.kind == "dual_failed"}
    assert failed[alice]["why"] == "other_safe" and failed[alice]["other_safe"] == "E"
    assert failed[alice]["partner"] == bob
    _, events = step(make_state({"C": (1, 2)}), {alice: "Dual, Safe C, Left 4 with Bob"})
    (only,) = [e.data for e in events if e.kind == "dual_failed"]
    assert only["why"] == "not_named" and only["other_safe"] is None


def test_lockedout_result_table_has_words_not_seat_pairs() -> None:
    state = make_state()
    seats = list(state.seats)
    seats[0] = Seat(keys=3, bars=5, escaped=3, opened=3)
    state = replace(state, seats=tuple(seats), stage=OVER, votes=((1, 2), (2, 1), (3, 1)))
    result = LOCKEDOUT.result(state)
    assert result is not None and isinstance(result.detail, dict)
    detail = result.detail
    names = state.names
    # Facts by seat (the match_ended event carries them, G-7): voter's seat to candidate's.
    assert detail["votes"] == {"1": 2, "2": 1, "3": 1}
    assert detail["standing"][:2] == ["escaped", "trapped"]
    assert detail["escaped_round"][:2] == [3, None]
    assert list(detail)[:3] == ["escaped", "winners", "elimination_candidate"]
    assert result.reason.startswith(f"{names[0]} escaped with the most gold bars")
    assert "-1 for a player still inside (LO-8)" in result.reason
    # No value is a list of lists: a table would show it as columns headed "0" and "1".
    assert not any(isinstance(v, list) and v and isinstance(v[0], list) for v in detail.values())


def test_lockmaker_view_offers_the_countersolve_window() -> None:
    from arena.games.lockmaker.match import GAME as LOCKMAKER

    state = LOCKMAKER.initial_state(LOCKMAKER.default_config(), random.Random(3))

    class Final:
        at = 0.3
        moves = 4

    state = replace(state, stage="decide", announced=True,
                    final=(Final(), None))  # type: ignore[arg-type]
    view: Any = LOCKMAKER.view(state, 1)
    # Seat 1's lock was opened by seat 0 in 0.3 s: seat 1 would get the shortest window
    # (min_counter, 1 s by default); seat 0's lock was not opened, so it has no offer.
    assert view["counter_offer"] == [None, 1.0]


PROGRAM_SPEAK = re.compile(r"\bissue \d+|\bNone\b|\{|\}")
"""An issue number, a Python None or an unfilled template in a result or a log entry."""


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["lockmaker", "boxes", "paint", "feather", "lockedout"]),
       st.integers(0, 10_000), st.integers(0, 6), st.booleans())
def test_every_ending_reads_as_a_host_says_it(name: str, seed: int, stop_after: int,
                                             host_ends: bool) -> None:
    """Any game, any seed, ended by its rules (Locked Out! also by a host's round limit of
    1 to 3) or by the host part-way: the result, every public log entry and the final view a
    player reads name no issue number, no "1 rounds", no Python None and no unfilled
    template."""
    from arena.core.registry import get_game

    game = get_game(name)
    values = {"max_rounds": 1 + seed % 3} if name == "lockedout" else {}
    config = game.make_config(values) if values else None
    match, _ = random_playout(name, seed, config, stop_after if host_ends else None)
    assert match.result is not None
    texts = _strings(match.result.to_json())
    texts += [s for e in match.log if e.to is None for s in _strings(e.data)]
    bad = [t for t in texts if PROGRAM_SPEAK.search(t) or ONE_OF_MANY.search(t)]
    # what the page shows at the end (its data, a scenario's TOML among it, may hold braces)
    bad += [t for t in _strings(match.view("spectator", svg=False)) if ONE_OF_MANY.search(t)
            or re.search(r"\bissue \d+", t)]
    assert not bad, bad[:5]
