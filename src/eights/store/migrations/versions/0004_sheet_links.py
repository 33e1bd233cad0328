"""Score sheets on the web: a read-only link's code, the hash of the edit link's token, a revision.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25 09:58:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sheets", schema=None) as batch_op:
        batch_op.add_column(sa.Column("view_code", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("edit_hash", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("revision", sa.Integer(), server_default="0", nullable=False))
        batch_op.create_index(batch_op.f("ix_sheets_view_code"), ["view_code"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("sheets", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sheets_view_code"))
        batch_op.drop_column("revision")
        batch_op.drop_column("edit_hash")
        batch_op.drop_column("view_code")
