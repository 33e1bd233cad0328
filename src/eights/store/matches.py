"""The match repository: saving matches action by action, taking them up again, history and stats."""

from __future__ import annotations

import contextlib
import functools
import threading
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Engine, Table, bindparam, delete, event, func, insert, select, text, update
from sqlalchemy.engine import URL, Connection, Dialect
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.pool import NullPool, QueuePool
from sqlalchemy.sql.compiler import SQLCompiler

from eights.engine import Action, Event, Game
from eights.engine.events import GameOver, RoundOver
from eights.record import GameRecord
from eights.rules import RulesError, RuleSet
from eights.store.db import WRITE_FIRST, StoreError, label, make_engine, migrate, translated
from eights.store.models import ActionRow, Match, RoomRow, RoundRow, Seat, Setting
from eights.table import HUMAN, PlayConfig, RestoreError, Session, UsageError

#: The tables that saving a match writes, as Core tables: statements on them skip the ORM's bulk
#: insert path, which costs more than the database's own work here.
MATCHES = cast(Table, Match.__table__)
SEATS = cast(Table, Seat.__table__)
ACTIONS = cast(Table, ActionRow.__table__)
ROUNDS = cast(Table, RoundRow.__table__)
#: The match's end: its result (a statement made once, its values bound at each use).
FINISH = update(MATCHES).where(MATCHES.c.id == bindparam("match"))
#: Many actions' rows in one statement on PostgreSQL, from two arrays.
ACTIONS_FROM_ARRAYS = text(
    f"INSERT INTO {ACTIONS.name} (match_id, number, action) SELECT :match, n, a "
    "FROM unnest(CAST(:numbers AS integer[]), CAST(:actions AS text[])) AS pending(n, a)"
)
#: An action's row, as the driver takes it where parameters are positional (SQLite).
ACTION_COLUMNS = ("match_id", "number", "action")

#: Settings keys.
LAST_SETUP = "last_setup"
PEOPLE = "people"


def now() -> datetime:
    return datetime.now(UTC)


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
            return f"unfinished, after {self.actions} actions"
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
#: The events that end a round or the match: their rows go with the action's.
_ENDS = (RoundOver, GameOver)


class Recorder:
    """A session's ``MatchLog``: every applied action committed, with any round or match it ended.

    A match with a person at it commits every action before the next is applied, so that nothing a
    person did or saw is lost. A match of computers only (``grouped``) keeps its actions (and the
    rounds they end) until ``GROUP_SECONDS`` have passed since its last commit, the match ends, or
    the store is closed, and commits them together: played at a pace someone can follow, that is
    still every action at once; played flat out, a killed process loses at most that fraction of a
    second of computer play, which nobody chose and the computers play again when the match is taken
    up. Committing each action slowed such a match by half (bench/store.py).

    An action that ends nothing in a match with a person (nearly all of them) is one ``INSERT``,
    committed on its own, on the store's writer: one connection of the engine's (opened by it, with
    its SQLite pragmas) that the store's recorders share, kept out of the pool, in autocommit, with
    the statement compiled once from the Core insert. That is one statement and one round trip per
    action, where a pool checkout, ``BEGIN``, ``INSERT``, ``COMMIT`` and SQLAlchemy's work per
    statement were before. Anything else is one transaction through the engine. A writer connection
    the server dropped is opened again, once per action.
    """

    def __init__(self, store: Store, match_id: int, grouped: bool = False) -> None:
        self.store = store
        self.match_id = match_id
        self.grouped = grouped
        #: A grouped match's actions not yet committed (with their numbers), and the round and match ends
        #: among them.
        self.pending: list[tuple[int, Action]] = []
        self.ends: list[RoundOver | GameOver] = []
        self.committed_at = time.monotonic()
        store.recorders.add(self)

    def applied(self, game: Game, action: Action, events: Sequence[Event]) -> None:
        number = len(game.actions)
        ends = [event for event in events if isinstance(event, _ENDS)]
        if not ends and not self.grouped:  # nearly every action of a match with a person
            try:
                self._insert(number, str(action))
            except IntegrityError:
                raise self._taken() from None
            return
        self.pending.append((number, action))
        self.ends.extend(ends)
        over = any(isinstance(event, GameOver) for event in ends)
        if not self.grouped or over or time.monotonic() - self.committed_at >= GROUP_SECONDS:
            self.flush()

    def flush(self) -> None:
        """Commit the actions held back, with the rounds and the match they ended, in one transaction
        (``Store.close`` calls it)."""
        if not self.pending:
            return
        match_id = self.match_id
        try:
            with translated(self.store.url, IntegrityError), self.store.engine.begin() as connection:
                if self.grouped:
                    _unhurried(connection)
                statement = _action_insert(connection.dialect)
                rows = [(match_id, number, str(action)) for number, action in self.pending]
                if tuple(statement.positiontup or ()) == ACTION_COLUMNS:
                    connection.exec_driver_sql(statement.string, rows)  # SQLite: the driver's executemany
                else:  # PostgreSQL: every row in one statement (the driver's executemany is one each)
                    connection.execute(
                        ACTIONS_FROM_ARRAYS,
                        {
                            "match": match_id,
                            "numbers": [number for _, number, _ in rows],
                            "actions": [text for _, _, text in rows],
                        },
                    )
                rounds = [
                    {
                        "match_id": match_id,
                        "round": event.round,
                        "reason": event.reason,
                        "winners": list(event.winners),
                        "points": list(event.points),
                        "totals": list(event.totals),
                    }
                    for event in self.ends
                    if isinstance(event, RoundOver)
                ]
                if rounds:
                    connection.execute(insert(ROUNDS), rounds)
                for event in self.ends:
                    if isinstance(event, GameOver):
                        connection.execute(
                            FINISH,
                            {
                                "match": match_id,
                                "status": "finished",
                                "finished_at": now(),
                                "winners": list(event.winners),
                                "totals": list(event.totals),
                            },
                        )
        except IntegrityError:
            raise self._taken() from None
        self.pending.clear()
        self.ends.clear()
        self.committed_at = time.monotonic()

    def _taken(self) -> StoreError:
        return StoreError(
            f"match {self.match_id} was played on elsewhere (another eights took it up); this one is no longer saved"
        )

    def _insert(self, number: int, text: str) -> None:
        """One action's row, committed, through the store's writer (or, where the engine's connections
        cannot be kept apart, in a transaction of its own through the engine)."""
        store = self.store
        values = {"match_id": self.match_id, "number": number, "action": text}
        with translated(store.url, IntegrityError):
            if not _keepable(store.engine):
                with store.engine.begin() as connection:
                    connection.execute(insert(ACTIONS), values)
                return
            writer, fresh = _writer(store.engine)
            try:
                writer.insert(values)
            except DBAPIError as exc:
                if fresh or not exc.connection_invalidated:
                    raise
                # The server dropped the connection (a restart, an idle timeout): once more on a new one.
                _close_writer(store.engine)
                try:
                    _writer(store.engine)[0].insert(values)
                except IntegrityError:
                    if not self._stored(number, text):
                        raise  # the lost attempt did not commit it: another eights did

    def _stored(self, number: int, text: str) -> bool:
        with self.store.engine.connect() as connection:
            found = connection.scalar(
                select(ActionRow.action).where(ActionRow.match_id == self.match_id, ActionRow.number == number)
            )
        return found == text

    def where(self) -> str:
        return f"match {self.match_id} in {self.store.label}"


