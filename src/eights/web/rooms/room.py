"""One room of the web table: its seats and connections, its match, and everything a message does to it.

A ``Room`` is an actor: it has its own lock, state version, connections and runner (``runner.Runner``), and
every message that changes it runs under its lock, checks who sent it, in which phase and at which state
version, and only then asks the table layer's ``Session`` (the engine's checked door) to act; a refused
message changes nothing. After every change each connection gets the room's state as its own seat (or a
spectator) may see it. A move is checked on a copy of the game, saved, and only then played (``keep``).

What a room needs of its server (the clock, the limits, the computer players' pool, the store) comes from
its ``RoomHost`` (the registry, ``registry.Hub``): a room imports no socket, database or Redis.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from eights.cards import CardError
from eights.engine import ActionError, IllegalAction, View, parse_action
from eights.names import HUMAN, same_name
from eights.rules import RulesError, RuleSet
from eights.rules.describe import heading, rule_changes
from eights.saving import Fenced, StoreError
from eights.table import PlayConfig, Session, UsageError
from eights.table.phrases import hint_words
from eights.table.session import Move, check_name
from eights.tokens import new_token, same_token, token_hash
from eights.web.rooms.connection import Connection, send
from eights.web.rooms.errors import RoomError
from eights.web.rooms.players import Pool, PoolClosed
from eights.web.rooms.runner import STAND_IN, Runner
from eights.web.rooms.seats import (
    DEFAULT_AWAY,
    OPEN,
    RoomLimits,
    SeatState,
    check_table,
    room_rules,
)
from eights.web.tableview import Narrations, SeatLog, table_json
from eights.web.wire import error

log = logging.getLogger("eights.web")

#: How many narration lines a newly joined connection gets.
LOG_BACKLOG = 200


@functools.lru_cache(maxsize=256)
def in_words(rules: RuleSet) -> tuple[str, tuple[str, ...]]:
    """A room's rules as everyone sees them: the heading and the changes to the preset (made once per
    rule set: each parses the preset's file again, which took half the server's time at 500 rooms)."""
    return heading(rules), rule_changes(rules)


def log_store_trouble(code: str, exc: StoreError) -> None:
    """Log that the store failed a room (the class only: a store's words may quote a move's card)."""
    log.warning("eights: room %s: the store failed (%s); the table waits for it", code, type(exc).__name__)


class RoomKeeping(Protocol):
    """Where a room and its match are kept: the server's store (``keeping.Keeping``), or a browser's."""

    async def deal(self, config: PlayConfig) -> Session:
        """A new match for ``config``, kept from its deal on.

        :raises RulesError: or ``UsageError`` when the rules cannot seat the players.
        """
        ...

    def fence(self, room: Room) -> None:
        """Give the room's match its owner's fence, where many instances serve one store."""
        ...

    async def save(self, room: Room) -> None:
        """Keep the room as it is now, if it changed.

        :raises Fenced: when another instance has taken the room over.
        """
        ...


class RoomHost(Protocol):
    """What a room needs of the server (or the page) that holds it: its clock, its limits, its computer
    players' pool, where it is kept (``registry.Hub`` on the server; ``eights.web.offline`` in a browser)."""

    clock: Callable[[], float]
    sleep: Callable[[float], Awaitable[None]]
    pool: Pool

    @property
    def keeping(self) -> RoomKeeping: ...

    #: Told how long each computer decision took, in seconds (the server's metrics).
    on_decision: Callable[[float], None] | None

    @property
    def limits(self) -> RoomLimits: ...

    def later(self, work: Awaitable[Any]) -> None:
        """Run ``work`` in a task of its own, kept (and stopped at the server's close) until it ends."""
        ...

    async def let_go(self, room: Room) -> None:
        """Another instance owns ``room`` now: forget it here."""
        ...


