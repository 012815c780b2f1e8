"""Lockmaker fast solver, cluster walk and generator, measured in ONE run against the naive
pure-Python baseline (../shared/bench/naive_rush_bfs.py, run as a subprocess).

    .venv/bin/python bench/lockmaker_fast.py [--quick] [--naive PATH] [--sections 1,2,3,4,5,6]
        [--random-locks 30] [--gen-seconds 300] [--gen-seeds 1,2,3] [--jobs 2]
        [--library both|on|off]

Sections: 1 solving the published puzzles, 2 cluster walks, 3 random 11 x 11 locks (two
families), 4 the generator on fog51's hand (per seed: best within 10/60/300 s and when 45
and 51 were first reached, wall and CPU, from the result's trajectories; with and without the
library of strong shapes), 5 the generator on the default rounds
against the best of 1,000 random placements, 6 bot-vs-bot matches.

Prints every figure with the baseline's beside it. Peak memory is each worker process's
maximum resident set (getrusage in a tiny wrapper), the same for ours and the baseline's.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = next((p for p in (ROOT.parent / "shared" / "bench", Path("/work/shared/bench"))
               if p.exists()), ROOT.parent / "shared" / "bench")
"""The naive baseline and the published puzzles (beside the checkout, or the machine's copy
when run from a worktree one level deeper)."""
PY = sys.executable


WRAP = ("import resource, runpy, sys; path = sys.argv[1]; sys.argv = sys.argv[1:]; "
        "runpy.run_path(path, run_name='__main__'); sys.stdout.flush(); "
        "print('PEAK_RSS_KB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "
        "file=sys.stderr)")


def run_child(cmd: list[str], stdin: str | None = None, timeout: float = 600.0
              ) -> tuple[str, float, float]:
    """Run a Python script ``[script, *args]`` in a child; (stdout, wall s, peak RSS MB)."""
    t0 = time.perf_counter()
    proc = subprocess.run([PY, "-c", WRAP, *cmd], input=stdin or "", capture_output=True,
                          text=True, timeout=timeout, check=False)
    wall = time.perf_counter() - t0
    rss = 0.0
    for line in proc.stderr.splitlines():
        if line.startswith("PEAK_RSS_KB"):
            rss = int(line.split()[1]) / 1024
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    return proc.stdout, wall, rss


def naive(mode: str, reps: int, lines: str, naive_path: str
          ) -> tuple[dict[str, float], dict[str, float], float, float]:
    """The baseline's own per-puzzle (median, min) times, its process wall time and peak."""
    out, wall, rss = run_child([naive_path, mode, str(reps)], stdin=lines)
    med: dict[str, float] = {}
    low: dict[str, float] = {}
    for line in out.splitlines():
        name = line.split()[0]
        med[name] = float(line.split("med=")[1].split("s")[0])
        low[name] = float(line.split("min=")[1].split("s")[0])
    return med, low, wall, rss


