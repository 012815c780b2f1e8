"""Persistence: matches, seat tokens and the append-only event log, over SQLAlchemy.

SQLite in the user's data directory by default, PostgreSQL by URL. The schema is owned by
Alembic migrations shipped inside this package and applied on every start.
"""

from arena.store.rows import DamagedRow, Rows
from arena.store.store import (
    CHANNEL,
    Lease,
    LeaseLost,
    MatchRecord,
    ScenarioExists,
    ScenarioRecord,
    SeasonConflict,
    Store,
    StoredEvent,
    StoreUnavailable,
    TokenRecord,
    default_database_url,
    describe_failure,
    is_outage,
)

__all__ = ["CHANNEL", "DamagedRow", "Lease", "LeaseLost", "MatchRecord", "Rows", "ScenarioExists", "ScenarioRecord", "SeasonConflict", "Store", "StoreUnavailable", "StoredEvent", "TokenRecord", "default_database_url", "describe_failure", "is_outage"]
