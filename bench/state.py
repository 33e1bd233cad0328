"""How many bytes the web table's ``state`` message takes at the largest rules: each seat's, as it acts.

Run from the repository root::

    python bench/state.py                                          # derange, 4 packs, stacking, a 100-card deal
    python bench/state.py --preset action --option stacking=true --option packs=2 --players 4

A room of ``--players`` people (``--preset`` with every ``--option``) is made on a hub of this process (a new
SQLite database in a temporary folder), its match dealt from seed 1, and ``--moves`` random legal moves
(seeded) are played into it.
Before each, the state the seat to act is sent (``Hub.state``: the room, the table as that seat sees it with
its legal moves, and the narration it has not had) is written as the server writes it (JSON, UTF-8).

Stdout gets one JSON object: the state's ``bytes`` (median, most) and, where it was largest (``largest``) and
where the seat had the most moves (``most_moves``), the engine's ``legal`` moves and the entries of
``table.legal`` that say them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
from pathlib import Path
from typing import Any

from eights.store import Store, database_url
from eights.table import HUMAN, PlayConfig, Session
from eights.web.rooms.connection import Connection
from eights.web.rooms.registry import Hub


async def nothing(message: dict[str, Any]) -> None:
    """Where the states measured would go."""


async def main(preset: str, options: dict[str, str], players: int, moves: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        store = Store(database_url(str(Path(folder) / "state.db")))
        hub = Hub(store, pace=0)
        here = [(f"P{seat}", f"{seat}" * 22) for seat in range(1, players)]
        seats = ["me", *["here"] * (players - 1)]
        room, _, _ = await hub.create("P0", preset, options, players, seats, start=True, here=here)
        people = tuple(seat.name for seat in room.seats)
        room.session = session = Session(PlayConfig(room.rules, (HUMAN,) * players, seed=1, people=people))
        connections = [Connection(nothing, seat=seat) for seat in range(players)]
        rng = random.Random(1)
        sizes: list[int] = []
        largest: dict[str, Any] = {}
        widest: dict[str, Any] = {}
        for _ in range(moves):
            if session.game.is_over:
                break
            seat = session.game.to_act
            state = room.state(connections[seat])
            size = len(json.dumps(state, ensure_ascii=False).encode())
            sizes.append(size)
            legal = session.view(seat).legal
            seen = {"bytes": size, "legal": len(legal), "entries": len(state["table"]["legal"])}
            if size > largest.get("bytes", 0):
                largest = seen
            if len(legal) > widest.get("legal", 0):
                widest = seen
            session.play(legal[rng.randrange(len(legal))], seat)
        await hub.close()
        store.close()
    return {
        "preset": preset,
        "options": options,
        "players": players,
        "states": len(sizes),
        "bytes": {"median": statistics.median(sizes), "most": max(sizes)},
        "largest": largest,
        "most_moves": widest,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="derange")
    parser.add_argument("--option", action="append", help="KEY=VALUE (repeat)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--moves", type=int, default=300)
    args = parser.parse_args()
    given = args.option or ["packs=4", "stacking=true", "rounds=100"]
    chosen = dict(item.partition("=")[::2] for item in given)
    print(json.dumps(asyncio.run(main(args.preset, chosen, args.players, args.moves)), indent=2))
