"""Writing matches as they are played: the hot path of the store.

Every applied action is written here, so the work per action is kept to the database's own: the
statements of ``eights.store.batch`` run on DBAPI connections of the store's own (opened by its
engine, with its pragmas, then taken out of the pool).

What is written comes as a ``Batch``: one match's row and seats (the first time), actions, the
rounds they ended and the match's result. Every batch goes to the writer's threads; one of them commits
whatever has come in since the last was taken, in one transaction (a group commit). On PostgreSQL a
few such transactions are on their way at once, each on its own connection, so a commit that takes
long holds up only the moves in it; a match's batches are still committed in order. A computer-only
match's batches are written "behind" play: the computers play on meanwhile, and the database's time
(a PostgreSQL server's round trips and checks, SQLite's pages) is off the match's path. A batch from
a match with a person at it carries a future (``done``) that its match waits for before the action
is applied: a move is on the table only once it is durable, and many rooms' moves share one commit.

Writes are idempotent: a batch of one action can say whether its rows are in the store already
(``stored``), so that a retry after an answer lost on the way (the connection cut after COMMIT) does
not take the action for another's, nor write it twice.
"""

from __future__ import annotations

import atexit
import contextlib
import threading
import weakref
from collections.abc import Iterator, Sequence
from typing import Any, cast

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError, StatementError
from sqlalchemy.pool import NullPool, QueuePool

from eights.store.batch import Batch, Slot, statements
from eights.store.db import Fenced


class OwnConnection:
    """A DBAPI connection of the engine's (opened by it, with its pragmas), detached from its pool, in
    autocommit, with a cursor: each ``write`` is a transaction of its own (or, for a single action, one
    statement). One thread at a time (a lock)."""

    def __init__(self, engine: Engine) -> None:
        self.dialect = engine.dialect
        self.sql = statements(engine.dialect)
        self.error: type[Exception] = engine.dialect.loaded_dbapi.Error
        self.lock = threading.Lock()
        proxied = engine.raw_connection()
        connection: Any = proxied.driver_connection
        proxied.detach()
        try:
            engine.dialect.set_isolation_level(connection, "AUTOCOMMIT")
            self.cursor = connection.cursor()
        except self.error as exc:
            _close_quietly(connection)
            raise DBAPIError.instance(None, None, exc, self.error, dialect=self.dialect) from exc
        self.connection = connection
        # Closed when the connection object goes, or at exit, if not before.
        self.close = weakref.finalize(self, _close_quietly, connection)

    def write(self, batches: Sequence[Batch]) -> dict[Slot, int]:
        """:raises DBAPIError: (SQLAlchemy's, ``connection_invalidated`` when the connection was lost),
        with nothing of the batches written."""
        cursor = self.cursor
        with self.lock, self._translated():
            if len(batches) == 1 and batches[0].single_action:  # nearly every action of a person's match
                (batch,) = batches
                values = {"match_id": batch.slot.id, "number": batch.first, "action": str(batch.actions[0])}
                cursor.execute(self.sql.action.sql, self.sql.action.params(values))
                return {}
            try:
                # Unhurried only when every batch may be: one that a match waits for is committed to disk.
                return self.sql.transaction(cursor, batches, all(batch.unhurried for batch in batches))
            except BaseException:
                with contextlib.suppress(self.error):
                    cursor.execute("ROLLBACK")
                raise

    @contextlib.contextmanager
    def _translated(self) -> Iterator[None]:
        """The driver's errors as SQLAlchemy's, telling whether the connection is lost."""
        try:
            yield
        except self.error as exc:
            lost = self.dialect.is_disconnect(cast(Any, exc), self.connection, self.cursor)
            raise DBAPIError.instance(
                None, None, exc, self.error, connection_invalidated=lost, dialect=self.dialect
            ) from exc


def _stored(batches: Sequence[Batch]) -> bool:
    """Whether ``batches``, each able to tell, are all in the store already (the attempt whose answer was
    lost had committed them)."""
    return all(batch.stored is not None and batch.stored() for batch in batches)


def _done(batches: Sequence[Batch]) -> None:
    """Tell the batches' futures that they are committed."""
    for batch in batches:
        if batch.done is not None and not batch.done.done():
            batch.done.set_result(None)


def _fail(batches: Sequence[Batch], exc: SQLAlchemyError | Fenced) -> None:
    """The batches of one match could not be written: their futures are told why; a match written behind
    play keeps the error in its slot, for its next action."""
    for batch in batches:
        if batch.done is not None:
            if not batch.done.done():
                batch.done.set_exception(exc)
        elif isinstance(exc, SQLAlchemyError):
            batch.slot.error = exc
        batch.slot.written.set()


def _close_quietly(connection: Any) -> None:
    """Close a DBAPI connection, live or already lost (not through its pool, which would roll back first)."""
    with contextlib.suppress(Exception):
        connection.close()


