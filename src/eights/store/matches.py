"""The match repository: saving matches action by action, taking them up again, history and stats."""

from __future__ import annotations

import time
import weakref
from collections.abc import Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine, delete, func, select, update
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session as DbSession

from eights.engine import Action, Event, Game
from eights.engine.events import GameOver, RoundOver
from eights.record import GameRecord
from eights.rules import RulesError, RuleSet
from eights.store.db import WRITE_FIRST, Fenced, StoreError, label, make_engine, migrate, problem, translated
from eights.store.models import ActionRow, Match, ReviewRow, RoomRow, RoundRow, Setting
from eights.store.writer import Batch, Slot, Writer
from eights.table import HUMAN, PlayConfig, RestoreError, Session, UsageError

#: Settings keys.
LAST_SETUP = "last_setup"
PEOPLE = "people"


def now() -> datetime:
    return datetime.now(UTC)


def naive(moment: datetime) -> datetime:
    """A UTC time without its zone (SQLite gives times back without one, PostgreSQL with)."""
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo is not None else moment


def rule_changes(rules: RuleSet) -> tuple[str, ...]:
    """What ``rules`` changes in its preset, as ``--option`` text: ``("stacking=true",)``."""
    return tuple(rules.changes()[1])


@dataclass(frozen=True)
class MatchSummary:
    """One saved match, for lists: when, which rules, who, and how it stands or ended."""

    id: int
    started_at: datetime
    finished_at: datetime | None
    variant: str
    changes: tuple[str, ...]
    names: tuple[str, ...]
    players: tuple[str, ...]
    finished: bool
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    rounds: int
    actions: int
    score_keeping: bool

    @property
    def rules_text(self) -> str:
        return self.variant + (f" ({', '.join(self.changes)})" if self.changes else "")

    def seat_label(self, seat: int) -> str:
        who = self.players[seat]
        return self.names[seat] if who == HUMAN else f"{self.names[seat]} ({who})"

    @property
    def result_text(self) -> str:
        if not self.finished:
            return f"unfinished, after {self.actions} action{'' if self.actions == 1 else 's'}"
        who = " and ".join(self.names[s] for s in self.winners)
        return f"{who} won" + (" (shared)" if len(self.winners) > 1 else "")

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "started_at": self.started_at.isoformat(),
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
            "variant": self.variant,
            "options": list(self.changes),
            "players": [
                {"seat": seat, "name": name, "player": who}
                for seat, (name, who) in enumerate(zip(self.names, self.players, strict=True))
            ],
            "finished": self.finished,
            "winners": list(self.winners),
            "winner_names": [self.names[s] for s in self.winners],
            "totals": list(self.totals),
            "rounds": self.rounds,
            "actions": self.actions,
        }


@dataclass
class PlayerStats:
    """A person (by name) or a computer player (by level) across finished matches."""

    who: str
    kind: str  # "person" or "computer"
    matches: int = 0
    wins: int = 0
    rounds: int = 0
    points: int = 0
    #: (match id, final total), by the rules' own measure of better; None where no score is kept.
    best: tuple[int, int] | None = None
    worst: tuple[int, int] | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0

    @property
    def points_per_round(self) -> float | None:
        return self.points / self.rounds if self.rounds else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "who": self.who,
            "kind": self.kind,
            "matches": self.matches,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "rounds": self.rounds,
            "points_per_round": None if self.points_per_round is None else round(self.points_per_round, 2),
            "best": {"match": self.best[0], "total": self.best[1]} if self.best else None,
            "worst": {"match": self.worst[0], "total": self.worst[1]} if self.worst else None,
        }


