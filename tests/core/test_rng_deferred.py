"""A phase's generator is seeded on first use, yet draws exactly what the
eagerly seeded one draws (G-7: same seed, same match)."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable

import pytest

from arena.core import rng

OPS: dict[str, Callable[[random.Random], object]] = {
    "random": lambda r: [r.random() for _ in range(5)],
    "randrange": lambda r: [r.randrange(100) for _ in range(5)],
    "shuffle": lambda r: (lambda xs: (r.shuffle(xs), xs)[1])(list(range(20))),
    "choice": lambda r: [r.choice("abcdef") for _ in range(5)],
    "sample": lambda r: r.sample(range(100), 5),
    "choices": lambda r: r.choices("abcdef", k=5),
    "gauss": lambda r: [r.gauss(0, 1) for _ in range(3)],
    "randbytes": lambda r: r.randbytes(7),
    "getstate": lambda r: r.getstate(),
    "copy": lambda r: [copy.copy(r).random(), r.random()],
    "deepcopy": lambda r: copy.deepcopy(r).random(),
    "pickle": lambda r: pickle.loads(pickle.dumps(r)).random(),
    "seed": lambda r: (r.seed(5), r.random())[1],
}


@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("labels", [("phase", 1), ("phase", 17), ("setup",)])
def test_deferred_draws_what_derive_draws(op: str, labels: tuple[object, ...]) -> None:
    eager, lazy = rng.derive(2**63 + 5, *labels), rng.deferred(2**63 + 5, *labels)
    assert OPS[op](lazy) == OPS[op](eager)
    # Once woken it is a plain generator: nothing of the deferral is left behind.
    assert type(lazy) is random.Random
    assert vars(lazy) == vars(eager)


def test_deferred_is_not_seeded_until_drawn_from() -> None:
    lazy = rng.deferred(7, "phase", 3)
    assert type(lazy) is not random.Random
    lazy.randrange(10)
    assert type(lazy) is random.Random
