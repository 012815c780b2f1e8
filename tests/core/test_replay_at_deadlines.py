"""G-7: a match's inputs alone rebuild its whole log, also when inputs fall exactly on
deadlines (a chat line or a submission at the very moment a phase runs out).

CI found the case: an input at the moment of one deadline, then one at the moment of the next.
The live match resolves a deadline only once time has passed it, so its events came after
the first input; the replay then resolved both deadlines before the second input, and a
restarted server could even fail to rebuild the match (its chat was already closed)."""

from __future__ import annotations

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.clock import ManualClock
from arena.core.errors import RuleError
from arena.core.match import HOST, Match
from toygame import TOY, ToyConfig

START = 1000.0
# Waits that land on the toy's deadlines (60 s study, 30 s per pick, 30 s reserve periods).
WAITS = st.sampled_from([0, 0, 1, 5, 10, 15, 29, 30, 31, 60])
ACTIONS = st.one_of(
    st.tuples(st.just("chat"), st.sampled_from([0, 1, HOST])),
    st.tuples(st.just("submit"), st.sampled_from([0, 1]),
              st.sampled_from(["ready", "1", "2", "3", "7"]), st.booleans()),
    st.tuples(st.just("confirm"), st.sampled_from([0, 1])),
    st.tuples(st.just("advance")),
    # Every host input too: each must resolve the deadlines before its moment as a replay
    # does (the host's private channel once logged ahead of a passed deadline).
    st.tuples(st.just("host"), st.sampled_from(["pause", "resume", "extend", "mute",
                                                  "unmute", "note", "private", "end"]),
              st.sampled_from([0, 1])),
)


def host(m: Match, what: str, seat: int) -> None:
    if what == "pause":
        m.pause()
    elif what == "resume":
        m.resume()
    elif what == "extend":
        m.extend(15.0)  # the API passes a float, as the log keeps it
    elif what in ("mute", "unmute"):
        m.mute("table", what == "mute")
    elif what == "note":
        m.host_note({"text": "seat handed over", "public": bool(seat)})
    elif what == "private":
        m.set_private(seat, seat not in m.private)
    else:
        m.end()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(WAITS, ACTIONS), min_size=1, max_size=15))
def test_replay_equals_the_live_log_with_inputs_on_deadlines(
        steps: list[tuple[int, tuple[object, ...]]]) -> None:
    clock = ManualClock(START)
    m = Match(TOY, ToyConfig(), 7, clock, start=START)
    for wait, action in steps:
        clock.advance(wait)
        with contextlib.suppress(RuleError):  # refused inputs are not logged
            if action[0] == "chat":
                m.chat(action[1], "table", "hi")  # type: ignore[arg-type]
            elif action[0] == "submit":
                m.submit(int(str(action[1])), str(action[2]), final=bool(action[3]))
            elif action[0] == "confirm":
                m.confirm(int(str(action[1])))
            elif action[0] == "host":
                host(m, str(action[1]), int(str(action[2])))
            else:
                m.advance()
    m.advance()
    again = Match.replay(TOY, m.config, m.seed, m.settings, START, m.inputs(), clock)
    assert [e.to_json() for e in again.log] == [e.to_json() for e in m.log]
    assert again.snapshot() == m.snapshot()
