"""Computer players on the worker tier, on a real Redis with real `eights worker` processes: decisions
through one worker and two, a worker killed mid-decision and its decision made again by another within
its deadline, the deadline's fallback when no worker runs or a search overruns, the caps, the rooms'
turns, the pool's counts, and a Redis restarted under a worker and a pool."""

from __future__ import annotations

import asyncio
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import redis

from eights.bots import Bot, ISMCTSBot, make_bot
from eights.web.queue import LAPSE, WORKERS, QueuePool
from tests.web.test_workers import PATIENCE, alive, endless_search, table


class WorkerProcess:
    """One `eights worker` and the lines it printed, read as they come."""

    def __init__(self, url: str, *extra: str) -> None:
        command = [sys.executable, "-m", "eights.cli", "worker", "--redis", url, "--processes", "1", *extra]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.said: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, words: str) -> str:
        """The first line (from now on) holding ``words``."""
        until = time.monotonic() + PATIENCE
        while time.monotonic() < until:
            try:
                line = self.lines.get(timeout=max(0.0, until - time.monotonic()))
            except queue.Empty:
                break
            self.said.append(line)
            if words in line:
                return line
        raise AssertionError(f"the worker never said {words!r}; it said {self.said}")

    def stop(self) -> None:
        """SIGTERM, as a service manager stops it: it says it stopped, with no traceback, and exits with 0."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            assert self.process.wait(PATIENCE) == 0
            self.wait_for("stopped after")
            time.sleep(0.2)  # the reading thread's last lines
            while not self.lines.empty():
                self.said.append(self.lines.get())
            assert not any("Traceback" in line for line in self.said), self.said


@contextmanager
def workers(url: str, count: int, *extra: str) -> Iterator[list[WorkerProcess]]:
    """``count`` workers of one process each, ready; stopped after."""
    started = [WorkerProcess(url, *extra) for _ in range(count)]
    try:
        for worker in started:
            line = worker.wait_for("serving computer decisions")
            assert "with 1 processes" in line
        yield started
    finally:
        for worker in started:
            if worker.process.poll() is None:
                worker.stop()


def workers_now(url: str) -> dict[str, dict[str, int]]:
    """What each worker alive says of itself in Redis: processes, busy, answered."""
    client = redis.Redis.from_url(url)
    try:
        keys = list(client.scan_iter(match=WORKERS + "*"))
        return {key.decode()[len(WORKERS) :]: json.loads(client.get(key) or "{}") for key in keys}
    finally:
        client.close()


def search(seconds: float, seed: int = 5) -> Bot:
    return make_bot("hard", seed, seconds=seconds)


@pytest.mark.parametrize("count", [1, 2])
def test_decisions_go_through_the_workers(redis_url: str, count: int):
    game, seen = table()

    async def main() -> tuple[list[Any], dict[str, int | float]]:
        pool = QueuePool(redis_url, deadline=30.0)
        try:
            asks = [pool.choose(search(0.3, n), seen, f"room{n % 4}") for n in range(8)]
            got = await asyncio.gather(*asks)
            await asyncio.sleep(1.0)  # the pool's next look at the workers
            return got, pool.stats()
        finally:
            await pool.aclose()

    with workers(redis_url, count):
        got, stats = asyncio.run(main())
        by_worker = {name: now["answered"] for name, now in workers_now(redis_url).items()}
    for action, bot in got:
        assert action in game.legal_actions()
        assert isinstance(bot, ISMCTSBot), "the bot as it came back from the worker"
    assert stats["decisions"] == stats["searches"] == 8
    assert stats["fallbacks"] == stats["lost"] == stats["expired"] == stats["overruns"] == 0
    assert stats["workers"] == count
    assert stats["queued"] == stats["busy"] == 0
    assert len(by_worker) == count
    assert sum(by_worker.values()) == 8
    assert all(done > 0 for done in by_worker.values()), by_worker


def test_the_quick_levels_think_in_the_server(redis_url: str):
    """No worker runs: a normal player's decision is made all the same, at once."""
    game, seen = table()

    async def main() -> tuple[Any, dict[str, int | float]]:
        pool = QueuePool(redis_url, deadline=30.0)
        try:
            return await pool.choose(make_bot("normal", 3), seen, "room"), pool.stats()
        finally:
            await pool.aclose()

    (action, _), stats = asyncio.run(main())
    assert action in game.legal_actions()
    assert stats["decisions"] == 1
    assert stats["searches"] == stats["fallbacks"] == 0


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM"])
def test_a_worker_killed_mid_decision_is_replaced_within_the_deadline(redis_url: str, how: str):
    """Killed (SIGKILL), its key lapses; stopped (SIGTERM), it deletes its key: either way the pool sends
    the decision again, and the other worker makes it."""
    game, seen = table()

    async def main(running: list[WorkerProcess]) -> tuple[Any, dict[str, int | float], dict[str, int]]:
        pool = QueuePool(redis_url, deadline=60.0)
        try:
            asking = asyncio.ensure_future(pool.choose(search(3.0), seen, "room"))
            until = time.monotonic() + PATIENCE
            while not (busy := [name for name, now in workers_now(redis_url).items() if now["busy"]]):
                assert time.monotonic() < until, "no worker took the decision"
                await asyncio.sleep(0.05)
            pid = int(busy[0].split(":")[-2])
            (taker,) = [worker for worker in running if worker.process.pid == pid]
            if how == "SIGKILL":
                taker.process.kill()
                assert taker.process.wait() == -signal.SIGKILL
            else:
                await asyncio.to_thread(taker.stop)
                assert any("stopped after 0 decisions" in line for line in taker.said)
            got = await asyncio.wait_for(asking, PATIENCE)
            stats = pool.stats()
            await asyncio.sleep(LAPSE + 0.5)  # the killed worker's key lapses
            return got, stats, {name: now["answered"] for name, now in workers_now(redis_url).items()}
        finally:
            await pool.aclose()

    with workers(redis_url, 2) as running:
        (action, _), stats, by_worker = asyncio.run(main(running))
    assert action in game.legal_actions()
    assert list(by_worker.values()) == [1], "the other worker made the decision"
    assert stats["lost"] == 1, "sent again once"
    assert stats["searches"] == stats["decisions"] == 1
    assert stats["fallbacks"] == stats["overruns"] == stats["expired"] == 0


