"""Scenarios: the buckets, basins and objectives of every session, as host-authored TOML.

A scenario lists its sessions in play order (LF-1: a practice session, then sessions of 3, 4
and 5 buckets by default). Each session names the capacities of the buckets every seat gets,
the shared basins with their schedules (LF-8), and its objectives in order: the first
``available`` are on the board, the rest wait in the queue (LF-7). Shipped scenarios live in
``scenarios/`` next to this module; any path to a ``.toml`` file works too.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from arena.core.errors import ParseError, RuleError
from arena.games.feather.actions import GLUE, VERBS
from arena.games.feather.basins import At, BasinSpec, Every, Rule
from arena.games.feather.objectives import Objective, parse_objective

SCENARIO_DIR = Path(__file__).with_name("scenarios")
BUCKET_LETTERS = "ABCDEFGH"
RESERVED = frozenset({*GLUE, *VERBS, "opp", "opponent", "their", "theirs", "my", "own", "mine"})
"""Words of the action notation, which cannot name a basin."""


@dataclass(frozen=True)
class SessionSpec:
    """One session: its buckets (capacities, the same for both seats), basins, objectives."""

    name: str
    ticks: int
    capacities: tuple[int, ...]
    basins: tuple[BasinSpec, ...]
    objectives: tuple[Objective, ...]
    practice: bool = False
    available: int = 5

    # Worked out once per session: every submission and every tick reads them;
    # the spec is frozen, so they never go stale.
    @cached_property
    def bucket_names(self) -> tuple[str, ...]:
        return tuple(BUCKET_LETTERS[: len(self.capacities)])

    @cached_property
    def basin_names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.basins)

    @cached_property
    def basin_index(self) -> dict[str, int]:
        """Each basin's position by its name."""
        return {b.name: i for i, b in enumerate(self.basins)}

    def objective(self, oid: int) -> Objective:
        for obj in self.objectives:
            if obj.id == oid:
                return obj
        raise RuleError("LF-7", f"session {self.name!r} has no objective {oid}")


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    sessions: tuple[SessionSpec, ...]


def _err(where: str, message: str) -> ParseError:
    return ParseError("LF-7", f"{where}: {message}")


