"""bench/server.py's clients: each room's four scripted people (``one_room``), in client processes
(``client_process``) that tally what they see (``Tally``): latencies, errors, reconnects, recoveries."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import resource
import sys
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvloop
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

ROOT = Path(__file__).resolve().parent.parent
try:
    from eights.web.protocol import CLOSE_REPLACED
    from eights.web.rooms.keeping import EPOCH
except ImportError:  # run from a checkout without the package installed
    sys.path.insert(0, str(ROOT / "src"))
    from eights.web.protocol import CLOSE_REPLACED
    from eights.web.rooms.keeping import EPOCH

#: Seconds an update may take to reach every seat before it counts as an error.
TIMEOUT = 10.0
#: The page's reconnection backoff (static/net.js): the first wait, doubled after each try up to the last.
FIRST_WAIT, LAST_WAIT = 0.5, 15.0


@dataclass
class Tally:
    """What one client process saw."""

    latencies: list[float] = field(default_factory=list)
    #: Per room that started: seconds from its making (the POST sent) to the first state of its match.
    starts: list[float] = field(default_factory=list)
    actions: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    #: The errors seen at or after the kill (also in ``errors``).
    errors_after_kill: dict[str, int] = field(default_factory=dict)
    #: Sockets closed under the clients, by close code (1006: no closing handshake), and made again.
    closes: dict[str, int] = field(default_factory=dict)
    reconnects: int = 0
    #: Connections tried while reconnecting that failed (an instance gone).
    failed_connects: int = 0
    #: Of the timeouts, actions no seat saw before their room was taken up (a newer epoch): sent to the owner
    #: that died, or relayed to it before its lease lapsed (the store has them only if it saved them first).
    superseded: int = 0
    #: Per room that played through the kill: seconds from the kill to its next accepted action (None: never),
    #: and whether any of its seats reconnected.
    recovery: list[tuple[float | None, bool]] = field(default_factory=list)
    #: What the clients of rooms that never played again after the kill saw last.
    stuck: list[str] = field(default_factory=list)
    #: This process's CPU seconds in the window.
    cpu: float = 0.0
    kill: float | None = None

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1
        if self.kill is not None and time.monotonic() >= self.kill:
            self.errors_after_kill[kind] = self.errors_after_kill.get(kind, 0) + 1


@dataclass
class Plan:
    bases: list[str]  # the instances, in the load balancer's order
    window: tuple[float, float]  # the measured window, time.monotonic
    think: tuple[float, float]
    seed: int
    compression: str | None
    kill: float | None = None  # when an instance is killed, time.monotonic
    by_code: bool = False  # every seat of a room to the instance its code picks (--route code)


class RoomPlay:
    """One room's four clients, and the actions in flight: the version each makes, when it was sent, and the
    seats that have seen it."""

    def __init__(self, plan: Plan, tally: Tally, index: int, code: str, tokens: list[str | None]) -> None:
        self.plan, self.tally, self.index, self.code = plan, tally, index, code
        #: Where seat ``s`` connects first: ``home + s`` (round robin), or ``home`` for every seat (by code).
        self.home = zlib.crc32(code.encode()) % len(plan.bases) if plan.by_code else index
        self.rng = random.Random(plan.seed * 100_003 + index)
        self.address = address_of(index)
        self.tokens = tokens
        self.sockets: list[ClientConnection | None] = [None] * 4
        self.sent: dict[int, float] = {}
        self.seen: dict[int, set[int]] = {}
        self.started_at: float | None = None
        self.epoch = 0  # the newest epoch a seat saw (one more at each takeover)
        self.stopping = False
        self.recovered: float | None = None
        self.moved = False  # a seat reconnected after the kill
        #: What each seat saw last, and the instance its socket is to (shown for a room that never recovers).
        self.last: list[str] = ["nothing"] * 4
        self.where: list[int] = [0] * 4

    def update(self, seat: int, version: int, now: float) -> None:
        """Seat ``seat`` got the state of ``version`` at ``now``. An action made in an earlier epoch (before a
        takeover) is seen in a later one only if a seat saw it before: it was accepted, so the store has it."""
        epoch = version // EPOCH
        self.epoch = max(self.epoch, epoch)
        for made in [v for v in self.sent if v <= version and (v // EPOCH == epoch or self.seen[v])]:
            seen = self.seen[made]
            if seat in seen:
                continue
            seen.add(seat)
            sent = self.sent[made]
            if self.plan.window[0] <= sent < self.plan.window[1]:
                self.tally.latencies.append(now - sent)
                if len(seen) == 4:
                    self.tally.actions += 1
            if len(seen) == 4:
                kill = self.plan.kill
                if kill is not None and sent >= kill and self.recovered is None:
                    self.recovered = now - kill
                del self.sent[made], self.seen[made]

    def expire(self, now: float) -> None:
        for made in [v for v, sent in self.sent.items() if now - sent > TIMEOUT]:
            self.tally.error(self.timeout(self.sent[made]))
            if not self.seen[made] and made // EPOCH < self.epoch:
                self.tally.superseded += 1
            del self.sent[made], self.seen[made]

    def timeout(self, sent: float) -> str:
        """An update that never reached a seat: ``at_kill`` for those still in flight when the instance died
        (sent to it, or to the owner it was; the bench cannot tell whether it was accepted)."""
        kill = self.plan.kill
        if kill is None:
            return "timeout"
        if sent >= kill:
            return "timeout:after_kill"
        return "timeout:before_kill" if sent + TIMEOUT < kill else "timeout:at_kill"

    def first_place(self, seat: int) -> int:
        """The seat's first instance, in the balancer's order."""
        return self.home if self.plan.by_code else self.home + seat

    async def open(self, seat: int, place: int) -> ClientConnection:
        """A socket to the instance at ``place`` in the seat's list (the balancer's choice for it)."""
        bases = self.plan.bases
        ws = bases[place % len(bases)].replace("http", "ws", 1) + f"/ws?room={self.code}"
        socket = await connect(
            ws, max_size=2**22, compression=self.plan.compression, local_addr=(self.address, 0), open_timeout=TIMEOUT
        )
        self.sockets[seat] = socket
        self.where[seat] = place % len(bases)
        return socket

    async def seat(self, seat: int, socket: ClientConnection) -> None:
        """Play ``seat`` until the room stops, reconnecting as the page does (static/net.js) when the socket
        closes (any code but 4000) or cannot be opened: after a backoff, to the next instance in the seat's
        list, saying hello with its token."""
        place = self.first_place(seat)
        wait = FIRST_WAIT
        while True:
            code = await self.person(socket, seat, seat == 0)
            if self.stopping:
                return
            self.tally.closes[str(code)] = self.tally.closes.get(str(code), 0) + 1
            if code == CLOSE_REPLACED:
                self.tally.error("replaced")
                return
            if self.plan.kill is not None and time.monotonic() >= self.plan.kill:
                self.moved = True
            self.sockets[seat] = None
            opened: ClientConnection | None = None
            while opened is None:
                await asyncio.sleep(wait * self.rng.uniform(0.75, 1.25))
                wait = min(wait * 2, LAST_WAIT)
                if self.stopping:
                    return
                for _ in self.plan.bases:  # a refused connection goes on to the next instance, as a balancer's
                    place += 1
                    try:
                        opened = await self.open(seat, place)
                        break
                    except (OSError, InvalidHandshake, TimeoutError):
                        self.tally.failed_connects += 1
            socket, wait = opened, FIRST_WAIT
            self.tally.reconnects += 1
            with contextlib.suppress(ConnectionClosed):  # closed again at once: the loop above goes on
                await socket.send(json.dumps({"type": "hello", "room": self.code, "token": self.tokens[seat]}))

    async def person(self, socket: ClientConnection, seat: int, host: bool) -> int:
        """Play ``seat`` on ``socket`` until it closes: answer each turn after a think, while the window lasts.
        The close code (1006: none)."""
        plan = self.plan
        thinking: asyncio.Task[None] | None = None
        asked = 0  # the version the host last started or rematched at
        try:
            async for frame in socket:
                now = time.monotonic()
                message = json.loads(frame)
                kind = message["type"]
                if kind == "welcome" and message.get("token"):
                    self.tokens[seat] = message["token"]
                if kind == "error":
                    self.tally.error(f"error:{message['code']}")
                    self.last[seat] += f"; then error {message['code']}: {message.get('message', '')}"
                    continue
                if kind != "state":
                    continue
                version = message["version"]
                self.update(seat, version, now)
                room, table = message["room"], message["table"]
                phase = room["phase"]
                to_act = table and table.get("to_act")
                self.last[seat] = f"state {version // EPOCH}:{version % EPOCH} ({phase}, to act: {to_act})"
                if phase != "lobby" and self.started_at is None:
                    self.started_at = now
                if now >= plan.window[1]:
                    continue
                if host and phase == "lobby" and all(s["kind"] == "person" for s in room["seats"]) and asked < version:
                    asked = version
                    await socket.send(json.dumps({"type": "start", "version": version}))
                elif host and phase == "over" and asked < version:
                    asked = version
                    await socket.send(json.dumps({"type": "rematch", "version": version}))
                elif phase == "playing" and table["to_act"] == seat and table["legal"]:
                    if thinking is not None:
                        thinking.cancel()
                    action = self.rng.choice(table["legal"])["action"]
                    thinking = asyncio.create_task(self.act(socket, version, action))
        except ConnectionClosed:
            pass
        finally:
            if thinking is not None:
                thinking.cancel()
        self.last[seat] += f"; closed {socket.close_code}"
        return socket.close_code or 1006

    async def act(self, socket: ClientConnection, version: int, action: str) -> None:
        await asyncio.sleep(self.rng.uniform(*self.plan.think))
        now = time.monotonic()
        if now >= self.plan.window[1]:
            return
        self.sent[version + 1] = now
        self.seen[version + 1] = set()
        try:
            await socket.send(json.dumps({"type": "act", "version": version, "action": action}))
        except ConnectionClosed:  # not sent: the person acts again on the state after reconnecting
            del self.sent[version + 1], self.seen[version + 1]


def address_of(index: int) -> str:
    """Room ``index``'s clients' own loopback address (127.1.0.1, 127.1.0.2, ...; 62,500 rooms at most)."""
    return f"127.{1 + index // 62_500}.{index // 250 % 250}.{index % 250 + 1}"


async def one_room(plan: Plan, index: int, tally: Tally) -> None:
    """Make room ``index`` on instance ``index % K``, seat its four people (seat ``s`` on instance
    ``(index + s) % K``), play until the window ends and the last updates are in."""
    made_at = time.monotonic()
    address = address_of(index)
    base = plan.bases[index % len(plan.bases)]
    transport = httpx.AsyncHTTPTransport(local_address=address, verify=False)  # plain HTTP: no CA bundle to load
    async with httpx.AsyncClient(base_url=base, timeout=TIMEOUT, transport=transport) as http:
        answer = await http.post("/api/rooms", json={"name": "Host", "seats": ["me", "open", "open", "open"]})
    answer.raise_for_status()
    made = answer.json()
    code = made["code"]
    play = RoomPlay(plan, tally, index, code, [made["token"], None, None, None])
    tasks: list[asyncio.Task[None]] = []
    try:
        for seat in range(4):
            socket = await play.open(seat, play.first_place(seat))
            await socket.send(json.dumps({"type": "hello", "room": code, "token": play.tokens[seat]}))
            if seat:
                await socket.send(json.dumps({"type": "sit", "seat": seat, "name": f"Friend {seat}"}))
            tasks.append(asyncio.create_task(play.seat(seat, socket)))
        while time.monotonic() < plan.window[1]:
            await asyncio.sleep(1.0)
            play.expire(time.monotonic())
        while play.sent and time.monotonic() < plan.window[1] + TIMEOUT:
            await asyncio.sleep(0.1)
        play.expire(float("inf"))
        if play.started_at is not None:
            tally.starts.append(play.started_at - made_at)
        if play.started_at is None or play.started_at > plan.window[0]:
            tally.error("not_started")
        if plan.kill is not None and play.started_at is not None and play.started_at < plan.kill:
            tally.recovery.append((play.recovered, play.moved))
            if play.recovered is None:
                tally.error("not_recovered")
                seats = (f"seat {s} on instance {play.where[s]}: {play.last[s]}" for s in range(4))
                tally.stuck.append(f"room {code} (#{index}): " + " | ".join(seats))
        for task in tasks:
            if task.done() and task.exception():
                tally.error(f"closed:{type(task.exception()).__name__}")
    finally:
        play.stopping = True
        for left in play.sockets:
            if left is not None:
                await left.close()
        await asyncio.gather(*tasks, return_exceptions=True)


async def client_main(plan: Plan, rooms: list[int], ramp_start: float, ramp: float, total: int) -> Tally:
    tally = Tally(kill=plan.kill)

    async def later(index: int) -> None:
        await asyncio.sleep(max(0.0, ramp_start + ramp * index / total - time.monotonic()))
        try:
            await one_room(plan, index, tally)
        except (OSError, httpx.HTTPError, ConnectionClosed, InvalidHandshake) as exc:
            tally.error(f"failed:{type(exc).__name__}")

    async def clock_cpu() -> None:
        await asyncio.sleep(max(0.0, plan.window[0] - time.monotonic()))
        start = time.process_time()
        await asyncio.sleep(max(0.0, plan.window[1] - time.monotonic()))
        tally.cpu = time.process_time() - start

    await asyncio.gather(clock_cpu(), *(later(i) for i in rooms))
    return tally


def client_process(plan: Plan, rooms: list[int], ramp_start: float, ramp: float, total: int, out: Any) -> None:
    raise_files_limit()
    out.send(uvloop.run(client_main(plan, rooms, ramp_start, ramp, total)))
    out.close()


def raise_files_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard
