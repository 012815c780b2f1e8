"""The server's half of the lobby (27 and 30): a season's host gives a player a new
season link (the old one stops working), a seat entry takes a bot level, and every option a
game's form shows has a human label and help from the schema, never its field name."""

from __future__ import annotations

import typing
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.exceptions import StarletteDeprecationWarning

from arena.core import settings as schema
from arena.core.match import MatchSettings
from arena.core.registry import all_games
from server.inprocess import in_process_server

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

SETTINGS = {"time_scale": 0.01, "bot_pace": "instant"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder: Path = tmp_path_factory.mktemp("lobby")
    with in_process_server(folder) as c:
        yield c


def test_the_season_host_reissues_a_players_link(client: TestClient) -> None:
    r = client.post("/api/seasons", json={"cast": ["Ann", "Ben", "Cat"], "seed": 3,
                                          "settings": SETTINGS})
    assert r.status_code == 201, r.text
    sid, host = r.json()["id"], r.json()["tokens"]["host"]
    old = r.json()["tokens"]["players"]["Ben"]
    assert client.get(f"/api/seasons/{sid}", params={"token": old}).status_code == 200

    # Only the host may, and only for a name of the cast (SE-1).
    r = client.post(f"/api/seasons/{sid}/host/reissue", params={"token": old},
                    json={"player": "Ben"})
    assert r.status_code == 403
    r = client.post(f"/api/seasons/{sid}/host/reissue", params={"token": host},
                    json={"player": "Zed"})
    assert r.status_code == 422 and r.json()["rule"] == "SE-1", r.text

    r = client.post(f"/api/seasons/{sid}/host/reissue", params={"token": host},
                    json={"player": "Ben"})
    assert r.status_code == 200, r.text
    link = r.json()["link"]
    new = link.split("token=", 1)[1]
    assert new != old and link.startswith(f"http://testserver/s/{sid}?token=")
    assert client.get(f"/api/seasons/{sid}", params={"token": old}).status_code == 403
    me = client.get(f"/api/seasons/{sid}", params={"token": new}).json()
    assert (me["role"], me["you"], me["match"]["names"][1]) == ("seat", 1, "Ben")
    # The host's list of links (a season's links are its match's) has the new one.
    seats = client.get(f"/api/matches/{sid}/host/links", params={"token": host}).json()["seats"]
    assert seats[1]["name"] == "Ben" and seats[1]["link"].endswith(f"?token={new}")


def test_a_bot_seat_takes_a_level(client: TestClient) -> None:
    seats = [{"name": "Ann", "bot": False}, {"bot": True, "level": "easy"}]
    body = {"game": "boxes", "seats": seats, "settings": SETTINGS}
    r = client.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    seats[1]["level"] = "grandmaster"
    r = client.post("/api/matches", json=body)
    assert r.status_code == 422 and r.json()["error"].startswith("G-8: seat 2 field 'level'")


def explicit_label(cls: type, name: str) -> str | None:
    """The label the field's own metadata gives, not one made up from its name."""
    hint = typing.get_type_hints(cls, include_extras=True)[name]
    titles = [m.title for m in getattr(hint, "__metadata__", ()) if getattr(m, "title", None)]
    return titles[0] if titles else None


def test_every_option_of_every_game_has_a_human_label_and_help() -> None:
    """The form says "Shortest countersolve window", not "min counter"."""
    for game in all_games().values():
        for o in schema.options(game.config_type):
            words = o["name"].replace("_", " ")
            assert o["label"] == explicit_label(game.config_type, o["name"]), (game.name, o)
            assert o["help"] and not o["help"].lower().startswith(words), (game.name, o["name"])
    scale = next(o for o in schema.options(MatchSettings) if o["name"] == "time_scale")
    assert "2 doubles" in scale["help"] and "0.5 halves" in scale["help"]
    names = next(o for o in schema.options(all_games()["lockedout"].config_type)
                 if o["name"] == "names")
    assert names["item_type"] == "string"


def test_the_lobby_knows_the_name_an_unnamed_seat_gets(client: TestClient) -> None:
    """The form's placeholders are the names the match page will show."""
    names = client.get("/api/games/lockedout").json()["default_names"]
    assert names[0] == ["Alice", "Alice"] and len(names) == 6
    assert client.get("/api/games/boxes").json()["default_names"] == [["Seat 1", "Bot 1"],
                                                                      ["Seat 2", "Bot 2"]]


def test_the_season_is_no_lobby_game(client: TestClient) -> None:
    """A season is made from its cast (``POST /api/seasons``): the lobby's games, their cards
    and the create request's configs leave it out, and ``POST /api/matches`` refuses one."""
    assert "season" not in {g["name"] for g in client.get("/api/games").json()}
    assert 'data-testid="game-season"' not in client.get("/").text
    schemas = client.get("/api/openapi.json").json()["components"]["schemas"]
    assert "season_config" not in schemas and "boxes_config" in schemas
    r = client.post("/api/matches", json={"game": "season"})
    assert r.status_code == 422 and r.json()["rule"] == "SE-1", r.text
