"""The lobby and the rules pages: every served game has a one-line description and a rules page
in the project's own words (no run of 10 words copied from the designers' text)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.serverproc import ROOT, ServerProcess

pytestmark = pytest.mark.slow

SEEDS = ROOT.parent / "shared" / "seeds"
SEED_OF = {"lockmaker": "000", "boxes": "001", "paint": "002", "feather": "003",
           "lockedout": "004"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("pages")
    proc = ServerProcess(f"sqlite:///{folder / 'p.db'}", folder / "server.log").start()
    try:
        yield proc
    finally:
        proc.stop()


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", html.unescape(re.sub(r"<[^>]+>", " ", text)).lower())


def test_lobby_lists_every_game_with_its_summary(server: ServerProcess) -> None:
    games = server.http.get(server.url + "/api/games").json()
    page = server.http.get(server.url + "/").text
    for g in games:
        assert f'data-testid="game-{g["name"]}"' in page
        assert html.escape(g["summary"]) in page
        assert f'href="/games/{g["name"]}"' in page


def test_rules_pages_are_in_our_own_words(server: ServerProcess) -> None:
    games = server.http.get(server.url + "/api/games").json()
    for g in games:
        r = server.http.get(f"{server.url}/games/{g['name']}")
        assert r.status_code == 200
        assert html.escape(g["title"]) in r.text
        if g["name"] in SEED_OF:
            assert "Rulings this game follows" in r.text
            assert g["rules_prefix"] + "-" in r.text
            seed = next(SEEDS.glob(SEED_OF[g["name"]] + "_*.txt"), None) if SEEDS.is_dir() else None
            if seed is not None:
                theirs = _words(seed.read_text(encoding="utf-8"))
                grams = {tuple(theirs[i:i + 10]) for i in range(len(theirs) - 9)}
                ours = _words(r.text)
                copied = [" ".join(ours[i:i + 10]) for i in range(len(ours) - 9)
                          if tuple(ours[i:i + 10]) in grams]
                assert not copied, copied[:3]
    assert server.http.get(server.url + "/games/nosuch").status_code == 404
