"""The web table's rooms in the store: saved as they change, taken over under a fence when many
instances serve one store, read back when a server starts, forgotten when they expire."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session as DbSession

from eights.store.db import WRITE_FIRST, Fenced, naive, now, translated
from eights.store.models import RoomRow

if TYPE_CHECKING:
    from eights.store.matches import Store


@dataclass(frozen=True)
class SavedRoom:
    code: str
    phase: str
    data: dict[str, Any]
    match_id: int | None
    #: When the room last changed or had someone in it (UTC, without a zone).
    updated_at: datetime
    #: The fence of the instance that owns it, when many serve the store (``Rooms.take``).
    fence: int | None = None


def _saved(row: RoomRow) -> SavedRoom:
    return SavedRoom(row.code, row.phase, row.data, row.match_id, naive(row.updated_at), row.fence)


class Rooms:
    """The web table's rooms in a store: saved as they change, read back when the server starts."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def save(self, code: str, phase: str, data: dict[str, Any], match_id: int | None, fence: int | None = None) -> None:
        """Write the room (a new one, or over what was saved). ``fence``: its owner's, when many instances
        serve the store; a new room is made with it.

        :raises Fenced: when the saved room carries another fence (another instance took it over).
        """
        store = self.store
        with translated(store.url), DbSession(store.engine.execution_options(**{WRITE_FIRST: True})) as db, db.begin():
            row = db.scalars(select(RoomRow).where(RoomRow.code == code).with_for_update()).first()
            if row is None:
                db.add(
                    RoomRow(
                        code=code,
                        created_at=now(),
                        updated_at=now(),
                        phase=phase,
                        data=data,
                        match_id=match_id,
                        fence=fence,
                    )
                )
            elif fence is not None and row.fence != fence:
                raise Fenced(f"room {code} is served by another instance now; this one's change was not saved")
            else:
                row.updated_at, row.phase, row.data, row.match_id = now(), phase, data, match_id

    def get(self, code: str) -> SavedRoom | None:
        """The saved room ``code``, if there is one."""
        with translated(self.store.url), DbSession(self.store.engine) as db:
            row = db.get(RoomRow, code)
            return None if row is None else _saved(row)

    def take(self, code: str, fence: int) -> SavedRoom | None:
        """Give the saved room ``code`` a new owner's ``fence`` (newer than any before: ``Store.next_epoch``),
        so that its last owner's writes are refused from now on; the room as saved, or None when there is none.
        A write of the last owner's that began before is over (the row is locked) and read here."""
        with translated(self.store.url), DbSession(self.store.engine) as db, db.begin():
            row = db.scalars(select(RoomRow).where(RoomRow.code == code).with_for_update()).first()
            if row is None:
                return None
            row.fence = fence
            return _saved(row)

    def exists(self, code: str) -> bool:
        with translated(self.store.url), DbSession(self.store.engine) as db:
            return db.get(RoomRow, code) is not None

    def all(self) -> list[SavedRoom]:
        """Every saved room, the oldest first."""
        with translated(self.store.url), DbSession(self.store.engine) as db:
            rows = db.scalars(select(RoomRow).order_by(RoomRow.created_at)).all()
            return [_saved(r) for r in rows]

    def unused(self, lifetimes: Mapping[str, float]) -> list[str]:
        """The codes of the rooms not used for longer than their phase's lifetime (``lifetimes``: seconds
        by phase; a phase not named never expires here)."""
        moment = naive(now())
        with translated(self.store.url), DbSession(self.store.engine) as db:
            found: list[str] = []
            for phase, seconds in lifetimes.items():
                before = moment - timedelta(seconds=seconds)
                found += db.scalars(
                    select(RoomRow.code).where(RoomRow.phase == phase, RoomRow.updated_at < before)
                ).all()
            return found

    def touch(self, codes: Sequence[str]) -> None:
        """Mark the rooms ``codes`` as used now (someone was in them), so that they do not expire."""
        if codes:
            with translated(self.store.url), DbSession(self.store.engine) as db, db.begin():
                db.execute(update(RoomRow).where(RoomRow.code.in_(codes)).values(updated_at=now()))

    def delete(self, codes: Sequence[str]) -> None:
        """Forget the rooms ``codes`` (expired); their matches stay in the store's history."""
        if codes:
            with translated(self.store.url), DbSession(self.store.engine) as db, db.begin():
                db.execute(delete(RoomRow).where(RoomRow.code.in_(codes)))
