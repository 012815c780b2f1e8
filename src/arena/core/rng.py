"""Seeded chance (G-7).

Every random draw comes from the match seed. Rather than threading one mutable generator
through the whole match, each resolution gets a generator derived from the seed and a stable
label (the phase number, the bot's seat); this keeps replays exact even when a replay starts
from the middle or a bot is swapped for a human.
"""

from __future__ import annotations

import hashlib
import random


def derive(seed: int, *labels: object) -> random.Random:
    text = ":".join([str(seed), *(str(label) for label in labels)])
    digest = hashlib.sha256(text.encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))
