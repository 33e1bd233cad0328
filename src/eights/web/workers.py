"""Computer players off the event loop, with a hard deadline and a fair share for every room.

A search (``hard``, ``expert``: ``ISMCTSBot``) runs in a worker process of its own (``spawn``; one per
core unless told otherwise, started at the first search). The bot goes to the worker with the seat's
view and comes back with its choice and what it learned (its beliefs moved on). The quick levels
(``easy``, ``normal``) run in a thread, on a copy of the bot.

What a stranger at the table cannot do to the others:

- **Overrun.** Every decision has a deadline (``BotPool.deadline``, from the moment a worker takes it).
  A worker that overruns is stopped (SIGTERM, then SIGKILL after ``GRACE``) and replaced by a fresh
  process, and the seat plays the fallback move at once: the normal player's rules of thumb on the same
  view, without its turn planner (``fallback_move``: cheap whatever the hand), with the bot handed back
  as it was before the decision. That is sound: a bot follows the game from the views alone, and its
  belief (``eights.bots.belief``) replays, at its next decision, everything that happened since the
  last view it saw, the fallback move included. A quick level's thread cannot be killed: it thinks on
  a copy of the bot told the deadline (``HeuristicBot.deadline``), so its planner stops there by itself
  (and within its node budget, ``eights.bots.turnplan.PLAN_NODES``, whatever the clock); past the
  deadline the seat plays the fallback and the copy is dropped. A hint at the table (``hint``) is
  worked out the same way, in the same threads.
- **Queue ahead of everyone.** Each owner (a room's code) has a queue of its own, and one decision
  per owner is in a worker at a time (a room decides one seat at a time). The owners share the
  workers' time (weighted fair queueing): each owner's tag counts the worker time it used, from
  where the pool's clock stood when it came (an owner coming back starts level with those served
  now, with no credit saved while away; the clock is the tag of the owner served last), and a free
  worker takes the decision that would end soonest: the least tag plus the decision's time budget.
  A room with twenty searches waiting delays another room's single search by one decision at most;
  a ``hard`` seat (0.2 s a decision) among rooms of ``expert`` seats (1 s) mostly goes first, and
  where the rooms ask for more than the workers have, every room gets its share and the rest of
  its decisions play the fallback (``bench/botpool.py``).
- **Grow the queue.** At most ``per_owner`` decisions wait per owner and ``queued`` in all; a decision
  asked past either cap is refused a worker and plays the fallback move at once. A decision that
  waited ``deadline`` seconds without a worker plays the fallback too, so ``choose`` answers within
  about twice the deadline whatever the load.
- **Outlive the server.** ``close`` (or ``aclose``) stops every worker, busy or not, within ``GRACE``
  seconds or so; a worker whose server died (SIGKILL) sees its parent's sentinel close and exits
  by itself (and, where parents are re-assigned, on seeing its parent change).

``stats`` counts all this for the server's metrics.
"""

from __future__ import annotations

import asyncio
import copy
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnContext
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from eights.bots import Bot, HeuristicBot, Hint, ISMCTSBot, make_bot
from eights.engine import Action, View
from eights.web.players import Pool, PoolClosed

__all__ = [
    "DEADLINE",
    "GRACE",
    "PER_OWNER",
    "QUEUED",
    "STARTUP",
    "BotPool",
    "Pool",
    "PoolClosed",
    "Worker",
    "WorkerSlots",
    "fallback_move",
    "stop_workers",
    "worker_start",
]

#: Seconds a decision may think, once a worker has it (the named levels think 0.2 s and 1 s).
DEADLINE = 10.0
#: Decisions that may wait for a worker, per owner and in all.
PER_OWNER = 4
QUEUED = 256
#: Seconds a stopped worker has between SIGTERM and SIGKILL.
GRACE = 0.5
#: Seconds a fresh worker may take to start (the interpreter and the package's imports); the
#: deadline of its first decision counts only from then.
STARTUP = 60.0
#: Threads for the quick levels, the hints and the fallback moves.
QUICK_THREADS = 4
#: Seconds a thread has to find a fallback move before a random legal move is played (all four busy).
FALLBACK_SECONDS = 1.0

Done = TypeVar("Done")


def fallback_move(view: View) -> Action:
    """A cheap legal move on ``view``: the normal player's rules of thumb, never its turn planner
    (``HeuristicBot.fallback``), seeded by the view (the same view, the same move)."""
    return HeuristicBot(len(view.history)).fallback(view)


def _think(bot: Bot, view: View) -> tuple[Action, Bot]:
    return bot.choose(view), bot


