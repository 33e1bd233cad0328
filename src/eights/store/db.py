"""Opening the match store: where it lives, the engine, the schema's migrations, and errors in
the player's words.

The default is SQLite in the user's data directory, in WAL mode (readers never block the
writer, and a killed process loses at most the transaction in flight); ``--db`` or
``EIGHTS_DATABASE_URL`` names another file or any SQLAlchemy URL (PostgreSQL through
psycopg 3 included).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, OperationalError, SQLAlchemyError

from eights.saving import Fenced as Fenced
from eights.saving import StoreError as StoreError

#: The environment variable that names the database when ``--db`` does not.
ENV_VAR = "EIGHTS_DATABASE_URL"
#: Seconds a writer waits for another process's transaction before giving up.
BUSY_SECONDS = 10


def default_path() -> Path:
    """``eights.db`` in the user's data directory (``~/.local/share/eights`` on Linux)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("eights", appauthor=False)) / "eights.db"


def database_url(db: str | None = None) -> URL:
    """The database to use: ``db`` (a file path or a URL), else ``$EIGHTS_DATABASE_URL``, else the default file.

    A ``postgresql://`` URL without a driver uses psycopg 3.

    :raises StoreError: for text that is neither a path nor a URL.
    """
    text = db if db is not None else os.environ.get(ENV_VAR) or None
    if text is None:
        return URL.create("sqlite+pysqlite", database=str(default_path()))
    if "://" not in text:
        return URL.create("sqlite+pysqlite", database=str(Path(text).expanduser().resolve()))
    try:
        url = make_url(text)
    except (ArgumentError, ValueError):
        raise StoreError(
            f"database: {text!r} is not a database URL; give a file path or a URL like "
            "sqlite:///matches.db or postgresql://user@host/dbname"
        ) from None
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    return url


def database_file(url: URL) -> Path | None:
    """The file of a SQLite database on disk (``None`` for an in-memory one, a URI or another kind)."""
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return None if url.query.get("uri") == "true" else Path(url.database)


def label(url: URL) -> str:
    """The database for people: the file of a SQLite database, else the URL without its password."""
    if url.get_backend_name() == "sqlite":
        return url.database or "an in-memory database"
    return url.render_as_string(hide_password=True)


def make_engine(url: URL) -> Engine:
    """An engine for ``url``; SQLite files get their folder, WAL mode and a wait for busy writers.

    :raises StoreError: when the driver is missing or the folder cannot be made.
    """
    sqlite = url.get_backend_name() == "sqlite"
    path = database_file(url)  # None for sqlite's own "file:PATH?mode=ro" form: the path is inside
    if path is not None:
        if path.is_dir():
            raise StoreError(
                f"the database {path} is a folder, not a file; give a file in it, like --db {path / 'eights.db'}"
            )
        folder = path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot make the folder {folder} for the database: {exc.strerror}") from None
    try:
        if sqlite:
            engine = create_engine(url, connect_args={"timeout": BUSY_SECONDS})
        else:
            engine = create_engine(url, pool_pre_ping=True, pool_size=16, max_overflow=8)
    except (ArgumentError, ImportError) as exc:
        raise StoreError(f"cannot use the database {label(url)}: {exc}") from None
    if sqlite:
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
    return engine


#: The execution option that makes a SQLite transaction take the write lock at once (``BEGIN IMMEDIATE``).
WRITE_FIRST = "eights_write_first"


def _sqlite_begin(connection: Connection) -> None:
    """SQLite transactions begin here, not in the driver: one that reads and then writes takes the write
    lock first, waiting for other writers, so that another process's commit in between cannot fail it."""
    immediate = connection.get_execution_options().get(WRITE_FIRST, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _sqlite_pragmas(dbapi_connection: Any, _record: object) -> None:
    dbapi_connection.isolation_level = None  # the driver begins no transaction of its own: _sqlite_begin does
    cursor = dbapi_connection.cursor()
    try:
        # WAL: readers and one writer at once. NORMAL: each commit is in the log before the call
        # returns, so a killed process loses nothing committed (only power loss can cost the last ones).
        mode = cursor.execute("PRAGMA journal_mode=WAL").fetchone()
        if mode and str(mode[0]).lower() != "wal":
            cursor.execute("PRAGMA journal_mode=DELETE")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_SECONDS * 1000}")
    finally:
        cursor.close()


