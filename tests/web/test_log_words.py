"""Every log line a reader is shown is in words: made by the page's own code (``words.js``
and the game's module, the functions the match page calls) from the events of random whole
matches, for a seat and for the host, then read as text. No line holds a notation token of
its game (each game's checker, ``tests/games/<game>/<game>_notation.py``, built from its
notation grammar), an internal name (a game's module name, ``stage``, a ``snake_case`` key,
"phase 3"), JSON or a JavaScript placeholder.

One browser page runs every example: the lines are made in Chromium, the checks in Python."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.core.match import HOST, Match, Viewer
from arena.server.views import events_json, view_for
from arena.store import MatchRecord
from playouts import random_playout

GAMES = ["lockmaker", "boxes", "paint", "feather", "lockedout"]
NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")

INTERNAL = re.compile(r"\b(lockmaker|lockedout|stage|phase \d+|[a-z]+_[a-z_]+)\b", re.I)
"""Names a host would never say: module names, the state's fields, snake_case keys, the
engine's phase numbers ("Phase 3: Bout 1: bet.")."""

PLACEHOLDER = re.compile(r"undefined|\bnull\b|NaN|\[object|[{}\[\]<>]|[“”\"]")
"""What code leaks when it prints a value it did not word: JavaScript's placeholders, JSON,
markup shown as text (a game's describe once returned HTML strings), and quotation marks (the
log quoted every send)."""

MAKE_LINES = """async ({ game, readers }) => {
  const ui = await import("/static/ui.js");
  const words = await import("/static/words.js");
  await import("/static/games/" + game + ".js");
  const impl = ui.games[game];
  const out = [];
  for (const r of readers) {
    for (const e of r.events) {
      const line = words.logLine(e, r.view, impl);
      if (line == null) continue;
      const box = document.createElement("div");
      ui.render(typeof line === "string" ? ui.html`<${ui.RuleText} text=${line}/>` : line, box);
      out.push({ reader: r.name, kind: e.kind, text: box.textContent });
    }
  }
  return out;
}"""


def _checker(game: str) -> Callable[[str], str | None]:
    module = importlib.import_module(f"games.{game}.{game}_notation")
    found: Callable[[str], str | None] = module.notation_in
    return found


def _reader(record: MatchRecord, match: Match, viewer: Viewer, name: str) -> dict[str, Any]:
    return {"name": name, "view": view_for(record, match, viewer, svg=False),
            "events": events_json(match, viewer, 0)}


@pytest.fixture(scope="module")
def words_page(browser: Any, live_server: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    pg.goto(live_server + "/")
    try:
        yield pg
    finally:
        context.close()


def lines_of(words_page: Any, game: str, seed: int) -> list[dict[str, str]]:
    seats = {"lockedout": 6}.get(game, 2)
    names = NAMES[:seats]
    match, _ = random_playout(game, seed, names=names)
    record = MatchRecord(id="words", game=game, config={}, seed=seed, settings={},
                         start=0.0, seat_names=names, bots=(False,) * seats)
    readers = [_reader(record, match, 0, "seat 1"), _reader(record, match, HOST, "host")]
    lines: list[dict[str, str]] = words_page.evaluate(MAKE_LINES,
                                                       {"game": game, "readers": readers})
    return lines


@pytest.mark.parametrize("game", GAMES)
def test_every_log_line_of_a_random_match_is_in_words(words_page: Any, game: str) -> None:
    notation_in = _checker(game)

    @settings(max_examples=3, deadline=None, derandomize=False,
              suppress_health_check=[HealthCheck.function_scoped_fixture,
                                     HealthCheck.too_slow])
    @given(seed=st.integers(0, 2**20))
    def check(seed: int) -> None:
        lines = lines_of(words_page, game, seed)
        assert lines, "a whole match logs something"
        problems = []
        for line in lines:
            text = line["text"]
            where = f"{line['reader']} reads {line['kind']}: {text!r}"
            if not text.strip():
                problems.append(f"an empty line ({where})")
            for pattern, what in ((INTERNAL, "an internal name"), (PLACEHOLDER, "code")):
                hit = pattern.search(text)
                if hit:
                    problems.append(f"{what} {hit.group(0)!r} ({where})")
            token = notation_in(text)
            if token:
                problems.append(f"the notation {token!r} ({where})")
        assert not problems, f"{game}, seed {seed}:\n" + "\n".join(problems[:20])

    check()
