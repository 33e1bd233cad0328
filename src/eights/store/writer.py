"""Writing matches as they are played: the hot path of the store.

Every applied action is written here, so the work per action is kept to the database's own: the
statements are compiled once per dialect and run on a DBAPI connection of the store's own (opened by
its engine, with its pragmas, then taken out of the pool), not through SQLAlchemy's execution for
each statement.

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
import concurrent.futures
import contextlib
import functools
import json
import threading
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import JSON, Engine, String, Table, bindparam, insert, update
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError, StatementError
from sqlalchemy.pool import NullPool, QueuePool
from sqlalchemy.sql import ClauseElement

from eights.store.db import Fenced
from eights.store.models import ActionRow, Match, RoundRow, Seat

#: The tables that saving a match writes, as Core tables.
MATCHES = cast(Table, Match.__table__)
SEATS = cast(Table, Seat.__table__)
ACTIONS = cast(Table, ActionRow.__table__)
ROUNDS = cast(Table, RoundRow.__table__)


@dataclass(frozen=True)
class Prepared:
    """A statement compiled once for a dialect, to run on a DBAPI cursor: its SQL, the order of its
    parameters where the driver takes them by position (SQLite), and the dialect's conversion of
    values where one is needed (JSON; times on SQLite)."""

    sql: str
    order: tuple[str, ...] | None
    convert: Mapping[str, Callable[[Any], Any]]

    def params(self, values: Mapping[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        convert = self.convert
        if self.order is not None:
            return tuple(convert[key](values[key]) if key in convert else values[key] for key in self.order)
        return {key: convert[key](value) if key in convert else value for key, value in values.items()}


def _prepare(statement: ClauseElement, dialect: Dialect, table: Table, keys: Sequence[str]) -> Prepared:
    compiled = statement.compile(dialect=dialect, column_keys=[key for key in keys if key in table.c])
    convert = {}
    for key in keys:
        if key in table.c:
            processor = table.c[key].type.dialect_impl(dialect).bind_processor(dialect)
            if processor is not None:
                convert[key] = processor
    order = getattr(compiled, "positiontup", None)
    return Prepared(compiled.string, tuple(order) if order is not None else None, convert)


@dataclass(eq=False)
class Slot:
    """One match as the writer knows it: its id once its row is written, and the error that stopped
    its saving, if one did (a writer thread's error waits here for the match's next action)."""

    id: int | None = None
    error: SQLAlchemyError | None = None
    #: Set once the match's row is written, or its writing failed.
    written: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        if self.id is not None:
            self.written.set()


@dataclass(eq=False)
class Batch:
    """What one match hands the writer at once."""

    slot: Slot
    #: The match's row (``MATCH_KEYS``) and its seats' ``(name, player)``: only in its first batch.
    match: dict[str, Any] | None = None
    seats: Sequence[tuple[str, str]] = ()
    #: The actions (their rows hold ``str(action)``), the first of them the match's action number ``first``.
    actions: Sequence[object] = ()
    first: int = 1
    #: The rounds that ended (``round``, ``reason``, ``winners``, ``points``, ``totals``).
    rounds: Sequence[dict[str, Any]] = ()
    #: The match's result (``status``, ``finished_at``, ``winners``, ``totals``), once it is over.
    finish: dict[str, Any] | None = None
    #: The transaction may return before the server has it on disk (PostgreSQL's ``synchronous_commit``
    #: off, for this transaction only): a killed eights loses nothing the server took; only a crash
    #: of the server's machine could cost its last fraction of a second. SQLite in WAL mode does not
    #: wait for the disk at a commit anyway.
    unhurried: bool = False
    #: The room whose match this is and its owner's fence, when many instances serve one store: the
    #: transaction first checks (and locks) the room's row, and is refused (``Fenced``) when another
    #: instance has taken the room over since.
    fence: tuple[str, int] | None = None
    #: Told when the batch is committed, or why not (its error), where the match waits for it (a
    #: person's move is applied only once it is durable); None for a batch written behind play, whose
    #: error waits in its slot.
    done: concurrent.futures.Future[None] | None = None
    #: Whether the batch's rows are in the store already: asked when a retry after a lost answer (the
    #: connection dropped) meets rows with its keys, so that the attempt that had committed them is not
    #: taken for another's write.
    stored: Callable[[], bool] | None = None

    @property
    def single_action(self) -> bool:
        """Just one action of a person's match already written: a statement of its own, committed alone."""
        return (
            self.fence is None
            and self.match is None
            and len(self.actions) == 1
            and not self.rounds
            and self.finish is None
            and not self.unhurried
        )


