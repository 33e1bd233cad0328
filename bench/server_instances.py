"""bench/server.py's servers: ``eights serve`` instances started and stopped as processes, the throwaway
Redis and PostgreSQL they share (and the cable that makes a slow store), and what /proc says of their
memory and CPU time."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Seconds to wait for the server to answer when it starts.
PATIENCE = 30.0


def progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Instance:
    """One ``eights serve`` process, its port and where its stderr goes."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path
    #: Seconds into the window when it was killed, and its CPU seconds then.
    killed_at: float | None = None
    cpu_at_kill: float = 0.0
    rss_before: int = 0
    rss_peak: int = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stderr(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def start_server(db: str, nice: int, log: Path, options: list[str] | None = None) -> Instance:
    port = free_port()
    command = [sys.executable, "-m", "eights.cli", "serve", "--port", str(port), "--db", db, *(options or [])]
    with log.open("wb") as err:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err)
    if nice:
        os.setpriority(os.PRIO_PROCESS, process.pid, nice)
    instance = Instance(process, port, log)
    deadline = time.monotonic() + PATIENCE
    while True:
        if process.poll() is not None:
            raise SystemExit(
                f"bench/server.py: eights serve stopped at once (exit {process.returncode}): {instance.stderr()}"
            )
        try:
            with urllib.request.urlopen(f"{instance.base}/api/presets", timeout=2):
                return instance
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise SystemExit("bench/server.py: eights serve did not answer in time") from None
            time.sleep(0.1)


def stop_server(instance: Instance) -> str:
    process = instance.process
    if process.poll() is None:
        process.terminate()
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)
    return instance.stderr()


@contextmanager
def shared_parts(commit_seconds: float = 0.0) -> Iterator[tuple[str, str, int, int]]:
    """A throwaway Redis server and PostgreSQL cluster (tests/support/redis_server.py,
    tests/support/postgres.py): their URLs, and the process ids of redis-server and the postmaster (for their
    CPU time). With ``commit_seconds``, the store is reached through a cable that holds back every COMMIT's
    answer that long (tests/support/pg_proxy.py): a slow store."""
    sys.path.insert(0, str(ROOT))
    from tests.support.pg_proxy import proxied
    from tests.support.postgres import throwaway_cluster
    from tests.support.redis_server import throwaway_redis

    with throwaway_redis() as redis, throwaway_cluster() as database:
        assert redis.process is not None
        postmaster = int((database.data / "postmaster.pid").read_text().split()[0])
        if not commit_seconds:
            yield redis.url, database.url, redis.process.pid, postmaster
            return
        with proxied(database.folder, commit_seconds) as cable:
            yield redis.url, cable.url, redis.process.pid, postmaster


def rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:  # gone
        pass
    return 0


def cpu_seconds(pid: int, children: bool = False) -> float:
    """Process ``pid``'s CPU time (user + system); with ``children``, its children's too, living (read from
    /proc) and ended (what it waited for)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                other = stat.read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(other[1]) == pid:
                ticks += int(other[11]) + int(other[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def kill_all(instances: list[Instance]) -> None:
    for instance in instances:
        if instance.process.poll() is None:
            instance.process.kill()
            instance.process.wait(10)
