"""The fast paths of Feather's set-up and ticks give what the plain ones gave: the feasibility
search on packed integers yields the states, in the order, of the
search on tuples it replaced (kept here as the reference), and a generated match's scenario
built from the generator's data is the one its TOML text reads as."""

from __future__ import annotations

import bisect
import heapq
import random
from collections.abc import Callable, Iterator

import pytest

from arena.games.feather import generate as gen
from arena.games.feather.feasible import BUDGET, Reached, bursts, cumulative, explore
from arena.games.feather.scenario import SessionSpec, load_scenario, parse_scenario
from arena.games.feather.tick import FILL_COOLDOWN

Node = tuple[int, int, int, tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]


def reference_explore(spec: SessionSpec, modifies: int = 0, budget: int = BUDGET,
            stop: Callable[[Reached], bool] | None = None) -> Iterator[Reached]:
    """The bucket states one seat can reach in ``spec``, earliest first, each once.

    ``stop`` is asked about every state; the search ends when it says True."""
    n = len(spec.capacities)
    cum = cumulative(spec)
    waits = [bursts(row) for row in cum]
    last = spec.ticks - 1  # a state shown at tick t can Complete at boundary t + 1 <= ticks
    seen: set[tuple[tuple[int, ...], tuple[int, ...], int]] = set()
    pushed: dict[tuple[tuple[int, ...], tuple[int, ...], int], int] = {}
    order = 0
    zero = tuple(0 for _ in range(n))
    heap: list[Node] = [(0, 0, 1, zero, spec.capacities, modifies, tuple(0 for _ in cum))]
    while heap and len(seen) < budget:
        tick, _, ready, waters, caps, mods, taken = heapq.heappop(heap)
        key = (waters, caps, mods)
        if key in seen:
            continue
        seen.add(key)
        found = Reached(waters, caps, tick, modifies - mods)
        yield found
        if stop is not None and stop(found):
            return
        nxt = tick + 1

        def push(at: int, rd: int, w: tuple[int, ...], c: tuple[int, ...], m: int,
                 tk: tuple[int, ...]) -> None:
            nonlocal order
            child = (w, c, m)
            if child not in seen and pushed.get(child, last + 2) > at:
                pushed[child] = at
                order += 1
                heapq.heappush(heap, (at, order, rd, w, c, m, tk))

        # Fill (LF-4): at the first boundary the cooldown allows, or at one of the next two
        # bursts worth waiting for; the basin holds its schedule's water so far minus what
        # this seat took.
        first = max(nxt, ready)
        for k, row in enumerate(cum):
            start = bisect.bisect_left(waits[k], first + 1)
            for at in (first, *waits[k][start:start + 2]):
                if at > last:
                    continue
                avail = row[at - 1] - taken[k]
                if avail <= 0:
                    continue
                for j in range(n):
                    got = min(caps[j] - waters[j], avail)
                    if got <= 0:
                        continue
                    w = (*waters[:j], waters[j] + got, *waters[j + 1:])
                    if (w, caps, mods) in seen:
                        continue
                    tk = (*taken[:k], taken[k] + got, *taken[k + 1:])
                    push(at, at + FILL_COOLDOWN + 1, w, caps, mods, tk)
        if nxt > last:
            continue
        for i in range(n):
            if waters[i] == 0:
                continue
            push(nxt, ready, (*waters[:i], 0, *waters[i + 1:]), caps, mods, taken)
            for j in range(n):
                room = caps[j] - waters[j]
                if i == j or room <= 0:
                    continue
                moved = min(waters[i], room)
                wl = list(waters)
                wl[i] -= moved
                wl[j] += moved
                push(nxt, ready, tuple(wl), caps, mods, taken)
        if mods:
            for i in range(n):
                for delta in (-2, -1, 1, 2):
                    cap = caps[i] + delta
                    if cap >= max(1, waters[i]):
                        push(nxt, ready, waters, (*caps[:i], cap, *caps[i + 1:]), mods - 1,
                             taken)


def _specs() -> list[SessionSpec]:
    out = [s for name in ("default", "example") for s in load_scenario(name).sessions]
    for seed, difficulty in ((1, "easy"), (2, "normal"), (3, "hard")):
        out += gen.generate(random.Random(seed), difficulty).sessions
    return out


@pytest.mark.parametrize("modifies", [0, 1, 2])
def test_packed_search_yields_the_tuple_search_states_in_order(modifies: int) -> None:
    for spec in _specs():
        budget = 1500 if modifies else 3000
        assert list(explore(spec, modifies, budget)) == list(
            reference_explore(spec, modifies, budget))


def test_packed_search_stops_where_the_tuple_search_stops() -> None:
    spec = _specs()[0]
    asked: list[list[Reached]] = []
    for search in (explore, reference_explore):
        seen: list[Reached] = []

        def stop(state: Reached, seen: list[Reached] = seen) -> bool:
            seen.append(state)
            return len(seen) > 200

        yielded = list(search(spec, 1, BUDGET, stop))
        assert yielded == seen
        asked.append(seen)
    assert asked[0] == asked[1] and len(asked[0]) == 201


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_lf12_a_generated_scenario_built_from_data_is_the_one_its_text_reads_as(
        difficulty: str) -> None:
    for seed in range(4):
        text = gen.for_match(random.Random(seed), difficulty)
        assert gen.read_generated(text) == parse_scenario(text, "generated")
