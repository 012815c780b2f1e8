"""Rules pages, written for this project in its own words (the seed texts are the designers'
words and are not copied). Each game has ``rules_text/<name>.html``: a fragment with the rules
summary and the rulings it follows."""

from __future__ import annotations

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
