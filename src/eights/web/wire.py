"""What the web table's protocol (docs/protocol.md) holds that needs no validation library: the server's
close codes and an error message. Its messages from the browser are checked in ``eights.web.protocol``."""

from __future__ import annotations

from typing import Any

#: The protocol's version, in ``/api/presets`` and docs/protocol.md.
VERSION = 1

#: The server's close codes (docs/protocol.md): the seat moved to a newer connection (the page does not
#: reconnect by itself), the room is gone, too many refused messages, a reader too slow, silence, too
#: many sockets, and the room is played by another instance now (the page reconnects and says hello).
CLOSE_REPLACED, CLOSE_GONE, CLOSE_FLOOD, CLOSE_SLOW, CLOSE_SILENT, CLOSE_MOVED, CLOSE_LIMIT = (
    4000,
    4004,
    4008,
    4009,
    4010,
    4012,
    4029,
)


def error(code: str, message: str) -> dict[str, Any]:
    """A refused message's answer: its ``code`` and a sentence for the player."""
    return {"type": "error", "code": code, "message": message}
