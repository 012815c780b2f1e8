"""The deduction helper: what one seat can still believe about every safe and the mapping.

Inputs are only what the seat may know: the lights it saw (its own guesses; in a Dual, the
partner's number is unknown, LO-4) and the openings it heard of (with whatever sides it knows:
both once a combination is announced, its own side after opening as a Dual partner, none while
a bargain is still running). The sixteen combinations form a permutation over the sixteen
safes (LO-1), so safes constrain each other: for each of the six colour mappings the helper
builds every safe's domain, checks that a perfect matching of safes to combinations exists (else
the mapping is ruled out), and keeps exactly the (safe, combination) pairs that lie in *some*
perfect matching (alternating-cycle test on the matching, Berge). The union over surviving
mappings is what each safe can still be; nothing consistent with the facts is ever ruled out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from arena.core.errors import ParseError, RuleError
from arena.games.lockedout.safes import (
    COMBOS,
    MAPPINGS,
    PATTERN,
    SAFE_NAMES,
    VALUES,
    Combo,
    check_colour,
    light,
    pattern_of_colour,
    safe_index,
)

ALL = (1 << 16) - 1
COMBO_INDEX = {c: i for i, c in enumerate(COMBOS)}


@dataclass(frozen=True)
class Seen:
    """A light the seat saw for a wrong guess; ``None`` marks the partner's unknown side."""

    safe: int
    left: int | None
    right: int | None
    colour: str

    def guesses(self) -> tuple[Combo, ...]:
        lefts = VALUES if self.left is None else (self.left,)
        rights = VALUES if self.right is None else (self.right,)
        return tuple((a, b) for a in lefts for b in rights)


@dataclass(frozen=True)
class Known:
    """An opened safe, with the sides the seat knows (both None: only that it opened)."""

    safe: int
    left: int | None = None
    right: int | None = None

    def allows(self, combo: Combo) -> bool:
        return (self.left is None or combo[0] == self.left) and (
            self.right is None or combo[1] == self.right)


@dataclass(frozen=True)
class Observations:
    lights: tuple[Seen, ...] = ()
    opened: tuple[Known, ...] = ()


@dataclass(frozen=True)
class Deduction:
    """Per mapping still possible, per safe, the bitmask of combinations still possible."""

    by_mapping: tuple[tuple[str, tuple[int, ...]], ...]
    opened: frozenset[int]

    @property
    def mappings(self) -> tuple[str, ...]:
        return tuple(m for m, _ in self.by_mapping)

    def mask(self, safe: int) -> int:
        out = 0
        for _, masks in self.by_mapping:
            out |= masks[safe]
        return out

    def possible(self, safe: int) -> tuple[Combo, ...]:
        mask = self.mask(safe)
        return tuple(c for i, c in enumerate(COMBOS) if mask >> i & 1)

    def pairs(self, safe: int) -> list[tuple[str, Combo]]:
        """The (mapping, combination) pairs still possible for one safe."""
        return [(m, c) for m, masks in self.by_mapping
                for i, c in enumerate(COMBOS) if masks[safe] >> i & 1]

    def to_json(self) -> dict[str, Any]:
        return {
            "mappings": list(self.mappings),
            "safes": {
                SAFE_NAMES[s]: {
                    "status": "opened" if s in self.opened else "closed",
                    "possible": [list(c) for c in self.possible(s)],
                }
                for s in range(16)
            },
        }


@dataclass(frozen=True)
class GuessValue:
    """How a candidate guess is expected to narrow one safe down (uniform over the remaining
    (mapping, combination) pairs of that safe)."""

    p_open: float
    expected_left: float
    now: int

    def to_json(self) -> dict[str, Any]:
        return {"p_open": round(self.p_open, 4), "expected_remaining": round(self.expected_left, 4),
                "remaining": self.now}


@cache
def _light_mask(guesses: tuple[Combo, ...], target: int) -> int:
    """Combinations that could have shown this pattern of conditions for one of the guesses
    (and are not that guess: a right guess opens instead of flashing)."""
    mask = 0
    for i, c in enumerate(COMBOS):
        if any(g != c and PATTERN[(c, g)] == target for g in guesses):
            mask |= 1 << i
    return mask


@cache
def _known_mask(left: int | None, right: int | None) -> int:
    return sum(1 << i for i, c in enumerate(COMBOS) if Known(0, left, right).allows(c))


def _domains(obs: Observations, mapping: str) -> list[int]:
    domains = [ALL] * 16
    for k in obs.opened:
        domains[k.safe] &= _known_mask(k.left, k.right)
    for seen in obs.lights:
        domains[seen.safe] &= _light_mask(seen.guesses(), pattern_of_colour(seen.colour, mapping))
    return domains