MATCH_KEYS = ("started_at", "finished_at", "variant", "players", "seed", "config", "status", "winners", "totals")
SEAT_KEYS = ("seat", "name", "player")
ACTION_KEYS = ("number", "action")
ROUND_KEYS = ("round", "reason", "winners", "points", "totals")
FINISH_KEYS = ("status", "finished_at", "winners", "totals")
#: The tables a batch adds rows to, each with its columns after ``match_id``.
ROWS = ((SEATS, SEAT_KEYS), (ACTIONS, ACTION_KEYS), (ROUNDS, ROUND_KEYS))


def _rows(batch: Batch) -> tuple[list[tuple[Any, ...]], ...]:
    """A batch's seats, actions and rounds (``ROWS``), each row the values of its columns in order."""
    return (
        [(seat, name, who) for seat, (name, who) in enumerate(batch.seats)],
        [(number, str(action)) for number, action in enumerate(batch.actions, batch.first)],
        [tuple(row[key] for key in ROUND_KEYS) for row in batch.rounds],
    )


class Statements:
    """How saving writes one dialect's rows: a transaction of batches, and a person's action alone.

    The rows of a table go in one statement as a JSON array of arrays that the database reads
    itself (however many), not a statement per row: SQLite's driver lets go of the interpreter at
    every row it steps (its ``executemany`` hands the interpreter to and fro with the match's thread
    row by row), PostgreSQL's pays a round trip per statement."""

    def __init__(self, dialect: Dialect) -> None:
        #: One action's row, committed alone (nearly every action of a person's match).
        self.action = _prepare(insert(ACTIONS), dialect, ACTIONS, ("match_id", *ACTION_KEYS))

    def transaction(self, cursor: Any, batches: Sequence[Batch], unhurried: bool) -> dict[Slot, int]:
        """The batches' rows in one transaction, begun and committed on ``cursor`` (the caller rolls
        back on an error); the numbers of the matches written first."""
        raise NotImplementedError

    #: The room's fence, its row locked until the transaction ends (SQLite locks the whole database at
    #: ``BEGIN IMMEDIATE`` already).
    fence_sql = "SELECT fence FROM rooms WHERE code = ?"

    def check_fences(self, cursor: Any, batches: Sequence[Batch]) -> None:
        """Inside the transaction: :raises Fenced: when a batch's room has another owner's fence now."""
        # In the order of their codes: two transactions that lock the same rooms never wait for each other.
        for code, fence in sorted({batch.fence for batch in batches if batch.fence is not None}):
            cursor.execute(self.fence_sql, (code,))
            found = cursor.fetchone()
            if found is None or found[0] != fence:
                raise Fenced(f"room {code} is served by another instance now; this one's move was not saved")


class SqliteStatements(Statements):
    """On SQLite every table's rows of a transaction go in one statement (``json_each``); a new match's
    row, a statement each, gives its number."""

    def __init__(self, dialect: Dialect) -> None:
        super().__init__(dialect)
        self.match = _prepare(insert(MATCHES).returning(MATCHES.c.id), dialect, MATCHES, MATCH_KEYS)
        self.rows = [
            f"INSERT INTO {table.name} (match_id, {', '.join(keys)}) SELECT "
            + ", ".join(f"json_extract(value, '$[{place}]')" for place in range(len(keys) + 1))
            + " FROM json_each(?)"
            for table, keys in ROWS
        ]
        self.finish = _prepare(
            update(MATCHES).where(MATCHES.c.id == bindparam("match")), dialect, MATCHES, ("match", *FINISH_KEYS)
        )

    def transaction(self, cursor: Any, batches: Sequence[Batch], unhurried: bool) -> dict[Slot, int]:
        cursor.execute("BEGIN IMMEDIATE")  # SQLite in WAL mode does not wait for the disk at a commit anyway
        self.check_fences(cursor, batches)
        made: dict[Slot, int] = {}
        tables: tuple[list[tuple[Any, ...]], ...] = ([], [], [])
        for batch in batches:
            if batch.match is not None:
                cursor.execute(self.match.sql, self.match.params(batch.match))
                made[batch.slot] = int(cursor.fetchone()[0])
            owner = made.get(batch.slot, batch.slot.id)
            for rows, kept in zip(_rows(batch), tables, strict=True):
                kept.extend((owner, *row) for row in rows)
            if batch.finish is not None:
                cursor.execute(self.finish.sql, self.finish.params({"match": owner, **batch.finish}))
        for sql, kept in zip(self.rows, tables, strict=True):
            if kept:
                cursor.execute(sql, (_json(kept),))
        cursor.execute("COMMIT")
        return made


