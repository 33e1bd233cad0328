"""The store's writer on a real PostgreSQL server: a transaction held up (a slow disk, a far server, a row
locked) holds up only the moves in it, and a match's moves are still committed in the order they came."""

from __future__ import annotations

import concurrent.futures
import time
from typing import Any

from sqlalchemy import text

from eights.store import Store, database_url
from eights.store.batch import Batch, Slot
from eights.store.rooms import Rooms
from eights.table import build_config
from eights.table.saved import start_saved


def waiting_on_a_lock(store: Store, count: int) -> None:
    """Wait (30 s at most) until ``count`` of the server's sessions wait for a row lock."""
    for _ in range(600):
        with store.engine.connect() as connection:
            found = connection.scalar(text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"))
        if found == count:
            return
        time.sleep(0.05)
    raise AssertionError(f"{count} transaction(s) never came to wait for the locked row")


def move(slot: Slot, number: int, fence: tuple[str, int] | None = None) -> Batch:
    """A person's move: one action, waited for (``done``)."""
    return Batch(slot, actions=["draw"], first=number, fence=fence, done=concurrent.futures.Future())


def test_a_commit_held_up_holds_up_only_the_moves_in_it_and_a_match_keeps_its_order(postgres: Any) -> None:
    store = Store(database_url(postgres.url))
    try:
        matches = [
            start_saved(store, build_config("classic", players=2, bots="easy", humans=1, seed=seed)).log
            for seed in (1, 2)
        ]
        held_id, other_id = (log.match_id for log in matches if log is not None)
        Rooms(store).save("HELD", "playing", {}, held_id, fence=7)
        held_slot, other_slot = Slot(held_id), Slot(other_id)
        with store.engine.connect() as locker:
            locker.execute(text("SELECT fence FROM rooms WHERE code = 'HELD' FOR UPDATE"))  # its commit now waits
            first = move(held_slot, 1, fence=("HELD", 7))
            store.writer.submit(first)
            waiting_on_a_lock(store, 1)
            second = move(held_slot, 2, fence=("HELD", 7))
            other = move(other_slot, 1)
            order: list[Batch] = []
            for batch in (first, second):
                assert batch.done is not None
                batch.done.add_done_callback(lambda _, batch=batch: order.append(batch))
            store.writer.submit(second)
            store.writer.submit(other)
            assert other.done is not None and first.done is not None
            assert other.done.result(timeout=30) is None  # another match's move is committed meanwhile
            assert not first.done.done()
            assert second in [batch for _, batch in store.writer.queue]  # behind its match's first, not beside it
            locker.rollback()
        store.writer.settle()
        assert order == [first, second]
        assert store.record(held_id).actions == ("draw", "draw")
        assert store.record(other_id).actions == ("draw",)
    finally:
        store.close()


def test_sqlite_has_one_committer(tmp_path: Any) -> None:
    """SQLite takes one writer at a time: its store's writer commits on one thread and one connection."""
    store = Store(database_url(str(tmp_path / "one.db")))
    try:
        assert (store.writer.committers, store.writer.most) == (1, 1)
    finally:
        store.close()
