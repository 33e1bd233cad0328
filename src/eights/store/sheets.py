"""Score sheets in the match store: each sheet saved as every change happens, lists, the players'
stats across sheets, and the names given on earlier sheets.

A sheet is kept as ``Sheet.to_dict()`` (its setup, rounds and undo list), with its variant, its
players' names and whether its match is over beside it for lists. ``Sheets.change`` reads a sheet,
makes one change and writes it back in one transaction, so a change the sheet refuses (an
impossible hand, a round after the end) leaves the saved sheet exactly as it was, and two programs
changing one sheet at once take turns.

A sheet kept on the web has two links: a read-only one, whose code (``view_code``) is in the link,
and an edit link, whose token only the browser that keeps it knows (the store holds its hash).
``change_shared`` makes a change only with that token, and only on the revision of the sheet the
person was shown, so a change made on a phone showing an older sheet is refused.

A sheet made on the web (``new(sheet, web=True)``) keeps when it was last used there (``touch``), and
``expire`` forgets those nobody used for long; a sheet made at the terminal is the user's own and never
expires, shared on the web or not.
"""

from __future__ import annotations

import builtins
import contextlib
import hmac
import secrets
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session as DbSession

from eights.rules import RulesError, RuleSet
from eights.rules.describe import rule_changes
from eights.scorecard import Sheet, SheetError
from eights.store.db import WRITE_FIRST, StoreError, now, translated
from eights.store.matches import Store
from eights.store.models import SheetRow
from eights.tokens import token_hash
from eights.words import and_list

#: The settings key of the names given on earlier sheets.
SHEET_NAMES = "sheet_names"
#: How many names are remembered.
NAMES_KEPT = 40

T = TypeVar("T")


class NoSuchSheet(StoreError):
    """No sheet has the code a link gives."""


class NotAllowed(StoreError):
    """A change asked for without the sheet's edit token."""


class StaleSheet(StoreError):
    """A change made on an older revision of the sheet than the one saved."""


@dataclass(frozen=True)
class SharedSheet:
    """A sheet found by its read-only code, with its id and revision."""

    id: int
    code: str
    revision: int
    sheet: Sheet


@dataclass(frozen=True)
class SheetSummary:
    """One saved sheet, for lists: when, which rules, who, and how it stands or ended."""

    id: int
    created_at: datetime
    updated_at: datetime
    variant: str
    changes: tuple[str, ...]
    names: tuple[str, ...]
    finished: bool
    rounds: int
    totals: tuple[int, ...]
    winners: tuple[str, ...]
    #: The next round's number, dealer and cards each; None once the match is over.
    next: tuple[int, str, int] | None
    keeps_points: bool
    #: Why the stored sheet cannot be read (it is then listed with what its row says); None when it can.
    problem: str | None = None

    @property
    def rules_text(self) -> str:
        return self.variant + (f" ({', '.join(self.changes)})" if self.changes else "")

    @property
    def state_text(self) -> str:
        """``Ann won``, ``round 4 next: Cid deals 5``, ``cannot be read: ...``."""
        if self.problem is not None:
            return f"cannot be read: {self.problem}"
        if self.finished:
            shared = " (shared)" if len(self.winners) > 1 else ""
            return f"{and_list(list(self.winners))} won{shared}"
        if self.next is None:  # pragma: no cover - a sheet not over always has a next round
            return "in play"
        number, dealer, cards = self.next
        return f"round {number} next: {dealer} deals {cards}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "created_at": self.created_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
            "variant": self.variant,
            "options": list(self.changes),
            "players": list(self.names),
            "finished": self.finished,
            "rounds": self.rounds,
            "totals": list(self.totals),
            "winners": list(self.winners),
            "next": None
            if self.next is None
            else {"round": self.next[0], "dealer": self.next[1], "hand_size": self.next[2]},
            "keeps_points": self.keeps_points,
            "problem": self.problem,
        }


