"""Rules pages, written for this project in its own words (the seed texts are the designers'
words and are not copied). Each game has ``rules_text/<name>.html``: a fragment with the rules
summary and the rulings it follows."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent / "rules_text"


@dataclass(frozen=True)
class Rules:
    html: str
    rulings: tuple[tuple[str, str], ...] = ()


def _load() -> dict[str, Rules]:
    found: dict[str, Rules] = {}
    if HERE.is_dir():
        for path in sorted(HERE.glob("*.html")):
            found[path.stem] = Rules(path.read_text(encoding="utf-8"))
    return found


RULES = _load()


# ---------------------------------------------------------------------- the /rulings page
RULINGS_FILE = Path(__file__).parent / "rulings.json"
_PREFIXES = ("G", "LM", "BX", "PF", "LF", "LO", "SE")
_RULE_ID = re.compile(r"\b(?:" + "|".join(_PREFIXES) + r")-\d{1,3}\b")
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


def _load_rulings() -> Rulings:
    if not RULINGS_FILE.is_file():
        return Rulings(())
    data = json.loads(RULINGS_FILE.read_text(encoding="utf-8"))
    return Rulings(tuple(
        RulingSection(sec["code"], sec["title"], sec.get("game"),
                      tuple(Ruling(r["id"], r["title"], r["text"]) for r in sec["rulings"]))
        for sec in data["sections"]))


RULINGS = _load_rulings()


def link_rule_ids(fragment: str) -> str:
    """Turn every ruling id in the text of an HTML fragment (never inside a tag) into a link
    to its anchor on /rulings, so a player can read the ruling an error or log line names."""
    def text(m: re.Match[str]) -> str:
        if m.group(1):
            return m.group(1)
        return _RULE_ID.sub(lambda r: f'<a class="rule-link" href="/rulings#{r.group(0)}">'
                                      f'{r.group(0)}</a>', m.group(2))
    return _TAG_OR_TEXT.sub(text, fragment)
