"""PF-6 and PF-7: chains, loops, lengths, the product and non-connected containers."""

from __future__ import annotations

from arena.games.paint.grid import parse_grid
from arena.games.paint.scoring import score_grid


def score(text: str) -> tuple[int, list[int], int, int]:
    s = score_grid(parse_grid(text))
    return s.score, sorted(c.length for c in s.chains), len(s.looped), s.non_connected


def test_pf6_straight_rows_are_chains_of_five() -> None:
    assert score("RRRRR\nGGGGG\nRRRRR\nGGGGG\nBBBBB") == (3125, [5, 5, 5, 5, 5], 0, 0)


def test_pf6_two_by_two_square_is_looped_and_scores_nothing() -> None:
    # the R square is looped: it contributes a factor 1, not 0
    s = score_grid(parse_grid("RRGBG\nRRGBG\nGGBGB\nBBGBG\nGGBGB"))
    assert [c.colour for c in s.looped] == ["R"]
    assert s.score > 0
    assert all(len(c.cells) != 4 or c.colour != "R" for c in s.chains)


def test_pf6_ring_without_square_is_a_loop() -> None:
    s = score_grid(parse_grid("RRRGB\nRGRGB\nRRRGB\nGBGBG\nBGBGB"))
    assert [len(c.cells) for c in s.looped] == [8]


def test_pf6_tree_length_is_longest_path_in_cells() -> None:
    # a plus sign of 5 R: longest path 3 cells; an L of 4 G: 4
    s = score_grid(parse_grid(".R...\nRRR..\n.R...\n.....\nGGGG."))
    lengths = {c.colour: c.length for c in s.chains}
    assert lengths == {"R": 3, "G": 4}
    assert s.score == 12
    s2 = score_grid(parse_grid("G....\nG....\nG....\nGGGGG\n....."))
    assert s2.chains[0].length == 8


def test_pf6_single_container_is_non_connected() -> None:
    assert score("RGRGR\nGRGRG\nRGRGR\nGRGRG\nRGRGR") == (1, [1] * 25, 0, 25)


def test_pf7_all_one_colour_scores_one() -> None:
    assert score("RRRRR\nRRRRR\nRRRRR\nRRRRR\nRRRRR") == (1, [], 1, 0)


def test_pf7_grids_with_the_text_example_figures() -> None:
    """The text's images are missing; these grids give its figures: 2x4x2x3x4 with one
    non-connected container, and 3x5x4x2x3 with two."""
    first = score_grid(parse_grid("GGGBB\nRBBRR\nBBRRG\nRBBBG\nRBBGG"))
    assert first.score == 2 * 4 * 2 * 3 * 4 and first.non_connected == 1
    assert sorted(c.length for c in first.chains if c.length > 1) == [2, 2, 3, 4, 4]
    second = score_grid(parse_grid("GRRRB\nGBBGB\nGBBRR\nGBBRG\nRGGGG"))
    assert second.score == 3 * 5 * 4 * 2 * 3 and second.non_connected == 2
    assert [c.colour for c in second.looped] == ["B"]  # the 2x2 blue block scores nothing


def test_json_shape() -> None:
    data = score_grid(parse_grid("RRRRR\nGGGGG\nRRRRR\nGGGGG\nBBBBB")).to_json()
    assert data["score"] == 3125
    assert data["chains"][0] == {"colour": "R", "cells": ["A1", "B1", "C1", "D1", "E1"],
                                 "length": 5}
    assert data["looped"] == [] and data["non_connected"] == 0
