"""SVG grids: letters besides colours, chains and lengths marked at the end."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from arena.core.driver import simulate
from arena.core.match import MatchSettings
from arena.games.paint import GAME
from arena.games.paint.grid import parse_grid
from arena.games.paint.render import board

NS = "{http://www.w3.org/2000/svg}"


def test_letters_and_patterns_for_colour_blind_players() -> None:
    svg = board(parse_grid("R....\nG....\nB....\n.....\n....."))
    root = ET.fromstring(svg)
    letters = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "letter"]
    assert sorted(letters) == ["B", "G", "R"]
    assert "url(#pf-stripes)" in svg and "url(#pf-dots)" in svg


def test_chains_marked_with_lengths_and_loops_crossed() -> None:
    svg = board(parse_grid("RRGBG\nRRGBG\nGGBGB\nBBGBG\nGGBGB"), chains=True)
    root = ET.fromstring(svg)
    lengths = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "chain-length"]
    assert lengths == ["2"] * 6
    assert svg.count('class="looped"') == 4
    assert "score 64 = 2x2x2x2x2x2<" in svg and "non-connected containers: 9" in svg


def test_views_render_own_grid_and_both_at_the_end() -> None:
    match = simulate(GAME, 2)
    state = match.state
    # G-9: a spectator gets the grids only as made public after turn 24 (not the final A1);
    # the host (or everyone, once the engine reveals the finished match) gets both as they are.
    public = GAME.render_svg(state, None)
    assert public is not None and "seat 1 after turn 24" in public
    assert "chain-length" not in public
    both = GAME.host_svg(state)
    assert both is not None
    assert match.view(1)["svg"] == both  # revealed at the end by default
    kept = simulate(GAME, 2, settings=MatchSettings(reveal_at_end=False))
    hidden = kept.view("spectator")["svg"]
    assert hidden is not None and "after turn 24" in hidden and hidden != kept.view("host")["svg"]
    ET.fromstring(both)
    assert both.count("chain-length") >= 2
    own = GAME.render_svg(state, 0)
    assert own is not None and "seat 1" in own
