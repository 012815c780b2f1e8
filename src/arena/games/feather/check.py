"""Every structural problem of a scenario, each naming its rule (LF-1 to LF-9, LF-12).

The parser (:mod:`scenario`) stops at the first thing it cannot read; a host writing a
scenario in the editor wants the whole list at once, as they type, and also the problems a
parser cannot see: an objective asking for more buckets than the session gives, a target
larger than the buckets can hold or the basins can bring, a basin whose schedule pays only
after the session is over. :func:`problems` collects them all, each with its rule id and its
place (``sessions[1].objectives[2]``) so the editor can show it beside the field at fault.

The bounds here are simple on purpose (more than the largest bucket holds, more than the
buckets hold together, more water than the basins bring): they prove an objective *cannot*
be met, never that it can. A rigorous search (``feasible.objective_problems``) is asked too
when it is installed.

An empty list means the text reads as a scenario and a match can be built from it.
"""

from __future__ import annotations

import importlib
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.core.errors import ParseError
from arena.games.feather.basins import At
from arena.games.feather.objectives import POWERUPS, Constraint, Objective
from arena.games.feather.scenario import (
    BUCKET_LETTERS,
    Scenario,
    SessionSpec,
    parse_scenario,
    parse_session,
    shipped,
)

MAX_NAME = 40
"""Characters of a library scenario's name (the match setting ``scenario`` holds 40)."""

NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _-]*")
"""A library name: letters, digits, spaces, ``-`` and ``_``, starting with a letter or digit.
Nothing that reads as a path (``/``, ``\\``, ``..``, a drive letter) can pass."""

RESERVED_NAMES = frozenset({"generated"})
"""Names the match setting gives a meaning of its own (LF-12), beside the shipped ones."""

MAX_TICKS = 600
"""LF-1: the most ticks a session may last (``match.MAX_SESSION_TICKS``)."""
MAX_CAPACITY = 1000
"""LF-1: the largest bucket; the checks count through amounts, so every count is bounded."""
MOST_USES = 100
"""Powerup uses counted for the bounds; more changes nothing a session could use."""

MODIFY_STEP = 2
"""LF-9: one Modify changes a capacity by at most 2."""
ACCELERATE_MOST = 10
"""LF-9: one Accelerate winds a basin's clock by at most 10 ticks."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a scenario: the rule it breaks, where, and what, in words."""

    rule: str
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.where}: {self.message}" if self.where else \
            f"{self.rule}: {self.message}"

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "where": self.where, "message": self.message,
                "text": str(self)}


def name_problems(name: Any) -> list[Problem]:
    """LF-12: a library scenario is chosen by name, so its name must be a plain word of its
    own: never a path, never a shipped scenario's name, bounded in length."""
    if not isinstance(name, str) or not name.strip():
        return [Problem("LF-12", "name", "a scenario needs a name")]
    if len(name) > MAX_NAME:
        return [Problem("LF-12", "name", f"a name has at most {MAX_NAME} characters")]
    if any(c in name for c in "/\\:") or ".." in name or name.startswith("."):
        return [Problem("LF-12", "name", f"{name[:MAX_NAME]!r} reads as a path; use letters, "
                                         "digits, spaces, - and _")]
    if not NAME_PATTERN.fullmatch(name) or name != name.strip():
        return [Problem("LF-12", "name", "use letters, digits, spaces, - and _, starting with a "
                                         "letter or digit")]
    if name.lower() in {*shipped(), *RESERVED_NAMES}:
        return [Problem("LF-12", "name", f"{name!r} is the name of a scenario that comes with "
                                         "the game; choose another")]
    return []


