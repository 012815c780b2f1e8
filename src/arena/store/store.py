"""The store: a thin, synchronous layer over SQLAlchemy.

Writes are small and few (one transaction per accepted command). The server never calls
these methods on its event loop: it goes through :class:`arena.store.asyncstore.AsyncStore`,
which runs them on its own threads. The schema is brought up to date by Alembic every time a
store opens.
"""

from __future__ import annotations

from arena.store.event_rows import EventRows
from arena.store.lease_rows import LeaseRows
from arena.store.match_rows import MatchRows
from arena.store.scenario_rows import ScenarioRows
from arena.store.season_rows import SeasonRows


class Store(MatchRows, EventRows, LeaseRows, SeasonRows, ScenarioRows):
    """Matches, tokens and events in one database: every concern's rows over one engine
    (:class:`~arena.store.database.Database`)."""