@dataclass
class SheetPlayerStats:
    """A player (by name, any case) across the saved sheets.

    ``sheets``: sheets they are on with at least one round entered; ``finished`` of those, the
    ones whose match is over; ``won``: finished sheets they won (a shared win counts);
    ``rounds`` and ``points``: every round entered on sheets that keep points, and the points
    they scored in them, as each sheet's rules count points.
    """

    name: str
    sheets: int = 0
    finished: int = 0
    won: int = 0
    rounds: int = 0
    points: int = 0

    @property
    def points_per_round(self) -> float | None:
        return self.points / self.rounds if self.rounds else None

    def to_dict(self) -> dict[str, Any]:
        per_round = self.points_per_round
        return {
            "name": self.name,
            "sheets": self.sheets,
            "finished": self.finished,
            "won": self.won,
            "rounds": self.rounds,
            "points": self.points,
            "points_per_round": None if per_round is None else round(per_round, 2),
        }


class Sheets:
    """The score sheets of a store.

    :raises StoreError: (from every method) naming the database, the sheet and what to do.
    """

    def __init__(self, store: Store) -> None:
        self.store = store

    def _writing(self) -> DbSession:
        """A session whose transaction takes the write lock first (SQLite), so a read-change-write cannot be lost."""
        return DbSession(self.store.engine.execution_options(**{WRITE_FIRST: True}), expire_on_commit=False)

    def _reading(self) -> DbSession:
        return DbSession(self.store.engine, expire_on_commit=False)

    # ----- one sheet -------------------------------------------------------------------------------------

    def new(self, sheet: Sheet, web: bool = False) -> int:
        """Save a new sheet; its players' names are remembered for the next. Returns its id. A sheet made on
        the ``web`` expires when nobody uses it for long (``expire``)."""
        store = self.store
        with translated(store.url), self._writing() as db, db.begin():
            moment = now()
            row = SheetRow(
                created_at=moment,
                updated_at=moment,
                variant=sheet.rules.name,
                names=list(sheet.players),
                finished=sheet.over,
                data=sheet.to_dict(),
                web_used_at=moment if web else None,
            )
            db.add(row)
            db.flush()
            sheet_id = row.id
        self.remember(sheet.players)
        return sheet_id

    def get(self, sheet_id: int) -> Sheet:
        """The saved sheet ``sheet_id``.

        :raises StoreError: when there is no such sheet, or its data no longer makes a sheet.
        """
        with translated(self.store.url), self._reading() as db:
            row = db.get(SheetRow, sheet_id)
            if row is None:
                raise self._missing(db, sheet_id)
            return self._load(row)

    def save(self, sheet_id: int, sheet: Sheet) -> None:
        """Write ``sheet`` over the saved sheet ``sheet_id`` (``change`` reads, changes and writes at once).

        :raises StoreError: when there is no such sheet.
        """
        with translated(self.store.url), self._writing() as db, db.begin():
            row = db.get(SheetRow, sheet_id, with_for_update=True)
            if row is None:
                raise self._missing(db, sheet_id)
            _write(row, sheet)

    def change(self, sheet_id: int, make: Callable[[Sheet], T]) -> tuple[Sheet, T]:
        """Read sheet ``sheet_id``, make one change with ``make(sheet)`` and save it, in one transaction.

        :returns: the changed sheet and what ``make`` returned.
        :raises SheetError: (from ``make``) for a change the sheet refuses; nothing is written.
        :raises StoreError: when there is no such sheet or it cannot be read.
        """
        with translated(self.store.url), self._writing() as db, db.begin():
            row = db.get(SheetRow, sheet_id, with_for_update=True)
            if row is None:
                raise self._missing(db, sheet_id)
            sheet = self._load(row)
            result = make(sheet)
            _write(row, sheet)
        return sheet, result

    # ----- on the web: links and tokens ----------------------------------------------------------------------

    def share(self, sheet_id: int) -> tuple[str, str]:
        """Give sheet ``sheet_id`` a new read-only code and a new edit token (links given before stop working).

        :returns: the code and the token; only the token's hash is kept.
        """
        code, token = secrets.token_urlsafe(9), secrets.token_urlsafe(18)
        with translated(self.store.url), self._writing() as db, db.begin():
            row = db.get(SheetRow, sheet_id, with_for_update=True)
            if row is None:
                raise self._missing(db, sheet_id)
            row.view_code, row.edit_hash = code, token_hash(token)
        return code, token

    def shared(self, code: str) -> SharedSheet:
        """The sheet whose read-only code is ``code``.

        :raises NoSuchSheet: when no sheet has that code.
        """
        with translated(self.store.url), self._reading() as db:
            row = self._by_code(db, code)
            return SharedSheet(row.id, code, row.revision, self._load(row))

    def revision(self, code: str) -> int | None:
        """The revision of the sheet whose code is ``code``; None when there is none."""
        with translated(self.store.url), self._reading() as db:
            found: int | None = db.scalar(select(SheetRow.revision).where(SheetRow.view_code == code))
            return found

    def change_shared(
        self, code: str, token: str, revision: int | None, make: Callable[[Sheet], T]
    ) -> tuple[SharedSheet, T]:
        """As ``change``, on the sheet whose code is ``code``, with its edit ``token``, made on ``revision``
        (None: whatever the sheet is now).

        :raises NoSuchSheet: when no sheet has that code.
        :raises NotAllowed: for a token that is not the sheet's edit token.
        :raises StaleSheet: when the sheet has changed since ``revision``.
        :raises SheetError: (from ``make``) for a change the sheet refuses; nothing is written.
        """
        with translated(self.store.url), self._writing() as db, db.begin():
            row = self._by_code(db, code, lock=True)
            if row.edit_hash is None or not hmac.compare_digest(row.edit_hash, token_hash(token)):
                raise NotAllowed(
                    "this link only shows the sheet: changes need its edit link, kept on the phone that started it"
                )
            if revision is not None and revision != row.revision:
                raise StaleSheet(
                    "the sheet was changed elsewhere since this page showed it: it now shows the sheet as saved; "
                    "make your change again"
                )
            sheet = self._load(row)
            result = make(sheet)
            _write(row, sheet)
            shared = SharedSheet(row.id, code, row.revision, sheet)
        return shared, result

    def touch(self, codes: Collection[str], moment: datetime) -> None:
        """The sheets made on the web whose codes are ``codes`` were used at ``moment`` (looked at or changed)."""
        if codes:
            with translated(self.store.url), self._writing() as db, db.begin():
                db.execute(
                    update(SheetRow)
                    .where(SheetRow.view_code.in_(codes), SheetRow.web_used_at.is_not(None))
                    .values(web_used_at=moment)
                )

    def expire(self, before: datetime) -> builtins.list[str]:
        """Forget every sheet made on the web that was neither used there nor changed since ``before``.

        :returns: their codes.
        """
        with translated(self.store.url), self._writing() as db, db.begin():
            old = (SheetRow.web_used_at < before) & (SheetRow.updated_at < before)
            codes = db.scalars(select(SheetRow.view_code).where(old)).all()
            db.execute(delete(SheetRow).where(old))
        return [code for code in codes if code is not None]

    def _by_code(self, db: DbSession, code: str, lock: bool = False) -> SheetRow:
        query = select(SheetRow).where(SheetRow.view_code == code)
        row = db.scalar(query.with_for_update() if lock else query)
        if row is None:
            raise NoSuchSheet(f"there is no score sheet with the code {code!r}: check the link, or start a new sheet")
        return row

    def _load(self, row: SheetRow) -> Sheet:
        try:
            return Sheet.from_dict(row.data)
        except SheetError as exc:
            raise StoreError(
                f"score sheet {row.id} in {self.store.label} cannot be read: {exc}; it is kept as it is"
            ) from None

    def number(self, text: str) -> int:
        """A sheet's number as a person typed it (``7``, ``#7``).

        :raises StoreError: for text that is no number, naming the sheets there are.
        """
        clean = text.strip().removeprefix("#")
        if clean.isascii() and clean.isdigit():
            return int(clean)
        with translated(self.store.url), self._reading() as db:
            raise self._missing(db, repr(text))

    def _missing(self, db: DbSession, sheet_id: int | str) -> StoreError:
        ids = db.scalars(select(SheetRow.id).order_by(SheetRow.id)).all()
        where = self.store.label
        if not ids:
            return StoreError(
                f"there is no score sheet {sheet_id} in {where}: it holds no sheets yet; "
                "start one with `eights scorecard new`"
            )
        shown = _id_words(list(ids))
        return StoreError(
            f"there is no score sheet {sheet_id} in {where}; the sheets are {shown} (`eights scorecard list`)"
        )

    # ----- all of them -----------------------------------------------------------------------------------

    def list(self, limit: int | None = None, unfinished: bool = False) -> list[SheetSummary]:
        """Saved sheets, the most recently changed first; only those whose match goes on with ``unfinished``."""
        with translated(self.store.url), self._reading() as db:
            query = select(SheetRow).order_by(SheetRow.updated_at.desc(), SheetRow.id.desc())
            if unfinished:
                query = query.where(SheetRow.finished.is_(False))
            if limit is not None:
                query = query.limit(limit)
            rows = db.scalars(query).all()
        return [_summary(row) for row in rows]

    def stats(self) -> builtins.list[SheetPlayerStats]:
        """Per player (names matched whatever their case) across the sheets that can be read: most sheets first."""
        table: dict[str, SheetPlayerStats] = {}
        with translated(self.store.url), self._reading() as db:
            rows = db.scalars(select(SheetRow).order_by(SheetRow.id)).all()
        for row in rows:
            try:
                sheet = Sheet.from_dict(row.data)
            except SheetError:
                continue
            if not sheet.rounds:
                continue
            winners = {name.casefold() for name in sheet.winners}
            for seat, name in enumerate(sheet.players):
                entry = table.setdefault(name.casefold(), SheetPlayerStats(name))
                entry.sheets += 1
                entry.finished += sheet.over
                entry.won += sheet.over and name.casefold() in winners
                if sheet.keeps_points:
                    entry.rounds += len(sheet.rounds)
                    entry.points += sum(result.points[seat] for result in sheet.rounds)
        return sorted(table.values(), key=lambda s: (-s.sheets, -s.won, s.name.casefold()))

    # ----- names -----------------------------------------------------------------------------------------

    def remember(self, names: Sequence[str]) -> None:
        """Keep ``names`` (the players of the newest sheet, in seat order) ahead of those given before."""
        kept = list(names)
        seen = {name.casefold() for name in kept}
        for name in self.names():
            if name.casefold() not in seen:
                kept.append(name)
                seen.add(name.casefold())
        self.store.set_setting(SHEET_NAMES, {"last": list(names), "names": kept[:NAMES_KEPT]})

    def names(self) -> tuple[str, ...]:
        """Every name given on earlier sheets, the newest sheet's first (in its seat order)."""
        value = self.store.setting(SHEET_NAMES)
        if not isinstance(value, dict) or not isinstance(value.get("names"), list):
            return ()
        return tuple(str(name) for name in value["names"])

    def last_players(self) -> tuple[str, ...]:
        """The players of the newest sheet, in seat order (to start the next one with)."""
        value = self.store.setting(SHEET_NAMES)
        if not isinstance(value, dict) or not isinstance(value.get("last"), list):
            return ()
        return tuple(str(name) for name in value["last"])


