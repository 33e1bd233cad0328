"""Computer decisions per second on the worker tier (``eights worker``, ``eights.web.queue``) against the
number of workers.

Run from the repository root::

    python bench/workers.py                                  # 1, 2 and 3 workers, JSON on stdout
    python bench/workers.py --workers 1,2,4 --rooms 24 --seconds 30 --iterations 400
    python bench/workers.py --redis redis://10.0.0.5:6379/3  # a Redis of yours (else one is started here)

For each count of ``--workers``, that many ``eights worker --processes 1`` are started on one Redis (a
``redis-server`` started for the run on port 18362 unless ``--redis`` names one; its database is emptied),
and ``--rooms`` rooms each ask a search as soon as they have the last one, for ``--seconds`` seconds,
through one ``QueuePool``. A search is a fixed amount of work (``hard`` with ``--iterations``, not a time
budget), so that a worker sharing a core with another does not answer as fast: decisions per second
show what the cores give, not how many searches are asked at once. Each room keeps the bot that came
back, as the web table does: with its beliefs it weighs about half a megabyte pickled, and goes to the
worker and back through Redis at every decision.

What is printed: for each count, ``decisions`` answered by the workers in the timed part, ``per_second``,
the time from asking to the answer (``median``, ``p90``, in seconds), ``fallbacks`` (none expected: the
deadline is generous), and ``speedup`` against the first count. ``local_one_process`` is the same load on
the server's own pool of one process (``BotPool``), for the queue's cost. ``cores`` is this machine's; the
machine's other load shows in every number: compare counts measured in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import redis

from botpool import a_decision
from eights.bots import make_bot
from eights.web.queue import QueuePool
from eights.web.workers import BotPool, Pool

PORT = 18362


def start_workers(url: str, count: int) -> list[subprocess.Popen[str]]:
    """``count`` workers of one process each, once each says it serves."""
    command = [sys.executable, "-m", "eights.cli", "worker", "--redis", url, "--processes", "1"]
    started = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for _ in range(count)]
    for worker in started:
        assert worker.stdout is not None
        line = worker.stdout.readline()
        if "serving computer decisions" not in line:
            raise SystemExit(f"a worker did not start: {line!r}")
    return started


def stop_workers(started: list[subprocess.Popen[str]]) -> None:
    for worker in started:
        worker.terminate()
    for worker in started:
        worker.wait(30)


async def load(pool: Pool, args: argparse.Namespace) -> dict[str, Any]:
    seen = a_decision(7)
    times: list[float] = []
    until = 0.0

    async def room(number: int) -> None:
        bot = make_bot("hard", number, iterations=args.iterations)
        while time.perf_counter() < until:
            start = time.perf_counter()
            _, bot = await pool.choose(
                bot, seen, f"room{number}"
            )  # as a room does: the bot comes back, beliefs and all
            if start < until:
                times.append(time.perf_counter() - start)

    try:
        until = time.perf_counter() + 2.0  # warm up: the workers' first searches, the connections
        await asyncio.gather(*(room(n) for n in range(args.rooms)))
        before = pool.stats()
        times.clear()
        start = time.perf_counter()
        until = start + args.seconds
        await asyncio.gather(*(room(n) for n in range(args.rooms)))
        elapsed = time.perf_counter() - start
        after = pool.stats()
    finally:
        await pool.aclose()
    ordered = sorted(times)
    searches = int(after["searches"] - before["searches"])
    return {
        "decisions": searches,
        "per_second": round(searches / elapsed, 2),
        "median": round(statistics.median(ordered), 3),
        "p90": round(ordered[int(0.9 * (len(ordered) - 1))], 3),
        "fallbacks": int(after["fallbacks"] - before["fallbacks"]),
    }


def run(args: argparse.Namespace, url: str) -> dict[str, Any]:
    counts = [int(count) for count in args.workers.split(",")]
    runs: list[dict[str, Any]] = []
    for count in counts:
        with redis.Redis.from_url(url) as plain:
            plain.flushdb()
        started = start_workers(url, count)
        try:
            measured = asyncio.run(load(QueuePool(url, deadline=60.0), args))
        finally:
            stop_workers(started)
        runs.append({"workers": count, **measured})
    for measured in runs:
        measured["speedup"] = round(measured["per_second"] / runs[0]["per_second"], 2)
    return {
        "cores": os.cpu_count(),
        "rooms": args.rooms,
        "seconds": args.seconds,
        "iterations": args.iterations,
        "runs": runs,
        "local_one_process": asyncio.run(load(BotPool(1, deadline=60.0), args)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default="1,2,3", help="worker counts, comma-separated (default 1,2,3)")
    parser.add_argument("--rooms", type=int, default=12, help="rooms asking at once (default 12)")
    parser.add_argument("--seconds", type=float, default=20.0, help="timed seconds per count (default 20)")
    parser.add_argument("--iterations", type=int, default=400, help="a search's iterations (default 400)")
    parser.add_argument("--redis", help="a Redis URL (its database is emptied); default: one started here")
    args = parser.parse_args()
    if args.redis:
        print(json.dumps(run(args, args.redis), indent=2))
        return
    program = shutil.which("redis-server")
    if program is None:
        raise SystemExit("no redis-server here (Debian's package: redis-server); or give --redis URL")
    folder = Path(tempfile.mkdtemp(prefix="eights-bench-redis-"))
    server = subprocess.Popen(
        [program, "--port", str(PORT), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", folder],
        stdout=subprocess.DEVNULL,
    )
    try:
        url = f"redis://127.0.0.1:{PORT}/0"
        for _ in range(100):
            try:
                with redis.Redis.from_url(url) as plain:
                    plain.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        print(json.dumps(run(args, url), indent=2))
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
