"""Objectives as data (LF-7): a declarative predicate over chosen buckets, and a reward.

A host writes objectives in TOML; nothing is ever evaluated as code. The predicate vocabulary:

``buckets``       how many buckets are named (a number or a constraint table)
``amount``        a constraint every named bucket's water must meet
``amounts``       the named buckets' water, as a list compared without regard to order
``sum``           a constraint on the named buckets' total water
``capacity``      a constraint every named bucket's capacity must meet
``headroom``      a constraint on every named bucket's free space (capacity minus water)
``spread``        a constraint on the largest minus the smallest amount
``all_equal``     every named bucket holds the same amount
``all_different`` no two named buckets hold the same amount
``full``          every named bucket is filled to its capacity

A constraint is a number (exactly that) or a table with any of ``eq``, ``min``, ``max``,
``in`` (a list) and ``multiple_of``. A reward is a table of ``points`` and powerup uses
(``exchange``, ``modify``, ``sip``, ``lock``, ``accelerate``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.core.errors import ParseError

POWERUPS: tuple[str, ...] = ("exchange", "modify", "sip", "lock", "accelerate")
"""The powerups (LF-9), in the order their counts are stored."""

PREDICATE_KEYS = (
    "buckets", "amount", "amounts", "sum", "capacity", "headroom", "spread",
    "all_equal", "all_different", "full",
)
CONSTRAINT_KEYS = ("eq", "min", "max", "in", "multiple_of")


@dataclass(frozen=True)
class Constraint:
    """Bounds on one integer; ``None`` fields do not constrain."""

    eq: int | None = None
    min: int | None = None
    max: int | None = None
    among: tuple[int, ...] | None = None
    multiple_of: int | None = None

    def ok(self, value: int) -> bool:
        if self.eq is not None and value != self.eq:
            return False
        if self.min is not None and value < self.min:
            return False
        if self.max is not None and value > self.max:
            return False
        if self.among is not None and value not in self.among:
            return False
        return not (self.multiple_of is not None and value % self.multiple_of != 0)

    def describe(self) -> str:
        parts: list[str] = []
        if self.eq is not None:
            parts.append(f"exactly {self.eq}")
        if self.min is not None and self.max is not None:
            parts.append(f"{self.min} to {self.max}")
        elif self.min is not None:
            parts.append(f"at least {self.min}")
        elif self.max is not None:
            parts.append(f"at most {self.max}")
        if self.among is not None:
            parts.append("one of " + ", ".join(str(x) for x in self.among))
        if self.multiple_of is not None:
            parts.append(f"a multiple of {self.multiple_of}")
        return " and ".join(parts) or "anything"

    def to_json(self) -> Any:
        if self.eq is not None and self == Constraint(eq=self.eq):
            return self.eq
        out: dict[str, Any] = {}
        for key, value in (("eq", self.eq), ("min", self.min), ("max", self.max),
                           ("in", self.among), ("multiple_of", self.multiple_of)):
            if value is not None:
                out[key] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True)
class Predicate:
    """What the named buckets must satisfy (LF-7). Every given clause must hold."""

    buckets: Constraint | None = None
    amount: Constraint | None = None
    amounts: tuple[int, ...] | None = None
    total: Constraint | None = None
    capacity: Constraint | None = None
    headroom: Constraint | None = None
    spread: Constraint | None = None
    all_equal: bool = False
    all_different: bool = False
    full: bool = False

    def count_ok(self, n: int) -> bool:
        if n < 1:
            return False
        if self.amounts is not None and n != len(self.amounts):
            return False
        return self.buckets is None or self.buckets.ok(n)

    def holds(self, waters: Sequence[int], caps: Sequence[int]) -> bool:
        """Whether buckets with these amounts and capacities meet the predicate."""
        n = len(waters)
        if not self.count_ok(n):
            return False
        if self.amounts is not None and tuple(sorted(waters)) != self.amounts:
            return False
        if self.amount is not None and not all(self.amount.ok(w) for w in waters):
            return False
        if self.total is not None and not self.total.ok(sum(waters)):
            return False
        if self.capacity is not None and not all(self.capacity.ok(c) for c in caps):
            return False
        if self.headroom is not None and not all(
            self.headroom.ok(c - w) for w, c in zip(waters, caps, strict=True)
        ):
            return False
        if self.spread is not None and not self.spread.ok(max(waters) - min(waters)):
            return False
        if self.all_equal and len(set(waters)) != 1:
            return False
        if self.all_different and len(set(waters)) != n:
            return False
        return not (self.full and any(w != c for w, c in zip(waters, caps, strict=True)))

    def sizes(self, limit: int) -> tuple[int, ...]:
        """The bucket counts (1..limit) this predicate can accept."""
        return tuple(n for n in range(1, limit + 1) if self.count_ok(n))

    def describe(self) -> str:
        count = "one or more buckets"
        if self.amounts is not None:
            count = f"{len(self.amounts)} bucket{'s' if len(self.amounts) != 1 else ''}"
        elif self.buckets is not None:
            if self.buckets.eq is not None and self.buckets == Constraint(eq=self.buckets.eq):
                n = self.buckets.eq
                count = f"{n} bucket{'s' if n != 1 else ''}"
            else:
                count = f"buckets (how many: {self.buckets.describe()})"
        single = count == "1 bucket"
        each = "" if single else "each "
        clauses: list[str] = []
        if self.amounts is not None:
            clauses.append("holding " + ", ".join(str(x) for x in self.amounts))
        if self.amount is not None:
            clauses.append(f"{each}holding {self.amount.describe()}")
        if self.all_equal:
            clauses.append("all equal")
        if self.all_different:
            clauses.append("all different")
        if self.full:
            clauses.append(f"{each}full")
        if self.total is not None:
            clauses.append(f"in total {self.total.describe()}")
        if self.spread is not None:
            clauses.append(f"largest minus smallest {self.spread.describe()}")
        if self.capacity is not None:
            clauses.append(f"capacity {self.capacity.describe()}")
        if self.headroom is not None:
            clauses.append(f"free space {self.headroom.describe()}")
        if single and clauses:
            return f"{count} {clauses[0]}" + "".join(f"; {c}" for c in clauses[1:])
        return count + (": " + "; ".join(clauses) if clauses else "")


@dataclass(frozen=True)
class Reward:
    """Points and powerup uses, paid when an objective is completed (LF-6)."""

    points: int = 0
    powerups: tuple[int, ...] = (0, 0, 0, 0, 0)

    def describe(self) -> str:
        parts = [f"{self.points} point{'s' if self.points != 1 else ''}"] if self.points else []
        parts += [f"{n} {name}" for name, n in zip(POWERUPS, self.powerups, strict=True) if n]
        return ", ".join(parts) or "nothing"

    def to_json(self) -> dict[str, int]:
        out = {"points": self.points}
        out.update({name: n for name, n in zip(POWERUPS, self.powerups, strict=True) if n})
        return out


@dataclass(frozen=True)
class Objective:
    """One objective of a session: an id unique in its session, a predicate and a reward."""

    id: int
    predicate: Predicate
    reward: Reward
    text: str = ""

    def describe(self) -> str:
        return self.text or self.predicate.describe()

    def to_json(self) -> dict[str, Any]:
        """The objective as the views show it. Built once per objective and then the same
        dict every time: a Feather view lists every available and queued
        objective on every tick, and an unchanged one is then neither described again nor
        compared key by key when a socket's difference is taken (``viewdiff`` passes over a
        part both views share). Callers read it and never change it."""
        cached: dict[str, Any] | None = self.__dict__.get("_json")
        if cached is None:
            cached = {"id": self.id, "text": self.describe(), "reward": self.reward.to_json(),
                      "reward_text": self.reward.describe()}
            # A frozen dataclass: the cache goes into the instance's dict directly. It is
            # not a field, so equality, hashing and ``replace`` never see it.
            self.__dict__["_json"] = cached
        return cached

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (a frozen state sent to a bot worker) without the cached JSON."""
        return {k: v for k, v in self.__dict__.items() if k != "_json"}


