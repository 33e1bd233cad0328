"""A finished match's review at the web table (the Review button at its end), for each person who played it.

A person asks for the review of their own seat only, with its seat token (the app checks it): the seat's
decisions, each judged from what that seat saw then (``eights.runs.review``, the same review as ``eights review``).
The server's budget for it is fixed by its limits (``review_deals``, ``review_iterations``; a stranger
chooses nothing), and it runs off the event loop in worker processes (``reviews_at_once`` of them, one
review each, one decision at a time), within ``review_seconds`` in all; stopping the server, or the
review, stops its worker. A worker that dies (killed, out of memory) is seen at once: its decision is
made again by a fresh one, and a second death stops the review in words.
A client asks for ``reviews_per_client`` at most; a review kept in the store (under the same key as
``eights review --seat N`` with those settings) is given again at once, uncounted.

A review exists from the moment it is asked for: it is one task from the first step (reading the match
in a thread) to the last (keeping it), counted in ``reviews_at_once`` until that task has ended, and its
thread and worker with it. Stopped at any moment, it stops there: while the match is being read, the
reading stops at its next step and nothing more starts (its asker is told it was stopped); while its
decisions are made, its worker is stopped. Once its last decision is made it is being kept, and a stop
then is refused in words (the review is done: a second look gives it).

The page follows a review by asking for it again (``look``): how many decisions are done, then the
review, each decision with the table as its seat saw it, drawn as the table is (``review_json``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection
from typing import Any

from eights.cards import Card
from eights.engine import Play, parse_action
from eights.engine.actions import Bury
from eights.rules import RuleSet
from eights.runs.review import Decision, Review, ReviewSettings, Task, review_decision, tasks_of, unit_of
from eights.store import Store, StoreError
from eights.store.reviews import Reviews
from eights.table.phrases import sorted_hand
from eights.web.guard import Guard
from eights.web.settings import Limits
from eights.web.tableview import card_json
from eights.web.workers import GRACE, Worker, WorkerSlots, worker_start

__all__ = ["ReviewError", "Reviewer", "review_json"]

log = logging.getLogger("eights.web")


#: Fresh workers a decision is given to after its worker died, before the review stops.
RETRIES = 1


class ReviewError(RuntimeError):
    """A review that cannot be had now: a ``code``, a sentence for the player and the HTTP status."""

    def __init__(self, code: str, message: str, status: int) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


@dataclass(eq=False)
class Job:
    """A review under way: how far it is, or why it stopped."""

    match_id: int
    seat: int
    total: int = 0
    done: int = 0
    error: str | None = None
    #: The ``ReviewError`` code its error is said with.
    code: str = "review_failed"
    #: Set by ``stop``; the reading of the match (in its thread) looks at it between its steps.
    stopped: bool = False
    #: Its decisions are all made, and it is being kept: too late to stop.
    keeping: bool = False
    #: Set once its decisions to review are known, or once it ended before.
    ready: asyncio.Event = field(default_factory=asyncio.Event, repr=False)
    task: asyncio.Task[None] = field(init=False, repr=False)

    def progress(self) -> dict[str, Any]:
        return {"state": "running", "done": self.done, "total": self.total}


class Stopped(Exception):
    """The reading of a stopped review's match, given up between two steps."""