def _hint(bot: Bot, view: View) -> Hint:
    return bot.hint(view)


def _serve(conn: Connection) -> None:
    """A worker's life: say it is ready, then answer (bot, view) with ("ok", action, bot) or
    ("error", words), until the pool hangs up or the parent dies. A Ctrl-C at the server's terminal
    reaches its workers too: they leave it to the server, which stops them."""
    worker_start()
    conn.send("ready")
    while True:
        try:
            bot, view = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[Any, ...] = ("ok", bot.choose(view), bot)
        except Exception as exc:
            reply = ("error", f"{type(exc).__name__}: {exc}")
        conn.send(reply)


def worker_start() -> None:
    """In a worker process of the server's (a computer player's, a review's), first: Ctrl-C at the server's
    terminal is left to the server, which stops its workers, and the worker exits once the server is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_watch, args=(parent,), name="eights-orphan-watch", daemon=True).start()


def _watch(parent: BaseProcess) -> None:
    """In a worker: exit once the parent is gone. Its sentinel (a pipe the parent holds open, or its
    process handle) ends at its death on every platform; on POSIX a worker whose parent died is also
    re-assigned to another parent, which the loop checks once a second."""
    while parent.is_alive() and (os.name != "posix" or os.getppid() == parent.pid):
        parent.join(1.0)
    os._exit(1)


class Worker:
    """One worker process and the pool's end of its pipe. One exchange at a time uses it; the lock
    keeps two threads (an exchange and ``close``) from stopping it at once. ``serve(conn)`` is the
    worker's life (a computer player's by default; ``eights.web.lab`` runs labs in its own)."""

    def __init__(
        self, context: SpawnContext, serve: Callable[[Connection], None] | None = None, name: str = "eights-bot"
    ) -> None:
        here, there = context.Pipe()
        self.process: BaseProcess = context.Process(target=serve or _serve, args=(there,), name=name, daemon=True)
        self.process.start()
        there.close()
        self.conn: Connection = here
        self.ready = False
        self._lock = threading.Lock()

    @property
    def pid(self) -> int:
        assert self.process.pid is not None
        return self.process.pid

    def started(self) -> bool:
        """In a thread, before an exchange: whether the worker said it is ready (waited for once, up to
        ``STARTUP``; else it is stopped). Raises EOFError or OSError when it died meanwhile."""
        if not self.ready:
            if not self.conn.poll(STARTUP):
                self.stop(GRACE)
                return False
            self.conn.recv()
            self.ready = True
        return True

    def exchange(self, bot: Bot, view: View, deadline: float) -> tuple[Any, ...]:
        """In a thread: the worker's reply to (bot, view), or ("overrun",) or ("lost",) once it was
        stopped; each followed by the seconds the decision took (a fresh worker's start not counted)."""
        start = time.perf_counter()
        try:
            if not self.started():
                return ("lost", 0.0)
            start = time.perf_counter()
            self.conn.send((bot, view))
            if not self.conn.poll(deadline):
                self.stop(GRACE)
                return ("overrun", deadline)
            reply: tuple[Any, ...] = self.conn.recv()
            return (*reply, time.perf_counter() - start)
        except (EOFError, OSError):
            self.stop(GRACE)
            return ("lost", time.perf_counter() - start)

    def terminate(self) -> None:
        with self._lock:
            if self.process.exitcode is None:
                self.process.terminate()

    def join(self, timeout: float) -> None:
        with self._lock:
            self.process.join(timeout)

    def kill(self) -> None:
        with self._lock:
            if self.process.exitcode is None:
                self.process.kill()
                self.process.join()

    def stop(self, grace: float) -> None:
        self.terminate()
        self.join(grace)
        self.kill()


@dataclass(eq=False)
class _Job:
    bot: Bot
    view: View
    owner: str
    #: The worker's (action, bot); None: play the fallback move.
    future: asyncio.Future[tuple[Action, Bot] | None]
    #: The seconds it is expected to take: its time budget, or the deadline when it has none.
    cost: float
    running: bool = False
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)


