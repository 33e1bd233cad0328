"""When a score sheet made on the web was last used: it expires when nobody uses it for long.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02 10:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sheets", schema=None) as batch_op:
        batch_op.add_column(sa.Column("web_used_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f("ix_sheets_web_used_at"), ["web_used_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("sheets", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sheets_web_used_at"))
        batch_op.drop_column("web_used_at")
