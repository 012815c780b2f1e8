"""The two kinds of bad input, both ``ValueError`` (after python-chess).

A rejected submission must say which rule it breaks (G-6), so every error carries the id of
the ruling or rule text it enforces. The server shows ``str(error)`` next to the control.
"""

from __future__ import annotations


class RuleError(ValueError):
    """A submission that parses but breaks a rule of the game (or of the engine)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}" if rule else message)
        self.rule = rule
        self.message = message


class ParseError(RuleError):
    """Text that cannot be read at all; carries line and column where the format has them."""

    def __init__(
        self, rule: str, message: str, *, line: int | None = None, column: int | None = None
    ) -> None:
        where = ""
        if line is not None:
            where = f"line {line}" + (f", column {column}" if column is not None else "") + ": "
        super().__init__(rule, where + message)
        self.line = line
        self.column = column


class StalePhase(RuleError):
    """A submission or confirmation made for a phase that closed before it arrived (G-2).

    Nothing was applied: it is not read as an answer to the phase that followed (a page offline
    across a deadline would otherwise send its old plan, or an empty one, into the next round).
    It carries the phase it was for and the phase now open, so the API can answer 409 with both
    and a page can tell its player in the game's own words and keep the draft."""

    def __init__(self, message: str, *, phase: int, title: str, current: int | None) -> None:
        super().__init__("G-2", message)
        self.phase = phase
        self.title = title
        self.current = current