def test_with_no_worker_the_deadline_plays_the_fallback(redis_url: str):
    game, seen = table()
    bot = search(0.2)

    async def main() -> tuple[Any, dict[str, int | float]]:
        pool = QueuePool(redis_url, deadline=1.0)
        try:
            return await pool.choose(bot, seen, "room"), pool.stats()
        finally:
            await pool.aclose()

    (action, back), stats = asyncio.run(main())
    assert action in game.legal_actions()
    assert back is bot, "the bot as it was"
    assert stats["expired"] == stats["fallbacks"] == stats["decisions"] == 1
    assert stats["searches"] == stats["queued"] == 0


def test_a_search_past_its_deadline_plays_the_fallback_and_the_worker_serves_on(redis_url: str):
    game, seen = table()

    async def main() -> list[dict[str, int | float]]:
        pool = QueuePool(redis_url, deadline=1.5)
        try:
            action, _ = await pool.choose(endless_search(), seen, "room")
            assert action in game.legal_actions()
            after_overrun = pool.stats()
            until = time.monotonic() + PATIENCE
            while pool.stats()["searches"] < 1:  # once the worker stopped its search (--deadline), it answers
                assert time.monotonic() < until, f"the worker never served again: {pool.stats()}"
                action, _ = await pool.choose(search(0.2), seen, "room")
                assert action in game.legal_actions()
            return [after_overrun, pool.stats()]
        finally:
            await pool.aclose()

    with workers(redis_url, 1, "--deadline", "3"):
        first, second = asyncio.run(main())
    assert first["overruns"] == first["fallbacks"] == 1
    assert first["searches"] == 0
    assert second["searches"] == 1


