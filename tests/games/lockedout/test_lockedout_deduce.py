"""The deduction helper: never rules out the truth, and is exact (every kept combination lies
in some full assignment; every dropped one in none) under the permutation constraint (LO-1)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.lockedout.deduce import (
    Known,
    Observations,
    Seen,
    _domains,
    _matching,
    deduce,
    guess_value,
)
from arena.games.lockedout.safes import COMBOS, MAPPINGS, deal_combos, light


def _random_obs(seed: int, n_lights: int, n_open: int, dual_share: float
                ) -> tuple[tuple[tuple[int, int], ...], str, Observations]:
    rng = random.Random(seed)
    combos = deal_combos(rng)
    mapping = rng.choice(MAPPINGS)
    lights = []
    for _ in range(n_lights):
        s, g = rng.randrange(16), rng.choice(COMBOS)
        if g == combos[s]:
            continue
        colour = light(combos[s], g, mapping)
        if rng.random() < dual_share:
            lights.append(Seen(s, g[0], None, colour) if rng.random() < 0.5
                          else Seen(s, None, g[1], colour))
        else:
            lights.append(Seen(s, g[0], g[1], colour))
    opened = [Known(s, *combos[s]) if rng.random() < 0.5 else Known(s)
              for s in rng.sample(range(16), n_open)]
    return combos, mapping, Observations(tuple(lights), tuple(opened))


@settings(deadline=None, max_examples=60)
@given(seed=st.integers(0, 10**9), n_lights=st.integers(0, 60), n_open=st.integers(0, 8),
       dual_share=st.floats(0, 1))
def test_deduction_never_rules_out_the_truth(seed: int, n_lights: int, n_open: int,
                                             dual_share: float) -> None:
    combos, mapping, obs = _random_obs(seed, n_lights, n_open, dual_share)
    ded = deduce(obs)
    assert mapping in ded.mappings
    for s in range(16):
        assert combos[s] in ded.possible(s)
    masks = dict(ded.by_mapping)[mapping]
    assert all(masks[s] >> COMBOS.index(combos[s]) & 1 for s in range(16))


@settings(deadline=None, max_examples=15)
@given(seed=st.integers(0, 10**9), n_lights=st.integers(10, 80))
def test_deduction_is_exact_against_forced_matchings(seed: int, n_lights: int) -> None:
    _, _, obs = _random_obs(seed, n_lights, 3, 0.3)
    ded = deduce(obs)
    kept = dict(ded.by_mapping)
    for m in MAPPINGS:
        domains = _domains(obs, m)
        feasible = all(domains) and _matching(domains) is not None
        assert (m in kept) == feasible
        if not feasible:
            continue
        for s in range(16):
            for i in range(16):
                if not domains[s] >> i & 1:
                    assert not kept[m][s] >> i & 1
                    continue
                forced = [d & ~(1 << i) for d in domains]
                forced[s] = 1 << i
                assert bool(kept[m][s] >> i & 1) == (_matching(forced) is not None)


def test_permutation_constraint_propagates() -> None:
    # Fifteen safes announced: the last must hold the one pair left, under every mapping.
    combos = list(COMBOS)
    obs = Observations((), tuple(Known(s, *combos[s]) for s in range(15)))
    ded = deduce(obs)
    assert ded.possible(15) == (combos[15],)
    assert set(ded.mappings) == set(MAPPINGS)


def test_lights_narrow_the_mappings() -> None:
    # Lock 2,3: guess 4,3 meets C1 only, so a red light says C1 is red.
    obs = Observations((Seen(0, 4, 3, "red"),), ())
    ded = deduce(obs)
    assert (2, 3) in ded.possible(0)
    assert set(ded.mappings) == set(MAPPINGS)  # other locks could explain red otherwise
    obs = Observations((Seen(0, 4, 3, "white"),), ())
    assert deduce(obs).possible(0) and all(
        light(c, (4, 3), "RGB") == "white" for c in deduce(obs).possible(0))


def test_guess_value_sums_up() -> None:
    ded = deduce(Observations((Seen(2, 4, 3, "red"), Seen(2, 1, 1, "black")), ()))
    pairs = ded.pairs(2)
    v = guess_value(ded, 2, ded.possible(2)[0])
    assert v.now == len(pairs) and 0 < v.p_open <= 1
    assert 0 <= v.expected_left <= len(pairs)
    ruled_out = next(c for c in COMBOS if c not in ded.possible(2))
    assert guess_value(ded, 2, ruled_out).p_open == 0
