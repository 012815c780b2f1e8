"""The first schema: matches, tokens and the append-only events table.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False, index=True),
        sa.Column("config", sa.Text(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("settings", sa.Text(), nullable=False),
        sa.Column("start", sa.Double(), nullable=False),
        sa.Column("seat_names", sa.Text(), nullable=False),
        sa.Column("bots", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("created", sa.Double(), nullable=False),
    )
    op.create_table(
        "tokens",
        sa.Column("token", sa.String(64), primary_key=True),
        sa.Column("match_id", sa.String(40), sa.ForeignKey("matches.id"), nullable=False,
                  index=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(40), sa.ForeignKey("matches.id"), nullable=False,
                  index=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("to", sa.Text(), nullable=True),
        sa.Column("t", sa.Double(), nullable=False),
        sa.UniqueConstraint("match_id", "version", name="uq_events_match_version"),
    )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_table("tokens")
    op.drop_table("matches")
