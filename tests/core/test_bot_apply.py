"""A bot decision that comes back after its phase's deadline (a long search, or a worker
process still starting) is dropped as stale, even when nothing has resolved that deadline yet:
it is never read as an answer to the next phase, and it is no bot error."""

from __future__ import annotations

from arena.core.clock import ManualClock
from arena.core.driver import BotTracker, bot_apply, bot_think, bots_to_think
from arena.core.match import Match, MatchSettings
from toygame import TOY


def test_a_decision_whose_deadline_passed_while_the_bot_thought_is_dropped() -> None:
    clock = ManualClock(0.0)
    match = Match(TOY, TOY.default_config(), 3, clock, MatchSettings(bot_pace="instant"))
    tracker = BotTracker()
    seats = bots_to_think(match, [0, 1], tracker)
    moves = bot_think(TOY, 3, match.state, match.phase_no, seats)  # "ready" for the study
    assert [m.text for m in moves] == ["ready", "ready"]
    deadline = match.next_deadline()
    assert deadline is not None
    clock.set(deadline + 1.0)  # the study ran out while the bots thought; nobody advanced

    assert bot_apply(match, moves, tracker) == []  # dropped, no BotError

    assert match.phase_no == 2 and match.spec is not None and match.spec.name == "pick"
    assert not [e for e in match.log if e.kind == "submit"]
    # The seats think again in the new phase, and their picks are taken.
    seats = bots_to_think(match, [0, 1], tracker)
    assert seats == [0, 1]
    done = bot_apply(match, bot_think(TOY, 3, match.state, match.phase_no, seats), tracker)
    assert [seat for seat, _ in done] == [0, 1]
