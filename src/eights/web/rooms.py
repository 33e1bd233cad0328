"""The room hub: every room of the web table, its seats and connections, its match, and its computers.

One ``Room`` per code, each with a lock: every message that changes a room runs under it,
checks who sent it, in which phase, at which state version, and only then asks the table
layer's ``Session`` (the engine's checked door) to act; a refused message changes nothing.
After every change each connection gets the room's state as its own seat (or a spectator)
may see it. Rooms are saved in the match store as they change, and matches action by
action, so a restarted server takes every room up again.

With ``--redis`` (``eights.web.cluster``) the hub is one instance of many: it plays the rooms it owns, and
relays the messages of its browsers in other rooms to their owners and back.

Strangers can reach all of it (docs/security.md): every room, connection and computer decision has a
limit (``settings.Limits``), rooms nobody uses expire, one connection's failure stays its own, and a
room's task that fails is started again.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from redis.exceptions import RedisError

from eights.bots import LEVELS, Bot, ISMCTSBot, make_bot
from eights.cards import CardError
from eights.engine import ActionError, IllegalAction, View, parse_action
from eights.names import same_name
from eights.rules import PRESETS, RulesError, RuleSet, load_preset
from eights.rules.describe import heading
from eights.seeds import bot_seed
from eights.store import Store, StoreError
from eights.store.db import Fenced, token_hash
from eights.store.matches import rule_changes
from eights.store.rooms import Rooms, SavedRoom
from eights.table import HUMAN, PlayConfig, Session, UsageError
from eights.table.phrases import hint_words
from eights.table.saved import saved_session, start_saved
from eights.table.session import Move, check_name
from eights.web.cluster import Cluster, Envelope
from eights.web.guard import Bucket, Guard
from eights.web.protocol import (
    CLOSE_FLOOD,
    CLOSE_GONE,
    CLOSE_MOVED,
    Act,
    AskHint,
    Hello,
    Incoming,
    Ping,
    ProtocolError,
    Rematch,
    Setup,
    Sit,
    Start,
    error,
    parse,
)
from eights.web.queue import QueuePool
from eights.web.settings import Limits
from eights.web.tableview import Narrations, SeatLog, table_json
from eights.web.workers import BotPool, Pool, PoolClosed

log = logging.getLogger("eights.web")

#: Room codes: easy to read aloud and type (no 0/O, 1/I/L), and too many to guess: 31**9, 44.6 bits.
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 9
#: The longest code a room has had (codes were 5 letters before; such rooms are still found).
CODE_MAX = 12
#: How many narration lines a newly joined connection gets.
LOG_BACKLOG = 200
#: The computer level that plays for a person who is away.
STAND_IN = "normal"
DEFAULT_AWAY = 60
OPEN = "open"
#: A seat for a person on the creator's device (pass and play).
HERE = "here"
#: How often expired rooms are looked for, in seconds.
SWEEP_EVERY = 60.0
#: A room's state versions count from its server's start (its epoch, one more at every start) times this:
#: a version never goes back across restarts, so a late message from before one cannot match a new state.
EPOCH = 2**32
#: Where the store keeps the server's last epoch.
EPOCH_KEY = "web_epoch"
#: Messages that may wait to be published to a connection another instance holds (a state per move: far
#: more than a room sends while Redis answers); past them the connection is let go.
REMOTE_OUTBOX = 256
#: Times a room's task may fail and be started again within ``RESTART_WINDOW`` seconds.
RESTARTS, RESTART_WINDOW = 5, 60.0

Send = Callable[[dict[str, Any]], Awaitable[None]]


class RoomError(ValueError):
    """A refused message: ``code`` and a sentence for the player."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@functools.lru_cache(maxsize=256)
def in_words(rules: RuleSet) -> tuple[str, tuple[str, ...]]:
    """A room's rules as everyone sees them: the heading and the changes to the preset (made once per
    rule set: each parses the preset's file again, which took half the server's time at 500 rooms)."""
    return heading(rules), rule_changes(rules)


def normal_code(code: str) -> str:
    """A room code as typed (any case, spaces or dashes between groups) as it is kept."""
    return "".join(code.split()).replace("-", "").upper()


def new_token() -> str:
    """A new seat token (the room keeps only its hash)."""
    return secrets.token_urlsafe(16)


def same_token(token: str, hashed: str | None) -> bool:
    """Whether ``token`` hashes to ``hashed``, compared in constant time."""
    return hashed is not None and hmac.compare_digest(token_hash(token), hashed)


def web_seat(who: str) -> str:
    """A computer seat of the web table: a named level only (a budget would let a stranger hold the server's
    computers for as long as they like).

    :raises RoomError: ``bad_setup``, naming the levels.
    """
    level = who.strip().lower()
    if level not in LEVELS:
        raise RoomError("bad_setup", f"seats: unknown computer {who!r}; valid: open, {', '.join(LEVELS)}")
    return level


@dataclass(frozen=True)
class Relay:
    """Where a connection's messages go when another instance owns its room."""

    owner: str
    code: str
    #: The connection's name on the owner.
    id: str


@dataclass(eq=False)
class Connection:
    """One browser tab's WebSocket, as the hub sees it."""

    send: Send
    #: The client's address (for its limits).
    client: str = "local"
    room: Room | None = None
    seat: int | None = None
    #: The narration this connection has been sent (None: none yet).
    log: SeatLog | None = None
    #: Set when a newer connection took this one's seat: its messages are dropped.
    replaced: bool = False
    #: Set when its socket is closed or closing (a failed send, a reader too slow): it gets nothing more.
    closed: bool = False
    #: Closes its socket with a close code (the hub's way to end a connection, as when its room expires).
    close: Callable[[int], None] | None = None
    #: Set while another instance owns its room: its messages go there.
    relay: Relay | None = None
    #: On a room's owner, a connection held by another instance: (that instance, its name there), and its
    #: refused messages (counted here: its instance cannot tell which were refused).
    remote: tuple[str, str] | None = None
    refusals: Bucket | None = None


