"""G-7: every game's whole simulated match, event by event, is the same
in two fresh processes (with different hash seeds), so a server replay equals ``simulate``
with the same inputs and no result depends on the process that computed it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["lockmaker", "boxes", "paint", "feather", "lockedout"]

PROBE = """
import hashlib, json, sys
from arena.core.driver import simulate
from arena.core.registry import get_game
# Lockmaker's builder at a small walk budget: the same code path at a tenth of the CPU (its
# determinism at the default budget is tests/games/lockmaker/test_lm_builder.py's).
CHEAP = {"lockmaker": {"bot_placements": 60}}
for name in sys.argv[1:]:
    game = get_game(name)
    match = simulate(game, 5, game.make_config(CHEAP.get(name, {})))
    log = json.dumps([e.to_json() for e in match.log], sort_keys=True)
    print(name, len(match.log), hashlib.sha256(log.encode()).hexdigest())
"""

pytestmark = pytest.mark.slow


def _digests(hash_seed: str, order: list[str]) -> dict[str, str]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed,
           "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", PROBE, *order], capture_output=True, text=True,
                         check=True, env=env, timeout=600).stdout
    return {line.split()[0]: line.split(None, 1)[1] for line in out.splitlines()}


def test_every_game_simulates_to_the_same_event_log_in_two_fresh_processes() -> None:
    first = _digests("1", GAMES)
    second = _digests("4242", list(reversed(GAMES)))  # other hash seed, other order
    assert set(first) == set(GAMES)
    assert first == second