class BotPool:
    """Where computer players think; see the module docstring. Worker processes start at the first search."""

    def __init__(
        self,
        processes: int | None = None,
        deadline: float = DEADLINE,
        *,
        per_owner: int = PER_OWNER,
        queued: int = QUEUED,
    ) -> None:
        """``processes`` workers (one per core by default); ``deadline`` seconds per decision, and as
        long again in the queue at most; ``per_owner`` and ``queued`` decisions waiting, per owner and in all.

        :raises ValueError: for a count below 1 or a deadline that is not positive.
        """
        if processes is not None and processes < 1:
            raise ValueError(f"processes: {processes} workers; give 1 or more")
        if not deadline > 0:
            raise ValueError(f"deadline: {deadline} seconds; give a positive time")
        if per_owner < 1 or queued < 1:
            raise ValueError(f"queue caps: {per_owner} per owner, {queued} in all; give 1 or more for each")
        self.processes = processes or max(1, os.cpu_count() or 1)
        self.deadline = deadline
        self.per_owner = per_owner
        self.queued = queued
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[Worker | None] = [None] * self.processes
        self._free = list(range(self.processes))
        self._queues: dict[str, deque[_Job]] = {}
        #: Owners with a decision waiting and none in flight, in the order they came (a dict as an ordered set).
        self._ready: dict[str, None] = {}
        #: The worker time each owner used (its tag), counted from where the virtual clock stood when it
        #: came; the clock is the tag of the owner served last. Tags the clock has passed are forgotten.
        self._used: dict[str, float] = {}
        self._clock = 0.0
        self._forget_at = 64
        self._running: set[str] = set()
        self._waiting = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._exchanges = ThreadPoolExecutor(self.processes, thread_name_prefix="eights-exchange")
        self._quick = ThreadPoolExecutor(QUICK_THREADS, thread_name_prefix="eights-bot")
        self._closed = False
        self._counts = dict.fromkeys(
            ("decisions", "searches", "fallbacks", "overruns", "refused", "expired", "restarts", "lost"), 0
        )

    # ----- deciding --------------------------------------------------------------------------------------------

    async def choose(self, bot: Bot, view: View, owner: str) -> tuple[Action, Bot]:
        """``bot``'s choice on ``view`` and the bot as it came back (its beliefs moved on), or, past the
        deadline or the queue's caps, the fallback move and ``bot`` as it was. ``owner`` (a room's code)
        is whose queue the decision waits in and whose share of the workers' time it uses.

        :raises PoolClosed: after ``close``.
        """
        if self._closed:
            raise PoolClosed("the computer players' pool is closed")
        if isinstance(bot, ISMCTSBot):
            got = await self._search(bot, view, owner)
        else:
            got = await self._quick_thread(_think, bot, view)
            if got is None:
                self._counts["overruns"] += 1
        self._counts["decisions"] += 1
        if got is None:
            return await self.fallback(view), bot
        return got

    async def hint(self, bot: Bot, view: View) -> Hint | None:
        """``bot``'s hint on ``view`` (a quick level's: the table's hints are the normal player's), worked out
        in a quick thread on a copy of the bot, which is left as it was; None past the deadline.

        :raises PoolClosed: after ``close``.
        """
        if self._closed:
            raise PoolClosed("the computer players' pool is closed")
        return await self._quick_thread(_hint, bot, view)

    async def _quick_thread(self, work: Callable[[Bot, View], Done], bot: Bot, view: View) -> Done | None:
        """``work(bot, view)`` in a quick thread, on a copy of ``bot`` told the deadline; None past it (the
        thread's planner stops there by itself, and the copy is dropped)."""
        mine = copy.deepcopy(bot)
        if isinstance(mine, HeuristicBot):
            mine.deadline = time.perf_counter() + self.deadline
        thinking = asyncio.get_running_loop().run_in_executor(self._quick, work, mine, view)
        done, _ = await asyncio.wait({thinking}, timeout=self.deadline)
        if not done:
            return None
        if isinstance(mine, HeuristicBot):
            mine.deadline = None  # the copy comes back as the seat's bot
        return thinking.result()

    async def _search(self, bot: ISMCTSBot, view: View, owner: str) -> tuple[Action, Bot] | None:
        queue = self._queues.get(owner)
        if (queue is not None and len(queue) >= self.per_owner) or self._waiting >= self.queued:
            self._counts["refused"] += 1
            return None
        loop = asyncio.get_running_loop()
        cost = min(bot.seconds or self.deadline, self.deadline)
        job = _Job(bot, view, owner, loop.create_future(), cost)
        self._queues.setdefault(owner, deque()).append(job)
        self._waiting += 1
        if owner not in self._running:
            self._make_ready(owner)
        job.timer = loop.call_later(self.deadline, self._expire, job)
        self._pump()
        try:
            return await job.future
        finally:
            job.timer.cancel()
            self._unqueue(job)  # still waiting only when its asker gave up (was cancelled)

    async def fallback(self, view: View) -> Action:
        """``fallback_move`` (in a thread, guarded), else a random legal one; counted in ``fallbacks``."""
        self._counts["fallbacks"] += 1
        if not self._closed:
            finding = asyncio.get_running_loop().run_in_executor(self._quick, fallback_move, view)
            done, _ = await asyncio.wait({finding}, timeout=min(FALLBACK_SECONDS, self.deadline))
            if done and finding.exception() is None:
                return finding.result()
        return make_bot("easy", len(view.history)).choose(view)

    # ----- the queues ------------------------------------------------------------------------------------------

    def _make_ready(self, owner: str) -> None:
        if owner not in self._ready:
            self._ready[owner] = None
            self._used[owner] = max(self._used.get(owner, 0.0), self._clock)

    def _pump(self) -> None:
        """Hand waiting decisions to free workers: first the owner whose decision would end its use of
        the workers soonest (the worker time it used, plus the decision's time budget), the one that
        came first among equals."""
        while self._ready and self._free and not self._closed:
            owner = min(self._ready, key=lambda owner: self._used[owner] + self._queues[owner][0].cost)
            del self._ready[owner]
            self._clock = max(self._clock, self._used[owner])
            queue = self._queues[owner]
            job = queue.popleft()
            if not queue:
                del self._queues[owner]
            self._waiting -= 1
            job.running = True
            self._running.add(owner)
            task = asyncio.get_running_loop().create_task(self._run(self._free.pop(), job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _unqueue(self, job: _Job) -> None:
        """Take a waiting decision off its queue (it expired, or its asker gave up)."""
        queue = self._queues.get(job.owner)
        if queue is None or job not in queue:
            return
        queue.remove(job)
        self._waiting -= 1
        if not queue:
            del self._queues[job.owner]
            self._ready.pop(job.owner, None)
            self._forget()

    def _forget(self) -> None:
        """Drop the tags of owners with nothing waiting or in flight that the clock has passed (they
        would start from the clock anyway), once there are many."""
        if len(self._used) > self._forget_at:
            busy = self._queues.keys() | self._running
            self._used = {owner: t for owner, t in self._used.items() if t > self._clock or owner in busy}
            self._forget_at = max(64, 2 * len(self._used))

    def _expire(self, job: _Job) -> None:
        if job.running or job.future.done():
            return
        self._unqueue(job)
        self._counts["expired"] += 1
        job.future.set_result(None)

    async def _run(self, slot: int, job: _Job) -> None:
        """One decision on worker ``slot``, then the next waiting ones."""
        outcome: tuple[Action, Bot] | Exception | None = None  # None: the fallback (also if this task is cancelled)
        try:
            outcome = await self._decide(slot, job)
        except Exception as exc:  # the bot failed in the worker, or cannot be pickled: the asker's error
            outcome = exc
        finally:
            self._running.discard(job.owner)
            self._free.append(slot)
            if job.owner in self._queues:
                self._make_ready(job.owner)
            else:
                self._forget()
            if not job.future.done():
                if isinstance(outcome, Exception):
                    job.future.set_exception(outcome)
                else:
                    job.future.set_result(outcome)
            self._pump()

    async def _decide(self, slot: int, job: _Job) -> tuple[Action, Bot] | None:
        """The worker's answer; None (play the fallback) when it overran or was lost, and then it is replaced."""
        worker = self._workers[slot] or self._start(slot)
        reply: tuple[Any, ...] = ("lost", 0.0)
        if worker is not None:
            try:
                loop = asyncio.get_running_loop()
                reply = await loop.run_in_executor(self._exchanges, worker.exchange, job.bot, job.view, self.deadline)
            except RuntimeError:  # the pool closed before the exchange could start (else the bot's own error)
                if not self._closed:
                    raise
        self._used[job.owner] += reply[-1]
        if reply[0] == "ok":
            self._counts["searches"] += 1
            return reply[1], reply[2]
        if reply[0] == "error":
            raise RuntimeError(f"the computer player failed: {reply[1]}")
        if not self._closed:
            self._counts["overruns" if reply[0] == "overrun" else "lost"] += 1
            self._workers[slot] = None
            if worker is not None and self._start(slot) is not None:
                self._counts["restarts"] += 1
        return None

    def _start(self, slot: int) -> Worker | None:
        """A fresh worker in ``slot``; None when none can start now (too many processes): the next decision tries."""
        try:
            worker = self._workers[slot] = Worker(self._context)
        except OSError:
            return None
        return worker

    # ----- looking and stopping --------------------------------------------------------------------------------

    def pids(self) -> list[int]:
        """The worker processes' ids (those started so far)."""
        return [worker.pid for worker in self._workers if worker is not None]

    def stats(self) -> dict[str, int | float]:
        """Counts for the server's metrics: ``workers`` running, decisions ``queued`` and ``busy`` now;
        since the start, ``decisions`` answered (``searches`` by a worker), ``fallbacks`` played, and
        why: ``overruns`` (past the deadline), ``refused`` (past a queue's cap), ``expired`` (no worker
        within the deadline), ``lost`` (a worker died); ``restarts`` of workers; and the ``deadline``."""
        return {
            "workers": sum(worker is not None for worker in self._workers),
            "queued": self._waiting,
            "busy": len(self._running),
            **self._counts,
            "deadline": self.deadline,
        }

    def close(self) -> None:
        """Stop every worker, busy or not (SIGTERM, SIGKILL after ``GRACE``); decisions still waiting
        play the fallback move. Later decisions raise ``PoolClosed``. Blocks for ``GRACE`` at most
        (and the time a SIGKILL takes). Call it from the event loop's thread, or with no loop running."""
        stop_workers(self._shut())

    async def aclose(self) -> None:
        """``close`` without blocking the event loop: the workers are waited for in a thread."""
        await asyncio.to_thread(stop_workers, self._shut())

    def _shut(self) -> list[Worker]:
        """Close the pool: no more decisions, the waiting ones answered; the workers, to be stopped."""
        if self._closed:
            return []
        self._closed = True
        for queue in self._queues.values():
            for job in queue:
                if not job.future.done():
                    job.future.set_result(None)
        self._queues.clear()
        self._ready.clear()
        self._waiting = 0
        workers = [worker for worker in self._workers if worker is not None]
        self._workers = [None] * self.processes
        self._exchanges.shutdown(wait=False, cancel_futures=True)
        self._quick.shutdown(wait=False, cancel_futures=True)
        return workers


def stop_workers(workers: list[Worker]) -> None:
    """Stop ``workers`` together: SIGTERM to all, SIGKILL to those alive ``GRACE`` seconds later."""
    for worker in workers:
        worker.terminate()
    until = time.monotonic() + GRACE
    for worker in workers:
        worker.join(max(0.0, until - time.monotonic()))
    for worker in workers:
        worker.kill()


class WorkerSlots:
    """Worker processes for long jobs, one job at a time in each of ``processes`` slots: the labs' and the
    reviews'. A job waits its turn for a slot (``slot``), and exchanges with the slot's worker in a thread
    of the slots' (``exchange``); the worker, ``serve(conn)`` in a spawned process, is started when a job
    first needs it, and again after one that stopped or died (``forget``)."""

    def __init__(self, processes: int, serve: Callable[[Connection], None], name: str) -> None:
        self._serve = serve
        self._name = name
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[Worker | None] = [None] * processes
        self._free = list(range(processes))
        self._turn = asyncio.Semaphore(processes)
        self._exchanges = ThreadPoolExecutor(processes, thread_name_prefix=name)

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[int]:
        """A free slot, held for one job (waited for in turn)."""
        async with self._turn:
            slot = self._free.pop()
            try:
                yield slot
            finally:
                self._free.append(slot)

    def worker(self, slot: int) -> Worker | None:
        """The slot's worker, started if it has none; None when none can be started."""
        worker = self._workers[slot]
        if worker is None:
            try:
                worker = self._workers[slot] = Worker(self._context, self._serve, name=self._name)
            except OSError:
                return None
        return worker

    async def exchange(self, talk: Callable[..., tuple[Any, ...]], worker: Worker, *args: Any) -> tuple[Any, ...]:
        """``talk(worker, *args)``, in a thread of the slots' (it blocks while the worker works)."""
        return await asyncio.get_running_loop().run_in_executor(self._exchanges, talk, worker, *args)

    def forget(self, slot: int) -> None:
        """The slot's worker stopped or died: the next job there starts a fresh one."""
        self._workers[slot] = None

    def pids(self) -> list[int]:
        """The worker processes' ids (those started so far)."""
        return [worker.pid for worker in self._workers if worker is not None]

    async def aclose(self) -> None:
        """Stop every worker, busy or not, without blocking the event loop."""
        workers = [worker for worker in self._workers if worker is not None]
        self._workers = [None] * len(self._workers)
        self._exchanges.shutdown(wait=False, cancel_futures=True)
        await asyncio.to_thread(stop_workers, workers)