def _keepable(engine: Engine) -> bool:
    """Whether a connection can be taken out of ``engine``'s pool for the writer: not where the pool
    shares one connection (an in-memory SQLite database lives in it)."""
    return isinstance(engine.pool, QueuePool | NullPool)


@functools.lru_cache(maxsize=8)
def _action_insert(dialect: Dialect) -> SQLCompiler:
    """The Core insert of one action's row, compiled once for ``dialect``."""
    compiled = insert(ACTIONS).compile(dialect=dialect, column_keys=list(ACTION_COLUMNS))
    assert isinstance(compiled, SQLCompiler)
    return compiled


def _unhurried(connection: Connection) -> None:
    """A computer-only match's transaction on PostgreSQL returns before the server has flushed it to
    disk (``synchronous_commit`` off, for this transaction only): a killed eights loses nothing the
    server took, and only a crash of the server's machine could cost its last fraction of a second
    (computer play, taken up again like any other). SQLite in WAL mode does not wait for the disk at
    a commit anyway."""
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql("SET LOCAL synchronous_commit TO OFF")


def _params(statement: SQLCompiler, values: dict[str, Any]) -> Any:
    """``values`` as the driver takes them for ``statement``: a tuple in its order, or the dict itself."""
    order = statement.positiontup
    return tuple(values[key] for key in order) if order is not None else values


class _Writer:
    """A DBAPI connection of the engine's (opened by it, with its pragmas), detached from its pool, in
    autocommit, and a cursor on it: each ``insert`` is a transaction of its own. One thread at a time."""

    def __init__(self, engine: Engine) -> None:
        self.dialect = engine.dialect
        self.statement = _action_insert(engine.dialect)
        self.error: type[Exception] = engine.dialect.loaded_dbapi.Error
        self.lock = threading.Lock()
        proxied = engine.raw_connection()
        connection: Any = proxied.driver_connection
        proxied.detach()
        try:
            engine.dialect.set_isolation_level(connection, "AUTOCOMMIT")
            self.cursor = connection.cursor()
        except self.error as exc:
            _close_quietly(connection)
            raise DBAPIError.instance(None, None, exc, self.error, dialect=self.dialect) from exc
        self.connection = connection
        # Closed when the writer goes (a garbage-collected engine) or at exit, if not before.
        self.close = weakref.finalize(self, _close_quietly, connection)

    def insert(self, values: dict[str, Any]) -> None:
        statement = self.statement
        params = _params(statement, values)
        try:
            with self.lock:
                self.cursor.execute(statement.string, params)
        except self.error as exc:
            invalidated = self.dialect.is_disconnect(cast(Any, exc), self.connection, self.cursor)
            raise DBAPIError.instance(
                statement.string, params, exc, self.error, connection_invalidated=invalidated, dialect=self.dialect
            ) from exc


