"""G-13 and LO-12: chat lines are inputs of the log, seen by exactly the viewers of their
channel, limited in length, kept as typed text, mutable by the host, and rebuilt by a replay."""

from __future__ import annotations

import contextlib
from dataclasses import replace

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from arena.core.chat import MAX_CHARS, clean_text
from arena.core.clock import ManualClock
from arena.core.errors import RuleError
from arena.core.match import HOST, SPECTATOR, Match, MatchSettings
from arena.core.registry import get_game
from arena.games.lockedout.state import Bargain
from toygame import TOY, ToyConfig

START = 1000.0


def new_match() -> tuple[Match, ManualClock]:
    clock = ManualClock(START)
    return Match(TOY, ToyConfig(), 7, clock, MatchSettings()), clock


def chat_texts(match: Match, viewer: object) -> list[str]:
    return [e.data["text"] for e in match.events_for(viewer, 0)  # type: ignore[arg-type]
            if e.kind == "chat"]


def test_table_is_public_and_spectators_channel_hidden_from_seats_while_running() -> None:
    m, _ = new_match()
    m.chat(0, "table", "good luck")
    m.chat(HOST, "table", "five minutes of study")
    m.chat(SPECTATOR, "spectators", "Ada will win this")
    assert chat_texts(m, 0) == chat_texts(m, 1) == ["good luck", "five minutes of study"]
    assert chat_texts(m, SPECTATOR) == ["good luck", "five minutes of study",
                                        "Ada will win this"]
    assert chat_texts(m, HOST) == chat_texts(m, SPECTATOR)
    # The seat's view lists no spectators' channel; the host's and the spectator's do.
    assert [c["id"] for c in m.view(0)["chat"]] == ["table"]
    assert [c["id"] for c in m.view(SPECTATOR)["chat"]] == ["table", "spectators"]
    # Its version is not told to the seats either (G-10 style: no hint that something was said).
    assert m.version_for(0) < m.version
    m.end()
    assert "Ada will win this" in chat_texts(m, 0)


def test_who_may_post_where() -> None:
    m, _ = new_match()
    with pytest.raises(RuleError, match="G-13"):
        m.chat(SPECTATOR, "table", "hi")
    with pytest.raises(RuleError, match="G-13"):
        m.chat(0, "spectators", "hi")
    with pytest.raises(RuleError, match="G-13: there is no open channel"):
        m.chat(0, "backroom", "hi")
    with pytest.raises(RuleError, match="G-13: the message is empty"):
        m.chat(0, "table", "   ")
    with pytest.raises(RuleError, match=f"at most {MAX_CHARS}"):
        m.chat(0, "table", "x" * (MAX_CHARS + 1))
    before = m.version
    with pytest.raises(RuleError):
        m.chat(0, "table", 12)  # type: ignore[arg-type]
    assert m.version == before, "a refused line leaves the log as it was"


def test_markup_is_kept_as_text() -> None:
    m, _ = new_match()
    evil = '<img src=x onerror=alert(1)> & "quotes"'
    m.chat(0, "table", evil)
    assert chat_texts(m, 1) == [evil]


def test_host_mutes_a_channel_and_still_posts() -> None:
    m, _ = new_match()
    m.mute("table", True)
    with pytest.raises(RuleError, match="muted"):
        m.chat(0, "table", "hello?")
    m.chat(HOST, "table", "quiet please")
    assert m.view(0)["chat"][0]["muted"] is True
    assert m.view(0)["chat"][0]["can_post"] is False
    m.mute("table", False)
    m.chat(0, "table", "thanks")
    with pytest.raises(RuleError, match="already open"):
        m.mute("table", False)


def test_chat_closes_with_the_match() -> None:
    m, _ = new_match()
    m.end()
    with pytest.raises(RuleError, match="over"):
        m.chat(0, "table", "gg")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0, 1, HOST, SPECTATOR]),
                          st.text(min_size=1, max_size=40), st.integers(0, 30)), max_size=12))
# Found by CI: a line at the very moment of one deadline, then a line at the very moment of
# the next; the replay resolved both deadlines before the second line (apply_input).
@example(lines=[(0, "0", 30)] * 3)
def test_replay_rebuilds_every_chat_line_at_its_moment(lines: list[tuple[object, str, int]]
                                                       ) -> None:
    """G-7: the inputs alone rebuild the log, chat included (a restart loses no message)."""
    m, clock = new_match()
    for sender, text, wait in lines:
        clock.advance(wait)
        channel = "spectators" if sender == SPECTATOR else "table"
        with contextlib.suppress(RuleError):  # an empty line after strip is refused
            m.chat(sender, channel, text)  # type: ignore[arg-type]
    m.advance()  # as the server's runner does: deadlines due at this very moment resolve
    again = Match.replay(TOY, m.config, m.seed, m.settings, START, m.inputs(), clock)
    assert [e.to_json() for e in again.log] == [e.to_json() for e in m.log]


def lockedout_match() -> Match:
    game = get_game("lockedout")
    return Match(game, game.make_config({}), 3, ManualClock(START), MatchSettings())


def test_lo12_bargain_channel_reaches_only_its_seats_and_the_host() -> None:
    m = lockedout_match()
    m.state = replace(m.state, bargains=(Bargain(safe=0, seats=(1, 2), round=1),))
    channel = m.view(1)["chat"][1]["id"]
    assert [c["id"] for c in m.view(0)["chat"]] == ["table"]
    m.chat(1, channel, "I claim 2 bars")
    assert chat_texts(m, 2) == ["I claim 2 bars"] == chat_texts(m, HOST)
    for viewer in (0, 3, 4, 5, SPECTATOR):
        assert chat_texts(m, viewer) == []
    with pytest.raises(RuleError, match="G-13: that channel is for other seats"):
        m.chat(0, channel, "let me in")


def test_lo12_escaped_seats_do_not_talk_to_seats_inside() -> None:
    m = lockedout_match()
    seats = list(m.state.seats)
    seats[0] = replace(seats[0], escaped=1)
    seats[1] = replace(seats[1], escaped=1)
    m.state = replace(m.state, seats=tuple(seats))
    with pytest.raises(RuleError, match="LO-12"):
        m.chat(0, "table", "bye")
    m.chat(0, "escaped", "we made it")
    assert chat_texts(m, 1) == ["we made it"]
    assert chat_texts(m, 2) == []
    m.chat(2, "table", "still here")  # a seat inside still talks at the table


@given(st.text(max_size=60))
def test_cleaning_is_idempotent(raw: str) -> None:
    """A stored line read back by a replay is cleaned again: it must not change (G-7)."""
    try:
        once = clean_text(raw)
    except RuleError:
        return
    assert clean_text(once) == once
