"""Plays a whole match of each game against instant bots in Chromium, by taps at 390x844 and
by the keyboard alone at 1280x800, and photographs every phase (issue 27): the whole-match
browser tests, run with ``ARENA_PLAY_SHOTS`` set (tests/web/phaseshots.py). The pictures go
to ``<out>/<game>/<width>-<role>-<NN>-<phase>.png`` for a person to look at.

    .venv/bin/python scripts/play_shots.py [--out /work/shots/play3] [-k boxes]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MATCHES = [
    "tests/web/test_lockmaker_browser.py::test_whole_match_on_the_board_at_phone_size",
    "tests/web/test_lockmaker_browser.py::test_whole_match_by_keyboard_at_desktop_size",
    "tests/web/test_boxes_browser.py::test_whole_boxes_match_on_the_board_at_phone_size",
    "tests/web/test_boxes_browser.py::test_boxes_match_by_keyboard_at_desktop_size",
    "tests/web/test_paint_browser.py::test_whole_match_on_the_board_at_phone_size",
    "tests/web/test_paint_browser.py::test_whole_match_by_keyboard_on_a_wide_screen",
    "tests/web/test_feather_browser.py::test_whole_match_on_a_phone_by_taps",
    "tests/web/test_feather_browser.py::test_whole_match_at_desktop_by_keyboard",
    "tests/web/test_lockedout_browser.py::test_whole_match_on_the_board_at_phone_size",
    "tests/web/test_lockedout_browser.py::test_keyboard_only_match_at_desk_size",
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("/work/shots/play3"))
    parser.add_argument("-k", default=None, help="only the matches whose test names match")
    args = parser.parse_args()
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True)
    env = dict(os.environ, ARENA_PLAY_SHOTS=str(args.out))
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), str(ROOT / "tests"),
                                         env.get("PYTHONPATH", "")])
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *MATCHES]
    if args.k:
        cmd += ["-k", args.k]
    code = subprocess.call(cmd, cwd=ROOT, env=env)
    shots = sorted(args.out.rglob("*.png"))
    for game in sorted({p.parent.name for p in shots}):
        print(f"{game}: {sum(1 for p in shots if p.parent.name == game)} pictures")
    print(f"{len(shots)} pictures in {args.out}")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
