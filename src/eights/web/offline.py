"""The web table with no server: the page's rooms played in its own Python (Pyodide, in a Web Worker).

The same rooms as the server's (``eights.web.rooms.room.Room``, with their runner, seats and narration) get
this module's host instead of the server's registry: computers that think right here, at their own budget
(``InlinePool``), matches kept on the device (``BrowserKeeping``: each room written, with its match's seed
and every move, through a function the worker gives, to IndexedDB) and the page's messages handed to the
room as the server's socket would hand them (``Offline``). Nothing here imports a socket, a database or a
validation library: the worker holds only the standard library and the package's own modules.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import parse_qs, urlsplit

from eights.bots import Bot, Hint
from eights.engine import Action, Event, Game, View, parse_action
from eights.names import HUMAN
from eights.record import GameRecord, RecordError
from eights.rules import RulesError, RuleSet
from eights.saving import Fenced
from eights.table import PlayConfig, RestoreError, Session, UsageError
from eights.tokens import new_token
from eights.web.catalog import presets_json, rules_json
from eights.web.players import Pool
from eights.web.rooms.connection import Connection, send
from eights.web.rooms.errors import RoomError
from eights.web.rooms.room import Room
from eights.web.rooms.seats import DEFAULT_AWAY, HERE, OPEN, SeatState, check_table, new_code, room_rules, table_seats
from eights.web.wire import error

log = logging.getLogger("eights.web")

#: The messages a room takes from the page (docs/protocol.md), besides ``hello`` and ``ping``.
ROOM_MESSAGES = ("sit", "setup", "start", "act", "hint", "rematch")


@dataclass(frozen=True)
class PhoneLimits:
    """The limits of a room on the device (``RoomLimits``): its own people only, and the computers' budgets as
    the server's (expert thinks about 1 s a decision, ``bots/__init__.py``)."""

    connections_per_room: int = 8
    think_seconds: float = 1.0
    max_hand_size: int = 15


class InlinePool:
    """Computer players that think in the page's own Python (the worker's, apart from the page's drawing):
    one decision at a time, at the bot's own budget (``Runner.bot_for`` caps a search at ``think_seconds``)."""

    def __init__(self) -> None:
        self.decisions = 0

    async def choose(self, bot: Bot, view: View, owner: str) -> tuple[Action, Bot]:
        self.decisions += 1
        return bot.choose(view), bot

    async def hint(self, bot: Bot, view: View) -> Hint | None:
        return copy.deepcopy(bot).hint(view)

    def stats(self) -> dict[str, int | float]:
        return {"decisions": self.decisions}

    def close(self) -> None:
        return None

    async def aclose(self) -> None:
        return None


class KeptLog:
    """A match's moves as the device keeps them (``MatchLog``): each is written, with the whole room, before it
    is played (``ahead``), so a page closed at any moment comes back where it stood."""

    ahead = True
    #: A match on the device has no number in a store.
    match_id = None

    def __init__(self, keeping: BrowserKeeping, config: PlayConfig, actions: Sequence[str] = ()) -> None:
        self.keeping = keeping
        #: The match's table with its seed (a ``PlayConfig``'s data): it deals every hand again.
        self.config = config
        self.actions = list(actions)
        #: The room it is played in (``BrowserKeeping.fence`` tells it).
        self.room: Room | None = None

    def keep(self, number: int, action: Action, events: Sequence[Event]) -> Future[None]:
        del self.actions[number - 1 :]
        self.actions.append(str(action))
        if self.room is not None:
            self.keeping.write(self.room)
        done: Future[None] = Future()
        done.set_result(None)
        return done

    def unsure(self) -> bool:
        return False

    def recall(self) -> list[str]:
        return []

    def where(self) -> str | None:
        return "on this device"


