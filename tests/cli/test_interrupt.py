"""Ctrl-C during long work: `tournament` (one job and several) and `simulate` stop at once, say how far
they got, print what the finished games give, and leave no process behind (issue 29, items 1-3).

Each test runs the real command in a process of its own, with standard error on a pseudo-terminal
(so the progress bar shows, as at a terminal), waits until the bar has counted a game, and sends
SIGINT: to the whole process group, as a terminal's Ctrl-C does, or to the command alone.
"""

from __future__ import annotations

import contextlib
import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

#: Generous: the command must get to its first finished game on a busy machine.
DEADLINE = 120.0


class Run:
    """``eights ARGS`` with standard error on a pseudo-terminal and standard output on a pipe."""

    def __init__(self, *args: str) -> None:
        self.master, slave = pty.openpty()
        env = {**os.environ, "TERM": "xterm", "COLUMNS": "120", "LINES": "40"}
        for setting in ("NO_COLOR", "TTY_INTERACTIVE", "TTY_COMPATIBLE", "CI"):  # rich reads these: a terminal here
            env.pop(setting, None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "eights.cli", *args],
            stdout=subprocess.PIPE,
            stderr=slave,
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,  # its own process group, as a shell gives a job
        )
        os.close(slave)
        self.stderr = b""

    def __enter__(self) -> Run:
        return self

    def __exit__(self, *_: object) -> None:
        """Whatever happened in the test, the command and its workers (its own process group) end."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        with contextlib.suppress(OSError):
            os.close(self.master)

    def read_stderr(self, timeout: float) -> None:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if ready:
            with contextlib.suppress(OSError):  # the terminal's other end has closed
                self.stderr += os.read(self.master, 65536)

    def wait_for(self, pattern: str) -> re.Match[str]:
        end = time.monotonic() + DEADLINE
        while time.monotonic() < end:
            found = re.search(pattern, self.text)
            if found:
                return found
            if self.process.poll() is not None:
                break
            self.read_stderr(0.2)
        pytest.fail(f"no {pattern!r} on standard error; got {self.text[-500:]!r}")

    @property
    def text(self) -> str:
        return self.stderr.decode(errors="replace")

    def children(self) -> set[int]:
        pid = self.process.pid
        found: set[int] = set()
        for task in Path(f"/proc/{pid}/task").iterdir():
            found |= {int(c) for c in (task / "children").read_text().split()}
        return found

    def finish(self) -> tuple[int, str, str]:
        out, _ = self.process.communicate(timeout=DEADLINE)
        end = time.monotonic() + 5
        while time.monotonic() < end:
            before = len(self.stderr)
            self.read_stderr(0.1)
            if len(self.stderr) == before:
                break
        return self.process.returncode, out.decode(), self.text


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def gone_soon(pids: set[int]) -> set[int]:
    """The processes of ``pids`` still alive after a generous wait (none, when all is well)."""
    end = time.monotonic() + 30
    while time.monotonic() < end and any(alive(p) for p in pids):
        time.sleep(0.1)
    return {p for p in pids if alive(p)}


def interrupt(run: Run, whole_group: bool) -> None:
    if whole_group:
        os.killpg(run.process.pid, signal.SIGINT)
    else:
        os.kill(run.process.pid, signal.SIGINT)


@pytest.mark.parametrize("whole_group", [True, False], ids=["ctrl-c", "parent-only"])
def test_ctrl_c_stops_a_tournament_in_two_jobs_at_once_with_the_partial_table(whole_group: bool) -> None:
    with Run("tournament", "--variant", "classic", "--bots", "normal,easy", "--games", "4000", "--jobs", "2") as run:
        run.wait_for(r"\b[1-9]\d*/4000")
        workers = run.children()
        assert len(workers) >= 2, "the workers should be running"
        interrupt(run, whole_group)
        status, out, err = run.finish()
        assert status == 130
        assert re.search(r"Stopped after \d+ of 4000 games\.", err), err
        assert "Traceback" not in err and "KeyboardInterrupt" not in err
        assert "normal" in out and "Elo" in out and "of 4000 games" in out
        assert gone_soon(workers) == set()


@pytest.mark.parametrize("whole_group", [True, False], ids=["ctrl-c", "parent-only"])
def test_ctrl_c_stops_a_one_job_tournament_with_json_and_progress_on_stderr(whole_group: bool) -> None:
    with Run("tournament", "--variant", "classic", "--bots", "normal,easy", "--games", "4000", "--json") as run:
        # Progress shows on standard error though standard output carries JSON.
        found = run.wait_for(r"\b([1-9]\d*)/4000")
        interrupt(run, whole_group)
        status, out, err = run.finish()
        assert status == 130
        stopped = re.search(r"Stopped after (\d+) of 4000 games\.", err)
        assert stopped, err
        assert int(stopped[1]) >= int(found[1])
        assert "Traceback" not in err
        data = json.loads(out)
        assert data["stopped_after"] == int(stopped[1])
        assert sum(b["games"] for b in data["bots"]) == 2 * int(stopped[1])


def test_ctrl_c_stops_simulate_with_the_partial_totals() -> None:
    with Run("simulate", "--variant", "derange", "--games", "100000000", "--seed", "1") as run:
        run.wait_for(r"\b[1-9]\d*/100000000")
        interrupt(run, whole_group=True)
        status, out, err = run.finish()
        assert status == 130
        stopped = re.search(r"Stopped after (\d+) of 100000000 games\.", err)
        assert stopped, err
        assert "Traceback" not in err
        assert f"{stopped[1]} of 100000000 games" in out
        wins = re.findall(r"^\s*\d\s+(\d+(?:\.\d+)?)\s", out, re.MULTILINE)
        assert len(wins) == 4
        assert round(sum(float(w) for w in wins)) == int(stopped[1])
