""" "Test these rules": a short variant lab (``eights.lab.quick_lab``) on the server, before a family plays.

``POST /api/lab`` names the rules being set up (a preset and its changed options, checked as a new room's
are) and the number of players; the lab plays them against the plain preset (or the plain preset alone
when nothing is changed) on worker processes of its own, never on the event loop, and ``GET
/api/lab/{id}`` follows it: waiting, playing (games played of all), done (the figures and the charts'
data) or failed. The same rules at the same table give the same lab (a fixed seed, the budget from
the server's limits), so a finished one is kept (``Limits.lab_cache`` of them, the least recently
asked forgotten first) and asked again costs nothing.

The discipline is the computer players' (``eights.web.workers``): a worker process per
``Limits.lab_processes`` (``spawn``, started at the first lab), a lab at a time in each; a lab stops
handing out games after ``Limits.lab_seconds`` (its figures are those of the games played, marked
partial and not kept), and a worker still busy ``GRACE`` seconds later is stopped (SIGTERM, then
SIGKILL) and replaced, the lab failed. At most ``Limits.labs_queued`` labs wait or play at once,
``Limits.labs_at_once_per_client`` of them one client's.

A lab is budgeted by its work, not counted: its games times what a game of its rules and table costs,
measured as it plays (the seconds of the worker's processor its games used, ``time.process_time``),
since no estimate from the rules alone comes near (a match kept to 500 points plays 1 to 30 hands; the
expert's search costs 30 times more a game with two players and fifteen-card hands than at classic's
four). One client's labs may use ``Limits.lab_work_per_client`` of those seconds in a moving window
(``Guard.lab_work_left``): a lab starts only while some are left, stops handing out games once it has
used them (partial, as at its time limit), and is charged what it used when it ends.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from eights.lab import quick_lab
from eights.lab.run import KINDS
from eights.rules import RulesError, RuleSet, load_preset
from eights.web.guard import Guard
from eights.web.rooms.seats import check_hands, rules_from
from eights.web.settings import Limits
from eights.web.workers import GRACE as STOP_GRACE
from eights.web.workers import Worker, WorkerSlots, worker_start

__all__ = ["GRACE", "SEED", "LabDesk", "LabRefused"]

#: The seed of every lab the server runs: the same rules, the same figures.
SEED = 1
#: Seconds past ``Limits.lab_seconds`` a lab may take to end the games it is playing before its worker is stopped.
GRACE = 30.0
#: The names of the two rule sets in the figures and charts.
YOURS = "your rules"
#: Progress is told at most this often (seconds) by a worker.
PROGRESS_EVERY = 0.25


class LabRefused(Exception):
    """A lab the server does not start: ``code`` (``bad_setup``, ``too_many_labs``, ``busy``) and the words."""

    def __init__(self, code: str, words: str) -> None:
        super().__init__(words)
        self.code = code


@dataclass(frozen=True)
class Question:
    """What a lab answers: these rules at this table, against their preset, on this budget."""

    preset: str
    rules: RuleSet
    changes: tuple[str, ...]
    players: int
    games: int
    budget: int

    @property
    def compared(self) -> bool:
        """Whether there is anything to compare: rules that differ from their preset's."""
        return bool(self.changes)

    @property
    def key(self) -> str:
        """The lab's id: a digest of everything that decides its figures."""
        what = repr((self.rules, self.preset, self.players, self.games, self.budget, SEED))
        return hashlib.sha256(what.encode()).hexdigest()[:20]

    @property
    def total(self) -> int:
        return self.games * len(KINDS) * (2 if self.compared else 1)

    def words(self) -> dict[str, Any]:
        """What the answer says of the question and its budget."""
        plain = f"{self.preset} as it comes"
        budget = (
            f"{self.games} games of each kind per rule set (normal players at every seat; expert against normal; "
            f"normal against easy), the expert searching {self.budget} iterations a move"
        )
        if self.compared:
            note = f"Your rules ({', '.join(self.changes)}) against {plain}, {self.players} players."
        else:
            note = f"These are {plain}: no option is changed, so there is nothing to compare; the figures are its own."
        files = "house.toml " if self.compared else ""
        command = (
            f"eights lab {files}{self.preset} --players {self.players} --games {self.games} "
            f"--budget {self.budget} --seed {SEED}"
        )
        return {
            "preset": self.preset,
            "changes": list(self.changes),
            "players": self.players,
            "compared": self.compared,
            "note": note,
            "budget": {"games": self.games, "expert": f"expert@{self.budget}", "words": budget},
            "command": command,
        }


def question(preset: str, options: dict[str, str], players: int, limits: Limits) -> Question:
    """The question for rules being set up, checked as a new room's rules are.

    :raises LabRefused: ``bad_setup``, naming the bad preset, option or player count and the valid choices.
    """
    try:
        rules = rules_from(preset, options)
        rules.check_players(players)
        check_hands(rules, players, limits.max_hand_size)
    except RulesError as exc:
        raise LabRefused("bad_setup", str(exc)) from None
    name = load_preset(preset.strip().lower()).name
    changes = tuple(rules.changes(name)[1])
    return Question(name, rules, changes, players, limits.lab_games, limits.lab_budget)


