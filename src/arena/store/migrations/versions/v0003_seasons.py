"""Seasons (SE-1..SE-5): a season's head (cast, seed, settings) and a snapshot of its record
for lists, its append-only inputs (which replay to the whole season, ledger included), and its
secret links (the host's and one per cast member).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "seasons",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("head", sa.Text(), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("created", sa.Double(), nullable=False),
        sa.Column("updated", sa.Double(), nullable=False),
    )
    op.create_table(
        "season_entries",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("season_id", sa.String(40), sa.ForeignKey("seasons.id"), nullable=False,
                  index=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("t", sa.Double(), nullable=False),
        sa.UniqueConstraint("season_id", "version", name="uq_season_entries_version"),
    )
    op.create_table(
        "season_tokens",
        sa.Column("token", sa.String(64), primary_key=True),
        sa.Column("season_id", sa.String(40), sa.ForeignKey("seasons.id"), nullable=False,
                  index=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("player", sa.String(64), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("season_tokens")
    op.drop_table("season_entries")
    op.drop_table("seasons")
