"""Lockmaker: draft pieces, build a sliding lock for your opponent, pick theirs (LM-1..LM-22).

Modules: ``board`` (cells, G-1 names), ``pieces`` (bars, piece lists), ``position`` (a lock),
``moves`` (slides and axis turns), ``lockfile`` (LM-10), ``rush`` (LM-12), ``notation`` (LM-11),
``solver`` (optimal BFS), ``validate`` (LM-15), ``render`` (SVG/PNG), ``rounds`` and ``match``
(the match, LM-13..LM-21), ``bot``.

The match (and through its bot, the fast solver and NumPy) loads on first use of ``GAME``:
a tool that only reads a lock file or solves a puzzle should not pay for the whole game.
``tools`` is the ``arena lockmaker`` command, ``quick`` its quick start for Rush Hour
batches.
"""

MYPY = False
if MYPY:  # types only: the quick start (``quick``) loads this package, and typing loads re
    from typing import Any

    from arena.games.lockmaker.match import GAME, LockmakerConfig, LockmakerGame

__all__ = ["GAME", "LockmakerConfig", "LockmakerGame"]


def __getattr__(name: str) -> "Any":
    if name in __all__:
        from arena.games.lockmaker import match

        return getattr(match, name)
    raise AttributeError(f"module 'arena.games.lockmaker' has no attribute {name!r}")
