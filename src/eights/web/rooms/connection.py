"""One browser tab's WebSocket as the rooms see it, and where its messages go when another instance owns its
room (``eights.web.rooms.relay``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from eights.web.tableview import SeatLog

if TYPE_CHECKING:
    from eights.web.guard import Bucket
    from eights.web.rooms.room import Room

Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(frozen=True)
class Relay:
    """Where a connection's messages go when another instance owns its room."""

    owner: str
    code: str
    #: The connection's name on the owner.
    id: str


@dataclass(eq=False)
class Connection:
    """One browser tab's WebSocket, as the rooms see it."""

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


async def send(connection: Connection, message: dict[str, Any]) -> None:
    """Send to one connection; a failure is that connection's alone (it is marked closed)."""
    if connection.closed:
        return
    try:
        await connection.send(message)
    except Exception:  # a socket that broke, a full outbox: that browser reconnects and says hello again
        connection.closed = True
