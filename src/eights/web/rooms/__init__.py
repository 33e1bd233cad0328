"""The rooms of the web table: the registry of a server's rooms (``registry.Hub``), one actor per room
(``room.Room``: its lock, version, connections and messages), its runner (``runner.Runner``: the computers'
turns and away people), its keeping in the store (``keeping.Keeping``), the connections (``connection``)
and, with many instances, the relays between them (``relay.Relays``)."""

from eights.web.rooms.connection import Connection, Relay
from eights.web.rooms.errors import RoomError
from eights.web.rooms.keeping import EPOCH, EPOCH_KEY
from eights.web.rooms.registry import CODE_LENGTH, CODE_LETTERS, CODE_MAX, SWEEP_EVERY, Hub, normal_code
from eights.web.rooms.room import LOG_BACKLOG, Room
from eights.web.rooms.runner import STAND_IN
from eights.web.rooms.seats import (
    DEFAULT_AWAY,
    HERE,
    OPEN,
    SeatState,
    check_hands,
    new_token,
    rules_from,
    same_token,
    web_seat,
)

__all__ = [
    "CODE_LENGTH",
    "CODE_LETTERS",
    "CODE_MAX",
    "DEFAULT_AWAY",
    "EPOCH",
    "EPOCH_KEY",
    "HERE",
    "LOG_BACKLOG",
    "OPEN",
    "STAND_IN",
    "SWEEP_EVERY",
    "Connection",
    "Hub",
    "Relay",
    "Room",
    "RoomError",
    "SeatState",
    "check_hands",
    "new_token",
    "normal_code",
    "rules_from",
    "same_token",
    "web_seat",
]
