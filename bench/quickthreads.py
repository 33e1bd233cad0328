"""How long a classic room's normal computer waits for its move while heavy rooms fill the pool's quick threads.

Run from the repository root::

    python bench/quickthreads.py                 # 4 heavy rooms, 40 s, JSON on stdout
    python bench/quickthreads.py --rooms 8 --seconds 20

The issue's load (issue 37, item 1): ``--rooms`` rooms of 2-player ``action`` with two packs and fifty
cards a hand (rules the server now refuses, ``Limits.max_hand_size``; a room saved before could still
hold them) each ask the web table's pool (``eights.web.workers.BotPool``, the server's deadline of
5 s) for their normal computer's move again as soon as they have one, on the first position of a deal
of their own. One more room, of ``classic`` at the defaults, asks for its normal computer's move, waits
0.7 s (the table's pace) and asks again. The quick levels think in the pool's four threads.

What is measured (``time.monotonic``, around ``await pool.choose(...)``): the classic room's decisions in
``--seconds`` and its longest wait, in seconds, and the pool's counts (``BotPool.stats()``: overruns
and fallbacks are decisions that went past the deadline). The machine's other load shows in every
number: compare runs made side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time

from eights.bots import make_bot
from eights.engine import Game, View, view
from eights.rules import RuleSet, load_preset
from eights.web.workers import BotPool

HEAVY = {"packs": "2", "deal_two_players": "50", "deal_extra_packs": "50"}


def first(rules: RuleSet, seed: int) -> View:
    game = Game(rules, 2, seed)
    return view(game, game.to_act)


async def measure(rooms: int, seconds: float) -> dict[str, object]:
    pool = BotPool(1, deadline=5.0)  # the server's: think_seconds (3) and a margin of 2
    stop = time.monotonic() + seconds
    heavy = load_preset("action").with_options(HEAVY)

    async def busy(room: int) -> None:
        seen = first(heavy, room)
        while time.monotonic() < stop:
            await pool.choose(make_bot("normal", room), seen, f"heavy{room}")

    waits: list[float] = []

    async def classic() -> None:
        seen = first(load_preset("classic"), 1)
        while time.monotonic() < stop:
            asked = time.monotonic()
            await pool.choose(make_bot("normal", 1), seen, "classic")
            waits.append(time.monotonic() - asked)
            await asyncio.sleep(0.7)

    await asyncio.gather(classic(), *(busy(room) for room in range(rooms)))
    report = {
        "rooms": rooms,
        "seconds": seconds,
        "classic_decisions": len(waits),
        "classic_longest_wait": round(max(waits), 2),
        "pool": pool.stats(),
    }
    pool.close()
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=40.0)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(measure(args.rooms, args.seconds)), indent=2), flush=True)
    os._exit(0)  # a thread still thinking past its deadline (before the planner had a budget) is not waited for


if __name__ == "__main__":
    main()
