"""Hypothesis strategies shared by the fast solver's reference tests."""

from __future__ import annotations

from hypothesis import strategies as st

from arena.games.lockmaker.pieces import PieceKind

piece = st.one_of(
    st.builds(PieceKind, st.sampled_from(["H", "V"]), st.integers(2, 3)),
    st.just(PieceKind("X")),
)
"""A bar of length 2 or 3 either way, or an axis."""