#: A match of computers only commits its actions at least this often (seconds): see ``Recorder``.
GROUP_SECONDS = 0.2


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
    closed, and then hands them to the writer's thread, which commits them while the match plays on;
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
        """:raises StoreError: for the error the writer's thread met saving this match (every time:
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


class Store:
    """A database of matches and settings. Opening it brings its schema up to date.

    :raises StoreError: (from the constructor and every method) naming the database and what to do.
    """

    def __init__(self, url: URL) -> None:
        self.url = url
        self.label = label(url)
        self.engine: Engine = make_engine(url)
        migrate(self.engine, url)
        self.writer = Writer(self.engine)
        #: The recorders of the computer-only matches this store is saving (they may hold actions back).
        self.recorders: weakref.WeakSet[Recorder] = weakref.WeakSet()

    def close(self) -> None:
        """Commit what any match holds back, and let go of the database.

        :raises StoreError: when a computer-only match's last actions could not be saved (and no one
            was told yet).
        """
        try:
            recorders = list(self.recorders)
            for recorder in recorders:
                recorder.flush()
            self.writer.settle()
            for recorder in recorders:
                if not recorder.told:
                    recorder.check()
        finally:
            self.writer.close()
            self.engine.dispose()

    def _session(self) -> DbSession:
        """A session to read (or change) what is saved: what the writer's thread holds is committed first."""
        self.writer.settle()
        return DbSession(self.engine, expire_on_commit=False)

    # ----- playing -----------------------------------------------------------------------------------------

    def start(self, config: PlayConfig, game: Game | None = None) -> Session:
        """A new session for ``config``, saved from its deal on.

        :raises RulesError: when the rules cannot seat the players.
        """
        session = Session(config, game)
        kept = replace(config, seed=session.game.seed)
        match = {
            "started_at": now(),
            "finished_at": None,
            "variant": config.rules.name,
            "players": config.players,
            "seed": session.game.seed,
            "config": kept.to_dict(),
            "status": "playing",
            "winners": None,
            "totals": None,
        }
        seats = tuple(zip(session.names, config.seats, strict=True))
        recorder = Recorder(self, grouped=HUMAN not in config.seats, match=match, seats=seats)
        # A game handed in (a puzzle, a test) may already hold actions: keep them too.
        recorder.pending = list(session.game.actions)
        if not recorder.grouped:
            recorder.flush()  # a person's match is in the store before its first action
        session.log = recorder
        return session

    def resume(self, match_id: int) -> Session:
        """The saved match ``match_id``, its actions played again, to go on where it stopped.

        :raises StoreError: when there is no such match, it is over, or its record no longer replays.
        """
        with translated(self.url), self._session() as db:
            match = db.get(Match, match_id)
            if match is None:
                raise StoreError(f"there is no match {match_id} in {self.label}; `eights history` lists them")
            if match.status == "finished":
                raise StoreError(f"match {match_id} is over; `eights history show {match_id}` shows how it went")
            actions = db.scalars(
                select(ActionRow.action).where(ActionRow.match_id == match_id).order_by(ActionRow.number)
            ).all()
        try:
            config = PlayConfig.from_dict(match.config)
            return Session.restore(config, actions, Recorder(self, match_id, grouped=HUMAN not in config.seats))
        except (RestoreError, RulesError, UsageError) as exc:
            raise StoreError(
                f"match {match_id} in {self.label} cannot be taken up: {exc}. It is kept as it is; "
                f"`eights history show {match_id} --export FILE` saves its record"
            ) from None

    def session(self, match_id: int) -> Session:
        """The saved match as a session: an unfinished one goes on saving; a finished one is only shown.

        :raises StoreError: when there is no such match or it no longer replays.
        """
        summary = self.summary(match_id)
        if not summary.finished:
            return self.resume(match_id)
        record = self.record(match_id)
        with translated(self.url), self._session() as db:
            match = db.get(Match, match_id)
            assert match is not None
            data = match.config
        try:
            return Session.restore(PlayConfig.from_dict(data), record.actions)
        except (RestoreError, RulesError, UsageError) as exc:
            raise StoreError(f"match {match_id} in {self.label} no longer replays: {exc}") from None

    def last_unfinished(self) -> int | None:
        """The most recently started match that is not over."""
        with translated(self.url), self._session() as db:
            return db.scalar(select(func.max(Match.id)).where(Match.status == "playing"))

    def resume_last(self) -> Session | None:
        match_id = self.last_unfinished()
        return None if match_id is None else self.resume(match_id)

    def unfinished_words(self, limit: int = 9) -> list[tuple[int, str]]:
        """The unfinished matches, newest first (at most ``limit``), each with its number and a few words,
        for the choice "Continue" offers: ``match 3: race with You, Ada (easy), started 26 Nov 10:54, 12 moves in``.
        """
        with translated(self.url), self._session() as db:
            ids = db.scalars(
                select(Match.id).where(Match.status == "playing").order_by(Match.id.desc()).limit(limit)
            ).all()
        found = []
        for match_id in ids:
            summary = self.summary(match_id)
            who = ", ".join(summary.seat_label(s) for s in range(len(summary.names)))
            when = summary.started_at.astimezone().strftime("%d %b %H:%M")
            moves = f"{summary.actions} move{'' if summary.actions == 1 else 's'} in"
            found.append((match_id, f"match {match_id}: {summary.rules_text} with {who}, started {when}, {moves}"))
        return found

    def abandon(self, match_id: int) -> None:
        """Forget a match (its actions and rounds too)."""
        self.writer.settle()
        with translated(self.url), self.engine.begin() as connection:
            connection.execute(delete(Match).where(Match.id == match_id))

    # ----- settings ----------------------------------------------------------------------------------------

    def setting(self, key: str) -> Any:
        with translated(self.url), self._session() as db:
            row = db.get(Setting, key)
            return None if row is None else row.value

    def set_setting(self, key: str, value: Any) -> None:
        with translated(self.url), DbSession(self.engine.execution_options(**{WRITE_FIRST: True})) as db, db.begin():
            row = db.get(Setting, key)
            if row is None:
                db.add(Setting(key=key, value=value))
            else:
                row.value = value

    def next_epoch(self, key: str) -> int:
        """Count the setting ``key`` up by one and give its new value: one at a time, whichever process or
        instance asks (the row is locked), so that no two are ever given the same."""
        for _ in range(3):  # two first counts at once: one row is made, the other tries again
            try:
                with DbSession(self.engine.execution_options(**{WRITE_FIRST: True})) as db, db.begin():
                    row = db.scalars(select(Setting).where(Setting.key == key).with_for_update()).first()
                    if row is None:
                        db.add(Setting(key=key, value=1))
                        return 1
                    row.value = int(row.value or 0) + 1
                    return int(row.value)
            except IntegrityError:
                continue
            except SQLAlchemyError as exc:
                raise problem(self.url, exc) from None
        raise StoreError(f"the count {key!r} in {self.label} could not be moved on: try again")

    def remember_setup(self, config: PlayConfig) -> None:
        """The new-game settings and the people's names, for the next game."""
        data = config.to_dict()
        data["seed"] = None
        self.set_setting(LAST_SETUP, data)
        if config.people:
            self.set_setting(PEOPLE, list(config.people))

    def last_setup(self) -> PlayConfig | None:
        """The last new game's settings, or None (also when they no longer make a table)."""
        data = self.setting(LAST_SETUP)
        if not isinstance(data, dict):
            return None
        try:
            return PlayConfig.from_dict(data)
        except (RulesError, UsageError):
            return None

    def people(self) -> tuple[str, ...]:
        """The people's names last given."""
        names = self.setting(PEOPLE)
        return tuple(str(n) for n in names) if isinstance(names, list) else ()

    # ----- history -----------------------------------------------------------------------------------------

    def _summaries(self, db: DbSession, matches: Sequence[Match]) -> list[MatchSummary]:
        ids = [m.id for m in matches]
        counts = dict(
            db.execute(
                select(ActionRow.match_id, func.count()).where(ActionRow.match_id.in_(ids)).group_by(ActionRow.match_id)
            ).all()
        )
        rounds = dict(
            db.execute(
                select(RoundRow.match_id, func.count()).where(RoundRow.match_id.in_(ids)).group_by(RoundRow.match_id)
            ).all()
        )
        out = []
        for match in matches:
            rules_data = match.config.get("rules", {})
            try:
                rules = RuleSet.from_dict(rules_data)
                changes = rule_changes(rules)
                scored = rules.score_keeping
            except RulesError:
                changes, scored = ("rules no longer valid",), False
            out.append(
                MatchSummary(
                    id=match.id,
                    started_at=_utc(match.started_at),
                    finished_at=_utc(match.finished_at) if match.finished_at else None,
                    variant=match.variant,
                    changes=changes,
                    names=tuple(s.name for s in match.seats),
                    players=tuple(s.player for s in match.seats),
                    finished=match.status == "finished",
                    winners=tuple(match.winners or ()),
                    totals=tuple(match.totals or ()),
                    rounds=rounds.get(match.id, 0),
                    actions=counts.get(match.id, 0),
                    score_keeping=scored,
                )
            )
        return out

    def matches(self, limit: int | None = None) -> list[MatchSummary]:
        """Saved matches, the newest first."""
        with translated(self.url), self._session() as db:
            query = select(Match).order_by(Match.id.desc())
            if limit is not None:
                query = query.limit(limit)
            return self._summaries(db, db.scalars(query).all())

    def summary(self, match_id: int) -> MatchSummary:
        """:raises StoreError: when there is no such match."""
        with translated(self.url), self._session() as db:
            match = db.get(Match, match_id)
            if match is None:
                raise StoreError(f"there is no match {match_id} in {self.label}; `eights history` lists them")
            return self._summaries(db, [match])[0]

    def record(self, match_id: int) -> GameRecord:
        """The match's record, as ``eights replay`` reads it (finished or not).

        :raises StoreError: when there is no such match, or its table is no longer valid.
        """
        with translated(self.url), self._session() as db:
            match = db.get(Match, match_id)
            if match is None:
                raise StoreError(f"there is no match {match_id} in {self.label}; `eights history` lists them")
            actions = db.scalars(
                select(ActionRow.action).where(ActionRow.match_id == match_id).order_by(ActionRow.number)
            ).all()
            names = tuple(s.name for s in match.seats)
        try:
            config = PlayConfig.from_dict(match.config)
            dealt = Game(config.rules, config.players, match.seed)
        except (RulesError, UsageError) as exc:
            raise StoreError(f"match {match_id}'s table is no longer valid: {exc}") from None
        finished = match.status == "finished"
        return GameRecord(
            rules=config.rules,
            players=config.players,
            seed=match.seed,
            dealer=dealt.first_dealer,
            deck=None,
            actions=tuple(actions),
            winners=tuple(match.winners) if finished and match.winners is not None else None,
            totals=tuple(match.totals) if finished and match.totals is not None else None,
            names=names,
        )

    def stats(self) -> list[PlayerStats]:
        """Per person (by name) and per computer player (by level), over finished matches: most matches first."""
        table: dict[tuple[str, str], PlayerStats] = {}
        with translated(self.url), self._session() as db:
            matches = db.scalars(select(Match).where(Match.status == "finished").order_by(Match.id)).all()
            round_rows = db.scalars(
                select(RoundRow).where(RoundRow.match_id.in_([m.id for m in matches])).order_by(RoundRow.round)
            ).all()
        by_match: dict[int, list[RoundRow]] = {}
        for row in round_rows:
            by_match.setdefault(row.match_id, []).append(row)
        for match in matches:
            try:
                rules = RuleSet.from_dict(match.config.get("rules", {}))
            except RulesError:
                continue
            winners = set(match.winners or ())
            for seat in match.seats:
                kind = "person" if seat.player == HUMAN else "computer"
                who = seat.name if kind == "person" else seat.player
                entry = table.setdefault((kind, who), PlayerStats(who, kind))
                entry.matches += 1
                entry.wins += seat.seat in winners
                if not rules.score_keeping:
                    continue
                for row in by_match.get(match.id, ()):
                    entry.rounds += 1
                    entry.points += int(row.points[seat.seat])
                total = int((match.totals or [])[seat.seat])
                # Lower totals are better where the lowest wins: compare the negated totals there.
                sign = -1 if rules.lowest_wins else 1
                if entry.best is None or sign * total > sign * entry.best[1]:
                    entry.best = (match.id, total)
                if entry.worst is None or sign * total < sign * entry.worst[1]:
                    entry.worst = (match.id, total)
        return sorted(table.values(), key=lambda s: (s.kind != "person", -s.matches, s.who))


