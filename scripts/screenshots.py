"""Regenerates docs/screenshots/ from a real run (issue 14 point 11): a fresh server on a
throwaway SQLite file, one match per game with a human in seat 1 and bots at a human pace in the
others, the seat's page photographed at phone (390x844) and desktop (1280x800) width once the
first phase is under way, plus the lobby.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from server.serverproc import ServerProcess  # noqa: E402
from web.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

GAMES = {"lockmaker": 2, "boxes": 2, "paint": 2, "feather": 2, "lockedout": 6}
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(f"sqlite:///{tmp}/shots.db", Path(tmp) / "server.log").start()
        try:
            matches = {
                game: server.create(game, seats=[{"name": name, "bot": i > 0} for i, name in
                                                 enumerate(["Ada", "Bo", "Cy", "Di", "Ed",
                                                            "Flo"][:seats])],
                                    settings={"bot_pace": "human"}, seed=11)
                for game, seats in GAMES.items()}
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for size, (width, height) in SIZES.items():
                    context = browser.new_context(viewport={"width": width, "height": height})
                    page = context.new_page()
                    page.goto(server.url + "/")
                    page.wait_for_load_state("networkidle")
                    page.screenshot(path=str(args.out / f"lobby-{size}.png"))
                    for game, m in matches.items():
                        page.goto(m["links"]["seats"][0])
                        page.locator("[data-testid=conn][data-state=live]").wait_for()
                        page.get_by_test_id("game-root").wait_for()
                        page.wait_for_load_state("networkidle")
                        path = args.out / f"{game}-{size}.png"
                        page.screenshot(path=str(path), full_page=size == "desktop")
                        print(path.relative_to(ROOT))
                    context.close()
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
