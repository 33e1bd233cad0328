"""The WebSockets of the web table: ``/ws`` (a room's) taken straight from the app to ``Sockets.room``, which
checks it at the door (its page's origin, its client's share of sockets), then reads its messages, each
refused one counted, until it leaves, floods, reads too slowly or stays silent too long; what it is sent
waits in an outbox capped by bytes (``outbox.Outbox``). Every other socket (a score sheet's) passes the same
door (``Sockets.door``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from starlette.types import Receive, Scope, Send

from eights.web.guard import Bucket
from eights.web.outbox import Outbox, Tally
from eights.web.protocol import (
    CLOSE_FLOOD,
    CLOSE_LIMIT,
    CLOSE_REPLACED,
    CLOSE_SILENT,
    CLOSE_SLOW,
    ProtocolError,
    error,
    parse,
)
from eights.web.rooms.connection import Connection
from eights.web.rooms.registry import Hub
from eights.web.settings import Settings

#: What a foreign page's socket gets (RFC 6455's policy violation).
CLOSE_POLICY = 1008

Route = Callable[[Scope, Receive, Send], Awaitable[None]]


async def gone(message: dict[str, Any]) -> None:
    """Where a closed connection's messages go."""


def peer_of(request: Any) -> str | None:
    """The address at the other end of the socket (a proxy's, behind one)."""
    return request.client.host if request.client else None


class Sockets:
    """The server's WebSockets, on its rooms (``hub``)."""

    def __init__(self, hub: Hub, settings: Settings, outboxes: Tally) -> None:
        self.hub = hub
        self.settings = settings
        #: Every outbox's bytes and what they did (the server's metrics).
        self.outboxes = outboxes

    def client_of(self, request: Any) -> str:
        """The client's address: the socket's peer, or the address a trusted proxy says it came from."""
        return self.settings.client(peer_of(request), request.headers.getlist("x-forwarded-for"))

    async def room(self, websocket: WebSocket) -> None:
        """One browser tab's connection: checked at the door (its page's origin, its client's share of
        sockets), then its messages, each refused one counted, until it leaves, floods, reads too slowly or
        stays silent too long; it leaves its room at once whichever way it goes, and is closed once."""
        if not self.settings.origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host")):
            await websocket.close(CLOSE_POLICY)  # before accepting: the browser gets a 403
            return
        client = self.client_of(websocket)
        await websocket.accept()
        if not self.hub.guard.open_socket(client):
            limit = self.settings.limits.connections_per_client
            words = f"too many connections from your address (at most {limit}): close other tabs"
            await websocket.send_text(json.dumps(error("too_many_connections", words)))
            await websocket.close(CLOSE_LIMIT)
            return
        outbox = Outbox(self.settings.limits.outbox_bytes, self.outboxes)
        closing: list[int] = []

        async def close(code: int) -> None:
            if closing:
                return
            closing.append(code)
            connection.closed = True
            sender.cancel()
            with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):  # closed already, by the other side
                await websocket.close(code)

        async def send(message: dict[str, Any]) -> None:
            if connection.closed:
                return
            if not outbox.put(message):
                connection.closed = True  # a browser that reads too little: let it go (the hub drops it now)
                self.outboxes.slow += 1
                outbox.close()
                asyncio.get_running_loop().create_task(close(CLOSE_SLOW))

        connection = Connection(send, client=client)

        async def pump() -> None:
            while (message := await outbox.get()) is not None:
                kind, text = message
                await websocket.send_text(text)
                outbox.written()
                if kind == "replaced":
                    closing.append(CLOSE_REPLACED)  # (not through ``close``: the task would hold itself)
                    with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
                        await websocket.close(CLOSE_REPLACED)
                    return

        sender = asyncio.create_task(pump())

        def end(code: int) -> None:  # the hub's way to close it (its room expired, or moved)
            asyncio.get_running_loop().create_task(close(code))

        connection.close = end
        opened = time.monotonic()
        bucket = Bucket(self.settings.limits.messages_per_second, self.settings.limits.message_burst)
        refusals = Bucket(self.settings.limits.refused_per_minute / 60.0, self.settings.limits.refused_per_minute)
        streak = 0  # messages refused in a row for coming too fast: only some are answered

        async def refuse(code: str, words: str, tell: bool = True) -> bool:
            """Count a refused message; False when the connection has had too many and was closed."""
            if not refusals.take():
                await close(CLOSE_FLOOD)
                return False
            if tell:
                await send(error(code, words))
            return True

        try:
            while not closing:
                if connection.room is None and connection.relay is None:  # from the opening: pings do not put it off
                    patience = max(0.0, opened + self.settings.limits.hello_seconds - time.monotonic())
                else:
                    patience = self.settings.limits.silent_seconds
                try:
                    frame = await asyncio.wait_for(websocket.receive(), patience)
                except TimeoutError:
                    await close(CLOSE_SILENT)
                    break
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if not isinstance(text, str):
                    if not await refuse("bad_message", "send messages as text frames of JSON"):
                        break
                    continue
                if not bucket.take():
                    streak += 1
                    words = f"too many messages: at most {bucket.rate:g} a second"
                    if not await refuse("too_fast", words, tell=streak == 1 or streak % 20 == 0):
                        break
                    continue
                streak = 0
                try:
                    message = parse(text)
                except ProtocolError as exc:
                    if not await refuse(exc.code, str(exc)):
                        break
                    continue
                if not await self.hub.receive(connection, message) and not await refuse("", "", tell=False):
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            connection.closed = True
            await self.hub.disconnect(connection)
            self.hub.guard.close_socket(client)
            sender.cancel()
            outbox.close()
            connection.send = gone  # its closure held the connection: a cycle that only a full collection frees
            connection.close = None

    async def door(self, scope: Scope, receive: Receive, send: Send, route: Route) -> None:
        """Every socket but ``/ws`` (a score sheet's): the page's origin and the client's share of sockets."""
        websocket = WebSocket(scope, receive, send)
        if not self.settings.origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host")):
            await websocket.close(CLOSE_POLICY)
            return
        client = self.client_of(websocket)
        if not self.hub.guard.open_socket(client):
            await websocket.close(CLOSE_LIMIT)
            return
        try:
            await route(scope, receive, send)
        finally:
            self.hub.guard.close_socket(client)