@dataclass
class SeatState:
    kind: str  # "open", "person" or "computer"
    name: str = ""
    level: str | None = None
    token: str | None = None  # its hash
    connection: Connection | None = None
    #: Seconds this person has been away during their own turns (reset when they come back).
    away: float = 0.0
    stand_in: bool = False

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "level": self.level, "token": self.token, "away": self.away}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> SeatState:
        return cls(
            data["kind"], data.get("name", ""), data.get("level"), data.get("token"), away=float(data.get("away", 0))
        )


@dataclass(eq=False)
class Room:
    code: str
    rules: RuleSet
    seats: list[SeatState]
    host_seat: int = 0
    away_seconds: int = DEFAULT_AWAY
    #: Seconds between computer moves (people need a moment to follow them).
    pace: float = 0.7
    session: Session | None = None
    match_id: int | None = None
    version: int = 1
    connections: list[Connection] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    stand_ins: dict[int, Bot] = field(default_factory=dict)
    #: When the person to act went away on this turn (the hub's clock), if they are away.
    away_since: float | None = None
    #: The task playing the computers' turns and timing away players, if one runs.
    runner: asyncio.Task[None] | None = None
    #: What the store last got (phase, ``to_data()``, match): a room is written only when it changed.
    saved_as: tuple[str, dict[str, Any], int | None] | None = None
    #: When the room last changed or was left (the hub's clock): it expires after its phase's limit.
    touched: float = 0.0
    #: Whether it was touched since the store last heard of it.
    fresh: bool = False
    #: Whether its runner is waiting for an away person's time to run out (a timer to stop if they return).
    waiting: bool = False
    #: When its task last failed and was started again (the hub's clock).
    restarts: list[float] = field(default_factory=list)
    #: Its owner's fence in the store, when many instances serve it (every write carries it).
    fence: int | None = None
    #: The phase saved, for a room read from the store on an instance that does not own it.
    saved_phase: str | None = None
    #: Its match told once per seat (and for its spectators), read by every connection.
    narrations: Narrations = field(default_factory=lambda: Narrations(LOG_BACKLOG))

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
        """Seconds left (at the hub's clock ``now``) before a computer plays for the person to act, who is
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
        """The room as everyone may see it; with the hub's clock ``now``, the away countdown's ``away_left``."""
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


def think_time(bot: Bot) -> float:
    """Seconds a computer of this kind takes on every move, whatever the position: its search's time budget."""
    return float(bot.seconds or 0.0) if isinstance(bot, ISMCTSBot) else 0.0


#: Seconds the runner waits before asking a store that failed again: doubled at each failure in a row, to
#: at most ``STORE_RETRY_MAX``.
STORE_RETRY, STORE_RETRY_MAX = 0.25, 4.0


def store_retry(failures: int) -> float:
    """Seconds to wait after ``failures`` failures of the store in a row."""
    return min(STORE_RETRY_MAX, STORE_RETRY * 2.0 ** (failures - 1))


def log_store_trouble(code: str, exc: StoreError) -> None:
    """Log that the store failed a room (the class only: a store's words may quote a move's card)."""
    log.warning("eights: room %s: the store failed (%s); the table waits for it", code, type(exc).__name__)


def rules_from(preset: str, options: dict[str, str]) -> RuleSet:
    """:raises RulesError: naming the bad preset or option."""
    name = preset.strip().lower()
    if name not in PRESETS:
        raise RulesError(f"unknown preset {preset!r}; valid: {', '.join(PRESETS)}")
    rules = load_preset(name)
    return rules.with_options(options) if options else rules


def check_hands(rules: RuleSet, players: int, most: int) -> None:
    """Refuse rules that deal a hand of more than ``most`` cards at a table of ``players``
    (``Limits.max_hand_size``): the engine plays any deal the packs allow, but the server's computer
    players and hints are made for hands people hold.

    :raises RulesError: naming the options that deal too many, and the bound.
    """
    sizes = rules.schedule or (rules.hand_size(players),)
    biggest = max(sizes)
    if biggest <= most:
        return
    named = ("deal", "deal_two_players", "deal_extra_packs")
    over = [name for name in named if getattr(rules, name) > most] or (["rounds"] if rules.schedule else ["deal"])
    raise RulesError(
        f"{', '.join(over)}: a hand of {biggest} cards is more than this server deals "
        f"(at most {most} cards a hand); deal fewer"
    )


