"""The ``--db`` option that every command which saves or reads matches shares, and opening the store it
names (a problem ends the command with one line)."""

from __future__ import annotations

from typing import Annotated

import typer

from eights.cli.common import fail
from eights.store import ENV_VAR, Store, StoreError, database_file, database_url

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        metavar="FILE|URL",
        help=f"The match database: a SQLite file or a URL like postgresql://user@host/name "
        f"(default: ${ENV_VAR}, else eights.db in your data folder).",
    ),
]


def open_store(db: str | None, reading: bool = False) -> Store:
    """The match store the options name, opened; a problem ends the command with one line.

    A command that only ``reading`` creates nothing: a SQLite file that is not there is refused in one
    line when ``--db`` named it (a mistyped path), and read as an empty store (in memory, called by the
    file's name) when it is the standing one (``$EIGHTS_DATABASE_URL`` or the default), which the first
    saved match makes.
    """
    try:
        url = database_url(db)
        path = database_file(url)
        if reading and path is not None and not path.exists():
            if db is not None:
                fail(
                    f"there is no database at {path}: nothing has been saved there; check the path, "
                    "or leave out --db for your own"
                )
            return Store(url.set(database=":memory:"), named=str(path))
        return Store(url)
    except StoreError as exc:
        fail(str(exc))