# ---------------------------------------------------------------- workers (run as children)
def worker_solve(reps: int) -> None:
    from arena.games.lockmaker.fast.model import from_rush
    from arena.games.lockmaker.fast.search import solve
    from arena.games.lockmaker.fast.tables import Compiled
    for line in sys.stdin:
        f = line.split()
        if len(f) < 2:
            continue
        ts = []
        for _ in range(reps):
            t0 = time.perf_counter()
            res = solve(Compiled(from_rush(f[1])))
            ts.append(time.perf_counter() - t0)
        ts.sort()
        print(json.dumps({"name": f[0], "moves": res.moves, "states": res.states,
                          "med": ts[len(ts) // 2], "min": ts[0]}), flush=True)


def worker_cluster() -> None:
    from arena.games.lockmaker.fast.model import from_rush
    from arena.games.lockmaker.fast.search import cluster_walk
    from arena.games.lockmaker.fast.tables import Compiled
    for line in sys.stdin:
        f = line.split()
        if len(f) < 2:
            continue
        t0 = time.perf_counter()
        res = cluster_walk(Compiled(from_rush(f[1])))
        print(json.dumps({"name": f[0], "states": res.states, "moves": res.moves,
                          "sec": time.perf_counter() - t0}), flush=True)


def random_11x11(seed: int, family: str):  # type: ignore[no-untyped-def]
    """14 random bars (H/V, 2-4 cells) and 2 axes on an open 11 x 11 board. ``game``: the
    game's uniform random legal lock (construct.random_lock); ``inline``: the generator's
    placement with the key in line with the keyhole (far more often solvable, deeper)."""
    from arena.games.lockmaker.board import Board
    from arena.games.lockmaker.construct import random_lock
    from arena.games.lockmaker.fast.generator import random_placement
    from arena.games.lockmaker.pieces import PieceKind
    rng = random.Random(seed)
    hand = [PieceKind(rng.choice("HV"), rng.choice((2, 2, 3, 3, 4))) for _ in range(14)]
    hand += [PieceKind("X"), PieceKind("X")]
    if family == "game":
        return random_lock(Board(11, 11), hand, rng)
    return random_placement(Board(11, 11), hand, rng)


def worker_random(seed: int, family: str) -> None:
    from arena.games.lockmaker.fast.api import fast_solve
    pos = random_11x11(seed, family)
    if pos is None:
        print(json.dumps({"seed": seed, "skip": True}))
        return
    t0, c0 = time.perf_counter(), time.process_time()
    res = fast_solve(pos)
    print(json.dumps({"seed": seed, "moves": res.moves, "states": res.states,
                      "sec": time.perf_counter() - t0, "cpu": time.process_time() - c0}),
          flush=True)


def worker_search51(seeds: list[int], cap: float, stall: int, kick: float) -> None:
    """One search (no library, no jobs) per seed on fog51's hand, with the generator's stall
    and kick set as given: the CPU seconds until it first reached 51 moves (or the cap)."""
    from arena.games.lockmaker.fast import generator as gen
    from arena.games.lockmaker.pieces import kind_of
    from arena.games.lockmaker.rush import read_rush
    gen.STALL, gen.KICK = stall, kick
    pos = read_rush("BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM.")
    hand = [kind_of(b) for b in pos.bars]

    class Done(Exception):
        pass

    for seed in seeds:
        c0 = time.process_time()
        best = [-1]

        def watch(_el: float, b: int, _w: int, c0: float = c0, best: list[int] = best) -> None:
            best[0] = b
            if b >= 51 or time.process_time() - c0 > cap:
                raise Done

        with contextlib.suppress(Done):
            gen.generate(pos.board, hand, seconds=None, placements=10**9,
                         rng=random.Random(seed), keyhole=pos.keyhole, library=False,
                         progress=watch)
        print(json.dumps({"seed": seed, "best": best[0],
                          "cpu": time.process_time() - c0}), flush=True)


# ---------------------------------------------------------------- the bench
def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--family", default="game")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="skip the 300 s generator run")
    ap.add_argument("--naive", default=str(SHARED / "naive_rush_bfs.py"))
    ap.add_argument("--gen-seconds", type=float, default=300.0)
    ap.add_argument("--gen-seeds", default="1,2,3", help="generator seeds, one run each")
    ap.add_argument("--jobs", type=int, default=2, help="generator processes (the cores)")
    ap.add_argument("--library", choices=("both", "on", "off"), default="both",
                    help="section 4: the generator with its library of strong shapes, the "
                         "search alone, or both side by side")
    ap.add_argument("--search-cap", type=float, default=0.0,
                    help="section 4: also one search alone per seed, old and new climb "
                         "side by side, CPU seconds to reach 51 (capped at this; 0: skip)")
    ap.add_argument("--stall", type=int, default=40)
    ap.add_argument("--kick", type=float, default=0.0)
    ap.add_argument("--random-locks", type=int, default=30)
    ap.add_argument("--first-seed", type=int, default=0, help="section 3 starts at this seed")
    ap.add_argument("--cap", type=float, default=60.0,
                    help="section 3: wall seconds before a lock's worker is killed")
    ap.add_argument("--sections", default="1,2,3,4,5,6", help="which figures to measure")
    args = ap.parse_args()
    if args.worker == "solve":
        worker_solve(args.reps)
        return
    if args.worker == "cluster":
        worker_cluster()
        return
    if args.worker == "search51":
        worker_search51([int(x) for x in args.gen_seeds.split(",")], args.search_cap,
                        args.stall, args.kick)
        return
    if args.worker == "random":
        worker_random(args.seed, args.family)
        return

    sections = {int(x) for x in args.sections.split(",")}
    # only sections 1 and 2 read the published puzzles (a worktree may not have ../shared)
    puzzles = (SHARED / "rush_public.txt").read_text() if sections & {1, 2} else ""

    if 1 in sections:
        solve_bench(args, puzzles)
    if 2 in sections:
        cluster_bench(args, puzzles)
    if 3 in sections:
        random_bench(args)
    if 4 in sections:
        print("== 4. generator, fog51's pieces on the 6 x 7 Rush Hour board (keyhole beside row 3)")
        seeds = [int(x) for x in args.gen_seeds.split(",")]
        modes = {"both": [False, True], "on": [True], "off": [False]}[args.library]
        gen_bench(args.gen_seconds if not args.quick else 60.0, args.jobs, seeds, modes)
        if args.search_cap > 0:
            search51_bench(args.gen_seeds, args.search_cap)
    if 5 in sections:
        print("== 5. generator on the default Lockmaker rounds vs best of 1,000 random placements")
        rounds_bench(10.0 if args.quick else 30.0)
    if 6 in sections:
        print("== 6. bot-vs-bot simulated match (the bot builds with the generator), seeds 1-3")
        match_bench()


ME = [str(Path(__file__).resolve())]


def solve_bench(args: argparse.Namespace, puzzles: str) -> None:
    print(f"== 1. solving rush_public.txt: {args.reps} rounds, each one baseline process then "
          "one fast process (interleaved, so that other load on the machine hits both alike); "
          "per puzzle the median and the min over rounds, seconds")
    naive_t: dict[str, list[float]] = {}
    fast_t: dict[str, list[float]] = {}
    info: dict[str, dict[str, int]] = {}
    nwall = fwall = 0.0
    for _ in range(args.reps):
        nmed, _nmin, wall, _ = naive("solve", 1, puzzles, args.naive)
        nwall += wall
        for name, t in nmed.items():
            naive_t.setdefault(name, []).append(t)
        out, wall, _ = run_child([*ME, "--worker", "solve", "--reps", "1"], stdin=puzzles)
        fwall += wall
        for d in map(json.loads, out.splitlines()):
            fast_t.setdefault(d["name"], []).append(d["med"])
            info[d["name"]] = {"moves": d["moves"], "states": d["states"]}
    med = statistics.median
    for name in naive_t:
        n, f = naive_t[name], fast_t[name]
        print(f"  {name:8} median: naive {med(n):.4f} fast {med(f):.4f} x{med(n) / med(f):.2f} | "
              f"min: naive {min(n):.4f} fast {min(f):.4f} x{min(n) / min(f):.2f}  "
              f"({info[name]['moves']} moves, {info[name]['states']} states)")
    tn = sum(med(v) for v in naive_t.values())
    tf = sum(med(v) for v in fast_t.values())
    ln = sum(min(v) for v in naive_t.values())
    lf = sum(min(v) for v in fast_t.values())
    print(f"  TOTAL median: naive {tn:.4f} fast {tf:.4f} speed-up x{tn / tf:.2f} | "
          f"min: naive {ln:.4f} fast {lf:.4f} speed-up x{ln / lf:.2f} (target >= 2.5)")
    t0 = time.perf_counter()
    subprocess.run([PY, "-m", "arena", "lockmaker", "solve", "--rush-file",
                    str(SHARED / "rush_public.txt"), "--json"], capture_output=True, check=False)
    print(f"  whole processes (start-up included), mean per round: naive {nwall / args.reps:.2f} s,"
          f" fast worker {fwall / args.reps:.2f} s; `arena lockmaker solve --rush-file` "
          f"{time.perf_counter() - t0:.2f} s")


def cluster_bench(args: argparse.Namespace, puzzles: str) -> None:
    print("== 2. cluster walk of fog15 (forward + reverse), one run each")
    fog15 = next(ln for ln in puzzles.splitlines() if ln.startswith("fog15 "))
    nmed, _nmin, _nwall, nrss = naive("cluster", 1, fog15 + "\n", args.naive)
    out, _fwall, frss = run_child([*ME, "--worker", "cluster"], stdin=fog15 + "\n")
    d = json.loads(out.splitlines()[0])
    print(f"  naive {nmed['fog15']:.2f} s, peak {nrss:.0f} MB")
    print(f"  fast  {d['sec']:.2f} s, peak {frss:.0f} MB, {d['states']} states, "
          f"hardest {d['moves']} moves")
    print(f"  speed-up x{nmed['fog15'] / d['sec']:.2f} (target >= 5.5, peak < 300 MB)")
    out, _, _ = run_child([*ME, "--worker", "cluster"], stdin=puzzles)
    for line in out.splitlines():
        d = json.loads(line)
        print(f"  {d['name']:8} {d['states']:7} states  hardest {d['moves']:2} moves  "
              f"{d['sec']:.3f} s")



def random_bench(args: argparse.Namespace) -> None:
    for family in ("game", "inline"):
        random_family(args, family)


def random_family(args: argparse.Namespace, family: str) -> None:
    print(f"== 3. random 11 x 11 locks, 14 bars + 2 axes, family {family!r} "
          f"(seeds {args.first_seed}-{args.first_seed + args.random_locks - 1}, one process "
          f"each, {args.cap:.0f} s wall cap; the solve's CPU seconds, the worker's peak resident set)")
    secs: list[float] = []
    rsss: list[float] = []
    verdicts: list[str] = []
    for seed in range(args.first_seed, args.first_seed + args.random_locks):
        try:
            out, _wall, rss = run_child([*ME, "--worker", "random", "--seed", str(seed),
                                         "--family", family], timeout=args.cap)
        except subprocess.TimeoutExpired:
            secs.append(args.cap)
            verdicts.append("timeout")
            print(f"  seed {seed:3}:  > {args.cap:.0f} s wall (killed)")
            continue
        d = json.loads(out.splitlines()[0])
        if d.get("skip"):
            continue
        secs.append(d["cpu"])
        rsss.append(rss)
        verdicts.append("impossible" if d["moves"] is None else f"{d['moves']}m")
        print(f"  seed {seed:3}: {verdicts[-1]:>10}  {d['states']:9} states  {d['cpu']:.3f} s "
              f"CPU ({d['sec']:.3f} s wall)  {rss:.0f} MB")
    if secs:
        q = statistics.quantiles(secs, n=10) if len(secs) > 1 else [secs[0]] * 9
        print(f"  time: median {statistics.median(secs):.3f} s, p90 {q[8]:.3f} s, max "
              f"{max(secs):.3f} s, over 5 s: {sum(t > 5 for t in secs)} "
              f"(targets: median < 2 s, none > 5 s); peak memory max "
              f"{max(rsss or [0]):.0f} MB (< 300 MB; issue 29 point 6)")
        moves = Counter(v for v in verdicts)
        print("  verdicts: " + ", ".join(f"{k} x{n}" for k, n in sorted(moves.items())))


def gen_bench(seconds: float, jobs: int, seeds: list[int], modes: list[bool]) -> None:
    """Per seed and mode (``library`` on: the generator may start from the library's strong
    shapes; off: the search alone, as before issue 29): the best within 10/60/300 s of wall
    time, when 45 and 51 were first reached, and the CPU seconds the finding job had spent
    by then (its own process's, so that a shared machine's waits do not count)."""
    from arena.games.lockmaker.fast.jobs import generate_jobs
    from arena.games.lockmaker.pieces import kind_of
    from arena.games.lockmaker.rush import read_rush
    pos = read_rush("BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM.")
    hand = [kind_of(b) for b in pos.bars]
    marks = [m for m in (10.0, 60.0, 300.0) if m <= seconds]
    for library in modes:
        print(f"  -- library {'on' if library else 'off (the search alone)'}")
        got = []
        for seed in seeds:
            res = generate_jobs(pos.board, hand, jobs=jobs, seconds=seconds,
                                rng=random.Random(seed), keyhole=pos.keyhole, library=library)
            reached = [max((mv for t, mv in res.trajectory if t <= m), default=-1)
                       for m in marks]
            got.append(reached[0])
            print(f"  seed {seed}, {jobs} job(s): " + ", ".join(
                f"{r} moves within {m:.0f} s" for m, r in zip(marks, reached, strict=True))
                + f"; >= 45 first at {_first(res, 45)}; 51 first at {_first(res, 51)}; "
                f"{res.searched} sets walked (placements or line sets)")
        print(f"  within {marks[0]:.0f} s: {', '.join(map(str, got))} "
              f"(target 51 on every seed; 51 is the 6 x 6 maximum)")


def search51_bench(seeds: str, cap: float) -> None:
    """The search alone, CPU seconds to 51 per seed: the climb before issue 29 (stall 300,
    kick 0.6) and after (stall 40, no kick), one child process each, both at once (one per
    core, so machine load hits both alike); a seed that hits the cap counts as censored."""
    print(f"  -- one search alone (no library, no jobs), CPU seconds to reach 51, cap {cap:.0f} s")
    procs = {name: subprocess.Popen(
        [PY, *ME, "--worker", "search51", "--gen-seeds", seeds, "--search-cap", str(cap),
         "--stall", str(stall), "--kick", str(kick)], stdout=subprocess.PIPE, text=True)
        for name, stall, kick in (("before (stall 300, kick 0.6)", 300, 0.6),
                                  ("after (stall 40, kick 0)", 40, 0.0))}
    for name, proc in procs.items():
        out, _ = proc.communicate()
        rows = [json.loads(line) for line in out.splitlines()]
        hits = [r for r in rows if r["best"] >= 51]
        total = sum(r["cpu"] for r in rows)
        per = ", ".join(f"{r['cpu']:.1f}" if r["best"] >= 51 else f">{cap:.0f} ({r['best']})"
                        for r in rows)
        print(f"  {name}: {per}; {len(hits)} of {len(rows)} seeds reached 51; "
              f"{total / max(1, len(hits)):.1f} CPU s per hit (all CPU spent / hits)")


def _first(res, moves: int) -> str:  # type: ignore[no-untyped-def]
    """When ``res`` (a Generated) first reached ``moves``: wall and the finding job's CPU."""
    at = next((i for i, (_t, mv) in enumerate(res.trajectory) if mv >= moves), None)
    if at is None:
        return "never"
    return f"{res.trajectory[at][0]:.1f} s wall / {res.cpu_trajectory[at][0]:.2f} s CPU"


def rounds_bench(seconds: float) -> None:
    from arena.games.lockmaker.construct import random_lock
    from arena.games.lockmaker.fast.api import fast_solve
    from arena.games.lockmaker.fast.generator import generate
    from arena.games.lockmaker.rounds import DEFAULT_SETUP, parse_setup
    for i, rnd in enumerate(parse_setup(DEFAULT_SETUP), 1):
        # the first drafter's hand in snake order A BB AA BB ...: picks 0, 3, 4, 7, 8, ...
        hand = [p for k, p in enumerate(rnd.pool) if (k + 1) // 2 % 2 == 0]
        rng = random.Random(i)
        best_random = -1
        for _ in range(1000):
            pos = random_lock(rnd.board, hand, rng)
            if pos is None:
                continue
            res = fast_solve(pos)
            if res.moves is not None:
                best_random = max(best_random, res.moves)
        gen = generate(rnd.board, hand, seconds=seconds, rng=random.Random(i))
        print(f"  round {i} ({rnd.board.width}x{rnd.board.height}, hand "
              f"{','.join(str(p) for p in hand)}): generator {gen.moves} moves in {seconds:.0f} s"
              f" vs best random {best_random}")


def match_bench() -> None:
    import time

    from arena.core.driver import simulate
    from arena.games.lockmaker.match import LockmakerGame
    game = LockmakerGame()
    cfg = game.default_config()
    for seed in (1, 2, 3):
        t0 = time.perf_counter()
        match = simulate(game, seed, cfg)
        took = time.perf_counter() - t0
        print(f"  seed {seed}: {took:.1f} s with bot_placements={cfg.bot_placements} "
              f"({len(match.log)} events; target < 20 s)")


if __name__ == "__main__":
    main()
