"""Events are facts (who, what, where, how much), never sentences made for the page: over the
events of random whole matches of every game, no string anywhere in an event's data holds a
space (a word, a number, a name of one word, a code) except the few fields that are a
person's own text or the record of what they typed:

- ``submit.text``: the notation a player sent, the replay's record (G-7);
- ``chat.text``, ``end.reason``, ``host_note.reason``: what a person wrote;
- a phase's name (``phase_started.name``, ``phase_resolved.name``, ``limit_passed.phase``,
  ``accepted.phase``): an identifier the pages word with the game's ``phaseName``.

The pages make every line from these facts (``web/static/words.js``); the log-words browser
test reads the lines they make."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playouts import random_playout

GAMES = ["lockmaker", "boxes", "paint", "feather", "lockedout"]
NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")

PEOPLE_AND_NAMES = {
    ("submit", "text"), ("chat", "text"), ("end", "reason"), ("host_note", "reason"),
    ("phase_started", "name"), ("phase_resolved", "name"), ("limit_passed", "phase"),
    ("accepted", "phase"),
}


def _strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, f"{path}.{k}")
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            yield from _strings(v, f"{path}[{i}]")


@pytest.mark.parametrize("game", GAMES)
def test_no_event_carries_a_sentence(game: str) -> None:
    seats = {"lockedout": 6}.get(game, 2)

    @settings(max_examples=4, deadline=None)
    @given(seed=st.integers(0, 2**20))
    def check(seed: int) -> None:
        match, _ = random_playout(game, seed, names=NAMES[:seats])
        found = []
        for e in match.log:
            data = e.data if isinstance(e.data, dict) else {"": e.data}
            for key, value in data.items():
                if (e.kind, key) in PEOPLE_AND_NAMES:
                    continue
                for path, text in _strings(value, f"{e.kind}.{key}"):
                    if any(c.isspace() for c in text):
                        found.append(f"{path} = {text[:80]!r}")
        assert not found, f"{game}, seed {seed}: worded fields\n" + "\n".join(
            sorted(set(found))[:30])

    check()