class BrowserKeeping:
    """Rooms kept on the device: ``write(code, text)`` stores a room's JSON (the worker's IndexedDB), written
    whole at every change; ``saved`` holds what was stored, by code, as the worker read it at its start."""

    def __init__(self, write: Callable[[str, str], Any], saved: Mapping[str, dict[str, Any]] | None = None) -> None:
        self._write = write
        self.saved: dict[str, dict[str, Any]] = dict(saved or {})
        #: Seat tokens by room and seat: the device holds its own seats.
        self.tokens: dict[str, dict[int, str]] = {}

    async def deal(self, config: PlayConfig) -> Session:
        session = Session(config)
        session.log = KeptLog(self, replace(config, seed=session.game.seed))
        return session

    def fence(self, room: Room) -> None:
        """Tell the room's match where it is played (its moves write the room)."""
        if room.session is not None and isinstance(room.session.log, KeptLog):
            room.session.log.room = room

    async def save(self, room: Room) -> None:
        saved = (room.phase, room.to_data(), room.match_id)
        if saved != room.saved_as:
            self.write(room)
            room.saved_as = saved
            room.fresh = False

    def data(self, room: Room) -> dict[str, Any]:
        """The room as the device keeps it: the room, its match (the table with its seed, and its moves), and a
        summary for the list of past matches."""
        session = room.session
        kept = self.saved.get(room.code, {})
        data: dict[str, Any] = {
            "code": room.code,
            "phase": room.phase,
            "room": room.to_data(),
            "tokens": {str(seat): token for seat, token in self.tokens.get(room.code, {}).items()},
            "started": kept.get("started", time.time()),
            "updated": time.time(),
            "preset": room.rules.name,
            "title": room.rules.title,
        }
        if session is not None and isinstance(session.log, KeptLog):
            outcome = session.game.outcome
            data.update(
                config=session.log.config.to_dict(),
                actions=list(session.log.actions),
                names=list(session.names),
                result=None if outcome is None else {"winners": list(outcome.winners), "totals": list(outcome.totals)},
            )
        return data

    def write(self, room: Room) -> None:
        data = self.data(room)
        self.saved[room.code] = data
        self._write(room.code, json.dumps(data))

    def room_of(self, data: Mapping[str, Any], host: PhoneHost) -> Room:
        """A kept room as it was, its match dealt again from its seed and its moves played again.

        :raises RoomError: ``no_room`` when it no longer reads back (naming why).
        """
        try:
            kept = data["room"]
            room = Room(
                str(data["code"]),
                RuleSet.from_dict(kept["rules"]),
                [SeatState.from_data(s) for s in kept["seats"]],
                host,
                host_seat=int(kept.get("host_seat", 0)),
                away_seconds=int(kept.get("away_seconds", DEFAULT_AWAY)),
                pace=host.pace,
            )
            if "config" in data:
                config = PlayConfig.from_dict(data["config"])
                actions = [str(a) for a in data["actions"]]
                session = Session.restore(config, actions, KeptLog(self, config, actions))
                session.speed = 5
                room.session = session
                self.fence(room)
        except (KeyError, TypeError, ValueError, RulesError, RestoreError, UsageError) as exc:
            code = data.get("code")
            raise RoomError("no_room", f"the match kept on this device as {code!r} cannot be read: {exc}") from None
        self.tokens[room.code] = {int(seat): str(token) for seat, token in data.get("tokens", {}).items()}
        room.saved_as = (room.phase, room.to_data(), room.match_id)
        return room


