"""The submission notation (LO-10): the rule text's own formats, read forgivingly.

One submission holds any number of commands, one per line (a Solo, a Dual, a Bargain claim per
safe in bargaining; ``pass`` for nothing). Case, spacing and the commas are forgiving; seats are
named by their display names (or ``seat N``). Each command is a small frozen value whose ``str``
is the canonical notation, after python-chess's moves.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.core.errors import ParseError
from arena.core.wording import counted
from arena.games.lockedout.safes import SAFE_NAMES, safe_index


@dataclass(frozen=True)
class Solo:
    """One seat tries both sides of a safe (LO-3)."""

    safe: int
    left: int
    right: int

    def __str__(self) -> str:
        return f"Solo, Safe {SAFE_NAMES[self.safe]}, Left {self.left} Right {self.right}"


@dataclass(frozen=True)
class Dual:
    """One side of a safe, with a named partner who must name this seat back (LO-3)."""

    safe: int
    side: str  # "left" | "right"
    value: int
    partner: int

    def text(self, names: Sequence[str]) -> str:
        return (f"Dual, Safe {SAFE_NAMES[self.safe]}, {self.side.capitalize()} {self.value} "
                f"with {names[self.partner]}")


@dataclass(frozen=True)
class Claim:
    """What one bargainer takes from a safe's contents (LO-5)."""

    safe: int
    bars: int
    keys: int

    def __str__(self) -> str:
        return f"Bargain, Safe {SAFE_NAMES[self.safe]}, Claim {self.bars} Gold bars, {self.keys} Keys"


@dataclass(frozen=True)
class Vote:
    """A vote for the Elimination Candidate, or a winner's tie-break choice (LO-9)."""

    seat: int

    def text(self, names: Sequence[str]) -> str:
        return f"Vote {names[self.seat]}"


Command = Solo | Dual | Claim | Vote


def command_text(cmd: Command, names: Sequence[str]) -> str:
    """One command in its canonical notation (a Dual's partner and a vote by name, LO-10)."""
    return cmd.text(names) if isinstance(cmd, Dual | Vote) else str(cmd)


@dataclass(frozen=True)
class Plan:
    """A seat's whole submission for a phase (LO-3, LO-5, LO-9): its commands in order, one a
    line, ``pass`` for none. ``names`` are the players' names its notation uses for seats
    (LO-10); a plan is the same whatever its seats are called."""

    commands: tuple[Command, ...]
    names: tuple[str, ...] = field(default=(), compare=False, repr=False)

    def __str__(self) -> str:
        return "\n".join(command_text(c, self.names) for c in self.commands) or "pass"

    def to_json(self) -> list[dict[str, Any]]:
        """The plan as the match log records it, one dict per command (:func:`to_json`)."""
        return [to_json(c) for c in self.commands]

_SAFE = r"safe\s*([a-z])"
_SEP = r"\s*[,:]?\s*"
_SOLO = re.compile(rf"^solo{_SEP}{_SAFE}{_SEP}left\s*(\d+){_SEP}right\s*(\d+)\.?$", re.I)
_DUAL = re.compile(rf"^dual{_SEP}{_SAFE}{_SEP}(left|right)\s*(\d+){_SEP}with\s+(.+?)\.?$", re.I)
_CLAIM = re.compile(
    rf"^bargain{_SEP}{_SAFE}{_SEP}claims?\s*(\d+)\s*gold\s*bars?{_SEP}(\d+)\s*keys?\.?$", re.I
)
_VOTE = re.compile(r"^vote\s*(?:for\s+)?(.+?)\.?$", re.I)
_SEAT = re.compile(r"^seat\s*(\d+)$", re.I)

FORMATS = (
    "Solo, Safe C, Left 3 Right 1",
    "Dual, Safe C, Left 4 with Alice",
    "Bargain, Safe C, Claim 1 Gold bars, 0 Keys",
    "pass",
)


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text).lower()


def seat_by_name(text: str, names: Sequence[str], rule: str = "LO-10") -> int:
    """The seat a display name (case and spacing forgiven) or ``seat N`` refers to."""
    key = _squash(text)
    for i, name in enumerate(names):
        if _squash(name) == key:
            return i
    m = _SEAT.match(text.strip())
    if m and 1 <= int(m.group(1)) <= len(names):
        return int(m.group(1)) - 1
    raise ParseError(rule, f"there is no player named {text.strip()!r}; the players are "
                     f"{', '.join(names)}")


def _card(text: str, line: int) -> int:
    value = int(text)
    if not 1 <= value <= 4:
        raise ParseError("LO-2", f"cards are numbered 1 to 4, not {value}", line=line)
    return value


def parse_line(text: str, names: Sequence[str], line: int = 1) -> Command | None:
    """One command, or None for ``pass`` / an empty line."""
    s = " ".join(text.split())
    if not s or s.lower() in {"pass", "nothing", "ready"}:
        return None
    if m := _SOLO.match(s):
        return Solo(safe_index(m.group(1)), _card(m.group(2), line), _card(m.group(3), line))
    if m := _DUAL.match(s):
        partner = seat_by_name(m.group(4), names)
        return Dual(safe_index(m.group(1)), m.group(2).lower(), _card(m.group(3), line), partner)
    if m := _CLAIM.match(s):
        bars, keys = int(m.group(2)), int(m.group(3))
        if bars > 2 or keys > 1:
            raise ParseError("LO-5", "a claim is 0-2 gold bars and 0-1 keys (a safe holds 2 "
                             f"bars and 1 key), not {counted(bars, 'bar')} and {counted(keys, 'key')}", line=line)
        return Claim(safe_index(m.group(1)), bars, keys)
    if m := _VOTE.match(s):
        return Vote(seat_by_name(m.group(1), names, "LO-9"))
    first = s.split(",")[0].split()  # empty when the line starts with a comma
    head = first[0].lower() if first else ""
    expected = {
        "solo": FORMATS[0],
        "dual": FORMATS[1],
        "bargain": FORMATS[2],
    }.get(head)
    if expected is not None:
        raise ParseError("LO-10", f"expected a command like {expected!r}, got {s!r}", line=line)
    raise ParseError("LO-10", f"cannot read {s!r}; write one command a line, e.g. "
                     + "; ".join(repr(f) for f in FORMATS), line=line)


def parse(text: str, names: Sequence[str]) -> tuple[Command, ...]:
    """Every command of a submission, in order (blank lines and ``pass`` ignored)."""
    commands: list[Command] = []
    for n, raw in enumerate(text.replace(";", "\n").splitlines(), start=1):
        cmd = parse_line(raw, names, n)
        if cmd is not None:
            commands.append(cmd)
    return tuple(commands)


def to_json(cmd: Command) -> dict[str, Any]:
    """The JSON-able parsed value the engine records for a command."""
    if isinstance(cmd, Solo):
        return {"kind": "solo", "safe": SAFE_NAMES[cmd.safe], "left": cmd.left, "right": cmd.right}
    if isinstance(cmd, Dual):
        return {"kind": "dual", "safe": SAFE_NAMES[cmd.safe], "side": cmd.side,
                "value": cmd.value, "partner": cmd.partner}
    if isinstance(cmd, Claim):
        return {"kind": "claim", "safe": SAFE_NAMES[cmd.safe], "bars": cmd.bars, "keys": cmd.keys}
    return {"kind": "vote", "seat": cmd.seat}