def _write(row: SheetRow, sheet: Sheet) -> None:
    row.revision = (row.revision or 0) + 1
    row.data = sheet.to_dict()
    row.names = list(sheet.players)
    row.finished = sheet.over
    row.updated_at = now()


def _summary(row: SheetRow) -> SheetSummary:
    created, updated = _utc(row.created_at), _utc(row.updated_at)
    try:
        sheet = Sheet.from_dict(row.data)
    except SheetError as exc:
        changes: tuple[str, ...] = ()
        with contextlib.suppress(RulesError, TypeError, ValueError, AttributeError):
            changes = rule_changes(RuleSet.from_dict(dict(row.data.get("rules", {}))))
        names = tuple(str(name) for name in row.names)
        return SheetSummary(
            row.id, created, updated, row.variant, changes, names, row.finished, 0, (), (), None, True, str(exc)
        )
    following = None
    if not sheet.over:
        assert sheet.dealer is not None and sheet.hand_size is not None
        following = (sheet.next_round, sheet.dealer, sheet.hand_size)
    return SheetSummary(
        id=row.id,
        created_at=created,
        updated_at=updated,
        variant=row.variant,
        changes=rule_changes(sheet.rules),
        names=sheet.players,
        finished=sheet.over,
        rounds=len(sheet.rounds),
        totals=sheet.totals,
        winners=sheet.winners,
        next=following,
        keeps_points=sheet.keeps_points,
    )


def _id_words(ids: list[int]) -> str:
    """``1, 2 and 5``; ``1-40`` for a run; the newest ten and a count beyond that."""
    if ids == list(range(ids[0], ids[-1] + 1)) and len(ids) > 2:
        return f"{ids[0]}-{ids[-1]}"
    if len(ids) > 10:
        return ", ".join(map(str, ids[-10:])) + f" and {len(ids) - 10} older"
    return and_list([str(i) for i in ids])


def _utc(moment: datetime) -> datetime:
    """SQLite gives back naive times; every time stored is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
