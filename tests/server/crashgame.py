"""A toy game whose bot kills the worker process it thinks in (``tests/server/
test_thinkers.py``): in the server's own process it plays like the toy game. A module of its
own, so a worker process can import it to unpickle the game."""

from __future__ import annotations

import multiprocessing
import os
import random

from toygame import ToyGame, ToyState


class CrashingToy(ToyGame):
    name = "toy_crash"

    def bot(self, state: ToyState, seat: int, rng: random.Random) -> str | None:
        if multiprocessing.parent_process() is not None:  # in a worker: die at once
            os._exit(3)
        return super().bot(state, seat, rng)


CRASHING_TOY = CrashingToy()