class Reviewer:
    """The web table's reviews: those under way, by match and seat, and the worker processes they run in."""

    def __init__(self, store: Store, limits: Limits, guard: Guard) -> None:
        self.store = store
        self.kept = Reviews(store)
        self.limits = limits
        self.guard = guard
        self.settings = ReviewSettings(deals=limits.review_deals, iterations=limits.review_iterations)
        #: The reviews their askers may look at or stop, by match and seat (one that failed, until said once).
        self.jobs: dict[tuple[int, int], Job] = {}
        #: Every review whose task has not ended, stopped ones too: what ``reviews_at_once`` counts.
        self.live: set[Job] = set()
        self.slots = WorkerSlots(limits.reviews_at_once, _serve_reviews, "eights-review")

    def key(self, seat: int) -> str:
        """What a kept review is found by (as ``eights review`` keeps it): the seat, the deals, the iterations."""
        return f"{seat}|{self.settings.deals}|{self.settings.iterations}"

    def running(self) -> int:
        """Reviews that exist now (from their ask to the end of their task, stopped or not)."""
        return len(self.live)

    def look(self, match_id: int, seat: int, rules: RuleSet) -> dict[str, Any]:
        """The seat's review of the match: done (with the review), under way (with its progress).

        :raises ReviewError: when none was asked for, or the one asked for stopped (said once: it may be
            asked for again), or the store cannot be read.
        """
        job = self.jobs.get((match_id, seat))
        if job is not None and job.error is not None:
            del self.jobs[(match_id, seat)]
            raise ReviewError(job.code, job.error, 503)
        if job is not None:
            return job.progress()
        kept = self._kept(match_id, seat)
        if kept is None:
            raise ReviewError("no_review", "no review of your seat was asked for yet: press Review", 404)
        return review_json(kept, rules, seat)

    async def ask(self, match_id: int, seat: int, rules: RuleSet, client: str) -> dict[str, Any]:
        """Start the seat's review of the (finished) match, or say how the one asked for stands, once its
        decisions to review are known (an ask while they are read waits for the same reading).

        :raises ReviewError: when the server reviews as many matches as it may, the client asked for its
            share, the store fails, or the review was stopped (or failed) before it began.
        """
        key = (match_id, seat)
        job = self.jobs.get(key)
        if job is None or job.error is not None:
            kept = self._kept(match_id, seat)
            if kept is not None:
                return review_json(kept, rules, seat)
            self.jobs.pop(key, None)
            if self.running() >= self.limits.reviews_at_once:
                words = "the server is reviewing as many matches as it can: try again in a minute"
                raise ReviewError("busy", words, 429)
            if not self.guard.make_review(client):
                raise ReviewError(
                    "too_fast",
                    f"too many reviews asked for from your address (at most {self.limits.reviews_per_client})",
                    429,
                )
            job = self._start(key)
        await job.ready.wait()
        if job.stopped:
            raise ReviewError("stopped", "the review was stopped: nothing was kept; Review starts it again", 409)
        if job.error is not None:
            if self.jobs.get(key) is job:  # said once (another ask may have said it already)
                del self.jobs[key]
            raise ReviewError(job.code, job.error, 503)
        return job.progress()

    def _start(self, key: tuple[int, int]) -> Job:
        """A new review of ``key``, there at once (before anything is awaited): a stop finds it, and
        ``reviews_at_once`` counts it until its task has ended, however it ends (even cancelled unstarted)."""
        job = self.jobs[key] = Job(*key)
        job.task = asyncio.get_running_loop().create_task(self._run(job))
        self.live.add(job)
        job.task.add_done_callback(lambda _: self._ended(job))
        return job

    def _ended(self, job: Job) -> None:
        self.live.discard(job)  # (first: an ask woken by ``ready`` finds it no longer counted)
        job.ready.set()

    def stop(self, match_id: int, seat: int) -> dict[str, Any]:
        """Stop the seat's review under way, wherever it is (nothing of it is kept; its worker is stopped).

        :raises ReviewError: when none is under way, or it is done and being kept.
        """
        job = self.jobs.get((match_id, seat))
        if job is None or job.error is not None:
            raise ReviewError("no_review", "no review of your seat is under way", 404)
        if job.keeping:
            raise ReviewError("keeping", "your review is done and being kept: Review shows it", 409)
        del self.jobs[(match_id, seat)]
        job.stopped = True
        job.task.cancel()
        return {"state": "stopped", "done": job.done, "total": job.total}

    async def _prepare(self, job: Job) -> tuple[list[Task], Review]:
        """The seat's decisions to review, and the review they will make, read in a thread. Stopped meanwhile,
        the review ends only once its thread has (which stops at its next step).

        :raises ReviewError: when the store cannot be read.
        """
        reading = asyncio.ensure_future(asyncio.to_thread(self._read, job))
        try:
            return await asyncio.shield(reading)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await reading
            raise

    def _read(self, job: Job) -> tuple[list[Task], Review]:
        """In a thread (it reads the store and replays the match), giving up when the review was stopped.

        :raises ReviewError: when the store cannot be read.
        :raises Stopped: when the review was stopped.
        """
        try:
            summary = self.store.summary(job.match_id)
            if job.stopped:
                raise Stopped
            record = self.store.record(job.match_id)
        except StoreError as exc:
            raise ReviewError("store", str(exc), 503) from None
        if job.stopped:
            raise Stopped
        tasks = tasks_of(summary, record, (job.seat,), self.settings)
        unit = unit_of(record.rules, record.players)
        return tasks, Review(summary.id, (job.seat,), summary.names, unit, self.settings, ())

    def _kept(self, match_id: int, seat: int) -> dict[str, Any] | None:
        try:
            return self.kept.get(match_id, self.key(seat))
        except StoreError as exc:
            raise ReviewError("store", str(exc), 503) from None

    async def _run(self, job: Job) -> None:
        """Read the seat's decisions, review them one after another in a worker, within ``review_seconds``
        from then; keep the review."""
        loop = asyncio.get_running_loop()
        done: list[Decision] = []
        try:
            tasks, review = await self._prepare(job)
            job.total = len(tasks)
            job.ready.set()
            until = loop.time() + self.limits.review_seconds
            async with self.slots.slot() as slot:
                for task in tasks:
                    left = until - loop.time()
                    if left <= 0:
                        raise TimeoutError
                    done.append(await asyncio.wait_for(self._decide(slot, task), left))
                    job.done = len(done)
            job.keeping = True
            data = replace(review, decisions=tuple(done)).to_dict()
            await asyncio.to_thread(self.kept.keep, job.match_id, self.key(job.seat), data)
        except ReviewError as exc:
            job.error, job.code = str(exc), exc.code
        except TimeoutError:
            job.error = (
                f"the review did not finish in the time this server allows ({self.limits.review_seconds:g} s): "
                "nothing was kept; a shorter match reviews in time"
            )
        except WorkerLost:
            log.error("eights: the review of match %s stopped: its worker process died twice", job.match_id)
            job.error = "the review stopped: its worker process on the server died; nothing was kept, try again later"
        except StoreError as exc:
            job.error = f"the review could not be kept: {exc}"
        except Exception as exc:  # logged without the exception's words, which may name cards
            log.error("eights: the review of match %s failed (%s)", job.match_id, type(exc).__name__)
            job.error = "the review failed on the server: nothing was kept"
        else:
            del self.jobs[(job.match_id, job.seat)]

    async def _decide(self, slot: int, task: Task) -> Decision:
        """One decision reviewed in the slot's worker process (started when first needed); given to a fresh
        one when its worker dies. A review stopped (or past its time) meanwhile stops the worker.

        :raises WorkerLost: when the workers died ``RETRIES + 1`` times, or none can start.
        """
        for _ in range(RETRIES + 1):
            worker = self.slots.worker(slot)
            if worker is None:
                raise WorkerLost
            exchange = asyncio.ensure_future(self.slots.exchange(_exchange, worker, task))
            try:
                reply = await asyncio.shield(exchange)
            except asyncio.CancelledError:
                self.slots.forget(slot)
                worker.terminate()
                with contextlib.suppress(Exception):
                    await exchange  # its thread ends as its worker's pipe closes; the slot is free only then
                raise
            if reply[0] == "ok":
                decision: Decision = reply[1]
                return decision
            if reply[0] == "error":
                log.error("eights: a review worker's decision failed (%s)", reply[1])
                raise RuntimeError("the review's decision failed in its worker")
            self.slots.forget(slot)  # died: the next try starts a fresh worker
            log.warning("eights: a review worker died; its decision is made again by a fresh one")
        raise WorkerLost

    async def close(self) -> None:
        """Stop every review under way (nothing of them is kept) and the workers, busy or not."""
        for job in self.live:
            job.task.cancel()
        self.jobs.clear()
        await self.slots.aclose()