class Hub:
    """Every room, by code. ``clock`` and ``sleep`` are injectable so that tests need no real waiting."""

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
        self.saved = Rooms(store)
        self.limits = limits or Limits()
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
        #: The other instances and Redis, when this hub is one of many.
        self.cluster = cluster
        #: This instance's connections relayed to other owners, by their name there.
        self.relayed: dict[str, Connection] = {}
        #: Connections other instances hold to rooms owned here, by (instance, name).
        self.remote: dict[tuple[str, str], Connection] = {}
        #: The task that publishes each remote connection's outbox.
        self._pumps: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: Rooms whose hint is being worked out (one at a time each).
        self._hinting: set[str] = set()
        #: Rooms being taken up here now, each by one task that the hellos asking for it wait for.
        self._claiming: dict[str, asyncio.Task[Room | None]] = {}

    # ----- rooms -------------------------------------------------------------------------------------------

    def new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in self.rooms and not self.saved.exists(code):
                return code

    async def _new_room_code(self) -> tuple[str, int | None]:
        """A new room's code, and with many instances its lease (taken) and its fence.

        :raises RoomError: ``busy`` while Redis cannot be reached.
        """
        while True:
            code = self.new_code()
            if self.cluster is None:
                return code, None
            try:
                taken = await self.cluster.acquire(code)
            except (RedisError, OSError):
                raise RoomError("busy", "the server cannot reach its other half just now: try again soon") from None
            if taken:
                return code, await asyncio.to_thread(self.store.next_epoch, EPOCH_KEY)

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
        try:
            person = check_name(name)
        except UsageError as exc:
            raise RoomError("bad_name", str(exc)) from None
        rules = self._rules(preset, options or {})
        if seats is None:
            count = players or min(max(2, rules.min_players), rules.max_players)
            seats = ["me", *([STAND_IN] * (count - 1))] if start else ["me", *([OPEN] * (count - 1))]
        if seats.count("me") != 1:
            raise RoomError("bad_setup", 'seats: give "me" once, for the seat of the room\'s creator')
        if seats.count(HERE) != len(here):
            raise RoomError("bad_setup", f'seats: {seats.count(HERE)} seats are "here" but {len(here)} names given')
        token = new_token()
        states = []
        locals_ = iter(here)
        for who in seats:
            if who == "me":
                states.append(SeatState("person", person, token=token_hash(token)))
            elif who == HERE:
                local_name, local_token = next(locals_)
                try:
                    states.append(SeatState("person", check_name(local_name), token=token_hash(local_token)))
                except UsageError as exc:
                    raise RoomError("bad_name", str(exc)) from None
            else:
                states.append(self._seat(who))
        self._check(rules, states, players)
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
            host_seat=seats.index("me"),
            away_seconds=away_seconds,
            pace=self.pace if pace is None else pace,
            version=self.first_version if fence is None else fence * EPOCH + 1,
            fence=fence,
        )
        self._touch(room)
        async with room.lock:
            if start:
                await self._deal(room)
            await self._save(room)
        if self.cluster is not None and not held:
            self.handed[room.code] = self.clock()  # counted here until it expires, wherever it is played
            with contextlib.suppress(RedisError, OSError):  # (a lease not let go lapses by itself)
                await self.cluster.release(room.code)
            return room, token, room.host_seat
        self.rooms[room.code] = room  # only once dealt and saved: a failure leaves nothing behind
        if start:
            self._run(room)
        return room, token, room.host_seat

    def _rules(self, preset: str, options: dict[str, str]) -> RuleSet:
        try:
            return rules_from(preset, options)
        except RulesError as exc:
            raise RoomError("bad_setup", str(exc)) from None

    def _seat(self, who: str) -> SeatState:
        if who == OPEN:
            return SeatState(OPEN)
        if who.strip().lower() in (HUMAN, "person", "me"):
            raise RoomError(
                "bad_setup",
                'seats: a person takes an open seat; give "open", "here" (on this device) or a computer level',
            )
        return SeatState("computer", level=web_seat(who))

    def _check(self, rules: RuleSet, seats: list[SeatState], players: int | None) -> None:
        if players is not None and players != len(seats):
            raise RoomError("bad_setup", f"players: {players} given, but {len(seats)} seats listed")
        try:
            rules.check_players(len(seats))
            check_hands(rules, len(seats), self.limits.max_hand_size)
        except RulesError as exc:
            raise RoomError("bad_setup", str(exc)) from None

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
        saved = self.saved.get(key) if len(key) <= CODE_MAX else None
        room = None if saved is None else self._room_of(saved, 0, playing=False)
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
        fence = self.store.next_epoch(EPOCH_KEY)
        saved = self.saved.take(code, fence)
        age = None if saved is None else self._age(saved)
        room = None
        if saved is not None and age is not None and age <= self.lifetime(saved.phase):
            room = self._room_of(saved, fence * EPOCH + 1)
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

    def _touch(self, room: Room) -> None:
        room.touched, room.fresh = self.clock(), True

    async def _deal(self, room: Room) -> None:
        """A new match at this table, saved from its deal on (the store written off the event loop)."""
        try:
            session = await asyncio.to_thread(start_saved, self.store, room.config())
        except (RulesError, UsageError) as exc:
            raise RoomError("bad_setup", str(exc)) from None
        for seat in room.seats:
            seat.stand_in, seat.away = False, 0.0
        room.stand_ins.clear()
        room.away_since = None
        session.speed = 5
        room.session = session
        self._fence(room)
        room.match_id = session.log.match_id if session.log is not None else None  # type: ignore[attr-defined]
        room.version += 1

    @staticmethod
    def _fence(room: Room) -> None:
        """Give the room's match its owner's fence: each of its moves is then saved only while it is the owner."""
        if room.fence is not None and room.session is not None and room.session.log is not None:
            room.session.log.fence = (room.code, room.fence)  # type: ignore[attr-defined]

    async def _save(self, room: Room) -> None:
        """Write the room to the store (off the event loop) if it changed since it was last written (a
        move changes only the match, which the session saves itself).

        :raises Fenced: when another instance has taken the room over.
        """
        saved = (room.phase, room.to_data(), room.match_id)
        if saved != room.saved_as:
            await asyncio.to_thread(self.saved.save, room.code, *saved, fence=room.fence)
            room.saved_as = saved
            room.fresh = False

    def lifetime(self, phase: str) -> float:
        """Seconds a room in ``phase`` lives unused."""
        limits = self.limits
        return {"lobby": limits.lobby_seconds, "over": limits.over_seconds}.get(phase, limits.abandoned_seconds)

    async def restore(self) -> int:
        """After a restart: every saved room that has not expired (the newest first, as many as the server may
        hold) is known again, and taken up (its match played again from the store) when someone asks for it;
        expired rooms are forgotten. The count known."""
        epoch = self.store.next_epoch(EPOCH_KEY)
        self.first_version = epoch * EPOCH + 1
        expired = []
        for saved in reversed(self.saved.all()):
            age = self._age(saved)
            if age > self.lifetime(saved.phase) or len(self.dormant) >= self.limits.max_rooms:
                expired.append(saved.code)
            elif self.cluster is None:
                self.dormant[saved.code] = (saved, self.clock() - age)
        if self.cluster is not None:  # a room another instance plays now is not expired
            expired = [code for code in expired if await self.cluster.owner(code) is None]
        self.saved.delete(expired)
        return len(self.dormant)

    @staticmethod
    def _age(saved: SavedRoom) -> float:
        """Seconds since the saved room was last used."""
        moment = datetime.now(UTC).replace(tzinfo=None)
        return max(0.0, (moment - saved.updated_at) / timedelta(seconds=1))

    def _take_up(self, code: str) -> Room | None:
        """The saved room ``code`` taken up again, or None when there is none or it cannot be read back (it is
        then left in the store as it is). Nobody is back yet: it waits for its people (``hello`` starts it)."""
        found = self.dormant.pop(code, None)
        if found is None:
            return None
        saved, touched = found
        room = self._room_of(saved, self.first_version)
        if room is not None:
            room.touched = touched
            self.rooms[room.code] = room
        return room

    def _room_of(self, saved: SavedRoom, version: int, playing: bool = True) -> Room | None:
        """The saved room as it was, its match played again from the store (unless not ``playing``: only
        what a look from outside needs), or None when it cannot be read back."""
        data = saved.data
        try:
            room = Room(
                saved.code,
                RuleSet.from_dict(data["rules"]),
                [SeatState.from_data(s) for s in data["seats"]],
                host_seat=int(data.get("host_seat", 0)),
                away_seconds=int(data.get("away_seconds", DEFAULT_AWAY)),
                pace=float(data.get("pace", self.pace)),
                match_id=saved.match_id,
                version=version,
                fence=saved.fence,
            )
            for state in room.seats:
                if state.kind == "computer":
                    state.level = web_seat((state.level or STAND_IN).partition("@")[0])
            if not playing:
                room.saved_phase = saved.phase
            elif saved.match_id is not None:
                room.session = saved_session(self.store, saved.match_id)
                room.session.speed = 5
                self._fence(room)
        except (KeyError, TypeError, ValueError, RulesError, StoreError, RoomError):
            return None
        room.saved_as = (saved.phase, room.to_data(), saved.match_id)
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
        gone = [
            code
            for code, room in self.rooms.items()
            if not room.people_here() and now - room.touched > self.lifetime(room.phase)
        ]
        for code in gone:
            room = self.rooms.pop(code)
            if room.runner is not None:
                room.runner.cancel()
            for watcher in room.connections:  # spectators alone do not keep a room
                watcher.room = None
                watcher.closed = True
                if watcher.close is not None:
                    watcher.close(CLOSE_GONE)
        asleep = [code for code, (saved, used) in self.dormant.items() if now - used > self.lifetime(saved.phase)]
        for code in asleep:
            del self.dormant[code]
        gone += asleep
        for code in [code for code, made in self.handed.items() if now - made > self.limits.lobby_seconds]:
            del self.handed[code]
        used = [code for code, room in self.rooms.items() if room.fresh or room.people_here()]
        await asyncio.to_thread(self.saved.delete, gone)
        if self.cluster is not None:
            for code in gone:
                self._later(self.cluster.release(code))
            gone += await self._sweep_unplayed()
        await asyncio.to_thread(self.saved.touch, used)
        for code in used:
            self.rooms[code].fresh = False
        return gone

    async def _sweep_unplayed(self) -> list[str]:
        """With many instances: the saved rooms past their phase's lifetime that no instance holds a lease
        on, forgotten (any instance may do it: one that takes such a room up meanwhile finds it gone)."""
        assert self.cluster is not None
        lifetimes = {phase: self.lifetime(phase) for phase in ("lobby", "playing", "over")}
        stale = await asyncio.to_thread(self.saved.unused, lifetimes)
        try:
            owners = [await self.cluster.owner(code) for code in stale]
        except (RedisError, OSError):
            return []
        unplayed = [code for code, owner in zip(stale, owners, strict=True) if owner is None and code not in self.rooms]
        await asyncio.to_thread(self.saved.delete, unplayed)
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
                await self._send(connection, {"type": "pong"})
            elif isinstance(message, Hello):
                await self.hello(connection, message)
            elif connection.relay is not None:
                await self._forward(connection, "message", message)
            else:
                room = connection.room
                if room is None:
                    raise RoomError("bad_message", "say hello (with the room's code) first")
                async with room.lock:
                    if connection.replaced:
                        return True
                    await self._room_message(room, connection, message)
        except Fenced:
            if room is not None:  # another instance took the room over: its browsers go there
                await self._let_go(room)
            return True
        except RoomError as exc:
            await self._send(connection, error(exc.code, str(exc)))
            if exc.code == "stale" and connection.room is not None:
                await self._send_state(connection.room, connection)
            if exc.code == "busy" and connection.close is not None:  # Redis is away: the page tries again soon
                connection.close(CLOSE_MOVED)
            return False
        return True

    async def _room_message(self, room: Room, connection: Connection, message: Incoming) -> None:
        if isinstance(message, Sit):
            await self.sit(room, connection, message)
            return
        if isinstance(message, AskHint):
            self._check_version(room, message.version)
            self.hint(room, connection)
            return
        if isinstance(message, Setup):
            self._host_in(room, connection, "lobby", message.version)
            self.setup(room, message)
        elif isinstance(message, Start):
            self._host_in(room, connection, "lobby", message.version)
            if any(s.kind == OPEN for s in room.seats):
                raise RoomError("wrong_phase", "a seat is still open: wait for a friend, or give it to a computer")
            await self._deal(room)
        elif isinstance(message, Rematch):
            self._host_in(room, connection, "over", message.version)
            await self._deal(room)
        elif isinstance(message, Act):
            await self.act(room, connection, message)
        self._touch(room)
        await self._save(room)
        await self.broadcast(room)
        self._run(room)

    def _check_version(self, room: Room, version: int) -> None:
        if version != room.version:
            raise RoomError("stale", f"the table has changed since version {version} (now {room.version}): look again")

    def _host_in(self, room: Room, connection: Connection, phase: str, version: int) -> None:
        if connection.seat != room.host_seat:
            raise RoomError("not_host", "only the room's host may do that")
        if room.phase != phase:
            raise RoomError("wrong_phase", f"that is for a room in the {phase}; this one is {room.phase}")
        self._check_version(room, version)

    async def hello(self, connection: Connection, message: Hello) -> None:
        """Join a room: as the seat whose token is given, else as a spectator. Only the newcomer is sent the
        room; the others hear of it only when a seat's person came back."""
        if connection.remote is not None:  # relayed here by the instance that found this one the owner
            room = self.rooms.get(normal_code(message.room)) or self.get("", connection.client)
        elif self.cluster is not None:
            found = await self._locate(message.room, connection.client)
            if not isinstance(found, Room):
                await self._relay(connection, found, normal_code(message.room), message)
                return
            room = found
        else:
            room = self.get(message.room, connection.client)
        await self._unrelay(connection)
        seat = None
        if message.token is not None:
            token = message.token
            people = [i for i, s in enumerate(room.seats) if s.kind == "person"]
            seat = next((i for i in people if same_token(token, room.seats[i].token)), None)
            if seat is None:
                raise RoomError("bad_token", "that seat token is not one of this room's: you join as a spectator")
        if connection.room is not None and connection.room is not room:
            await self.disconnect(connection)  # the room it leaves hears of it, and times its away person
        async with room.lock:
            again = connection.room is room and connection.seat == seat and connection in room.connections
            if not again:
                full = len(room.connections) >= self.limits.connections_per_room
                if connection.room is not room and seat is None and full:
                    raise RoomError("room_full", "this room has as many watchers as it can take: try again later")
                await self._leave(connection)
                connection.room, connection.seat = room, seat
                room.connections.append(connection)
            connection.log = None
            if seat is not None:
                self._touch(room)
            await self._send(
                connection, {"type": "welcome", "room": room.code, "seat": seat, "host": seat == room.host_seat}
            )
            if seat is not None and not again:
                await self._take_seat(room, seat, connection)
                await self.broadcast(room)  # a seat's person came back: everyone sees it
            else:  # a spectator, or a hello said again: only its sender hears
                await self._send_state(room, connection)
                if connection.closed:
                    await self._leave(connection)
        self._run(room)

    async def _take_seat(self, room: Room, seat: int, connection: Connection) -> None:
        """Seat ``connection``'s person (come back, or on another device)."""
        state = room.seats[seat]
        previous = state.connection
        state.connection = connection
        if previous is not None and previous is not connection:
            previous.replaced = True
            if previous in room.connections:
                room.connections.remove(previous)
            await self._send(previous, {"type": "replaced"})
        if state.stand_in or state.away or room.away_since is not None:
            self._settle_away(room)
            if state.stand_in:
                room.version += 1  # a stand-in's move thought out meanwhile is not played: the person is back
            state.stand_in, state.away = False, 0.0
            room.stand_ins.pop(seat, None)
            self._wake(room)

    async def sit(self, room: Room, connection: Connection, message: Sit) -> None:
        if room.phase != "lobby":
            raise RoomError("wrong_phase", "seats are taken in the lobby, before the match starts")
        if connection.seat is not None:
            raise RoomError("seat_taken", "you already have a seat at this table")
        if not 0 <= message.seat < len(room.seats) or room.seats[message.seat].kind != OPEN:
            open_seats = [i for i, s in enumerate(room.seats) if s.kind == OPEN]
            raise RoomError("seat_taken", f"seat {message.seat} is not open; open seats: {open_seats or 'none'}")
        try:
            name = check_name(message.name)
        except UsageError as exc:
            raise RoomError("bad_name", str(exc)) from None
        if any(s.kind == "person" and same_name(s.name, name) for s in room.seats):
            raise RoomError("bad_name", f"{name!r} already sits at this table: choose another name")
        token = secrets.token_urlsafe(16)
        room.seats[message.seat] = SeatState("person", name, token=token_hash(token), connection=connection)
        connection.seat = message.seat
        room.version += 1
        self._touch(room)
        await self._save(room)
        await self._send(
            connection, {"type": "welcome", "room": room.code, "seat": message.seat, "host": False, "token": token}
        )
        await self.broadcast(room)

    def setup(self, room: Room, message: Setup) -> None:
        rules = self._rules(message.preset, message.options)
        if len(message.seats) != message.players:
            raise RoomError("bad_setup", f"players: {message.players} given, but {len(message.seats)} seats listed")
        seats = []
        for index, who in enumerate(message.seats):
            if who == "person":
                if index >= len(room.seats) or room.seats[index].kind != "person":
                    raise RoomError("bad_setup", f"seat {index}: no person sits there; give open or a level")
                seats.append(room.seats[index])
            else:
                seats.append(self._seat(who))
        if room.host_seat >= len(seats) or seats[room.host_seat] is not room.seats[room.host_seat]:
            raise RoomError("bad_setup", f"seat {room.host_seat}: the host keeps their seat")
        self._check(rules, seats, None)
        room.rules, room.seats, room.away_seconds = rules, seats, message.away_seconds
        for connection in room.connections:
            connection.seat = next((i for i, s in enumerate(seats) if s.connection is connection), None)
        room.version += 1

    async def act(self, room: Room, connection: Connection, message: Act) -> None:
        """A seated person's move: checked by the engine, saved, and only then played (``_keep``).

        :raises RoomError: naming why it is refused; the table is left as it was.
        """
        session = room.session
        if session is None or session.game.is_over:
            raise RoomError("wrong_phase", "there is no move to make: the match has not started or is over")
        if connection.seat is None:
            raise RoomError("not_seated", "spectators watch: take a seat to play")
        self._check_version(room, message.version)
        seat = connection.seat
        game = session.game
        if game.to_act != seat:
            raise RoomError("not_your_turn", f"it is {session.names[game.to_act]}'s turn, not yours")
        try:
            move = session.check(parse_action(message.action), seat)
        except (ActionError, CardError) as exc:
            raise RoomError("bad_message", f"{message.action!r} is not a move: {exc}") from None
        except IllegalAction as exc:
            raise RoomError("illegal", f"Not allowed: {exc}") from None
        await self._keep(room, session, move)

    async def _keep(self, room: Room, session: Session, move: Move) -> None:
        """Save ``move`` and, once the store has it, play it: the room's other messages wait meanwhile
        (its lock), no other room does (the store is written off the event loop, and many rooms' moves go
        in one commit). A move the store did not take is not played: the table stays as it was, and its
        runner waits for the store to answer again (``_settle``).

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
                log_store_trouble(room.code, exc)
                self._run(room)
                raise RoomError(
                    "unsaved",
                    "your move is not played: the match cannot be saved just now; the table goes on once it can",
                ) from None
        session.take(move)
        room.version += 1

    async def _settle(self, room: Room) -> bool:
        """Where the room's match is unsure whether its last move was saved (the store's answer was lost):
        ask the store, off the event loop, and play what it kept, so the table stands where the store does.
        Whether the table is settled (False: the store still cannot tell); everyone is sent a changed table.
        """
        session = room.session
        if session is None or session.log is None or not session.log.unsure():
            return True
        try:
            events = await asyncio.to_thread(session.catch_up)
        except StoreError as exc:
            log_store_trouble(room.code, exc)
            return False
        if events:
            room.version += 1
            self._touch(room)
            await self._save(room)
            await self.broadcast(room)
        return True

    def hint(self, room: Room, connection: Connection) -> None:
        """Start working out the hint of the person to act, off the event loop (``Pool.hint``: in the computer
        players' threads, under their deadline); it is sent when it is ready, or, past the deadline, words
        saying so. One hint at a time per room.

        :raises RoomError: ``not_your_turn``; ``too_fast`` while the room's last hint is still being worked out.
        """
        session = room.session
        seat = connection.seat
        if session is None or seat is None or session.game.is_over or session.game.to_act != seat:
            raise RoomError("not_your_turn", "a hint is for your own turn")
        if room.code in self._hinting:
            raise RoomError("too_fast", "a hint is being worked out already: it comes in a moment")
        self._hinting.add(room.code)
        work = self._send_hint(room, connection, session, session.view(seat))
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)

        def done(_: asyncio.Task[None]) -> None:
            self._tasks.discard(task)
            self._hinting.discard(room.code)

        task.add_done_callback(done)

    async def _send_hint(self, room: Room, connection: Connection, session: Session, seen: View) -> None:
        """The hint on ``seen``, sent to ``connection`` if the match is still where it was asked."""
        moves = len(session.game.actions)
        missing = "the server took too long to work it out"
        try:
            hint = await self.pool.hint(session.hinter(seen.to_act), seen)
        except PoolClosed:
            return
        except Exception as exc:  # logged without the exception's words, which may name cards
            log.error("eights: room %s: a hint failed (%s)", room.code, type(exc).__name__)
            hint, missing = None, "the server could not work it out"
        if room.session is not session or len(session.game.actions) != moves:
            return  # the match moved on meanwhile: the hint was for a turn gone
        if hint is None:
            message = error("no_hint", f"no hint this time: {missing}; try again")
        else:
            words = hint_words(hint, seen, session.names)
            message = {"type": "hint", "text": words, "action": str(hint.action)}
        await self._send(connection, message)

    def seat_of(self, room: Room, token: str) -> int | None:
        """The seat of the person at ``room``'s table whose seat token is ``token``, if any."""
        return next((i for i, s in enumerate(room.seats) if s.kind == "person" and same_token(token, s.token)), None)

    async def disconnect(self, connection: Connection) -> None:
        await self._unrelay(connection)
        room = connection.room
        if room is None:
            return
        async with room.lock:
            seated = connection.seat is not None and connection.room is room
            await self._leave(connection)
            if seated:  # (a spectator coming and going keeps no room alive)
                self._touch(room)
                await self.broadcast(room)
        self._run(room)

    async def _leave(self, connection: Connection) -> None:
        room = connection.room
        if room is None:
            return
        if connection in room.connections:
            room.connections.remove(connection)
        seat = connection.seat
        if seat is not None and seat < len(room.seats) and room.seats[seat].connection is connection:
            room.seats[seat].connection = None
        connection.room = None

    # ----- sending ------------------------------------------------------------------------------------------

    def state(
        self,
        room: Room,
        connection: Connection,
        public: dict[str, Any] | None = None,
        tables: dict[int | None, dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """The room as ``connection``'s seat may see it, with the narration it has not had yet; ``public``: the
        room's ``public()`` when the caller made it already; ``tables``: the tables made so far for this room as
        it is, by seat (each seat's is made once for all its connections, and kept there)."""
        session = room.session
        message: dict[str, Any] = {
            "type": "state",
            "version": room.version,
            "room": public or room.public(self.clock()),
        }
        if session is None:
            message.update(table=None, log=[], log_from=0)
            return message
        log = connection.log
        if log is None or log.narration.session is not session or log.narration.seat != connection.seat:
            connection.log = log = SeatLog(room.narrations.of(session, connection.seat))
        start, lines = log.news()
        seat = connection.seat
        table = tables[seat] if tables is not None and seat in tables else table_json(session, seat)
        if tables is not None:
            tables[seat] = table
        message.update(table=table, log=lines, log_from=start)
        return message

    async def _send(self, connection: Connection, message: dict[str, Any]) -> None:
        """Send to one connection; a failure is that connection's alone (it is marked closed)."""
        if connection.closed:
            return
        try:
            await connection.send(message)
        except Exception:  # a socket that broke, a full outbox: that browser reconnects and says hello again
            connection.closed = True

    async def _send_state(self, room: Room, connection: Connection) -> None:
        await self._send(connection, self.state(room, connection))

    async def broadcast(self, room: Room) -> None:
        """The room's state to each of its connections; a connection that can no longer be sent to leaves the
        room at once (its seat, if any, is then away)."""
        public = room.public(self.clock())
        tables: dict[int | None, dict[str, Any]] = {}  # each seat's table (and the spectators'), made once
        for connection in list(room.connections):
            await self._send(connection, self.state(room, connection, public, tables))
            if connection.closed:
                await self._leave(connection)

    # ----- computers and away players ----------------------------------------------------------------------

    def _run(self, room: Room) -> None:
        """Make sure the room's runner plays the computers' turns (and times an away person's)."""
        if room.runner is None or room.runner.done():
            room.runner = asyncio.get_running_loop().create_task(self._supervise(room))

    def _wake(self, room: Room) -> None:
        """Stop the runner's wait for an away person (they came back); ``_run`` starts it again."""
        if room.waiting and room.runner is not None and not room.runner.done():
            room.runner.cancel()
            room.runner, room.waiting = None, False

    async def _supervise(self, room: Room) -> None:
        """The room's runner, started again (a few times a minute at most) if it fails: one room's failure
        never stops its play for good, nor touches another room."""
        while True:
            try:
                await self._runner(room)
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # logged without the exception's words, which may name cards
                now = self.clock()
                room.restarts = [t for t in room.restarts if now - t < RESTART_WINDOW] + [now]
                again = "started again" if len(room.restarts) <= RESTARTS else "stopped until someone acts"
                log.error("eights: room %s: its play failed (%s); %s", room.code, type(exc).__name__, again)
                if len(room.restarts) > RESTARTS:
                    return
                await self.sleep(0.5)

    def _settle_away(self, room: Room) -> None:
        """Count the away time of the person to act so far."""
        if room.away_since is not None and room.session is not None:
            seat = room.seats[room.session.game.to_act]
            seat.away += self.clock() - room.away_since
        room.away_since = None

    async def _runner(self, room: Room) -> None:
        """Play computer turns, paced, until a person is to act; time an away person on their turn with one
        timer; wait (doing nothing) while no person at the table is connected; and while the store cannot
        save the match, wait for it, trying again less and less often, then go on by itself."""
        trouble = 0  # the store's failures in a row
        while True:
            wait: float | None = None
            async with room.lock:
                session = room.session
                if session is None or session.game.is_over or not room.people_here():
                    self._settle_away(room)
                    return
                settled = await self._settle(room)
                if settled:
                    if session.game.is_over:
                        continue
                    seat = session.game.to_act
                    state = room.seats[seat]
                    if state.kind == "person" and not state.stand_in:
                        if state.connection is not None:
                            self._settle_away(room)
                            return
                        if room.away_since is None:
                            room.away_since = self.clock()
                        left = room.away_seconds - state.away - (self.clock() - room.away_since)
                        if left > 0:
                            wait = left
                        else:
                            self._settle_away(room)
                            state.stand_in = True
                            room.version += 1
                            await self.broadcast(room)
                    version = room.version
                    bot, bot_view = self._bot_for(room, seat), session.view(seat)
            if not settled:
                trouble += 1
                await self.sleep(store_retry(trouble))
                continue
            if wait is not None:
                room.waiting = True
                try:
                    await self.sleep(wait)
                finally:
                    room.waiting = False
                continue
            started = self.clock()
            action, bot = await self.pool.choose(bot, bot_view, room.code)
            if self.on_decision is not None:
                self.on_decision(self.clock() - started)
            # Every computer move takes its level's whole think time and the pace, however quickly it was
            # found: how long a move took must not tell whether the computer had a choice.
            rest = room.pace + think_time(bot) - (self.clock() - started)
            if rest > 0:
                await self.sleep(rest)
            async with room.lock:
                if room.version != version or room.session is not session:
                    continue  # the table moved on meanwhile (a rematch, a person came back): think again
                self._keep_bot(room, seat, bot)
                try:
                    await self._keep(room, session, session.check(action, seat))
                except Fenced:
                    lost = True
                except IllegalAction:
                    return  # cannot happen for a bot's legal choice
                except RoomError:  # the store did not save the move: it is not played; wait for the store
                    lost, trouble = False, trouble + 1
                else:
                    lost, trouble = False, 0
                    if session.game.is_over:
                        self._touch(room)
                        await self._save(room)
                    await self.broadcast(room)
            if lost:  # another instance took the room over
                await self._let_go(room)
                return
            if trouble:
                await self.sleep(store_retry(trouble))

    def _bot_for(self, room: Room, seat: int) -> Bot:
        """The computer for ``seat``, its search held to the server's budget (a room saved before budgets were
        capped may name a longer one)."""
        session = room.session
        assert session is not None
        if seat in session.bots:
            bot = session.bots[seat]
        else:
            if seat not in room.stand_ins:
                room.stand_ins[seat] = make_bot(STAND_IN, bot_seed(session.game.seed, 2000 + seat))
            bot = room.stand_ins[seat]
        if isinstance(bot, ISMCTSBot):
            cap = self.limits.think_seconds
            bot.seconds = cap if bot.seconds is None else min(bot.seconds, cap)
        return bot

    def _keep_bot(self, room: Room, seat: int, bot: Bot) -> None:
        """The bot as it came back from its worker (with what it learned of the game)."""
        session = room.session
        assert session is not None
        if seat in session.bots:
            session.bots[seat] = bot
        else:
            room.stand_ins[seat] = bot

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for room in self.rooms.values():
            if room.runner is not None:
                room.runner.cancel()
        for task in [*self._tasks, *self._pumps.values()]:
            task.cancel()
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
        if self.cluster is not None:
            self.cluster.start(self.on_envelope, self.on_beat)

    def _later(self, work: Awaitable[Any]) -> None:
        """Run ``work`` in a task of its own, kept until it ends (its Redis errors are the beat's to notice)."""

        async def run() -> None:
            with contextlib.suppress(RedisError, OSError):
                await work

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _relay(self, connection: Connection, owner: str, code: str, hello: Hello) -> None:
        """Send ``connection``'s hello to the owner of its room, and its messages after it."""
        assert self.cluster is not None
        if connection.room is not None:
            await self.disconnect(connection)
        relay = connection.relay
        if relay is None or relay.owner != owner or relay.code != code:
            await self._unrelay(connection)
            relay = Relay(owner, code, secrets.token_hex(8))
            connection.relay = relay
            self.relayed[relay.id] = connection
        await self._forward(connection, "hello", hello)

    async def _forward(self, connection: Connection, kind: str, message: Incoming | None) -> None:
        """One of a relayed connection's messages to its room's owner; when Redis cannot take it, the
        connection is closed (its browser reconnects, and finds the room again)."""
        relay = connection.relay
        assert self.cluster is not None and relay is not None
        envelope = {"kind": kind, "from": self.cluster.id, "conn": relay.id, "client": connection.client}
        if message is not None:
            envelope["text"] = message.model_dump_json()
        try:
            heard = await self.cluster.publish(relay.owner, envelope)
        except (RedisError, OSError):
            heard = False
        if not heard and kind != "leave":  # lost on the way: the browser reconnects and finds its room again
            await self._unrelay(connection, tell=False)
            if connection.close is not None:
                connection.close(CLOSE_MOVED)

    async def _unrelay(self, connection: Connection, tell: bool = True) -> None:
        """Stop relaying ``connection`` (its owner hears it left, if ``tell``)."""
        if connection.relay is None:
            return
        if tell:
            await self._forward(connection, "leave", None)
        self.relayed.pop(connection.relay.id, None)
        connection.relay = None

    async def on_envelope(self, envelope: Envelope) -> None:
        """A message from another instance: a relayed browser's (here its room's owner), or the owner's for
        a browser relayed from here."""
        kind = envelope.get("kind")
        name = str(envelope.get("conn", ""))
        if kind in ("send", "close"):
            connection = self.relayed.get(name)
            if connection is None:
                return
            if kind == "send" and isinstance(envelope.get("message"), dict):
                await connection.send(envelope["message"])
            elif kind == "close" and connection.close is not None:
                self.relayed.pop(name, None)
                connection.relay = None
                connection.close(int(envelope.get("code", CLOSE_MOVED)))
            return
        key = (str(envelope.get("from", "")), name)
        if kind == "leave":
            gone = self._drop_remote(key)
            if gone is not None:
                await self.disconnect(gone)
            return
        try:
            message = parse(str(envelope.get("text", "")))
        except ProtocolError:
            return  # checked by the relaying instance already: not from one of ours
        connection = self.remote.get(key)
        if connection is not None and connection.closed:  # what it was sent was lost: its browser starts again
            await self._remote_close(key, CLOSE_MOVED)
            return
        if connection is None:
            if kind != "hello":
                await self._remote_close(key, CLOSE_MOVED)  # its room is not here (any more)
                return
            connection = self._remote_connection(key, str(envelope.get("client", "local")))
        taken = await self.receive(connection, message)
        if not taken and connection.refusals is not None and not connection.refusals.take():
            await self._remote_close(key, CLOSE_FLOOD)
        elif isinstance(message, Hello) and normal_code(message.room) not in self.rooms and not connection.closed:
            await self._remote_close(key, CLOSE_MOVED)  # the room is not played here (any more): it asks again

    def _remote_connection(self, key: tuple[str, str], client: str) -> Connection:
        """A connection another instance holds to a room owned here. What it is sent waits in an outbox of its
        own that a task publishes in order: a broadcast never waits for Redis (a paused Redis held every
        room's broadcast for its timeout), and a message its instance did not hear ends the connection, with
        a word to that instance to close its browser's socket (which then starts again)."""
        cluster = self.cluster
        assert cluster is not None
        instance, name = key
        outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue(REMOTE_OUTBOX)

        async def pump() -> None:
            while True:
                message = await outbox.get()
                try:
                    heard = await cluster.publish(instance, {"kind": "send", "conn": name, "message": message})
                except (RedisError, OSError):
                    heard = False
                if not heard:  # lost on the way: its browser must start again, or it would watch a frozen table
                    await self._remote_close(key, CLOSE_MOVED)
                    return

        async def send(message: dict[str, Any]) -> None:
            try:
                outbox.put_nowait(message)
            except asyncio.QueueFull:
                raise ConnectionError(f"instance {instance} reads too slowly") from None  # it leaves the room

        per_minute = self.limits.refused_per_minute
        connection = Connection(send, client=client, remote=key, refusals=Bucket(per_minute / 60.0, per_minute))
        connection.close = lambda code: self._later(self._remote_close(key, code))
        self.remote[key] = connection
        self._pumps[key] = asyncio.get_running_loop().create_task(pump())
        return connection

    def _drop_remote(self, key: tuple[str, str]) -> Connection | None:
        """Forget a remote connection (its outbox's task stops); the connection, if it was known."""
        pump = self._pumps.pop(key, None)
        if pump is not None and pump is not asyncio.current_task():
            pump.cancel()
        connection = self.remote.pop(key, None)
        if connection is not None:
            connection.closed = True
        return connection

    async def _remote_close(self, key: tuple[str, str], code: int) -> None:
        """Close a remote connection: its instance closes the browser's socket."""
        connection = self._drop_remote(key)
        if connection is not None:
            await self.disconnect(connection)
        assert self.cluster is not None
        with contextlib.suppress(RedisError, OSError):
            await self.cluster.publish(key[0], {"kind": "close", "conn": key[1], "code": code})

    async def _let_go(self, room: Room) -> None:
        """Another instance owns ``room`` now: forget it here; its browsers reconnect and find it there."""
        registered = self.rooms.get(room.code) is room
        if registered:
            del self.rooms[room.code]
            log.warning("eights: room %s is played by another instance now", room.code)
        if room.runner is not None and room.runner is not asyncio.current_task():
            room.runner.cancel()
        for connection in list(room.connections):
            connection.room = None
            if connection.remote is not None:
                await self._remote_close(connection.remote, CLOSE_MOVED)
            elif connection.close is not None:
                connection.closed = True
                connection.close(CLOSE_MOVED)
        room.connections.clear()
        if self.cluster is not None and registered:
            with contextlib.suppress(RedisError, OSError):
                await self.cluster.release(room.code)

    async def on_beat(self) -> None:
        """After each life sign: keep this instance's leases, let go of rooms another holds now, drop the
        remote connections of instances gone, and move relayed connections whose room changed hands."""
        cluster = self.cluster
        assert cluster is not None
        codes = list(self.rooms)
        for code in await cluster.renew(codes):
            room = self.rooms.get(code)
            if room is not None:
                await self._let_go(room)
        alive = await cluster.alive(instance for instance, _ in self.remote)
        for key in [key for key in self.remote if key[0] not in alive]:
            gone = self._drop_remote(key)
            if gone is not None:
                await self.disconnect(gone)
        relays = list(self.relayed.values())
        codes = sorted({c.relay.code for c in relays if c.relay is not None})
        owners = dict(zip(codes, [await cluster.owner(code) for code in codes], strict=True))
        for connection in relays:
            relay = connection.relay
            if relay is not None and owners.get(relay.code) != relay.owner:
                await self._unrelay(connection, tell=False)
                if connection.close is not None:
                    connection.close(CLOSE_MOVED)
