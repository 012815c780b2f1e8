"""Light as a Feather (LF): a real-time Death Match of buckets, basins and objectives.

Modules: ``basins`` (schedules, LF-8), ``objectives`` (the declarative format, LF-7),
``scenario`` (sessions as TOML), ``actions`` (notation), ``tick`` (one boundary, LF-2..LF-6),
``match`` (the engine game), ``bot`` (the planner), ``view`` and ``render``.
"""

from arena.games.feather.match import GAME, FeatherConfig, FeatherGame, FeatherState

__all__ = ["GAME", "FeatherConfig", "FeatherGame", "FeatherState"]
