"""The scenario library (LF-12): scenarios a host saved, each under a unique
name with an author's note. A match never reads this table after it is created: its scenario
is copied into the match's own config, so a replay does not depend on the library.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "scenarios",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("created", sa.Double(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("scenarios")
