"""The conformance suite (after OpenSpiel's random simulation tests).

One module runs over every registered game (and the small toy game, and the games the tests
install from another distribution, ``tests/installed_games.py``): Hypothesis drives random
legal submissions, random illegal ones, confirmations and the clock to the end of a match, and
at every step checks that

- every submission the game calls legal is accepted, every rejected one leaves the match as it
  was (G-6);
- no view or event stream of one seat, or of a spectator, holds another seat's private facts
  (G-9);
- replaying the log's inputs with the stored seed reproduces the match exactly (G-7), also from
  the middle, as after a server restart;
- the match ends within the game's declared maximum of phases, with a well-formed result.

A game that plays matches of its own (the season, SE-1) has them played by bots whenever one of
its phases without a time limit waits for them (:func:`arena.core.driver.play_children`, as the
server plays them), and their results come back as the game's acts, which the replay applies.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from arena.core import rng as rngmod
from arena.core.clock import ManualClock
from arena.core.driver import play_children
from arena.core.errors import RuleError
from arena.core.game import Game
from arena.core.match import HOST, SPECTATOR, Match, MatchSettings
from arena.core.registry import all_games
from arena.season.game import SEASON
from installed_games import games as installed_games
from toygame import TOY

GAMES: dict[str, Game[Any, Any]] = {"toy": TOY, **all_games(), SEASON.name: SEASON,
                                    **installed_games()}
"""Every game, the ones the lobby does not list (the season) too, and every game installed
from another distribution in tests/installable (found through its entry point)."""

GARBAGE = st.sampled_from(
    ["", "   ", "???", "zz 99 qq", "\x00", "-1", "99999999999999999999", "pass pass pass",
     "Left 9 Right 9", "A0 U99", "{json: 1}", "ready ready", "é" * 5]
) | st.text(max_size=12)


def leak_check(match: Match, seen: dict[Any, int]) -> None:
    """No seat's private facts reach another seat's or a spectator's view or events.

    Views are checked whole at every step; events only from the version last checked.
    """
    if match.finished and match.settings.reveal_at_end:
        return
    game = match.game
    views: dict[Any, str] = {}
    viewers: list[Any] = [*range(match.seats), SPECTATOR]
    for v in viewers:
        fresh = match.events_for(v, seen.get(v, 0))
        views[v] = json.dumps(match.view(v)) + json.dumps(
            [e.to_json() for e in fresh], default=str
        )
        seen[v] = match.version
    json.dumps(match.view(HOST))
    for seat in range(match.seats):
        for fact in game.private_facts(match.state, seat):
            assert fact, "private facts must be non-empty strings"
            for v in viewers:
                if v == seat:
                    continue
                assert fact not in views[v], (
                    f"{game.name}: private fact {fact!r} of seat {seat + 1} visible to {v}"
                )


def replay_of(match: Match, clock: ManualClock) -> Match:
    return Match.replay(
        match.game, match.config, match.seed, match.settings, match.created_at,
        match.inputs(), clock, until=clock.now(),
    )


def play_randomly(game: Game[Any, Any], seed: int, data: st.DataObject) -> None:
    clock = ManualClock(1000.0)
    settings_ = MatchSettings(time_scale=1.0, early_close=data.draw(st.booleans(), "early"))
    match = Match(game, game.default_config(), seed, clock, settings_)
    limit = game.max_phases(match.config)
    steps = 0
    in_phase = 0
    seen: dict[Any, int] = {}
    last_key: tuple[Any, ...] = ()
    while not match.finished:
        steps += 1
        assert steps < 40 * (limit + 5), f"{game.name}: too many steps"
        waiting = sorted(match.waiting_for())
        key = (match.phase_no, match.base_passed, tuple(waiting))
        in_phase = in_phase + 1 if key == last_key else 0
        last_key = key
        # Draws decide what happens, but a phase never stalls: after a few steps the clock jumps.
        action = data.draw(st.integers(0, 9), "action") if in_phase < 6 else 9
        if action <= 5 and waiting:
            # Every waiting seat offers a random legal submission; most are final.
            for seat in waiting:
                rng = rngmod.derive(seed, "random", steps, seat)
                text = game.random_submission(match.state, seat, rng)
                if text is None or match.finished or seat not in match.waiting_for():
                    continue
                final = data.draw(st.integers(0, 4), "final") < 4
                try:
                    match.submit(seat, text, final=final)
                except RuleError as exc:  # pragma: no cover - a failure is the finding
                    raise AssertionError(
                        f"{game.name}: legal submission {text!r} from seat {seat + 1} "
                        f"in phase {match.spec.name if match.spec else None} rejected: {exc}"
                    ) from exc
        elif action == 6:
            seat = data.draw(st.integers(0, match.seats - 1), "seat")
            text = data.draw(GARBAGE, "garbage")
            before = match.snapshot()
            try:
                match.submit(seat, text)
            except RuleError as exc:
                assert str(exc), "an error must say what is wrong"
                assert match.snapshot() == before, "a rejected submission changed the match"
        elif action == 7 and waiting:
            seat = data.draw(st.sampled_from(waiting), "confirm-seat")
            before = match.snapshot()
            try:
                match.confirm(seat)
            except RuleError:
                assert match.snapshot() == before
        else:
            when = match.next_deadline()
            if when is None:  # a phase with no time limit: only the game's own matches end it
                assert play_children(match), f"{game.name}: stalled in {match.spec}"
                continue
            quarter = data.draw(st.integers(0, 3), "quarter") if in_phase < 6 else 0
            remaining = when - clock.now()
            if quarter == 0 or remaining < 1.0:
                clock.set(max(clock.now(), when))
            else:
                clock.set(clock.now() + remaining * quarter / 4)
            match.advance()
        assert match.phase_no <= limit + 1, f"{game.name}: more phases than max_phases"
        leak_check(match, seen)
        if steps % 25 == 0:
            assert replay_of(match, clock).snapshot() == match.snapshot(), "mid-match replay"
    result = match.result
    assert result is not None
    assert result.winner is None or 0 <= result.winner < match.seats
    assert len(result.scores) == match.seats
    assert all(math.isfinite(x) for x in result.scores)
    assert result.reason
    json.dumps(result.to_json())
    assert replay_of(match, clock).snapshot() == match.snapshot(), "replay after the end"
    for v in [*range(match.seats), SPECTATOR, HOST]:
        json.dumps(match.view(v))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_playouts(name: str) -> None:
    game = GAMES[name]

    # Whole matches are long examples: shrinking and explaining them costs minutes, and the
    # failure message already names the game, seat, phase and submission.
    @settings(max_examples=4, deadline=None, derandomize=True, print_blob=True,
              phases=[Phase.explicit, Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(seed=st.integers(0, 2**31 - 1), data=st.data())
    def run(seed: int, data: st.DataObject) -> None:
        play_randomly(game, seed, data)

    run()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_declares_metadata(name: str) -> None:
    game = GAMES[name]
    assert game.name == name
    assert game.title and game.summary
    # Two or six seats, or a range of them (the season's cast, SE-1) holding the default.
    low, high = game.seat_range or (game.seats, game.seats)
    assert game.seats in (2, 6) or (game.seat_range and low <= game.seats <= high)
    assert game.seat_count(game.default_config()) == game.seats
    assert isinstance(game.chance, bool) and isinstance(game.hidden_information, bool)
    config = game.default_config()
    assert game.make_config({}) == config
    with pytest.raises(RuleError):
        game.make_config({"no_such_setting": 1})
