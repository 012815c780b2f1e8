"""Lockmaker: draft pieces, build a sliding lock for your opponent, pick theirs (LM-1..LM-22).

Modules: ``board`` (cells, G-1 names), ``pieces`` (bars, piece lists), ``position`` (a lock),
``moves`` (slides and axis turns), ``lockfile`` (LM-10), ``rush`` (LM-12), ``notation`` (LM-11),
``solver`` (optimal BFS), ``validate`` (LM-15), ``render`` (SVG/PNG), ``rounds`` and ``match``
(the match, LM-13..LM-21), ``bot``.
"""

from arena.games.lockmaker.match import GAME, LockmakerConfig, LockmakerGame

__all__ = ["GAME", "LockmakerConfig", "LockmakerGame"]
