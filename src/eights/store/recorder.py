"""A match's log in the store: each action committed as it is played (a person's before it is applied,
a computer-only match's behind play), and read back when its keeping was not known."""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError, SQLAlchemyError

from eights.engine import Action, Event
from eights.engine.events import GameOver, RoundOver
from eights.store.batch import Batch, Slot
from eights.store.db import Fenced, StoreError, now, problem, translated
from eights.store.models import ActionRow

#: A match of computers only commits its actions at least this often (seconds): see ``Recorder``.
GROUP_SECONDS = 0.2

if TYPE_CHECKING:
    from eights.store.matches import Store


class Unsure(StoreError):
    """The store's answer to a write was lost (the connection broke, perhaps after COMMIT): whether the
    action was kept is known only once the store answers again (``Recorder.recall``)."""


class Recorder:
    """A session's ``MatchLog``: every action committed, with any round or match it ended.

    A match with a person at it is in the store from its start and keeps each action before it is
    applied (``ahead``): the action goes to the store's writer (``eights.store.writer``), whose
    thread commits it, with whatever other matches handed over meanwhile, in one transaction, and
    the session applies it once the future says it is durable. Nothing a person did or saw is lost,
    and a move the store did not take leaves the table as it was. Each write carries the action's
    number: a retry after a lost answer finds its own row and counts it as kept, and a write whose
    answer is lost altogether leaves the recorder unsure until ``recall`` reads what was kept.

    A match of computers only (``grouped``) keeps its actions (and the rounds they end) until
    ``GROUP_SECONDS`` have passed since it last handed them over, the match ends, or the store is
    closed, and then hands them to the writer's threads, which commit them while the match plays on;
    its row and seats go with its first actions. Played at a pace someone can follow, that is still
    every action at once; played flat out, a killed process loses at most that fraction of a second
    of computer play (and what the thread had not committed yet), which nobody chose and the
    computers play again when the match is taken up. Committing each action before the next slowed
    such a match by half on SQLite and four times on PostgreSQL (bench/store.py). An error the thread
    meets is raised at the match's next action.
    """

    def __init__(
        self,
        store: Store,
        match_id: int | None = None,
        grouped: bool = False,
        match: dict[str, Any] | None = None,
        seats: Sequence[tuple[str, str]] = (),
    ) -> None:
        """A match already in the store has its ``match_id``; a new one gives its row and seats (the
        writer gives it its number)."""
        self.store = store
        self.slot = Slot(match_id)
        self.grouped = grouped
        self.ahead = not grouped
        #: The match's row and seats, until they are handed to the writer.
        self.match = match
        self.seats = seats
        #: The actions (the first of them action number ``first``) and the round and match
        #: ends not handed to the writer yet.
        self.pending: list[Action] = []
        self.first = 1
        self.ends: list[RoundOver | GameOver] = []
        self.committed_at = time.monotonic()
        #: Whether the writer's error has been raised to the match's player already.
        self.told = False
        #: The number of an action handed over whose keeping is not known (its answer was lost).
        self.doubt: int | None = None
        #: The web room whose match this is and its owner's fence, when many instances serve the store:
        #: each write is then refused (``Fenced``) once another instance has taken the room over. Only
        #: for a person's match (its writes are waited for, and their refusal told to the caller).
        self.fence: tuple[str, int] | None = None
        if grouped:  # it holds actions back: the store's close hands them over
            store.recorders.add(self)

    @property
    def match_id(self) -> int:
        """The match's number in the store (a computer-only match's row is written now, if not yet).

        :raises StoreError: when its row cannot be written.
        """
        if self.slot.id is None:
            self.flush()
            self.slot.written.wait()
            self.check()
        assert self.slot.id is not None
        return self.slot.id

    def keep(self, number: int, action: Action, events: Sequence[Event]) -> Future[None]:
        """Keep action ``number``: a person's match hands it to the writer now and the future says when
        it is durable (or why not: ``Fenced``, another ``StoreError``, ``Unsure``); a computer-only match
        holds it for its next commit, behind play (the future is done at once).

        :raises Unsure: while an earlier action's keeping is not known (``recall`` first).
        """
        if self.grouped:
            self._hold(number, action, events)
            return _KEPT
        if self.doubt is not None:
            raise Unsure(f"whether action {self.doubt} was saved is not known yet: the table waits for the store")
        batch = self._batch([action], number, events)
        text = str(action)
        batch.stored = lambda: self._stored(number, text)
        kept: Future[None] = Future()
        done: Future[None] = Future()
        batch.done = done
        done.add_done_callback(lambda _: self._answered(number, done, kept))
        self.store.writer.submit(batch)
        return kept

    def _answered(self, number: int, done: Future[None], kept: Future[None]) -> None:
        """The writer's answer for action ``number``, in the player's words."""
        error = done.exception()
        if error is None:
            kept.set_result(None)
        elif isinstance(error, Fenced):
            kept.set_exception(error)
        elif isinstance(error, IntegrityError):
            kept.set_exception(self._taken())
        elif isinstance(error, DBAPIError) and not _refused(error):
            self.doubt = number  # its answer was lost on the way: perhaps it was kept
            kept.set_exception(Unsure(f"the move could not be saved just now ({problem(self.store.url, error)})"))
        else:
            assert isinstance(error, SQLAlchemyError)
            kept.set_exception(problem(self.store.url, error))

    def unsure(self) -> bool:
        return self.doubt is not None

    def recall(self) -> list[str]:
        """The actions kept from the one whose keeping was not known, as text; the recorder is sure again.

        :raises StoreError: while the store cannot be read.
        """
        number = self.doubt
        if number is None:
            return []
        with translated(self.store.url), self.store.engine.connect() as connection:
            kept = connection.scalars(
                select(ActionRow.action)
                .where(ActionRow.match_id == self.slot.id, ActionRow.number >= number)
                .order_by(ActionRow.number)
            ).all()
        self.doubt = None
        return list(kept)

    def _hold(self, number: int, action: Action, events: Sequence[Event]) -> None:
        # Called for every action of every match played flat out: the least work that keeps it.
        if self.slot.error is not None:
            self.check()
        if not self.pending:
            self.first = number
        self.pending.append(action)
        for event in events:
            if isinstance(event, RoundOver | GameOver):
                self.ends.append(event)
                if isinstance(event, GameOver):
                    self.flush()
                    return
        if time.monotonic() - self.committed_at >= GROUP_SECONDS:
            self.flush()

    def flush(self) -> None:
        """Hand over the actions held back, with the rounds and the match they ended (``Store.close``
        calls it); a person's match writes its row and seats before this returns.

        :raises StoreError: when a person's match cannot be saved.
        """
        if not self.pending and self.match is None:
            return
        batch = self._batch(self.pending, self.first, self.ends)
        if self.grouped:
            self.store.writer.submit(batch)
        else:
            try:
                with translated(self.store.url, IntegrityError):
                    self.store.writer.write([batch])
            except IntegrityError:
                raise self._taken() from None
        self.match, self.seats, self.pending, self.ends = None, (), [], []
        self.committed_at = time.monotonic()

    def check(self) -> None:
        """:raises StoreError: for the error the writer's threads met saving this match (every time:
        what came after it is not saved either)."""
        error = self.slot.error
        if error is None:
            return
        self.told = True
        if isinstance(error, IntegrityError):
            raise self._taken()
        raise problem(self.store.url, error)

    def _batch(self, actions: Sequence[Action], first: int, events: Sequence[Event]) -> Batch:
        """The batch of ``actions`` (the first of them number ``first``), with the rounds and the match
        that ``events`` end, and the match's row and seats if they are not written yet."""
        rounds = [
            {
                "round": event.round,
                "reason": event.reason,
                "winners": list(event.winners),
                "points": list(event.points),
                "totals": list(event.totals),
            }
            for event in events
            if isinstance(event, RoundOver)
        ]
        finish = None
        for event in events:
            if isinstance(event, GameOver):
                finish = {
                    "status": "finished",
                    "finished_at": now(),
                    "winners": list(event.winners),
                    "totals": list(event.totals),
                }
        match = self.match
        if match is not None and finish is not None:  # a match over before its first commit: one row
            match, finish = {**match, **finish}, None
        return Batch(
            self.slot,
            match,
            self.seats,
            actions,
            first,
            rounds,
            finish,
            unhurried=self.grouped,
            fence=self.fence,
        )

    def _taken(self) -> StoreError:
        match = "this match" if self.slot.id is None else f"match {self.slot.id}"
        return StoreError(f"{match} was played on elsewhere (another eights took it up); this one is no longer saved")

    def _stored(self, number: int, text: str) -> bool:
        with self.store.engine.connect() as connection:
            found = connection.scalar(
                select(ActionRow.action).where(ActionRow.match_id == self.slot.id, ActionRow.number == number)
            )
        return found == text

    def where(self) -> str | None:
        try:
            return f"match {self.match_id} in {self.store.label}"
        except StoreError:
            return None


#: What a log that keeps behind play answers at once.
_KEPT: Future[None] = Future()
_KEPT.set_result(None)


def _refused(error: DBAPIError) -> bool:
    """Whether the database refused a write outright (so nothing of it was kept), as opposed to an answer
    lost on the way (the connection broken, the server gone), after which it may have been kept."""
    return not error.connection_invalidated and not isinstance(error, OperationalError | InterfaceError)
