"""Fit the normal player's turn-planner weights (``eights.bots.turnplan.WEIGHTS``); prints JSON.

Plays the normal player against the random one in 2-player games of a preset (seats
alternating), records the planner's features wherever one of the normal player's
turns ends (``TurnPlanner.features``, from that seat's view), labels each with whether
that player went on to win the hand, and fits a logistic regression by Newton's
method. The fitted weights are printed in ``FEATURES`` order; pasting them into
``WEIGHTS`` and fitting again is one step of policy iteration (the data come from the
player that uses the weights).

    python bench/fit_normal.py --variant action --games 12000 --seed 8
    python bench/fit_normal.py --variant action --games 12000 --seed 8 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor

from eights.bots import HeuristicBot, RandomBot
from eights.bots.heuristic import _voids
from eights.bots.turnplan import FEATURES, TurnPlanner, plannable
from eights.engine import Game, view
from eights.rules import load_preset
from eights.simulate import bot_seed, game_seed


def gather(args: tuple[str, int, int, int]) -> list[tuple[tuple[float, ...], float]]:
    """The (features, won) rows of games ``start`` to ``stop``."""
    variant, seed, start, stop = args
    rules = load_preset(variant)
    rows: list[tuple[tuple[float, ...], float]] = []
    for index in range(start, stop):
        g = Game(rules, 2, game_seed(seed, index), log=True)
        mine = index % 2
        bots = [HeuristicBot(bot_seed(g.seed, 0)), RandomBot(bot_seed(g.seed, 1))]
        if mine:
            bots.reverse()
        ends: list[tuple[float, ...]] = []
        while not g.is_over:
            seat = g.to_act
            g.play(bots[seat].choose(view(g, seat)), seat)
            if seat == mine and g.to_act != mine and not g.is_over:
                seen = view(g, mine)
                planner = TurnPlanner(seen, random.Random(index), _voids(seen).get(1 - mine, set()))
                ends.append(planner.features(g))
        assert g.outcome is not None
        won = 1.0 if mine in g.outcome.winners else 0.0
        rows.extend((x, won) for x in ends)
    return rows


def fit(rows: list[tuple[tuple[float, ...], float]], steps: int = 30) -> tuple[list[float], float]:
    """Logistic regression by Newton's method (a little ridge for stability); the weights and mean log-likelihood."""
    k = len(rows[0][0])
    w = [0.0] * k
    for _ in range(steps):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in rows:
            p = _sigmoid(sum(a * b for a, b in zip(w, x, strict=True)))
            r, s = p - y, p * (1 - p)
            for i in range(k):
                grad[i] += r * x[i]
                xi = x[i] * s
                row = hess[i]
                for j in range(k):
                    row[j] += xi * x[j]
        for i in range(k):
            hess[i][i] += 1e-3 * len(rows) / 1000
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
        if max(abs(d) for d in step) < 1e-7:
            break
    loglik = 0.0
    for x, y in rows:
        p = min(max(_sigmoid(sum(a * b for a, b in zip(w, x, strict=True))), 1e-12), 1 - 1e-12)
        loglik += y * math.log(p) + (1 - y) * math.log(1 - p)
    return w, loglik / len(rows)


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(min(z, 30.0), -30.0)))


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting."""
    k = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(k):
        pivot = max(range(c, k), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(k):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                for j in range(c, k + 1):
                    m[r][j] -= f * m[c][j]
    return [m[i][k] / m[i][i] for i in range(k)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="action", help="a preset the planner plays (default: action)")
    parser.add_argument("--games", type=int, default=12000, help="games to learn from (default: 12000)")
    parser.add_argument("--seed", type=int, default=8, help="the games' seed (default: 8)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default: 1)")
    args = parser.parse_args()
    if args.games < 2 or args.jobs < 1:
        parser.error("--games must be at least 2 and --jobs at least 1")
    if not plannable(load_preset(args.variant), 2):
        parser.error(f"the turn planner does not play 2-player {args.variant}: its cards have other effects")
    chunks = 20
    games, seed = args.games, args.seed
    bounds = [(args.variant, seed, games * i // chunks, games * (i + 1) // chunks) for i in range(chunks)]
    rows: list[tuple[tuple[float, ...], float]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for done, part in enumerate(pool.map(gather, bounds), 1):
            rows.extend(part)
            print(f"\rgathered {done}/{chunks} parts, {len(rows)} turn ends", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    weights, loglik = fit(rows)
    out = {
        "variant": args.variant,
        "games": args.games,
        "seed": args.seed,
        "turn_ends": len(rows),
        "mean_log_likelihood": round(loglik, 5),
        "weights": {name: round(w, 3) for name, w in zip(FEATURES, weights, strict=True)},
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
