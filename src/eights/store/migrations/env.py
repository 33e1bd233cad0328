"""Alembic's entry point for the match store: migrations run on the connection the store hands in."""

from __future__ import annotations

from alembic import context

from eights.store.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