def problems(source: str | Scenario) -> list[Problem]:
    """Every structural problem of a scenario given as TOML text or already read."""
    if isinstance(source, Scenario):
        found: list[Problem] = []
        modify = accelerate = 0
        for i, spec in enumerate(source.sessions):
            modify += _uses(spec, "modify")
            accelerate = _uses(spec, "accelerate")
            found += _session_problems(spec, f"sessions[{i}]", modify, accelerate)
        # The search proves reachability of a well-formed scenario; on a broken one it would
        # only repeat the broken part in other words.
        return found if found else _feasible(source)
    try:
        data = tomllib.loads(source)
    except tomllib.TOMLDecodeError as exc:
        return [Problem("LF-7", "", f"not valid TOML: {exc}")]
    return data_problems(data, source)


def data_problems(data: Mapping[str, Any], text: str | None = None) -> list[Problem]:
    """The problems of a scenario as plain data (TOML read into dicts and lists, or the JSON
    the editor sends). ``text``, when given, is parsed whole as a last check."""
    found: list[Problem] = []
    unknown = sorted(set(data) - {"title", "sessions"})
    if unknown:
        found.append(Problem("LF-7", "", f"unknown key {unknown[0]!r} (allowed: title, "
                                         "sessions)"))
    if "title" in data and not isinstance(data["title"], str):
        found.append(Problem("LF-7", "title", "expected a string"))
    raw = data.get("sessions")
    if not isinstance(raw, list) or not raw:
        return [*found, Problem("LF-1", "sessions", "a scenario needs at least one session")]
    modify = 0
    specs: list[SessionSpec] = []
    for i, table in enumerate(raw):
        where = f"sessions[{i}]"
        if not isinstance(table, Mapping):
            found.append(Problem("LF-7", where, "expected a table"))
            continue
        before, mended = _raw_session(table, where)
        found += before
        try:
            spec = parse_session(mended, where)
        except ParseError as exc:
            message = exc.message
            prefix = f"{where}"
            if message.startswith(prefix):
                message = message[len(prefix):].lstrip(".")
            place, _, what = message.partition(": ")
            problem = Problem(exc.rule, f"{where}.{place}" if what and place else where,
                              what or message)
            if not any(p.where == problem.where and p.message == problem.message for p in found):
                found.append(problem)
            continue
        modify += _uses(spec, "modify")
        specs.append(spec)
        found += _session_problems(spec, where, modify, _uses(spec, "accelerate"))
    if len(specs) == len(raw) and not found:
        title = data.get("title")
        found += _feasible(Scenario("scenario", title if isinstance(title, str) else "",
                                    tuple(specs)))
    if not found and text is not None:
        try:
            parse_scenario(text)
        except ParseError as exc:  # a backstop: nothing above may miss what the parser sees
            found.append(Problem(exc.rule, "", exc.message))
    return found


