"""The words a view hands the page are words, not notation: over random whole matches of every
game, at the start of every phase and at the end, every sentence-like string (one holding a
space) in the view of a seat and of the host holds no notation token of its game (each game's
checker from its notation grammar) and no internal name. The notation drawer's own texts are
the exception: ``help`` (the notation reminder), the phase's ``prompt`` and the record of what
was sent (``submissions[].text``) are notation on purpose, and only the drawer shows them."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.core.match import HOST
from playouts import random_steps

GAMES = ["lockmaker", "boxes", "paint", "feather", "lockedout"]
NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")
DRAWER = {"help", "prompt", "text", "svg", "toml", "legal", "decisions", "previews"}
"""Keys whose strings are notation or markup on purpose: the notation drawer's reminder and
prompt, a submission's typed record, the board picture, a scenario file to download, and the
moves a board sends for the player (the legal ones, the bot's, a preview's), which the page
sends back and never shows."""

INTERNAL = re.compile(r"\b(lockmaker|lockedout|phase \d+|[a-z]+_[a-z_]+)\b")


def _sentences(value: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        if " " in value:
            yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in DRAWER:
                yield from _sentences(v, f"{path}.{k}")
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            yield from _sentences(v, f"{path}[{i}]")


def _views(name: str, seed: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """The views of seat 1 and the host at each phase's start and at the end of a random
    match."""
    seats = {"lockedout": 6}.get(name, 2)
    for match, seat, _ in random_steps(name, seed, names=NAMES[:seats]):
        if seat is None:
            for viewer, who in ((0, "seat 1"), (HOST, "host")):
                yield f"{who} in phase {match.phase_no}", match.view(viewer, svg=False)


@pytest.mark.parametrize("game", GAMES)
def test_view_sentences_hold_no_notation(game: str) -> None:
    module = importlib.import_module(f"games.{game}.{game}_notation")
    notation_in: Callable[[str], str | None] = module.notation_in

    @settings(max_examples=3, deadline=None)
    @given(seed=st.integers(0, 2**20))
    def check(seed: int) -> None:
        found = []
        for when, view in _views(game, seed):
            for path, text in _sentences(view, "view"):
                token = notation_in(text)
                hit = INTERNAL.search(text)
                if token or hit:
                    found.append(f"{when}: {path} = {text[:90]!r} "
                                 f"({token or (hit.group(0) if hit else '')})")
        assert not found, f"{game}, seed {seed}:\n" + "\n".join(sorted(set(found))[:20])

    check()


@pytest.mark.parametrize("game", GAMES)
def test_review_sentences_hold_no_notation(game: str) -> None:
    """The post-match review is read by players: what each seat did and what was better are
    words, never the notation a seat typed."""
    from arena.core import review
    from arena.core.driver import simulate
    from arena.core.registry import get_game
    from wording import ONE_OF_MANY

    module = importlib.import_module(f"games.{game}.{game}_notation")
    notation_in: Callable[[str], str | None] = module.notation_in
    g = get_game(game)
    config = g.make_config({"boxes": {"bouts": 3}, "lockmaker": {"rounds": 1}}.get(game, {}))
    judged = review.judge(simulate(g, 9, config=config, levels={0: "easy"}))
    assert judged, f"{game}: nothing judged"
    found = [f"{j.phase}: {text!r}" for j in judged for text in (j.did, j.better)
             if notation_in(text) or INTERNAL.search(text) or ONE_OF_MANY.search(text)]
    assert not found, f"{game}:\n" + "\n".join(found[:20])