def problem(url: URL, exc: SQLAlchemyError) -> StoreError:
    """A database error as one line: what is wrong with which database, and what to do."""
    where = label(url)
    text = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    lowered = text.lower()
    if "locked" in lowered or "busy" in lowered:
        return StoreError(
            f"the database {where} is locked by another program; close other eights windows using it "
            f"(or wait) and try again"
        )
    if "readonly" in lowered or "read-only" in lowered or "read only" in lowered:
        return StoreError(
            f"cannot write to the database {where}: it is read-only; make the file and its folder writable, "
            "or choose another with --db FILE"
        )
    if "not a database" in lowered or "malformed" in lowered or "corrupt" in lowered:
        return StoreError(
            f"{where} is not a readable eights database (it is damaged, or another kind of file); it was left "
            "as it is: move it aside to start a new one, or choose another with --db FILE"
        )
    if "unable to open" in lowered:
        return StoreError(f"cannot open the database {where}: check that its folder exists and can be written")
    if isinstance(exc, OperationalError) and url.get_backend_name() != "sqlite":
        return StoreError(f"cannot use the database {where}: {text}")
    if isinstance(exc, DatabaseError):
        return StoreError(f"the database {where} failed: {text}")
    return StoreError(f"the database {where} failed: {text}")


@contextmanager
def translated(url: URL, *passed: type[SQLAlchemyError]) -> Iterator[None]:
    """Database errors inside become ``StoreError`` (but those of the ``passed`` kinds, for the caller to word)."""
    try:
        yield
    except SQLAlchemyError as exc:
        if isinstance(exc, passed):
            raise
        raise problem(url, exc) from None


# ----- the schema ------------------------------------------------------------------------------------------


def _alembic_config(connection: Any) -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(resources.files("eights.store") / "migrations"))
    config.attributes["connection"] = connection
    return config


def migrate(engine: Engine, url: URL) -> None:
    """Bring the schema to this version's (creating it in an empty database). Processes opening one
    database at once take turns: the first migrates, the others find it done.

    :raises StoreError: for a database written by a newer eights, or one that is not an eights database.
    """
    from alembic.script import ScriptDirectory

    with translated(url):
        with engine.connect() as connection:
            script = ScriptDirectory.from_config(_alembic_config(connection))
            if _revision(connection) == script.get_current_head():
                return  # the usual case: a read, no lock
        with engine.connect().execution_options(**{WRITE_FIRST: True}) as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(8888)"))  # one migration at a time
            current = _revision(connection)
            if current == script.get_current_head():
                return
            _upgrade(connection, url, script, current)
            connection.commit()


def _revision(connection: Connection) -> str | None:
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()


def _upgrade(connection: Connection, url: URL, script: Any, current: str | None) -> None:
    from alembic import command

    if current is not None and current not in {rev.revision for rev in script.walk_revisions()}:
        raise StoreError(
            f"the database {label(url)} was written by a newer version of eights (schema {current}); "
            "upgrade eights to use it, or choose another with --db FILE"
        )
    if current is None and inspect(connection).has_table("matches"):
        raise StoreError(f"{label(url)} holds tables that eights did not make; choose another database with --db FILE")
    command.upgrade(_alembic_config(connection), "head")


def now() -> datetime:
    return datetime.now(UTC)


def naive(moment: datetime) -> datetime:
    """A UTC time without its zone (SQLite gives times back without one, PostgreSQL with)."""
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo is not None else moment
