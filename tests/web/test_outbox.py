"""A socket's outbox (eights.web.outbox): a newer state replaces the one waiting, with its narration, and no
other message; the bytes waiting are counted, held to the limit, and given back once written or dropped.
(tests/web/test_log.py checks a slow reader's log through it; tests/web/test_hostile.py, sockets that never
read against a real server.)"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from eights.web.outbox import Outbox, Tally


def state(version: int, start: int, *lines: str) -> dict[str, Any]:
    return {"type": "state", "version": version, "log_from": start, "log": list(lines)}


async def drain(outbox: Outbox) -> list[dict[str, Any]]:
    out = []
    while outbox.waiting:
        got = await outbox.get()
        assert got is not None
        outbox.written()
        kind, text = got
        message = json.loads(text)
        assert message["type"] == kind
        out.append(message)
    return out


def test_a_newer_state_replaces_the_one_waiting_and_no_other_message() -> None:
    async def main() -> None:
        tally = Tally()
        outbox = Outbox(10_000, tally)
        welcome = {"type": "welcome", "room": "R", "seat": 0, "host": True}
        error = {"type": "error", "code": "stale", "message": "look again"}
        hint = {"type": "hint", "text": "Hint: draw", "action": "draw"}
        for message in (welcome, state(1, 0, "a", "b (open)"), error, hint, state(2, 1, "b", "c (open)")):
            assert outbox.put(message)
        assert outbox.put({"type": "pong"})
        assert outbox.put(state(3, 2, "c", "d"))  # the state waiting is replaced again, its lines kept
        assert outbox.put({"type": "replaced"})
        got = await drain(outbox)
        assert [m["type"] for m in got] == ["welcome", "error", "hint", "pong", "state", "replaced"]
        assert got[4] == state(3, 0, "a", "b", "c", "d")  # as a page holds them after reading all three
        assert tally.replaced == 2 and tally.waiting == 0
        # a state that starts its lines elsewhere (a hello said again, a new match) is taken as it is
        assert outbox.put(state(4, 3, "d", "e")) and outbox.put(state(5, 0, "x"))
        assert await drain(outbox) == [state(5, 0, "x")]

    asyncio.run(main())


def test_the_bytes_waiting_are_held_to_the_limit_and_given_back() -> None:
    async def main() -> None:
        tally = Tally()
        one, other = Outbox(300, tally), Outbox(300, tally)
        big = {"type": "error", "code": "x", "message": "y" * 1000}
        assert one.put(big)  # larger than the limit, but alone: it goes
        assert not one.put({"type": "pong"})  # nothing more while it waits
        size = len(json.dumps(big).encode())
        assert tally.waiting == size
        got = await one.get()
        assert got is not None and tally.waiting == size  # counted until written
        one.written()
        assert tally.waiting == 0
        pongs = 0
        while other.put({"type": "pong"}):
            pongs += 1
        assert pongs == 300 // len(b'{"type": "pong"}') and tally.waiting == pongs * 16
        # a state replacing the one waiting counts only once
        states = Outbox(300, tally)
        for version in range(50):
            assert states.put(state(version, 0, "a"))
        assert states.size == len(json.dumps(state(49, 0, "a"), ensure_ascii=False).encode())
        # a state with the lines of those it replaced counts them (within a separator)
        joined = Outbox(10**6, tally)
        for message in (state(1, 0, "a", "b ♥"), state(2, 1, "b ♥♥", "c"), state(3, 3, "d")):
            assert joined.put(message)
        size = joined.size
        got = await joined.get()
        assert got is not None and json.loads(got[1]) == state(3, 0, "a", "b ♥♥", "c", "d")
        assert abs(size - len(got[1].encode())) <= 2
        joined.written()
        other.close()
        states.close()
        assert tally.waiting == 0 and await other.get() is None

    asyncio.run(main())
