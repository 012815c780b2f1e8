"""Rules pages and the /rulings page, written for this project in its own words (the seed
texts are the designers' words and are not copied).

Each game ships its own rules page (``rules.html``: a fragment with the rules summary and the
rulings it follows) and its own rulings (``rulings.json``) in its package
(:meth:`arena.core.facts.GameFacts.own_file`); this module only reads them from the games
it is given. The rulings every game shares (G) and the seasons' (SE) are this folder's
``rulings.json``."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.core.facts import RULES_FILE, RULINGS_FILE
from arena.core.game import Game

RULINGS_FILE_SHARED = Path(__file__).parent / "rulings.json"
"""The rulings of no one game: every game's (G) first, the seasons' (SE, ``after_games``)
after the games' own."""

_TAG_OR_TEXT = re.compile(r"(<[^>]*>)|([^<]+)")


@dataclass(frozen=True)
class Ruling:
    id: str
    title: str
    text: str


@dataclass(frozen=True)
class RulingSection:
    code: str
    title: str
    game: str | None
    rulings: tuple[Ruling, ...]


@dataclass(frozen=True)
class Rulings:
    sections: tuple[RulingSection, ...]

    def ids(self) -> set[str]:
        return {r.id for sec in self.sections for r in sec.rulings}

    def codes(self) -> tuple[str, ...]:
        """The ruling prefixes /rulings has a section for (a game's own rule ids that are no
        ruling link to its rules page instead)."""
        return tuple(sec.code for sec in self.sections)


def rules_html(game: Game[Any, Any]) -> str | None:
    """The game's rules page fragment, or None where it ships none."""
    return game.own_file(RULES_FILE)


def _rulings(data: Any) -> tuple[Ruling, ...]:
    return tuple(Ruling(r["id"], r["title"], r["text"]) for r in data["rulings"])


def _shared() -> list[dict[str, Any]]:
    if not RULINGS_FILE_SHARED.is_file():
        return []
    sections: list[dict[str, Any]] = json.loads(
        RULINGS_FILE_SHARED.read_text(encoding="utf-8"))["sections"]
    return sections


_CACHE: dict[tuple[str, ...], Rulings] = {}


def rulings(games: Iterable[Game[Any, Any]]) -> Rulings:
    """Every ruling the project follows: the shared ones, then each game's own section (its
    ``rulings.json``, under its :attr:`Game.rules_prefix`, titled by the game) in the
    games' order, then the seasons'. Read once per set of games."""
    games = list(games)
    key = tuple(g.name for g in games)
    found = _CACHE.get(key)
    if found is None:
        shared = _shared()
        before = [s for s in shared if not s.get("after_games")]
        after = [s for s in shared if s.get("after_games")]
        own: list[RulingSection] = []
        for game in games:
            text = game.own_file(RULINGS_FILE)
            if text is not None:
                own.append(RulingSection(game.rules_prefix, game.title, game.name,
                                         _rulings(json.loads(text))))
        found = _CACHE[key] = Rulings((
            *(RulingSection(s["code"], s["title"], None, _rulings(s)) for s in before),
            *own,
            *(RulingSection(s["code"], s["title"], None, _rulings(s)) for s in after)))
    return found


def link_rule_ids(fragment: str, codes: Iterable[str]) -> str:
    """Turn every ruling id (one of ``codes``' prefixes) in the text of an HTML fragment
    (never inside a tag) into a link to its anchor on /rulings, so a player can read the
    ruling an error or log line names."""
    rule_id = re.compile(r"\b(?:" + "|".join(re.escape(c) for c in codes) + r")-\d{1,3}\b")

    def text(m: re.Match[str]) -> str:
        if m.group(1):
            return m.group(1)
        return rule_id.sub(lambda r: f'<a class="rule-link" href="/rulings#{r.group(0)}">'
                                     f'{r.group(0)}</a>', m.group(2))
    return _TAG_OR_TEXT.sub(text, fragment)