@dataclass(eq=False)
class Room:
    code: str
    rules: RuleSet
    seats: list[SeatState]
    host: RoomHost
    host_seat: int = 0
    away_seconds: int = DEFAULT_AWAY
    #: Seconds between computer moves (people need a moment to follow them).
    pace: float = 0.7
    session: Session | None = None
    match_id: int | None = None
    version: int = 1
    connections: list[Connection] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: When the person to act went away on this turn (the host's clock), if they are away.
    away_since: float | None = None
    #: What the store last got (phase, ``to_data()``, match): a room is written only when it changed.
    saved_as: tuple[str, dict[str, Any], int | None] | None = None
    #: When the room last changed or was left (the host's clock): it expires after its phase's limit.
    touched: float = 0.0
    #: Whether it was touched since the store last heard of it.
    fresh: bool = False
    #: Its owner's fence in the store, when many instances serve it (every write carries it).
    fence: int | None = None
    #: The phase saved, for a room read from the store on an instance that does not own it.
    saved_phase: str | None = None
    #: Its match told once per seat (and for its spectators), read by every connection.
    narrations: Narrations = field(default_factory=lambda: Narrations(LOG_BACKLOG))
    #: Whether its hint is being worked out (one at a time).
    hinting: bool = False
    #: Plays the computers' turns and times away people (``runner.Runner``).
    runner: Runner = field(init=False)

    def __post_init__(self) -> None:
        self.runner = Runner(self)

    # ----- what it is ----------------------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        if self.saved_phase is not None:
            return self.saved_phase
        if self.session is None:
            return "lobby"
        return "over" if self.session.game.is_over else "playing"

    def config(self) -> PlayConfig:
        """The table the seats make: people by name, computers by level, and a seed of 62 random bits, drawn
        apart from every other match's (no seed of this server's can be told from another's)."""
        seats = tuple(HUMAN if s.kind == "person" else (s.level or STAND_IN) for s in self.seats)
        people = tuple(s.name for s in self.seats if s.kind == "person")
        return PlayConfig(self.rules, seats, seed=secrets.randbits(62), people=people)

    def people_here(self) -> bool:
        """Whether a person at the table has a connection open (else the room waits for them)."""
        return any(s.kind == "person" and s.connection is not None for s in self.seats)

    def to_data(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "seats": [s.to_data() for s in self.seats],
            "host_seat": self.host_seat,
            "away_seconds": self.away_seconds,
            "pace": self.pace,
        }

    def away_left(self, now: float) -> float | None:
        """Seconds left (at the host's clock ``now``) before a computer plays for the person to act, who is
        away; None when the one to act is not an away person."""
        session = self.session
        if session is None or session.game.is_over:
            return None
        seat = self.seats[session.game.to_act]
        if seat.kind != "person" or seat.connection is not None or seat.stand_in:
            return None
        gone = seat.away + (now - self.away_since if self.away_since is not None else 0.0)
        return round(max(0.0, self.away_seconds - gone), 1)

    def public(self, now: float | None = None) -> dict[str, Any]:
        """The room as everyone may see it; with the host's clock ``now``, the away countdown's ``away_left``."""
        title, changes = in_words(self.rules)
        return {
            "code": self.code,
            "phase": self.phase,
            "host_seat": self.host_seat,
            "away_seconds": self.away_seconds,
            "away_left": self.away_left(now) if now is not None else None,
            "preset": self.rules.name,
            "rules_heading": title,
            "options": list(changes),
            "seats": [
                {
                    "seat": i,
                    "name": s.name,
                    "kind": s.kind,
                    "level": s.level,
                    "connected": s.kind == "computer" or s.connection is not None,
                    "stand_in": s.stand_in,
                }
                for i, s in enumerate(self.seats)
            ],
        }

    def seat_of(self, token: str) -> int | None:
        """The seat of the person at the table whose seat token is ``token``, if any."""
        return next((i for i, s in enumerate(self.seats) if s.kind == "person" and same_token(token, s.token)), None)

    def touch(self) -> None:
        self.touched, self.fresh = self.host.clock(), True

    # ----- messages ------------------------------------------------------------------------------------------

    async def receive(self, connection: Connection, kind: str, fields: Mapping[str, Any]) -> None:
        """One of a seated person's or a spectator's messages (its ``type`` and its fields, as docs/protocol.md
        writes them, checked already: by ``eights.web.protocol`` on the server), the caller holding the
        room's lock.

        :raises RoomError: naming why it is refused; the room is left as it was.
        :raises Fenced: when another instance has taken the room over.
        """
        if kind == "sit":
            await self.sit(connection, fields["seat"], fields["name"])
            return
        if kind == "hint":
            self.check_version(fields["version"])
            self.hint(connection)
            return
        if kind == "setup":
            self.host_in(connection, "lobby", fields["version"])
            options, seats = dict(fields.get("options", {})), list(fields["seats"])
            self.setup(fields["preset"], options, fields["players"], seats, fields.get("away_seconds", DEFAULT_AWAY))
        elif kind == "start":
            self.host_in(connection, "lobby", fields["version"])
            if any(s.kind == OPEN for s in self.seats):
                raise RoomError("wrong_phase", "a seat is still open: wait for a friend, or give it to a computer")
            await self.deal()
        elif kind == "rematch":
            self.host_in(connection, "over", fields["version"])
            await self.deal()
        elif kind == "act":
            await self.act(connection, fields["version"], fields["action"])
        else:
            raise RoomError("bad_message", f"{kind!r} is not a message a room takes")
        self.touch()
        await self.save()
        await self.broadcast()
        self.runner.start()

    def check_version(self, version: int) -> None:
        if version != self.version:
            raise RoomError("stale", f"the table has changed since version {version} (now {self.version}): look again")

    def host_in(self, connection: Connection, phase: str, version: int) -> None:
        if connection.seat != self.host_seat:
            raise RoomError("not_host", "only the room's host may do that")
        if self.phase != phase:
            raise RoomError("wrong_phase", f"that is for a room in the {phase}; this one is {self.phase}")
        self.check_version(version)

    async def join(self, connection: Connection, seat: int | None) -> None:
        """``connection`` joins as ``seat`` (a token's seat, checked by the caller) or as a spectator (None).
        Only the newcomer is sent the room; the others hear of it only when a seat's person came back.

        :raises RoomError: ``room_full`` for one more spectator than the room may hold.
        """
        async with self.lock:
            again = connection.room is self and connection.seat == seat and connection in self.connections
            if not again:
                full = len(self.connections) >= self.host.limits.connections_per_room
                if connection.room is not self and seat is None and full:
                    raise RoomError("room_full", "this room has as many watchers as it can take: try again later")
                self.detach(connection)
                connection.room, connection.seat = self, seat
                self.connections.append(connection)
            connection.log = None
            if seat is not None:
                self.touch()
            await send(connection, {"type": "welcome", "room": self.code, "seat": seat, "host": seat == self.host_seat})
            if seat is not None and not again:
                await self.take_seat(seat, connection)
                await self.broadcast()  # a seat's person came back: everyone sees it
            else:  # a spectator, or a hello said again: only its sender hears
                await self.send_state(connection)
                if connection.closed:
                    self.detach(connection)
        self.runner.start()

    async def take_seat(self, seat: int, connection: Connection) -> None:
        """Seat ``connection``'s person (come back, or on another device)."""
        state = self.seats[seat]
        previous = state.connection
        state.connection = connection
        if previous is not None and previous is not connection:
            previous.replaced = True
            if previous in self.connections:
                self.connections.remove(previous)
            await send(previous, {"type": "replaced"})
        if state.stand_in or state.away or self.away_since is not None:
            self.runner.settle_away()
            if state.stand_in:
                self.version += 1  # a stand-in's move thought out meanwhile is not played: the person is back
            state.stand_in, state.away = False, 0.0
            self.runner.stand_ins.pop(seat, None)
            self.runner.wake()

    async def sit(self, connection: Connection, seat: int, name: str) -> None:
        if self.phase != "lobby":
            raise RoomError("wrong_phase", "seats are taken in the lobby, before the match starts")
        if connection.seat is not None:
            raise RoomError("seat_taken", "you already have a seat at this table")
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind != OPEN:
            open_seats = [i for i, s in enumerate(self.seats) if s.kind == OPEN]
            raise RoomError("seat_taken", f"seat {seat} is not open; open seats: {open_seats or 'none'}")
        try:
            name = check_name(name)
        except UsageError as exc:
            raise RoomError("bad_name", str(exc)) from None
        if any(s.kind == "person" and same_name(s.name, name) for s in self.seats):
            raise RoomError("bad_name", f"{name!r} already sits at this table: choose another name")
        token = new_token()
        self.seats[seat] = SeatState("person", name, token=token_hash(token), connection=connection)
        connection.seat = seat
        self.version += 1
        self.touch()
        await self.save()
        await send(connection, {"type": "welcome", "room": self.code, "seat": seat, "host": False, "token": token})
        await self.broadcast()

    def setup(self, preset: str, options: dict[str, str], players: int, seats: list[str], away_seconds: int) -> None:
        rules = room_rules(preset, options)
        if len(seats) != players:
            raise RoomError("bad_setup", f"players: {players} given, but {len(seats)} seats listed")
        states = []
        for index, who in enumerate(seats):
            if who == "person":
                if index >= len(self.seats) or self.seats[index].kind != "person":
                    raise RoomError("bad_setup", f"seat {index}: no person sits there; give open or a level")
                states.append(self.seats[index])
            else:
                states.append(SeatState.of(who))
        if self.host_seat >= len(states) or states[self.host_seat] is not self.seats[self.host_seat]:
            raise RoomError("bad_setup", f"seat {self.host_seat}: the host keeps their seat")
        check_table(rules, states, None, self.host.limits)
        self.rules, self.seats, self.away_seconds = rules, states, away_seconds
        for connection in self.connections:
            connection.seat = next((i for i, s in enumerate(states) if s.connection is connection), None)
        self.version += 1

    async def act(self, connection: Connection, version: int, action: str) -> None:
        """A seated person's move: checked by the engine, saved, and only then played (``keep``).

        :raises RoomError: naming why it is refused; the table is left as it was.
        """
        session = self.session
        if session is None or session.game.is_over:
            raise RoomError("wrong_phase", "there is no move to make: the match has not started or is over")
        if connection.seat is None:
            raise RoomError("not_seated", "spectators watch: take a seat to play")
        if not await self.settle():
            raise RoomError("unsaved", "the match cannot be saved just now: the table waits for the store")
        self.check_version(version)
        seat = connection.seat
        game = session.game
        if game.to_act != seat:
            raise RoomError("not_your_turn", f"it is {session.names[game.to_act]}'s turn, not yours")
        try:
            move = session.check(parse_action(action), seat)
        except (ActionError, CardError) as exc:
            raise RoomError("bad_message", f"{action!r} is not a move: {exc}") from None
        except IllegalAction as exc:
            raise RoomError("illegal", f"Not allowed: {exc}") from None
        await self.keep(session, move)

    async def keep(self, session: Session, move: Move) -> None:
        """Save ``move`` and, once the store has it, play it: the room's other messages wait meanwhile (its
        lock), no other room does (the store is written off the event loop, and many rooms' moves go in one
        commit). A move the store did not take is not played: the table stays as it was, and its runner
        waits for the store to answer again (``settle``).

        :raises Fenced: when another instance has taken the room over.
        :raises RoomError: ``unsaved``, when the store could not save the move.
        """
        log = session.log
        if log is not None:
            try:
                await asyncio.wrap_future(log.keep(move.number, move.action, move.events))
            except Fenced:
                raise
            except StoreError as exc:  # (its words, which name the database, are for the log, not for players)
                log_store_trouble(self.code, exc)
                self.runner.start()
                raise RoomError(
                    "unsaved",
                    "your move is not played: the match cannot be saved just now; the table goes on once it can",
                ) from None
        session.take(move)
        self.version += 1

    async def settle(self) -> bool:
        """Where the match is unsure whether its last move was saved (the store's answer was lost): ask the
        store, off the event loop, and play what it kept, so the table stands where the store does. Whether
        the table is settled (False: the store still cannot tell); everyone is sent a changed table.
        """
        session = self.session
        if session is None or session.log is None or not session.log.unsure():
            return True
        try:
            events = await asyncio.to_thread(session.catch_up)
        except StoreError as exc:
            log_store_trouble(self.code, exc)
            return False
        if events:
            self.version += 1
            self.touch()
            await self.save()
            await self.broadcast()
        return True

    def hint(self, connection: Connection) -> None:
        """Start working out the hint of the person to act, off the event loop (``Pool.hint``: in the computer
        players' threads, under their deadline); it is sent when it is ready, or, past the deadline, words
        saying so. One hint at a time.

        :raises RoomError: ``not_your_turn``; ``too_fast`` while the last hint is still being worked out.
        """
        session = self.session
        seat = connection.seat
        if session is None or seat is None or session.game.is_over or session.game.to_act != seat:
            raise RoomError("not_your_turn", "a hint is for your own turn")
        if self.hinting:
            raise RoomError("too_fast", "a hint is being worked out already: it comes in a moment")
        self.hinting = True
        self.host.later(self.send_hint(connection, session, session.view(seat)))

    async def send_hint(self, connection: Connection, session: Session, seen: View) -> None:
        """The hint on ``seen``, sent to ``connection`` if the match is still where it was asked."""
        moves = len(session.game.actions)
        missing = "the server took too long to work it out"
        try:
            hint = await self.host.pool.hint(session.hinter(seen.to_act), seen)
        except PoolClosed:
            return
        except Exception as exc:  # logged without the exception's words, which may name cards
            log.error("eights: room %s: a hint failed (%s)", self.code, type(exc).__name__)
            hint, missing = None, "the server could not work it out"
        finally:
            self.hinting = False
        if self.session is not session or len(session.game.actions) != moves:
            return  # the match moved on meanwhile: the hint was for a turn gone
        if hint is None:
            message = error("no_hint", f"no hint this time: {missing}; try again")
        else:
            message = {"type": "hint", "text": hint_words(hint, seen, session.names), "action": str(hint.action)}
        await send(connection, message)

    async def part(self, connection: Connection) -> None:
        """``connection`` has gone: its seat's person is away from now (everyone sees it)."""
        async with self.lock:
            seated = connection.seat is not None and connection.room is self
            self.detach(connection)
            if seated:  # (a spectator coming and going keeps no room alive)
                self.touch()
                await self.broadcast()
        self.runner.start()

    def detach(self, connection: Connection) -> None:
        """``connection`` is in this room no more (its seat, if it held one, has no connection)."""
        if connection.room is not self:
            return
        if connection in self.connections:
            self.connections.remove(connection)
        seat = connection.seat
        if seat is not None and seat < len(self.seats) and self.seats[seat].connection is connection:
            self.seats[seat].connection = None
        connection.room = None

    # ----- keeping -------------------------------------------------------------------------------------------

    async def deal(self) -> None:
        """A new match at this table, saved from its deal on (the store written off the event loop)."""
        try:
            session = await self.host.keeping.deal(self.config())
        except (RulesError, UsageError) as exc:
            raise RoomError("bad_setup", str(exc)) from None
        for seat in self.seats:
            seat.stand_in, seat.away = False, 0.0
        self.runner.stand_ins.clear()
        self.away_since = None
        session.speed = 5
        self.session = session
        self.host.keeping.fence(self)
        self.match_id = session.log.match_id if session.log is not None else None  # type: ignore[attr-defined]
        self.version += 1

    async def save(self) -> None:
        """Write the room to the store (off the event loop) if it changed since it was last written (a move
        changes only the match, which the session saves itself).

        :raises Fenced: when another instance has taken the room over.
        """
        await self.host.keeping.save(self)

    # ----- sending -------------------------------------------------------------------------------------------

    def state(
        self,
        connection: Connection,
        public: dict[str, Any] | None = None,
        tables: dict[int | None, dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """The room as ``connection``'s seat may see it, with the narration it has not had yet; ``public``: the
        room's ``public()`` when the caller made it already; ``tables``: the tables made so far for the room as
        it is, by seat (each seat's is made once for all its connections, and kept there)."""
        session = self.session
        message: dict[str, Any] = {
            "type": "state",
            "version": self.version,
            "room": public or self.public(self.host.clock()),
        }
        if session is None:
            message.update(table=None, log=[], log_from=0)
            return message
        log = connection.log
        if log is None or log.narration.session is not session or log.narration.seat != connection.seat:
            connection.log = log = SeatLog(self.narrations.of(session, connection.seat))
        start, lines = log.news()
        seat = connection.seat
        table = tables[seat] if tables is not None and seat in tables else table_json(session, seat)
        if tables is not None:
            tables[seat] = table
        message.update(table=table, log=lines, log_from=start)
        return message

    async def send_state(self, connection: Connection) -> None:
        await send(connection, self.state(connection))

    async def broadcast(self) -> None:
        """The room's state to each of its connections; a connection that can no longer be sent to leaves the
        room at once (its seat, if any, is then away)."""
        public = self.public(self.host.clock())
        tables: dict[int | None, dict[str, Any]] = {}  # each seat's table (and the spectators'), made once
        for connection in list(self.connections):
            await send(connection, self.state(connection, public, tables))
            if connection.closed:
                self.detach(connection)
