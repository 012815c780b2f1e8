"""The /rulings page: every ruling of the shared RULINGS.md is stated once, in
the project's own words, every rule id the code cites has an entry to link to, and the page gives
each ruling an anchor and each section a test id. Each game's rulings are its own file
(``rulings.json`` in its package); the shared ones (G, SE) are the web layer's."""

from __future__ import annotations

import html
import io
import json
import re
import tokenize
import warnings
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from starlette.exceptions import StarletteDeprecationWarning

with warnings.catch_warnings():
    # This Starlette asks for the httpx2 package and warns when it falls back on httpx (which the
    # project has); the client works the same, so only that one import warning is silenced.
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

from arena.core.registry import all_games
from arena.server.app import create_app
from arena.web.rules import RULINGS_FILE_SHARED, rulings

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "arena"
SHARED = ROOT.parent / "shared"
RULINGS_MD = SHARED / "RULINGS.md"
SEEDS = SHARED / "seeds"

RULE_ID = re.compile(r"\b(?:G|LM|BX|PF|LF|LO|SE)-\d{1,3}\b")
CODES = ("G", "LM", "BX", "PF", "LF", "LO", "SE")
GAME_OF = {"G": None, "LM": "lockmaker", "BX": "boxes", "PF": "paint", "LF": "feather",
           "LO": "lockedout", "SE": None}
RUN = 10  # words in a row that may not be copied


def _data() -> dict[str, Any]:
    """Every section as the files hold them: the shared ones around each game's own."""
    shared = json.loads(RULINGS_FILE_SHARED.read_text(encoding="utf-8"))["sections"]
    own = []
    for game in all_games().values():
        path = SRC / "games" / game.name / "rulings.json"
        if path.is_file():
            data = json.loads(path.read_text(encoding="utf-8"))
            own.append({"code": game.rules_prefix, "title": game.title, "game": game.name,
                        "rulings": data["rulings"]})
    before = [{**s, "game": None} for s in shared if not s.get("after_games")]
    after = [{**s, "game": None} for s in shared if s.get("after_games")]
    return {"sections": [*before, *own, *after]}


def _entries() -> list[dict[str, str]]:
    return [r for sec in _data()["sections"] for r in sec["rulings"]]


def _ids() -> list[str]:
    return [r["id"] for r in _entries()]


def _shared_ids() -> list[str]:
    if not RULINGS_MD.is_file():
        pytest.skip(f"{RULINGS_MD} is not on this machine")
    return re.findall(r"^- \*\*((?:G|LM|BX|PF|LF|LO|SE)-\d{1,3})\b", RULINGS_MD.read_text(
        encoding="utf-8"), flags=re.MULTILINE)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _key(rule_id: str) -> tuple[int, int]:
    code, number = rule_id.split("-")
    return CODES.index(code), int(number)


def test_sections_in_order_with_their_games() -> None:
    sections = _data()["sections"]
    assert [s["code"] for s in sections] == list(CODES)
    for sec in sections:
        assert sec["game"] == GAME_OF[str(sec["code"])]
        assert sec["title"]
        for r in sec["rulings"]:
            assert r["id"].startswith(f"{sec['code']}-"), r["id"]
            assert r["title"].strip() and r["text"].strip(), r["id"]
            assert "<" not in r["text"] and "`" not in r["text"], f"{r['id']}: plain text only"
    ids = _ids()
    assert ids == sorted(ids, key=_key), "rulings are listed in id order"
    assert rulings(all_games().values()).ids() == set(ids), "the loader reads every entry"


def test_every_shared_ruling_appears_exactly_once() -> None:
    shared = _shared_ids()
    assert len(shared) >= 80
    ids = _ids()
    missing = sorted(set(shared) - set(ids), key=_key)
    extra = sorted(set(ids) - set(shared), key=_key)
    twice = sorted({i for i in ids if ids.count(i) > 1}, key=_key)
    assert not missing, f"rulings missing from rulings.json: {missing}"
    assert not extra, f"rulings.json has ids RULINGS.md does not: {extra}"
    assert not twice, f"ids listed more than once: {twice}"


