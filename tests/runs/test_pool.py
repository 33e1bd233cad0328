"""One way to run a batch (eights.runs.pool): the same results here and in worker processes, and a stop
that keeps what ended and hands out nothing more."""

from __future__ import annotations

import threading

import pytest

from eights.runs.pool import Stopped, run_all, workers


def square(n: int) -> int:
    return n * n


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_task_is_kept_once_under_its_index(jobs: int) -> None:
    kept: dict[int, int] = {}
    with workers(jobs) as pool:
        run_all(square, list(range(20)), pool, kept.__setitem__, threading.Event())
    assert kept == {n: n * n for n in range(20)}


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_keep_that_raises_keyboard_interrupt_stops_the_batch_and_keeps_what_ended(jobs: int) -> None:
    kept: dict[int, int] = {}

    def keep(index: int, result: int) -> None:
        kept[index] = result
        if len(kept) == 3:
            raise KeyboardInterrupt

    with workers(jobs) as pool, pytest.raises(Stopped):
        run_all(square, list(range(200)), pool, keep, threading.Event())
    assert len(kept) >= 3 and all(result == index * index for index, result in kept.items())
    if jobs == 1:
        assert sorted(kept) == [0, 1, 2], "in this process, nothing runs after the stop"


def test_a_stop_set_before_the_batch_runs_nothing_here() -> None:
    stop = threading.Event()
    stop.set()
    kept: dict[int, int] = {}
    with pytest.raises(Stopped):
        run_all(square, [1, 2, 3], None, kept.__setitem__, stop)
    assert kept == {}
