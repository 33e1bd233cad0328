"""Computer players on a worker tier: with ``eights serve --redis``, searches go to a queue in Redis served by
``eights worker --redis ...`` processes on any machine; add workers, and decisions per second grow.

The queue is arq's (https://arq-docs.helpmanual.io): an asyncio job queue on Redis, maintained and used in
production, small (its one dependency is redis-py, which the server has already). It gives what a home-made
queue would have to get right again: a job taken by exactly one worker (a transaction on an in-progress
key), a bounded number of jobs per worker, jobs that expire unstarted, and a clean stop on a signal. Ray,
the lab's optional cluster, was not taken: it wants a cluster of its own (a head, its object store, one
version of Python and Ray on every machine), schedules tasks rather than queueing them with deadlines, and
would be a second distributed system next to the Redis the instances need anyway.

Both ends of the queue live here:

- **The worker** (``serve_decisions``, the ``eights worker`` command): an arq worker whose one function
  (``decide``) runs each search in a process of a ``BotPool`` (one per core by default, started before the
  worker says it is ready), so that a search holds a core for its budget and one past the worker's own
  deadline is killed. It tells the asking server when it takes a decision and what it chose, on a list in
  Redis that server reads (``REPLIES``), and says it is alive every ``BEAT`` seconds under a key that
  lapses ``LAPSE`` seconds after its last beat (``WORKERS``; the key also holds, as JSON, its process count
  and the decisions it runs now and answered so far). Redis unreachable, at the start or later: it says so
  in one line and tries again every ``RETRY`` seconds, as a service does. SIGINT or SIGTERM stop it: the
  searches running are dropped and its key deleted, so that their servers send them again at once.
- **The pool** (``QueuePool``, what the server asks): ``BotPool``'s interface (``choose``, ``hint``,
  ``stats``, ``close``, ``aclose``). The quick levels (``easy``, ``normal``), the table's hints and the
  fallback move stay in the server (a local ``BotPool``: a thread, no process); searches go to the queue.

What the pool keeps of ``BotPool``'s promises:

- **The deadline.** A decision has ``deadline`` seconds to be taken by a worker, and ``deadline`` seconds
  more from the moment one takes it; past either, the seat plays the fallback move (``expired``,
  ``overruns``) and the bot as it was. A late answer is dropped.
- **A worker lost mid-decision.** The pool watches the keys of the workers running its decisions
  (``BEAT``); a worker whose key lapsed (killed, cut off) is gone, and its decisions are sent again at once
  (``lost``), to be made by another worker within the same deadline, counted from the first take. arq
  itself would run the job again only once its in-progress key expires (the job's timeout plus 10 s),
  too late: the jobs are sent with one try only (``max_tries=1``), so that arq drops the old one.
- **The fair share.** A room decides one seat at a time, so the pool sends one decision per room at a
  time (``owner``), and keeps a room's others waiting in the server: at most ``per_owner`` per room and
  ``queued`` in all (not yet taken by a worker); a decision past either cap plays the fallback at once
  (``refused``). The queue in Redis is first come, first served, and holds one decision per room: the rooms
  take turns, a room with twenty searches waiting delays another room's search by one decision at most.
  With many instances that still holds: a room lives on one instance at a time (its lease), so there is
  one decision per room in the one queue whichever instance asks, and every instance's rooms take turns
  with every other's. (``BotPool`` weighs the turns by the worker time each room used; on the queue,
  every decision is one turn.)

Whatever reaches Redis is trusted: jobs and answers are pickled (arq's default), so whoever can write to
that Redis can run code on the workers and the servers. Keep it on a private network, with a password.
The arq queue orders jobs by the enqueuing machine's clock: keep the machines' clocks in sync (NTP).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import pickle
import signal
import socket
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from arq.connections import ArqRedis, RedisSettings, create_pool
from arq.worker import Worker, func
from redis.asyncio import ConnectionPool
from redis.exceptions import RedisError

from eights.bots import Bot, Hint, ISMCTSBot, make_bot
from eights.engine import Action, Game, View, view
from eights.rules import load_preset
from eights.web.workers import DEADLINE, GRACE, PER_OWNER, QUEUED, BotPool, PoolClosed

__all__ = ["BEAT", "LAPSE", "QUEUE", "REPLIES", "RETRY", "WORKERS", "QueuePool", "redis_address", "serve_decisions"]

#: The arq queue the decisions wait in.
QUEUE = "eights:decisions"
#: A worker's key (this prefix and its name), as JSON: its processes, the decisions it runs and answered.
WORKERS = "eights:worker:"
#: A server's list of answers (this prefix and the pool's name).
REPLIES = "eights:replies:"
#: Seconds between a worker's beats, and between the pool's looks at the workers.
BEAT = 0.5
#: Seconds after its last beat that a worker is taken for gone.
LAPSE = 2.0
#: Seconds between tries while Redis is unreachable.
RETRY = 2.0
#: Seconds an unread list of answers outlives its last answer (its server died).
REPLIES_KEPT = 60
#: Seconds between a worker's looks at the queue when idle.
POLL = 0.05

log = logging.getLogger("eights.web.queue")


def redis_address(url: str) -> str:
    """``host:port/db`` of a Redis URL, without its password, for messages."""
    parts = urlsplit(url)
    return f"{parts.hostname or 'localhost'}:{parts.port or 6379}{parts.path or '/0'}"


def _words(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


# ----- the worker ---------------------------------------------------------------------------------------------


@dataclass
class _WorkerState:
    name: str
    processes: int
    pool: BotPool
    answered: int = 0
    busy: int = 0
    said_ready: bool = False


async def decide(ctx: dict[str, Any], reply_to: str, owner: str, asked: bytes) -> None:
    """arq's job: tell ``reply_to`` the decision is taken, think in a process on the (bot, view) pickled in
    ``asked``, and send back the action and the bot as it came back (or the bot's error in words)."""
    redis: ArqRedis = ctx["redis"]
    state: _WorkerState = ctx["eights"]
    job_id: str = ctx["job_id"]
    await _reply(redis, reply_to, ("taken", job_id, state.name))
    state.busy += 1
    try:
        bot, seen = pickle.loads(asked)
        action, bot = await state.pool.choose(bot, seen, owner)
    except (PoolClosed, asyncio.CancelledError):
        raise
    except Exception as exc:
        await _reply(redis, reply_to, ("error", job_id, f"{type(exc).__name__}: {exc}"))
        return
    finally:
        state.busy -= 1
    state.answered += 1
    await _reply(redis, reply_to, ("done", job_id, action, bot))


async def _reply(redis: ArqRedis, reply_to: str, message: tuple[Any, ...]) -> None:
    async with redis.pipeline(transaction=True) as pipe:
        pipe.rpush(reply_to, pickle.dumps(message))
        pipe.expire(reply_to, REPLIES_KEPT)
        await pipe.execute()


async def _beat(redis: ArqRedis, state: _WorkerState) -> None:
    """Say the worker is alive, every ``BEAT`` seconds (a beat Redis misses is tried again at the next)."""
    while True:
        value = json.dumps({"processes": state.processes, "busy": state.busy, "answered": state.answered})
        with contextlib.suppress(RedisError, OSError):
            await redis.set(WORKERS + state.name, value, px=int(LAPSE * 1000))
        await asyncio.sleep(BEAT)


def _warm_view() -> View:
    """A view to wake the worker's processes with (one search of one iteration each)."""
    game = Game(load_preset("classic"), 2, seed=0)
    return view(game, game.to_act)


async def serve_decisions(
    url: str,
    processes: int | None = None,
    deadline: float = DEADLINE,
    say: Callable[[str], None] = print,
    stop: asyncio.Event | None = None,
) -> int:
    """Serve the queue at Redis ``url`` until SIGINT or SIGTERM (or ``stop`` is set): ``processes`` searches
    at once (one per core by default), each stopped past ``deadline`` seconds. ``say`` gets the lines an
    operator reads: ready, Redis unreachable (and back), stopped. Returns the decisions answered.

    :raises ValueError: for a count below 1 or a deadline that is not positive.
    """
    pool = BotPool(processes, deadline)
    name = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
    state = _WorkerState(name, pool.processes, pool)
    where = redis_address(url)
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        seen = _warm_view()
        await asyncio.gather(
            *(pool.choose(make_bot("hard", n, iterations=1), seen, str(n)) for n in range(pool.processes))
        )
        settings = RedisSettings.from_dsn(url)
        settings.conn_retries = 0
        down = False
        while not stop.is_set():
            try:
                redis = await create_pool(settings, default_queue_name=QUEUE)
            except (TimeoutError, RedisError, OSError) as exc:
                if not down:
                    say(f"eights worker: Redis at {where} is unreachable ({_words(exc)}); retrying every {RETRY:g} s")
                    down = True
                await _wait(stop, RETRY)
                continue
            if not state.said_ready:
                say(
                    f"eights worker {name}: serving computer decisions from Redis at {where} "
                    f"with {state.processes} processes (Ctrl-C stops)"
                )
                state.said_ready = True
            elif down:
                say(f"eights worker: Redis at {where} answers again")
            down = False
            lost = await _work(redis, state, stop)
            if lost is not None:
                say(f"eights worker: lost Redis at {where} ({lost}); retrying every {RETRY:g} s")
                down = True
                await _wait(stop, RETRY)
        say(f"eights worker: stopped after {state.answered} decisions")
        return state.answered
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        await pool.aclose()


async def _wait(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)


async def _work(redis: ArqRedis, state: _WorkerState, stop: asyncio.Event) -> str | None:
    """Run arq's worker on ``redis`` until ``stop`` (then None) or until Redis fails (then its words)."""
    worker = Worker(
        functions=[func(decide, name="decide", max_tries=1, timeout=state.pool.deadline + 2 * GRACE + 1)],
        queue_name=QUEUE,
        redis_pool=redis,
        max_jobs=state.processes,
        poll_delay=POLL,
        handle_signals=False,
        keep_result=0,
        retry_jobs=False,
        ctx={"eights": state},
        log_results=False,
    )
    beating = asyncio.create_task(_beat(redis, state))
    running = asyncio.create_task(worker.async_run())
    stopping = asyncio.create_task(stop.wait())
    await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    beating.cancel()
    lost: str | None = None
    if running.done() and not running.cancelled() and (failure := running.exception()) is not None:
        lost = _words(failure)
    # The decisions running are dropped (their servers send them again); a task cancelled while arq wrote
    # its end would make arq's close raise CancelledError, so they are ended here first.
    worker.allow_pick_jobs = False
    running.cancel()
    await asyncio.gather(running, return_exceptions=True)
    running_jobs = list(worker.tasks.values())
    for job in running_jobs:
        job.cancel()
    await asyncio.gather(*running_jobs, return_exceptions=True)
    worker.tasks.clear()
    if lost is None:
        # Gone at once, so that the servers send its decisions again without waiting for the key to lapse.
        with contextlib.suppress(RedisError, OSError):
            await redis.delete(WORKERS + state.name)
    try:
        await worker.close()  # closes the connections
    except (RedisError, OSError) as exc:
        lost = lost or _words(exc)
    return lost


# ----- the pool -----------------------------------------------------------------------------------------------


@dataclass(eq=False)
class _Ask:
    bot: ISMCTSBot
    view: View
    owner: str
    #: The worker's (action, bot); None: play the fallback move.
    future: asyncio.Future[tuple[Action, Bot] | None]
    #: Not yet taken by a worker (counted in ``queued``).
    waiting: bool = True
    #: Taken by a worker at least once (its deadline then runs from the first take).
    taken: bool = False
    #: The arq job that carries it now, and the worker that took that job.
    job: str | None = None
    worker: str | None = None
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)