# --------------------------------------------------------------------------- raw checks
def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _raw_session(table: Mapping[str, Any], where: str) -> tuple[list[Problem], dict[str, Any]]:
    """What the parser would refuse in the buckets and rewards, said with the rule behind it
    (LF-1 capacities, LF-9 powerups) instead of the format's LF-7, and a mended copy so the
    rest of the session is still checked."""
    found: list[Problem] = []
    mended = dict(table)
    caps = table.get("buckets")
    if isinstance(caps, list):
        if not 1 <= len(caps) <= len(BUCKET_LETTERS):
            found.append(Problem("LF-1", f"{where}.buckets", f"a session gives each seat 1 to "
                                 f"{len(BUCKET_LETTERS)} buckets, not {len(caps)}"))
        fixed = []
        for j, cap in enumerate(caps[: len(BUCKET_LETTERS)]):
            letter = BUCKET_LETTERS[j]
            if not _whole(cap):
                found.append(Problem("LF-1", f"{where}.buckets[{j}]", f"bucket {letter}'s "
                                     f"capacity must be a whole number, not {cap!r}"))
                fixed.append(1)
            elif cap > MAX_CAPACITY:
                found.append(Problem("LF-1", f"{where}.buckets[{j}]", f"bucket {letter}'s "
                                     f"capacity is {cap}; at most {MAX_CAPACITY:,}"))
                fixed.append(MAX_CAPACITY)
            elif cap < 1:
                found.append(Problem("LF-1", f"{where}.buckets[{j}]", f"bucket {letter}'s "
                                     f"capacity is {cap}; a bucket holds water up to a "
                                     "capacity of at least 1"))
                fixed.append(1)
            else:
                fixed.append(cap)
        mended["buckets"] = fixed or [1]
    ticks = table.get("ticks", 60)
    if _whole(ticks) and ticks < 1:
        found.append(Problem("LF-1", f"{where}.ticks", f"a session lasts at least 1 tick, not "
                                                        f"{ticks}"))
        mended["ticks"] = 1
    elif _whole(ticks) and ticks > MAX_TICKS:
        found.append(Problem("LF-1", f"{where}.ticks", f"a session lasts at most {MAX_TICKS} "
                                                        f"ticks, not {ticks}"))
        mended["ticks"] = MAX_TICKS
    objectives = table.get("objectives")
    if isinstance(objectives, list):
        fixed_objs: list[Any] = []
        for k, obj in enumerate(objectives):
            reward = obj.get("reward") if isinstance(obj, Mapping) else None
            if isinstance(reward, Mapping):
                bad = sorted(set(reward) - {"points", *POWERUPS})
                for key in bad:
                    found.append(Problem("LF-9", f"{where}.objectives[{k}].reward",
                                         f"{key!r} is not a powerup (the powerups are "
                                         f"{', '.join(POWERUPS)})"))
                if bad:
                    kept = {key: v for key, v in reward.items() if key not in bad}
                    obj = {**obj, "reward": kept or {"points": 1}}
            fixed_objs.append(obj)
        mended["objectives"] = fixed_objs
    return found, mended


# --------------------------------------------------------------------------- session checks
def _uses(spec: SessionSpec, powerup: str) -> int:
    """How many uses of a powerup this session's objectives can pay (LF-9)."""
    index = POWERUPS.index(powerup)
    return sum(obj.reward.powerups[index] for obj in spec.objectives)


def _supply(spec: SessionSpec, extra_ticks: int) -> int:
    """All the water the basins can hold over the session (LF-8): what they start with and
    every addition up to the last tick at which a Fill can still use it, plus what
    ``extra_ticks`` of Accelerate could bring forward."""
    last = spec.ticks - 1 + extra_ticks
    return sum(b.initial + sum(b.addition(t) for t in range(last + 1)) for b in spec.basins)


def _basin_problems(spec: SessionSpec, where: str) -> list[Problem]:
    found: list[Problem] = []
    end = spec.ticks  # the state at tick ``ticks`` is after the session's last boundary
    for k, basin in enumerate(spec.basins):
        place = f"{where}.basins[{k}]"
        late = []
        for rule in basin.rules:
            first = rule.tick if isinstance(rule, At) else rule.start
            if first >= end:
                late.append(f"'{rule.describe()}' first pays at tick {first}, and the session "
                            f"ends at tick {end}")
        for text in late:
            found.append(Problem("LF-8", place, f"basin {basin.name}: {text}"))
        pays = basin.initial + sum(basin.addition(t) for t in range(end))
        if pays == 0 and not late:
            found.append(Problem("LF-8", place, f"basin {basin.name} never holds any water "
                                                "during the session"))
    return found


def _most(c: Constraint | None, top: int) -> int | None:
    """The least value ``c`` accepts in 0..top, or ``None`` when it accepts none."""
    if c is None:
        return 0
    return next((v for v in range(top + 1) if c.ok(v)), None)