def _cited_texts() -> Iterator[tuple[Path, str]]:
    """Every string literal of the Python sources, and the whole text of the other served files
    (scripts, templates, rules pages, data), except the vendored libraries."""
    for path in sorted(SRC.rglob("*")):
        if not path.is_file() or "vendor" in path.parts or "__pycache__" in path.parts:
            continue
        if path.suffix == ".py":
            source = path.read_text(encoding="utf-8")
            for tok in tokenize.generate_tokens(io.StringIO(source).readline):
                if tok.type == tokenize.STRING:
                    yield path, tok.string
        elif path.suffix in {".js", ".html", ".json", ".toml", ".css", ".txt", ".md"}:
            yield path, path.read_text(encoding="utf-8")


def test_every_cited_rule_id_has_a_ruling() -> None:
    known = set(_ids())
    unknown: dict[str, set[str]] = {}
    cited = 0
    for path, text in _cited_texts():
        for rule_id in RULE_ID.findall(text):
            cited += 1
            if rule_id not in known:
                unknown.setdefault(rule_id, set()).add(str(path.relative_to(ROOT)))
    assert cited > 100, "the scan found the code's rule citations"
    assert not unknown, f"rule ids cited in src/arena with no entry on /rulings: {unknown}"


def _copied(theirs: list[str], ours: list[str]) -> list[str]:
    grams = {tuple(theirs[i:i + RUN]) for i in range(len(theirs) - RUN + 1)}
    return [" ".join(ours[i:i + RUN]) for i in range(len(ours) - RUN + 1)
            if tuple(ours[i:i + RUN]) in grams]


def test_rulings_are_in_our_own_words() -> None:
    sources = [RULINGS_MD] + (sorted(SEEDS.glob("*.txt")) if SEEDS.is_dir() else [])
    sources = [p for p in sources if p.is_file()]
    if not sources:
        pytest.skip("neither RULINGS.md nor the seed texts are on this machine")
    theirs = [_words(p.read_text(encoding="utf-8")) for p in sources]
    copied: dict[str, list[str]] = {}
    for r in _entries():
        ours = _words(f"{r['title']} {r['text']}")
        for words in theirs:
            found = _copied(words, ours)
            if found:
                copied.setdefault(r["id"], []).extend(found)
    assert not copied, f"runs of {RUN} words copied from the designers' or RULINGS.md text: {copied}"


class _Anchors(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.testids: list[str] = []
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(str(a["id"]))
        if a.get("data-testid"):
            self.testids.append(str(a["data-testid"]))
        if tag == "a" and a.get("href"):
            self.hrefs.append(str(a["href"]))


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = tmp_path_factory.mktemp("rulings") / "r.db"
    with TestClient(create_app(f"sqlite:///{db}")) as client:
        r = client.get("/rulings")
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/html")
        text: str = r.text
        return text


def test_rulings_page_has_an_anchor_per_ruling_and_a_section_per_code(page: str) -> None:
    found = _Anchors()
    found.feed(page)
    for rule_id in _ids():
        assert found.ids.count(rule_id) == 1, f"no single anchor id={rule_id!r}"
        assert f"#{rule_id}" in found.hrefs, f"{rule_id} links to itself"
    for code in CODES:
        assert f"rulings-{code}" in found.testids, f"no section data-testid rulings-{code}"
    for sec in _data()["sections"]:
        if sec["game"]:
            assert f"/games/{sec['game']}" in found.hrefs


def test_rulings_page_shows_every_text_with_rule_ids_linked(page: str) -> None:
    body = html.unescape(re.sub(r"<[^>]+>", "", page))
    for r in _entries():
        assert r["title"] in body and r["text"] in body, r["id"]
    found = _Anchors()
    found.feed(page)
    known = set(_ids())
    targets = [h.split("#", 1)[1] for h in found.hrefs if h.startswith("/rulings#")]
    assert targets, "rule ids inside texts are links"
    assert set(targets) <= known, "every cross-reference points at a ruling on the page"