class PostgresStatements(Statements):
    """On PostgreSQL the new matches take their numbers from their sequence first (one query), then
    the whole transaction goes as one script, in one round trip: each table's rows in one statement
    (``json_array_elements``, each value cast to its column's type). A fenced batch's room is checked
    first, in a round trip of its own."""

    fence_sql = "SELECT fence FROM rooms WHERE code = %s FOR UPDATE"

    def __init__(self, dialect: Dialect) -> None:
        super().__init__(dialect)

        def values(table: Table, keys: Sequence[str]) -> str:
            """The columns ``keys`` of ``table`` from a JSON array ``v``, each as its column's type."""
            return ", ".join(
                f"v->{place}"
                if isinstance(table.c[key].type, JSON)
                # Text as text: the column's own length then refuses a longer one, where a cast would cut it.
                else f"v->>{place}"
                if isinstance(table.c[key].type, String)
                else f"(v->>{place})::{table.c[key].type.compile(dialect)}"
                for place, key in enumerate(keys)
            )

        def rows(table: Table, keys: Sequence[str]) -> str:
            return f"INSERT INTO {table.name} ({', '.join(keys)}) SELECT {values(table, keys)} FROM {{}}"

        self.numbers = (
            f"SELECT nextval(pg_get_serial_sequence('{MATCHES.name}', 'id')) FROM generate_series(1, %(count)s)"
        )
        self.match = rows(MATCHES, ("id", *MATCH_KEYS))
        self.rows = [rows(table, ("match_id", *keys)) for table, keys in ROWS]
        self.finish = (
            f"UPDATE {MATCHES.name} AS m SET ({', '.join(FINISH_KEYS)}) = "
            f"({', '.join(f'f.{key}' for key in FINISH_KEYS)}) "
            f"FROM (SELECT {values(MATCHES, ('id', *FINISH_KEYS))} FROM {{}}) AS f (id, {', '.join(FINISH_KEYS)}) "
            "WHERE m.id = f.id"
        )

    def transaction(self, cursor: Any, batches: Sequence[Batch], unhurried: bool) -> dict[Slot, int]:
        from psycopg.sql import Literal

        def elements(rows: Sequence[Any]) -> str:
            return f"json_array_elements({Literal(_json(rows)).as_string(cursor.connection)}::json) AS r(v)"

        new = [(batch.slot, batch.match) for batch in batches if batch.match is not None]
        made: dict[Slot, int] = {}
        if new:
            cursor.execute(self.numbers, {"count": len(new)})
            made = {slot: int(found[0]) for (slot, _), found in zip(new, cursor.fetchall(), strict=True)}
        script = ["BEGIN"]
        if any(batch.fence is not None for batch in batches):
            cursor.execute("BEGIN")
            self.check_fences(cursor, batches)
            script = []
        script += ["SET LOCAL synchronous_commit TO OFF"] if unhurried else []
        if new:
            matches = [[made[slot], *(match[key] for key in MATCH_KEYS)] for slot, match in new]
            script.append(self.match.format(elements(matches)))
        tables: tuple[list[tuple[Any, ...]], ...] = ([], [], [])
        finishes = []
        for batch in batches:
            owner = made.get(batch.slot, batch.slot.id)
            for rows, kept in zip(_rows(batch), tables, strict=True):
                kept.extend((owner, *row) for row in rows)
            if batch.finish is not None:
                finishes.append([owner, *(batch.finish[key] for key in FINISH_KEYS)])
        script.extend(sql.format(elements(kept)) for sql, kept in zip(self.rows, tables, strict=True) if kept)
        if finishes:
            script.append(self.finish.format(elements(finishes)))
        script.append("COMMIT")
        cursor.execute("; ".join(script))
        return made


def _json(rows: Sequence[Any]) -> str:
    """Rows as JSON (times as ISO 8601 text)."""
    return json.dumps(rows, default=lambda value: value.isoformat(), separators=(",", ":"))


@functools.lru_cache(maxsize=8)
def statements(dialect: Dialect) -> Statements:
    return PostgresStatements(dialect) if dialect.name == "postgresql" else SqliteStatements(dialect)


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
        try:
            yield connection
        except DBAPIError as exc:
            self._let_go(connection, lost=exc.connection_invalidated)
            raise
        except BaseException:
            self._let_go(connection)
            raise
        self._let_go(connection)

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
