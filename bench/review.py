"""How long the web table's review of a match takes at its default budget (``Limits.review_deals`` and
``review_iterations``), and at the terminal's (``eights review``'s defaults), on one core.

Run from the repository root::

    python bench/review.py              # 4 matches, JSON on stdout (about a minute on a quiet machine)
    python bench/review.py --matches 8

What is measured. Each match is 2-player ``classic`` between a ``normal`` player in seat 0 (the person
reviewed) and an ``easy`` one, dealt from its seed (0, 1, ...). Seat 0's decisions are reviewed with
``review_decision`` in this process (one core, as one of the server's review workers), first at the
web's budget, then at the terminal's, alternately per match (an A/B in one run: the machine's load
weighs on both alike); each decision is timed with ``time.perf_counter``. Reported per budget: the
decisions, the seconds in all, the median and the largest seconds per decision, and the mistakes found.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from datetime import UTC, datetime

from eights.bots import make_bot
from eights.engine import Game, view
from eights.record import GameRecord
from eights.rules import load_preset
from eights.runs.review import ReviewSettings, review_decision, tasks_of
from eights.store.matches import MatchSummary
from eights.table import HUMAN
from eights.web.settings import Limits


def a_match(seed: int) -> tuple[MatchSummary, GameRecord]:
    game = Game(load_preset("classic"), 2, seed)
    bots = [make_bot("normal", seed), make_bot("easy", seed + 1)]
    while not game.is_over:
        game.play(bots[game.to_act].choose(view(game, game.to_act)))
    record = GameRecord.of(game, ("You", "Bram"))
    now = datetime.now(UTC)
    summary = MatchSummary(
        seed, now, now, "classic", (), ("You", "Bram"), (HUMAN, "easy"), True,
        record.winners or (), record.totals or (), 1, len(record.actions), True,
    )  # fmt: skip
    return summary, record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=4)
    args = parser.parse_args()
    limits = Limits()
    budgets = {
        "web": ReviewSettings(deals=limits.review_deals, iterations=limits.review_iterations),
        "terminal": ReviewSettings(),
    }
    times: dict[str, list[float]] = {name: [] for name in budgets}
    mistakes = dict.fromkeys(budgets, 0)
    for seed in range(args.matches):
        summary, record = a_match(seed)
        for name, settings in budgets.items():
            for task in tasks_of(summary, record, (0,), settings):
                start = time.perf_counter()
                decision = review_decision(task)
                times[name].append(time.perf_counter() - start)
                mistakes[name] += decision.mistake
    report = {
        name: {
            "deals": budgets[name].deals,
            "iterations": budgets[name].iterations,
            "decisions": len(spent),
            "seconds": round(sum(spent), 2),
            "median_seconds_per_decision": round(statistics.median(spent), 4),
            "max_seconds_per_decision": round(max(spent), 4),
            "mistakes": mistakes[name],
        }
        for name, spent in times.items()
    }
    print(json.dumps({"matches": args.matches, "budgets": report}, indent=2))


if __name__ == "__main__":
    main()
