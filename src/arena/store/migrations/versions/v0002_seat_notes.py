"""A seat's private notes (a player's strike-outs per safe, LO-12), kept by the server so
they follow the player to another device. Notes are not part of the match: no rule reads them.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "seat_notes",
        sa.Column("match_id", sa.String(40), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("updated", sa.Double(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("seat_notes")
