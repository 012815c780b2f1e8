"""A sixth game is one folder (DESIGN.md, "The game owns its facts"): Last Stone, a package in
``tests/installable`` with its own rules page, rulings, ruling prefix, command-line tools and
Death Match config, installed the way a game from another distribution is (its entry point in
the ``arena.games`` group, :mod:`installed_games`), is found in the lobby, on its rules page,
on /rulings, on the command line, among a season's Death Matches and by the conformance suite
(which runs over it: ``tests/test_conformance.py``), with no file of ``src/arena`` naming it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.core.clock import ManualClock
from arena.core.game import Game
from arena.core.match import Match, MatchSettings
from arena.core.registry import all_games, death_matches
from arena.season.flow import death_games
from arena.season.game import SEASON
from arena.season.state import DM_NEXT, DM_PLAY
from installed_games import installed
from server.inprocess import TestClient, in_process_server

SRC = Path(__file__).resolve().parents[1] / "src" / "arena"
NAME, TITLE, PREFIX = "nim", "Last Stone", "NIM"


@pytest.fixture(scope="module")
def sixth() -> Iterator[Game[Any, Any]]:
    with installed() as games:
        yield games[NAME]


@pytest.fixture(scope="module")
def client(sixth: Game[Any, Any], tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[TestClient]:
    with in_process_server(tmp_path_factory.mktemp("sixth")) as c:
        yield c


def test_no_file_of_the_project_names_the_sixth_game() -> None:
    """The folder is all there is of it: no shared file was edited for it."""
    pattern = re.compile(rf"\b({NAME}|{TITLE}|sixth_game|{PREFIX}-\d)\b", re.IGNORECASE)
    found = [str(p.relative_to(SRC)) for p in SRC.rglob("*")
             if p.is_file() and p.suffix in {".py", ".js", ".html", ".css", ".json", ".toml"}
             and pattern.search(p.read_text(encoding="utf-8"))]
    assert found == []


def test_the_registry_finds_it_in_its_declared_place(sixth: Game[Any, Any]) -> None:
    games = all_games()
    assert games[NAME] is sixth
    assert list(games)[-1] == NAME  # order 60: after the five (10 to 50)
    assert sixth.own_file("rules.html") is not None


def test_the_lobby_lists_it_and_its_rules_page_and_rulings_show(client: TestClient) -> None:
    listed = {g["name"]: g for g in client.get("/api/games").json()}
    assert listed[NAME]["title"] == TITLE and listed[NAME]["rules_prefix"] == PREFIX
    assert {o["name"] for o in listed[NAME]["options"]} >= {"stones", "take_most", "turn"}
    lobby = client.get("/").text
    assert f'data-testid="game-{NAME}"' in lobby and f'href="/games/{NAME}"' in lobby
    # Every page tells its scripts the ruling prefixes, the sixth game's among them.
    assert re.search(rf'data-rulings="[^"]*\b{PREFIX}\b', lobby)
    rules = client.get(f"/games/{NAME}")
    assert rules.status_code == 200
    assert "Whoever takes the last stone wins" in rules.text
    assert f'href="/rulings#{PREFIX}-1"' in rules.text  # its ids link to its rulings
    rulings = client.get("/rulings").text
    assert f'data-testid="rulings-{PREFIX}"' in rulings and f'id="{PREFIX}-3"' in rulings
    assert f'href="/games/{NAME}"' in rulings


def test_a_match_of_it_is_played_through_the_api(client: TestClient) -> None:
    r = client.post("/api/matches", json={
        "game": NAME, "seats": [{"name": "Ann", "bot": True}, {"name": "Ben", "bot": True}],
        "settings": {"bot_pace": "instant"}, "config": {"stones": 5}})
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]
    for _ in range(200):
        record = client.get(f"/api/matches/{match_id}").json()
        if record["status"] == "finished":
            break
        client.get(f"/api/matches/{match_id}/view", params={"token": r.json()["tokens"]["host"]})
    assert record["status"] == "finished"
    assert record["result"]["winner"] == 0  # 5 stones, three a turn: the first seat wins


def test_its_command_line_tools_run(sixth: Game[Any, Any],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nim", "best", "10", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"stones": 10, "take": 2}
    assert main(["nim", "best", "8"]) == 0
    assert "every take loses" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--help"])
    assert f"{NAME}" in capsys.readouterr().out


def test_a_season_may_make_it_a_death_match(sixth: Game[Any, Any]) -> None:
    assert death_matches()[NAME] == {"stones": 7}
    assert NAME in death_games()
    cast = ("Ann", "Ben", "Cat", "Dan")
    config = SEASON.make_config({"cast": list(cast), "step_seconds": 100.0,
                                 "vote_seconds": 100.0})
    m = Match(SEASON, config, 7, ManualClock(1000.0), MatchSettings(bot_pace="instant"),
              names=cast)
    m.act("record_main", {"result": {"escaped": ["Ann", "Ben"], "trapped": ["Cat", "Dan"],
                                     "bars": {}, "ec": "Dan"},
                          "reason": "played on another server"}, "host")
    m.submit(3, "Nominate Cat", final=True)
    assert m.state.step == DM_NEXT
    assert NAME in SEASON.view(m.state, None)["death_games"]
    m.act("start_death", {"game": NAME, "config": {"stones": 7}}, "host")
    assert m.state.step == DM_PLAY
    child = next(c for c in SEASON.children(m.state) if c.live)
    assert (child.game, child.config) == (NAME, {"stones": 7})