def test_decisions_past_the_caps_play_the_fallback_at_once(redis_url: str):
    game, seen = table()

    async def main() -> list[dict[str, int | float]]:
        pool = QueuePool(redis_url, deadline=3.0, per_owner=1, queued=2)
        try:
            first = [asyncio.ensure_future(pool.choose(search(0.2, n), seen, "busy")) for n in range(3)]
            done, _ = await asyncio.wait(first, timeout=1.0)
            assert len(done) == 1, "the third of one room, past its cap, is answered at once"
            full = pool.stats()
            other, _ = await pool.choose(search(0.2), seen, "other")  # past the cap in all
            assert other in game.legal_actions()
            refused = pool.stats()
            for action, _ in await asyncio.gather(*first):
                assert action in game.legal_actions()
            return [full, refused, pool.stats()]
        finally:
            await pool.aclose()

    full, refused, end = asyncio.run(main())
    assert full["refused"] == 1
    assert full["queued"] == 2
    assert refused["refused"] == 2
    assert end["expired"] == 2
    assert end["fallbacks"] == end["decisions"] == 4


def test_rooms_take_turns_on_the_queue(redis_url: str):
    """One worker: a room asking three searches delays another room's one by one decision at most."""
    _, seen = table()

    async def main() -> list[str]:
        pool = QueuePool(redis_url, deadline=30.0)
        order: list[str] = []

        async def ask(owner: str, seed: int) -> None:
            await pool.choose(search(0.2, seed), seen, owner)
            order.append(owner)

        try:
            await asyncio.gather(*(ask(owner, n) for n, owner in enumerate(["greedy"] * 3 + ["modest"])))
            assert pool.stats()["searches"] == 4
            return order
        finally:
            await pool.aclose()

    with workers(redis_url, 1):
        order = asyncio.run(main())
    assert sorted(order) == ["greedy", "greedy", "greedy", "modest"]
    assert order.index("modest") <= 1, order


def test_the_worker_and_the_pool_outlive_a_redis_restart(redis_server: Any, redis_url: str):
    game, seen = table()

    async def main(worker: WorkerProcess) -> dict[str, int | float]:
        pool = QueuePool(redis_url, deadline=3.0)
        try:
            await pool.choose(search(0.1), seen, "room")
            assert pool.stats()["searches"] == 1
            redis_server.stop()  # a crash: what it held is lost
            await asyncio.to_thread(worker.wait_for, "lost Redis")
            redis_server.start()
            await asyncio.to_thread(worker.wait_for, "answers again")
            until = time.monotonic() + PATIENCE
            while pool.stats()["searches"] < 2:  # a decision asked before the pool reconnected may play the fallback
                assert time.monotonic() < until, f"no search since the restart: {pool.stats()}"
                action, _ = await pool.choose(search(0.1), seen, "room")
                assert action in game.legal_actions()
            return pool.stats()
        finally:
            await pool.aclose()

    with workers(redis_url, 1) as (worker,):
        stats = asyncio.run(main(worker))
    assert stats["searches"] == 2


def test_a_worker_says_when_redis_is_unreachable_and_stops_cleanly():
    worker = WorkerProcess("redis://127.0.0.1:18379/0")
    try:
        line = worker.wait_for("unreachable")
        assert line.startswith("eights worker: Redis at 127.0.0.1:18379/0 is unreachable (")
        assert "retrying every" in line
        assert "Traceback" not in line
    finally:
        worker.stop()
    assert not any("Traceback" in line for line in worker.said)
    assert not alive(worker.process.pid)


def test_a_bad_redis_url_is_refused_in_words():
    done = subprocess.run(
        [sys.executable, "-m", "eights.cli", "worker", "--redis", "http://example.org"],
        capture_output=True,
        text=True,
        env={**os.environ, "EIGHTS_REDIS_URL": ""},
        timeout=PATIENCE,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "eights: error: --redis 'http://example.org': give a Redis URL, like redis://HOST:6379/0 (or rediss://, unix://)"
    ]
