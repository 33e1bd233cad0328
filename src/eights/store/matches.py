"""The match repository: saving matches action by action, taking them up again, history and stats."""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, delete, func, select
from sqlalchemy.engine import URL
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session as DbSession

from eights.engine import Action, Game
from eights.names import HUMAN
from eights.record import GameRecord
from eights.rules import RulesError, RuleSet
from eights.rules.describe import rule_changes
from eights.store.db import WRITE_FIRST, StoreError, label, make_engine, migrate, now, problem, translated
from eights.store.models import ActionRow, Match, RoundRow, Setting
from eights.store.recorder import Recorder
from eights.store.writer import Writer

#: Settings keys.
LAST_SETUP = "last_setup"
PEOPLE = "people"


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
    def rounds_dealt(self) -> int:
        """The rounds dealt: the rounds played, and the round under way in a match not finished."""
        return self.rounds if self.finished else self.rounds + 1

    @property
    def result_text(self) -> str:
        if not self.finished:
            return f"unfinished, in round {self.rounds + 1}"
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


@dataclass(frozen=True)
class SavedMatch:
    """A saved match as the store has it: its table (a ``PlayConfig``'s data), its actions, whether it is over."""

    id: int
    config: dict[str, Any]
    actions: tuple[str, ...]
    finished: bool


class Store:
    """A database of matches and settings. Opening it brings its schema up to date.

    :raises StoreError: (from the constructor and every method) naming the database and what to do.
    """

    def __init__(self, url: URL, named: str | None = None) -> None:
        """``named``: what people are told the database is, when not ``url`` itself (an empty store in memory
        that stands for a file not made yet is called by the file's name)."""
        self.url = url
        self.label = named or label(url)
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
        """A session to read (or change) what is saved: what the writer's threads hold is committed first."""
        self.writer.settle()
        return DbSession(self.engine, expire_on_commit=False)

    # ----- playing -----------------------------------------------------------------------------------------

    def new_match(
        self,
        config: dict[str, Any],
        seats: Sequence[tuple[str, str]],
        grouped: bool,
        actions: Sequence[Action] = (),
    ) -> Recorder:
        """The log of a new match: its table (``config``, a ``PlayConfig``'s data with the game's seed) and
        its seats' ``(name, player)``, saved from its deal on; the actions a game handed in holds already
        (a puzzle, a test). A computer-only match (``grouped``) is written with its first actions; a
        person's is in the store before this returns.

        :raises StoreError: when a person's match cannot be saved.
        """
        match = {
            "started_at": now(),
            "finished_at": None,
            "variant": config["rules"]["name"],
            "players": len(config["seats"]),
            "seed": config["seed"],
            "config": config,
            "status": "playing",
            "winners": None,
            "totals": None,
        }
        recorder = Recorder(self, grouped=grouped, match=match, seats=seats)
        recorder.pending = list(actions)
        if not grouped:
            recorder.flush()  # a person's match is in the store before its first action
        return recorder

    def saved_match(self, match_id: int) -> SavedMatch:
        """A saved match's table (a ``PlayConfig``'s data), its actions as text, and whether it is over.

        :raises StoreError: when there is no such match.
        """
        with translated(self.url), self._session() as db:
            match = db.get(Match, match_id)
            if match is None:
                raise StoreError(f"there is no match {match_id} in {self.label}; `eights history` lists them")
            actions = db.scalars(
                select(ActionRow.action).where(ActionRow.match_id == match_id).order_by(ActionRow.number)
            ).all()
            return SavedMatch(match_id, match.config, tuple(actions), match.status == "finished")

    def match_log(self, match_id: int, grouped: bool) -> Recorder:
        """The log of a saved match taken up again: its next actions go on from its last."""
        return Recorder(self, match_id, grouped=grouped)

    def last_unfinished(self) -> int | None:
        """The most recently started match that is not over."""
        with translated(self.url), self._session() as db:
            return db.scalar(select(func.max(Match.id)).where(Match.status == "playing"))

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

    def remember_setup(self, setup: dict[str, Any], people: Sequence[str] = ()) -> None:
        """The new-game settings (a ``PlayConfig``'s data) and the people's names, for the next game."""
        self.set_setting(LAST_SETUP, setup)
        if people:
            self.set_setting(PEOPLE, list(people))

    def last_setup(self) -> dict[str, Any] | None:
        """The last new game's settings, as they were remembered, or None."""
        data = self.setting(LAST_SETUP)
        return data if isinstance(data, dict) else None

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
            rules = RuleSet.from_dict(match.config["rules"])
            dealt = Game(rules, match.players, match.seed)
        except (KeyError, TypeError, RulesError) as exc:
            raise StoreError(f"match {match_id}'s table is no longer valid: {exc}") from None
        finished = match.status == "finished"
        return GameRecord(
            rules=rules,
            players=match.players,
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
