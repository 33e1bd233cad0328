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


class PostgresServer:
    """One throwaway cluster: ``url`` names its database ``eights``; ``stop()`` and ``start()`` (or
    ``restart()``) take the server down and up again on the same socket and data, for the tests of a store
    that blinks."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.bin = server_bin()
        self.prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.url = f"postgresql+psycopg://postgres@/eights?host={folder}&port={PORT}"

    def run(self, *args: str) -> None:
        """:raises PostgresUnavailable: naming the program that failed and what it said."""
        done = subprocess.run([*self.prefix, *args], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise PostgresUnavailable(f"{Path(args[0]).name} failed: {(done.stderr or done.stdout).strip()}")

    def start(self) -> None:
        """Start the server and wait until it takes connections."""
        options = f"-c listen_addresses='' -c unix_socket_directories={self.folder} -p {PORT} -c fsync=on"
        self.run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"), "-w", "start"
        )

    def stop(self, mode: str = "immediate") -> None:
        """Stop the server: ``immediate`` (every connection cut at once, as in a crash; what was committed is
        kept) or ``fast``."""
        self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self, mode: str = "immediate") -> None:
        self.stop(mode)
        self.start()

    def ensure_started(self) -> None:
        """Start the server if a test left it stopped."""
        status = subprocess.run([*self.prefix, str(self.bin / "pg_ctl"), "-D", str(self.data), "status"], check=False)
        if status.returncode != 0:
            self.start()


@contextmanager
def throwaway_cluster() -> Iterator[PostgresServer]:
    """Make and start a cluster with a database ``eights`` and yield it; stop and remove it after.

    :raises PostgresUnavailable: when it cannot be made or started.
    """
    folder = Path(tempfile.mkdtemp(prefix="eights-pg-"))
    try:
        server = PostgresServer(folder)
        if server.prefix:
            try:
                shutil.chown(folder, "postgres", "postgres")
            except (LookupError, PermissionError) as exc:
                raise PostgresUnavailable(f"cannot hand the cluster's folder to the postgres user: {exc}") from None
        folder.chmod(0o700)
        server.run(str(server.bin / "initdb"), "-D", str(server.data), "-U", "postgres", "-A", "trust", "--no-sync")
        server.start()
        try:
            server.run(str(server.bin / "createdb"), "-h", str(folder), "-p", str(PORT), "-U", "postgres", "eights")
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
