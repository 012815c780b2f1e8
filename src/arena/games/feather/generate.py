"""Scenarios generated from the match's chance (LF-12): a new puzzle every match.

``generate`` draws a whole scenario (sessions, bucket capacities, basin schedules, objectives
and rewards) from a ``random.Random`` the match derives from its seed (G-12), as TOML data in
the schema a host writes (LF-7), so a generated puzzle can be read, kept, edited and replayed.

Why it is fair, feasible and the same everywhere:

- *fair*: a session's buckets and objectives are the same for both seats (the engine gives
  every seat the session's capacities); nothing here looks at a seat.
- *feasible*: every objective is read off a bucket state that :func:`feasible.explore`
  reached by playing one seat exactly as the engine would, so the state is its proof; a
  capacity objective (one that needs Modify) comes from a search that may Modify once, and
  its session then pays a Modify for an objective proven without one, set out on the board
  from the start. ``feasible.objective_problems`` checks the result independently.
- *deterministic*: only the given generator's integer draws decide; lists are walked in their
  own order (no ``hash()``, no set order, no floats), so one seed gives the same bytes on any
  machine and any ``PYTHONHASHSEED``. :data:`VERSION` names this procedure: a change to what
  it draws must bump it (the golden digests in the tests fail otherwise), as a stored match
  replays by regenerating from its seed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from arena.core.errors import RuleError
from arena.games.feather.feasible import Reached, explore, prove
from arena.games.feather.objectives import POWERUPS
from arena.games.feather.scenario import Scenario, parse_scenario, scenario_from_data

VERSION = 2
DIFFICULTIES = ("easy", "normal", "hard")
PRACTICE_TICKS = 30
SESSION_TICKS = 60
"""LF-1: a 5-minute practice session and 10-minute sessions at 10 seconds a tick."""
MAX_SESSIONS = 5
OBJECTIVES = 10
"""LF-7: five on the board and five queued."""
MODIFY_FROM = 600
"""The capacity objective is read off the first states explored only: its proof searches with
a Modify in hand, a space several times larger, and must find it within ``feasible.BUDGET``."""
BASIN_NAMES = "KLMNPQRSTUVWXYZ"
"""Letters no bucket uses (buckets are A-H) and no word of the notation is."""


@dataclass(frozen=True)
class Knobs:
    """What a difficulty changes."""

    caps: tuple[int, int]
    """The range of bucket capacities."""
    budget: int
    """Bucket states explored per session; the objectives are read off these."""
    window: tuple[int, int]
    """Which part of the explored states (in per cent of them, earliest first) objectives
    come from: later states need more actions (and transfers) to reach."""
    kinds: tuple[str, ...]
    """The objective kinds drawn from (a kind listed twice is drawn twice as often)."""
    modify: int
    """Per cent of scored sessions with an objective that needs a Modify first."""
    trickle_every: tuple[int, int]
    """How often the steady basin adds 1 (every 1st tick, every 2nd, ...)."""
    period: tuple[int, int]
    """How often the periodic basin bursts: a longer period is less water to share."""
    bursts: int
    """Extra burst basins beyond the trickle and the periodic one."""
    heavy: int
    """Objectives drawn for each one set out, of which the one needing the most water is
    kept: more draws mean objectives that take more fills (so more ticks, and more of the
    basins' water, which the two seats share) to meet."""


KNOBS: dict[str, Knobs] = {
    "easy": Knobs(caps=(2, 8), budget=300, window=(0, 35),
                  kinds=("exact", "exact", "full", "equal", "sum", "pair", "atleast", "full"),
                  modify=0, trickle_every=(1, 1), period=(4, 9), bursts=1, heavy=1),
    # Normal and hard keep the objective that needs the most water of 4 and 6 drawn, from
    # later (deeper) states and with more buckets at once: measured by
    # bench/feather_scenarios.py (200 matches each), bots complete 99.5%, 91% and 66.5%.
    "normal": Knobs(caps=(2, 10), budget=1200, window=(40, 100),
                    kinds=("exact", "pair", "pair", "sum", "equal", "different", "full",
                           "spread", "headroom", "triple"),
                    modify=50, trickle_every=(1, 2), period=(4, 9), bursts=1, heavy=4),
    "hard": Knobs(caps=(3, 13), budget=2500, window=(55, 100),
                  kinds=("pair", "triple", "triple", "sum", "different", "full", "equal"),
                  modify=100, trickle_every=(2, 3), period=(4, 9), bursts=2, heavy=6),
}


def session_ticks(sessions: int, practice: bool) -> tuple[int, ...]:
    """The ticks of each session a generated scenario has: known before any draw, so the
    whole-match bound (``max_phases``) needs no generation."""
    return ((PRACTICE_TICKS,) if practice else ()) + (SESSION_TICKS,) * sessions


def _check(difficulty: str, sessions: int) -> Knobs:
    if difficulty not in KNOBS:
        raise RuleError("LF-12", f"difficulty is one of {', '.join(DIFFICULTIES)}, not "
                                 f"{difficulty[:20]!r}")
    if not 1 <= sessions <= MAX_SESSIONS:
        raise RuleError("LF-12", f"a generated scenario has 1 to {MAX_SESSIONS} scored "
                                 f"sessions, not {sessions}")
    return KNOBS[difficulty]


# --------------------------------------------------------------------------- basins
def _basins(rng: random.Random, knobs: Knobs, caps: Sequence[int], ticks: int
            ) -> list[dict[str, Any]]:
    """A steady trickle, a periodic burst and (by difficulty) one-off bursts worth waiting for
    (LF-8), named with distinct letters."""
    top = max(caps)
    count = 2 + knobs.bursts
    names = sorted(rng.sample(BASIN_NAMES, count))
    out: list[dict[str, Any]] = []
    every = rng.randint(*knobs.trickle_every)
    trickle: dict[str, Any] = {"name": names[0], "add": 1}
    if every > 1:
        trickle["every"] = every
    out.append(trickle)
    period = rng.randint(*knobs.period)
    out.append({"name": names[1], "add": rng.randint(max(2, top // 2), top + 2), "every": period,
                "from": rng.randint(0, period - 1)})
    for name in names[2:]:
        first = rng.randint(ticks // 5, ticks // 2)
        at = [[first, rng.randint(top, 2 * top + 4)]]
        if rng.randint(0, 1):
            at.append([rng.randint(first + 8, ticks - 6), rng.randint(top, 2 * top + 4)])
        out.append({"name": name, "at": at})
    return out


# --------------------------------------------------------------------------- objectives
Maker = Callable[[random.Random, Reached], dict[str, Any] | None]


def _pick(rng: random.Random, items: Sequence[int], k: int) -> list[int]:
    return sorted(rng.sample(list(items), k))


def _exact(rng: random.Random, s: Reached) -> dict[str, Any] | None:
    # Prefer an amount no bucket holds when full: one that needs a transfer to measure.
    odd = [i for i, w in enumerate(s.waters) if w > 0 and w not in s.caps]
    some = odd or [i for i, w in enumerate(s.waters) if w > 0]
    if not some:
        return None
    return {"buckets": 1, "amount": s.waters[rng.choice(some)]}


def _pair(rng: random.Random, s: Reached, k: int = 2) -> dict[str, Any] | None:
    full = [i for i, w in enumerate(s.waters) if w > 0]
    if len(full) < k:
        return None
    chosen = _pick(rng, full, k)
    return {"amounts": sorted(s.waters[i] for i in chosen)}


def _triple(rng: random.Random, s: Reached) -> dict[str, Any] | None:
    return _pair(rng, s, 3)


def _sum(rng: random.Random, s: Reached) -> dict[str, Any] | None:
    full = [i for i, w in enumerate(s.waters) if w > 0]
    if len(full) < 2:
        return None
    k = rng.randint(2, min(3, len(full)))
    chosen = _pick(rng, full, k)
    total = sum(s.waters[i] for i in chosen)
    if total == sum(s.caps[i] for i in chosen):
        return None  # a plain "fill them" objective; the "full" kind covers it
    return {"buckets": k, "sum": total}


def _equal(rng: random.Random, s: Reached) -> dict[str, Any] | None:
    groups: dict[int, list[int]] = {}
    for i, w in enumerate(s.waters):
        if w > 0:
            groups.setdefault(w, []).append(i)
    options = [(w, g) for w, g in sorted(groups.items()) if len(g) >= 2]
    if not options:
        return None
    w, g = rng.choice(options)
    k = rng.randint(2, len(g))
    return {"buckets": k, "all_equal": True, "amount": {"min": w}}


def _different(rng: random.Random, s: Reached) -> dict[str, Any] | None:
    full = [i for i, w in enumerate(s.waters) if w > 0]
    distinct: list[int] = []
    for i in full:
        if s.waters[i] not in [s.waters[j] for j in distinct]:
            distinct.append(i)
    if len(distinct) < 3:
        return None
    k = rng.randint(3, len(distinct))
    chosen = _pick(rng, distinct, k)
    low = min(s.waters[i] for i in chosen)
    return {"buckets": k, "all_different": True, "amount": {"min": low}}


def _full(rng: random.Random, s: Reached) -> dict[str, Any] | None:
    full = [i for i, (w, c) in enumerate(zip(s.waters, s.caps, strict=True)) if w == c]
    if not full:
        return None
    if len(full) >= 2 and rng.randint(0, 1):
        return {"buckets": rng.randint(2, len(full)), "full": True}
    return {"buckets": 1, "full": True, "capacity": s.caps[rng.choice(full)]}


def _spread(rng: random.Random, s: Reached) -> dict[str, Any] | None:
    full = [i for i, w in enumerate(s.waters) if w > 1]
    pairs = [(i, j) for i in full for j in full if i < j and abs(s.waters[i] - s.waters[j]) <= 1]
    if not pairs:
        return None
    i, j = rng.choice(pairs)
    return {"buckets": 2, "amount": {"min": min(s.waters[i], s.waters[j])}, "spread": {"max": 1}}


def _headroom(rng: random.Random, s: Reached) -> dict[str, Any] | None:
    some = [i for i, (w, c) in enumerate(zip(s.waters, s.caps, strict=True)) if 0 < w < c]
    if not some:
        return None
    i = rng.choice(some)
    return {"buckets": 1, "amount": s.waters[i], "headroom": s.caps[i] - s.waters[i]}


def _atleast(rng: random.Random, s: Reached) -> dict[str, Any] | None:
    some = [i for i, w in enumerate(s.waters) if w > 1]
    if not some:
        return None
    return {"buckets": 1, "amount": {"min": s.waters[rng.choice(some)]}}


def _need(table: dict[str, Any], s: Reached) -> int:
    """About how much water meeting ``table`` takes (what its buckets must hold at least)."""
    k = int(table.get("buckets", 1))
    if "amounts" in table:
        return sum(table["amounts"])
    if "sum" in table:
        return int(table["sum"])
    amount = table.get("amount")
    if isinstance(amount, int):
        return k * amount
    if isinstance(amount, dict):
        low = int(amount["min"])
        return k * low + (k * (k - 1) // 2 if table.get("all_different") else 0)
    if table.get("full"):
        return int(table.get("capacity", 0)) or sum(sorted(s.caps)[:k])
    return 0


MAKERS: dict[str, Maker] = {
    "exact": _exact, "pair": _pair, "triple": _triple, "sum": _sum, "equal": _equal,
    "different": _different, "full": _full, "spread": _spread, "headroom": _headroom,
    "atleast": _atleast,
}


def _reward(rng: random.Random, table: dict[str, Any], s: Reached, pool: int, index: int
            ) -> dict[str, int]:
    """Points for the work (later states, more buckets), and now and then a powerup use."""
    buckets = table.get("buckets", len(table.get("amounts", [])))
    work = 1 + (3 * index) // max(1, pool) + (1 if buckets >= 3 else 0)
    reward: dict[str, int] = {"points": min(4, work)}
    if rng.randint(0, 99) < 40:
        reward[rng.choice(POWERUPS)] = 1
    return reward


def _modify_objective(rng: random.Random, caps: tuple[int, ...], states: list[Reached]
                      ) -> dict[str, Any] | None:
    """A full bucket of a capacity no bucket has (LF-9): read off a reached state in which a
    bucket holds 1 or 2 less than its capacity, and that capacity is no bucket's. One Modify
    down to the water makes it full, so the state plus that Modify is the proof."""
    found = [(s, i) for s in states for i, (w, c) in enumerate(zip(s.waters, s.caps, strict=True))
             if c - 2 <= w < c and w not in caps and w > 0]
    if not found:
        return None
    s, i = rng.choice(found)
    cap = s.waters[i]
    return {"text": f"A full bucket of capacity {cap} (Modify one first)", "buckets": 1,
            "full": True, "capacity": cap}


def _objectives(rng: random.Random, knobs: Knobs, spec_caps: tuple[int, ...],
                states: list[Reached], with_modify: bool) -> list[dict[str, Any]]:
    lo, hi = knobs.window
    n = len(states)
    pool = states[1:][(n * lo) // 100:max((n * hi) // 100, (n * lo) // 100 + 1)] or states[1:]
    tables: list[dict[str, Any]] = []
    seen: list[str] = []
    special = _modify_objective(rng, spec_caps, states[1:MODIFY_FROM]) if with_modify else None
    if special is not None:
        special["reward"] = {"points": 3}
        seen.append(json.dumps(special, sort_keys=True))
    tries = 0
    while len(tables) < OBJECTIVES - (special is not None) and tries < 400:
        tries += 1
        best: tuple[int, int, dict[str, Any]] | None = None
        for _ in range(knobs.heavy):
            kind = rng.choice(knobs.kinds)
            index = rng.randrange(len(pool))
            table = MAKERS[kind](rng, pool[index])
            if table is None or json.dumps(table, sort_keys=True) in seen:
                continue
            need = _need(table, pool[index])
            if best is None or need > best[0]:
                best = (need, index, table)
        if best is None:
            continue
        _, index, table = best
        state = pool[index]
        seen.append(json.dumps(table, sort_keys=True))
        table["reward"] = _reward(rng, table, state, len(pool), index)
        tables.append(table)
    rng.shuffle(tables)
    if special is not None:
        # The Modify it needs is paid by an objective on the board from the start (LF-7),
        # itself proven without one; the capacity objective waits in the queue.
        tables[0]["reward"] = {"points": tables[0]["reward"]["points"], "modify": 1}
        tables.insert(rng.randint(5, len(tables)), special)
    return [{"id": i + 1, **t} for i, t in enumerate(tables)]


def _session(rng: random.Random, knobs: Knobs, name: str, buckets: int, ticks: int,
             practice: bool, with_modify: bool) -> dict[str, Any]:
    low, high = knobs.caps
    caps = tuple(sorted(rng.sample(range(low, high + 1), buckets), reverse=True))
    basins = _basins(rng, knobs, caps, ticks)
    data: dict[str, Any] = {"name": name}
    if practice:
        data["practice"] = True
    data.update({"ticks": ticks, "buckets": list(caps), "basins": basins})
    spec = scenario_from_data({"title": "draft", "sessions": [data]}, "draft").sessions[0]
    states = list(explore(spec, 0, knobs.budget))
    data["objectives"] = _objectives(rng, knobs, caps, states, with_modify)
    special = [t["id"] for t in data["objectives"] if "text" in t]
    if special:
        # The other objectives are read off explored states, so they are proven as drawn; the
        # capacity one is proven as ``feasible`` does, by a search with the Modify its session
        # pays in hand, which must find it within its budget. Should it not, the session's
        # objectives are drawn again without one (a mend, LF-12).
        spec = scenario_from_data({"title": "draft", "sessions": [data]}, "draft").sessions[0]
        if not prove(spec, [o for o in spec.objectives if o.id in special], 1):
            data["objectives"] = _objectives(rng, knobs, caps, states, False)
    return data


def generate_data(rng: random.Random, difficulty: str = "normal", sessions: int = 3,
                  practice: bool = True) -> dict[str, Any]:
    """A scenario as plain data (the TOML schema of LF-7), drawn from ``rng``."""
    knobs = _check(difficulty, sessions)
    out: list[dict[str, Any]] = []
    if practice:
        out.append(_session(rng, knobs, "practice", 3, PRACTICE_TICKS, True, False))
    for i in range(sessions):
        with_modify = rng.randrange(100) < knobs.modify
        out.append(_session(rng, knobs, f"session {i + 1}", min(3 + i, 5), SESSION_TICKS,
                            False, with_modify))
    return {"title": f"Generated puzzle ({difficulty})", "sessions": out}


def generate_text(rng: random.Random, difficulty: str = "normal", sessions: int = 3,
                  practice: bool = True) -> str:
    """A scenario as TOML text, drawn from ``rng``."""
    return _text(generate_data(rng, difficulty, sessions, practice))


def _text(data: dict[str, Any]) -> str:
    return to_toml(data, f"Generated by Arena's Feather generator, version {VERSION} (LF-12).")


def generate(rng: random.Random, difficulty: str = "normal", sessions: int = 3,
             practice: bool = True) -> Scenario:
    """A scenario drawn from ``rng``, read back through the host's parser (LF-7)."""
    return parse_scenario(generate_text(rng, difficulty, sessions, practice), "generated")


_made: dict[tuple[int, str, int, bool], str] = {}
_read: dict[str, Scenario] = {}


def for_match(rng: random.Random, difficulty: str = "normal", sessions: int = 3,
              practice: bool = True) -> str:
    """The scenario TOML of a match whose setup chance is ``rng`` (``derive(seed, "setup")``,
    G-12). One 64-bit draw seeds the generator, so ``arena feather generate --seed N`` and a
    match created with seed N show the same puzzle. Remembered for a few matches: a match is
    set up twice at creation (the settings check and the match) and again on every replay."""
    key = (rng.getrandbits(64), difficulty, sessions, practice)
    text = _made.get(key)
    if text is None:
        data = generate_data(random.Random(key[0]), difficulty, sessions, practice)
        text = _text(data)
        if len(_made) >= 64:
            _made.clear()
            _read.clear()
        _made[key] = text
        _read[text] = scenario_from_data(data, "generated")
    return text


def read_generated(text: str) -> Scenario:
    """What ``parse_scenario(text, "generated")`` gives, without reading the TOML again when
    this process generated ``text`` itself (:func:`for_match` keeps the scenario it built
    from the same data): a generated match is set up at once after its puzzle is drawn, and
    reading the text back was a tenth of that set-up."""
    return _read.get(text) or parse_scenario(text, "generated")


# --------------------------------------------------------------------------- TOML
def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a TOML basic string is a JSON string
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"no TOML for {type(v).__name__}")


def to_toml(data: dict[str, Any], comment: str = "") -> str:
    """Scenario data as TOML, keys in their given order: integers, strings, booleans, lists
    and inline tables only, so the text is the same bytes everywhere."""
    lines: list[str] = []
    if comment:
        lines.append(f"# {comment}")
    lines.append(f"title = {_value(data['title'])}")
    for session in data["sessions"]:
        lines += ["", "[[sessions]]"]
        lines += [f"{k} = {_value(v)}" for k, v in session.items()
                  if k not in ("basins", "objectives")]
        for table in ("basins", "objectives"):
            for item in session.get(table, []):
                lines += ["", f"[[sessions.{table}]]"]
                lines += [f"{k} = {_value(v)}" for k, v in item.items()]
    return "\n".join(lines) + "\n"


__all__ = ["DIFFICULTIES", "VERSION", "for_match", "generate", "generate_data", "generate_text",
           "read_generated", "session_ticks", "to_toml"]
