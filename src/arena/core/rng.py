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
    text = ":".join([str(seed), *(str(label) for label in labels)])
    digest = hashlib.sha256(text.encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))
