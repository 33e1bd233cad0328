"""What a match hands the store's writer at once (a ``Batch`` of its rows, for its ``Slot``), and how each
database writes many batches in one transaction (``Statements``: SQLite's and PostgreSQL's).

The statements are compiled once per dialect and run on a DBAPI cursor, not through SQLAlchemy's
execution for each statement; the rows of a table go in one statement, however many.
"""

from __future__ import annotations

import concurrent.futures
import functools
import json
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import JSON, String, Table, bindparam, insert, update
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import SQLAlchemyError
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
