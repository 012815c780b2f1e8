"""Link previews: a match page's head carries Open Graph and Twitter card tags, and its
image, ``/m/{id}/card.png``, is a 1200x630 PNG showing only what a spectator may see (G-9):
during a sealed phase the card is the same bytes whether or not a seat acted (G-10); a
broadcast link's card is the public card of the match one delay ago, never newer (G-15); a
bad link is refused like any read, a quarantined match answers 503, never a 500.

The server's clock is a ManualClock moved by the test, so "one delay ago" is exact."""

from __future__ import annotations

import base64
import html
import random
import re
import struct
import time
import types
import warnings
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.exceptions import StarletteDeprecationWarning

from arena.core.clock import ManualClock
from arena.core.registry import all_games, get_game
from arena.server import api, cards, creating, rebuild
from arena.server.app import create_app
from arena.server.limits import RateLimit
from arena.web.card import Card, card_png
from arena.web.unfurl import unfurl_head

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

CLOCK = ManualClock(float(int(time.time())))
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
TAGS = ("og:title", "og:description", "og:image", "og:image:width", "og:image:height",
        "og:image:type", "og:url", "og:type", "twitter:card", "twitter:title",
        "twitter:description", "twitter:image")
SEALED = {"lockmaker": "build", "boxes": "bout 1: bet", "paint": "design", "feather": "tick",
          "lockedout": "round 1"}
"""A sealed phase of each game with two or more seats acting at once (G-2, G-10)."""


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder: Path = tmp_path_factory.mktemp("unfurl")
    patch = pytest.MonkeyPatch()
    for module in (creating, rebuild):
        patch.setattr(module, "SystemClock", lambda: CLOCK)
        patch.setattr(module, "time", types.SimpleNamespace(
            time=CLOCK.now, monotonic=time.monotonic, sleep=time.sleep,
            perf_counter=time.perf_counter))
    unlimited = RateLimit(burst=10**9, per_second=10**9, what="requests")
    for name, value in list(vars(api).items()):
        if isinstance(value, RateLimit):
            patch.setattr(api, name, unlimited)
    patch.setattr(cards, "CARD_LIMIT", unlimited)
    patch.setattr(creating, "LIVE_PER_ADDRESS", 10**9)
    try:
        with TestClient(create_app(f"sqlite:///{folder / 'u.db'}")) as c:
            yield c
    finally:
        patch.undo()


def _match(client: TestClient, game: str, seed: int = 5) -> dict[str, Any]:
    seats = [{"name": n, "bot": False} for n in NAMES[:get_game(game).seats]]
    r = client.post("/api/matches", json={"game": game, "seed": seed, "seats": seats,
                                          "settings": {"time_scale": 1.0}})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def _meta(page: str) -> dict[str, str]:
    found = re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)">', page)
    return {k: html.unescape(v) for k, v in found}


