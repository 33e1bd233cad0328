"""How long the normal player's hint takes, and how many positions its turn planner examines, on hands of a
given size: the work one ``hint`` at the web table asks of the server (issue 37, item 1).

Run from the repository root::

    python bench/hint.py                                   # 2-player action, the issue's 50-card hands
    python bench/hint.py --option deal_two_players=7       # action's own hands, for comparison
    python bench/hint.py --deals 20 --moves 30 --cap 120

The positions: ``--deals`` deals of ``--preset`` at two players with the ``--option`` changes, each
played on by random moves (the easy player, seeded by the deal) for ``--moves`` actions; every
position on the way where the normal player plans its turn (``eights.bots.turnplan``: two players,
the first out wins, a play with a choice of two moves or more) is one. On each, ``hint`` of a fresh
``make_bot("normal", deal)`` is timed (``time.perf_counter``); one that runs past ``--cap`` seconds is
stopped there (a timer signal) and counted as ``capped``, its time as the cap. Where the planner has a
node budget (``eights.bots.turnplan.PLAN_NODES``), the positions its plan examines are counted on a
second run of the same plan (untimed; the same seed, so the same positions).

JSON on stdout: how many positions, the largest hand, and the hints' seconds (p50, p99, max, the
capped count) and the planner's positions (p50, p99, max) where counted; the slowest position's deal
and move. The machine's other load shows in every time: compare runs made side by side.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import statistics
import time
from typing import Any

from eights.bots import make_bot, turnplan
from eights.bots.heuristic import read_voids
from eights.engine import Game, View, view
from eights.rules import load_preset

ISSUE = ("packs=2", "deal_two_players=50", "deal_extra_packs=50")


class Capped(Exception):
    """A hint stopped at the cap."""


def positions(preset: str, options: dict[str, str], deals: int, moves: int) -> list[tuple[int, int, View]]:
    """(deal, move, view) of every position where the normal player plans its turn."""
    rules = load_preset(preset).with_options(options) if options else load_preset(preset)
    found = []
    for deal in range(deals):
        game = Game(rules, 2, seed=deal)
        easy = make_bot("easy", deal)
        for move in range(moves):
            if game.is_over:
                break
            seen = view(game, game.to_act)
            planned = turnplan.plannable(rules, 2) and seen.phase in ("play", "play_drawn") and not seen.chain
            if planned and len(seen.legal) > 1:
                found.append((deal, move, seen))
            game.apply(easy.choose(seen))
    return found


def nodes(deal: int, seen: View) -> int | None:
    """The positions the plan of ``make_bot("normal", deal)`` examines on ``seen`` (None: no count kept)."""
    budget_type = getattr(turnplan, "Budget", None)
    if budget_type is None:
        return None
    budget = budget_type(turnplan.PLAN_NODES)
    assert seen.seat is not None
    voids = read_voids(seen.history).get(1 - seen.seat, set())
    turnplan.planner_for(seen, random.Random(deal), voids, None, budget).best(seen.legal)
    return int(budget.nodes)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    at = q * (len(ordered) - 1)
    low = int(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="action")
    parser.add_argument("--option", action="append", help=f"KEY=VALUE (default: {' '.join(ISSUE)})")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--cap", type=float, default=60.0, help="seconds after which a hint is stopped")
    args = parser.parse_args()
    options = dict(item.split("=", 1) for item in (args.option or ISSUE))

    def stop(_signum: int, _frame: Any) -> None:
        raise Capped

    signal.signal(signal.SIGALRM, stop)
    seconds: list[float] = []
    counts: list[int] = []
    capped = 0
    slowest: tuple[float, int, int] = (0.0, -1, -1)
    found = positions(args.preset, options, args.deals, args.moves)
    for deal, move, seen in found:
        bot = make_bot("normal", deal)
        start = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, args.cap)
        try:
            bot.hint(seen)
            took = time.perf_counter() - start
        except Capped:
            took = args.cap
            capped += 1
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        seconds.append(took)
        slowest = max(slowest, (took, deal, move))
        count = nodes(deal, seen)
        if count is not None:
            counts.append(count)
    report: dict[str, Any] = {
        "preset": args.preset,
        "options": options,
        "positions": len(found),
        "largest_hand": max((len(seen.hand) for _, _, seen in found), default=0),
        "seconds": {
            "p50": round(statistics.median(seconds), 4),
            "p99": round(quantile(seconds, 0.99), 4),
            "max": round(max(seconds), 4),
            "capped": capped,
            "cap": args.cap,
        },
        "slowest": {"deal": slowest[1], "move": slowest[2]},
        "plan_nodes": getattr(turnplan, "PLAN_NODES", None),
        "nodes": None
        if not counts
        else {"p50": statistics.median(counts), "p99": round(quantile(counts, 0.99)), "max": max(counts)},
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