class QueuePool:
    """Computer players on the worker tier (see the module docstring), with ``BotPool``'s interface.
    Nothing touches Redis before the first search."""

    def __init__(
        self,
        url: str,
        deadline: float = DEADLINE,
        *,
        per_owner: int = PER_OWNER,
        queued: int = QUEUED,
    ) -> None:
        """Searches go to the queue at Redis ``url``; ``deadline`` seconds to be taken by a worker and as
        long again to be answered; ``per_owner`` and ``queued`` decisions waiting, per owner and in all.

        :raises ValueError: for a deadline that is not positive or a cap below 1.
        """
        self.local = BotPool(1, deadline, per_owner=per_owner, queued=queued)
        self.url = url
        self.deadline = deadline
        self.per_owner = per_owner
        self.queued = queued
        self.name = uuid.uuid4().hex
        self._replies = REPLIES + self.name
        self._redis: ArqRedis | None = None
        self._queues: dict[str, deque[_Ask]] = {}
        #: Owners with a decision sent to the queue (one each).
        self._flying: set[str] = set()
        #: The decisions in the queue or with a worker, by their job.
        self._sent: dict[str, _Ask] = {}
        self._waiting = 0
        self._workers = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._watching = False
        self._closed = False
        self._counts = dict.fromkeys(("decisions", "searches", "overruns", "refused", "expired", "restarts", "lost"), 0)

    # ----- deciding --------------------------------------------------------------------------------------------

    async def choose(self, bot: Bot, view: View, owner: str) -> tuple[Action, Bot]:
        """``bot``'s choice on ``view`` and the bot as it came back, or, past the deadline or the caps, the
        fallback move and ``bot`` as it was. A search goes to the queue; a quick level thinks here.

        :raises PoolClosed: after ``close``.
        """
        if self._closed:
            raise PoolClosed("the computer players' pool is closed")
        if not isinstance(bot, ISMCTSBot):
            return await self.local.choose(bot, view, owner)
        got = await self._search(bot, view, owner)
        self._counts["decisions"] += 1
        if got is None:
            return await self.local.fallback(view), bot
        return got

    async def hint(self, bot: Bot, view: View) -> Hint | None:
        """``BotPool.hint``, in the server's own threads.

        :raises PoolClosed: after ``close``.
        """
        if self._closed:
            raise PoolClosed("the computer players' pool is closed")
        return await self.local.hint(bot, view)

    async def _search(self, bot: ISMCTSBot, view: View, owner: str) -> tuple[Action, Bot] | None:
        queue = self._queues.get(owner)
        if (queue is not None and len(queue) >= self.per_owner) or self._waiting >= self.queued:
            self._counts["refused"] += 1
            return None
        loop = asyncio.get_running_loop()
        ask = _Ask(bot, view, owner, loop.create_future())
        self._waiting += 1
        self._queues.setdefault(owner, deque()).append(ask)
        ask.timer = loop.call_later(self.deadline, self._expire, ask)
        self._watch()
        self._send_next(owner)
        try:
            return await ask.future
        finally:
            ask.timer.cancel()
            self._drop(ask)

    def _send_next(self, owner: str) -> None:
        """Send ``owner``'s next decision to the queue, unless one of its decisions is there already."""
        queue = self._queues.get(owner)
        if owner in self._flying or not queue or self._closed:
            return
        ask = queue.popleft()
        if not queue:
            del self._queues[owner]
        self._flying.add(owner)
        self._send(ask)

    def _send(self, ask: _Ask) -> None:
        """Put ``ask`` on the queue as a new job (the one its answers will name), to be taken in its time."""
        job = uuid.uuid4().hex
        ask.job, ask.worker = job, None
        self._sent[job] = ask
        self._spawn(self._enqueue(ask, job))

    async def _enqueue(self, ask: _Ask, job: str) -> None:
        if self._sent.get(job) is not ask:
            return  # answered or given up already
        assert ask.timer is not None
        left = max(0.001, ask.timer.when() - asyncio.get_running_loop().time())
        try:
            # A bot with its beliefs pickles to half a megabyte or so: in a thread, as BotPool does.
            asked = await asyncio.to_thread(pickle.dumps, (ask.bot, ask.view))
            await self._connection().enqueue_job(
                "decide", self._replies, ask.owner, asked, _job_id=job, _queue_name=QUEUE, _expires=left
            )
        except (RedisError, OSError) as exc:
            log.warning("computer decision not queued (Redis at %s: %s); the fallback plays", self._where, exc)
            self._counts["lost"] += 1
            self._settle(ask, None)

    def _drop(self, ask: _Ask) -> None:
        """Forget ``ask`` (answered, expired or given up), and send its owner's next decision."""
        if ask.waiting:
            ask.waiting = False
            self._waiting -= 1
        queue = self._queues.get(ask.owner)
        if queue is not None and ask in queue:
            queue.remove(ask)
            if not queue:
                del self._queues[ask.owner]
            return
        if ask.job is not None and self._sent.get(ask.job) is ask:
            del self._sent[ask.job]
        if ask.job is not None:
            ask.job = None
            self._flying.discard(ask.owner)
            self._send_next(ask.owner)

    def _settle(self, ask: _Ask, outcome: tuple[Action, Bot] | BaseException | None) -> None:
        if ask.future.done():
            return
        if isinstance(outcome, BaseException):
            ask.future.set_exception(outcome)
        else:
            ask.future.set_result(outcome)

    def _expire(self, ask: _Ask) -> None:
        if ask.future.done():
            return
        self._counts["overruns" if ask.taken else "expired"] += 1
        self._settle(ask, None)

    # ----- the answers and the workers -------------------------------------------------------------------------

    @property
    def _where(self) -> str:
        return redis_address(self.url)

    def _connection(self) -> ArqRedis:
        if self._redis is None:
            connections = ConnectionPool.from_url(self.url, socket_connect_timeout=1.0, socket_keepalive=True)
            self._redis = ArqRedis(connections, default_queue_name=QUEUE)
        return self._redis

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _watch(self) -> None:
        """Start reading the answers and watching the workers, once."""
        if not self._watching:
            self._watching = True
            self._spawn(self._read())
            self._spawn(self._look())

    async def _read(self) -> None:
        """Take the workers' messages off this pool's list, as they come."""
        down = False
        while not self._closed:
            try:
                got = await self._connection().blpop([self._replies], timeout=1)  # type: ignore[misc]
            except (RedisError, OSError) as exc:
                if not down:
                    log.warning("Redis at %s is unreachable (%s); trying again every %g s", self._where, exc, RETRY)
                    down = True
                await asyncio.sleep(RETRY)
                continue
            down = False
            if got is not None:
                self._hear(await asyncio.to_thread(pickle.loads, got[1]))

    def _hear(self, message: tuple[Any, ...]) -> None:
        kind, job = message[0], message[1]
        ask = self._sent.get(job)
        if ask is None or ask.future.done():
            return  # an answer come too late, or from a job sent again since
        if kind == "taken":
            ask.worker = message[2]
            if not ask.taken:
                ask.taken = True
                ask.waiting = False
                self._waiting -= 1
                assert ask.timer is not None
                ask.timer.cancel()
                ask.timer = asyncio.get_running_loop().call_later(self.deadline, self._expire, ask)
        elif kind == "done":
            self._counts["searches"] += 1
            self._settle(ask, (message[2], message[3]))
        elif kind == "error":
            self._settle(ask, RuntimeError(f"the computer player failed: {message[2]}"))

    async def _look(self) -> None:
        """Every ``BEAT`` seconds: count the workers alive, and send again the decisions whose worker is gone."""
        while not self._closed:
            try:
                alive = await self._alive()
            except (RedisError, OSError):
                alive = None  # _read says that Redis is unreachable
            if alive is not None:
                self._workers = sum(alive.values())
                for ask in list(self._sent.values()):
                    if ask.worker is not None and ask.worker not in alive and not ask.future.done():
                        self._counts["lost"] += 1
                        del self._sent[ask.job or ""]
                        self._send(ask)
            await asyncio.sleep(BEAT)

    async def _alive(self) -> dict[str, int]:
        """The workers alive now, with their process counts."""
        redis = self._connection()
        keys = [key async for key in redis.scan_iter(match=WORKERS + "*", count=1000)]
        values: list[bytes | None] = await redis.mget(keys) if keys else []
        alive: dict[str, int] = {}
        for key, value in zip(keys, values, strict=True):
            if value is not None:
                alive[key.decode()[len(WORKERS) :]] = int(json.loads(value)["processes"])
        return alive

    # ----- looking and stopping --------------------------------------------------------------------------------

    def stats(self) -> dict[str, int | float]:
        """``BotPool.stats``'s counts for this server's decisions, the quick levels' and fallbacks included:
        ``workers`` (the processes of the workers alive on the queue, seen within ``BEAT`` seconds),
        decisions ``queued`` (not yet taken by a worker) and ``busy`` (with a worker) now; since the start,
        ``decisions`` answered (``searches`` by a worker), ``fallbacks`` played and why (``overruns``,
        ``refused``, ``expired``), ``lost`` (decisions sent again because their worker was gone, or not
        queued because Redis was unreachable), and the ``deadline``."""
        local = self.local.stats()
        counts: dict[str, int | float] = {key: value + local[key] for key, value in self._counts.items()}
        return {
            "workers": self._workers,
            "queued": self._waiting,
            "busy": sum(ask.taken and not ask.future.done() for ask in self._sent.values()),
            **counts,
            "fallbacks": local["fallbacks"],
            "deadline": self.deadline,
        }

    def close(self) -> None:
        """Stop: decisions waiting play the fallback move, later ones raise ``PoolClosed``. The connections
        to Redis close with their tasks; ``aclose`` waits for that."""
        self._shut()
        self.local.close()

    async def aclose(self) -> None:
        """``close``, then wait for the tasks to end and close the connections to Redis."""
        tasks = self._shut()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._redis is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._redis.delete(self._replies)
            await self._redis.aclose()
            self._redis = None
        await self.local.aclose()

    def _shut(self) -> list[asyncio.Task[None]]:
        if self._closed:
            return []
        self._closed = True
        asks = [ask for queue in self._queues.values() for ask in queue] + list(self._sent.values())
        for ask in asks:
            self._settle(ask, None)
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        return tasks
