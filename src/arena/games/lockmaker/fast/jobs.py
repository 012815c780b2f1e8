"""Several generator searches at once, one per core.

The generator's searches are independent random restarts and climbs, and which restart
lands in the set of a very hard lock is partly luck (on fog51's hand a climb over placements
jumps from a 15-move set straight to the 51-move one, and a climb over line sets finds it after
0.1 to 7 s). Independent searches on every core therefore
multiply the chance of a hit in a given time, with no coordination needed: each job gets its
own seed drawn from the caller's generator (so a placement budget stays a pure function of
that generator) and the best lock of all jobs wins, ties to the lowest job.

Jobs run in fresh interpreter processes (the ``spawn`` start method), never forks, so that
a caller with threads (the server) cannot hand a child a lock held by another thread.
"""

from __future__ import annotations

import multiprocessing
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor

from arena.core.errors import RuleError
from arena.games.lockmaker.board import Board
from arena.games.lockmaker.fast.generator import Generated, generate
from arena.games.lockmaker.pieces import PieceKind

Outcome = tuple[Generated | None, str, str, float]
"""(result or None, failing rule, failing message, the job's start on the wall clock)."""


def _job(board: Board, hand: Sequence[PieceKind], end: float | None, seed: int,
         keyhole: int | None, minimal: bool, placements: int | None,
         library: bool = True) -> Outcome:
    started = time.time()
    seconds = None if end is None else max(0.1, end - started)
    try:
        res = generate(board, hand, seconds=seconds, rng=random.Random(seed), keyhole=keyhole,
                       minimal=minimal, placements=placements, library=library)
    except RuleError as exc:  # sent back as text: exceptions with own arguments do not pickle
        return None, exc.rule, exc.message, started
    return res, "", "", started


def generate_jobs(board: Board, hand: Sequence[PieceKind], *, jobs: int,
                  seconds: float | None = 10.0, rng: random.Random | None = None,
                  keyhole: int | None = None, minimal: bool = False,
                  progress: Callable[[float, int, int], None] | None = None,
                  placements: int | None = None, library: bool = True) -> Generated:
    """:func:`~arena.games.lockmaker.fast.generator.generate` on ``jobs`` processes: this one
    runs job 0 (and reports progress), the others run in child processes. ``searched`` is
    the total over all jobs and ``trajectory`` the best over all of them through time;
    ``cpu_trajectory`` is, per improvement, the CPU seconds of the job that made it (each job
    counts its own; the total is at most ``jobs`` times that)."""
    rng = rng or random.Random()
    seeds = [rng.getrandbits(63) for _ in range(max(1, jobs))]
    t0 = time.time()
    end = None if seconds is None else t0 + seconds
    if jobs <= 1:
        return generate(board, hand, seconds=seconds, rng=random.Random(seeds[0]),
                        keyhole=keyhole, minimal=minimal, progress=progress,
                        placements=placements, library=library)
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs - 1, mp_context=ctx) as pool:
        futures = [pool.submit(_job, board, list(hand), end, seed, keyhole, minimal, placements,
                               library)
                   for seed in seeds[1:]]
        try:
            first = generate(board, hand, seconds=seconds, rng=random.Random(seeds[0]),
                             keyhole=keyhole, minimal=minimal, progress=progress,
                             placements=placements, library=library)
        except RuleError:
            for f in futures:
                f.cancel()
            raise
        outcomes: list[Outcome] = [(first, "", "", t0)]
        outcomes += [f.result() for f in futures]
    results = [(res, started) for res, _r, _m, started in outcomes if res is not None]
    if not results:
        _res, rule, message, _s = outcomes[1]
        raise RuleError(rule, message)
    best = max(results, key=lambda x: x[0].moves)[0]  # max keeps the first of equals
    points = sorted((started - t0 + at, moves, cpu) for res, started in results
                    for (at, moves), (cpu, _m) in zip(res.trajectory, res.cpu_trajectory,
                                                      strict=True))
    merged: list[tuple[float, int]] = []
    cpus: list[tuple[float, int]] = []
    for at, moves, cpu in points:
        if not merged or moves > merged[-1][1]:
            merged.append((at, moves))
            cpus.append((cpu, moves))
    return Generated(best.moves, best.lock, sum(r.searched for r, _s in results), tuple(merged),
                     tuple(cpus))
