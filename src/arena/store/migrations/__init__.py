"""Alembic migrations of the store, shipped in the package and run at every start."""
