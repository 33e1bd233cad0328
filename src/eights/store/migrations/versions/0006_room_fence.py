"""A room's fence: the lease of the instance that owns it when many serve one store.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26 13:50:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("fence", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("fence")
