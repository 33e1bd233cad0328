"""The tables of the match store (SQLAlchemy 2 declarative models).

A match is kept as what replays it exactly: its table (rules, seats, names, seed) and its
actions, one row each, written as each is applied. Rounds and the result are written as
they end, so lists and stats need no replay.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON, datetime: DateTime(timezone=True)}  # noqa: RUF012


class Match(Base):
    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    started_at: Mapped[datetime]
    finished_at: Mapped[datetime | None]
    #: The preset the rules start from (``derange``), for lists.
    variant: Mapped[str] = mapped_column(String(40))
    players: Mapped[int]
    seed: Mapped[int] = mapped_column(BigInteger)
    #: ``PlayConfig.to_dict()`` with the seed the match was dealt from.
    config: Mapped[dict[str, Any]]
    #: ``playing`` until the match ends, then ``finished``.
    status: Mapped[str] = mapped_column(String(12), index=True)
    winners: Mapped[list[Any] | None]
    totals: Mapped[list[Any] | None]

    seats: Mapped[list[Seat]] = relationship(
        back_populates="match", order_by="Seat.seat", cascade="all, delete-orphan", lazy="selectin"
    )


class Seat(Base):
    __tablename__ = "seats"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    #: ``human``, or the computer player (``normal``, ``hard@500``).
    player: Mapped[str] = mapped_column(String(40))

    match: Mapped[Match] = relationship(back_populates="seats")


class ActionRow(Base):
    """One applied action, in the text ``eights replay`` reads (``8H``, ``draw``, ``suit H``)."""

    __tablename__ = "actions"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    action: Mapped[str] = mapped_column(String(80))


class RoundRow(Base):
    """A round's end: how it ended, its winners and every seat's points and running total."""

    __tablename__ = "rounds"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(primary_key=True)
    reason: Mapped[str] = mapped_column(String(12))
    winners: Mapped[list[Any]]
    points: Mapped[list[Any]]
    totals: Mapped[list[Any]]


class Setting(Base):
    """Something remembered between games: the people's names, the last new game."""

    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[Any] = mapped_column(JSON)


class RoomRow(Base):
    """A room of the web table: its settings and seats (with hashed seat tokens), and its current match."""

    __tablename__ = "rooms"

    code: Mapped[str] = mapped_column(String(12), primary_key=True)
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    #: ``lobby``, ``playing`` or ``over``.
    phase: Mapped[str] = mapped_column(String(12), index=True)
    data: Mapped[dict[str, Any]]
    match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id", ondelete="SET NULL"))
    #: The lease of the instance that owns the room when many serve one store (``eights serve --redis``):
    #: every write of that owner's carries it, and a write with another is refused. None: one server.
    fence: Mapped[int | None] = mapped_column(BigInteger, default=None)


class SheetRow(Base):
    """A score sheet of a game played with real cards: its setup and rounds (``Sheet.to_dict()``),
    saved as every change happens; the variant, names and whether it is finished, for lists; the
    codes of its links on the web and its revision."""

    __tablename__ = "sheets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    variant: Mapped[str] = mapped_column(String(40))
    names: Mapped[list[Any]]
    #: Whether the match on the sheet is over (by the rules, or finished early).
    finished: Mapped[bool]
    data: Mapped[dict[str, Any]]
    #: The code of the sheet's read-only link on the web (None until the sheet is shared).
    view_code: Mapped[str | None] = mapped_column(String(16), unique=True, index=True)
    #: The hash of the token of the sheet's edit link (the token itself stays in the browser that keeps it).
    edit_hash: Mapped[str | None] = mapped_column(String(64))
    #: One more at every saved change, so an edit made on an older view of the sheet can be refused.
    revision: Mapped[int] = mapped_column(Integer, server_default="0")
    #: When a sheet made on the web was last changed or looked at there (it expires when nobody uses it for
    #: long); None for a sheet made at the terminal, the user's own, which never expires.
    web_used_at: Mapped[datetime | None] = mapped_column(index=True)


class ReviewRow(Base):
    """A finished match's review (``eights.runs.review``): its seats and settings (``key``) and its result, kept
    so that a second look is instant."""

    __tablename__ = "reviews"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    key: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime]
    data: Mapped[dict[str, Any]]