def _objective_problems(obj: Objective, spec: SessionSpec, where: str, modify: int,
                        supply: int) -> list[Problem]:
    pred = obj.predicate
    n_buckets = len(spec.capacities)
    sizes = pred.sizes(n_buckets)
    label = f"objective {obj.id}"
    if not sizes:
        possible = pred.sizes(64)
        need = (f"{possible[0]}" if len(possible) == 1 else f"at least {possible[0]}") \
            if possible else "more"
        return [Problem("LF-6", where, f"{label} needs {need} buckets and the session gives "
                                       f"each seat {n_buckets}")]
    grow = MODIFY_STEP * modify
    caps = sorted(spec.capacities, reverse=True)
    top = caps[0] + grow
    reasons: list[str] = []
    per_bucket_least = _most(pred.amount, top)
    if per_bucket_least is None:
        reasons.append(f"no bucket can hold {pred.amount.describe() if pred.amount else ''}"
                       f" (the largest holds {caps[0]})")
    if pred.amounts is not None:
        for want, cap in zip(sorted(pred.amounts, reverse=True), caps, strict=False):
            if want > cap + grow:
                reasons.append(f"it needs a bucket holding {want} and the buckets hold "
                               f"{', '.join(str(c) for c in caps)}")
                break
    if pred.capacity is not None and not any(
            pred.capacity.ok(v) for c in caps for v in range(max(1, c - grow), c + grow + 1)):
        reasons.append(f"no bucket has a capacity of {pred.capacity.describe()}"
                       + ("" if grow else " and no Modify is paid before it (LF-9)"))
    if pred.total is not None:
        best = max(sum(caps[:n]) + grow * n for n in sizes)
        least_total = _most(pred.total, best)
        if least_total is None:
            reasons.append(f"a total of {pred.total.describe()} is more than the buckets hold "
                           f"together ({best})")
        elif least_total > supply:
            reasons.append(f"a total of {pred.total.describe()} is more water than the basins "
                           f"bring in the session ({supply}, LF-8)")
    if pred.spread is not None and _most(pred.spread, top) is None:
        reasons.append(f"the largest minus the smallest cannot be {pred.spread.describe()}")
    if pred.all_different and pred.amount is not None:
        distinct = sum(1 for v in range(top + 1) if pred.amount.ok(v))
        if distinct < min(sizes):
            reasons.append(f"{min(sizes)} different amounts of {pred.amount.describe()} do "
                           "not exist")
    if per_bucket_least is not None and per_bucket_least * min(sizes) > supply:
        reasons.append(f"it needs more water than the basins bring in the session ({supply}, "
                       "LF-8)")
    return [Problem("LF-6", where, f"{label} cannot be met: {r}") for r in reasons]


def _feasible(scenario: Scenario) -> list[Problem]:
    """What ``feasible.objective_problems`` (a rigorous search over bucket states) finds, when
    that module is installed; the simple bounds above are asked first and are enough to name
    the plain mistakes."""
    try:
        module = importlib.import_module("arena.games.feather.feasible")
    except ImportError:
        return []
    hook: Callable[[Scenario], Sequence[Any]] | None = getattr(module, "objective_problems",
                                                                None)
    if hook is None:
        return []
    out = []
    for item in hook(scenario):
        rule = getattr(item, "rule", None)
        message = getattr(item, "message", None)
        if not isinstance(rule, str) or not isinstance(message, str):
            rule, _, message = str(item).partition(": ")
            if not message:
                rule, message = "LF-6", str(item)
        where = getattr(item, "where", "")
        out.append(Problem(rule, where if isinstance(where, str) else "", message))
    return out


def _session_problems(spec: SessionSpec, where: str, modify: int,
                      accelerate: int) -> list[Problem]:
    if spec.ticks > MAX_TICKS or max(spec.capacities) > MAX_CAPACITY:
        return [Problem("LF-1", where, f"a session has at most {MAX_TICKS} ticks and buckets "
                                       f"of at most {MAX_CAPACITY:,}")]
    modify, accelerate = min(modify, MOST_USES), min(accelerate, MOST_USES)
    found = _basin_problems(spec, where)
    supply = _supply(spec, ACCELERATE_MOST * accelerate)
    for k, obj in enumerate(spec.objectives):
        found += _objective_problems(obj, spec, f"{where}.objectives[{k}]", modify, supply)
    if not spec.objectives:
        found.append(Problem("LF-7", f"{where}.objectives", "a session needs objectives"))
    return found
