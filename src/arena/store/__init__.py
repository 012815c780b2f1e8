"""Persistence: matches, seat tokens and the append-only event log, over SQLAlchemy.

SQLite in the user's data directory by default, PostgreSQL by URL. The schema is owned by
Alembic migrations shipped inside this package and applied on every start.
"""

from arena.store.database import default_database_url
from arena.store.event_rows import CHANNEL, StoredEvent
from arena.store.failures import StoreUnavailable, describe_failure, is_outage
from arena.store.lease_rows import LeaseLost
from arena.store.records import Lease, MatchRecord, ScenarioRecord, TokenRecord
from arena.store.rows import DamagedRow, Rows
from arena.store.scenario_rows import ScenarioExists
from arena.store.season_rows import SeasonConflict
from arena.store.store import Store

__all__ = ["CHANNEL", "DamagedRow", "Lease", "LeaseLost", "MatchRecord", "Rows", "ScenarioExists", "ScenarioRecord", "SeasonConflict", "Store", "StoreUnavailable", "StoredEvent", "TokenRecord", "default_database_url", "describe_failure", "is_outage"]
