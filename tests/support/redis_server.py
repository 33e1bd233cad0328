"""A throwaway Redis server for the tests: Debian's ``redis-server`` in a temporary folder, on a port of
its own on the loopback only, with nothing saved to disk; stopped and removed at the end.

``RedisServer.restart()`` stops it (SIGKILL, as a crash) and starts it again on the same port, for the
tests of instances that must outlive their Redis.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class RedisUnavailable(RuntimeError):
    """No ``redis-server`` here, or it would not start."""


def free_port() -> int:
    """A TCP port free on the loopback now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class RedisServer:
    """One ``redis-server`` process; ``url`` names database 0 (``url_for(n)`` another)."""

    def __init__(self, folder: Path, port: int) -> None:
        self.folder = folder
        self.port = port
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return self.url_for(0)

    def url_for(self, database: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        """Start the server and wait until it answers PING.

        :raises RedisUnavailable: when it does not within 10 s.
        """
        program = shutil.which("redis-server") or "/usr/bin/redis-server"
        if not Path(program).exists():
            raise RedisUnavailable("no redis-server found (Debian's package: redis-server)")
        arguments = [program, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        arguments += ["--dir", str(self.folder), "--protected-mode", "yes", "--daemonize", "no"]
        log = (self.folder / "log").open("ab")
        self.process = subprocess.Popen(arguments, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RedisUnavailable(f"redis-server exited: {(self.folder / 'log').read_text()[-400:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RedisUnavailable("redis-server did not answer within 10 s")

    def stop(self) -> None:
        """Kill the server (SIGKILL: what it held is lost, as in a crash)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None

    def restart(self) -> None:
        """Kill the server and start an empty one on the same port."""
        self.stop()
        self.start()


@contextmanager
def throwaway_redis() -> Iterator[RedisServer]:
    """Start a Redis server and yield it; stop it and remove its folder after.

    :raises RedisUnavailable: when it cannot be started.
    """
    folder = Path(tempfile.mkdtemp(prefix="eights-redis-"))
    server = RedisServer(folder, free_port())
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
