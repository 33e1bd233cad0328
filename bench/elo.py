"""Elo ratings of every computer level, from a round-robin, with 95% intervals; prints JSON.

Run from the repository root::

    python bench/elo.py                        # classic, 2 players, 200 games a pair, 2 processes
    python bench/elo.py --games 20 --text      # a first look, as a table
    python bench/elo.py --hard 6000 --expert 30000 --games 400
    python bench/elo.py --games 80 --expert 2000 --jobs 1   # the README's figures (19 minutes, one core)

Every pair of levels (``easy``, ``normal``, ``learned``, ``hard``, ``expert``) plays ``--games`` games
of ``--variant`` at ``--players`` seats, as ``eights tournament --bots A,B --seed S`` plays them
(``eights.runs.tournament.run_tournament``: seats rotate, each deal is played in every rotation, the bots
are seeded from the game and the seat); every pair plays the same deals. ``easy`` is the random
player (a random legal move), so it stands for both "random" and "easy". The search levels search a
fixed number of iterations a move, ``hard@--hard`` and ``expert@--expert`` (1,000 and 5,000 by
default, in the ratio of their 0.2 s and 1 s; the levels as played search about 6,000 and 30,000,
``eights.bots.spec.ITERATIONS``), so that a seed gives the same games and ratings on any machine.

Ratings are fitted to all the pairs' results at once by ``eights.runs.tournament.tally`` (Bradley-Terry
on each game's pairwise scores: a win 1, a loss 0, a shared win 1/2; one drawn game added to every
pair, so a clean sweep stays finite) and anchored at ``easy`` = 0. Each rating's 95% interval is
the 2.5th to 97.5th percentile of the ratings refitted to ``--bootstrap`` resamples of the games
(each pair's games drawn again with replacement, seeded from ``--seed``). Each pair's score (the
first level's share of the points) comes with its Wilson interval (``eights.stats.wilson``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

try:
    from eights.rules import load_preset
    from eights.runs.tournament import GameResult, run_tournament, tally
    from eights.stats import wilson
except ImportError:  # run from a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    from eights.rules import load_preset
    from eights.runs.tournament import GameResult, run_tournament, tally
    from eights.stats import wilson

#: The anchor: this level's rating is 0.
ANCHOR = "easy"


def specs(hard: int, expert: int) -> dict[str, str]:
    """Each level's spec, weakest first."""
    return {
        "easy": "easy",
        "normal": "normal",
        "learned": "learned",
        "hard": f"hard@{hard}",
        "expert": f"expert@{expert}",
    }


def ratings(names: list[str], players: int, results: list[GameResult]) -> list[float]:
    """Each entrant's Elo from the games' results, the anchor's at 0."""
    elo = [b.elo for b in tally(names, players, results)]
    anchor = elo[names.index(ANCHOR)]
    return [e - anchor for e in elo]


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (linear between order statistics)."""
    ordered = sorted(values)
    at = q * (len(ordered) - 1)
    low = int(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def pair_score(a: int, results: list[GameResult]) -> float:
    """Entrant ``a``'s points against the other of its pair: a win 1, a shared win 1/2."""
    points = 0.0
    for r in results:
        points += sum(1.0 for w in r.winners if r.seats[w] == a) / len(r.winners)
    return points


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic", help="preset (classic)")
    parser.add_argument("--players", type=int, default=2, help="seats a game (2)")
    parser.add_argument("--games", type=int, default=200, help="games a pair (200)")
    parser.add_argument("--seed", type=int, default=1, help="tournament seed (1)")
    parser.add_argument("--hard", type=int, default=1000, help="hard's iterations a move (1000)")
    parser.add_argument("--expert", type=int, default=5000, help="expert's iterations a move (5000)")
    parser.add_argument("--bootstrap", type=int, default=1000, help="resamples for the intervals (1000)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (2)")
    parser.add_argument("--text", action="store_true", help="a Markdown table instead of JSON")
    args = parser.parse_args()
    rules = load_preset(args.variant)
    levels = specs(args.hard, args.expert)
    names = list(levels)
    start, cpu = time.perf_counter(), time.process_time()
    pairs: list[dict[str, Any]] = []
    games: list[list[GameResult]] = []
    for a, b in itertools.combinations(range(len(names)), 2):
        print(f"{levels[names[a]]} against {levels[names[b]]} ...", file=sys.stderr, flush=True)
        result = run_tournament(
            rules, args.players, [levels[names[a]], levels[names[b]]], args.games, args.seed, args.jobs
        )
        # The pair's entrants 0 and 1 are levels a and b of the round-robin.
        played = [
            GameResult(r.index, tuple((a, b)[e] for e in r.seats), r.winners, r.totals, r.rounds)
            for r in result.results
        ]
        games.append(played)
        score = pair_score(a, played)
        low, high = wilson(score, len(played))
        pairs.append(
            {
                "a": names[a],
                "b": names[b],
                "games": len(played),
                "a_score": round(score / len(played), 4),
                "low": round(low, 4),
                "high": round(high, 4),
                "seconds": round(result.seconds, 1),
            }
        )
    every = [r for pair in games for r in pair]
    elo = ratings(names, args.players, every)
    rng = random.Random(f"eights-bench-elo:{args.seed}")
    samples: list[list[float]] = [[] for _ in names]
    for _ in range(args.bootstrap):
        drawn = [pair[rng.randrange(len(pair))] for pair in games for _ in pair]
        for i, e in enumerate(ratings(names, args.players, drawn)):
            samples[i].append(e)
    totals = tally(names, args.players, every)
    report = {
        "variant": args.variant,
        "players": args.players,
        "games_a_pair": args.games,
        "seed": args.seed,
        "anchor": f"{ANCHOR} = 0",
        "bootstrap": args.bootstrap,
        "levels": [
            {
                "level": name,
                "spec": levels[name],
                "elo": round(elo[i], 1),
                "low": round(percentile(samples[i], 0.025), 1),
                "high": round(percentile(samples[i], 0.975), 1),
                "games": totals[i].games,
                "wins": totals[i].wins,
            }
            for i, name in enumerate(names)
        ],
        "pairs": pairs,
        "seconds": round(time.perf_counter() - start, 1),
        "processor_seconds_here": round(time.process_time() - cpu, 1),
        "jobs": args.jobs,
        "python": platform.python_version(),
    }
    if not args.text:
        print(json.dumps(report, indent=1))
        return
    print(f"{args.variant}, {args.players} players, {args.games} games a pair, seed {args.seed}; {ANCHOR} = 0\n")
    print("| level | Elo | 95% interval |")
    print("| --- | --- | --- |")
    for level in report["levels"]:
        print(f"| `{level['spec']}` | {level['elo']:.0f} | {level['low']:.0f} to {level['high']:.0f} |")
    print("\n| pair | first's score | 95% interval |")
    print("| --- | --- | --- |")
    for pair in pairs:
        print(
            f"| `{levels[pair['a']]}` against `{levels[pair['b']]}` | {100 * pair['a_score']:.1f}% | "
            f"{100 * pair['low']:.1f}-{100 * pair['high']:.1f}% |"
        )
    print(f"\n{report['seconds']:.0f} s")


if __name__ == "__main__":
    main()