def _int(value: Any, where: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _err(where, f"expected a whole number, got {value!r}")
    if value < minimum:
        raise _err(where, f"must be at least {minimum}, got {value}")
    return value


def _check_keys(table: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise _err(where, f"unknown key {unknown[0]!r} (allowed: {', '.join(allowed)})")


def _rule(table: Any, where: str) -> Rule:
    if not isinstance(table, Mapping):
        raise _err(where, "expected a table like {add = 1, every = 1, from = 0}")
    if "at" in table:
        _check_keys(table, ("at", "add"), where)
        return At(tick=_int(table["at"], f"{where}.at"), add=_int(table.get("add"), f"{where}.add", 1))
    _check_keys(table, ("add", "every", "from", "until"), where)
    until = table.get("until")
    rule = Every(
        add=_int(table.get("add"), f"{where}.add", 1),
        every=_int(table.get("every", 1), f"{where}.every", 1),
        start=_int(table.get("from", 0), f"{where}.from"),
        until=None if until is None else _int(until, f"{where}.until"),
    )
    if rule.until is not None and rule.until < rule.start:
        raise _err(where, "until comes before from")
    return rule


def _basin(table: Any, where: str) -> BasinSpec:
    """LF-8: ``{name, amount, add/every/from/until}`` or ``rules = [...]``, ``at = [[t, a]]``."""
    if not isinstance(table, Mapping):
        raise _err(where, "expected a table")
    _check_keys(table, ("name", "amount", "add", "every", "from", "until", "rules", "at"), where)
    name = table.get("name")
    if not isinstance(name, str) or not name.isalnum() or not name[0].isalpha():
        raise _err(f"{where}.name", f"a basin needs a name of letters and digits, got {name!r}")
    rules: list[Rule] = []
    if "add" in table:
        rules.append(_rule({k: table[k] for k in ("add", "every", "from", "until") if k in table},
                           where))
    elif any(k in table for k in ("every", "from", "until")):
        raise _err(where, "every/from/until need an add")
    raw_rules = table.get("rules", [])
    if not isinstance(raw_rules, list):
        raise _err(f"{where}.rules", "expected a list of tables")
    rules += [_rule(r, f"{where}.rules[{i}]") for i, r in enumerate(raw_rules)]
    raw_at = table.get("at", [])
    if not isinstance(raw_at, list):
        raise _err(f"{where}.at", "expected a list of [tick, amount] pairs")
    for i, pair in enumerate(raw_at):
        if not isinstance(pair, list) or len(pair) != 2:
            raise _err(f"{where}.at[{i}]", "expected [tick, amount]")
        rules.append(At(tick=_int(pair[0], f"{where}.at[{i}]"), add=_int(pair[1], f"{where}.at[{i}]", 1)))
    return BasinSpec(name=name.upper(), initial=_int(table.get("amount", 0), f"{where}.amount"),
                     rules=tuple(rules))


def _session(table: Any, where: str) -> SessionSpec:
    if not isinstance(table, Mapping):
        raise _err(where, "expected a table")
    _check_keys(table, ("name", "ticks", "buckets", "basins", "objectives", "practice",
                        "available"), where)
    name = table.get("name", where)
    if not isinstance(name, str) or not name:
        raise _err(f"{where}.name", "expected a non-empty string")
    caps = table.get("buckets")
    if not isinstance(caps, list) or not 1 <= len(caps) <= len(BUCKET_LETTERS):
        raise _err(f"{where}.buckets", f"expected a list of 1 to {len(BUCKET_LETTERS)} capacities")
    capacities = tuple(_int(c, f"{where}.buckets", 1) for c in caps)
    basins = tuple(_basin(b, f"{where}.basins[{i}]") for i, b in enumerate(table.get("basins", [])))
    if not basins:
        raise _err(f"{where}.basins", "a session needs at least one basin")
    names = [b.name for b in basins]
    letters = set(BUCKET_LETTERS[: len(capacities)])
    for n in names:
        if names.count(n) > 1:
            raise _err(f"{where}.basins", f"two basins are called {n}")
        if n in letters or n.lower() in RESERVED:
            raise _err(f"{where}.basins", f"basin name {n} is taken by a bucket or a word")
    objs = tuple(parse_objective(o, f"{where}.objectives[{i}]")
                 for i, o in enumerate(table.get("objectives", [])))
    ids = [o.id for o in objs]
    for oid in ids:
        if ids.count(oid) > 1:
            raise _err(f"{where}.objectives", f"two objectives have id {oid}")
    practice = table.get("practice", False)
    if not isinstance(practice, bool):
        raise _err(f"{where}.practice", "expected true or false")
    return SessionSpec(
        name=name,
        ticks=_int(table.get("ticks", 60), f"{where}.ticks", 1),
        capacities=capacities,
        basins=basins,
        objectives=objs,
        practice=practice,
        available=_int(table.get("available", 5), f"{where}.available", 1),
    )


def parse_scenario(text: str, name: str = "scenario") -> Scenario:
    """Read a scenario from TOML text; every problem is a ``ParseError`` naming its place."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ParseError("LF-7", f"{name}: not valid TOML: {exc}") from None
    return scenario_from_data(data, name)


def scenario_from_data(data: Any, name: str = "scenario") -> Scenario:
    """A scenario from data as TOML reads it (LF-7), checked as ``parse_scenario`` checks
    it: for the generator, which holds its drafts as such data and need not write and read
    them back as text (that was a tenth of a generated match's set-up)."""
    _check_keys(data, ("title", "sessions"), name)
    raw = data.get("sessions")
    if not isinstance(raw, list) or not raw:
        raise _err(name, "a scenario needs at least one [[sessions]] table")
    sessions = tuple(_session(s, f"sessions[{i}]") for i, s in enumerate(raw))
    title = data.get("title", name)
    if not isinstance(title, str):
        raise _err(f"{name}.title", "expected a string")
    return Scenario(name=name, title=title, sessions=sessions)


def shipped() -> tuple[str, ...]:
    """Names of the scenarios that come with the game."""
    return tuple(sorted(p.stem for p in SCENARIO_DIR.glob("*.toml")))


_cache: dict[str, Scenario] = {}


def load_scenario(name: str) -> Scenario:
    """A shipped scenario by name (``example``, ``default``). Never a path: a match must not
    depend on (or reveal) files outside the project, and its record must replay anywhere;
    a host's own scenario travels inline in the match config (``scenario_text``)."""
    if name in _cache:
        return _cache[name]
    if name not in shipped():
        raise RuleError("LF-7", f"no shipped scenario {name[:40]!r} (shipped: "
                                f"{', '.join(shipped())}); give your own as scenario_text")
    path = SCENARIO_DIR / f"{name}.toml"
    scenario = parse_scenario(path.read_text(encoding="utf-8"), name)
    _cache[name] = scenario  # shipped files never change while running
    return scenario


def parse_session(table: Any, where: str) -> SessionSpec:
    """One ``[[sessions]]`` table, read and checked on its own (the editor's checker reads
    each session apart, so one bad session does not hide the others' problems)."""
    return _session(table, where)
