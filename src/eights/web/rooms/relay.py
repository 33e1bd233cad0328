"""Many instances (``eights serve --redis``): the browsers connected here to rooms another instance owns are
relayed to it, and the browsers other instances relay here are connections of their own. Every message
goes over Redis pub/sub (``eights.cluster.leases.Cluster``): a relayed browser's messages to the owner, what
the owner sends it back; a message its instance did not hear ends the connection, with a word to close the
browser's socket, which then starts again and finds its room."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from eights.cluster.leases import Cluster, Envelope
from eights.web.guard import Bucket
from eights.web.protocol import CLOSE_FLOOD, CLOSE_MOVED, Hello, Incoming, ProtocolError, parse
from eights.web.rooms.connection import Connection, Relay

if TYPE_CHECKING:
    from eights.web.rooms.registry import Hub

#: Messages that may wait to be published to a connection another instance holds (a state per move: far
#: more than a room sends while Redis answers); past them the connection is let go.
REMOTE_OUTBOX = 256


class Relays:
    """This instance's relayed connections, both ways."""

    def __init__(self, hub: Hub, cluster: Cluster) -> None:
        self.hub = hub
        self.cluster = cluster
        #: This instance's connections relayed to other owners, by their name there.
        self.relayed: dict[str, Connection] = {}
        #: Connections other instances hold to rooms owned here, by (instance, name).
        self.remote: dict[tuple[str, str], Connection] = {}
        #: The task that publishes each remote connection's outbox.
        self.pumps: dict[tuple[str, str], asyncio.Task[None]] = {}

    def close(self) -> None:
        for task in self.pumps.values():
            task.cancel()

    # ----- browsers connected here, relayed to another owner -----------------------------------------------

    async def relay(self, connection: Connection, owner: str, code: str, hello: Hello) -> None:
        """Send ``connection``'s hello to the owner of its room, and its messages after it."""
        if connection.room is not None:
            await self.hub.disconnect(connection)
        relay = connection.relay
        if relay is None or relay.owner != owner or relay.code != code:
            await self.unrelay(connection)
            relay = Relay(owner, code, secrets.token_hex(8))
            connection.relay = relay
            self.relayed[relay.id] = connection
        await self.forward(connection, "hello", hello)

    async def forward(self, connection: Connection, kind: str, message: Incoming | None) -> None:
        """One of a relayed connection's messages to its room's owner; when Redis cannot take it, the
        connection is closed (its browser reconnects, and finds the room again)."""
        relay = connection.relay
        assert relay is not None
        envelope = {"kind": kind, "from": self.cluster.id, "conn": relay.id, "client": connection.client}
        if message is not None:
            envelope["text"] = message.model_dump_json()
        try:
            heard = await self.cluster.publish(relay.owner, envelope)
        except (RedisError, OSError):
            heard = False
        if not heard and kind != "leave":  # lost on the way: the browser reconnects and finds its room again
            await self.unrelay(connection, tell=False)
            if connection.close is not None:
                connection.close(CLOSE_MOVED)

    async def unrelay(self, connection: Connection, tell: bool = True) -> None:
        """Stop relaying ``connection`` (its owner hears it left, if ``tell``)."""
        if connection.relay is None:
            return
        if tell:
            await self.forward(connection, "leave", None)
        self.relayed.pop(connection.relay.id, None)
        connection.relay = None

    # ----- the other instances' messages -------------------------------------------------------------------

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
            gone = self.drop_remote(key)
            if gone is not None:
                await self.hub.disconnect(gone)
            return
        try:
            message = parse(str(envelope.get("text", "")))
        except ProtocolError:
            return  # checked by the relaying instance already: not from one of ours
        connection = self.remote.get(key)
        if connection is not None and connection.closed:  # what it was sent was lost: its browser starts again
            await self.remote_close(key, CLOSE_MOVED)
            return
        if connection is None:
            if kind != "hello":
                await self.remote_close(key, CLOSE_MOVED)  # its room is not here (any more)
                return
            connection = self.remote_connection(key, str(envelope.get("client", "local")))
        taken = await self.hub.receive(connection, message)
        if not taken and connection.refusals is not None and not connection.refusals.take():
            await self.remote_close(key, CLOSE_FLOOD)
        elif isinstance(message, Hello) and not self.hub.plays(message.room) and not connection.closed:
            await self.remote_close(key, CLOSE_MOVED)  # the room is not played here (any more): it asks again

    # ----- browsers of other instances, in rooms owned here ------------------------------------------------

    def remote_connection(self, key: tuple[str, str], client: str) -> Connection:
        """A connection another instance holds to a room owned here. What it is sent waits in an outbox of its
        own that a task publishes in order: a broadcast never waits for Redis (a paused Redis held every
        room's broadcast for its timeout), and a message its instance did not hear ends the connection, with
        a word to that instance to close its browser's socket (which then starts again)."""
        cluster = self.cluster
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
                    await self.remote_close(key, CLOSE_MOVED)
                    return

        async def send(message: dict[str, Any]) -> None:
            try:
                outbox.put_nowait(message)
            except asyncio.QueueFull:
                raise ConnectionError(f"instance {instance} reads too slowly") from None  # it leaves the room

        per_minute = self.hub.limits.refused_per_minute
        connection = Connection(send, client=client, remote=key, refusals=Bucket(per_minute / 60.0, per_minute))
        connection.close = lambda code: self.hub.later(self.remote_close(key, code))
        self.remote[key] = connection
        self.pumps[key] = asyncio.get_running_loop().create_task(pump())
        return connection

    def drop_remote(self, key: tuple[str, str]) -> Connection | None:
        """Forget a remote connection (its outbox's task stops); the connection, if it was known."""
        pump = self.pumps.pop(key, None)
        if pump is not None and pump is not asyncio.current_task():
            pump.cancel()
        connection = self.remote.pop(key, None)
        if connection is not None:
            connection.closed = True
        return connection

    async def remote_close(self, key: tuple[str, str], code: int) -> None:
        """Close a remote connection: its instance closes the browser's socket."""
        connection = self.drop_remote(key)
        if connection is not None:
            await self.hub.disconnect(connection)
        with contextlib.suppress(RedisError, OSError):
            await self.cluster.publish(key[0], {"kind": "close", "conn": key[1], "code": code})

    async def on_beat(self) -> None:
        """After each life sign: drop the remote connections of instances gone, and move relayed connections
        whose room changed hands."""
        cluster = self.cluster
        alive = await cluster.alive(instance for instance, _ in self.remote)
        for key in [key for key in self.remote if key[0] not in alive]:
            gone = self.drop_remote(key)
            if gone is not None:
                await self.hub.disconnect(gone)
        relays = list(self.relayed.values())
        codes = sorted({c.relay.code for c in relays if c.relay is not None})
        owners = dict(zip(codes, [await cluster.owner(code) for code in codes], strict=True))
        for connection in relays:
            relay = connection.relay
            if relay is not None and owners.get(relay.code) != relay.owner:
                await self.unrelay(connection, tell=False)
                if connection.close is not None:
                    connection.close(CLOSE_MOVED)
