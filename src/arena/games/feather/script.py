"""Running a scenario from a script of timed actions, for hosts settling a dispute.

A script has one action per line, ``TICK SEAT ACTION``: the action was submitted during that
tick by seat 1 or 2 and is processed at the boundary that starts the next tick (LF-2). ``TICK``
may carry a session, ``2:15`` (the second session played, tick 15); a bare number means the
first session. Where a seat has several lines for one tick, the last valid one counts (LF-2);
rejected ones are recorded with the reason, as the live server would have shown them.
``#`` starts a comment. The run goes through the same game functions as a live match.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Any

from arena.core.errors import ParseError, RuleError
from arena.core.game import PhaseOutcome, Submission, SubmitContext
from arena.games.feather.match import GAME, FeatherConfig, FeatherMove, FeatherState
from arena.games.feather.tick import Board
from arena.games.feather.view import board_json
from arena.games.feather.words import outcome_words


@dataclass(frozen=True)
class Line:
    session: int  # 0-based among the sessions played
    tick: int
    seat: int  # 0-based
    text: str
    number: int  # line number in the script


def parse_script(text: str) -> tuple[Line, ...]:
    out: list[Line] = []
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"(?:(\d+):)?(\d+)\s+([12])\s+(.+)", line)
        if m is None:
            raise ParseError("LF-2", f"expected 'TICK SEAT ACTION' (e.g. '3 1 fill Z A'), got "
                                     f"{line!r}", line=no)
        session = int(m.group(1)) - 1 if m.group(1) else 0
        if session < 0:
            raise ParseError("LF-2", "sessions are numbered from 1", line=no)
        out.append(Line(session, int(m.group(2)), int(m.group(3)) - 1, m.group(4), no))
    return tuple(out)


def _record(state: FeatherState, board: Board, actions: list[dict[str, Any]]) -> dict[str, Any]:
    session = state.sessions[min(state.index, len(state.sessions) - 1)]
    return {"session": session.name, "tick": board.tick, "actions": actions,
            **board_json(session, board)}


def run_script(config: FeatherConfig, script: tuple[Line, ...]) -> dict[str, Any]:
    """Play the scenario of ``config`` with the scripted actions; the state after every tick."""
    config = replace(config, study=0.0)
    rng = random.Random(0)
    state = GAME.initial_state(config, rng)
    for line in script:
        if line.session >= len(state.sessions):
            raise RuleError("LF-1", f"line {line.number}: there are only {len(state.sessions)} "
                                    "sessions")
        if line.tick >= state.sessions[line.session].ticks:
            raise RuleError("LF-1", f"line {line.number}: session {line.session + 1} has ticks "
                                    f"0-{state.sessions[line.session].ticks - 1}")
    records = [_record(state, state.board, [])]
    while state.stage != "over":
        index, tick = state.index, state.board.tick
        standing: dict[int, Submission[FeatherMove]] = {}
        rejected: list[dict[str, Any]] = []
        for line in script:
            if (line.session, line.tick) != (index, tick):
                continue
            try:
                value = GAME.validate(state, line.seat, line.text, SubmitContext(at=0.0))
            except RuleError as exc:
                rejected.append({"seat": line.seat, "text": line.text, "done": False,
                                 "refused": {"rule": exc.rule, "words": exc.message},
                                 "line": line.number})
                continue
            standing[line.seat] = Submission(line.seat, line.text, value, 0.0)
        outcome = PhaseOutcome(standing=standing,
                               history={s: (sub,) for s, sub in standing.items()},
                               missing=frozenset(), ended_at=config.tick)
        before = state
        state, _ = GAME.resolve(state, outcome, rng)
        actions = rejected + [o.to_json() for o in state.last]
        if state.index != index:
            assert state.ended is not None
            records.append(_record(before, state.ended, actions))
            if state.stage != "over":
                records.append(_record(state, state.board, []))
        else:
            records.append(_record(state, state.board, actions))
    result = GAME.result(state)
    assert result is not None
    return {"scenario": config.scenario, "title": state.title, "ankh_start": config.ankh,
            "ticks": records, "result": result.to_json()}


def describe_tick(record: dict[str, Any]) -> str:
    """One tick as a few lines of text."""
    seats = []
    for s in record["seats"]:
        buckets = " ".join(f"{b['name']} {b['water']}/{b['capacity']}"
                           + ("(locked)" if b["locked_until"] is not None else "")
                           for b in s["buckets"])
        held = ",".join(f"{n} {p}" for p, n in s["powerups"].items() if n)
        cool = "" if s["can_fill_next"] else f" fill@{s['fill_ready_at']}"
        seats.append(f"seat {s['seat'] + 1}: {buckets} [{s['points']} pts{cool}"
                     + (f"; {held}" if held else "") + "]")
    basins = " ".join(f"{b['name']} {b['amount']}" for b in record["basins"])
    objectives = ",".join(str(o["id"]) for o in record["objectives"]) or "-"
    lines = [f"{record['session']} tick {record['tick']}: basins {basins}; objectives "
             f"{objectives}; ankh seat {record['ankh'] + 1}", *("  " + x for x in seats)]
    for a in record["actions"]:
        if "refused" in a:
            said = f"{a['text']}: refused when sent, {a['refused']['words']} ({a['refused']['rule']})"
        else:
            said = outcome_words(a)
        lines.append(f"  > seat {a['seat'] + 1} {said}")
    return "\n".join(lines)