def _close_quietly(connection: Any) -> None:
    """Close a DBAPI connection, live or already lost (not through its pool, which would roll back first)."""
    with contextlib.suppress(Exception):
        connection.close()


#: Each engine's writer, made at its first action; closed when the engine is disposed (``Store.close``).
_WRITERS: weakref.WeakKeyDictionary[Engine, _Writer] = weakref.WeakKeyDictionary()
_WRITERS_LOCK = threading.Lock()


def _writer(engine: Engine) -> tuple[_Writer, bool]:
    """``engine``'s writer, and whether it was opened just now.

    :raises DBAPIError: (SQLAlchemy's) when no connection can be opened.
    """
    with _WRITERS_LOCK:
        writer = _WRITERS.get(engine)
        if writer is not None:
            return writer, False
        writer = _WRITERS[engine] = _Writer(engine)
        if not event.contains(engine, "engine_disposed", _close_writer):
            event.listen(engine, "engine_disposed", _close_writer)
        return writer, True


def _close_writer(engine: Engine) -> None:
    with _WRITERS_LOCK:
        writer = _WRITERS.pop(engine, None)
    if writer is not None:
        writer.close()


class Store:
    """A database of matches and settings. Opening it brings its schema up to date.

    :raises StoreError: (from the constructor and every method) naming the database and what to do.
    """

    def __init__(self, url: URL) -> None:
        self.url = url
        self.label = label(url)
        self.engine: Engine = make_engine(url)
        migrate(self.engine, url)
        #: The recorders of the matches this store is saving (a grouped one may hold actions).
        self.recorders: weakref.WeakSet[Recorder] = weakref.WeakSet()

    def close(self) -> None:
        """Commit what any match holds back, and let go of the database."""
        try:
            for recorder in list(self.recorders):
                recorder.flush()
        finally:
            self.engine.dispose()

    def _session(self) -> DbSession:
        return DbSession(self.engine, expire_on_commit=False)

    # ----- playing -----------------------------------------------------------------------------------------

    def start(self, config: PlayConfig, game: Game | None = None) -> Session:
        """A new session for ``config``, saved from its deal on.

        :raises RulesError: when the rules cannot seat the players.
        """
        session = Session(config, game)
        kept = replace(config, seed=session.game.seed)
        grouped = HUMAN not in config.seats
        with translated(self.url), self.engine.begin() as connection:
            if grouped:
                _unhurried(connection)
            match_id: int = connection.execute(
                insert(MATCHES).returning(MATCHES.c.id),
                {
                    "started_at": now(),
                    "finished_at": None,
                    "variant": config.rules.name,
                    "players": config.players,
                    "seed": session.game.seed,
                    "config": kept.to_dict(),
                    "status": "playing",
                    "winners": None,
                    "totals": None,
                },
            ).scalar_one()
            connection.execute(
                insert(SEATS),
                [
                    {"match_id": match_id, "seat": seat, "name": name, "player": who}
                    for seat, (name, who) in enumerate(zip(session.names, config.seats, strict=True))
                ],
            )
            # A game handed in (a puzzle, a test) may already hold actions: keep them too.
            if session.game.actions:
                connection.execute(
                    insert(ACTIONS),
                    [
                        {"match_id": match_id, "number": number, "action": str(action)}
                        for number, action in enumerate(session.game.actions, 1)
                    ],
                )
        session.log = Recorder(self, match_id, grouped=grouped)
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

    def unfinished_words(self) -> str | None:
        """The last unfinished match in a few words, for a "Continue" choice; None when there is none."""
        match_id = self.last_unfinished()
        if match_id is None:
            return None
        summary = self.summary(match_id)
        who = ", ".join(summary.seat_label(s) for s in range(len(summary.names)))
        when = summary.started_at.astimezone().strftime("%d %b %H:%M")
        return f"{summary.rules_text} with {who}, started {when}, {summary.actions} moves in"

    def abandon(self, match_id: int) -> None:
        """Forget a match (its actions and rounds too)."""
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


class Rooms:
    """The web table's rooms in a store: saved as they change, read back when the server starts."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def save(self, code: str, phase: str, data: dict[str, Any], match_id: int | None) -> None:
        store = self.store
        with translated(store.url), DbSession(store.engine.execution_options(**{WRITE_FIRST: True})) as db, db.begin():
            row = db.get(RoomRow, code)
            if row is None:
                db.add(
                    RoomRow(code=code, created_at=now(), updated_at=now(), phase=phase, data=data, match_id=match_id)
                )
            else:
                row.updated_at, row.phase, row.data, row.match_id = now(), phase, data, match_id

    def exists(self, code: str) -> bool:
        with translated(self.store.url), DbSession(self.store.engine) as db:
            return db.get(RoomRow, code) is not None

    def all(self) -> list[SavedRoom]:
        """Every saved room, the oldest first."""
        with translated(self.store.url), DbSession(self.store.engine) as db:
            rows = db.scalars(select(RoomRow).order_by(RoomRow.created_at)).all()
            return [SavedRoom(r.code, r.phase, r.data, r.match_id) for r in rows]
