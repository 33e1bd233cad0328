"""How long a ``hard`` seat waits for its move while many rooms' ``expert`` seats fill the web table's pool.

Run from the repository root::

    python bench/botpool.py                      # 40 expert rooms, 20 s of load, JSON on stdout
    python bench/botpool.py --rooms 80 --seconds 30 --processes 2 --deadline 10

The issue's load (issue 28, item 2): every room of ``--rooms`` has one ``expert`` seat (1 s a
decision) that asks for its next move as soon as it has the last one (no pace: the worst a
room's computers can do), each room its own owner in the pool (``eights.web.workers.BotPool``).
One more room, the victim, has a ``hard`` seat (0.2 s a decision) that asks for a move, waits
``--pause`` seconds after it (0.7 s, the table's pace), and asks again.

What is measured (``time.perf_counter``, around ``await pool.choose(...)``), in seconds:
``alone``, the victim's decisions with the pool to itself (after one to start the workers), and
``loaded``, the same while the expert rooms run: median, p90, max, and how many of its moves were
the fallback (``fallbacks``: the bot came back unchanged). ``experts`` counts the expert rooms'
decisions in the loaded part, searched and fallen back; ``pool`` is ``BotPool.stats()`` at the
end. Every decision is made on one view (a two-player ``classic`` deal at a choice of two moves or
more): the load is the search's, the game does not matter.

The machine's other load shows in every number: compare runs made side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from typing import Any

from eights.bots import make_bot
from eights.engine import Game, View, view
from eights.rules import load_preset
from eights.web.workers import DEADLINE, BotPool


def a_decision(seed: int) -> View:
    """A two-player classic deal at a choice of seat 0 with two legal moves or more."""
    game = Game(load_preset("classic"), 2, seed=seed)
    other = make_bot("normal", seed)
    while game.to_act != 0 or len(game.legal_actions()) < 2 or not game.actions:
        seat = game.to_act
        game.play(other.choose(view(game, seat)) if seat == 1 else game.legal_actions()[0])
    return view(game, 0)


def summary(times: list[float], fallbacks: int) -> dict[str, Any]:
    ordered = sorted(times)
    return {
        "decisions": len(times),
        "median": round(statistics.median(ordered), 3),
        "p90": round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], 3),
        "max": round(ordered[-1], 3),
        "fallbacks": fallbacks,
    }


async def victim(pool: BotPool, seen: View, until: float, pause: float) -> tuple[list[float], int]:
    times: list[float] = []
    fallbacks = 0
    seed = 0
    while time.perf_counter() < until:
        bot = make_bot("hard", seed)
        start = time.perf_counter()
        _, back = await pool.choose(bot, seen, "victim")
        times.append(time.perf_counter() - start)
        fallbacks += back is bot
        seed += 1
        await asyncio.sleep(pause)
    return times, fallbacks


async def expert_room(pool: BotPool, seen: View, owner: str, until: float, counts: dict[str, int]) -> None:
    seed = 0
    while time.perf_counter() < until:
        bot = make_bot("expert", seed)
        _, back = await pool.choose(bot, seen, owner)
        counts["fallbacks" if back is bot else "searched"] += 1
        seed += 1


async def run(args: argparse.Namespace) -> dict[str, Any]:
    seen = a_decision(args.seed)
    pool = BotPool(args.processes, args.deadline)
    try:
        await asyncio.gather(*(pool.choose(make_bot("hard", i, iterations=10), seen, str(i)) for i in range(8)))
        alone = await victim(pool, seen, time.perf_counter() + args.alone, args.pause)
        until = time.perf_counter() + args.seconds
        counts = {"searched": 0, "fallbacks": 0}
        rooms = [expert_room(pool, seen, f"room{i}", until, counts) for i in range(args.rooms)]
        *_, loaded = await asyncio.gather(*rooms, victim(pool, seen, until, args.pause))
        stats = pool.stats()
    finally:
        await pool.aclose()
    return {
        "rooms": args.rooms,
        "processes": pool.processes,
        "deadline": args.deadline,
        "seconds": args.seconds,
        "alone": summary(*alone),
        "loaded": summary(*loaded),
        "experts": counts,
        "pool": stats,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=40, help="rooms with an expert seat (default 40)")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of load (default 20)")
    parser.add_argument("--alone", type=float, default=5.0, help="seconds of the victim alone first (default 5)")
    parser.add_argument("--pause", type=float, default=0.7, help="the victim's pause between moves (default 0.7)")
    parser.add_argument("--processes", type=int, default=None, help="worker processes (default: one per core)")
    parser.add_argument("--deadline", type=float, default=DEADLINE, help=f"the pool's deadline (default {DEADLINE})")
    parser.add_argument("--seed", type=int, default=12, help="the deal's seed (default 12)")
    print(json.dumps(asyncio.run(run(parser.parse_args())), indent=2))


if __name__ == "__main__":
    main()