# ----- in a worker process -----------------------------------------------------------------------------------


def _serve_labs(conn: Connection) -> None:
    """A lab worker's life: say it is ready, then play each question sent, telling its progress as
    ("played", n, work), and answer ("ok", figures, work) or ("error", words, work), ``work`` the seconds
    of its processor the lab's games used, until the server hangs up or dies."""
    worker_start()
    conn.send("ready")
    while True:
        try:
            asked: Question
            asked, seconds, work = conn.recv()
        except (EOFError, OSError):
            return
        start = time.process_time()
        try:
            reply: tuple[Any, ...] = ("ok", _play(asked, seconds, work, conn.send))
        except Exception as exc:
            reply = ("error", f"{type(exc).__name__}: {exc}")
        conn.send((*reply, time.process_time() - start))


def _play(asked: Question, seconds: float, work: float, tell: Callable[[tuple[Any, ...]], None]) -> dict[str, Any]:
    """The lab of ``asked``; after ``seconds``, or once its games used ``work`` seconds of the processor, no
    more games are handed out (the figures are then partial)."""
    start = last = time.monotonic()
    used = time.process_time()
    played = 0

    def on_game(_: object) -> None:
        nonlocal played, last
        played += 1
        now = time.monotonic()
        spent = time.process_time() - used
        if now - last >= PROGRESS_EVERY:
            last = now
            tell(("played", played, spent))
        if now - start > seconds or spent > work:
            raise KeyboardInterrupt  # run_lab's way to stop: the figures of the games played

    plain = load_preset(asked.preset)
    rulesets, names = ([asked.rules, plain], [YOURS, asked.preset]) if asked.compared else ([plain], [asked.preset])
    return quick_lab(rulesets, asked.players, asked.games, asked.budget, SEED, names=names, on_game=on_game)


def _exchange(
    worker: Worker,
    asked: Question,
    seconds: float,
    work: float,
    grace: float,
    on_played: Callable[[int, float], None],
) -> tuple[Any, ...]:
    """In a thread: the worker's reply to ``asked`` (playing ``seconds`` and ``work``), or ("overrun",) once
    it was stopped ``grace`` seconds past that, or ("lost",) when it died."""
    try:
        if not worker.started():
            return ("lost",)
        worker.conn.send((asked, seconds, work))
        until = time.monotonic() + seconds + grace
        while True:
            if not worker.conn.poll(max(0.0, until - time.monotonic())):
                worker.stop(STOP_GRACE)
                return ("overrun",)
            reply: tuple[Any, ...] = worker.conn.recv()
            if reply[0] != "played":
                return reply
            on_played(reply[1], reply[2])
    except (EOFError, OSError):
        worker.stop(STOP_GRACE)
        return ("lost",)


# ----- on the server ---------------------------------------------------------------------------------------


