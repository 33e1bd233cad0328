"""One way to run a batch of work (the games of a tournament or a lab, the decisions of a review): in this
process or in a pool of worker processes, with Ctrl-C that stops handing out work and keeps what ended.

``workers(jobs)`` gives a pool of ``jobs`` processes that leave Ctrl-C to this one (none for one job: the
work runs here), kept open for as many batches as the caller runs in it (the lab's stages);
``run_all(work, tasks, pool, keep, stop)`` calls ``keep(index, work(task))`` as each task ends, and
``interrupts_stop(stop)`` turns Ctrl-C into ``stop`` while a batch runs, so that the main thread is never
interrupted inside the pool's own code (which can leave its workers playing on).

The web table's computer players have a pool of their own (``eights.web.workers``): long-lived processes
that answer one decision at a time under a deadline, and are replaced when they overrun. A batch has none
of those needs, and the web's needs none of these.
"""

from __future__ import annotations

import contextlib
import queue
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

Task = TypeVar("Task")
Result = TypeVar("Result")

#: How often a batch waiting for its workers looks whether it was stopped, in seconds.
POLL_SECONDS = 0.2


class Stopped(Exception):
    """The batch was stopped (Ctrl-C, or a ``keep`` that raised ``KeyboardInterrupt``): no more work was
    handed out, and every result that had ended was kept."""


def ignore_interrupts() -> None:
    """A worker's start: Ctrl-C reaches every process of the terminal's group, and the workers leave it
    to the parent, which stops the batch itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def interrupts_stop(stop: threading.Event) -> Iterator[None]:
    """While a batch runs, Ctrl-C sets ``stop`` instead of raising wherever the main thread happens to be;
    ``run_all`` looks at it between results. Outside the main thread, and in a process started with
    Ctrl-C ignored (a background job), signals are left as they are."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        yield
        return
    previous = signal.signal(signal.SIGINT, lambda _signum, _frame: stop.set())
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def workers(jobs: int) -> Iterator[ProcessPoolExecutor | None]:
    """A pool of ``jobs`` worker processes, or None for one job (the work runs in this process)."""
    if jobs <= 1:
        yield None
        return
    with ProcessPoolExecutor(max_workers=jobs, initializer=ignore_interrupts) as pool:
        yield pool


def run_all(
    work: Callable[[Task], Result],
    tasks: Sequence[Task],
    pool: ProcessPoolExecutor | None,
    keep: Callable[[int, Result], None],
    stop: threading.Event,
) -> None:
    """``keep(index, work(tasks[index]))`` for every task as it ends (in this process when ``pool`` is
    None, in the order given; else in the order they end), until ``stop`` is set.

    :raises Stopped: once ``stop`` is set or ``keep`` raised ``KeyboardInterrupt``: the work under way
        ended and was kept, no other started.
    """
    if pool is None:
        try:
            for index, task in enumerate(tasks):
                if stop.is_set():
                    raise Stopped
                keep(index, work(task))
        except KeyboardInterrupt:
            raise Stopped from None
        return
    ended: queue.SimpleQueue[Future[Result]] = queue.SimpleQueue()
    futures: dict[Future[Result], int] = {}
    for index, task in enumerate(tasks):
        future = pool.submit(work, task)
        futures[future] = index
        future.add_done_callback(ended.put)
    kept: set[int] = set()
    try:
        for _ in range(len(futures)):
            while True:
                if stop.is_set():
                    raise Stopped
                try:
                    future = ended.get(timeout=POLL_SECONDS)
                    break
                except queue.Empty:
                    continue
            if not future.cancelled():
                kept.add(futures[future])
                keep(futures[future], future.result())
    except (Stopped, KeyboardInterrupt):
        pool.shutdown(wait=True, cancel_futures=True)
        for future, index in futures.items():
            if index not in kept and future.done() and not future.cancelled() and future.exception() is None:
                with contextlib.suppress(KeyboardInterrupt):  # (a second Ctrl-C: the batch is stopping)
                    keep(index, future.result())
        raise Stopped from None
