"""A throwaway PostgreSQL cluster for the tests and the store bench: made in a temporary folder,
listening only on a Unix socket there, removed at the end.

PostgreSQL refuses to run as root, so as root the cluster belongs to the ``postgres`` user
(Debian's package makes it) and its commands run through ``runuser``.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

PORT = 54329


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server programs here, or the cluster would not start."""


def server_bin() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl`` (Debian keeps them out of PATH).

    :raises PostgresUnavailable: when there is none.
    """
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    if versions:
        return Path(versions[-1]).parent
    raise PostgresUnavailable("no initdb or pg_ctl found (Debian's package: postgresql)")


@contextmanager
def throwaway_cluster() -> Iterator[str]:
    """Start a cluster and yield its SQLAlchemy URL (database ``eights``); stop and remove it after.

    :raises PostgresUnavailable: when it cannot be made or started.
    """
    bin_dir = server_bin()
    as_root = os.geteuid() == 0
    prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
    folder = Path(tempfile.mkdtemp(prefix="eights-pg-"))
    data = folder / "data"
    try:
        if as_root:
            try:
                shutil.chown(folder, "postgres", "postgres")
            except (LookupError, PermissionError) as exc:
                raise PostgresUnavailable(f"cannot hand the cluster's folder to the postgres user: {exc}") from None
        folder.chmod(0o700)

        def run(*args: str) -> None:
            done = subprocess.run([*prefix, *args], capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise PostgresUnavailable(f"{Path(args[0]).name} failed: {(done.stderr or done.stdout).strip()}")

        run(str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync")
        options = f"-c listen_addresses='' -c unix_socket_directories={folder} -p {PORT} -c fsync=on"
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "log"), "-w", "start")
        try:
            run(str(bin_dir / "createdb"), "-h", str(folder), "-p", str(PORT), "-U", "postgres", "eights")
            yield f"postgresql+psycopg://postgres@/eights?host={folder}&port={PORT}"
        finally:
            run(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
