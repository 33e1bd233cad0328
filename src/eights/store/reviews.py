"""Reviews of finished matches, kept by match and by what they looked at."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session as DbSession

from eights.store.db import now, translated
from eights.store.models import ReviewRow

if TYPE_CHECKING:
    from eights.store.matches import Store


class Reviews:
    """Reviews of finished matches (``eights review``), kept by match and by what they looked at."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def get(self, match_id: int, key: str) -> dict[str, Any] | None:
        """The review of ``match_id`` made with ``key`` (its seats and settings), if one was kept."""
        with translated(self.store.url), DbSession(self.store.engine) as db:
            row = db.scalars(select(ReviewRow).where(ReviewRow.match_id == match_id, ReviewRow.key == key)).first()
            return None if row is None else row.data

    def keep(self, match_id: int, key: str, data: dict[str, Any]) -> None:
        """Keep a review (in place of one made before with the same ``key``)."""
        with translated(self.store.url), DbSession(self.store.engine) as db, db.begin():
            db.execute(delete(ReviewRow).where(ReviewRow.match_id == match_id, ReviewRow.key == key))
            db.add(ReviewRow(match_id=match_id, key=key, created_at=now(), data=data))