def _dimensions(png: bytes) -> tuple[int, int]:
    """Width and height from the PNG's IHDR chunk (the first, right after the signature)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def _card(client: TestClient, m: dict[str, Any], token: str) -> bytes:
    r = client.get(f"/m/{m['id']}/card.png", params={"token": token})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "image/png"
    assert r.headers["cache-control"] == "no-store"  # asked for with a token
    return r.content


def _live(client: TestClient, m: dict[str, Any]) -> Any:
    app: Any = client.app
    return app.state.matches.owners[m["id"]].match


@pytest.mark.parametrize("game", sorted(all_games()))
def test_every_match_page_unfurls_into_its_card(client: TestClient, game: str) -> None:
    m = _match(client, game)
    tokens = m["tokens"]
    for token in (tokens["spectator"], tokens["seats"][0], tokens["host"]):
        page = client.get(f"/m/{m['id']}", params={"token": token})
        assert page.status_code == 200
        meta = _meta(page.text)
        assert set(TAGS) <= set(meta), set(TAGS) - set(meta)
        assert meta["og:image:width"] == "1200" and meta["og:image:height"] == "630"
        assert meta["og:type"] == "website" and meta["twitter:card"] == "summary_large_image"
        assert meta["og:image"] == meta["twitter:image"]
        assert meta["og:image"].startswith("http://testserver/m/")  # absolute
        assert get_game(game).title in meta["og:title"]
        assert all(n in meta["og:description"] for n in NAMES[:get_game(game).seats])
        png = client.get(meta["og:image"].removeprefix("http://testserver")).content
        assert _dimensions(png) == (1200, 630)
        assert len(png) <= 200 * 1024
    # Every link of the match gets the same card: the public one (G-9).
    assert _card(client, m, tokens["host"]) == _card(client, m, tokens["seats"][0]) == \
        _card(client, m, tokens["spectator"])


def _submit(client: TestClient, m: dict[str, Any], seat: int, final: bool,
            rng: random.Random) -> None:
    """A submission the rules accept from ``seat`` now (random ones until one is taken)."""
    match = _live(client, m)
    for _ in range(60):
        text = match.game.random_submission(match.state, seat, rng)
        assert text is not None
        r = client.post(f"/api/matches/{m['id']}/submit", params={"token": m["tokens"]["seats"][seat]},
                        json={"text": text, "final": final})
        if r.status_code == 200:
            return
        assert r.status_code == 422, r.text
    raise AssertionError(f"no submission of seat {seat} was taken")


def _reach(client: TestClient, m: dict[str, Any], phase: str, rng: random.Random) -> None:
    """Play whole phases (every seat final) until the phase named ``phase`` is open."""
    match = _live(client, m)
    for _ in range(40):
        spec = match.spec
        assert spec is not None and not match.finished
        if spec.name == phase:
            return
        before = match.phase_no
        for seat in sorted(spec.actors):
            _submit(client, m, seat, True, rng)
            if match.phase_no != before:
                break
    raise AssertionError(f"phase {phase!r} was not reached")


@pytest.mark.parametrize("game", sorted(SEALED))
def test_a_sealed_submission_changes_no_byte_of_the_card(client: TestClient, game: str) -> None:
    m = _match(client, game, seed=7)
    rng = random.Random(7)
    _reach(client, m, SEALED[game], rng)
    match = _live(client, m)
    assert match.spec.sealed and len(match.spec.actors) >= 2
    seat = min(match.spec.actors)
    spectator = m["tokens"]["spectator"]
    cards.CARDS.clear()
    before = _card(client, m, spectator)
    log_version = match.version
    _submit(client, m, seat, False, rng)
    assert len(cards.CARDS) == 1
    assert _card(client, m, spectator) == before
    # The cache did not move with the sealed entry: a slower answer would tell that the seat
    # acted (G-10). And drawn again from scratch, the card is the same bytes.
    assert len(cards.CARDS) == 1
    cards.CARDS.clear()
    assert _card(client, m, spectator) == before
    _submit(client, m, seat, True, rng)
    cards.CARDS.clear()
    assert _card(client, m, m["tokens"]["host"]) == before  # any link: the public card
    assert match.version > log_version and match.spec.name == SEALED[game]  # it did act
    page = client.get(f"/m/{m['id']}", params={"token": spectator}).text
    assert SEALED[game] in _meta(page)["og:description"].lower()


def _open_broadcast(client: TestClient, m: dict[str, Any], delay: float) -> str:
    r = client.post(f"/api/matches/{m['id']}/host/broadcast",
                    params={"token": m["tokens"]["host"]}, json={"delay": delay})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def test_a_broadcast_card_is_the_public_card_one_delay_ago(client: TestClient) -> None:
    m = _match(client, "lockmaker")
    start = CLOCK.now()
    spectator = m["tokens"]["spectator"]
    first = _card(client, m, spectator)
    token = _open_broadcast(client, m, 60)

    CLOCK.set(start + 10)
    soon = _card(client, m, token)
    assert soon == card_png(cards._soon_card(get_game("lockmaker").title, 60.0)) != first
    meta = _meta(client.get(f"/m/{m['id']}", params={"token": token}).text)
    assert "delayed broadcast" in meta["og:title"] and "1 min" in meta["og:title"]
    assert "starts soon" in meta["og:description"]

    rng = random.Random(3)
    CLOCK.set(start + 30)  # the study phase ends: the public state moves on
    _reach(client, m, "draft", rng)
    second = _card(client, m, spectator)
    assert second != first

    CLOCK.set(start + 61)  # the cut is at +1: before the study ended
    cards.CARDS.clear()
    assert _card(client, m, token) == first
    meta = _meta(client.get(f"/m/{m['id']}", params={"token": token}).text)
    assert "Phase 1 (study)" in meta["og:description"]
    # The live match moves on within the delay: the broadcast's card does not.
    match = _live(client, m)
    _submit(client, m, min(match.spec.actors), True, rng)
    third = _card(client, m, spectator)
    assert third != second
    assert _card(client, m, token) == first

    CLOCK.set(start + 95)  # the cut at +35: after the study, before the draft pick
    cards.CARDS.clear()
    assert _card(client, m, token) == second
    CLOCK.set(start + 125)  # the cut at +65
    assert _card(client, m, token) == third


def test_a_season_unfurls_into_its_standings(client: TestClient) -> None:
    r = client.post("/api/seasons", json={"cast": ["Ann", "Bob", "Cid", "Dee"],
                                          "name": "Spring <cup>"})
    assert r.status_code == 201, r.text
    s = r.json()
    page = client.get(f"/s/{s['id']}", params={"token": s["tokens"]["spectator"]})
    meta = _meta(page.text)
    assert set(TAGS) <= set(meta)
    assert meta["og:title"] == "Spring <cup>" and "4 players still in" in meta["og:description"]
    assert '"Spring &lt;cup&gt;"' in page.text  # escaped in the page
    assert meta["og:url"].startswith(f"http://testserver/s/{s['id']}?token=")
    before = client.get(meta["og:image"].removeprefix("http://testserver")).content
    assert _dimensions(before) == (1200, 630)
    r = client.post(f"/api/seasons/{s['id']}/host/adjust", params={"token": s["tokens"]["host"]},
                    json={"player": "Bob", "what": "garnets", "amount": 3, "reason": "test"})
    assert r.status_code == 200, r.text
    after = _card(client, {"id": s["id"]}, s["tokens"]["spectator"])
    assert after != before and len(after) <= 200 * 1024


def test_a_bad_link_is_refused_and_a_quarantined_match_answers_503(client: TestClient) -> None:
    m = _match(client, "boxes")
    other = _match(client, "boxes")
    json_please = {"accept": "application/json"}
    for params, status in (({}, 401), ({"token": "nope"}, 403),
                           ({"token": other["tokens"]["spectator"]}, 403)):
        r = client.get(f"/m/{m['id']}/card.png", params=params, headers=json_please)
        assert r.status_code == status and r.json()["ok"] is False, r.text
    r = client.get("/m/nosuch/card.png", params={"token": "nope"}, headers=json_please)
    assert r.status_code in (403, 404) and r.json()["ok"] is False
    # A page with a bad link is still served, without tags.
    page = client.get(f"/m/{m['id']}", params={"token": "nope"})
    assert page.status_code == 200 and "og:image" not in page.text
    # A spectator link of a match the host closed to spectators gets neither.
    r = client.post(f"/api/matches/{m['id']}/host/spectators",
                    params={"token": m["tokens"]["host"]}, json={"open": False})
    assert r.status_code == 200, r.text
    r = client.get(f"/m/{m['id']}/card.png", params={"token": m["tokens"]["spectator"]},
                   headers=json_please)
    assert r.status_code == 403
    assert "og:image" not in client.get(f"/m/{m['id']}",
                                        params={"token": m["tokens"]["spectator"]}).text
    # A match the server cannot serve: the usual 503 naming why.
    app: Any = client.app
    matches = app.state.matches
    owner = matches.owners.pop(other["id"])
    client.portal.call(owner.stop)
    matches.quarantine(other["id"], "its log cannot be read")
    r = client.get(f"/m/{other['id']}/card.png", params={"token": other["tokens"]["host"]},
                   headers=json_please)
    assert r.status_code == 503 and "cannot be read" in r.json()["error"], r.text


def test_the_tags_escape_what_they_are_given() -> None:
    head = unfurl_head('A "title" <b>', "x & y", "https://h/i.png?a=1&b=2", "https://h/p?q='")
    assert '<b>' not in head and "&quot;title&quot;" in head and "a=1&amp;b=2" in head
    assert 'content="https://h/p?q=&#x27;"' in head
    assert {"og:title", "og:image", "twitter:card", "og:image:width"} <= set(_meta(head))


def test_a_card_is_deterministic_and_small() -> None:
    """The same facts give the same bytes (nothing in a card varies with the moment it is
    drawn), and a card at its fullest stays far below the 200 KB previews allow."""
    card = Card(title="A very long title of a game that goes on and on and on", status="Round 12",
                seats=tuple(f"Player number {i} with a long name" for i in range(12)),
                result="Player number 3 with a long name wins", detail="because " * 60)
    png = card_png(card)
    assert png == card_png(card) and _dimensions(png) == (1200, 630)
    assert len(png) <= 200 * 1024


def _noise_png(width: int, height: int) -> bytes:
    """A PNG of random pixels (which no compression shrinks), made without an image
    library."""
    rng = random.Random(1)
    raw = b"".join(b"\x00" + rng.randbytes(width * 3) for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def test_a_heavy_or_broken_board_still_makes_a_light_card() -> None:
    """A picture whose PNG would pass the weight previews allow is drawn smaller or left out;
    one the converter refuses is left out. Either way the card is served, the same bytes for
    the same picture."""
    data = base64.b64encode(_noise_png(700, 420)).decode()
    heavy = Card(title="Noise", seats=("Ann", "Bob"), status="Round 1",
                 picture='<svg xmlns="http://www.w3.org/2000/svg" width="700" height="420">'
                         f'<image width="700" height="420" href="data:image/png;base64,{data}"/>'
                         '</svg>')
    png = card_png(heavy)
    assert _dimensions(png) == (1200, 630) and len(png) <= 200 * 1024
    assert png == card_png(heavy)
    broken = Card(title="Broken", seats=("Ann", "Bob"), picture="<svg><not closed")
    assert _dimensions(card_png(broken)) == (1200, 630)


def test_cards_are_rate_limited_per_link(client: TestClient,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cards, "CARD_LIMIT", RateLimit(burst=2, per_second=0.01,
                                                       what="card images from this link"))
    m = _match(client, "paint")
    for _ in range(2):
        _card(client, m, m["tokens"]["spectator"])
    r = client.get(f"/m/{m['id']}/card.png", params={"token": m["tokens"]["spectator"]})
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
    _card(client, m, m["tokens"]["host"])  # another link, another budget