def _utc(moment: datetime) -> datetime:
    """SQLite gives back naive times; every time stored is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


# ----- rooms of the web table ------------------------------------------------------------------------------


@dataclass(frozen=True)
class SavedRoom:
    code: str
    phase: str
    data: dict[str, Any]
    match_id: int | None
    #: When the room last changed or had someone in it (UTC, without a zone).
    updated_at: datetime
    #: The fence of the instance that owns it, when many serve the store (``Rooms.take``).
    fence: int | None = None


def _saved(row: RoomRow) -> SavedRoom:
    return SavedRoom(row.code, row.phase, row.data, row.match_id, naive(row.updated_at), row.fence)


class Rooms:
    """The web table's rooms in a store: saved as they change, read back when the server starts."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def save(self, code: str, phase: str, data: dict[str, Any], match_id: int | None, fence: int | None = None) -> None:
        """Write the room (a new one, or over what was saved). ``fence``: its owner's, when many instances
        serve the store; a new room is made with it.

        :raises Fenced: when the saved room carries another fence (another instance took it over).
        """
        store = self.store
        with translated(store.url), DbSession(store.engine.execution_options(**{WRITE_FIRST: True})) as db, db.begin():
            row = db.scalars(select(RoomRow).where(RoomRow.code == code).with_for_update()).first()
            if row is None:
                db.add(
                    RoomRow(
                        code=code,
                        created_at=now(),
                        updated_at=now(),
                        phase=phase,
                        data=data,
                        match_id=match_id,
                        fence=fence,
                    )
                )
            elif fence is not None and row.fence != fence:
                raise Fenced(f"room {code} is served by another instance now; this one's change was not saved")
            else:
                row.updated_at, row.phase, row.data, row.match_id = now(), phase, data, match_id

    def get(self, code: str) -> SavedRoom | None:
        """The saved room ``code``, if there is one."""
        with translated(self.store.url), DbSession(self.store.engine) as db:
            row = db.get(RoomRow, code)
            return None if row is None else _saved(row)

    def take(self, code: str, fence: int) -> SavedRoom | None:
        """Give the saved room ``code`` a new owner's ``fence`` (newer than any before: ``Store.next_epoch``),
        so that its last owner's writes are refused from now on; the room as saved, or None when there is none.
        A write of the last owner's that began before is over (the row is locked) and read here."""
        with translated(self.store.url), DbSession(self.store.engine) as db, db.begin():
            row = db.scalars(select(RoomRow).where(RoomRow.code == code).with_for_update()).first()
            if row is None:
                return None
            row.fence = fence
            return _saved(row)

    def exists(self, code: str) -> bool:
        with translated(self.store.url), DbSession(self.store.engine) as db:
            return db.get(RoomRow, code) is not None

    def all(self) -> list[SavedRoom]:
        """Every saved room, the oldest first."""
        with translated(self.store.url), DbSession(self.store.engine) as db:
            rows = db.scalars(select(RoomRow).order_by(RoomRow.created_at)).all()
            return [_saved(r) for r in rows]

    def unused(self, lifetimes: Mapping[str, float]) -> list[str]:
        """The codes of the rooms not used for longer than their phase's lifetime (``lifetimes``: seconds
        by phase; a phase not named never expires here)."""
        moment = naive(now())
        with translated(self.store.url), DbSession(self.store.engine) as db:
            found: list[str] = []
            for phase, seconds in lifetimes.items():
                before = moment - timedelta(seconds=seconds)
                found += db.scalars(
                    select(RoomRow.code).where(RoomRow.phase == phase, RoomRow.updated_at < before)
                ).all()
            return found

    def touch(self, codes: Sequence[str]) -> None:
        """Mark the rooms ``codes`` as used now (someone was in them), so that they do not expire."""
        if codes:
            with translated(self.store.url), DbSession(self.store.engine) as db, db.begin():
                db.execute(update(RoomRow).where(RoomRow.code.in_(codes)).values(updated_at=now()))

    def delete(self, codes: Sequence[str]) -> None:
        """Forget the rooms ``codes`` (expired); their matches stay in the store's history."""
        if codes:
            with translated(self.store.url), DbSession(self.store.engine) as db, db.begin():
                db.execute(delete(RoomRow).where(RoomRow.code.in_(codes)))


class Reviews:
    """Reviews of finished matches (``eights review``), kept by match and by what they looked at."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def get(self, match_id: int, key: str) -> dict[str, Any] | None:
        """The review of ``match_id`` made with ``key`` (its seats and settings), if one was kept."""
        with translated(self.store.url), DbSession(self.store.engine) as db:
            row = db.scalars(select(ReviewRow).where(ReviewRow.match_id == match_id, ReviewRow.key == key)).first()
            return None if row is None else row.data

    def keep(self, match_id: int, key: str, data: dict[str, Any]) -> None:
        """Keep a review (in place of one made before with the same ``key``)."""
        with translated(self.store.url), DbSession(self.store.engine) as db, db.begin():
            db.execute(delete(ReviewRow).where(ReviewRow.match_id == match_id, ReviewRow.key == key))
            db.add(ReviewRow(match_id=match_id, key=key, created_at=now(), data=data))