def _matching(domains: list[int]) -> list[int] | None:
    """A perfect matching safe -> combination index (Kuhn's augmenting paths), or None."""
    owner = [-1] * 16  # combo -> safe

    def augment(s: int, seen: list[bool]) -> bool:
        d = domains[s]
        while d:
            low = d & -d
            c = low.bit_length() - 1
            d ^= low
            if seen[c]:
                continue
            seen[c] = True
            if owner[c] < 0 or augment(owner[c], seen):
                owner[c] = s
                return True
        return False

    # Most-constrained safes first keeps the search short.
    for s in sorted(range(16), key=lambda x: domains[x].bit_count()):
        if not augment(s, [False] * 16):
            return None
    match = [0] * 16
    for c, s in enumerate(owner):
        match[s] = c
    return match


def _allowed(domains: list[int], match: list[int]) -> tuple[int, ...]:
    """Edges lying in some perfect matching: matched ones, and those on alternating cycles."""
    safe_of = {c: s for s, c in enumerate(match)}
    adj = [0] * 16  # s -> t when s could take t's matched combination
    for s in range(16):
        d = domains[s] & ~(1 << match[s])
        while d:
            low = d & -d
            adj[s] |= 1 << safe_of[low.bit_length() - 1]
            d ^= low
    reach = adj[:]
    for k in range(16):
        bit = 1 << k
        rk = reach[k]
        for i in range(16):
            if reach[i] & bit:
                reach[i] |= rk
    out = []
    for s in range(16):
        mask = 1 << match[s]
        for t in range(16):
            if adj[s] >> t & 1 and reach[t] >> s & 1:
                mask |= 1 << match[t]
        out.append(mask)
    return tuple(out)


def deduce(obs: Observations, mappings: Iterable[str] = MAPPINGS) -> Deduction:
    """Exactly which combinations each safe can have and which mappings remain."""
    kept: list[tuple[str, tuple[int, ...]]] = []
    for m in mappings:
        domains = _domains(obs, m)
        if any(d == 0 for d in domains):
            continue
        match = _matching(domains)
        if match is None:
            continue
        kept.append((m, _allowed(domains, match)))
    return Deduction(tuple(kept), frozenset(k.safe for k in obs.opened))


def guess_value(ded: Deduction, safe: int, guess: Combo) -> GuessValue:
    """The chance a guess opens the safe and the expected number of (mapping, combination)
    pairs left for that safe after seeing its outcome (smaller is better)."""
    counts: dict[str, int] = {}
    pairs = ded.pairs(safe)
    for m, c in pairs:
        key = "open" if c == guess else light(c, guess, m)
        counts[key] = counts.get(key, 0) + 1
    n = len(pairs)
    if n == 0:
        return GuessValue(0.0, 0.0, 0)
    return GuessValue(counts.get("open", 0) / n,
                      sum(v * v for k, v in counts.items() if k != "open") / n, n)


def suggest(ded: Deduction, safes: Iterable[int], playable: Iterable[Combo], n: int = 3
            ) -> list[dict[str, Any]]:
    """The ``n`` guesses most likely to open a safe (ties: the ones expected to narrow it down
    most), among the given safes and the combinations the seat can play."""
    can = set(playable)
    ranked: list[tuple[float, int, Combo]] = []
    for safe in safes:
        pairs = ded.pairs(safe)
        for combo in set(c for _, c in pairs) & can:
            ranked.append((sum(1 for _, c in pairs if c == combo) / len(pairs), safe, combo))
    ranked.sort(key=lambda t: (-t[0], t[1], t[2]))
    top = ranked[: n * 4]
    rated = [(guess_value(ded, s, c), s, c) for _, s, c in top]
    rated.sort(key=lambda t: (-t[0].p_open, t[0].expected_left, t[1], t[2]))
    return [{"safe": SAFE_NAMES[s], "guess": list(c), **v.to_json()} for v, s, c in rated[:n]]


# --------------------------------------------------------------------------- JSON files
def _side(value: Any, what: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in VALUES:
        raise ParseError("LO-2", f"{what} must be a card 1-4 or null, not {value!r}")
    return value


def observations_from_json(data: Mapping[str, Any]) -> Observations:
    """Read ``{"lights": [{"safe", "left", "right", "colour"}], "opened": [{"safe", "left",
    "right"}]}`` (unknown sides null or absent), with errors naming the rule."""
    if not isinstance(data, Mapping):
        raise ParseError("LO-4", "the observations must be a JSON object")
    lights: list[Seen] = []
    for item in data.get("lights", []):
        left = _side(item.get("left"), "left")
        right = _side(item.get("right"), "right")
        if left is None and right is None:
            raise RuleError("LO-4", "a light needs at least the seat's own side of the guess")
        lights.append(Seen(safe_index(str(item["safe"])), left, right,
                           check_colour(str(item.get("colour", item.get("color", ""))))))
    opened = [Known(safe_index(str(item["safe"])), _side(item.get("left"), "left"),
                    _side(item.get("right"), "right"))
              for item in data.get("opened", [])]
    return Observations(tuple(lights), tuple(opened))
