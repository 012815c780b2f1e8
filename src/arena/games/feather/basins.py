"""Basins: shared pools that gain water on a schedule of their own (LF-8).

A basin's schedule is data: rules of the form "+A every K ticks from tick S (until tick U)" and
single additions "+A at tick T". Each basin keeps its own clock, which normally reads the
session's tick; Accelerate N winds that clock forward by N ticks at once, adding what those
ticks would have added, and the basin then keeps counting from its advanced reading (LF-8).
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.core.errors import RuleError


@dataclass(frozen=True)
class Every:
    """``add`` water on every ``every``-th tick from ``start`` (inclusive) to ``until``."""

    add: int
    every: int = 1
    start: int = 0
    until: int | None = None

    def amount_at(self, clock: int) -> int:
        if clock < self.start or (self.until is not None and clock > self.until):
            return 0
        return self.add if (clock - self.start) % self.every == 0 else 0

    def describe(self) -> str:
        period = "every tick" if self.every == 1 else f"every {self.every} ticks"
        until = "" if self.until is None else f" until tick {self.until}"
        return f"+{self.add} {period} from tick {self.start}{until}"


@dataclass(frozen=True)
class At:
    """A single addition of ``add`` water when the basin's clock reads ``tick``."""

    tick: int
    add: int

    def amount_at(self, clock: int) -> int:
        return self.add if clock == self.tick else 0

    def describe(self) -> str:
        return f"+{self.add} at tick {self.tick}"


Rule = Every | At


@dataclass(frozen=True)
class BasinSpec:
    """A basin as a scenario declares it: its name, water before tick 0, and its schedule."""

    name: str
    initial: int = 0
    rules: tuple[Rule, ...] = ()

    def addition(self, clock: int) -> int:
        """What the schedule adds when the basin's clock reaches ``clock``."""
        return sum(rule.amount_at(clock) for rule in self.rules)

    def describe(self) -> str:
        parts = [rule.describe() for rule in self.rules] or ["no additions"]
        start = f"starts with {self.initial}; " if self.initial else ""
        return start + ", ".join(parts)


@dataclass(frozen=True)
class Basin:
    """A basin during a session: its water and the reading of its own clock (LF-8)."""

    amount: int
    clock: int


def start_basin(spec: BasinSpec) -> Basin:
    """The basin as shown at tick 0: its initial water plus tick 0's addition (LF-2)."""
    return Basin(spec.initial + spec.addition(0), 0)


def advance(spec: BasinSpec, basin: Basin, ticks: int = 1) -> Basin:
    """Move the basin's own clock forward ``ticks`` ticks, adding each tick's water.

    The natural tick and Accelerate (LF-8) are the same operation; only the count differs.
    """
    if ticks < 0:
        raise RuleError("LF-8", "a basin's clock never runs backwards")
    if ticks == 1:  # every basin, every tick of every match: the short way
        return Basin(basin.amount + spec.addition(basin.clock + 1), basin.clock + 1)
    added = sum(spec.addition(basin.clock + k) for k in range(1, ticks + 1))
    return Basin(basin.amount + added, basin.clock + ticks)


def forecast(spec: BasinSpec, basin: Basin, ticks: int) -> tuple[int, ...]:
    """The amounts the basin would show over the next ``ticks`` ticks if nobody touched it."""
    out: list[int] = []
    amount = basin.amount
    for k in range(1, ticks + 1):
        amount += spec.addition(basin.clock + k)
        out.append(amount)
    return tuple(out)
