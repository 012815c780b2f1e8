"""Seeded chance (G-7).

Every random draw comes from the match seed. Rather than threading one mutable generator
through the whole match, each resolution gets a generator derived from the seed and a stable
label (the phase number, the bot's seat); this keeps replays exact even when a replay starts
from the middle or a bot is swapped for a human.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from typing import Any

SEED_BITS = 64
MAX_SEED = 2**SEED_BITS - 1


def fresh_seed() -> int:
    """A seed nobody can guess (G-12): 64 bits from the operating system's cryptographic
    source, so announced combinations or revealed cards never let a player search for the
    hidden setup (a 30-bit seed falls to a few CPU-hours of search)."""
    return secrets.randbits(SEED_BITS)


def parse_seed(raw: object) -> int:
    """A seed given by a person: a whole number 0..2^64-1, as an integer or digits."""
    if isinstance(raw, bool):
        raise ValueError("a seed is a whole number")
    if isinstance(raw, int):
        seed = raw
    elif isinstance(raw, str) and raw.strip().isdigit():
        seed = int(raw.strip())
    else:
        raise ValueError(f"the seed must be a whole number, not {raw!r}"[:120])
    if not 0 <= seed <= MAX_SEED:
        raise ValueError("the seed must be between 0 and 2^64-1")
    return seed


def derive(seed: int, *labels: object) -> random.Random:
    return random.Random(_seed_of(seed, labels))


def _seed_of(seed: int, labels: tuple[object, ...]) -> int:
    text = ":".join([str(seed), *(str(label) for label in labels)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


class _Deferred(random.Random):
    """A ``random.Random`` that is seeded only when first drawn from.

    Seeding the Mersenne Twister costs several microseconds, more than many games' whole
    resolution of a phase, and most phases draw nothing. On its first use
    the object seeds itself exactly as ``random.Random(seed)`` would and becomes a plain
    ``random.Random`` (its class is swapped), so every draw, state and copy after that is
    the ordinary generator's, at the ordinary speed. Every way in goes through ``random``,
    ``getrandbits``, ``getstate``, ``setstate``, ``seed`` or ``__reduce__``, which wake it."""

    def __init__(self, x: int | None = None) -> None:  # no seeding here: that is the point
        self._deferred_seed = x
        self.gauss_next = None  # as random.Random.__init__ leaves it (gauss reads it first)

    def random(self) -> float:
        _wake(self)
        return random.Random.random(self)

    def getrandbits(self, k: int, /) -> int:
        _wake(self)
        return random.Random.getrandbits(self, k)

    def getstate(self) -> tuple[Any, ...]:
        _wake(self)
        return random.Random.getstate(self)

    def setstate(self, state: tuple[Any, ...]) -> None:
        _wake(self)
        random.Random.setstate(self, state)

    def seed(self, a: object = None, version: int = 2) -> None:
        _wake(self)
        random.Random.seed(self, a, version)  # type: ignore[arg-type]

    def __reduce__(self) -> str | tuple[Any, ...]:
        _wake(self)
        return random.Random.__reduce__(self)


def _wake(r: random.Random) -> None:
    if type(r) is _Deferred:
        seed = r.__dict__.pop("_deferred_seed")
        object.__setattr__(r, "__class__", random.Random)  # now a plain Random
        random.Random.seed(r, seed)


def deferred(seed: int, *labels: object) -> random.Random:
    """The generator :func:`derive` gives for these labels, seeded on its first draw: for a
    phase's resolution, which often draws nothing."""
    return _Deferred(_seed_of(seed, labels))
