"""The pages make their words as Preact nodes from facts: no page script sets HTML from a
string (``dangerouslySetInnerHTML``, ``innerHTML``, ``outerHTML``, ``insertAdjacentHTML``), so
nothing a server or a player wrote can become markup. The vendored libraries are not ours."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "src" / "arena" / "web" / "static"
SINKS = re.compile(r"dangerouslySetInnerHTML|\.innerHTML\s*=|outerHTML\s*=|insertAdjacentHTML")


def test_no_page_script_sets_html_from_a_string() -> None:
    scripts = [p for p in STATIC.rglob("*.js") if "vendor" not in p.parts]
    assert len(scripts) >= 10  # the shell, the lobby and every game's module
    found = [f"{p.relative_to(STATIC)}:{n}: {line.strip()}"
             for p in scripts
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if SINKS.search(line)]
    assert not found, "\n".join(found)