class PhoneHost:
    """The host of the page's rooms (``RoomHost``)."""

    def __init__(self, keeping: BrowserKeeping, pace: float = 0.7) -> None:
        self.keeping = keeping
        #: Seconds between computer moves (people need a moment to follow them).
        self.pace = pace
        self.clock: Callable[[], float] = time.monotonic
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        self.pool: Pool = InlinePool()
        self.limits = PhoneLimits()
        self.on_decision: Callable[[float], None] | None = None
        #: Work started by ``later``, kept until it ends.
        self.tasks: set[asyncio.Task[Any]] = set()

    def later(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def let_go(self, room: Room) -> None:
        return None


class Offline:
    """The page's rooms with no server: its HTTP questions (``api``) and its connections' messages
    (``open``, ``message``, ``close``), answered as the server answers them (docs/protocol.md).

    ``write(code, text)`` keeps a room on the device; ``deliver(connection, text)`` hands a message to one of
    the page's connections; ``saved``: the rooms kept so far, as ``write`` was given them.
    """

    def __init__(
        self,
        write: Callable[[str, str], Any],
        deliver: Callable[[int, str], Any],
        saved: Sequence[str] = (),
        pace: float = 0.7,
    ) -> None:
        kept = {}
        for text in saved:
            data = json.loads(text)
            kept[str(data["code"])] = data
        self.host = PhoneHost(BrowserKeeping(write, kept), pace=pace)
        self.deliver = deliver
        self.rooms: dict[str, Room] = {}
        self.connections: dict[int, Connection] = {}

    # ----- the page's HTTP questions ----------------------------------------------------------------------

    async def api(self, method: str, url: str, body: str = "", token: str = "") -> str:
        """The answer to one of the page's HTTP questions, as ``{"status", "body"}`` (the body as JSON text):
        the presets, the rules in words, a new room, a match's record, a record to watch, the matches kept on
        the device."""
        parts = urlsplit(url)
        path, query = parts.path, parse_qs(parts.query)
        try:
            status, answer = 200, await self.route(method, path, query, body, token)
        except RoomError as exc:
            status, answer = (404 if exc.code == "no_room" else 400), {"error": str(exc), "code": exc.code}
        except RulesError as exc:
            status, answer = 400, {"error": str(exc)}
        return json.dumps({"status": status, "body": json.dumps(answer)})  # (a seed is more than a JS number holds)

    async def route(self, method: str, path: str, query: dict[str, list[str]], body: str, token: str) -> Any:
        if method == "GET" and path == "/api/presets":
            return presets_json()
        if method == "GET" and path == "/api/rules":
            return rules_json(query.get("preset", ["classic"])[0], query.get("option", []))
        if method == "POST" and path == "/api/rooms":
            return await self.new_room(json.loads(body or "{}"))
        if method == "POST" and path == "/api/watch":
            return self.watch(body)
        if method == "GET" and path == "/api/matches":
            return self.matches()
        if method == "GET" and path.startswith("/api/rooms/") and path.endswith("/record"):
            return self.record(path.split("/")[3].upper(), token)
        raise RoomError("bad_message", f"{method} {path}: the page's own Python does not answer that")

    async def new_room(self, asked: Mapping[str, Any]) -> dict[str, Any]:
        """A new room on the device, dealt at once (``POST /api/rooms`` with ``start``): its people are all
        here, so it has no open seat.

        :raises RoomError: ``bad_setup`` or ``bad_name``, naming the problem.
        """
        try:
            preset, options = str(asked.get("preset", "classic")), dict(asked.get("options", {}))
            seats = [str(s) for s in asked["seats"]]
            names = [str(n) for n in asked.get("names", [])]
            name = str(asked.get("name", ""))
        except (KeyError, TypeError, ValueError):
            raise RoomError("bad_setup", "a new game needs its preset, options, seats and names") from None
        rules = room_rules(preset, options)
        if OPEN in seats:
            raise RoomError("bad_setup", "seats: friends on their own devices need the server; here, give a computer")
        here = [(who, new_token()) for who in names]
        states, token = table_seats(name, seats, here)
        check_table(rules, states, len(seats), self.host.limits)
        code = new_code()
        room = Room(code, rules, states, self.host, host_seat=seats.index("me"), pace=self.host.pace)
        seats_here = [i for i, who in enumerate(seats) if who == HERE]
        tokens = {room.host_seat: token} | {seat: t for seat, (_, t) in zip(seats_here, here, strict=True)}
        self.host.keeping.tokens[code] = tokens
        room.touch()
        async with room.lock:
            await room.deal()
            await room.save()
        self.rooms[code] = room
        return {
            "code": code,
            "token": token,
            "seat": room.host_seat,
            "here": [{"seat": seat, "token": t} for seat, (_, t) in zip(seats_here, here, strict=True)],
        }

    def watch(self, text: str) -> dict[str, Any]:
        """A record file (as ``eights replay`` reads it) to watch: checked that it replays exactly, then played
        again move by move at the table's pace, in a room of its own that only watches (and is not kept).

        :raises RoomError: ``bad_record``, naming what is wrong with the file.
        """
        try:
            record = GameRecord.from_json(text)
            record.replay()
            game = Game(record.rules, record.players, record.seed, deck=record.deck, dealer=record.dealer)
        except (RecordError, RulesError) as exc:
            raise RoomError("bad_record", f"this file cannot be watched: {exc}") from None
        config = PlayConfig(record.rules, (HUMAN,) * record.players, seed=record.seed, people=record.names)
        session = Session(config, game)
        seats = [SeatState("computer", name) for name in session.names]
        room = Room(new_code(), record.rules, seats, self.host, pace=self.host.pace, session=session)
        self.rooms[room.code] = room
        self.host.later(self.replay(room, session, record.actions))
        return {"code": room.code}

    async def replay(self, room: Room, session: Session, actions: Sequence[str]) -> None:
        """Play ``actions`` at the room's table, one at its pace, for those watching."""
        for text in actions:
            await self.host.sleep(room.pace)
            async with room.lock:
                await room.keep(session, session.check(parse_action(text), session.game.to_act))
                await room.broadcast()

    def matches(self) -> list[dict[str, Any]]:
        """The matches kept on the device, the latest first: what the list of past matches shows."""
        kept = sorted(self.host.keeping.saved.values(), key=lambda d: d.get("updated", 0), reverse=True)
        return [
            {
                "code": d["code"],
                "phase": d.get("phase"),
                "title": d.get("title"),
                "names": d.get("names", []),
                "result": d.get("result"),
                "moves": len(d.get("actions", [])),
                "started": d.get("started"),
                "updated": d.get("updated"),
                "tokens": d.get("tokens", {}),
                "host_seat": d.get("room", {}).get("host_seat", 0),
            }
            for d in kept
        ]

    def record(self, code: str, token: str) -> dict[str, Any]:
        """The record of the match of room ``code`` (``eights replay`` replays it), for one of its seats.

        :raises RoomError: ``no_room``; ``not_a_player`` without the token of one of its seats.
        """
        room = self.room(code)
        if room.session is None:
            raise RoomError("no_room", f"room {code} has no match yet")
        if room.seat_of(token) is None:
            raise RoomError("not_a_player", "the record is for the players of this room")
        record = GameRecord.of(room.session.game, room.session.names)
        return json.loads(record.to_json())  # type: ignore[no-any-return]

    def room(self, code: str) -> Room:
        """Room ``code``, taken up from the device's keeping if it is not played yet.

        :raises RoomError: ``no_room``.
        """
        code = code.strip().upper()
        if code in self.rooms:
            return self.rooms[code]
        data = self.host.keeping.saved.get(code)
        if data is None:
            raise RoomError("no_room", f"there is no game {code} on this device")
        room = self.rooms[code] = self.host.keeping.room_of(data, self.host)
        return room

    # ----- the page's connections -------------------------------------------------------------------------

    def open(self, number: int) -> None:
        """The page opened connection ``number``."""

        async def to_page(message: dict[str, Any]) -> None:
            self.deliver(number, json.dumps(message))

        self.connections[number] = Connection(to_page)

    async def close(self, number: int) -> None:
        """The page closed connection ``number``: its seat's person is away."""
        connection = self.connections.pop(number, None)
        if connection is not None and connection.room is not None:
            await connection.room.part(connection)

    async def message(self, number: int, text: str) -> None:
        """One message of connection ``number``; a refusal goes back as an ``error`` and changes nothing."""
        connection = self.connections.get(number)
        if connection is None:
            return
        try:
            message = json.loads(text)
            kind = message["type"]
            if kind == "ping":
                await send(connection, {"type": "pong"})
            elif kind == "hello":
                room = self.room(str(message["room"]))
                token = message.get("token")
                seat = room.seat_of(token) if isinstance(token, str) else None
                await room.join(connection, seat)
            elif kind in ROOM_MESSAGES:
                joined = connection.room
                if joined is None:
                    raise RoomError("bad_message", "say hello (with the room's code) first")
                async with joined.lock:
                    await joined.receive(connection, kind, message)
            else:
                valid = ", ".join(("hello", "ping", *ROOM_MESSAGES))
                raise RoomError("bad_message", f"{kind!r} is not a message; valid: {valid}")
        except RoomError as exc:
            await send(connection, error(exc.code, str(exc)))
            if exc.code == "stale" and connection.room is not None:
                await connection.room.send_state(connection)
        except (KeyError, TypeError, ValueError):  # (a room's refusal is a ValueError too: answered above)
            await send(connection, error("bad_message", "that message is missing a field or has one of the wrong kind"))
        except Fenced:
            return
