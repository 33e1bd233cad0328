"""The registry of a server's rooms (``Hub``): it makes rooms, finds them by code (taking up those saved before
a restart, or, with many instances, those nobody owns), expires those nobody uses, and hands each message
to its room (``room.Room``, an actor of its own) or, with many instances, to the room's owner
(``relay.Relays``). It holds what the rooms share: the store (``keeping.Keeping``), the computer players'
pool, the limits, the clock.

Strangers can reach all of it (docs/security.md): every room, connection and computer decision has a limit
(``settings.Limits``), rooms nobody uses expire, one connection's failure stays its own, and a room's task
that fails is started again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from redis.exceptions import RedisError

from eights.cluster.leases import Cluster
from eights.store import Store, StoreError
from eights.store.db import Fenced
from eights.store.rooms import SavedRoom
from eights.web.guard import Guard
from eights.web.protocol import CLOSE_GONE, CLOSE_MOVED, Hello, Incoming, Ping, error
from eights.web.queue import QueuePool
from eights.web.rooms.connection import Connection, send
from eights.web.rooms.errors import RoomError
from eights.web.rooms.keeping import EPOCH, Keeping
from eights.web.rooms.relay import Relays
from eights.web.rooms.room import Room
from eights.web.rooms.runner import STAND_IN
from eights.web.rooms.seats import DEFAULT_AWAY, OPEN, check_table, new_code, room_rules, table_seats
from eights.web.settings import Limits
from eights.web.workers import BotPool, Pool

log = logging.getLogger("eights.web")

#: Room codes: easy to read aloud and type (no 0/O, 1/I/L), and too many to guess: 31**9, 44.6 bits.
#: The longest code a room has had (codes were 5 letters before; such rooms are still found).
CODE_MAX = 12
#: How often expired rooms are looked for, in seconds.
SWEEP_EVERY = 60.0


def normal_code(code: str) -> str:
    """A room code as typed (any case, spaces or dashes between groups) as it is kept."""
    return "".join(code.split()).replace("-", "").upper()


class Hub:
    """Every room of a server, by code. ``clock`` and ``sleep`` are injectable so that tests need no real
    waiting."""

    def __init__(
        self,
        store: Store,
        pool: Pool | None = None,
        clock: Callable[[], float] = time.monotonic,
        pace: float = 0.7,
        limits: Limits | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        cluster: Cluster | None = None,
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.keeping = Keeping(store, self.limits, pace)
        self.guard = Guard(self.limits, cluster.url if cluster is not None else None)
        deadline = self.limits.think_seconds + 2.0
        if pool is None:  # with many instances, the searches go to the worker tier (eights worker)
            pool = BotPool(deadline=deadline) if cluster is None else QueuePool(cluster.url, deadline=deadline)
        self.pool: Pool = pool
        self.clock = clock
        self.sleep = sleep
        self.pace = pace
        self.rooms: dict[str, Room] = {}
        #: The first state version of this server's rooms (``restore`` moves it past every earlier start's).
        self.first_version = 1
        #: Rooms saved before a restart and not asked for since: each with when it was last used (the clock's).
        self.dormant: dict[str, tuple[SavedRoom, float]] = {}
        #: With many instances, the rooms made here and let go for the instance their first browser reaches,
        #: with when (the clock's): counted against ``max_rooms`` here for a lobby's lifetime.
        self.handed: dict[str, float] = {}
        self._sweeper: asyncio.Task[None] | None = None
        #: Told how long each computer decision took, in seconds (the server's metrics).
        self.on_decision: Callable[[float], None] | None = None
        #: The other instances and Redis, when this hub is one of many, and its relayed connections.
        self.cluster = cluster
        self.relays = Relays(self, cluster) if cluster is not None else None
        self._tasks: set[asyncio.Task[None]] = set()
        #: Rooms being taken up here now, each by one task that the hellos asking for it wait for.
        self._claiming: dict[str, asyncio.Task[Room | None]] = {}

    # ----- making rooms ------------------------------------------------------------------------------------

    async def new_code(self) -> str:
        """A code no room here or in the store has (the store asked off the event loop)."""
        while True:
            code = new_code()
            if code not in self.rooms and not await asyncio.to_thread(self.keeping.saved.exists, code):
                return code

    async def _new_room_code(self) -> tuple[str, int | None]:
        """A new room's code, and with many instances its lease (taken) and its fence.

        :raises RoomError: ``busy`` while Redis cannot be reached.
        """
        while True:
            code = await self.new_code()
            if self.cluster is None:
                return code, None
            try:
                taken = await self.cluster.acquire(code)
            except (RedisError, OSError):
                raise RoomError("busy", "the server cannot reach its other half just now: try again soon") from None
            if taken:
                return code, await self.keeping.next_epoch()

    async def create(
        self,
        name: str,
        preset: str = "classic",
        options: dict[str, str] | None = None,
        players: int | None = None,
        seats: list[str] | None = None,
        away_seconds: int = DEFAULT_AWAY,
        start: bool = False,
        pace: float | None = None,
        client: str | None = None,
        here: Sequence[tuple[str, str]] = (),
        held: bool = True,
    ) -> tuple[Room, str, int]:
        """A new room with its creator seated (the host); started at once when ``start``. ``client``: the
        creator's address, counted against its share of new rooms. ``here``: a (name, token) for each seat
        given as ``"here"``, in seat order: a person playing on the creator's device (pass and play), who
        says hello with that token (made by the caller with ``new_token``) on a connection of their own.
        With many instances and not ``held``, the room is saved and let go at once: the instance its first
        browser reaches takes it up (where a balancer sends a room's every socket to one instance, that one
        plays it, and nothing is relayed; docs/deploy.md).

        :raises RoomError: ``bad_setup`` or ``bad_name``, naming the problem; ``too_many_rooms`` when the
            server holds all the rooms it may, or the client made its share for now.
        """
        rules = room_rules(preset, options or {})
        if seats is None:
            count = players or min(max(2, rules.min_players), rules.max_players)
            seats = ["me", *([STAND_IN] * (count - 1))] if start else ["me", *([OPEN] * (count - 1))]
        states, token = table_seats(name, seats, here)
        check_table(rules, states, players, self.limits)
        if start and any(s.kind == OPEN for s in states):
            raise RoomError("bad_setup", "seats: a game that starts at once cannot have open seats")
        if len(self.rooms) + len(self.dormant) + len(self.handed) >= self.limits.max_rooms:
            raise RoomError("too_many_rooms", "the server has as many rooms as it can hold: try again later")
        if client is not None and not self.guard.make_room(client):
            raise RoomError("too_many_rooms", "you have made many rooms just now: wait a while, or play in one of them")
        code, fence = await self._new_room_code()
        room = Room(
            code,
            rules,
            states,
            self,
            host_seat=seats.index("me"),
            away_seconds=away_seconds,
            pace=self.pace if pace is None else pace,
            version=self.first_version if fence is None else fence * EPOCH + 1,
            fence=fence,
        )
        room.touch()
        async with room.lock:
            if start:
                await room.deal()
            await room.save()
        if self.cluster is not None and not held:
            self.handed[room.code] = self.clock()  # counted here until it expires, wherever it is played
            with contextlib.suppress(RedisError, OSError):  # (a lease not let go lapses by itself)
                await self.cluster.release(room.code)
            return room, token, room.host_seat
        self.rooms[room.code] = room  # only once dealt and saved: a failure leaves nothing behind
        if start:
            room.runner.start()
        return room, token, room.host_seat

    # ----- finding rooms -----------------------------------------------------------------------------------

    def plays(self, code: str) -> bool:
        """Whether the room ``code`` is played here now."""
        return normal_code(code) in self.rooms

    def get(self, code: str, client: str | None = None) -> Room:
        """The room ``code``; a client that guesses too many codes is refused for a while.

        :raises RoomError: ``no_room``, or ``too_fast`` for a client guessing codes.
        """
        self._look_up(client)
        key = normal_code(code)
        room = (self.rooms.get(key) or self._take_up(key)) if len(key) <= CODE_MAX else None
        if room is None:
            raise self._missing(code, client)
        return room

    async def find(self, code: str, client: str | None = None) -> Room:
        """The room ``code`` for a look from outside (its page, its QR code, its record): with many instances,
        one owned by another is read from the store as it was last saved (its people's connections unknown).

        :raises RoomError: as ``get``.
        """
        if self.cluster is None:
            return self.get(code, client)
        self._look_up(client)
        key = normal_code(code)
        if key in self.rooms:
            return self.rooms[key]
        saved = await asyncio.to_thread(self.keeping.saved.get, key) if len(key) <= CODE_MAX else None
        room = None if saved is None else self.keeping.room_of(saved, 0, self, playing=False)
        if room is None:
            raise self._missing(code, client)
        return room

    async def _locate(self, code: str, client: str | None) -> Room | str:
        """With many instances: the room ``code`` if this instance owns it (taking it up from the store when
        nobody does), else its owner's name.

        :raises RoomError: ``no_room`` (or ``too_fast``), as ``get``; ``busy`` while Redis cannot be reached.
        """
        assert self.cluster is not None
        self._look_up(client)
        key = normal_code(code)
        if key in self.rooms:
            return self.rooms[key]
        if len(key) > CODE_MAX:
            raise self._missing(code, client)
        try:
            owner = await self.cluster.owner(key)
            if owner is None or owner == self.cluster.id:  # (ours: being taken up, or let go just now)
                room = await self._claim(key)
                if room is not None:
                    return room
                owner = await self.cluster.owner(key)
        except (RedisError, OSError):
            raise RoomError("busy", "the server cannot reach its other half just now: it tries again") from None
        if owner is None or owner == self.cluster.id:
            raise self._missing(code, client)
        return owner

    async def _claim(self, code: str) -> Room | None:
        """Take the saved room ``code`` up here, with a lease and a new fence, if nobody owns it; None when it
        cannot be had (another instance was quicker, or there is no such room, or it expired). Hellos that come
        together for one room share one taking up: a room is never taken up twice at once here."""
        if code in self.rooms:
            return self.rooms[code]
        claiming = self._claiming.get(code)
        if claiming is None:
            claiming = asyncio.get_running_loop().create_task(self._take_over(code))
            self._claiming[code] = claiming
            claiming.add_done_callback(lambda _: self._claiming.pop(code, None))
        return await asyncio.shield(claiming)

    async def _take_over(self, code: str) -> Room | None:
        assert self.cluster is not None
        if not await self.cluster.acquire(code):
            return None
        fence = await self.keeping.next_epoch()
        saved = await asyncio.to_thread(self.keeping.saved.take, code, fence)
        age = None if saved is None else self.keeping.age(saved)
        room = None
        if saved is not None and age is not None and age <= self.keeping.lifetime(saved.phase):
            room = self.keeping.room_of(saved, fence * EPOCH + 1, self)
        if room is None or age is None:
            await self.cluster.release(code)
            return None
        room.touched = self.clock() - age
        self.rooms[code] = room
        return room

    def _look_up(self, client: str | None) -> None:
        """:raises RoomError: ``too_fast`` for a client that has guessed too many codes that led nowhere."""
        if client is not None and not self.guard.may_look_up(client):
            raise RoomError("too_fast", "too many room codes that lead nowhere: wait a minute, then check the link")

    def _missing(self, code: str, client: str | None) -> RoomError:
        if client is not None:
            self.guard.missed(client)
        shown = code if len(code) <= CODE_MAX + 4 else code[:CODE_MAX] + "..."
        return RoomError("no_room", f"there is no room {shown!r}: check the code or the link")

    # ----- rooms saved before a restart, and rooms nobody uses ----------------------------------------------

    async def restore(self) -> int:
        """After a restart: every saved room that has not expired (the newest first, as many as the server may
        hold) is known again, and taken up (its match played again from the store) when someone asks for it;
        expired rooms are forgotten. The count known."""
        epoch = await self.keeping.next_epoch()
        self.first_version = epoch * EPOCH + 1
        expired = []
        for saved in reversed(self.keeping.saved.all()):
            age = self.keeping.age(saved)
            if age > self.keeping.lifetime(saved.phase) or len(self.dormant) >= self.limits.max_rooms:
                expired.append(saved.code)
            elif self.cluster is None:
                self.dormant[saved.code] = (saved, self.clock() - age)
        if self.cluster is not None:  # a room another instance plays now is not expired
            expired = [code for code in expired if await self.cluster.owner(code) is None]
        self.keeping.saved.delete(expired)
        return len(self.dormant)

    def _take_up(self, code: str) -> Room | None:
        """The saved room ``code`` taken up again, or None when there is none or it cannot be read back (it is
        then left in the store as it is). Nobody is back yet: it waits for its people (``hello`` starts it)."""
        found = self.dormant.pop(code, None)
        if found is None:
            return None
        saved, touched = found
        room = self.keeping.room_of(saved, self.first_version, self)
        if room is not None:
            room.touched = touched
            self.rooms[room.code] = room
        return room

    def start_sweeping(self) -> None:
        """Look for expired rooms every ``SWEEP_EVERY`` seconds, from now on."""
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def _sweep_forever(self) -> None:
        while True:
            await self.sleep(SWEEP_EVERY)
            try:
                await self.sweep()
            except StoreError as exc:
                log.warning("eights: the rooms could not be swept: %s", exc)

    async def sweep(self) -> list[str]:
        """Forget every room nobody is in that has not changed for its phase's lifetime, and tell the store
        which rooms were used since the last sweep (off the event loop). With many instances, also forget the
        saved rooms no instance plays that have outlived their phase's lifetime (made and never taken up, or
        left by an instance that went away). The codes forgotten."""
        now = self.clock()
        lifetime = self.keeping.lifetime
        gone = [
            code
            for code, room in self.rooms.items()
            if not room.people_here() and now - room.touched > lifetime(room.phase)
        ]
        for code in gone:
            room = self.rooms.pop(code)
            room.runner.stop()
            for watcher in room.connections:  # spectators alone do not keep a room
                watcher.room = None
                watcher.closed = True
                if watcher.close is not None:
                    watcher.close(CLOSE_GONE)
        asleep = [code for code, (saved, used) in self.dormant.items() if now - used > lifetime(saved.phase)]
        for code in asleep:
            del self.dormant[code]
        gone += asleep
        for code in [code for code, made in self.handed.items() if now - made > self.limits.lobby_seconds]:
            del self.handed[code]
        used = [code for code, room in self.rooms.items() if room.fresh or room.people_here()]
        saved = self.keeping.saved
        await asyncio.to_thread(saved.delete, gone)
        if self.cluster is not None:
            for code in gone:
                self.later(self.cluster.release(code))
            gone += await self._sweep_unplayed()
        await asyncio.to_thread(saved.touch, used)
        for code in used:
            self.rooms[code].fresh = False
        return gone

    async def _sweep_unplayed(self) -> list[str]:
        """With many instances: the saved rooms past their phase's lifetime that no instance holds a lease
        on, forgotten (any instance may do it: one that takes such a room up meanwhile finds it gone)."""
        assert self.cluster is not None
        lifetimes = {phase: self.keeping.lifetime(phase) for phase in ("lobby", "playing", "over")}
        stale = await asyncio.to_thread(self.keeping.saved.unused, lifetimes)
        try:
            owners = [await self.cluster.owner(code) for code in stale]
        except (RedisError, OSError):
            return []
        unplayed = [code for code, owner in zip(stale, owners, strict=True) if owner is None and code not in self.rooms]
        await asyncio.to_thread(self.keeping.saved.delete, unplayed)
        return unplayed

    # ----- messages ----------------------------------------------------------------------------------------

    async def receive(self, connection: Connection, message: Incoming) -> bool:
        """One validated message from a browser; a refusal goes back as an ``error`` and changes nothing.
        Whether it was taken (False: refused)."""
        if connection.replaced:
            return True  # a late message on a connection whose seat moved to a newer one
        room = None
        try:
            if isinstance(message, Ping) and connection.relay is None:
                await send(connection, {"type": "pong"})
            elif isinstance(message, Hello):
                await self.hello(connection, message)
            elif connection.relay is not None:  # its room's owner answers, even a ping: the whole way works
                assert self.relays is not None
                await self.relays.forward(connection, "message", message)
            else:
                room = connection.room
                if room is None:
                    raise RoomError("bad_message", "say hello (with the room's code) first")
                async with room.lock:
                    if connection.replaced:
                        return True
                    await room.receive(connection, message.type, message.model_dump())
        except Fenced:
            if room is not None:  # another instance took the room over: its browsers go there
                await self.let_go(room)
            return True
        except RoomError as exc:
            await send(connection, error(exc.code, str(exc)))
            if exc.code == "stale" and connection.room is not None:
                await connection.room.send_state(connection)
            if exc.code == "busy" and connection.close is not None:  # Redis is away: the page tries again soon
                connection.close(CLOSE_MOVED)
            return False
        return True

    async def hello(self, connection: Connection, message: Hello) -> None:
        """Join a room: as the seat whose token is given, else as a spectator (``Room.join``); with many
        instances, a room owned by another is relayed to it."""
        if connection.remote is not None:  # relayed here by the instance that found this one the owner
            room = self.rooms.get(normal_code(message.room)) or self.get("", connection.client)
        elif self.relays is not None:
            found = await self._locate(message.room, connection.client)
            if not isinstance(found, Room):
                await self.relays.relay(connection, found, normal_code(message.room), message)
                return
            room = found
        else:
            room = self.get(message.room, connection.client)
        if self.relays is not None:
            await self.relays.unrelay(connection)
        seat = None
        if message.token is not None:
            seat = room.seat_of(message.token)
            if seat is None:
                raise RoomError("bad_token", "that seat token is not one of this room's: you join as a spectator")
        if connection.room is not None and connection.room is not room:
            await self.disconnect(connection)  # the room it leaves hears of it, and times its away person
        await room.join(connection, seat)

    async def disconnect(self, connection: Connection) -> None:
        """``connection`` has gone (its socket closed, or it was let go)."""
        if self.relays is not None:
            await self.relays.unrelay(connection)
        room = connection.room
        if room is not None:
            await room.part(connection)

    # ----- the rooms' host ---------------------------------------------------------------------------------

    def later(self, work: Awaitable[Any]) -> None:
        """Run ``work`` in a task of its own, kept until it ends or the server closes (its Redis errors are the
        beat's to notice)."""

        async def run() -> None:
            with contextlib.suppress(RedisError, OSError):
                await work

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def let_go(self, room: Room) -> None:
        """Another instance owns ``room`` now: forget it here; its browsers reconnect and find it there."""
        registered = self.rooms.get(room.code) is room
        if registered:
            del self.rooms[room.code]
            log.warning("eights: room %s is played by another instance now", room.code)
        if room.runner.task is not asyncio.current_task():
            room.runner.stop()
        for connection in list(room.connections):
            connection.room = None
            if connection.remote is not None and self.relays is not None:
                await self.relays.remote_close(connection.remote, CLOSE_MOVED)
            elif connection.close is not None:
                connection.closed = True
                connection.close(CLOSE_MOVED)
        room.connections.clear()
        if self.cluster is not None and registered:
            with contextlib.suppress(RedisError, OSError):
                await self.cluster.release(room.code)

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for room in self.rooms.values():
            room.runner.stop()
        for task in list(self._tasks):
            task.cancel()
        if self.relays is not None:
            self.relays.close()
        await self.pool.aclose()
        self.guard.close()
        if self.cluster is not None:
            with contextlib.suppress(RedisError, OSError):
                for code in list(self.rooms):  # the rooms are saved: another instance takes them up at once
                    await self.cluster.release(code)
            await self.cluster.close()

    # ----- many instances ----------------------------------------------------------------------------------

    def start_cluster(self) -> None:
        """Listen for the other instances and beat, from now on (with ``--redis``)."""
        if self.cluster is not None and self.relays is not None:
            self.cluster.start(self.relays.on_envelope, self.on_beat)

    async def on_beat(self) -> None:
        """After each life sign: keep this instance's leases, let go of rooms another holds now, and tend the
        relayed connections (``Relays.on_beat``)."""
        assert self.cluster is not None and self.relays is not None
        for code in await self.cluster.renew(list(self.rooms)):
            room = self.rooms.get(code)
            if room is not None:
                await self.let_go(room)
        await self.relays.on_beat()
