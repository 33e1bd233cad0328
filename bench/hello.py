"""What a ``hello`` costs the web table's event loop at a long match: the time of each, and the events of the
match it narrated.

Run from the repository root::

    python bench/hello.py                      # 30,000 actions, 1 seat's hello then 23 spectators'
    python bench/hello.py --actions 3000 --spectators 5

A room of two people (classic, to a target no match reaches, so that it lasts) is made on a hub of this
process (``eights.web.rooms.Hub``, a new SQLite database in a temporary folder) and ``--actions`` random legal
moves are played into its match. Then its first seat says ``hello`` (with its token), ``--spectators``
connections say ``hello`` as spectators, and the first seat says it again, each a new connection whose
messages are only counted. Each hello is timed as the event loop runs it (``Hub.receive``), and the
events fed to the narration (``Narrator.feed``) counted.

Stdout gets one JSON object: ``actions`` and ``events`` (the match's log), and for the seat's first hello,
the first spectator's, the later spectators' (median and most) and the seat's again: ``ms`` and ``narrated``
(events told). Stderr a line per step.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from eights.engine.events import Event
from eights.store import Store, database_url
from eights.table.lines import Line
from eights.table.narrator import Narrator
from eights.web.protocol import Hello
from eights.web.rooms.connection import Connection
from eights.web.rooms.registry import Hub

#: Events fed to every narrator so far.
narrated = 0
feed = Narrator.feed


def counted(self: Narrator, events: Iterable[Event]) -> list[Line]:
    global narrated
    events = list(events)
    narrated += len(events)
    return feed(self, events)


async def main(actions: int, spectators: int) -> dict[str, Any]:
    Narrator.feed = counted  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory() as folder:
        store = Store(database_url(str(Path(folder) / "hello.db")))
        hub = Hub(store, pace=0)
        room, token, _ = await hub.create(
            "Ann", "classic", {"target": "100000"}, 2, ["me", "here"], start=True, here=[("Bea", "b" * 22)]
        )
        session = room.session
        assert session is not None
        rng = random.Random(1)
        for _ in range(actions):
            seat = session.game.to_act
            legal = session.view(seat).legal
            session.play(legal[rng.randrange(len(legal))], seat)
        print(f"{actions} actions played, {len(session.game.log or [])} events", file=sys.stderr)

        async def hello(token: str | None) -> dict[str, float]:
            sent: list[dict[str, Any]] = []

            async def send(message: dict[str, Any]) -> None:
                sent.append(message)

            before = narrated
            started = time.perf_counter()
            await hub.receive(Connection(send), Hello(type="hello", room=room.code, token=token))
            took = time.perf_counter() - started
            assert any(m["type"] == "state" for m in sent), sent
            return {"ms": round(took * 1000, 2), "narrated": narrated - before}

        mine = await hello(token)
        print(f"the seat's hello: {mine}", file=sys.stderr)
        watchers = [await hello(None) for _ in range(spectators)]
        print(f"the first spectator's: {watchers[0]}", file=sys.stderr)
        again = await hello(token)
        later = [w["ms"] for w in watchers[1:]] or [0.0]
        await hub.close()
        store.close()
        return {
            "actions": actions,
            "events": len(session.game.log or []),
            "seat_first": mine,
            "spectator_first": watchers[0] if watchers else None,
            "spectators_later_ms": {"median": statistics.median(later), "max": max(later)},
            "spectators_later_narrated": sum(w["narrated"] for w in watchers[1:]),
            "seat_again": again,
        }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=30_000)
    parser.add_argument("--spectators", type=int, default=23)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main(args.actions, args.spectators)), indent=2))
