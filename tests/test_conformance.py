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
- the match ends within the game's declared maximum of phases, with a well-formed result;
- moves are values: every legal random text reads as a move whose ``str()`` is that text and
  reads back as the same move, the move standing for it prints as the text, and ``resolve``
  works from the moves alone (it never calls the game's ``parse``, and resolving with every
  submission's text blanked gives the same state and events).

A game that plays matches of its own (the season, SE-1) has them played by bots whenever one of
its phases without a time limit waits for them (:func:`arena.core.driver.play_children`, as the
server plays them), and their results come back as the game's acts, which the replay applies.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from arena.core import rng as rngmod
from arena.core.clock import ManualClock
from arena.core.driver import play_children
from arena.core.errors import RuleError
from arena.core.game import Game, GameEvent, PhaseOutcome, Submission
from arena.core.match import HOST, SPECTATOR, Match, MatchSettings
from arena.core.registry import all_games
from arena.season.game import SEASON
from installed_games import games as installed_games
from toygame import TOY, ToyGame, ToyState

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


POISON = "\x00 a text that resolve must never read"


def check_move_text(game: Game[Any, Any], match: Match, seat: int, text: str) -> None:
    """A legal random text is canonical notation: it reads as a move that prints as the text
    and reads back as the same move; its JSON form is plain JSON."""
    move = game.parse(match.state, seat, text)
    assert str(move) == text, f"{game.name}: {text!r} reads as {move!r}, written {str(move)!r}"
    assert game.parse(match.state, seat, str(move)) == move, f"{game.name}: {move!r} round trip"
    json.dumps(move.to_json())


def _blank(sub: Submission) -> Submission:
    return dataclasses.replace(sub, text=POISON)


@contextmanager
def resolving_from_values(game: Game[Any, Any]) -> Iterator[None]:
    """While inside, every ``resolve`` of ``game`` is checked to work from the moves alone: its
    ``parse`` fails the test if called during a resolve, and the same outcome with every
    submission's text replaced by :data:`POISON` must resolve to the same state and events
    (with the same chance draws)."""
    resolve, parse = game.resolve, game.parse
    resolving = False

    def guarded_parse(state: Any, seat: int, text: str) -> Any:
        assert not resolving, f"{game.name}: resolve parsed the text {text!r}"
        return parse(state, seat, text)

    def checked_resolve(state: Any, outcome: PhaseOutcome, rng: random.Random
                        ) -> tuple[Any, list[GameEvent]]:
        nonlocal resolving
        twin = copy.deepcopy(rng)
        blanked = PhaseOutcome(
            {s: _blank(sub) for s, sub in outcome.standing.items()},
            {s: tuple(_blank(sub) for sub in subs) for s, subs in outcome.history.items()},
            outcome.missing, outcome.ended_at, outcome.scale)
        resolving = True
        try:
            got = resolve(state, outcome, rng)
            again = resolve(state, blanked, twin)
        finally:
            resolving = False
        assert again == got, f"{game.name}: resolve read a submission's text"
        return got

    game.parse = guarded_parse  # type: ignore[method-assign]
    game.resolve = checked_resolve  # type: ignore[method-assign]
    try:
        yield
    finally:
        del game.parse, game.resolve


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
                check_move_text(game, match, seat, text)
                try:
                    sub = match.submit(seat, text, final=final)
                except RuleError as exc:  # pragma: no cover - a failure is the finding
                    raise AssertionError(
                        f"{game.name}: legal submission {text!r} from seat {seat + 1} "
                        f"in phase {match.spec.name if match.spec else None} rejected: {exc}"
                    ) from exc
                assert str(sub.value) == text, f"{game.name}: {text!r} stands as {sub.value!r}"
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
        with resolving_from_values(game):
            play_randomly(game, seed, data)

    run()


class _ParsingToy(ToyGame):
    """Reads its texts again when a phase resolves: what the move values replace."""

    def resolve(self, state: ToyState, outcome: PhaseOutcome, rng: random.Random
                ) -> tuple[ToyState, list[GameEvent]]:
        for sub in outcome.standing.values():
            self.parse(state, sub.seat, sub.text)
        return super().resolve(state, outcome, rng)


class _TextToy(ToyGame):
    """Puts a submission's text into an event: a resolve that reads text, without parsing."""

    def resolve(self, state: ToyState, outcome: PhaseOutcome, rng: random.Random
                ) -> tuple[ToyState, list[GameEvent]]:
        state, events = super().resolve(state, outcome, rng)
        texts = sorted(sub.text for sub in outcome.standing.values())
        return state, [*events, GameEvent("texts", texts)]


@pytest.mark.parametrize(("game", "words"), [(_ParsingToy(), "resolve parsed"),
                                             (_TextToy(), "resolve read")])
def test_resolving_from_values_catches_a_resolve_that_reads_text(game: ToyGame,
                                                                  words: str) -> None:
    """The check above is not vacuous: a resolve that parses, or reads a text at all, fails."""
    match = Match(game, game.default_config(), 1, ManualClock(1000.0), MatchSettings())
    with resolving_from_values(game), pytest.raises(AssertionError, match=words):
        match.submit(0, "ready", final=True)
        match.submit(1, "ready", final=True)
    assert "parse" not in vars(game) and "resolve" not in vars(game)


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
