"""A connection's outbox: the messages for one browser that its socket has not written yet, held to a number
of bytes (``Limits.outbox_bytes``, docs/security.md).

A browser that reads slowly, or not at all, needs only the room as it is now: a newer ``state`` replaces the
one still waiting and carries the narration lines of the states it replaced, so that the browser's log stays
exact; every other message (``welcome``, ``error``, ``hint``, ``replaced``, ``pong``) waits in order. Past the
limit a message is refused, and the connection is closed (its browser reconnects and says hello again). Every
outbox of a server counts its bytes in one ``Tally``, which ``/metrics`` shows.

A state waiting costs its own text and, for each state it replaced, only the lines that state brought: a
reader that reads nothing makes the server write out no more than a reader would.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Outbox", "Tally"]


@dataclass
class Tally:
    """Every outbox's figures together."""

    #: Bytes waiting in every outbox now (the message each socket is writing included).
    waiting: int = 0
    #: States replaced by a newer one before their socket wrote them, and connections closed for reading too
    #: slowly (their outbox full).
    replaced: int = 0
    slow: int = 0


def line_bytes(line: str) -> int:
    """What a narration line adds to a state's text."""
    return len(json.dumps(line, ensure_ascii=False).encode()) + 2


@dataclass(eq=False)
class Waiting:
    """A message waiting: its type and text; for a state, the message itself and the narration lines of the
    states it replaced (``carried``, from line ``start`` of the match on), which its text does not hold yet."""

    kind: str
    text: str
    size: int
    message: dict[str, Any] | None = None
    start: int = 0
    carried: list[str] = field(default_factory=list)
    carried_bytes: int = 0

    def replace(self, newer: dict[str, Any], text: str) -> None:
        """Replace this state by ``newer``: the lines this one's browser would keep from it (those before
        ``newer``'s first; all of them when ``newer`` starts its lines elsewhere: a new match, a hello said
        again) stay carried."""
        assert self.message is not None
        first = newer["log_from"]
        held = len(self.carried) + len(self.message["log"])
        if not self.start <= first <= self.start + held:
            self.start, self.carried, self.carried_bytes = first, [], 0
        elif first - self.start <= len(self.carried):
            gone = self.carried[first - self.start :]
            del self.carried[first - self.start :]
            self.carried_bytes -= sum(line_bytes(line) for line in gone)
        else:
            kept = self.message["log"][: first - self.start - len(self.carried)]
            self.carried += kept
            self.carried_bytes += sum(line_bytes(line) for line in kept)
        if not self.carried:
            self.start = first
        self.message, self.text = newer, text
        self.size = len(text.encode()) + self.carried_bytes

    def written(self) -> str:
        """The text to write: a state with the lines it carries before its own."""
        if not self.carried or self.message is None:
            return self.text
        message = {**self.message, "log_from": self.start, "log": self.carried + self.message["log"]}
        return json.dumps(message, ensure_ascii=False)


class Outbox:
    """One connection's messages not written yet, as text, at most ``limit`` bytes of them (a single message
    larger than that still goes, when nothing else waits)."""

    def __init__(self, limit: int, tally: Tally) -> None:
        self.limit = limit
        self.tally = tally
        self.waiting: deque[Waiting] = deque()
        #: The state waiting, if one does.
        self.state: Waiting | None = None
        #: Bytes of the messages waiting and of the one being written.
        self.size = 0
        self.writing = 0
        self.ready = asyncio.Event()
        self.closed = False

    def put(self, message: dict[str, Any]) -> bool:
        """Queue ``message`` (a state replaces the state waiting); False, when the outbox would then hold more
        than its limit (the connection is then closed: what waits no longer matters)."""
        kind = str(message.get("type"))
        text = json.dumps(message, ensure_ascii=False)
        older = self.state if kind == "state" else None
        if older is not None:
            before = older.size
            older.replace(message, text)
            self.waiting.remove(older)
            self._release(before)
            entry = older
            self.tally.replaced += 1
        else:
            entry = Waiting(
                kind, text, len(text.encode()), message if kind == "state" else None, message.get("log_from", 0)
            )
        if self.size and self.size + entry.size > self.limit:
            return False
        if kind == "state":
            self.state = entry
        self.waiting.append(entry)
        self.size += entry.size
        self.tally.waiting += entry.size
        self.ready.set()
        return True

    async def get(self) -> tuple[str, str] | None:
        """The next message to write, ``(type, text)``, once there is one; None once closed. Its bytes are
        counted until ``written``."""
        while not self.waiting:
            if self.closed:
                return None
            self.ready.clear()
            await self.ready.wait()
        entry = self.waiting.popleft()
        if entry is self.state:
            self.state = None
        self.writing = entry.size
        return entry.kind, entry.written()

    def written(self) -> None:
        """The message from ``get`` is written."""
        self._release(self.writing)
        self.writing = 0

    def close(self) -> None:
        """Drop every message waiting: nothing more is written."""
        self.closed = True
        self.waiting.clear()
        self.state = None
        self._release(self.size)
        self.writing = 0
        self.ready.set()

    def _release(self, size: int) -> None:
        self.size -= size
        self.tally.waiting -= size
