"""Regenerates docs/screenshots/ from a real run: a fresh server on a
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

from arena.core.registry import all_games  # noqa: E402
from server.serverproc import ServerProcess  # noqa: E402
from web.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

# Each listed game, with as many seats as it can take, and its moment of play as the game
# declares it (``Game.screenshot_moment``), reached by the board's own controls (bots answer
# at once there): (what to click, in order; what to wait for before the picture). A trailing
# "*" clicks again each time the seat's move comes round until the wanted part shows.
GAMES = {name: (game.seat_range or (game.seats, game.seats))[1]
         for name, game in all_games().items() if game.listed}
MOMENTS: dict[str, list[tuple[str, str]]] = {
    name: list(game.screenshot_moment) for name, game in all_games().items() if game.listed}
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
            def create(game: str, seats: int, pace: str) -> dict[str, object]:
                names = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"][:seats]
                return server.create(game, seats=[{"name": n, "bot": i > 0}
                                                  for i, n in enumerate(names)],
                                     settings={"bot_pace": pace}, seed=11)

            matches = {game: create(game, seats, "human") for game, seats in GAMES.items()}
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
                        page.evaluate("window.scrollTo(0, 0)")
                        page.screenshot(path=str(path), full_page=size == "desktop")
                        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
                        m = create(game, GAMES[game], "instant")
                        page.goto(str(m["links"]["seats"][0]))  # type: ignore[index]
                        page.locator("[data-testid=conn][data-state=live]").wait_for()
                        try:
                            for testid, ready in MOMENTS[game]:
                                again = testid.endswith("*")
                                for _ in range(6 if again else 1):
                                    page.get_by_test_id(testid.rstrip("*")).first.click()
                                    if not again:
                                        break
                                    page.locator(f"{ready}, [data-testid={testid.rstrip('*')}]"
                                                 ).first.wait_for(timeout=20_000)
                                    if page.locator(ready).count():
                                        break
                                page.locator(ready).first.wait_for(timeout=20_000)
                        except Exception as exc:  # a picture is still taken: say what failed
                            print(f"  {game}: the moment was not reached ({exc.__class__.__name__})")
                        path = args.out / f"{game}-play-{size}.png"
                        # From the top: a full-page picture of a scrolled page draws the
                        # sticky header where the scroll left it.
                        page.evaluate("window.scrollTo(0, 0)")
                        page.screenshot(path=str(path), full_page=size == "desktop")
                        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
                    context.close()
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
