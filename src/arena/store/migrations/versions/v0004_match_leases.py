"""Match leases: which server process owns each live match on a shared
PostgreSQL database, until when, and its fencing token (raised by every takeover and checked
by every append, so a process that lost a match can never write to it again). SQLite keeps
one process and leaves the table empty.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "match_leases",
        sa.Column("match_id", sa.String(40), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("url", sa.Text(), nullable=True),
        sa.Column("token", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.Double(), nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("match_leases")
