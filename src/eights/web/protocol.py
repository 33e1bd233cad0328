"""The WebSocket protocol's messages from the browser, validated (pydantic); see docs/protocol.md.

A message that does not fit is refused before it reaches a room: ``parse`` raises
``ProtocolError`` with the code and the words the browser gets back.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from eights.web.wire import (
    CLOSE_FLOOD as CLOSE_FLOOD,
)
from eights.web.wire import (
    CLOSE_GONE as CLOSE_GONE,
)
from eights.web.wire import (
    CLOSE_LIMIT as CLOSE_LIMIT,
)
from eights.web.wire import (
    CLOSE_MOVED as CLOSE_MOVED,
)
from eights.web.wire import (
    CLOSE_REPLACED as CLOSE_REPLACED,
)
from eights.web.wire import (
    CLOSE_SILENT as CLOSE_SILENT,
)
from eights.web.wire import (
    CLOSE_SLOW as CLOSE_SLOW,
)
from eights.web.wire import (
    VERSION as VERSION,
)
from eights.web.wire import (
    error as error,
)

#: The largest frame a browser may send, in bytes.
MAX_FRAME = 4096


class ProtocolError(ValueError):
    """A message refused before it reached a room: ``code`` and a sentence for the player."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Hello(_Message):
    type: Literal["hello"]
    room: Annotated[str, Field(min_length=1, max_length=16)]
    token: Annotated[str, Field(max_length=64)] | None = None


class Sit(_Message):
    type: Literal["sit"]
    seat: Annotated[int, Field(ge=0, le=31)]
    name: Annotated[str, Field(max_length=64)]


class Setup(_Message):
    type: Literal["setup"]
    version: int
    preset: Annotated[str, Field(max_length=40)]
    options: Annotated[
        dict[Annotated[str, Field(max_length=40)], Annotated[str, Field(max_length=80)]], Field(max_length=64)
    ] = {}
    players: Annotated[int, Field(ge=1, le=32)]
    seats: Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=32)]
    away_seconds: Annotated[int, Field(ge=5, le=3600)] = 60


class Start(_Message):
    type: Literal["start"]
    version: int


class Act(_Message):
    type: Literal["act"]
    version: int
    action: Annotated[str, Field(min_length=1, max_length=80)]


class AskHint(_Message):
    type: Literal["hint"]
    version: int


class Rematch(_Message):
    type: Literal["rematch"]
    version: int


class Ping(_Message):
    type: Literal["ping"]


Incoming = Annotated[Hello | Sit | Setup | Start | Act | AskHint | Rematch | Ping, Field(discriminator="type")]
_INCOMING: TypeAdapter[Incoming] = TypeAdapter(Incoming)
TYPES = ("hello", "sit", "setup", "start", "act", "hint", "rematch", "ping")


def parse(frame: str | bytes) -> Incoming:
    """One frame from a browser as a message.

    :raises ProtocolError: ``too_big`` or ``bad_message``, saying what is wrong.
    """
    if len(frame) > MAX_FRAME:
        raise ProtocolError("too_big", f"a message may hold at most {MAX_FRAME} bytes")
    try:
        data: Any = json.loads(frame)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_message", "a message must be a JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    if data.get("type") not in TYPES:
        raise ProtocolError("bad_message", f"unknown message type; valid: {', '.join(TYPES)}")
    try:
        return _INCOMING.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise ProtocolError("bad_message", f"{data['type']}: {where}: {first['msg']}") from None