def keepable(engine: Engine) -> bool:
    """Whether a connection can be taken out of ``engine``'s pool for the writer: not where the pool
    shares one connection (an in-memory SQLite database lives in it)."""
    return isinstance(engine.pool, QueuePool | NullPool)


#: Batches that may wait for the writer's threads at once; past them a match waits for a thread.
QUEUE_LIMIT = 4096
#: Transactions a writer has on their way at once, on a database server that takes them side by side
#: (PostgreSQL): each on a connection of its own, so that a commit that takes long (a slow disk, a far
#: server) holds up only the moves in it. SQLite takes one writer at a time, so it gets one.
COMMITTERS = 8
#: Connections a writer may have open at once on such a server: its committers', and one for a
#: person's new match, whose first rows are written on the match's own thread (on a connection a
#: committer is not using, when one is idle).
CONNECTIONS = COMMITTERS + 1


class Writer:
    """A store's writer: its connections (opened when first needed, and again after the server dropped
    one) and the threads (``committers``) that write what matches hand over.

    Each thread commits everything handed over since it last took some, in one transaction (a group
    commit), except the batches of a match another thread is writing now: those wait for it, so that a
    match's batches are committed in the order they came. Where the engine's connections cannot be kept
    apart (an in-memory database), every batch is written at once through the engine's own connection.
    At most ``limit`` batches wait for the threads: a match that would hand over one more waits until a
    thread takes them (back-pressure, where a database slower than play would otherwise hold ever more
    of them in memory).
    """

    def __init__(self, engine: Engine, limit: int = QUEUE_LIMIT) -> None:
        self.engine = engine
        self.limit = limit
        parallel = engine.dialect.name != "sqlite"
        self.committers = COMMITTERS if parallel else 1
        self.most = CONNECTIONS if parallel else 1
        #: Open connections not in use now, and how many are open in all.
        self.idle: list[OwnConnection] = []
        self.opened = 0
        #: Held while the connections are handed out (a write waits here for one while all are in use).
        self.opening = threading.Condition()
        #: The batches handed over and not taken yet, each with its number (in the order they came).
        self.queue: list[tuple[int, Batch]] = []
        #: The matches a thread is writing now, and the first number of each thread's batches.
        self.busy: set[Slot] = set()
        self.flying: dict[int, int] = {}
        #: Batches handed to the threads, and those written (or failed), since the start.
        self.handed = self.done = 0
        self.changed = threading.Condition()
        self.threads: list[threading.Thread] = []
        self.stopping = False
        _LIVE.add(self)

    def write(self, batches: Sequence[Batch]) -> None:
        """Write ``batches`` now, on this thread; their slots learn their match's id. When the server
        dropped the connection, they are written once more on a new one only if each can tell whether
        its rows are there already (``stored``): should the retry find them there, the lost attempt had
        committed them (they are not another's). Without it they could be written twice, so the error
        stands.

        :raises SQLAlchemyError: with nothing of them written: IntegrityError where a row was there
            already (another eights took the match up), another DBAPIError from the database, and a
            StatementError for anything else (a value the driver cannot take).
        :raises Fenced: when a batch's room has another owner now.
        """
        try:
            made = self._write(batches)
        except (SQLAlchemyError, Fenced):
            raise
        except Exception as exc:
            raise StatementError(str(exc), None, None, exc) from exc
        for slot, match_id in made.items():
            slot.id = match_id
            slot.written.set()

    def _write(self, batches: Sequence[Batch]) -> dict[Slot, int]:
        if not keepable(self.engine):
            return self._through_engine(batches)
        try:
            with self._connection() as connection:
                return connection.write(batches)
        except DBAPIError as exc:
            if not exc.connection_invalidated or any(batch.stored is None for batch in batches):
                raise
        with self._connection() as connection:
            try:
                return connection.write(batches)
            except IntegrityError:
                if not _stored(batches):
                    raise
                return {}

    def submit(self, batch: Batch) -> None:
        """Hand ``batch`` to the writer's threads; a failure is kept in its slot, or told to its future.

        A batch written behind play waits for room in the queue (back-pressure); one with a future
        never waits (its match waits for the future instead, one batch at a time, so such batches are
        as few as the matches that wait: an event loop may hand them over).
        """
        if not keepable(self.engine) or self.stopping:  # no thread to hand it to: written now
            self._write_or_keep([batch])
            return
        with self.changed:
            while batch.done is None and len(self.queue) >= self.limit and not self.stopping:
                self.changed.wait()
            self.handed += 1
            self.queue.append((self.handed, batch))
            # A thread more while there are fewer than there may be (again, if an error it could not keep
            # ended one), and each of them busy.
            self.threads = [thread for thread in self.threads if thread.is_alive()]
            if len(self.threads) < self.committers and len(self.flying) == len(self.threads):
                thread = threading.Thread(target=self._run, name="eights-store-writer", daemon=True)
                self.threads.append(thread)
                thread.start()
            self.changed.notify_all()

    def settle(self) -> None:
        """Wait until everything handed to the threads so far is written (or has failed); what others
        hand them meanwhile is not waited for."""
        with self.changed:
            handed = self.handed
            while (first := self._first_unwritten()) is not None and first <= handed:
                self.changed.wait()

    def _first_unwritten(self) -> int | None:
        """The number of the first batch handed over and not written yet (the caller holds ``changed``)."""
        waiting = [self.queue[0][0]] if self.queue else []
        return min([*waiting, *self.flying.values()], default=None)

    def close(self) -> None:
        """Write what is handed over, stop the threads and close the connections."""
        with self.changed:
            self.stopping = True
            self.changed.notify_all()
        for thread in list(self.threads):
            thread.join()
        _LIVE.discard(self)
        with self.opening:
            for connection in self.idle:
                connection.close()
            self.opened -= len(self.idle)
            self.idle = []

    def _run(self) -> None:
        ident = threading.get_ident()
        while True:
            with self.changed:
                while not (batches := self._take()):
                    if self.stopping and not self.queue:
                        return
                    self.changed.wait()
                self.flying[ident] = batches[0][0]
                self.busy |= {batch.slot for _, batch in batches}
                self.changed.notify_all()  # room for matches waiting to hand theirs over
            try:
                self._write_or_keep([batch for _, batch in batches])
            finally:
                with self.changed:
                    del self.flying[ident]
                    self.busy -= {batch.slot for _, batch in batches}
                    self.done += len(batches)
                    self.changed.notify_all()

    def _take(self) -> list[tuple[int, Batch]]:
        """All that came in while the last commits were on their way, but a match another thread is writing
        (the caller holds ``changed``)."""
        taken = [(number, batch) for number, batch in self.queue if batch.slot not in self.busy]
        if taken:
            self.queue = [(number, batch) for number, batch in self.queue if batch.slot in self.busy]
        return taken

    def _write_or_keep(self, batches: list[Batch]) -> None:
        """Write ``batches`` together; when that fails, each match's own, so that one match's error
        (kept in its slot, or told to its batches' futures) costs no other match its rows."""
        live = [batch for batch in batches if batch.slot.error is None]
        if not live:  # every one of a match whose saving has failed already
            return
        try:
            self.write(live)
        except (SQLAlchemyError, Fenced) as exc:
            slots = list(dict.fromkeys(batch.slot for batch in live))
            if len(slots) == 1:
                _fail(live, exc)
                return
            for slot in slots:
                own = [batch for batch in live if batch.slot is slot]
                try:
                    self.write(own)
                except (SQLAlchemyError, Fenced) as error:
                    _fail(own, error)
                else:
                    _done(own)
        else:
            _done(live)

    def _through_engine(self, batches: Sequence[Batch]) -> dict[Slot, int]:
        error = self.engine.dialect.loaded_dbapi.Error
        raw = self.engine.raw_connection()
        cursor = raw.cursor()
        try:
            return statements(self.engine.dialect).transaction(cursor, batches, False)
        except error as exc:
            raw.rollback()
            raise DBAPIError.instance(None, None, exc, error) from exc
        finally:
            cursor.close()
            raw.close()

    @contextlib.contextmanager
    def _connection(self) -> Iterator[OwnConnection]:
        """A connection of the writer's for one write: an idle one, or one opened now (waiting while
        ``most`` are in use); given back after it, or closed if the server dropped it meanwhile."""
        with self.opening:
            while not self.idle and self.opened >= self.most:
                self.opening.wait()
            connection = self.idle.pop() if self.idle else None
            if connection is None:
                self.opened += 1
        try:
            if connection is None:
                connection = OwnConnection(self.engine)
        except BaseException:
            self._let_go(None)
            raise
        lost = False
        try:
            yield connection
        except DBAPIError as exc:
            lost = exc.connection_invalidated
            raise
        finally:
            self._let_go(connection, lost)

    def _let_go(self, connection: OwnConnection | None, lost: bool = False) -> None:
        """Give ``connection`` back to the idle ones, or close it when it was ``lost`` (None: it was never opened)."""
        with self.opening:
            if connection is not None and not lost:
                self.idle.append(connection)
            else:
                self.opened -= 1
                if connection is not None:
                    connection.close()
            self.opening.notify()


#: The writers of stores not closed yet: a program that ends without closing its store still
#: commits what its writer's thread holds.
_LIVE: weakref.WeakSet[Writer] = weakref.WeakSet()


@atexit.register
def _settle_every_writer() -> None:
    for writer in list(_LIVE):
        writer.settle()