@dataclass(eq=False)
class Job:
    """A lab waiting or playing."""

    asked: Question
    client: str
    played: int = 0
    #: Seconds of the worker's processor its games used so far (as last told).
    work: float = 0.0
    state: str = "waiting"
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class LabDesk:
    """Where the server's labs wait, play and are kept; see the module docstring."""

    def __init__(self, limits: Limits, guard: Guard, grace: float = GRACE) -> None:
        """``grace``: seconds past ``limits.lab_seconds`` before a busy worker is stopped."""
        self.limits = limits
        self.grace = grace
        self.guard = guard
        self.slots = WorkerSlots(limits.lab_processes, _serve_labs, "eights-lab")
        #: Labs waiting or playing, by id, in the order they came.
        self.jobs: dict[str, Job] = {}
        #: Ended labs by id: (``done``, ``partial`` or ``failed``, the answer); the least recently asked first.
        self.kept: OrderedDict[str, tuple[str, dict[str, Any]]] = OrderedDict()
        self._closed = False

    def ask(self, preset: str, options: dict[str, str], players: int, client: str) -> tuple[bool, dict[str, Any]]:
        """Start the lab of these rules (or join the same one waiting or playing, or give the one kept):
        whether it is finished, and the answer (``status``'s).

        :raises LabRefused: for rules that cannot be played, or past a limit (naming it).
        """
        asked = question(preset, options, players, self.limits)
        key = asked.key
        kept = self.kept.get(key)
        if kept is not None and kept[0] == "done":
            self.kept.move_to_end(key)
            return True, {**kept[1], "cached": True}
        if key in self.jobs:
            return False, self.status(key)
        limits = self.limits
        if sum(job.client == client for job in self.jobs.values()) >= limits.labs_at_once_per_client:
            at_once = limits.labs_at_once_per_client
            raise LabRefused(
                "too_many_labs", f"you are testing other rules already (at most {at_once} at once): wait for them"
            )
        if len(self.jobs) >= limits.labs_queued:
            raise LabRefused("busy", "the server is testing other people's rules just now: try again in a minute")
        if self.guard.lab_work_left(client) <= 0:
            raise LabRefused("too_many_labs", self._spent())
        self.kept.pop(key, None)  # a lab that failed or was stopped early is played again
        job = self.jobs[key] = Job(asked, client)
        job.task = asyncio.get_running_loop().create_task(self._run(key, job))
        return False, self.status(key)

    def status(self, key: str) -> dict[str, Any]:
        """Where the lab ``key`` is: ``state`` waiting (``ahead``: labs that came before it and have not
        ended), playing (``played`` of ``total`` games), done (``lab``: the figures, the charts' data and
        the rows of text; ``lab.partial`` when it was stopped at the time limit), failed (``error``), or
        unknown."""
        job = self.jobs.get(key)
        if job is not None:
            answer = {"id": key, "state": job.state, "played": job.played, "total": job.asked.total}
            if job.state == "waiting":
                answer["ahead"] = list(self.jobs).index(key)
            return {**answer, **job.asked.words()}
        kept = self.kept.get(key)
        if kept is None:
            return {"id": key, "state": "unknown"}
        self.kept.move_to_end(key)
        return kept[1]

    async def _run(self, key: str, job: Job) -> None:
        """Wait for a worker, play, and keep the outcome: ``done``, ``partial`` (stopped at the time limit:
        shown to whoever asked, played again when asked again) or ``failed``."""
        outcome = "failed", {"id": key, "state": "failed", "error": "the server stopped before the lab ended"}
        try:
            async with self.slots.slot() as slot:
                if self._closed:
                    return
                job.state = "playing"
                outcome = await self._play(slot, job)
        finally:
            del self.jobs[key]
            self.kept[key] = outcome
            while len(self.kept) > self.limits.lab_cache:
                self.kept.popitem(last=False)

    async def _play(self, slot: int, job: Job) -> tuple[str, dict[str, Any]]:
        key = job.asked.key

        def failed(words: str) -> tuple[str, dict[str, Any]]:
            return "failed", {"id": key, "state": "failed", "error": words}

        work = self.guard.lab_work_left(job.client)
        if work <= 0:  # its client's other labs used it all while this one waited
            return failed(self._spent())
        worker = self.slots.worker(slot)
        if worker is None:
            return failed("the server cannot start a worker for the lab just now: try again in a minute")

        def on_played(played: int, used: float) -> None:  # from the exchange's thread, read by the loop
            job.played, job.work = played, used

        seconds = self.limits.lab_seconds
        reply: tuple[Any, ...] = ("lost",)
        try:
            reply = await self.slots.exchange(_exchange, worker, job.asked, seconds, work, self.grace, on_played)
        finally:
            self.guard.spend_lab_work(job.client, self._used(reply, job))
        if reply[0] == "ok":
            lab = reply[1]
            job.played = sum(sum(v["games"].values()) for v in lab["variants"])
            answer = {"id": key, "state": "done", "played": job.played, "total": job.asked.total}
            return ("partial" if lab["partial"] else "done"), {**answer, **job.asked.words(), "lab": lab}
        if reply[0] == "error":
            return failed(f"the lab failed: {reply[1]}")
        self.slots.forget(slot)  # stopped or dead: the next lab starts a fresh one
        if reply[0] == "lost":
            return failed("the lab's worker process ended before the lab did: try again in a minute")
        limit = seconds + self.grace
        return failed(f"the lab took longer than {limit:g} s and was stopped: try again when the server is less busy")

    def _used(self, reply: tuple[Any, ...], job: Job) -> float:
        """What a lab is charged: the work its worker said its games used; for a worker stopped past its time,
        what it last told and the grace it was given; for one lost, what it last told."""
        if reply[0] in ("ok", "error"):
            return float(reply[-1])
        return job.work + (self.grace if reply[0] == "overrun" else 0.0)

    def _spent(self) -> str:
        """Words for a client whose labs used their share of the work."""
        rate = self.limits.rate("lab_work_per_client")
        every = rate.GRANULARITY.name if rate.multiples == 1 else f"{rate.multiples} {rate.GRANULARITY.name}s"
        seconds = "1 second" if rate.amount == 1 else f"{rate.amount} seconds"
        return (
            f"your labs have used their share of the server's time for now (at most {seconds} of play "
            f"every {every}): wait a while"
        )

    async def aclose(self) -> None:
        """Stop every worker, busy or not, without blocking the event loop; labs waiting are dropped."""
        if self._closed:
            return
        self._closed = True
        await self.slots.aclose()
        for job in list(self.jobs.values()):
            if job.task is not None:
                job.task.cancel()
