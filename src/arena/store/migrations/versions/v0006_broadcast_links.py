"""Broadcast links (G-15): a link of the host's through which an audience sees the whole match
one delay behind. Its delay is kept on the link itself, so closing or reissuing the link is
one row's change, like a seat's.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("tokens") as batch:
        batch.add_column(sa.Column("delay", sa.Double(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tokens") as batch:
        batch.drop_column("delay")
