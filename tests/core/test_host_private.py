"""G-13 as extended: the host's private channel with one seat. Only the host and that seat
read it; the other seats and the spectators never learn it exists (not in their channel
lists, their events, their versions, nor after a revealing end); replay rebuilds it. Either of
the two may open it (a seat its own, with the host); only the host closes it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.chat import channels_for, private_channel
from arena.core.clock import ManualClock
from arena.core.errors import RuleError
from arena.core.match import HOST, SPECTATOR, Match, MatchSettings, Viewer
from toygame import TOY, ToyConfig

START = 1000.0
SECRET = "confessional: Ada plans to bluff"
CH = private_channel(0)


def new_match() -> tuple[Match, ManualClock]:
    clock = ManualClock(START)
    return Match(TOY, ToyConfig(), 7, clock, MatchSettings(), names=["Ada", "Bo"]), clock


def seen_text(m: Match, viewer: Viewer) -> str:
    """Everything ``viewer`` is shown (its events and its view) as one string."""
    return json.dumps([e.to_json() for _, e in m.events_seen(viewer)]) + json.dumps(m.view(viewer))


def test_only_the_host_and_that_seat_read_it() -> None:
    m, clock = new_match()
    before = {v: m.version_for(v) for v in (1, SPECTATOR)}
    m.set_private(0, True)
    clock.advance(1)
    m.chat(HOST, CH, SECRET)
    m.chat(0, CH, "understood")
    m.mute(CH, True)
    with pytest.raises(RuleError, match="muted"):
        m.chat(0, CH, "more")
    m.mute(CH, False)
    # The two readers: the channel listed, each line in their events.
    assert [c["title"] for c in m.view(0)["chat"] if c["id"] == CH] == ["Host (private)"]
    assert [c["title"] for c in m.view(HOST)["chat"] if c["id"] == CH] == ["Private: Ada"]
    for reader in (HOST, 0):
        assert SECRET in seen_text(m, reader)
    # Everyone else: not a trace, and not even a change of version (G-10).
    for other in (1, SPECTATOR):
        text = seen_text(m, other)
        assert SECRET not in text and "understood" not in text and "host-private" not in text
        assert m.version_for(other) == before[other]
    # A revealing end (G-9) opens the game's secrets, not this conversation.
    m.end()
    assert m.settings.reveal_at_end
    for other in (1, SPECTATOR):
        assert SECRET not in seen_text(m, other) and "host-private" not in seen_text(m, other)
    assert SECRET in seen_text(m, 0)


def test_others_cannot_post_and_are_told_nothing_exists() -> None:
    m, _ = new_match()
    m.set_private(0, True)
    for other in (1, SPECTATOR):
        with pytest.raises(RuleError, match="G-13: there is no open channel"):
            m.chat(other, CH, "let me in")  # type: ignore[arg-type]
    # The refusal a stranger gets is the same whether the channel is open or not.
    with pytest.raises(RuleError, match="G-13: there is no open channel"):
        m.chat(1, private_channel(1), "hello?")


def test_open_close_and_bad_seats() -> None:
    m, _ = new_match()
    for bad in (-1, 2, "0", True, None):
        with pytest.raises(RuleError, match="G-13: name a seat"):
            m.set_private(bad, True)
    with pytest.raises(RuleError, match="already closed"):
        m.set_private(0, False)
    m.set_private(0, True)
    with pytest.raises(RuleError, match="already open"):
        m.set_private(0, True)
    m.chat(0, CH, "before the close")
    m.set_private(0, False)
    assert CH not in [c["id"] for c in m.view(0)["chat"]]
    with pytest.raises(RuleError, match="no open channel"):
        m.chat(HOST, CH, "gone")
    with pytest.raises(RuleError, match="no open channel"):
        m.mute(CH, True)
    # The closed channel's lines stay in the readers' logs.
    assert "before the close" in seen_text(m, 0)


def test_a_revealed_replay_lists_only_the_viewers_own_channel() -> None:
    """The server draws a replay after a revealing end as the host's view; the list a reader
    gets keeps only its own private channel (G-13)."""
    m, _ = new_match()
    m.set_private(0, True)
    m.set_private(1, True)
    host_list = m.view(HOST)["chat"]
    assert [c["id"] for c in channels_for(host_list, SPECTATOR)] == ["table", "spectators"]
    assert [(c["id"], c["title"]) for c in channels_for(host_list, 1)
            if c["id"].startswith("host-private")] == [(private_channel(1), "Host (private)")]
    assert channels_for(host_list, HOST) == host_list


def test_a_seat_opens_its_own_channel_and_only_the_two_read_it() -> None:
    m, clock = new_match()
    before = {v: (m.version_for(v), m.view(v)["chat"]) for v in (1, SPECTATOR)}
    clock.advance(3)
    event = m.set_private(0, True, by=0)
    assert event.to == frozenset({0}) and event.data["by"] == 0
    m.chat(0, CH, SECRET)
    m.chat(HOST, CH, "go on")
    assert [c["title"] for c in m.view(0)["chat"] if c["id"] == CH] == ["Host (private)"]
    assert [c["title"] for c in m.view(HOST)["chat"] if c["id"] == CH] == ["Private: Ada"]
    for reader in (HOST, 0):
        assert SECRET in seen_text(m, reader)
    # The other seat and the spectators: their versions, channel lists and events unchanged.
    for other in (1, SPECTATOR):
        assert (m.version_for(other), m.view(other)["chat"]) == before[other]
        text = seen_text(m, other)
        assert SECRET not in text and "host-private" not in text and '"by"' not in text
    # The host closes it as any other; the seat may open it again.
    m.set_private(0, False)
    m.set_private(0, True, by=0)
    assert 0 in m.private


def test_what_a_seat_may_not_do_is_refused_naming_g13() -> None:
    m, _ = new_match()
    before = m.snapshot()
    refusals = [
        ((1, True, 0), "only its own"),  # seat 0 opening seat 1's
        ((0, True, SPECTATOR), "only its own"),
        ((0, False, 0), "only the host closes it"),
        ((5, True, 0), "name a seat"),
    ]
    for (seat, open_, by), words in refusals:
        with pytest.raises(RuleError, match=words) as refused:
            m.set_private(seat, open_, by=by)
        assert refused.value.rule == "G-13"
    assert m.snapshot() == before
    m.set_private(0, True)  # the host opened it first
    with pytest.raises(RuleError, match="G-13: the private channel with the host is already "
                                        "open"):
        m.set_private(0, True, by=0)
    with pytest.raises(RuleError, match="only the host closes it"):
        m.set_private(0, False, by=0)
    m.end()
    with pytest.raises(RuleError, match="G-13: the match is over"):
        m.set_private(1, True, by=1)


def test_an_old_entry_without_by_is_the_hosts_and_the_hosts_say_nothing_of_by() -> None:
    """Logs written before seats could open replay unchanged: the host's entries carry no
    ``by``, and one without it is read as the host's."""
    m, clock = new_match()
    m.set_private(1, True)
    assert "by" not in m.log[-1].data
    clock.advance(2)
    m.set_private(0, True, by=0)
    again = Match.replay(TOY, m.config, m.seed, m.settings, START, m.inputs(), clock,
                         names=m.names)
    assert [e.to_json() for e in again.log] == [e.to_json() for e in m.log]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["open", "close", "host", "seat", "mute",
                                           "seat_open"]),
                          st.integers(0, 1), st.integers(0, 20)), max_size=12))
def test_replay_equals_live(steps: list[tuple[str, int, int]]) -> None:
    """G-7: opening, closing, muting and the lines are inputs; a replay rebuilds the log."""
    m, clock = new_match()
    for what, seat, wait in steps:
        clock.advance(wait)
        ch = private_channel(seat)
        try:
            if what in ("open", "close"):
                m.set_private(seat, what == "open")
            elif what == "seat_open":
                m.set_private(seat, True, by=seat)
            elif what == "mute":
                m.mute(ch, ch not in m.muted)
            else:
                m.chat(HOST if what == "host" else seat, ch, f"line {wait}")
        except RuleError:
            pass
    m.advance()
    again = Match.replay(TOY, m.config, m.seed, m.settings, START, m.inputs(), clock,
                         names=m.names)
    assert [e.to_json() for e in again.log] == [e.to_json() for e in m.log]
    assert again.private == m.private and again.muted == m.muted
    for v in (0, 1, SPECTATOR, HOST):
        assert again.view(v)["chat"] == m.view(v)["chat"]