# --------------------------------------------------------------------------- reading TOML
def _err(where: str, message: str) -> ParseError:
    return ParseError("LF-7", f"{where}: {message}")


def _int(value: Any, where: str, *, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _err(where, f"expected a whole number, got {value!r}")
    if minimum is not None and value < minimum:
        raise _err(where, f"must be at least {minimum}, got {value}")
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _err(where, f"expected true or false, got {value!r}")
    return value


def parse_constraint(value: Any, where: str) -> Constraint:
    """A number (exactly that) or a table of ``eq``/``min``/``max``/``in``/``multiple_of``."""
    if isinstance(value, int) and not isinstance(value, bool):
        return Constraint(eq=value)
    if not isinstance(value, Mapping):
        raise _err(where, f"expected a number or a table like {{min = 1, max = 5}}, got {value!r}")
    unknown = sorted(set(value) - set(CONSTRAINT_KEYS))
    if unknown:
        raise _err(where, f"unknown key {unknown[0]!r} (allowed: {', '.join(CONSTRAINT_KEYS)})")
    if not value:
        raise _err(where, "an empty constraint says nothing")
    among: tuple[int, ...] | None = None
    if "in" in value:
        items = value["in"]
        if not isinstance(items, list) or not items:
            raise _err(f"{where}.in", "expected a non-empty list of numbers")
        among = tuple(_int(x, f"{where}.in") for x in items)
    multiple = value.get("multiple_of")
    c = Constraint(
        eq=None if "eq" not in value else _int(value["eq"], f"{where}.eq"),
        min=None if "min" not in value else _int(value["min"], f"{where}.min"),
        max=None if "max" not in value else _int(value["max"], f"{where}.max"),
        among=among,
        multiple_of=None if multiple is None else _int(multiple, f"{where}.multiple_of", minimum=1),
    )
    if c.min is not None and c.max is not None and c.min > c.max:
        raise _err(where, f"min {c.min} is above max {c.max}: nothing can meet it")
    return c


def parse_predicate(table: Mapping[str, Any], where: str) -> Predicate:
    amounts: tuple[int, ...] | None = None
    if "amounts" in table:
        raw = table["amounts"]
        if not isinstance(raw, list) or not raw:
            raise _err(f"{where}.amounts", "expected a non-empty list of numbers")
        amounts = tuple(sorted(_int(x, f"{where}.amounts", minimum=0) for x in raw))

    def constraint(key: str) -> Constraint | None:
        return parse_constraint(table[key], f"{where}.{key}") if key in table else None

    pred = Predicate(
        buckets=constraint("buckets"),
        amount=constraint("amount"),
        amounts=amounts,
        total=constraint("sum"),
        capacity=constraint("capacity"),
        headroom=constraint("headroom"),
        spread=constraint("spread"),
        all_equal=_bool(table.get("all_equal", False), f"{where}.all_equal"),
        all_different=_bool(table.get("all_different", False), f"{where}.all_different"),
        full=_bool(table.get("full", False), f"{where}.full"),
    )
    if not pred.sizes(64):
        raise _err(where, "no number of buckets can meet this objective")
    return pred


def parse_reward(value: Any, where: str) -> Reward:
    if not isinstance(value, Mapping):
        raise _err(where, "expected a table like {points = 2, modify = 1}")
    allowed = ("points", *POWERUPS)
    unknown = sorted(set(value) - set(allowed))
    if unknown:
        raise _err(where, f"unknown reward {unknown[0]!r} (allowed: {', '.join(allowed)})")
    reward = Reward(
        points=_int(value.get("points", 0), f"{where}.points", minimum=0),
        powerups=tuple(_int(value.get(p, 0), f"{where}.{p}", minimum=0) for p in POWERUPS),
    )
    if reward.points == 0 and not any(reward.powerups):
        raise _err(where, "an objective must reward points or a powerup")
    return reward


def parse_objective(table: Any, where: str) -> Objective:
    """Read and check one objective table; every mistake names its place and LF-7."""
    if not isinstance(table, Mapping):
        raise _err(where, "expected a table")
    allowed = ("id", "text", "reward", *PREDICATE_KEYS)
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise _err(where, f"unknown key {unknown[0]!r} (allowed: {', '.join(allowed)})")
    if "id" not in table:
        raise _err(where, "every objective needs an id")
    if "reward" not in table:
        raise _err(where, "every objective needs a reward")
    text = table.get("text", "")
    if not isinstance(text, str):
        raise _err(f"{where}.text", "expected a string")
    return Objective(
        id=_int(table["id"], f"{where}.id", minimum=1),
        predicate=parse_predicate(table, where),
        reward=parse_reward(table["reward"], f"{where}.reward"),
        text=text,
    )