class WorkerLost(RuntimeError):
    """A review's worker processes died (or could not start) as often as a decision may be tried."""


def _serve_reviews(conn: Connection) -> None:
    """A review worker's life: say it is ready, then answer each ``Task`` with ("ok", its ``Decision``) or
    ("error", the exception's kind: its words may name cards), until the server hangs up or is gone."""
    worker_start()
    conn.send("ready")
    while True:
        try:
            task: Task = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[Any, ...] = ("ok", review_decision(task))
        except Exception as exc:
            reply = ("error", type(exc).__name__)
        conn.send(reply)


def _exchange(worker: Worker, task: Task) -> tuple[Any, ...]:
    """In a thread: the worker's reply to ``task``, or ("lost",) when it died (or was stopped) first."""
    try:
        if not worker.started():
            return ("lost",)
        worker.conn.send(task)
        reply: tuple[Any, ...] = worker.conn.recv()
        return reply
    except (EOFError, OSError):
        worker.stop(GRACE)
        return ("lost",)


def review_json(data: dict[str, Any], rules: RuleSet, seat: int) -> dict[str, Any]:
    """A kept review of ``seat``'s, for the page: each decision with the table as the seat saw it (the fields
    the table's drawing reads: ``tableview.table_json``'s), and the cards of the move played and of the best."""
    names = list(data["names"])
    decisions = []
    for decision in data["decisions"]:
        where = decision["position"]
        table = {
            "seat": seat,
            "names": names,
            "round": decision["round"],
            "rounds": where.get("rounds"),
            "dealer": where.get("dealer", 0),
            "hand_size": where.get("hand_size", len(where["hand"])),
            "hand": [card_json(card) for card in sorted_hand(Card.parse(code) for code in where["hand"])],
            "counts": where["hand_counts"],
            "top": card_json(Card.parse(where["top"])),
            "active_suit": where["active_suit"],
            "suit_named": where.get("suit_named", False),
            "direction": where["direction"],
            "to_act": seat,
            "stock": where["stock"],
            "totals": where.get("totals", [0] * len(names)),
            "score_keeping": rules.score_keeping,
            "lowest_wins": rules.lowest_wins,
            "pending": where["pending"],
            "teams": where.get("teams", []),
            "result": None,
        }
        decisions.append(
            {
                **{key: decision[key] for key in ("number", "round", "turn", "played", "best", "cost", "spread")},
                **{key: decision[key] for key in ("choices", "played_words", "best_words", "mistake")},
                "played_cards": cards_of(decision["played"]),
                "best_cards": cards_of(decision["best"]),
                "table": table,
            }
        )
    return {
        "state": "done",
        "seat": seat,
        "unit": data["unit"],
        "settings": data["settings"],
        "decisions": decisions,
        "mistakes": data["mistakes"],
        "rounds": data["rounds"],
    }


def cards_of(action: str) -> list[str]:
    """The cards of the hand a move (as text) plays or buries: none for a draw, a pass, a suit named."""
    move = parse_action(action)
    if isinstance(move, Play):
        return [str(move.card), *(str(c) for c in move.stack)]
    return [str(move.card)] if isinstance(move, Bury) else []
